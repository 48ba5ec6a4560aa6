//! What the user sees: the window's layout, and the conversation as a virtual list of rows,
//! one per logged message, mounted while in or near the view.

use std::{borrow::Cow, ops::Range};

use accesskit::Role as AccessRole;
use bevy::{ecs::query::QueryFilter, input_focus::InputFocus, prelude::*};

use crate::{
    AppSystems,
    a11y::accessible,
    chat::{self, ChatMessage, MessageLog, Role, RoleStyle},
    input,
    scroll::{self, Item, Shape, VirtualList},
    theme::{self, Paint, Theme, fonts::TextMetrics},
};

pub mod copy;
pub mod find;
pub mod focus;
pub mod highlight;
pub mod menu;
pub mod open_links;
pub mod paragraph;
pub mod reader;
pub mod recycle;
pub mod selection;
pub mod speech;
pub mod zoom;

use recycle::spare_rows;
pub use recycle::{RowRecycler, SpareRows};

pub(super) fn plugin(app: &mut App) {
    app.register_type::<Conversation>()
        .register_type::<MessageRow>()
        .register_type::<Bubble>()
        .register_type::<SpareRows>()
        .add_plugins((
            copy::plugin,
            focus::plugin,
            selection::plugin,
            find::plugin,
            highlight::plugin,
            menu::plugin,
            open_links::plugin,
            reader::plugin,
            speech::plugin,
            zoom::plugin,
        ))
        .add_systems(Startup, spawn_layout)
        .add_systems(
            Update,
            (follow_the_newest, mount_rows)
                .chain()
                .in_set(AppSystems::SpawnRows),
        );
}

/// The scrolling column of the conversation: a [`VirtualList`] with one item per logged
/// message, in log order, of which only the rows in and near the view are mounted.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct Conversation {
    /// The items mounted as rows, as of this frame (see [`VirtualList::to_mount`]).
    mounted: Range<usize>,
}

/// A row in the conversation, pointing at the [`ChatMessage`] entity it shows.
///
/// The row holds the role's [`RowClass`](chat::RowClass) and alignment, and its place in the
/// log as a list [`Item`]; its one child, a [`Bubble`], holds the border, and the bubble's first
/// child the label text (the `복사` button, when it shows, is the second: [`copy`]).
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq)]
#[reflect(Component)]
pub struct MessageRow {
    /// The message entity shown.
    pub message: Entity,
}

/// The bordered box inside a [`MessageRow`], around the row's text.
///
/// The text is a child rather than the bubble itself: a text node with a percentage
/// `max_width` is measured against the wrong width, which left blank lines under wrapped text
/// and made the scrollable height overshoot.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct Bubble;

/// Spawns the camera, the conversation area with its scrollbar and, under them, the input
/// field.
fn spawn_layout(theme: Res<Theme>, mut commands: Commands) {
    // Flat boxes and text have no edges for multisampling to smooth (UI shaders anti-alias their
    // own corners), and on a software renderer it is most of an idle frame's cost.
    commands.spawn((Name::new("Camera"), Camera2d, Msaa::Off));
    let conversation = commands
        .spawn((
            Name::new("Conversation"),
            Conversation::default(),
            VirtualList::new(ROW_GAP, estimate_row),
            accessible(AccessRole::List, "대화"),
            Node {
                // All the height the input leaves, however many rows it holds.
                flex_grow: 1.0,
                min_height: px(0),
                // What is not in view is not drawn; rows are placed by the list, not by
                // scrolling this node.
                overflow: Overflow::clip_y(),
                ..default()
            },
            children![scroll::item_column(ROW_GAP), spare_rows()],
        ))
        .id();
    let pane = commands
        .spawn((
            Name::new("Conversation pane"),
            Node {
                flex_grow: 1.0,
                min_height: px(0),
                flex_direction: FlexDirection::Column,
                ..default()
            },
        ))
        .add_child(conversation)
        .with_child(scroll::scrollbar(conversation))
        .id();
    commands
        .spawn((
            Name::new("Root"),
            Node {
                width: percent(100),
                height: percent(100),
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(px(theme::MARGIN)),
                row_gap: px(theme::MARGIN),
                ..default()
            },
        ))
        .add_child(pane)
        .with_child(input_bar(&theme));
}

/// The field, with the notices that show over the conversation's bottom edge, above it.
fn input_bar(theme: &Theme) -> impl Bundle {
    (
        Name::new("Input bar"),
        Node {
            width: percent(100),
            flex_direction: FlexDirection::Column,
            ..default()
        },
        children![input::chat_input(theme.palette()), notices()],
    )
}

/// Where the notices show (the field is full, a message was copied, the zoom level): out of
/// layout, over the conversation's bottom right corner, just above the field, so that a notice
/// coming or going never moves the field or the rows.
fn notices() -> impl Bundle {
    (
        Name::new("Notices"),
        Node {
            position_type: PositionType::Absolute,
            bottom: percent(100),
            right: px(0),
            // The gap between the conversation and the field: its bottom is the conversation's.
            margin: UiRect::bottom(px(theme::MARGIN)),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::FlexEnd,
            row_gap: px(4),
            ..default()
        },
        // Over the rows, which come later in the tree.
        GlobalZIndex(1),
        children![
            input::length_limit_notice(),
            copy::copied_notice(),
            zoom::zoom_notice(),
            open_links::link_notice(),
        ],
    )
}

/// Spec step 7, the scroll: new messages take the view to the newest, unless the user reads
/// with keyboard focus in the conversation; then the view stays with the focused message.
pub fn follow_the_newest(
    log: Res<MessageLog>,
    conversation: Single<(Entity, &mut VirtualList), With<Conversation>>,
    input_focus: Res<InputFocus>,
    rows: focus::InConversation,
) {
    let (area, mut list) = conversation.into_inner();
    if log.len() > list.len() && !focus::in_conversation(&input_focus, area, &rows) {
        list.follow_end();
    }
}

/// Spec step 7: a row for each message in or near the view, in log order, each built from its
/// message's role and body alone ([`RoleStyle::of`]).
///
/// New messages join the conversation's list (which [`follow_the_newest`] has just sent to its
/// end, or not); the places of the log that come into view get rows. How few rows that takes, whatever the log holds, is
/// [`RowRecycler`]'s business ([`recycle`]): skip it on a first read.
pub fn mount_rows(
    log: Res<MessageLog>,
    messages: Query<(&ChatMessage, &Role)>,
    mut rows: RowRecycler,
) {
    // The newest reply among the new messages is read out to screen readers.
    let reply = rows.add_new_messages(&log, &messages);
    let Some(plan) = rows.plan(reply, &log, &messages) else {
        return;
    };
    let entering = plan
        .entering()
        // A message despawned by someone else has nothing to show; the rest keep their order.
        .filter_map(|place| {
            let message = log.entities()[place];
            let (body, &role) = messages.get(message).ok()?;
            Some(RowContent {
                message,
                place,
                role,
                body: body.body(),
            })
        })
        .collect();
    rows.mount(plan, entering, &messages);
}

/// The systems that dress the rows `mount_rows` has just mounted: their marks (selection,
/// matches) and their text for screen readers (`frame.rs`).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DressRows;

/// A row's bubble, its first child, and the row's text, the bubble's first child (the `복사`
/// button may follow it: [`copy`]), from the row's children and a query that has the bubble's.
fn bubble_and_text<F: QueryFilter>(
    row: &Children,
    children: &Query<&Children, F>,
) -> Option<(Entity, Entity)> {
    let bubble = *row.first()?;
    let text = *children.get(bubble).ok()?.first()?;
    Some((bubble, text))
}

/// The space between two rows, in logical pixels.
pub const ROW_GAP: f32 = 8.0;

/// The widest a bubble gets, as a share of the conversation's width.
pub const BUBBLE_SHARE: f32 = 0.75;

/// The space between a bubble's edge and its text, in logical pixels: sides, then top and bottom.
pub const BUBBLE_PADDING: Vec2 = Vec2::new(12.0, 8.0);

/// The height of a line of row text: Bevy's default, 1.2 times the font size.
pub const LINE_HEIGHT: f32 = 1.2 * theme::FONT_SIZE;

/// The text a row shows for a message: the role's label and the part of the body shown.
fn row_text(role: Role, body: &str) -> String {
    RoleStyle::of(role).text(&shown_body(body))
}

/// The [`Shape`] of the text a row shows for a message ([`row_text`]), measured without
/// building that text.
fn row_shape(metrics: &TextMetrics, role: Role, body: &str) -> Shape {
    let label = metrics.width(&RoleStyle::of(role).text(""));
    let body = shown_body(body);
    Shape {
        width: label
            + body
                .split('\n')
                .map(|line| metrics.width(line))
                .sum::<f32>(),
        breaks: body.matches('\n').count() as u32,
    }
}

/// How tall the row of a message is estimated to be in a conversation `width` wide, before
/// layout has measured it: what the list assumes for a row it has not mounted.
pub fn estimated_height(metrics: &TextMetrics, role: Role, body: &str, width: f32) -> f32 {
    estimate_row(row_shape(metrics, role, body), width)
}

/// How tall a row of `shape` is estimated to be in a conversation `width` wide, before layout
/// has measured it: its text's lines, from the one-line width over the bubble's text width, at
/// least one per paragraph, and the bubble's padding.
///
/// Exact for a line that fits (most of a chat); a wrapped line often takes one line more than
/// its width alone says, since words do not break at the edge.
fn estimate_row(shape: Shape, width: f32) -> f32 {
    let text_width = width * BUBBLE_SHARE - 2.0 * BUBBLE_PADDING.x - ROW_BORDER_WIDTH;
    let wrapped = (shape.width / text_width.max(theme::FONT_SIZE)).ceil();
    let lines = wrapped.max(shape.breaks as f32 + 1.0);
    lines * LINE_HEIGHT + 2.0 * BUBBLE_PADDING.y
}

/// [`chat::ROW_BORDER`] in logical pixels.
const ROW_BORDER_WIDTH: f32 = match chat::ROW_BORDER {
    Val::Px(width) => width,
    _ => panic!("the row border is given in pixels"),
};

/// The most characters of one body a row shows.
///
/// Typed lines stop at [`input::MAX_INPUT_CHARS`], so this only matters for bodies that arrive
/// longer by other routes: the log keeps them whole, and the row shows the start followed by a
/// count of what is not shown, so one huge message cannot stall text layout.
pub const MAX_SHOWN_CHARS: usize = 4000;

/// The part of `body` a row shows: all of it, or its first [`MAX_SHOWN_CHARS`] characters and
/// how many more there are.
pub fn shown_body(body: &str) -> Cow<'_, str> {
    let cut = shown_len(body);
    if cut == body.len() {
        return Cow::Borrowed(body);
    }
    let hidden = body[cut..].chars().count();
    Cow::Owned(format!("{}… (+{hidden}자)", &body[..cut]))
}

/// How many bytes of `body` a row shows as they are: all of them, or its first
/// [`MAX_SHOWN_CHARS`] characters' ([`shown_body`]).
pub fn shown_len(body: &str) -> usize {
    if body.len() <= MAX_SHOWN_CHARS {
        // No more characters than bytes: nothing to count.
        return body.len();
    }
    body.char_indices()
        .nth(MAX_SHOWN_CHARS)
        .map_or(body.len(), |(cut, _)| cut)
}

/// What a row shows: the message, its place in the log, its role and body. Everything on screen
/// is derived from these.
struct RowContent<'a> {
    message: Entity,
    place: usize,
    role: Role,
    body: &'a str,
}

impl RowContent<'_> {
    /// The whole row: the row, its bubble, and the bubble's text.
    fn spawn(self) -> impl Bundle {
        let (row, bubble, text) = self.parts();
        (row, children![(bubble, children![text])])
    }

    /// The components of the row, its bubble and its text, each on its own.
    fn parts(self) -> (impl Bundle, impl Bundle, impl Bundle) {
        let style = RoleStyle::of(self.role);
        let text = row_text(self.role, self.body);
        let row = (
            Name::new("Message row"),
            self.identity(&text),
            style.class,
            // Hovered, it shows the copy button.
            Interaction::default(),
            Node {
                width: percent(100),
                justify_content: style.justify,
                ..default()
            },
        );
        let bubble = (
            Name::new("Bubble"),
            Bubble,
            Node {
                max_width: percent(100.0 * BUBBLE_SHARE),
                border: style.border,
                padding: UiRect::axes(px(BUBBLE_PADDING.x), px(BUBBLE_PADDING.y)),
                ..default()
            },
            Paint::background(style.background).with_border(style.border_color),
        );
        let text = (
            Text::new(paragraph::layout_text(&text, self.body)),
            // Long words and URLs break anywhere rather than overflow the bubble. Lines start
            // where the paragraph does: at the right when it runs right to left.
            TextLayout::new(Justify::Start, LineBreak::WordOrCharacter),
            theme::text_font(),
            Paint::text(|p| p.text),
        );
        (row, bubble, text)
    }

    /// Which message the row shows and where it stands among them: all of a row that changes
    /// when it goes from one message to another with the same text.
    fn identity(&self, text: &str) -> impl Bundle + use<> {
        // A screen reader tells the row as a list item with the text a sighted user reads.
        let mut item = accessible(AccessRole::ListItem, text);
        item.set_position_in_set(self.place);
        // A reader may move focus to it, or ask for it to be scrolled into view (`focus`).
        item.add_action(accesskit::Action::Focus);
        item.add_action(accesskit::Action::ScrollIntoView);
        (
            MessageRow {
                message: self.message,
            },
            Item(self.place),
            item,
        )
    }
}
