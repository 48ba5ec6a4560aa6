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

use bevy::{a11y::AccessibilityRequested, prelude::*};

use super::{MessageRow, bubble_and_text, row_text, selection::Logged};
use crate::{a11y, scroll::Item};

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

/// Gives each row that came to show a message since the last frame a reader listened (every
/// row, the first time) its text for readers.
fn describe_rows(
    rows: Query<(Ref<Item>, &Children), With<MessageRow>>,
    children: Query<&Children>,
    logged: Logged,
    mut commands: Commands,
) {
    for (item, row) in &rows {
        if !item.is_changed() {
            continue;
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
    }
}
