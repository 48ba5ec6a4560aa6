//! The chat's field as the app keeps it: the line being typed, and the lines sent before it,
//! walked with Up and Down. Spec step 1 is [`Field::submit`]: Enter's line leaves as the
//! widget's submit message, as typed, and the field is empty at once.
//!
//! The app writes that message, not the widget: the widget's own editing is off (`input.rs`
//! gives it no key bindings and a length limit of 0). The widget reads no input-method text,
//! and with the IME's text bridged in beside its own key handling the two were applied in
//! separate passes, so a Korean syllable landed after the key typed after it; it also counts
//! its caret in bytes in some moves and in characters in others (`docs/ime.md`). The app
//! applies both in the order they came (`keyboard/typing.rs`, `input/edit.rs`), to a line of
//! its own ([`LineEditor`]).

use bevy::{
    input::{
        ButtonState,
        keyboard::{Key, KeyboardInput},
    },
    prelude::*,
};
use bevy_simple_text_input::TextInputSubmitMessage;

use super::{MAX_INPUT_CHARS, editor::LineEditor};
use crate::chat;

/// The field's line, and the lines submitted before it.
#[derive(Component, Debug)]
pub struct Field {
    pub(crate) line: LineEditor,
    pub(crate) history: History,
}

impl Default for Field {
    /// A field of one line, as the find bar's.
    fn default() -> Self {
        Self {
            line: LineEditor::new(usize::from(MAX_INPUT_CHARS)),
            history: History::default(),
        }
    }
}

impl Field {
    /// A field whose text may hold line breaks (Shift+Enter, a paste): the chat's.
    pub fn with_line_breaks() -> Self {
        Self {
            line: LineEditor::with_line_breaks(usize::from(MAX_INPUT_CHARS)),
            ..default()
        }
    }

    /// The line being typed.
    pub fn line(&self) -> &LineEditor {
        &self.line
    }

    /// The line, to edit.
    pub(super) fn line_mut(&mut self) -> &mut LineEditor {
        &mut self.line
    }

    /// Lets go of the selection, if any, leaving the caret where it is: another selection was
    /// made in the window (one per window, as on a web page). Not while a composition is in
    /// progress, which is the input method's.
    pub fn drop_selection(&mut self) {
        let line = &mut self.line;
        if !line.is_composing() && !line.selection().is_empty() {
            line.place_beside(line.caret(), line.affinity(), false);
        }
    }

    /// A field holding `text`, all of it selected.
    pub fn with_text_selected(text: &str) -> Self {
        let mut field = Self::default();
        field.set_text_selected(text);
        field
    }

    /// Selects the whole line.
    pub fn select_all(&mut self) {
        if !self.line.is_composing() {
            self.line.select_all();
        }
    }

    /// Replaces the line with `text`, all of it selected: what a find bar opens with.
    pub fn set_text_selected(&mut self, text: &str) {
        if !self.line.is_composing() {
            self.line.replace_all(text);
            self.line.select_all();
        }
    }

    /// Spec step 1, what Enter does: the line leaves as the widget's submit message, as typed
    /// (blank or not: the chat decides what a blank line is), and the field is empty at once.
    /// `entity` is the field's.
    pub fn submit(&mut self, entity: Entity) -> TextInputSubmitMessage {
        let value = self.line.take();
        self.history.note(&value);
        TextInputSubmitMessage { entity, value }
    }
}

/// The lines submitted since the app started, walked with Up and Down as in a shell.
#[derive(Debug, Default)]
pub(crate) struct History {
    lines: Vec<String>,
    /// The line shown, while walking; `None` while typing a new one.
    at: Option<usize>,
    /// The line being typed when the walk began, to come back to.
    draft: String,
}

impl History {
    /// Keeps a submitted line (as the chat records it), and ends a walk.
    fn note(&mut self, submitted: &str) {
        if let Some(line) = chat::normalize(submitted) {
            self.lines.push(line.to_owned());
        }
        self.at = None;
        self.draft.clear();
    }

    /// Shows the line before the one shown; the first Up keeps the line being typed. Returns
    /// whether there was one.
    pub(crate) fn earlier(&mut self, line: &mut LineEditor) -> bool {
        let at = match self.at {
            None if self.lines.is_empty() => return false,
            None => {
                self.draft = line.text().to_owned();
                self.lines.len() - 1
            }
            Some(0) => return false,
            Some(at) => at - 1,
        };
        self.at = Some(at);
        line.replace_all(&self.lines[at]);
        true
    }

    /// Shows the line after the one shown, and after the newest, the line that was being typed.
    /// Returns whether the walk had one to show.
    pub(crate) fn later(&mut self, line: &mut LineEditor) -> bool {
        let Some(at) = self.at else {
            return false;
        };
        if at + 1 < self.lines.len() {
            self.at = Some(at + 1);
            line.replace_all(&self.lines[at + 1]);
        } else {
            self.at = None;
            line.replace_all(&std::mem::take(&mut self.draft));
        }
        true
    }
}

/// The key messages a keyboard sends to type `line` into the field and press Enter: a press and
/// a release for each character, then Enter's. A headless test writes them as Bevy's own input
/// messages (`app.world_mut().write_message_batch(keys_that_send("안녕"))`) and runs a frame;
/// the field takes them as it takes a window's keys.
///
/// A key stands for each character, as an input method's commit or an on-screen keyboard gives
/// it; a tab or a newline in `line` is a key of its own there (focus moves, or the line is sent
/// early), as on a keyboard.
pub fn keys_that_send(line: &str) -> Vec<KeyboardInput> {
    let named = |c| match c {
        ' ' => Some((KeyCode::Space, Key::Space)),
        '\t' => Some((KeyCode::Tab, Key::Tab)),
        '\n' => Some((KeyCode::Enter, Key::Enter)),
        _ => None,
    };
    line.chars()
        .map(|c| {
            // The physical key of a character does not matter: the field reads what it means.
            named(c).unwrap_or((KeyCode::KeyA, Key::Character(c.to_string().into())))
        })
        .chain([(KeyCode::Enter, Key::Enter)])
        .flat_map(|(code, logical)| {
            [
                key_message(code, logical.clone(), ButtonState::Pressed),
                key_message(code, logical, ButtonState::Released),
            ]
        })
        .collect()
}

/// The message a window sends for one key press or release: `key_code` where the key sits,
/// `logical_key` what it means, and the text a character key or the space bar types.
pub fn key_message(key_code: KeyCode, logical_key: Key, state: ButtonState) -> KeyboardInput {
    let text = match &logical_key {
        Key::Character(text) => Some(text.clone()),
        Key::Space => Some(" ".into()),
        _ => None,
    };
    KeyboardInput {
        key_code,
        logical_key,
        state,
        text,
        repeat: false,
        window: Entity::PLACEHOLDER,
    }
}
