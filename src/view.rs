//! What the user sees: the window's layout, and a row for each of the newest logged messages.

use std::borrow::Cow;

use accesskit::{Live, Role as AccessRole};
use bevy::{a11y::AccessibilityNode, prelude::*};

use crate::{
    AppSystems,
    a11y::accessible,
    chat::{Message, MessageLog, Role},
    input, scroll,
    theme::{self, Paint, RoleStyle, Theme},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_layout)
        .add_systems(Update, spawn_rows.in_set(AppSystems::SpawnRows));
}

/// How many of the newest messages the conversation shows: 50 exchanges.
///
/// Every UI node costs time in every frame (layout, stacking, clipping, rendering), so a row per
/// message would make an idle frame 300 times slower at 100,000 messages than at 100
/// (`cargo bench --profile dev --bench frame`). The log keeps every message; the screen keeps
/// the newest ones, and the oldest row leaves as a new one arrives.
pub const ROWS_SHOWN: usize = 100;

/// The scrolling column holding a row for each of the newest [`ROWS_SHOWN`] messages, in log
/// order.
#[derive(Component, Debug, Default)]
#[require(ScrollPosition)]
pub struct Conversation {
    /// How many log entries the view has handled (shown, or skipped as already too old).
    seen: usize,
}

/// A row in the conversation, pointing at the [`Message`](struct@Message) entity it shows.
///
/// The row holds the role's [`RowClass`](theme::RowClass) and alignment; its one child, a
/// [`Bubble`], holds the border, and the bubble's one child the label text.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageRow {
    /// The message entity shown.
    pub message: Entity,
}

/// The bordered box inside a [`MessageRow`], around the row's text.
///
/// The text is a child rather than the bubble itself: a text node with a percentage
/// `max_width` is measured against the wrong width, which left blank lines under wrapped text
/// and made the scrollable height overshoot.
#[derive(Component, Debug, Default)]
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
            accessible(AccessRole::List, "대화"),
            Node {
                flex_grow: 1.0,
                // Lets the column shrink below its content, so it scrolls instead of growing.
                min_height: px(0),
                flex_direction: FlexDirection::Column,
                row_gap: px(8),
                overflow: Overflow::scroll_y(),
                ..default()
            },
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
        .with_child((
            Name::new("Input bar"),
            Node {
                width: percent(100),
                flex_direction: FlexDirection::Column,
                row_gap: px(4),
                ..default()
            },
            children![
                input::chat_input(theme.palette()),
                input::length_limit_notice()
            ],
        ));
}

/// Mounts a row for every newly logged message, oldest first, and retires the oldest rows so
/// that at most [`ROWS_SHOWN`] remain.
///
/// Only the new tail of the log is visited, and rows that would leave at once (a burst larger
/// than the screen keeps) are never built, so a submission costs the same however long the
/// conversation already is.
///
/// For screen readers, the list says how many messages there are, each row where it stands
/// among them, and the newest reply of the frame is a polite live region: it is read out once,
/// when it appears, without moving focus. One per frame, so a burst of replies is one
/// announcement, not a queue of them; the user's own lines are never read back.
fn spawn_rows(
    log: Res<MessageLog>,
    messages: Query<(&Message, &Role)>,
    conversation: Single<(
        Entity,
        &mut Conversation,
        &mut AccessibilityNode,
        Option<&Children>,
    )>,
    mut commands: Commands,
) {
    let (area, mut conversation, mut list, rows) = conversation.into_inner();
    if conversation.seen == log.len() {
        return;
    }
    let first_shown = log.len().saturating_sub(ROWS_SHOWN).max(conversation.seen);
    let shown = &log.entities()[first_shown..];
    let announced = shown.iter().rposition(|&message| {
        messages
            .get(message)
            .is_ok_and(|(_, &role)| role == Role::Agent)
    });
    let mut mounted = 0;
    for (i, &message) in shown.iter().enumerate() {
        let Ok((body, &role)) = messages.get(message) else {
            // A message despawned by someone else has nothing to show; keep the order of the rest.
            continue;
        };
        commands.entity(area).with_child(message_row(
            message,
            role,
            body.body(),
            first_shown + i,
            announced == Some(i),
        ));
        mounted += 1;
    }
    list.set_size_of_set(log.len());
    list.set_description(format!("메시지 {}개", log.len()));
    let rows = rows.map_or(&[][..], |rows| &rows[..]);
    let retired = (rows.len() + mounted).saturating_sub(ROWS_SHOWN);
    for &row in &rows[..retired] {
        commands.entity(row).despawn();
    }
    conversation.seen = log.len();
}

/// The most characters of one body a row shows.
///
/// Typed lines stop at [`input::MAX_INPUT_CHARS`], so this only matters for bodies that arrive
/// longer by other routes: the log keeps them whole, and the row shows the start followed by a
/// count of what is not shown, so one huge message cannot stall text layout.
pub const MAX_SHOWN_CHARS: usize = 4000;

/// The part of `body` a row shows: all of it, or its first [`MAX_SHOWN_CHARS`] characters and
/// how many more there are.
pub fn shown_body(body: &str) -> Cow<'_, str> {
    match body.char_indices().nth(MAX_SHOWN_CHARS) {
        None => Cow::Borrowed(body),
        Some((cut, _)) => {
            let hidden = body[cut..].chars().count();
            Cow::Owned(format!("{}… (+{hidden}자)", &body[..cut]))
        }
    }
}

/// One row, entirely derived from the message's role and body; `place` is its index in the log,
/// and `announce` makes it a live region that screen readers read out when it appears.
fn message_row(
    message: Entity,
    role: Role,
    body: &str,
    place: usize,
    announce: bool,
) -> impl Bundle {
    let style = RoleStyle::of(role);
    let text = style.text(&shown_body(body));
    // A screen reader tells the row as a list item with the text a sighted user reads.
    let mut item = accessible(AccessRole::ListItem, &text);
    item.set_position_in_set(place);
    if announce {
        item.set_live(Live::Polite);
    }
    (
        Name::new("Message row"),
        MessageRow { message },
        item,
        style.class,
        Node {
            width: percent(100),
            justify_content: style.justify,
            ..default()
        },
        children![(
            Name::new("Bubble"),
            Bubble,
            Node {
                max_width: percent(75),
                border: style.border,
                padding: UiRect::axes(px(12), px(8)),
                ..default()
            },
            Paint::background(style.background).with_border(style.border_color),
            children![(
                Text::new(text),
                // Long words and URLs break anywhere rather than overflow the bubble.
                TextLayout::linebreak(LineBreak::WordOrCharacter),
                theme::text_font(),
                Paint::text(|p| p.text),
            )],
        )],
    )
}
