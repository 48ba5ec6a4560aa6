//! The exit key: Escape asks the app to quit, whatever the conversation is doing.

use bevy::{input::keyboard::Key, prelude::*};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, exit_on_escape.in_set(EscapeExits));
}

/// The exit key's system. A desktop layer that takes Escape for itself in some place (the find
/// bar closes on it) gives this set a run condition, and the core stays as the spec says.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EscapeExits;

/// Requests a successful [`AppExit`] when Escape is pressed: the key that means Escape, wherever
/// the keyboard puts it (a remapped or on-screen keyboard may send it from another place).
///
/// It touches no conversation state: submissions read in the same frame still complete, since
/// the app only stops after the frame ends.
pub fn exit_on_escape(keys: Res<ButtonInput<Key>>, mut exit: MessageWriter<AppExit>) {
    if keys.just_pressed(Key::Escape) {
        exit.write(AppExit::Success);
    }
}
