//! The field's one pass over the frame's typing: keys and input-method (IME) messages, in the
//! order the user typed them, each applied to the line as it came.
//!
//! Keys and IME messages are read in the order the platform delivered them
//! (`input/arrival.rs`). Applied in that order, `안녕` then a space reads `안녕 `, and an Enter
//! sends exactly what was typed before it, however many keys and Enters one frame holds.
//!
//! Hangul is typed through an IME: each key reshapes the syllable being composed (the
//! *preedit*) until the IME *commits* it. The preedit shows at the caret; while there is one,
//! keys are the IME's, so a platform that also reports them cannot change the line twice.
//! Keys may also come before the text they follow; `input/commit_wait.rs` holds them for the
//! commit.
//!
//! Each key goes where keyboard focus is when it comes. Out of the field (in the conversation,
//! `view/focus.rs`), the keys that walk or copy are passed on as [`ConversationInput`]; Tab, F6
//! or a typed character bring focus back, and that character, and the keys after it in the
//! same frame, are the field's. In the field, Tab, Shift+Tab or F6 send focus to the
//! conversation.
//!
//! A paste waits for the clipboard (see [`super::clipboard`]); what is typed after Ctrl+V waits
//! with it, so the pasted text lands where the user pasted it. Not for long: an application
//! that owns the clipboard and does not answer would hold the keys for seconds, so after
//! [`PASTE_PATIENCE`] the paste is given up and typing goes on.

use std::{collections::VecDeque, time::Duration};

use bevy::{
    ecs::system::SystemParam,
    input_focus::{FocusCause, InputFocus},
    platform::time::Instant,
    prelude::*,
    text::{ComputedTextBlock, TextBrush},
    window::{Ime, RequestRedraw},
};
use bevy_simple_text_input::{
    TextInputCursorPos, TextInputInactive, TextInputSubmitMessage, TextInputValue,
};
use parley::Layout;

use super::{
    ChatInput, ConversationInput, CopyNewestReply, Field, FieldFull,
    arrival::{Typed, Typing, empties_preedit, ime_types, trace_typed},
    clipboard::{ClipboardText, ReadClipboard, ReadPrimary, WriteClipboard},
    clock::InputClock,
    commit_wait::CommitWait,
    editor::{LineEditor, Motion},
    keys::{Action, Modifiers},
    routing::{KeyTarget, Route, chosen, route},
    selection::{LineText, OnScreen, PastePrimary},
};
use crate::{
    text_direction::starts_right_to_left,
    view::{
        find::{Find, FindField},
        menu::{MenuKey, MenuOutcome, MenuOwner, Menus},
        zoom::Zoom,
    },
};

/// How long typing waits for the clipboard's text after Ctrl+V. A clipboard answers within
/// milliseconds; its owner may not answer at all (X11 then waits four seconds).
pub const PASTE_PATIENCE: Duration = Duration::from_secs(1);

/// Typing not yet applied: what came after a paste that still waits for the clipboard, and keys
/// that wait for the commit of a composition that has just ended.
#[derive(Debug, Default)]
pub(super) struct Backlog {
    typed: VecDeque<Typed>,
    /// Since when a paste waits for the clipboard, and the field it is for.
    pasting: Option<(Instant, Entity)>,
    /// An item the pointer or a reader chose from a menu, not yet done: one chosen while a
    /// paste waited is done once the paste has landed.
    picked: bool,
    held: Modifiers,
    commit: CommitWait,
}

/// What applying typing can send on.
#[derive(SystemParam)]
pub(super) struct Outcomes<'w> {
    submits: MessageWriter<'w, TextInputSubmitMessage>,
    full: MessageWriter<'w, FieldFull>,
    redraw: MessageWriter<'w, RequestRedraw>,
    reads: MessageWriter<'w, ReadClipboard>,
    primary_reads: MessageWriter<'w, ReadPrimary>,
    copies: MessageWriter<'w, WriteClipboard>,
    newest_reply: MessageWriter<'w, CopyNewestReply>,
    conversation: MessageWriter<'w, ConversationInput>,
    finds: MessageWriter<'w, Find>,
    zooms: MessageWriter<'w, Zoom>,
}

/// Applies the frame's typing to the focused field (the chat's, or the find bar's), in order;
/// typing after a pending paste waits, and so does an item the pointer chose from a menu, which
/// otherwise comes first.
pub(super) fn edit_field(
    mut typing: Typing,
    mut pasted: MessageReader<ClipboardText>,
    mut middle_clicks: MessageReader<PastePrimary>,
    mut backlog: Local<Backlog>,
    clock: Res<InputClock>,
    mut input_focus: ResMut<InputFocus>,
    chat: Single<Entity, With<ChatInput>>,
    finder: Query<Entity, With<FindField>>,
    mut fields: Query<&mut Field>,
    line_text: Query<(&LineText, &ComputedTextBlock)>,
    mut menus: Menus,
    mut out: Outcomes,
) {
    // One borrow of the `Local`, so that its fields can be borrowed apart.
    let backlog = &mut *backlog;
    backlog.take_in(&mut typing);
    let answer = pasted.read().last().cloned();
    let middle_click = middle_clicks.read().last().copied();
    backlog.follow_pastes(answer, middle_click, &clock, &mut fields, &mut out);
    backlog
        .commit
        .give_up_if_spent(clock.now(), &mut backlog.typed);
    let mut focus = KeyFocus::new(
        &mut input_focus,
        &menus,
        &fields,
        *chat,
        finder.single().ok(),
    );
    backlog.picked |= menus.picked();
    while backlog.pasting.is_none() {
        let action = if std::mem::take(&mut backlog.picked) {
            focus.follow(Route::Menu(MenuKey::Choose), &mut menus, &fields, &mut out)
        } else if let Some(typed) = backlog.typed.pop_front() {
            let Some(typed) = backlog.commit.sort(typed, &mut backlog.typed) else {
                continue;
            };
            trace_typed(&typed);
            backlog.take(typed, &mut focus, &mut menus, &mut fields, &clock, &mut out)
        } else {
            break;
        };
        let (Some(action), Some(entity)) = (action, focus.at) else {
            continue;
        };
        if action == Action::Paste {
            out.reads.write(ReadClipboard);
            backlog.pasting = Some((clock.now(), entity));
            continue;
        }
        if let Ok(mut field) = fields.get_mut(entity) {
            apply(
                action,
                entity,
                &mut field,
                laid_out(entity, &line_text),
                &mut out,
            );
        }
    }
    if backlog.commit.is_waiting() {
        // A frame to give up waiting in, should nothing else come.
        out.redraw.write(RequestRedraw);
    }
}

impl Backlog {
    /// Takes one key or IME message where focus is; the edit it leaves for the focused field.
    fn take(
        &mut self,
        typed: Typed,
        focus: &mut KeyFocus,
        menus: &mut Menus,
        fields: &mut Query<&mut Field>,
        clock: &InputClock,
        out: &mut Outcomes,
    ) -> Option<Action> {
        match typed {
            Typed::Key(key) => {
                self.held.note(&key);
                let route = route(&key, self.held, focus.target());
                // While the IME composes, keys are its own; but for a zoom, which changes only
                // the size of what is composed, and an open menu's.
                let passes = matches!(route, Route::Zoom(_) | Route::Menu(_));
                if focus.composing(fields) && !passes {
                    return None;
                }
                focus.follow(route, menus, fields, out)
            }
            Typed::Ime(ime) => {
                let ended = empties_preedit(&ime) && focus.composing(fields);
                focus.type_from_ime(&ime, fields, out);
                self.commit
                    .applied(&ime, ended, clock.now(), &mut self.typed);
                None
            }
            Typed::FocusLost => {
                end_compositions(fields);
                // A menu closes with the window's focus, as every desktop's does.
                if menus.menu.is_open() {
                    focus.come_back(menus.menu.close());
                }
                None
            }
        }
    }

    /// Queues the frame's typing behind what waits already.
    fn take_in(&mut self, typing: &mut Typing) {
        self.typed.extend(typing.in_arrival_order());
        if typing.lost_keyboard() {
            // Keys held when the window lost focus are released without an event of their own.
            self.held = Modifiers::default();
        }
    }

    /// Lands the clipboard's `answer` in the field that asked for it, starts the wait for a
    /// `middle_click`'s PRIMARY selection, and gives up a paste that waited too long.
    fn follow_pastes(
        &mut self,
        answer: Option<ClipboardText>,
        middle_click: Option<PastePrimary>,
        clock: &InputClock,
        fields: &mut Query<&mut Field>,
        out: &mut Outcomes,
    ) {
        // An answer that comes after the paste was given up is too late to land anywhere.
        if let Some(ClipboardText(Some(text))) = answer
            && let Some((_, into)) = self.pasting.take()
            && let Ok(mut field) = fields.get_mut(into)
            && !field.line.paste(&text)
        {
            out.full.write(FieldFull(into));
        }
        // A middle click asked to paste the PRIMARY selection: typing after it waits for it too.
        if let Some(PastePrimary(into)) = middle_click
            && self.pasting.is_none()
        {
            out.primary_reads.write(ReadPrimary);
            self.pasting = Some((clock.now(), into));
        }
        if self
            .pasting
            .is_some_and(|(since, _)| clock.since(since) >= PASTE_PATIENCE)
        {
            self.pasting = None;
            warn!(
                "nothing to paste: the clipboard did not answer within {} s",
                PASTE_PATIENCE.as_secs_f32()
            );
        }
    }
}

/// Where the frame's keys go, key by key: a Tab, Ctrl+F, or a letter typed in the conversation
/// moves focus for the keys after it in the same frame.
struct KeyFocus<'a> {
    /// The focused field; `None`: the conversation. While a menu is open, the field it was
    /// opened from, where an input method's text still lands.
    at: Option<Entity>,
    /// Whether a context menu is open: it takes the keys.
    menu: bool,
    chat: Entity,
    finder: Option<Entity>,
    input_focus: &'a mut InputFocus,
}

impl<'a> KeyFocus<'a> {
    /// Keys start where keyboard focus is: in an open menu, in one of `fields`, or else in
    /// the conversation.
    fn new(
        input_focus: &'a mut InputFocus,
        menus: &Menus,
        fields: &Query<&mut Field>,
        chat: Entity,
        finder: Option<Entity>,
    ) -> Self {
        let menu = menus.menu.is_open();
        let focused = if menu {
            menus.menu.returns_to()
        } else {
            input_focus.get()
        };
        Self {
            at: focused.filter(|&focused| fields.contains(focused)),
            menu,
            chat,
            finder,
            input_focus,
        }
    }

    /// The target that has focus, for the routing table.
    fn target(&self) -> KeyTarget {
        if self.menu {
            return KeyTarget::Menu;
        }
        self.target_of(self.at)
    }

    /// The target `field` is (`None`: the conversation).
    fn target_of(&self, field: Option<Entity>) -> KeyTarget {
        match field {
            None => KeyTarget::Conversation,
            Some(field) if Some(field) == self.finder => KeyTarget::FindBar,
            Some(_) => KeyTarget::ChatField,
        }
    }

    /// The field a target edits, if it is one.
    fn field_of(&self, target: KeyTarget) -> Option<Entity> {
        match target {
            KeyTarget::ChatField => Some(self.chat),
            KeyTarget::FindBar => self.finder,
            KeyTarget::Conversation | KeyTarget::Menu => None,
        }
    }

    /// A menu closed: keyboard focus goes back to `to`, where it was opened from.
    fn come_back(&mut self, to: Option<Entity>) {
        self.menu = false;
        if let Some(to) = to
            && self.input_focus.get() != Some(to)
        {
            self.input_focus.set(to, FocusCause::Navigated);
        }
    }

    /// Whether the focused field has a composition in progress.
    fn composing(&self, fields: &Query<&mut Field>) -> bool {
        self.at
            .and_then(|field| fields.get(field).ok())
            .is_some_and(|field| field.line.is_composing())
    }

    /// Gives focus to the field `to`.
    fn take(&mut self, to: Entity) {
        self.at = Some(to);
        if self.input_focus.get() != Some(to) {
            self.input_focus.set(to, FocusCause::Navigated);
        }
    }

    /// Applies an IME message to the focused field. Text from the input method is typing too:
    /// from the conversation, it lands in the chat's field.
    /// While a menu is open it lands in the field the menu was opened from, or the chat's,
    /// and focus stays in the menu.
    fn type_from_ime(&mut self, ime: &Ime, fields: &mut Query<&mut Field>, out: &mut Outcomes) {
        if self.at.is_none() && ime_types(ime) {
            if self.menu {
                self.at = Some(self.chat);
            } else {
                self.take(self.chat);
            }
        }
        if let Some(entity) = self.at
            && let Ok(mut field) = fields.get_mut(entity)
        {
            ime_edit(&mut field.line, ime, entity, out);
        }
    }

    /// Carries out a key's route, and the edit it leaves for the focused field, if any.
    fn follow(
        &mut self,
        route: Route,
        menus: &mut Menus,
        fields: &Query<&mut Field>,
        out: &mut Outcomes,
    ) -> Option<Action> {
        match route {
            Route::Ignore => {}
            Route::OpenMenu(target) => {
                match self.field_of(target) {
                    Some(field) => {
                        let Ok(line) = fields.get(field) else {
                            return None;
                        };
                        menus.open_on_field(field, line.line());
                    }
                    None => menus.open_on_conversation(self.input_focus.get()),
                }
                self.menu = true;
            }
            Route::Menu(key) => return self.follow_menu(key, menus, fields, out),
            Route::Find(mut find) => {
                if let Find::Open { from } = &mut find {
                    *from = self.at.or(self.input_focus.get());
                    if let Some(finder) = self.finder {
                        self.take(finder);
                    }
                }
                if find == Find::Close {
                    // Focus goes back where it was (`view/find.rs`).
                    self.at = None;
                }
                out.finds.write(find);
            }
            Route::Zoom(step) => {
                out.zooms.write(step);
            }
            Route::ToConversation(input) => {
                out.conversation.write(input);
            }
            Route::Focus(KeyTarget::Conversation) => {
                out.conversation.write(ConversationInput::Focus);
                self.at = None;
            }
            Route::Focus(to) => {
                if let Some(field) = self.field_of(to) {
                    self.take(field);
                }
            }
            Route::Edit(to, action) => {
                if let Some(field) = self.field_of(to) {
                    self.take(field);
                }
                return Some(action);
            }
        }
        None
    }

    /// Carries out a key in the open menu: a chosen item is its key, routed where the menu
    /// was opened (`routing::chosen`), once focus is back there.
    fn follow_menu(
        &mut self,
        key: MenuKey,
        menus: &mut Menus,
        fields: &Query<&mut Field>,
        out: &mut Outcomes,
    ) -> Option<Action> {
        match menus.menu.key(key) {
            MenuOutcome::Stays => None,
            MenuOutcome::Closed(back) => {
                self.come_back(back);
                None
            }
            MenuOutcome::Chosen(command, owner, back) => {
                self.come_back(back);
                let (target, message) = match owner {
                    MenuOwner::Field(field) => (self.target_of(Some(field)), None),
                    MenuOwner::Conversation { message } => (KeyTarget::Conversation, message),
                };
                self.follow(chosen(command, target, message), menus, fields, out)
            }
        }
    }
}

/// How the field's line was last laid out. Only the chat's field is laid out with the line as
/// it is (`super::selection`).
fn laid_out<'a>(
    field: Entity,
    line_text: &'a Query<(&LineText, &ComputedTextBlock)>,
) -> Option<(&'a LineText, &'a Layout<TextBrush>)> {
    line_text
        .iter()
        .find(|(text, _)| text.field() == field)
        .map(|(text, block)| (text, block.buffer()))
}

/// Drops every field's composition: the window lost focus, and the input method with it.
fn end_compositions(fields: &mut Query<&mut Field>) {
    for mut field in fields {
        if field.line.is_composing() {
            field.line.compose("", None);
        }
    }
}

/// What one IME message does: a preedit replaces the composition, a commit makes it text, and
/// switching the IME on or off drops a composition left over.
fn ime_edit(line: &mut LineEditor, ime: &Ime, field: Entity, out: &mut Outcomes) {
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
fn apply(
    action: Action,
    entity: Entity,
    field: &mut Field,
    laid_out: Option<(&LineText, &Layout<TextBrush>)>,
    out: &mut Outcomes,
) {
    if action == Action::Submit {
        out.submits.write(field.submit(entity));
        return;
    }
    let Field { line, history } = field;
    match action {
        // Left and Right move the caret on screen, the way they point, through text in either
        // direction, once the layout shows the line as it is; a selection collapses to its end
        // on their side, below.
        Action::Move(motion @ (Motion::Left | Motion::Right), extend)
            if (extend || line.selection().is_empty())
                && let Some(on_screen) =
                    laid_out.and_then(|(text, layout)| OnScreen::of(text, layout, line)) =>
        {
            if let Some((at, affinity)) = on_screen.step(line, motion == Motion::Right) {
                line.place_beside(at, affinity, extend);
            }
        }
        // The other moves go through the text; in a line that runs right to left, the arrows
        // go the other way through it. So do Left and Right where the layout has not caught up.
        Action::Move(motion, extend) if starts_right_to_left(line.text()) => {
            line.move_caret(motion.mirrored(), extend)
        }
        Action::Move(motion, extend) => line.move_caret(motion, extend),
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
        Action::Earlier => history.earlier(line),
        Action::Later => history.later(line),
        Action::Type(text) => {
            if !line.type_text(&text) {
                out.full.write(FieldFull(entity));
            }
        }
        // Submit is sent above; a paste is started by the caller, since it waits for the
        // clipboard.
        Action::Submit | Action::Paste => {}
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
