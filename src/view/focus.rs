//! Keyboard focus in the conversation: every message can be reached, read and copied without
//! the mouse.
//!
//! The window has two focus stops, the conversation and the field. Tab, Shift+Tab or F6 go
//! from one to the other; in the conversation, Up, Down, the page keys, Home and End walk the
//! messages, Right and Left the focused one's links (the message itself before its first), Enter
//! opens the link the keyboard is on, Ctrl+C copies the focused message, and Shift+F10 (or the
//! Menu key) opens the conversation's menu beside it (`view/menu.rs`); a typed character goes
//! back to the field and lands there. Escape still quits (`chat::exit_on_escape`), unless the find bar or a menu is
//! open, which it closes first. The keyboard's pass reads every key, in the order they came, and passes
//! on those that are the conversation's as [`ConversationInput`] (`keyboard/typing.rs`): the keys
//! pressed while focus was out of the field, and the page keys and Ctrl+Home/End pressed in it,
//! which scroll the conversation from here. Deciding per key, not per frame, a PageDown in the
//! conversation and a letter typed right after it in the same frame each go where focus was.
//!
//! Focus is kept as a place in the log ([`MessageFocus`]), never as a row entity: rows are
//! recycled to other messages as the view moves, and a focus held by a row would silently
//! follow it to the wrong message. Each frame, `show_focus` finds the row that shows the
//! focused place, gives it Bevy's [`InputFocus`] (which is what the window backend tells a
//! screen reader has focus) and draws the focus ring around its bubble. While that message is
//! out of the mounted rows (the user scrolled away with the wheel), the list itself holds the
//! focus, and the next key brings the message back into view.
//!
//! A screen reader's requests arrive as [`ActionRequest`]s: focus a message (or the list, or
//! the field, or a link: `view/reader.rs`), scroll one into view, press the `복사` button, open
//! a link. An entity the request names that
//! no longer exists, or is none of these, is ignored.

use accesskit::Action;
use bevy::{
    a11y::ActionRequest,
    ecs::system::SystemParam,
    input_focus::{FocusCause, InputFocus},
    prelude::*,
};

use crate::{
    chat::MessageLog,
    input::{ChatInput, ConversationInput, MessageAction, Walk},
    links::{Link, Links},
    scroll::{Item, VirtualList},
    theme::Theme,
    view::{
        Bubble, Conversation, MessageRow,
        copy::{CopyAddress, CopyBody, CopyButton},
        open_links::OpenLink,
        reader::ReaderLink,
        selection::ConversationSelection,
    },
};

pub(super) fn plugin(app: &mut App) {
    app.register_type::<MessageFocus>()
        .init_resource::<MessageFocus>()
        .init_resource::<FocusedLink>()
        .add_systems(Update, walk_the_conversation.in_set(FocusSystems::Walk))
        .add_systems(PostUpdate, show_focus.in_set(FocusSystems::Show));
}

/// The conversation's keyboard focus: walked with the keys the field passed on, then shown
/// (`frame.rs` says when).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FocusSystems {
    /// Keys and a screen reader's requests move the focus.
    Walk,
    /// The focused row gets `InputFocus` and its ring (`PostUpdate`).
    Show,
}

/// The focus ring's width, and its distance from the bubble, in logical pixels.
pub const RING_WIDTH: f32 = 2.0;
/// See [`RING_WIDTH`].
pub const RING_OFFSET: f32 = 2.0;

/// How much of the view is kept clear around the focused message, so that its ring shows
/// whole: the ring and half the gap between rows.
const REVEAL_MARGIN: f32 = RING_WIDTH + RING_OFFSET;

/// Which message the conversation's keyboard focus is on, or was on last: it comes back there.
#[derive(Resource, Reflect, Debug, Default)]
#[reflect(Resource)]
pub struct MessageFocus {
    /// The message's place in the log.
    place: Option<usize>,
    /// Which of its links the keyboard is on, if one (Right and Left walk them).
    link: Option<usize>,
}

impl MessageFocus {
    /// The focused message's place in the log, or the one focused last.
    pub fn place(&self) -> Option<usize> {
        self.place
    }

    /// Which of the focused message's links the keyboard is on.
    pub fn link(&self) -> Option<usize> {
        self.link
    }

    /// Focus on the message at `place`, not on a link of it.
    fn set(&mut self, place: usize) {
        self.place = Some(place);
        self.link = None;
    }
}

/// The link the keyboard is on, as the rows draw it (`view/highlight.rs`): the message's place
/// in the log and which of its links, while keyboard focus is in the conversation. It changes
/// only when that does, so walking from message to message redraws no row's marks.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FocusedLink(pub Option<(usize, usize)>);

/// What keyboard focus can be on in the conversation, beside the list: a row, or a link of a
/// row's as screen readers are given it (`view/reader.rs`).
pub type InConversation<'w, 's> = Query<'w, 's, (), Or<(With<MessageRow>, With<ReaderLink>)>>;

/// Whether keyboard focus is in the conversation: on the list, on one of its rows, or on a link
/// in one.
pub fn in_conversation(focus: &InputFocus, list: Entity, rows: &InConversation) -> bool {
    focus
        .get()
        .is_some_and(|focused| focused == list || rows.contains(focused))
}

/// Moves the conversation's focus for the keys the field passed on and for a screen reader's
/// requests, copies, and scrolls the focused message into view.
fn walk_the_conversation(
    mut keys: MessageReader<ConversationInput>,
    mut requests: MessageReader<ActionRequest>,
    mut walk: ConversationWalk,
    mut drawn: ResMut<FocusedLink>,
) {
    let mut moved = false;
    for &key in keys.read() {
        moved |= walk.key(key);
    }
    for ActionRequest(request) in requests.read() {
        moved |= walk.request(request);
    }
    if moved && let Some(at) = walk.focus.place {
        walk.conversation.1.reveal(at, REVEAL_MARGIN);
    }
    // Where the frame's keys (a Tab back to the field among them) left it.
    let here = in_conversation(&walk.input_focus, walk.conversation.0, &walk.here);
    let on = (walk.focus.place.zip(walk.focus.link)).filter(|_| here);
    drawn.set_if_neq(FocusedLink(on));
}

/// What walking the conversation reads and moves: its focus, its list and the rows in view.
#[derive(SystemParam)]
struct ConversationWalk<'w, 's> {
    focus: ResMut<'w, MessageFocus>,
    input_focus: ResMut<'w, InputFocus>,
    log: Res<'w, MessageLog>,
    conversation: Single<'w, 's, (Entity, &'static mut VirtualList), With<Conversation>>,
    rows: Query<'w, 's, &'static Item, With<MessageRow>>,
    here: InConversation<'w, 's>,
    reader_links: Query<'w, 's, &'static ReaderLink>,
    links: Query<'w, 's, &'static Links>,
    opens: MessageWriter<'w, OpenLink>,
    link_copies: MessageWriter<'w, CopyAddress>,
    field: Single<'w, 's, Entity, With<ChatInput>>,
    buttons: Query<'w, 's, &'static ChildOf, With<CopyButton>>,
    parents: Query<'w, 's, &'static ChildOf>,
    shown: Query<'w, 's, &'static MessageRow>,
    copies: MessageWriter<'w, CopyBody>,
    selection: Res<'w, ConversationSelection>,
}

impl ConversationWalk<'_, '_> {
    /// The focused message's place, if focus is still in the conversation (or in the field,
    /// which passes on only keys pressed while focus was out of it; a letter after them in the
    /// same frame may have taken focus back to the field already).
    fn still_focused(&self) -> Option<usize> {
        let (list, ref virtual_list) = *self.conversation;
        let here = in_conversation(&self.input_focus, list, &self.here)
            || self.input_focus.get() == Some(*self.field);
        self.focus
            .place
            .filter(|&at| at < virtual_list.len() && here)
    }

    /// Focus on the list, at the message focused last (or the newest).
    fn focus_the_list(&mut self) {
        let (list, ref virtual_list) = *self.conversation;
        let len = virtual_list.len();
        self.focus.place = Some(self.focus.place.filter(|&at| at < len).unwrap_or(len - 1));
        self.input_focus.set(list, FocusCause::Navigated);
    }

    /// The links of the message at `place`.
    fn links_of(&self, place: usize) -> &[Link] {
        let message = self.log.entities().get(place);
        message
            .and_then(|&message| self.links.get(message).ok())
            .map_or(&[], |Links(links)| links)
    }

    /// The link `at` names (a place and which of its links), or else the one the keyboard is
    /// on, while focus is in the conversation.
    fn link(&self, at: Option<(usize, usize)>) -> Option<&Link> {
        let (place, index) = at.or_else(|| Some((self.still_focused()?, self.focus.link?)))?;
        self.links_of(place).get(index)
    }

    /// Right or Left: the next or the previous link of the focused message, or the message
    /// itself before its first; the last stays the last.
    fn walk_the_links(&mut self, at: usize, on: bool) {
        let count = self.links_of(at).len();
        self.focus.link = match (self.focus.link, on) {
            (None, true) => (count > 0).then_some(0),
            (Some(link), true) => Some((link + 1).min(count.saturating_sub(1))),
            (Some(link), false) => link.checked_sub(1),
            (None, false) => None,
        };
    }

    /// Carries out one of the conversation's keys; whether focus moved.
    fn key(&mut self, key: ConversationInput) -> bool {
        let len = self.conversation.1.len();
        match key {
            ConversationInput::Focus if len == 0 => {
                // Nothing to reach yet: focus stays in the field.
                self.input_focus.set(*self.field, FocusCause::Navigated);
            }
            ConversationInput::Focus => {
                self.focus_the_list();
                return true;
            }
            ConversationInput::Scroll(walk) => {
                let list = &mut self.conversation.1;
                let page = list.page();
                match walk {
                    Walk::PageUp => list.scroll_by(-page),
                    Walk::PageDown => list.scroll_by(page),
                    Walk::First => list.scroll_to(0.0),
                    Walk::Last => list.follow_end(),
                    _ => {}
                }
            }
            ConversationInput::Walk(walk) => {
                let Some(at) = self.still_focused() else {
                    return false;
                };
                let list = &self.conversation.1;
                let to = match walk {
                    Walk::Previous => at.saturating_sub(1),
                    Walk::Next => (at + 1).min(len - 1),
                    Walk::First => 0,
                    Walk::Last => len - 1,
                    Walk::PageUp => page(list, at, false),
                    Walk::PageDown => page(list, at, true),
                    Walk::NextLink | Walk::PreviousLink => {
                        self.walk_the_links(at, walk == Walk::NextLink);
                        return true;
                    }
                };
                self.focus.set(to);
                return true;
            }
            ConversationInput::Act(MessageAction::Open) | ConversationInput::OpenLink(_) => {
                let at = match key {
                    ConversationInput::OpenLink(at) => at,
                    _ => None,
                };
                if let Some(link) = self.link(at) {
                    let target = link.target.clone();
                    self.opens.write(OpenLink(target));
                }
            }
            ConversationInput::CopyLink(at) => {
                if let Some(link) = self.link(at) {
                    let target = link.target.clone();
                    self.link_copies.write(CopyAddress(target));
                }
            }
            // The selection's (`selection`).
            ConversationInput::SelectAll | ConversationInput::CopySelection => {}
            ConversationInput::CopyMessage(at) => {
                let at = at.or_else(|| self.still_focused());
                if let Some(&message) = at.and_then(|at| self.log.entities().get(at)) {
                    self.copies.write(CopyBody(message));
                }
            }
            ConversationInput::Act(MessageAction::Copy) => {
                let Some(at) = self.still_focused() else {
                    return false;
                };
                // With text selected, Ctrl+C copies that (`selection`).
                if self.selection.is_empty() {
                    self.copies.write(CopyBody(self.log.entities()[at]));
                }
            }
        }
        false
    }

    /// Carries out a screen reader's request; whether focus moved (or the list is to show it).
    fn request(&mut self, request: &accesskit::ActionRequest) -> bool {
        let Some(target) = Entity::try_from_bits(request.target_node.0) else {
            return false;
        };
        let (list, ref virtual_list) = *self.conversation;
        let len = virtual_list.len();
        match request.action {
            Action::Focus if target == *self.field => {
                self.input_focus.set(target, FocusCause::Navigated);
            }
            Action::Focus | Action::ScrollIntoView if target == list && len > 0 => {
                if request.action == Action::Focus {
                    self.focus_the_list();
                }
                return true;
            }
            Action::Focus if let Ok(link) = self.reader_links.get(target) => {
                if link.place >= len {
                    return false;
                }
                self.focus.place = Some(link.place);
                self.focus.link = Some(link.index);
                self.input_focus.set(target, FocusCause::Navigated);
                return true;
            }
            Action::Click if let Ok(link) = self.reader_links.get(target) => {
                let at = Some((link.place, link.index));
                if let Some(link) = self.link(at) {
                    let target = link.target.clone();
                    self.opens.write(OpenLink(target));
                }
            }
            Action::Focus | Action::ScrollIntoView => {
                let Ok(&Item(at)) = self.rows.get(target) else {
                    return false;
                };
                if at >= len {
                    return false;
                }
                if request.action == Action::Focus {
                    self.focus.set(at);
                    self.input_focus.set(list, FocusCause::Navigated);
                    return true;
                }
                self.conversation.1.reveal(at, REVEAL_MARGIN);
            }
            Action::Click => {
                let message = self
                    .buttons
                    .get(target)
                    .and_then(|ChildOf(bubble)| self.parents.get(*bubble))
                    .and_then(|ChildOf(row)| self.shown.get(*row));
                if let Ok(row) = message {
                    self.copies.write(CopyBody(row.message));
                }
            }
            _ => {}
        }
        false
    }
}

/// The message a page away from `at`: the furthest one whose top is within a view of `at`'s,
/// and at least the next one.
fn page(list: &VirtualList, at: usize, down: bool) -> usize {
    let (heights, view) = (list.heights(), list.view());
    let mut to = at;
    let mut covered = 0.0;
    loop {
        let next = if down {
            (to + 1 < list.len()).then_some(to + 1)
        } else {
            to.checked_sub(1)
        };
        let Some(next) = next else {
            break;
        };
        covered += heights.extent(if down { to } else { next });
        if covered > view && to != at {
            break;
        }
        to = next;
    }
    to
}

/// Gives [`InputFocus`] to the row that shows the focused message (to the link the keyboard is
/// on in it, while a screen reader has it as a node), and the focus ring to its bubble; or,
/// while that message has no row, to the list.
fn show_focus(
    focus: Res<MessageFocus>,
    mut input_focus: ResMut<InputFocus>,
    theme: Res<Theme>,
    conversation: Single<Entity, With<Conversation>>,
    rows: Query<(Entity, &Item, &Children), With<MessageRow>>,
    here: InConversation,
    reader_links: Query<(Entity, &ReaderLink)>,
    mut rings: Query<(Entity, &mut Outline), With<Bubble>>,
    mut commands: Commands,
) {
    let list = *conversation;
    let focused = in_conversation(&input_focus, list, &here)
        .then_some(focus.place)
        .flatten()
        .and_then(|at| rows.iter().find(|(_, item, _)| item.0 == at));
    let ringed = focused.and_then(|(_, _, children)| children.first().copied());
    if in_conversation(&input_focus, list, &here) {
        let link = |row| {
            let index = focus.link?;
            let (link, _) =
                (reader_links.iter()).find(|(_, link)| link.row == row && link.index == index)?;
            Some(link)
        };
        let holder = focused.map_or(list, |(row, _, _)| link(row).unwrap_or(row));
        if input_focus.get() != Some(holder) {
            input_focus.set(holder, FocusCause::Navigated);
        }
    }
    let colour = theme.palette().focus_ring;
    for (bubble, mut outline) in &mut rings {
        if Some(bubble) != ringed {
            commands.entity(bubble).remove::<Outline>();
        } else if outline.color != colour {
            outline.color = colour;
        }
    }
    if let Some(bubble) = ringed
        && !rings.contains(bubble)
    {
        commands
            .entity(bubble)
            .insert(Outline::new(px(RING_WIDTH), px(RING_OFFSET), colour));
    }
}
