//! The frame's typing, read in the order the user typed it: keys and input-method (IME)
//! messages arrive as two message types, each in its own order, and the order between them
//! comes from Bevy's [`WindowEvent`] stream, in which the window backend writes every event a
//! second time, in the order the platform delivered them.
//!
//! Beside them, what the window system says of the Shift key: an input method may keep a Shift
//! press and release for itself (ibus-hangul does while it composes a syllable, where Shift
//! makes the doubled consonants), and pass on only the key after it. The window backend still
//! hears the modifiers change (winit's `ModifiersChanged`), which Bevy 0.19 passes on only as
//! raw winit events ([`RawWinitWindowEvent`]); those come in the same order as the keys, so the
//! change lands between the same two keys here.

use bevy::{
    ecs::system::SystemParam,
    input::keyboard::{KeyboardFocusLost, KeyboardInput},
    prelude::*,
    window::{Ime, WindowEvent, WindowFocused},
    winit::RawWinitWindowEvent,
};
use winit::event::WindowEvent as Winit;

/// One piece of typing, in the order it came.
#[derive(Debug, Clone)]
pub(crate) enum Typed {
    Key(KeyboardInput),
    Ime(Ime),
    /// The window system says Shift is now held (or not), whatever keys the app saw of it.
    Shift(bool),
    /// The window lost focus: a composition left over ends.
    FocusLost,
}

/// The frame's typing, read in the order it came.
#[derive(SystemParam)]
pub(crate) struct Typing<'w, 's> {
    keys: MessageReader<'w, 's, KeyboardInput>,
    imes: MessageReader<'w, 's, Ime>,
    order: MessageReader<'w, 's, WindowEvent>,
    window_focus: MessageReader<'w, 's, WindowFocused>,
    keyboard_lost: MessageReader<'w, 's, KeyboardFocusLost>,
    raw: MessageReader<'w, 's, RawWinitWindowEvent>,
}

/// Logs a piece of typing at trace level, as it is applied: what the platform and the IME
/// delivered, in the order the field takes it, to tell an IME's own disorder from the field's.
pub(crate) fn trace_typed(typed: &Typed) {
    match typed {
        Typed::Key(key) => trace!("key {:?} {:?}", key.logical_key, key.state),
        Typed::Ime(Ime::Commit { value, .. }) => trace!("IME commit {value:?}"),
        Typed::Ime(Ime::Preedit { value, .. }) => trace!("IME preedit {value:?}"),
        Typed::Ime(other) => trace!("IME {other:?}"),
        Typed::Shift(held) => trace!("Shift held: {held}"),
        Typed::FocusLost => trace!("focus lost"),
    }
}

impl Typing<'_, '_> {
    /// Whether the window's keyboard focus was lost this frame: keys held then are released
    /// without an event of their own.
    pub(crate) fn lost_keyboard(&mut self) -> bool {
        // Read to the end (not `any`), so that no message is left to be read again.
        self.keyboard_lost.read().count() > 0
    }

    /// Merges the frame's keys and IME messages in the order the window backend delivered
    /// them, and a lost focus after them.
    ///
    /// Messages written without a matching [`WindowEvent`] (by another plugin, say) have no
    /// known place; they keep their order among their own type and come last, keys first.
    pub(crate) fn in_arrival_order(&mut self) -> Vec<Typed> {
        let mut shifts = self.shift_changes().into_iter().peekable();
        let mut keys = self.keys.read().cloned();
        let mut imes = self.imes.read().cloned();
        let mut keys_so_far = 0;
        let mut merged = Vec::new();
        for event in self.order.read() {
            let typed = match event {
                WindowEvent::KeyboardInput(_) => keys.next().map(Typed::Key),
                WindowEvent::Ime(_) => imes.next().map(Typed::Ime),
                _ => None,
            };
            if matches!(typed, Some(Typed::Key(_))) {
                while let Some((_, held)) = shifts.next_if(|&(before, _)| before <= keys_so_far) {
                    merged.push(Typed::Shift(held));
                }
                keys_so_far += 1;
            }
            merged.extend(typed);
        }
        merged.extend(shifts.map(|(_, held)| Typed::Shift(held)));
        merged.extend(keys.map(Typed::Key));
        merged.extend(imes.map(Typed::Ime));
        // Read to the end (not `any`), so that no message is left to be read again.
        if self
            .window_focus
            .read()
            .filter(|window| !window.focused)
            .count()
            > 0
        {
            merged.push(Typed::FocusLost);
        }
        merged
    }

    /// The frame's changes of Shift as the window system tells them: each with how many of the
    /// frame's keys came before it.
    fn shift_changes(&mut self) -> Vec<(usize, bool)> {
        let mut keys = 0;
        let mut changes = Vec::new();
        for raw in self.raw.read() {
            match &raw.event {
                // The keys Bevy passes on, as it passes them.
                Winit::KeyboardInput {
                    is_synthetic: false,
                    ..
                } => keys += 1,
                Winit::ModifiersChanged(modifiers) => {
                    changes.push((keys, modifiers.state().shift_key()));
                }
                _ => {}
            }
        }
        changes
    }
}

/// Whether an IME message brings text: a syllable being composed, or one committed.
pub(crate) fn ime_types(ime: &Ime) -> bool {
    match ime {
        Ime::Preedit { value, .. } | Ime::Commit { value, .. } => !value.is_empty(),
        Ime::Enabled { .. } | Ime::Disabled { .. } => false,
    }
}

/// Whether an IME message empties the preedit: it ends a composition, if there is one, with
/// nothing committed yet.
pub(crate) fn empties_preedit(ime: &Ime) -> bool {
    matches!(ime, Ime::Preedit { value, .. } if value.is_empty())
}
