//! Which key does what in the field: the desktop's editing keys, read one key event at a time
//! with the modifiers held at that event.
//!
//! Modifiers come from the key events themselves, not from the frame's [`ButtonInput`]: a
//! chord typed faster than a frame (Ctrl down, V, Ctrl up, as `xdotool key ctrl+v` sends it)
//! is still the chord. A key pressed with Ctrl, Alt or Super never types its letter; AltGr is
//! not Alt, so the characters it makes still type.

use bevy::{
    input::{
        ButtonState,
        keyboard::{Key, KeyboardInput, NativeKeyCode},
    },
    prelude::*,
};

use super::{ConversationInput, editor::Motion};

/// What a key asks of the field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Move the caret, extending the selection when `extend`.
    Move(Motion, bool),
    /// Delete the selection, or else as far as the motion goes.
    Delete(Motion),
    /// Select the whole line.
    SelectAll,
    /// Copy the selection to the clipboard.
    Copy,
    /// Move the selection to the clipboard.
    Cut,
    /// Insert the clipboard's text.
    Paste,
    /// Copy the newest reply in the conversation.
    CopyNewestReply,
    /// Go back one edit.
    Undo,
    /// Redo an undone edit.
    Redo,
    /// Send the line.
    Submit,
    /// Break the line at the caret (Shift+Enter), in a field that holds more than one.
    NewLine,
    /// Insert this text.
    Type(String),
}

/// A move of the conversation's keyboard focus from one message to another (see
/// `view/focus.rs`), or, pressed in the field, of its view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    /// Up: the message before.
    Previous,
    /// Down: the message after.
    Next,
    /// PageUp: a screen back.
    PageUp,
    /// PageDown: a screen on.
    PageDown,
    /// Home or Ctrl+Home: the first message.
    First,
    /// End or Ctrl+End: the newest message.
    Last,
    /// Right: the focused message's next link (the first, from the message itself).
    NextLink,
    /// Left: the focused message's link before (the message itself, from its first).
    PreviousLink,
}

/// What a key asks of the message that has keyboard focus in the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageAction {
    /// Ctrl+C or Ctrl+Insert: copy its body, or the conversation's selection if there is one.
    Copy,
    /// Enter: open the link the keyboard is on in it.
    Open,
}

/// Whether the key press opens the context menu where focus is: the Menu key, or Shift+F10.
pub fn opens_menu(key: &KeyboardInput, held: Modifiers) -> bool {
    key.state.is_pressed()
        && !held.ctrl()
        && !held.alt_or_meta()
        && match meaning(key) {
            KeyCode::ContextMenu => true,
            KeyCode::F10 => held.shift(),
            _ => false,
        }
}

/// A key with the modifiers it is pressed with: what a menu item stands for (`view/menu.rs`),
/// which the item runs by routing it as if it were pressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chord {
    /// With Ctrl held.
    pub ctrl: bool,
    /// With Shift held.
    pub shift: bool,
    /// The key, by its place on a US keyboard.
    pub key: KeyCode,
}

impl Chord {
    /// `key` with Ctrl held.
    pub const fn ctrl(key: KeyCode) -> Self {
        Self {
            ctrl: true,
            shift: false,
            key,
        }
    }

    /// `key` with Ctrl and Shift held.
    pub const fn ctrl_shift(key: KeyCode) -> Self {
        Self {
            ctrl: true,
            shift: true,
            key,
        }
    }

    /// `key` alone.
    pub const fn bare(key: KeyCode) -> Self {
        Self {
            ctrl: false,
            shift: false,
            key,
        }
    }

    /// The key's press, as a US keyboard sends it.
    pub fn press(self) -> KeyboardInput {
        let logical_key = match self.key {
            KeyCode::Delete => Key::Delete,
            key => Key::Character(letter_of(key).unwrap_or_default().into()),
        };
        KeyboardInput {
            key_code: self.key,
            logical_key,
            state: ButtonState::Pressed,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        }
    }

    /// The modifiers held for it.
    pub fn held(self) -> Modifiers {
        Modifiers {
            ctrl: [self.ctrl, false],
            shift: [self.shift, false],
            ..default()
        }
    }

    /// How a menu shows it: `Ctrl+Shift+Z`, `Delete`.
    pub fn label(self) -> String {
        let key = match self.key {
            KeyCode::Delete => "Delete".to_owned(),
            key => letter_of(key).unwrap_or_default().to_ascii_uppercase(),
        };
        let ctrl = if self.ctrl { "Ctrl+" } else { "" };
        let shift = if self.shift { "Shift+" } else { "" };
        format!("{ctrl}{shift}{key}")
    }
}

/// Where a key press sends keyboard focus, if it moves it: Tab, Shift+Tab and F6 go from one of
/// the window's two stops (the conversation and the field) to the other.
pub fn switches_focus(key: &KeyboardInput, held: Modifiers) -> bool {
    key.state.is_pressed()
        && !held.ctrl()
        && !held.alt.contains(&true)
        && matches!(meaning(key), KeyCode::Tab | KeyCode::F6)
}

/// What the key press `key` asks of a focused conversation, with `held` held; `None` for keys it
/// leaves alone.
pub fn in_conversation(key: &KeyboardInput, held: Modifiers) -> Option<ConversationInput> {
    use ConversationInput::Act;
    let go = ConversationInput::Walk;
    if !key.state.is_pressed() || held.alt_or_meta() {
        return None;
    }
    let (ctrl, shift) = (held.ctrl(), held.shift());
    Some(match meaning(key) {
        KeyCode::ArrowUp if !ctrl => go(Walk::Previous),
        KeyCode::ArrowDown if !ctrl => go(Walk::Next),
        KeyCode::PageUp => go(Walk::PageUp),
        KeyCode::PageDown => go(Walk::PageDown),
        KeyCode::Home => go(Walk::First),
        KeyCode::End => go(Walk::Last),
        KeyCode::ArrowRight if !ctrl => go(Walk::NextLink),
        KeyCode::ArrowLeft if !ctrl => go(Walk::PreviousLink),
        KeyCode::Enter | KeyCode::NumpadEnter if !ctrl && !shift => Act(MessageAction::Open),
        KeyCode::Insert if ctrl && !shift => Act(MessageAction::Copy),
        _ if ctrl && !shift => match letter_shortcut(key, false) {
            Some(Action::Copy) => Act(MessageAction::Copy),
            Some(Action::SelectAll) => ConversationInput::SelectAll,
            _ => return None,
        },
        _ => return None,
    })
}

/// The key press that scrolls the conversation while focus is in the field: PageUp and
/// PageDown. (Ctrl+Home and Ctrl+End do too while the field holds one line: `input/edit.rs`.)
pub fn scroll(key: &KeyboardInput, held: Modifiers) -> Option<Walk> {
    match in_conversation(key, held)? {
        ConversationInput::Walk(page @ (Walk::PageUp | Walk::PageDown)) => Some(page),
        _ => None,
    }
}

/// Whether the key press types a character (with no shortcut modifier held): in the
/// conversation, such a key goes back to the field and types there.
pub fn types(key: &KeyboardInput, held: Modifiers) -> bool {
    key.state.is_pressed()
        && !held.shortcut()
        && meaning(key) != KeyCode::Space
        && typed(key).is_some()
}

/// The modifier keys held, as far as the key events so far tell.
#[derive(Debug, Default, Clone, Copy)]
pub struct Modifiers {
    ctrl: [bool; 2],
    shift: [bool; 2],
    /// Alt keys, AltGr excluded.
    alt: [bool; 2],
    meta: [bool; 2],
}

impl Modifiers {
    /// Notes a modifier key's press or release; other keys change nothing. A modifier is
    /// known by what it means first, as the named keys are ([`meaning`]): wtype's keymap puts
    /// Control where another key sits.
    pub fn note(&mut self, key: &KeyboardInput) {
        let down = key.state.is_pressed();
        let right = matches!(
            key.key_code,
            KeyCode::ControlRight | KeyCode::ShiftRight | KeyCode::AltRight | KeyCode::SuperRight
        );
        let side = usize::from(right);
        let slot = match &key.logical_key {
            Key::Control => &mut self.ctrl[side],
            Key::Shift => &mut self.shift[side],
            Key::Alt => &mut self.alt[side],
            Key::Super | Key::Meta => &mut self.meta[side],
            _ => return self.note_by_place(key),
        };
        *slot = down;
    }

    /// Notes what the window system says of Shift, which may differ from the keys the app
    /// saw: an input method can keep a Shift press for itself (`input/arrival.rs`).
    pub fn set_shift(&mut self, held: bool) {
        self.shift = [held, false];
    }

    /// Notes a modifier that came with no meaning of its own, by its place.
    fn note_by_place(&mut self, key: &KeyboardInput) {
        let down = key.state.is_pressed();
        let slot = match key.key_code {
            KeyCode::ControlLeft => &mut self.ctrl[0],
            KeyCode::ControlRight => &mut self.ctrl[1],
            KeyCode::ShiftLeft => &mut self.shift[0],
            KeyCode::ShiftRight => &mut self.shift[1],
            KeyCode::AltLeft => &mut self.alt[0],
            // The right Alt is AltGr on many layouts: it makes characters, it is no shortcut.
            KeyCode::AltRight => {
                self.alt[1] = down && key.logical_key != Key::AltGraph;
                return;
            }
            KeyCode::SuperLeft => &mut self.meta[0],
            KeyCode::SuperRight => &mut self.meta[1],
            _ => return,
        };
        *slot = down;
    }

    /// Whether either Ctrl is held.
    pub(crate) fn ctrl(&self) -> bool {
        self.ctrl.contains(&true)
    }

    /// Whether either Shift is held.
    pub(crate) fn shift(&self) -> bool {
        self.shift.contains(&true)
    }

    /// Whether Alt (not AltGr) or the Super key is held.
    pub(crate) fn alt_or_meta(&self) -> bool {
        self.alt.contains(&true) || self.meta.contains(&true)
    }

    /// Whether a held modifier makes the key a shortcut rather than a character.
    fn shortcut(&self) -> bool {
        self.ctrl() || self.alt_or_meta()
    }
}

/// What the key press `key` asks of the field, with `held` held; `None` for keys the field
/// leaves alone (releases, Escape, the page keys, which scroll the conversation ([`scroll`]),
/// and any shortcut it does not know).
pub fn action(key: &KeyboardInput, held: Modifiers) -> Option<Action> {
    use Action::*;
    if !key.state.is_pressed() {
        return None;
    }
    let (ctrl, shift) = (held.ctrl(), held.shift());
    let bare = !held.shortcut();
    let word = |plain, word| if ctrl { word } else { plain };
    let action = match meaning(key) {
        KeyCode::Enter | KeyCode::NumpadEnter if bare && shift => NewLine,
        KeyCode::Enter | KeyCode::NumpadEnter if bare => Submit,
        KeyCode::Backspace | KeyCode::NumpadBackspace => {
            Delete(word(Motion::Left, Motion::WordLeft))
        }
        KeyCode::Delete if shift && !ctrl => Cut,
        KeyCode::Delete => Delete(word(Motion::Right, Motion::WordRight)),
        KeyCode::Insert if ctrl && !shift => Copy,
        KeyCode::Insert if shift && !ctrl => Paste,
        KeyCode::ArrowLeft => Move(word(Motion::Left, Motion::WordLeft), shift),
        KeyCode::ArrowRight => Move(word(Motion::Right, Motion::WordRight), shift),
        KeyCode::Home => Move(word(Motion::Home, Motion::TextStart), shift),
        KeyCode::End => Move(word(Motion::End, Motion::TextEnd), shift),
        KeyCode::ArrowUp if bare => Move(Motion::Up, shift),
        KeyCode::ArrowDown if bare => Move(Motion::Down, shift),
        _ if ctrl => return letter_shortcut(key, shift),
        _ if bare => return typed(key).map(Type),
        _ => return None,
    };
    Some(action)
}

/// Ctrl with a letter: the letter as the layout names it, so Ctrl+V is where V is; on a layout
/// without Latin letters (Cyrillic, say), the key's place on a US keyboard, as browsers do.
fn letter_shortcut(key: &KeyboardInput, shift: bool) -> Option<Action> {
    let letter = letter(key)?;
    Some(match (letter.as_str(), shift) {
        ("a", false) => Action::SelectAll,
        ("c", false) => Action::Copy,
        ("c", true) => Action::CopyNewestReply,
        ("v", false) => Action::Paste,
        ("x", false) => Action::Cut,
        ("z", false) => Action::Undo,
        ("z", true) | ("y", false) => Action::Redo,
        _ => return None,
    })
}

/// Which key `key` is, by what it means: a named key (Enter, Tab, Escape, Space, the arrows,
/// Home and End, the page keys, Backspace, Delete, Insert, F3, F6, F10 and the Menu key) by its
/// logical key, so that a remapped keyboard, an on-screen keyboard or a tool that types through
/// a keymap of its own (as `wtype` does on Wayland) works as the key's label says; any other
/// key by its place on the keyboard.
pub(crate) fn meaning(key: &KeyboardInput) -> KeyCode {
    if let Some(&(_, place)) = NAMED.iter().find(|(named, _)| *named == key.logical_key) {
        return place;
    }
    // A key that types a character is none of those, wherever it sits: wtype's keymap puts `s`
    // where Backspace is, and `b` where Tab is.
    let named_place = NAMED.iter().any(|&(_, place)| place == key.key_code)
        || matches!(
            key.key_code,
            KeyCode::NumpadEnter | KeyCode::NumpadBackspace
        );
    if named_place && matches!(key.logical_key, Key::Character(_)) {
        return KeyCode::Unidentified(NativeKeyCode::Unidentified);
    }
    key.key_code
}

/// The keys [`meaning`] reads by their logical key, and the place each means.
static NAMED: [(Key, KeyCode); 19] = [
    (Key::Enter, KeyCode::Enter),
    (Key::Tab, KeyCode::Tab),
    (Key::Escape, KeyCode::Escape),
    (Key::Space, KeyCode::Space),
    (Key::ArrowLeft, KeyCode::ArrowLeft),
    (Key::ArrowRight, KeyCode::ArrowRight),
    (Key::ArrowUp, KeyCode::ArrowUp),
    (Key::ArrowDown, KeyCode::ArrowDown),
    (Key::Home, KeyCode::Home),
    (Key::End, KeyCode::End),
    (Key::PageUp, KeyCode::PageUp),
    (Key::PageDown, KeyCode::PageDown),
    (Key::Backspace, KeyCode::Backspace),
    (Key::Delete, KeyCode::Delete),
    (Key::Insert, KeyCode::Insert),
    (Key::F3, KeyCode::F3),
    (Key::F6, KeyCode::F6),
    (Key::F10, KeyCode::F10),
    (Key::ContextMenu, KeyCode::ContextMenu),
];

/// The letter of a key pressed with Ctrl (see [`letter_shortcut`]).
pub(crate) fn letter(key: &KeyboardInput) -> Option<String> {
    Some(match &key.logical_key {
        Key::Character(text) if text.is_ascii() => text.to_ascii_lowercase(),
        _ => letter_of(key.key_code)?.into(),
    })
}

/// The letter on a key of a US keyboard, for the letters the shortcuts use.
fn letter_of(key: KeyCode) -> Option<&'static str> {
    Some(match key {
        KeyCode::KeyA => "a",
        KeyCode::KeyC => "c",
        KeyCode::KeyF => "f",
        KeyCode::KeyV => "v",
        KeyCode::KeyX => "x",
        KeyCode::KeyY => "y",
        KeyCode::KeyZ => "z",
        _ => return None,
    })
}

/// The text a key types, if any.
fn typed(key: &KeyboardInput) -> Option<String> {
    match &key.logical_key {
        Key::Character(text) => Some(text.to_string()),
        Key::Space => Some(" ".into()),
        _ => None,
    }
}
