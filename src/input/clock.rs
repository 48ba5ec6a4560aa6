//! The input layer's one clock: the moment a key, an input-method message, a click or a paste
//! is handled. The commit wait and the paste wait (`keyboard/typing.rs`), the caret's rest
//! (`input/caret.rs`) and multi-clicks (`input/selection.rs`, `view/selection.rs`) all measure
//! by it.

use std::time::Duration;

use bevy::{platform::time::Instant, prelude::*};

/// When input is handled: read from the system clock each time it is asked.
///
/// Not [`Time<Real>`]. With a renderer, Bevy 0.19 sets that clock at the start of a frame to
/// the moment the previous frame finished rendering (bevy_render's `send_time`), so after the
/// window rested it reads when the rest began, and the next frame jumps over the whole rest. A
/// wait stamped in the first frame after a rest then reads as long spent in the second: the
/// keys held for an IME's commit went before it, and a Korean line was sent without its last
/// syllable (`안녕하세` sent, `요` left in the field), in 13 lines of 50 typed through
/// ibus-hangul at a natural rhythm. Timing input is not what that clock is for: it is the
/// frame's, for animation. An app-side choice, not an engine defect.
///
/// Tests put the clock where they want it with [`InputClock::Manual`] and move it with
/// [`InputClock::advance`], as they move Bevy's clocks with `TimeUpdateStrategy`.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum InputClock {
    /// The system's clock, read at each call: what the app runs on.
    #[default]
    Real,
    /// A clock that stands where it was put until it is moved.
    Manual(Instant),
}

impl InputClock {
    /// Now, on this clock.
    pub fn now(&self) -> Instant {
        match *self {
            Self::Real => Instant::now(),
            Self::Manual(at) => at,
        }
    }

    /// Moves a manual clock on by `by`; the real one moves by itself.
    pub fn advance(&mut self, by: Duration) {
        if let Self::Manual(at) = self {
            *at += by;
        }
    }

    /// How long ago `then` was, on this clock; zero for a moment still to come.
    pub fn since(&self, then: Instant) -> Duration {
        self.now().saturating_duration_since(then)
    }
}
