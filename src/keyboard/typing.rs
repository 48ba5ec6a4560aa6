//! The keyboard's one pass over the frame's typing: keys and input-method (IME) messages, in
//! the order the user typed them, each carried where focus is and applied as it came.
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
//! Each key goes where keyboard focus is when it comes, as the routing table below says
//! (`input/routing.rs`); this pass, above the field and the view, carries it there: to the
//! field's line (`input/edit.rs`), the find bar, zoom, an open menu or the conversation. Out of
//! the field (in the conversation, `view/focus.rs`), the keys that walk or copy are passed on
//! as [`ConversationInput`]; Tab, F6 or a typed character bring focus back, and that character,
//! and the keys after it in the same frame, are the field's. In the field, Tab, Shift+Tab or F6
//! send focus to the conversation.
//!
//! A paste waits for the clipboard (see [`crate::input::clipboard`]); what is typed after
//! Ctrl+V waits with it, so the pasted text lands where the user pasted it. Not for long: an
//! application that owns the clipboard and does not answer would hold the keys for seconds, so
//! after [`PASTE_PATIENCE`] the paste is given up and typing goes on.

use std::{collections::VecDeque, time::Duration};

use bevy::{
    ecs::system::SystemParam,
    input_focus::{FocusCause, InputFocus},
    platform::time::Instant,
    prelude::*,
    window::{Ime, RequestRedraw},
};

use crate::{
    input::{
        ChatInput, ConversationInput, Field, FieldFull,
        arrival::{Typed, Typing, empties_preedit, ime_types, trace_typed},
        clipboard::{ClipboardText, ReadClipboard, ReadPrimary},
        clock::InputClock,
        commit_wait::CommitWait,
        edit::{Edits, apply, end_compositions, ime_edit, laid_out},
        keymap::{Find, MenuKey, Zoom},
        keys::{Action, Modifiers},
        routing::{KeyTarget, Route, route},
        selection::{LineText, PastePrimary},
    },
    view::{
        find::FindField,
        menu::{MenuCommand, MenuOutcome, MenuOwner, Menus},
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

/// What applying typing can send on: the field's edits, and what the keys ask of the others.
#[derive(SystemParam)]
pub(super) struct Outcomes<'w> {
    edits: Edits<'w>,
    redraw: MessageWriter<'w, RequestRedraw>,
    reads: MessageWriter<'w, ReadClipboard>,
    primary_reads: MessageWriter<'w, ReadPrimary>,
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
    line_text: Query<&LineText>,
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
    // Reborrowed, not `&mut`: Bevy takes a mutable borrow as a change, and the rows' marks
    // follow where keyboard focus is (`view/highlight.rs`).
    let mut focus = KeyFocus::new(
        input_focus.reborrow(),
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
                &mut out.edits,
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
                let route = route(&key, self.held, focus.target(), focus.bar_open());
                // While the IME composes, keys are its own; but for a zoom, which changes only
                // the size of what is composed, and an open menu's.
                let passes = matches!(route, Route::Zoom(_) | Route::Menu(_));
                if focus.composing(fields) && !passes {
                    return None;
                }
                focus.follow(route, menus, fields, out)
            }
            Typed::Shift(held) => {
                self.held.set_shift(held);
                None
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
            out.edits.full.write(FieldFull(into));
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
    input_focus: Mut<'a, InputFocus>,
}

impl<'a> KeyFocus<'a> {
    /// Keys start where keyboard focus is: in an open menu, in one of `fields`, or else in
    /// the conversation.
    fn new(
        input_focus: Mut<'a, InputFocus>,
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

    /// Whether the find bar is open: its field exists only while it is.
    fn bar_open(&self) -> bool {
        self.finder.is_some()
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
            ime_edit(&mut field.line, ime, entity, &mut out.edits);
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
                if find == Find::Close && self.target_of(self.at) == KeyTarget::FindBar {
                    // Focus in the bar goes back where it was (`view/find.rs`).
                    self.at = None;
                }
                out.finds.write(find);
            }
            Route::Zoom(step) => {
                out.zooms.write(step);
            }
            Route::ToConversation(input) => {
                out.edits.conversation.write(input);
            }
            Route::Focus(KeyTarget::Conversation) => {
                out.edits.conversation.write(ConversationInput::Focus);
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
                let (target, at) = match owner {
                    MenuOwner::Field(field) => (self.target_of(Some(field)), (None, None)),
                    MenuOwner::Conversation { message, link } => {
                        (KeyTarget::Conversation, (message, link))
                    }
                };
                let route = chosen(command, target, at, self.bar_open());
                self.follow(route, menus, fields, out)
            }
        }
    }
}

/// What a menu item chosen in the menu of `owner` does: exactly what its key does there, by
/// routing that key. The items without a key act on what the menu was opened on, `at`: the
/// message at a place in the log and which of its links (`None`: the focused one, and the link
/// the keyboard is on). `메시지 복사` copies the message as its `복사` button does; `링크 열기`
/// opens the link as a click does, and `링크 주소 복사` copies its address.
fn chosen(
    command: MenuCommand,
    owner: KeyTarget,
    at: (Option<usize>, Option<usize>),
    bar_open: bool,
) -> Route {
    let (message, link) = at;
    let link = message.zip(link);
    Route::ToConversation(match command.key() {
        Some(chord) => return route(&chord.press(), chord.held(), owner, bar_open),
        None if command == MenuCommand::OpenLink => ConversationInput::OpenLink(link),
        None if command == MenuCommand::CopyLinkAddress => ConversationInput::CopyLink(link),
        None => ConversationInput::CopyMessage(message),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_menu_item_is_the_route_of_its_key_where_the_menu_opened() {
        use KeyTarget::*;
        for (commands, target) in [
            (&MenuCommand::FIELD[..], ChatField),
            (&MenuCommand::FIELD[..], FindBar),
            (&MenuCommand::CONVERSATION[..], Conversation),
        ] {
            for &command in commands {
                let bar_open = target == FindBar;
                let by_menu = chosen(command, target, (Some(3), Some(1)), bar_open);
                match command.key() {
                    Some(chord) => {
                        let by_key = route(&chord.press(), chord.held(), target, bar_open);
                        assert_eq!(by_menu, by_key);
                        assert_ne!(by_menu, Route::Ignore, "{command:?} in {target:?}");
                    }
                    None => assert_eq!(
                        by_menu,
                        Route::ToConversation(ConversationInput::CopyMessage(Some(3)))
                    ),
                }
            }
        }
        // The link's items act on the link the menu was opened on.
        let [open, copy] = MenuCommand::LINK
            .map(|command| chosen(command, Conversation, (Some(3), Some(1)), false));
        let on = Some((3, 1));
        assert_eq!(open, Route::ToConversation(ConversationInput::OpenLink(on)));
        assert_eq!(copy, Route::ToConversation(ConversationInput::CopyLink(on)));
    }
}
