//! How the conversation's rows are kept few whatever the log holds: the work behind
//! [`mount_rows`](super::mount_rows), which a first read can skip.
//!
//! The conversation is a [`VirtualList`]: each message is an item, and only the items in and near
//! the view have a row. As the view moves, rows that leave it are given the content of rows that
//! enter it: rewriting a row's components in place costs a fraction of building one and tearing
//! one down, and a row that already shows the same text (the replies come from a short list, so
//! half the rows do) keeps its text as it is, since shaping and measuring text is most of what
//! mounting a row costs. Rows left over wait, hidden, among the [`SpareRows`] for the rows the
//! next frames bring (a jump's overscan), and are let go once the list has all it wants. The work
//! is the new messages plus the rows that come and go: none of it grows with the log.
//!
//! For screen readers, the list says how many messages there are, each row where it stands
//! among them, and the newest reply logged in a frame is announced ([`Announce`]): read out
//! once, without moving focus, whether or not it has a row (the user may be reading elsewhere in
//! the conversation). One per frame, so a burst of replies is one announcement, not a queue of
//! them; the user's own lines are never read back, nor are old replies mounted again by
//! scrolling.

use std::ops::Range;

use accesskit::Role as AccessRole;
use bevy::{a11y::AccessibilityNode, ecs::system::SystemParam, prelude::*, window::RequestRedraw};

use super::speech::{Announce, Topic};
use super::{Conversation, MessageRow, RowContent, bubble_and_text, row_shape, row_text};
use crate::{
    chat::{ChatMessage, MessageLog, Role},
    scroll::{Item, VirtualList},
    theme::fonts::TextMetrics,
};

/// Where rows wait between showing one message and the next: out of layout and out of the
/// screen reader's tree.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct SpareRows;

/// What [`RowRecycler::mount`] is to do this frame: the log's places that have rows, and those
/// that are to have them.
pub(super) struct Plan {
    mounted: Range<usize>,
    to_mount: Range<usize>,
    /// Whether `to_mount` is all the list wants: the rows left over can go.
    complete: bool,
}

impl Plan {
    /// The places that are to have a row and have none yet, in log order.
    pub(super) fn entering(&self) -> impl Iterator<Item = usize> + use<> {
        let mounted = self.mounted.clone();
        self.to_mount.clone().filter(move |i| !mounted.contains(i))
    }
}

/// The holder of the [`SpareRows`], beside the list's column.
pub(super) fn spare_rows() -> impl Bundle {
    let mut hidden = accesskit::Node::new(AccessRole::GenericContainer);
    hidden.set_hidden();
    (
        Name::new("Spare rows"),
        SpareRows,
        AccessibilityNode(hidden),
        Node {
            display: Display::None,
            ..default()
        },
    )
}

/// The conversation's list and its rows, as [`mount_rows`](super::mount_rows) keeps them.
#[derive(SystemParam)]
pub struct RowRecycler<'w, 's> {
    metrics: Res<'w, TextMetrics>,
    conversation: Single<
        'w,
        's,
        (
            Entity,
            &'static mut Conversation,
            &'static mut VirtualList,
            &'static mut AccessibilityNode,
        ),
    >,
    rows: Query<'w, 's, (Entity, &'static Item, &'static ChildOf, &'static MessageRow)>,
    spares: Single<'w, 's, (Entity, Option<&'static Children>), With<SpareRows>>,
    children: Query<'w, 's, &'static Children>,
    announce: MessageWriter<'w, Announce>,
    redraw: MessageWriter<'w, RequestRedraw>,
    commands: Commands<'w, 's>,
}

impl RowRecycler<'_, '_> {
    /// Makes each message logged since the last frame an item of the list. Returns the newest
    /// reply among them, which screen readers are to hear.
    pub(super) fn add_new_messages(
        &mut self,
        log: &MessageLog,
        messages: &Query<(&ChatMessage, &Role)>,
    ) -> Option<usize> {
        let (_, _, ref mut list, ref mut node) = *self.conversation;
        let logged = log.entities();
        let new = list.len()..logged.len();
        if new.is_empty() {
            return None;
        }
        for &message in &logged[new.clone()] {
            let shape = messages
                .get(message)
                .map(|(body, &role)| row_shape(&self.metrics, role, body.body()))
                .unwrap_or_default();
            list.push(shape);
        }
        node.set_size_of_set(logged.len());
        node.set_description(format!("메시지 {}개", logged.len()));
        new.rev().find(|&i| {
            messages
                .get(logged[i])
                .is_ok_and(|(_, &role)| role == Role::Agent)
        })
    }

    /// What to mount this frame, or `None` when the rows stay as they are. Announces `reply`
    /// (see [`add_new_messages`](Self::add_new_messages)), with a row or without.
    pub(super) fn plan(
        &mut self,
        reply: Option<usize>,
        log: &MessageLog,
        messages: &Query<(&ChatMessage, &Role)>,
    ) -> Option<Plan> {
        let (_, ref conversation, ref list, _) = *self.conversation;
        let mounted = conversation.mounted.clone();
        let to_mount = list.to_mount(mounted.clone());
        if let Some(reply) = reply
            && let Ok((body, &role)) = messages.get(log.entities()[reply])
        {
            self.announce
                .write(Announce::say(Topic::Reply, row_text(role, body.body())));
        }
        let complete = to_mount == list.wanted();
        if !complete {
            // The rest of the overscan comes in the next frames; ask for them now.
            self.redraw.write(RequestRedraw);
        }
        let (_, spare) = *self.spares;
        if to_mount == mounted && spare.is_none_or(|spare| spare.is_empty()) {
            return None;
        }
        Some(Plan {
            mounted,
            to_mount,
            complete,
        })
    }

    /// Gives each of `entering` a row, in order: a row that left the view, one that shows the
    /// same text first, or else a new one. The rows still left over wait among the spares, or
    /// go once the list has all it wants.
    pub(super) fn mount(
        &mut self,
        plan: Plan,
        entering: Vec<RowContent>,
        messages: &Query<(&ChatMessage, &Role)>,
    ) {
        let Plan {
            to_mount, complete, ..
        } = plan;
        let (holder, spare) = *self.spares;
        let mut recycled: Vec<(Entity, Entity)> = spare
            .map_or(&[][..], |spare| &spare[..])
            .iter()
            .filter_map(|&row| self.rows.get(row).ok())
            .chain(
                self.rows
                    .iter()
                    .filter(|&(_, Item(i), ChildOf(parent), _)| {
                        !to_mount.contains(i) && *parent != holder
                    }),
            )
            .map(|(row, _, _, shown)| (row, shown.message))
            .collect();
        let same_text: Vec<Option<Entity>> = entering
            .iter()
            .map(|content| {
                let at = recycled.iter().position(|&(_, shown)| {
                    messages.get(shown).is_ok_and(|(body, &role)| {
                        role == content.role && body.body() == content.body
                    })
                })?;
                Some(recycled.swap_remove(at).0)
            })
            .collect();
        let mut placed = Vec::new();
        for (content, same_text) in entering.into_iter().zip(same_text) {
            placed.push(self.show(content, same_text, &mut recycled));
        }
        let recycled: Vec<Entity> = recycled.into_iter().map(|(row, _)| row).collect();
        let (area, ref mut conversation, _, _) = *self.conversation;
        if complete {
            for row in recycled {
                self.commands.entity(row).despawn();
            }
        } else {
            self.commands.entity(holder).add_children(&recycled);
        }
        // The list puts them in place among the others (`scroll::arrange`).
        self.commands.entity(area).add_children(&placed);
        conversation.mounted = to_mount;
    }

    /// Shows `content` in `same_text` (a row with its text already), or else in a row taken
    /// from `recycled`, or else in a new row; returns the row.
    fn show(
        &mut self,
        content: RowContent,
        same_text: Option<Entity>,
        recycled: &mut Vec<(Entity, Entity)>,
    ) -> Entity {
        if let Some(row) = same_text {
            let text = row_text(content.role, content.body);
            self.commands.entity(row).insert(content.identity(&text));
            return row;
        }
        let reused = recycled.pop().and_then(|(row, _)| {
            let (bubble, text) = bubble_and_text(self.children.get(row).ok()?, &self.children)?;
            Some((row, bubble, text))
        });
        let Some((row, bubble, text)) = reused else {
            return self.commands.spawn(content.spawn()).id();
        };
        let (row_parts, bubble_parts, text_parts) = content.parts();
        self.commands.entity(row).insert(row_parts);
        self.commands.entity(bubble).insert(bubble_parts);
        self.commands.entity(text).insert(text_parts);
        row
    }
}
