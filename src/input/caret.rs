//! When the caret blinks: while the user is active and for [`BLINK_TIMEOUT`] after, then it
//! rests, solid, until the next input. GTK's rule (`gtk-cursor-blink-timeout`, 10 s), and the
//! reason an idle window can cost nothing: a resting caret needs no frames, so the window
//! waits for the next event instead of waking every half second.
//!
//! The widget blinks its caret on its own timer, [`TextInputCursorTimer`]. Resting pauses that
//! timer; and since the caret may be in its dark half at that moment, the widget is told to
//! show it: any change to [`TextInputInactive`] makes the widget repaint the caret (shown, or
//! hidden while inactive) and restart its timer. Waking does the same with the timer running.

use std::time::Duration;

use bevy::{
    input::{keyboard::KeyboardInput, mouse::MouseButtonInput},
    prelude::*,
    window::{Ime, WindowFocused},
    winit::{UpdateMode, WinitSettings},
};
use bevy_simple_text_input::{TextInputCursorTimer, TextInputInactive};

use super::ChatInput;

/// How long the caret keeps blinking after the last input.
pub const BLINK_TIMEOUT: Duration = Duration::from_secs(10);

/// How often the widget turns its caret on or off while it blinks.
pub const BLINK_INTERVAL: Duration = Duration::from_millis(500);

/// How long a window with nothing to show waits for the next event before it runs a frame
/// anyway: a day, which in practice is never.
///
/// Not `Duration::MAX`, though Bevy documents that as waiting for ever: bevy_winit 0.19 adds the
/// wait to the frame's start instant, and when that overflows it keeps the deadline it had set
/// before, now in the past, so the loop wakes at once, again and again (measured: 127% of a
/// core instead of 0). An engine workaround ([`crate::workarounds`]), fixed upstream by
/// bevyengine/bevy#24989; canary `bevy_winit_keeps_a_past_deadline_when_the_wait_overflows`.
pub const SLEEP: Duration = Duration::from_secs(24 * 60 * 60);

/// Lets Bevy's virtual clock, which the widget's blink timer runs on, keep up with a window that
/// sleeps half a blink between frames.
///
/// The virtual clock advances by at most its `max_delta` a frame, 250 ms by default, so
/// that a game paused in a debugger does not leap ahead. A window that wakes only for the
/// blink sees 500 ms between frames; clamped to 250 ms, the widget's 500 ms timer finished on
/// every other wake, so the caret turned on or off once a second, not twice, and every other
/// frame drew nothing new. Two intervals: the wake may come a little late. A workaround
/// ([`crate::workarounds`]); canary `the_widget_blinks_on_the_virtual_clock`.
pub(super) fn follow_the_blink_in_virtual_time(mut time: ResMut<Time<Virtual>>) {
    time.set_max_delta(2 * BLINK_INTERVAL);
}

/// Whether the caret blinks or rests, and why.
#[derive(Resource, Reflect, Debug)]
#[reflect(Resource)]
pub struct CaretBlink {
    /// When the last key, IME message, click or focus gain came, on the real-time clock.
    last_input: Duration,
    /// Whether the window has keyboard focus: an unfocused window's caret rests at once.
    focused: bool,
    resting: bool,
}

impl Default for CaretBlink {
    fn default() -> Self {
        Self {
            last_input: Duration::ZERO,
            focused: true,
            resting: false,
        }
    }
}

impl CaretBlink {
    /// Whether the caret stands still (solid) rather than blinking.
    pub fn is_resting(&self) -> bool {
        self.resting
    }
}

/// Notes the frame's input, rests or wakes the caret, and sets how long the window may sleep:
/// half a blink while the caret blinks, [`SLEEP`] while it rests (every event still wakes it).
///
/// Real time, not Bevy's virtual time: after a long sleep, virtual time advances by at most a
/// quarter of a second, and the timeout would stretch to minutes.
pub(super) fn rest_when_idle(
    time: Res<Time<Real>>,
    mut keys: MessageReader<KeyboardInput>,
    mut imes: MessageReader<Ime>,
    mut clicks: MessageReader<MouseButtonInput>,
    mut focus: MessageReader<WindowFocused>,
    mut blink: ResMut<CaretBlink>,
    mut fields: Query<(&mut TextInputCursorTimer, &mut TextInputInactive), With<ChatInput>>,
    settings: Option<ResMut<WinitSettings>>,
) {
    let now = time.elapsed();
    // Every reader read to its end, so that no message counts again next frame.
    let typed = keys.read().count() > 0;
    let composed = imes.read().count() > 0;
    let clicked = clicks
        .read()
        .filter(|click| click.state.is_pressed())
        .count()
        > 0;
    let mut gained_focus = false;
    if let Some(last) = focus.read().last() {
        gained_focus = last.focused && !blink.focused;
        blink.focused = last.focused;
    }
    if typed || composed {
        // Keys reach only a focused window, whatever order the focus messages came in.
        blink.focused = true;
    }
    if typed || composed || clicked || gained_focus {
        blink.last_input = now;
    }
    let resting = !blink.focused || now.saturating_sub(blink.last_input) >= BLINK_TIMEOUT;
    if resting == blink.resting {
        return;
    }
    blink.resting = resting;
    debug!(
        "caret {} (focused: {})",
        if resting { "rests" } else { "blinks" },
        blink.focused
    );
    for (mut cursor, mut inactive) in &mut fields {
        if resting {
            cursor.timer.pause();
        } else {
            cursor.timer.unpause();
        }
        inactive.set_changed();
    }
    // Both modes: the window's own focus flag, which picks the mode, can lag the focus
    // messages read here, and a blinking caret must get its frames either way.
    if let Some(mut settings) = settings {
        let settings = &mut *settings;
        for mode in [&mut settings.focused_mode, &mut settings.unfocused_mode] {
            if let UpdateMode::Reactive { wait, .. } = mode {
                *wait = if resting { SLEEP } else { BLINK_INTERVAL };
            }
        }
    }
}
