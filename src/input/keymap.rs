//! What a key means to the targets over the field's line: the find bar, zoom and an open menu.
//! Plain data, like a keymap: each function is one context's table from a key to what it asks
//! for. The routing table (`input/routing.rs`) reads them; the find bar, zoom and the menu
//! (`view/`) carry out what they ask. Below everything that acts on a key, so nothing here
//! knows those targets.

use bevy::{
    input::keyboard::{Key, KeyboardInput},
    prelude::*,
};

use super::keys::{self, Modifiers};

/// What a key asks of the find bar ([`find_key`] reads it), which the typing passes on in the
/// order the keys came; the bar (`view/find.rs`) carries it out.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Find {
    /// Ctrl+F: open the bar (or, open, select its query), with keyboard focus in it; `from`
    /// is where focus was.
    Open {
        /// Where keyboard focus was when Ctrl+F was pressed.
        from: Option<Entity>,
    },
    /// Enter or F3: the next match.
    Next,
    /// Shift+Enter or Shift+F3: the match before.
    Previous,
    /// Escape while the bar is open: close it; focus in the bar goes back where it was.
    Close,
}

/// The find bar as a key sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarState {
    /// Not open.
    Closed,
    /// Open, with keyboard focus elsewhere (the chat's field, the conversation).
    Open,
    /// Open, with keyboard focus in its field.
    Focused,
}

/// What the key press `key` asks of the find bar, with `held` held and the bar in `bar`'s state:
/// Ctrl+F opens it, F3 and Shift+F3 go to the next and previous match from anywhere; while it is
/// open, Escape closes it, wherever focus is; in its field, Enter and Shift+Enter are F3's.
pub fn find_key(key: &KeyboardInput, held: Modifiers, bar: BarState) -> Option<Find> {
    if !key.state.is_pressed() || held.alt_or_meta() {
        return None;
    }
    let (ctrl, shift) = (held.ctrl(), held.shift());
    let onwards = if shift { Find::Previous } else { Find::Next };
    match keys::meaning(key) {
        KeyCode::F3 if !ctrl => Some(onwards),
        KeyCode::Enter | KeyCode::NumpadEnter if bar == BarState::Focused && !ctrl => Some(onwards),
        KeyCode::Escape if bar != BarState::Closed => Some(Find::Close),
        _ if ctrl && !shift && keys::letter(key).as_deref() == Some("f") => {
            Some(Find::Open { from: None })
        }
        _ => None,
    }
}

/// A step of the zoom, asked for by a key or a wheel notch; zoom (`view/zoom.rs`) takes it.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zoom {
    /// One level larger, up to 300%.
    In,
    /// One level smaller, down to 50%.
    Out,
    /// Back to 100%.
    Reset,
}

/// The zoom key `key` is, pressed with `held`: Ctrl with `=` or `+` (on the main row or the
/// keypad), `-`, or `0`. Read by what the key types, so it is where the layout puts it; by its
/// place on the keyboard where Ctrl makes it type nothing.
pub fn zoom_key(key: &KeyboardInput, held: Modifiers) -> Option<Zoom> {
    if !key.state.is_pressed() || !held.ctrl() || held.alt_or_meta() {
        return None;
    }
    if let Key::Character(text) = &key.logical_key {
        match text.as_str() {
            "=" | "+" => return Some(Zoom::In),
            "-" => return Some(Zoom::Out),
            "0" => return Some(Zoom::Reset),
            _ => {}
        }
    }
    match key.key_code {
        KeyCode::Equal | KeyCode::NumpadAdd => Some(Zoom::In),
        KeyCode::Minus | KeyCode::NumpadSubtract => Some(Zoom::Out),
        KeyCode::Digit0 | KeyCode::Numpad0 => Some(Zoom::Reset),
        _ => None,
    }
}

/// A key in an open menu (`view/menu.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuKey {
    /// Up: the item before that can act, from the first to the last.
    Previous,
    /// Down: the item after that can act, from the last to the first.
    Next,
    /// Home: the first that can act.
    First,
    /// End: the last that can act.
    Last,
    /// Enter or Space: choose the highlighted item.
    Choose,
    /// Escape: close the menu.
    Close,
}

/// What a menu key press `key`, with `held` held, does in an open menu; `None` for the keys a
/// menu ignores.
pub fn menu_key(key: &KeyboardInput, held: Modifiers) -> Option<MenuKey> {
    if !key.state.is_pressed() || held.ctrl() || held.alt_or_meta() {
        return None;
    }
    Some(match keys::meaning(key) {
        KeyCode::ArrowUp => MenuKey::Previous,
        KeyCode::ArrowDown => MenuKey::Next,
        KeyCode::Home | KeyCode::PageUp => MenuKey::First,
        KeyCode::End | KeyCode::PageDown => MenuKey::Last,
        KeyCode::Enter | KeyCode::NumpadEnter | KeyCode::Space => MenuKey::Choose,
        KeyCode::Escape => MenuKey::Close,
        _ => return None,
    })
}
