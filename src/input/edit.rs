//! What an edit does to a field's line: an action a key asks for ([`apply`]), a piece of an
//! input method's text ([`ime_edit`]), and the line shown in the widget ([`show_in_widget`]).
//! Which field a key edits, and in which order keys and IME text come, is the keyboard's pass
//! (`keyboard/typing.rs`), which calls these.

use bevy::{ecs::system::SystemParam, prelude::*, window::Ime};
use bevy_simple_text_input::{
    TextInputCursorPos, TextInputInactive, TextInputSubmitMessage, TextInputValue,
};

use super::{
    ConversationInput, CopyNewestReply, Field, FieldFull, Walk,
    clipboard::WriteClipboard,
    editor::{LineEditor, Motion},
    field::History,
    keys::Action,
    selection::{LineText, OnScreen},
};
use crate::text_direction::starts_right_to_left;

/// What an edit can send on: the line sent, a full field, a copy, and keys for the conversation.
#[derive(SystemParam)]
pub(crate) struct Edits<'w> {
    submits: MessageWriter<'w, TextInputSubmitMessage>,
    pub(crate) full: MessageWriter<'w, FieldFull>,
    copies: MessageWriter<'w, WriteClipboard>,
    newest_reply: MessageWriter<'w, CopyNewestReply>,
    pub(crate) conversation: MessageWriter<'w, ConversationInput>,
}

/// How the field's line was last laid out. Only the chat's field is laid out with the line as
/// it is (`input/selection.rs`).
pub(crate) fn laid_out<'a>(field: Entity, line_text: &'a Query<&LineText>) -> Option<&'a LineText> {
    line_text.iter().find(|text| text.field() == field)
}

/// Drops every field's composition: the window lost focus, and the input method with it.
pub(crate) fn end_compositions(fields: &mut Query<&mut Field>) {
    for mut field in fields {
        if field.line.is_composing() {
            field.line.compose("", None);
        }
    }
}

/// What one IME message does: a preedit replaces the composition, a commit makes it text, and
/// switching the IME on or off drops a composition left over.
pub(crate) fn ime_edit(line: &mut LineEditor, ime: &Ime, field: Entity, out: &mut Edits) {
    let fitted = match ime {
        Ime::Preedit { value, cursor, .. } => line.compose(value, cursor.map(|(_, end)| end)),
        Ime::Commit { value, .. } => {
            line.compose("", None);
            line.type_text(value)
        }
        Ime::Enabled { .. } | Ime::Disabled { .. } => line.compose("", None),
    };
    if !fitted {
        out.full.write(FieldFull(field));
    }
}

/// Carries out one action on the field, whose line was last laid out as `laid_out`.
pub(crate) fn apply(
    action: Action,
    entity: Entity,
    field: &mut Field,
    laid_out: Option<&LineText>,
    out: &mut Edits,
) {
    if action == Action::Submit {
        out.submits.write(field.submit(entity));
        return;
    }
    let Field { line, history } = field;
    match action {
        Action::Move(motion, extend) => {
            let on_screen = laid_out.and_then(|text| OnScreen::of(text, line));
            move_caret(line, history, on_screen, (motion, extend), out);
        }
        Action::Delete(motion) => line.delete(motion),
        Action::SelectAll => line.select_all(),
        Action::Copy => match line.selected_text() {
            Some(text) => {
                out.copies.write(WriteClipboard(text.to_owned()));
            }
            // Nothing selected here: the window's selection may be the conversation's.
            None => {
                out.conversation.write(ConversationInput::CopySelection);
            }
        },
        Action::Cut => {
            if let Some(text) = line.cut() {
                out.copies.write(WriteClipboard(text));
            }
        }
        Action::CopyNewestReply => {
            out.newest_reply.write(CopyNewestReply);
        }
        Action::Undo => {
            line.undo();
        }
        Action::Redo => {
            line.redo();
        }
        Action::NewLine if line.keeps_breaks() => {
            if !line.type_text("\n") {
                out.full.write(FieldFull(entity));
            }
        }
        Action::Type(text) => {
            if !line.type_text(&text) {
                out.full.write(FieldFull(entity));
            }
        }
        // Submit is sent above; a paste is started by the caller, since it waits for the
        // clipboard.
        // A one-line field breaks no line.
        Action::Submit | Action::Paste | Action::NewLine => {}
    }
}

/// Moves `line`'s caret as `motion` says, the selection's far end kept when `extend`: on the
/// lines on screen once `on_screen` shows the text as it is, else through the text.
fn move_caret(
    line: &mut LineEditor,
    history: &mut History,
    on_screen: Option<OnScreen>,
    (motion, extend): (Motion, bool),
    out: &mut Edits,
) {
    match (motion, extend) {
        // Up on the first line and Down on the last walk the lines sent before, as in a shell;
        // with nothing to walk to, the caret goes to the first line's start or the last one's end.
        (motion @ (Motion::Up | Motion::Down), false)
            if on_edge_line(line, on_screen, motion)
                && if motion == Motion::Up {
                    history.earlier(line)
                } else {
                    history.later(line)
                } => {}
        // Ctrl+Home and Ctrl+End in a field of one line scroll the conversation, which has
        // more to reach than the line's Home and End.
        (motion @ (Motion::TextStart | Motion::TextEnd), _)
            if line.keeps_breaks()
                && on_screen.map_or(!line.text().contains('\n'), |screen| screen.lines() == 1) =>
        {
            let end = match motion {
                Motion::TextStart => Walk::First,
                _ => Walk::Last,
            };
            out.conversation.write(ConversationInput::Scroll(end));
        }
        // Up, Down, Home and End follow the lines on screen, wrapped ones too, once the layout
        // shows the text as it is.
        (motion @ (Motion::Up | Motion::Down | Motion::Home | Motion::End), extend)
            if let Some(on_screen) = on_screen =>
        {
            let (at, affinity, goal) = on_screen.by_lines(line, motion);
            line.place_beside(at, affinity, extend);
            if let Some(across) = goal {
                line.aim_at(across);
            }
        }
        // Left and Right move the caret on screen, the way they point, through text in either
        // direction, once the layout shows the line as it is; a selection collapses to its end
        // on their side, below.
        (motion @ (Motion::Left | Motion::Right), extend)
            if (extend || line.selection().is_empty())
                && let Some(on_screen) = on_screen =>
        {
            if let Some((at, affinity)) = on_screen.step(line, motion == Motion::Right) {
                line.place_beside(at, affinity, extend);
            }
        }
        // The other moves go through the text; in a line that runs right to left, the arrows
        // go the other way through it. So do Left and Right where the layout has not caught up.
        (motion, extend) if starts_right_to_left(line.text()) => {
            line.move_caret(motion.mirrored(), extend)
        }
        (motion, extend) => line.move_caret(motion, extend),
    }
}

/// Whether `line`'s caret is on its first line (`Up`) or last (`Down`), on screen when the
/// layout shows it, else by its hard line breaks.
fn on_edge_line(line: &LineEditor, on_screen: Option<OnScreen>, motion: Motion) -> bool {
    let up = motion == Motion::Up;
    match on_screen {
        Some(screen) if up => screen.caret_line(line) == 0,
        Some(screen) => screen.caret_line(line) + 1 >= screen.lines(),
        None if up => line.on_first_line(),
        None => line.on_last_line(),
    }
}

/// Shows the line in the widget: its text (with the composition) and caret. The widget counts
/// its caret in characters.
pub(super) fn show_in_widget(
    mut fields: Query<
        (
            &Field,
            &mut TextInputValue,
            &mut TextInputCursorPos,
            &mut TextInputInactive,
        ),
        Changed<Field>,
    >,
) {
    for (field, mut value, mut cursor, mut inactive) in &mut fields {
        let shown = field.line.shown();
        if value.0 != shown {
            value.0 = shown.to_string();
        }
        // Set even when unchanged: it tells the widget the caret was placed on purpose, so it
        // does not jump to the end of a changed value.
        cursor.0 = shown[..field.line.shown_caret()].chars().count();
        // Shows the caret and restarts its blink, as typing does in any field.
        inactive.set_changed();
    }
}
