//! The keyboard's pass: each key and each piece of input-method text of the frame, in the order
//! they came, taken where keyboard focus is and carried there. It sits above the field's layer
//! (`input/`) and what the user sees (`view/`), and imports both; neither imports it. What a
//! key means is data below them all (`input/keys.rs`, `input/keymap.rs`), and which of those
//! meanings holds where focus is, the routing table (`input/routing.rs`).

use bevy::prelude::*;

mod typing;

pub use typing::PASTE_PATIENCE;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, typing::edit_field.in_set(KeyboardSystems));
}

/// The keyboard's pass: the frame's typing applied, key by key, where focus is; before the
/// field's other systems, which show what it did (`frame.rs`).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyboardSystems;
