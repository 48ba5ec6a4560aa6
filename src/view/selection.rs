//! Selecting the conversation's text with the mouse, and copying it: any part of a message, or
//! a run across messages, as on a web page.
//!
//! A press on a message's text starts a selection there, and a drag extends it to where the
//! pointer is, over as many messages as it passes; past the conversation's top or bottom edge
//! the conversation scrolls, faster the further out, and the selection keeps growing. A
//! double-click selects a word (UAX #29, as the field does) and a drag after it extends by
//! words; a triple-click selects the message's body; Shift+click extends from where the
//! selection started. Ctrl+A in the focused conversation selects all of it. A press anywhere
//! else lets go of it (the scrollbar and the `복사` button aside).
//!
//! The selection is kept as two places in the log, never as rows: [`ConversationSelection`].
//! Rows are recycled to other messages as the view moves (`view/recycle.rs`), so a row draws its
//! part of the selection from the place it shows (`view/highlight.rs`): the selection survives
//! scrolling away and back, new messages and a resize, and a recycled row never keeps another's.
//!
//! On X11 a selection made here is also the PRIMARY selection, which a middle click pastes in
//! any application (the field's included).
//!
//! One selection per window: making one here lets go of the field's, and the field's lets go of
//! this one. Ctrl+C (or Ctrl+Insert) copies the one there is, in the field or in the
//! conversation. Inside one message that is exactly the selected text; across messages, one
//! message a line, each with its label as drawn (`사용자: …`), from the log, so what the layout
//! adds (a direction mark, Thai's break marks, a long body's `… (+N자)`) is never copied.
//!
//! A press here leaves keyboard focus where it is: the field keeps its caret, and an input
//! method's composition there goes on.

use std::{ops::Range, time::Duration};

use accesskit::{Action, ActionData, TextPosition};
use bevy::{
    a11y::ActionRequest,
    input::mouse::MouseButtonInput,
    platform::time::Instant,
    prelude::*,
    text::ComputedTextBlock,
    ui::UiGlobalTransform,
    window::{CursorMoved, RequestRedraw, WindowEvent},
};
use parley::{Cluster, Cursor};

use super::{
    Bubble, Conversation, MessageRow, bubble_and_text,
    copy::{CopyButton, CopyText},
    paragraph::LaidOut,
};
use crate::{
    PointerGrab,
    chat::{ChatMessage, MessageLog, Role, RoleStyle},
    input::{
        ChatInput, ConversationInput, Field, MessageAction,
        clipboard::WritePrimary,
        clock::InputClock,
        editor::{nearest_boundary, word_at},
        window_scale,
    },
    links::Links,
    scroll::{Item, VirtualList},
};

pub(super) fn plugin(app: &mut App) {
    app.register_type::<ConversationSelection>()
        .register_type::<TextPlace>()
        .init_resource::<ConversationSelection>()
        .init_resource::<Gesture>()
        .add_systems(
            Update,
            (
                // Most frames bring no pointer, no key and no new selection: nothing to do then.
                select_with_pointer.run_if(
                    on_message::<CursorMoved>
                        .or_eager(on_message::<MouseButtonInput>)
                        .or_eager(|gesture: Res<Gesture>| gesture.dragging()),
                ),
                select_and_copy_with_keys.run_if(on_message::<ConversationInput>),
                select_for_a_reader.run_if(on_message::<ActionRequest>),
                one_selection_per_window.run_if(
                    resource_changed::<ConversationSelection>
                        .or_eager(any_match_filter::<(Changed<Field>, With<ChatInput>)>),
                ),
            )
                .chain()
                .in_set(SelectionSystems),
        );
}

/// The systems that select with the pointer and the keys, and copy the selection.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SelectionSystems;

/// A place in the conversation's text: a message, by its place in the log, and a byte offset
/// into its body, on a grapheme cluster's boundary.
#[derive(Reflect, Debug, Default, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct TextPlace {
    /// The message's place in the log.
    pub message: usize,
    /// The byte offset in its body.
    pub offset: usize,
}

impl TextPlace {
    /// The place `offset` bytes into the body of the message at `message`.
    pub fn new(message: usize, offset: usize) -> Self {
        Self { message, offset }
    }
}

/// What is selected of the conversation: from where the selection started (its anchor) to where
/// it was taken (its focus), in either order. Nothing, when the two are the same place.
#[derive(Resource, Reflect, Debug, Default, Clone, PartialEq, Eq)]
#[reflect(Resource)]
pub struct ConversationSelection {
    anchor: TextPlace,
    focus: TextPlace,
}

/// What one message has selected: a range of its body's bytes, and whether its label too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selected {
    /// The selected bytes of the body.
    pub body: Range<usize>,
    /// Whether the label is selected: the selection runs over more than this message, and over
    /// the start of its body.
    pub label: bool,
}

impl ConversationSelection {
    /// The selection from `anchor` to `focus`.
    pub fn new(anchor: TextPlace, focus: TextPlace) -> Self {
        Self { anchor, focus }
    }

    /// Where the selection started.
    pub fn anchor(&self) -> TextPlace {
        self.anchor
    }

    /// Where the selection was taken to.
    pub fn focus(&self) -> TextPlace {
        self.focus
    }

    /// Whether nothing is selected.
    pub fn is_empty(&self) -> bool {
        self.anchor == self.focus
    }

    /// The first and the last place selected, in log order.
    pub fn ends(&self) -> (TextPlace, TextPlace) {
        (self.anchor.min(self.focus), self.anchor.max(self.focus))
    }

    /// What is selected of the message at `place`, whose body is `len` bytes long.
    pub fn of(&self, place: usize, len: usize) -> Option<Selected> {
        let (start, end) = self.ends();
        if self.is_empty() || !(start.message..=end.message).contains(&place) {
            return None;
        }
        let from = if place == start.message {
            start.offset.min(len)
        } else {
            0
        };
        let to = if place == end.message {
            end.offset.min(len)
        } else {
            len
        };
        let across = start.message != end.message;
        // Ending at the very start of a message selects nothing of it, not even its label.
        let label = across && from == 0 && !(place == end.message && to == 0);
        (label || from < to).then_some(Selected {
            body: from..to,
            label,
        })
    }

    /// The selected text, as it is copied: the selected part of a single message's body, or
    /// across messages one message a line, in log order, each with its label where that is
    /// selected. `message` gives each place's role and body.
    pub fn text<'a>(&self, message: impl Fn(usize) -> Option<(Role, &'a str)>) -> String {
        let (start, end) = self.ends();
        let mut text = String::new();
        for place in start.message..=end.message {
            let Some((role, body)) = message(place) else {
                continue;
            };
            let Some(selected) = self.of(place, body.len()) else {
                continue;
            };
            if place != start.message {
                text.push('\n');
            }
            let part = &body[selected.body];
            if selected.label {
                text.push_str(&RoleStyle::of(role).text(part));
            } else {
                text.push_str(part);
            }
        }
        text
    }
}

/// Two presses this close in time and place are one double- or triple-click (GTK's defaults,
/// as the field's).
pub(super) const MULTI_CLICK_TIME: Duration = Duration::from_millis(400);
/// See [`MULTI_CLICK_TIME`]: in logical pixels.
pub(super) const MULTI_CLICK_DISTANCE: f32 = 5.0;

/// How fast a drag past the edge scrolls: per second, this much for each pixel out, and at
/// least the base.
const EDGE_SCROLL_PER_PIXEL: f32 = 12.0;
const EDGE_SCROLL_BASE: f32 = 120.0;

/// What a drag extends the selection by: what the press that started it selected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Character,
    Word,
    Body,
}

/// The pointer's gesture in the conversation.
#[derive(Resource, Debug, Default)]
pub(super) struct Gesture {
    /// Where the pointer is, in logical pixels.
    at: Option<Vec2>,
    /// While the button is held after a press on the conversation: the unit, and what the press
    /// selected, which the drag keeps.
    drag: Option<(Unit, TextPlace, TextPlace)>,
    /// The last press: when, where, and how many presses it made in a row.
    last_press: Option<(Instant, Vec2, u8)>,
}

impl Gesture {
    /// Whether the button is held after a press on the conversation.
    fn dragging(&self) -> bool {
        self.drag.is_some()
    }

    /// What a press at `to`, the `presses`th in a row, selects, and the drag it starts: with
    /// Shift, from the selection's anchor; else the character, word or message at `to`.
    fn select(
        &mut self,
        to: TextPlace,
        presses: u8,
        shift: bool,
        selection: &ConversationSelection,
        rows: &RowsOnScreen,
    ) -> ConversationSelection {
        if shift && presses == 1 {
            let anchor = selection.anchor;
            self.drag = Some((Unit::Character, anchor, anchor));
            return ConversationSelection::new(anchor, to);
        }
        let unit = [Unit::Character, Unit::Word, Unit::Body][usize::from(presses - 1)];
        let (first, last) = rows.around(unit, to);
        self.drag = Some((unit, first, last));
        ConversationSelection::new(first, last)
    }

    /// Counts a press at `at`: 1, 2 or 3 for a single, double or triple click, and then round
    /// again.
    fn count_press(&mut self, now: Instant, at: Vec2) -> u8 {
        let presses = match self.last_press {
            Some((then, place, presses))
                if now - then <= MULTI_CLICK_TIME && place.distance(at) <= MULTI_CLICK_DISTANCE =>
            {
                presses % 3 + 1
            }
            _ => 1,
        };
        self.last_press = Some((now, at, presses));
        presses
    }
}

/// The logged messages, by their places in the log.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct Logged<'w, 's> {
    log: Res<'w, MessageLog>,
    messages: Query<'w, 's, (&'static ChatMessage, &'static Role, Option<&'static Links>)>,
}

impl Logged<'_, '_> {
    /// The role and body of the message at `place`.
    pub(super) fn message(&self, place: usize) -> Option<(Role, &str)> {
        let (body, &role, _) = self.messages.get(*self.log.entities().get(place)?).ok()?;
        Some((role, body.body()))
    }

    /// The links of the message at `place`, if it has any.
    pub(super) fn links(&self, place: usize) -> Option<&Links> {
        self.messages.get(*self.log.entities().get(place)?).ok()?.2
    }
}

/// The conversation's mounted rows as the pointer finds them: where each is on screen and
/// which place of the log it shows.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct RowsOnScreen<'w, 's> {
    logged: Logged<'w, 's>,
    rows: Query<
        'w,
        's,
        (
            &'static Item,
            &'static Children,
            &'static ComputedNode,
            &'static UiGlobalTransform,
        ),
        With<MessageRow>,
    >,
    bubbles: Query<'w, 's, &'static Children, With<Bubble>>,
    texts: Query<
        'w,
        's,
        (
            &'static ComputedTextBlock,
            &'static ComputedNode,
            &'static UiGlobalTransform,
        ),
    >,
}

impl RowsOnScreen<'_, '_> {
    /// The role and body of the message at `place`.
    pub(super) fn message(&self, place: usize) -> Option<(Role, &str)> {
        self.logged.message(place)
    }

    /// The links of the message at `place`, if it has any.
    pub(super) fn links(&self, place: usize) -> Option<&Links> {
        self.logged.links(place)
    }

    /// The place of the text under `point` (physical pixels), or nearest to it: in the row
    /// nearest it vertically, where the text layout's hit test puts it.
    fn place_at(&self, point: Vec2) -> Option<TextPlace> {
        let (&Item(place), children, _, _) = self
            .rows
            .iter()
            // Spare rows are out of layout: no size.
            .filter(|(_, _, node, _)| node.size().y > 0.0)
            .min_by(|a, b| distance(a.2, a.3, point).total_cmp(&distance(b.2, b.3, point)))?;
        let (block, node, transform) = self.texts.get(self.text_of(children)?).ok()?;
        let top_left = transform.transform_point2(-node.size() / 2.0);
        let local = point - top_left;
        let index = Cursor::from_point(block.buffer(), local.x, local.y).index();
        let (role, body) = self.message(place)?;
        let offset = LaidOut::of(role, body).body_offset(index);
        Some(TextPlace::new(place, nearest_boundary(body, offset)))
    }

    /// The link under `point` (physical pixels), on one of its glyphs in a row on screen: the
    /// message's place in the log, and which of its links.
    pub(super) fn link_at(&self, point: Vec2) -> Option<(usize, usize)> {
        let (&Item(place), children, _, _) = (self.rows.iter())
            .find(|(_, _, node, transform)| node.contains_point(**transform, point))?;
        // Most messages have none: nothing to hit-test then.
        let links = self.links(place)?;
        let (block, node, transform) = self.texts.get(self.text_of(children)?).ok()?;
        if !node.contains_point(*transform, point) {
            return None;
        }
        let local = point - transform.transform_point2(-node.size() / 2.0);
        let (cluster, _) = Cluster::from_point_exact(block.buffer(), local.x, local.y)?;
        let (role, body) = self.message(place)?;
        let offset = LaidOut::of(role, body).body_offset(cluster.text_range().start);
        Some((place, links.index_at(offset)?))
    }

    /// The text of the row whose children are `row`: its bubble's first child.
    pub(super) fn text_of(&self, row: &Children) -> Option<Entity> {
        bubble_and_text(row, &self.bubbles).map(|(_, text)| text)
    }

    /// The word around `at`, as two places.
    fn word(&self, at: TextPlace) -> (TextPlace, TextPlace) {
        let word = self
            .message(at.message)
            .map_or(at.offset..at.offset, |(_, body)| word_at(body, at.offset));
        (
            TextPlace::new(at.message, word.start),
            TextPlace::new(at.message, word.end),
        )
    }

    /// The whole body of the message at `at`, as two places.
    fn body(&self, at: TextPlace) -> (TextPlace, TextPlace) {
        let len = self.message(at.message).map_or(0, |(_, body)| body.len());
        (
            TextPlace::new(at.message, 0),
            TextPlace::new(at.message, len),
        )
    }

    /// The unit of `unit` around `at`.
    fn around(&self, unit: Unit, at: TextPlace) -> (TextPlace, TextPlace) {
        match unit {
            Unit::Character => (at, at),
            Unit::Word => self.word(at),
            Unit::Body => self.body(at),
        }
    }
}

/// How far `point` is above or below a node: 0 inside its height.
fn distance(node: &ComputedNode, transform: &UiGlobalTransform, point: Vec2) -> f32 {
    let top = transform.transform_point2(-node.size() / 2.0).y;
    let bottom = top + node.size().y;
    (top - point.y).max(point.y - bottom).max(0.0)
}

/// Starts, extends and ends selections with the pointer, in the order its messages came, and
/// scrolls while a drag is held past the conversation's top or bottom edge.
fn select_with_pointer(
    mut events: MessageReader<WindowEvent>,
    mut gesture: ResMut<Gesture>,
    time: Res<Time<Real>>,
    clock: Res<InputClock>,
    keys: Res<ButtonInput<KeyCode>>,
    mut selection: ResMut<ConversationSelection>,
    conversation: Single<
        (
            &ComputedNode,
            &UiGlobalTransform,
            &ChildOf,
            &mut VirtualList,
        ),
        With<Conversation>,
    >,
    panes: Query<(&ComputedNode, &UiGlobalTransform)>,
    buttons: Query<&Interaction, With<CopyButton>>,
    rows: RowsOnScreen,
    mut redraw: MessageWriter<RequestRedraw>,
    mut primary: MessageWriter<WritePrimary>,
    zoom: Res<UiScale>,
    grab: Res<PointerGrab>,
) {
    let (node, transform, ChildOf(pane), mut list) = conversation.into_inner();
    let view = View::of(node, transform, &zoom);
    for event in events.read() {
        match event {
            WindowEvent::CursorMoved(moved) => {
                gesture.at = Some(moved.position);
                if let Some(drag) = gesture.drag
                    && let Some(extended) = view.extend(drag, moved.position, &rows)
                {
                    selection.set_if_neq(extended);
                }
            }
            WindowEvent::MouseButtonInput(button) if button.button == MouseButton::Left => {
                if !button.state.is_pressed() {
                    // The selection is made: on X11 it is the PRIMARY selection too.
                    if gesture.drag.take().is_some() && !selection.is_empty() {
                        primary.write(WritePrimary(selection.text(|at| rows.message(at))));
                    }
                    continue;
                }
                // An open menu's (`menu`).
                let Some(at) = gesture.at.filter(|_| !grab.0) else {
                    continue;
                };
                let on_button = buttons.iter().any(|i| *i != Interaction::None);
                if !node.contains_point(*transform, at * view.to_physical) || on_button {
                    let on_scrollbar = panes.get(*pane).is_ok_and(|(pane, place)| {
                        pane.contains_point(*place, at * view.to_physical)
                    });
                    if !on_scrollbar && !on_button {
                        let empty = ConversationSelection::new(selection.focus, selection.focus);
                        selection.set_if_neq(empty);
                    }
                    continue;
                }
                let presses = gesture.count_press(clock.now(), at);
                let Some(to) = rows.place_at(at * view.to_physical) else {
                    continue;
                };
                let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
                let pressed = gesture.select(to, presses, shift, &selection, &rows);
                selection.set_if_neq(pressed);
            }
            _ => {}
        }
    }
    // Held past an edge, the drag scrolls, and the selection grows with what comes into view.
    if let (Some(drag), Some(at)) = (gesture.drag, gesture.at)
        && let Some(speed) = view.edge_scroll(at)
    {
        list.scroll_by(f64::from(speed * time.delta_secs()));
        if let Some(extended) = view.extend(drag, at, &rows) {
            selection.set_if_neq(extended);
        }
        redraw.write(RequestRedraw);
    }
}

/// The conversation's view on screen, in physical pixels: where a pointer in logical pixels
/// falls in it.
#[derive(Clone, Copy)]
struct View {
    /// The pointer comes in logical pixels, layout is in physical ones.
    to_physical: f32,
    top: f32,
    bottom: f32,
}

impl View {
    fn of(node: &ComputedNode, transform: &UiGlobalTransform, zoom: &UiScale) -> Self {
        let top = transform.transform_point2(-node.size() / 2.0).y;
        Self {
            to_physical: window_scale(node, zoom),
            top,
            bottom: top + node.size().y,
        }
    }

    /// The selection a drag that began with `drag` makes with the pointer at `at`, held inside
    /// the view: rows out of it are mounted, but hidden.
    fn extend(
        self,
        (unit, first, last): (Unit, TextPlace, TextPlace),
        at: Vec2,
        rows: &RowsOnScreen,
    ) -> Option<ConversationSelection> {
        let at = at * self.to_physical;
        let inside = Vec2::new(
            at.x,
            at.y.clamp(self.top + 1.0, (self.bottom - 1.0).max(self.top)),
        );
        let to = rows.place_at(inside)?;
        let (before, after) = rows.around(unit, to);
        Some(if to < first {
            ConversationSelection::new(last, before)
        } else {
            ConversationSelection::new(first, after)
        })
    }

    /// How fast a drag held at `at` past the top or the bottom scrolls, in physical pixels a
    /// second (up is negative); `None` inside the view.
    fn edge_scroll(self, at: Vec2) -> Option<f32> {
        let y = at.y * self.to_physical;
        let out = if y < self.top {
            y - self.top
        } else if y > self.bottom {
            y - self.bottom
        } else {
            return None;
        };
        let speed = EDGE_SCROLL_BASE + EDGE_SCROLL_PER_PIXEL * out.abs() / self.to_physical;
        Some(out.signum() * speed)
    }
}

/// Ctrl+A in the focused conversation selects all of it; Ctrl+C or Ctrl+Insert copies the
/// selection, wherever focus is, when the conversation has it.
fn select_and_copy_with_keys(
    mut keys: MessageReader<ConversationInput>,
    mut selection: ResMut<ConversationSelection>,
    rows: Logged,
    mut copies: MessageWriter<CopyText>,
    mut primary: MessageWriter<WritePrimary>,
) {
    for key in keys.read() {
        match key {
            ConversationInput::SelectAll => {
                let len = rows.log.len();
                let Some(last) = len.checked_sub(1) else {
                    continue;
                };
                let end = rows.message(last).map_or(0, |(_, body)| body.len());
                selection.set_if_neq(ConversationSelection::new(
                    TextPlace::default(),
                    TextPlace::new(last, end),
                ));
                primary.write(WritePrimary(selection.text(|at| rows.message(at))));
            }
            ConversationInput::CopySelection | ConversationInput::Act(MessageAction::Copy)
                if !selection.is_empty() =>
            {
                copies.write(CopyText(selection.text(|place| rows.message(place))));
            }
            _ => {}
        }
    }
}

/// Selects what a screen reader asks to select in a row's text (AT-SPI's Text.SetSelection, or a
/// caret moved there): places in the row's text run, as characters of the row's text.
fn select_for_a_reader(
    mut requests: MessageReader<ActionRequest>,
    mut selection: ResMut<ConversationSelection>,
    parents: Query<&ChildOf>,
    items: Query<&Item, With<MessageRow>>,
    rows: Logged,
) {
    for ActionRequest(request) in requests.read() {
        let (Action::SetTextSelection, Some(ActionData::SetTextSelection(chosen))) =
            (request.action, &request.data)
        else {
            continue;
        };
        // A position's node is a row's text run: the text under the bubble under the row.
        let place = |position: &TextPosition| {
            let text = Entity::try_from_bits(position.node.0)?;
            let bubble = parents.get(text).ok()?.parent();
            let row = parents.get(bubble).ok()?.parent();
            let &Item(at) = items.get(row).ok()?;
            let (role, body) = rows.message(at)?;
            let offset = LaidOut::of(role, body).body_offset_of_character(position.character_index);
            Some(TextPlace::new(at, offset))
        };
        if let (Some(anchor), Some(focus)) = (place(&chosen.anchor), place(&chosen.focus)) {
            selection.set_if_neq(ConversationSelection::new(anchor, focus));
        }
    }
}

/// One selection per window: a selection made in the conversation lets go of the field's, and
/// one made in the field lets go of the conversation's.
fn one_selection_per_window(
    mut selection: ResMut<ConversationSelection>,
    mut field: Single<&mut Field, With<ChatInput>>,
) {
    if selection.is_changed() && !selection.is_empty() {
        field.drop_selection();
    } else if field.is_changed() && !field.line().selection().is_empty() && !selection.is_empty() {
        let focus = selection.focus;
        *selection = ConversationSelection::new(focus, focus);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selection(from: (usize, usize), to: (usize, usize)) -> ConversationSelection {
        ConversationSelection::new(TextPlace::new(from.0, from.1), TextPlace::new(to.0, to.1))
    }

    #[test]
    fn inside_one_message_the_selected_text_is_copied_as_it_is() {
        let bodies = ["서울역 3번 출구에서 만나요"];
        let at = |s: &str| bodies[0].find(s).unwrap();
        let message = |place: usize| Some((Role::Agent, bodies[place]));
        let chosen = selection((0, at("3번")), (0, at("에서")));
        assert_eq!(chosen.text(message), "3번 출구");
        let backwards = selection((0, at("에서")), (0, at("3번")));
        assert_eq!(backwards.text(message), "3번 출구", "either direction");
    }

    #[test]
    fn across_messages_each_is_a_line_with_its_label_where_that_is_selected() {
        let bodies = [
            "안녕하세요",
            "무엇을 도와드릴까요?",
            "출구가 어디예요",
            "3번이요",
        ];
        let roles = [Role::User, Role::Agent, Role::User, Role::Agent];
        let message = |place: usize| Some((roles[place], bodies[place]));
        let chosen = selection((0, "안녕".len()), (2, "출구".len()));
        assert_eq!(
            chosen.text(message),
            "하세요\n에이전트: 무엇을 도와드릴까요?\n사용자: 출구"
        );
        let from_the_start = selection((1, 0), (3, 0));
        assert_eq!(
            from_the_start.text(message),
            "에이전트: 무엇을 도와드릴까요?\n사용자: 출구가 어디예요",
            "a selection that ends at a body's start takes nothing of that message"
        );
    }
}
