//! What a screen reader gets of each row beyond its name: its text, as text the reader's caret
//! moves through and its selection commands select in (AT-SPI's Text interface), only while a
//! reader is listening.
//!
//! A row is a list item named by its text (`view.rs`); inside it, its bubble is a label and the
//! row's text node the label's text run ([`a11y::text`]). Bevy keeps every accessibility
//! node's bounds up to date each frame, so the two nodes a row are given only while assistive
//! technology has asked for the tree (Bevy's [`AccessibilityRequested`]), which is also the
//! only time the tree is sent: a desktop without a screen reader pays nothing for them. What a
//! reader selects there becomes the conversation's selection (`view/selection.rs`).
//!
//! Each link in a row is a `link` node of the row's, after its bubble ([`ReaderLink`]): named by
//! its text, with its address, and two actions, focus (the keyboard's focus goes to the link, as
//! Right and Left take it there) and click (opens it): `view/focus.rs` carries them out.

use accesskit::{Action, Role as AccessRole};
use bevy::{a11y::AccessibilityRequested, prelude::*};

use super::{MessageRow, bubble_and_text, row_text, selection::Logged};
use crate::{
    a11y::{self, accessible},
    links::Links,
    scroll::Item,
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        describe_rows
            .run_if(a_reader_listens)
            .in_set(super::DressRows),
    );
}

/// Whether assistive technology has asked for the accessibility tree.
fn a_reader_listens(requested: Option<Res<AccessibilityRequested>>) -> bool {
    requested.is_some_and(|requested| requested.get())
}

/// A link of a row's, as screen readers are given it: a node of its own, a child of the row's.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReaderLink {
    /// The row.
    pub row: Entity,
    /// The place in the log of the message the row shows.
    pub place: usize,
    /// Which of its links.
    pub index: usize,
}

/// Gives each row that came to show a message since the last frame a reader listened (every
/// row, the first time) its text and its links for readers.
fn describe_rows(
    rows: Query<(Entity, Ref<Item>, &Children), With<MessageRow>>,
    children: Query<&Children>,
    reader_links: Query<&ReaderLink>,
    logged: Logged,
    mut commands: Commands,
) {
    for (entity, item, row) in &rows {
        if !item.is_changed() {
            continue;
        }
        // The links of the message the row showed before.
        for &child in row {
            if reader_links.contains(child) {
                commands.entity(child).despawn();
            }
        }
        let Some((role, body)) = logged.message(item.0) else {
            continue;
        };
        let Some((bubble, text)) = bubble_and_text(row, &children) else {
            continue;
        };
        let (label, run) = a11y::text(&row_text(role, body));
        commands.entity(bubble).insert(label);
        commands.entity(text).insert(run);
        let Some(Links(links)) = logged.links(item.0) else {
            continue;
        };
        for (index, link) in links.iter().enumerate() {
            let mut node = accessible(AccessRole::Link, &body[link.range.clone()]);
            node.set_url(link.target.as_str());
            node.add_action(Action::Focus);
            node.add_action(Action::Click);
            let described = ReaderLink {
                row: entity,
                place: item.0,
                index,
            };
            commands.spawn((Name::new("Link"), described, node, ChildOf(entity)));
        }
    }
}
