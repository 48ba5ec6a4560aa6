//! What a screen reader is told about the field: its text, and where the caret and the
//! selection are in it.
//!
//! AccessKit reads a text entry's text from *text run* nodes inside it, each with the length
//! in UTF-8 bytes of every character, and its caret as a position in one of those runs. The
//! field is one line, so one run holds all of it. A character here is one `char`; the caret
//! stops only between grapheme clusters, which are whole runs of such characters, so the
//! reader's caret and the one on screen always agree.

use accesskit::{Node as AccessNode, NodeId, Role as AccessRole, TextPosition, TextSelection};
use bevy::{a11y::AccessibilityNode, prelude::*};
use bevy_simple_text_input::TextInputValue;

use super::Field;

/// Marks the field's text run: a child of the field that only screen readers see.
#[derive(Component, Debug, Default)]
pub(super) struct FieldText;

/// The field's text run. Out of layout: the widget draws the text, this only tells it.
///
/// Empty from the start, not without text: a field made in the middle of a frame (the find
/// bar's) is sent to the platform before [`describe_field`] has run, and AccessKit reads a
/// run's text as soon as it appears (with no value it panicked, taking the app down).
pub(super) fn text_run() -> impl Bundle {
    let mut run = AccessNode::new(AccessRole::TextRun);
    run.set_value("");
    run.set_character_lengths([]);
    (
        Name::new("Field text run"),
        FieldText,
        AccessibilityNode(run),
        Node {
            display: Display::None,
            ..default()
        },
    )
}

/// Tells the field's text, caret and selection whenever the line changes.
pub(super) fn describe_field(
    mut fields: Query<(&TextInputValue, &Field, &mut AccessibilityNode, &Children), Changed<Field>>,
    mut runs: Query<&mut AccessibilityNode, (With<FieldText>, Without<Field>)>,
) {
    for (value, field, mut entry, children) in &mut fields {
        let Some(run_entity) = children.iter().find(|&child| runs.contains(child)) else {
            continue;
        };
        let Ok(mut run) = runs.get_mut(run_entity) else {
            continue;
        };
        let lengths: Vec<u8> = value.0.chars().map(|c| c.len_utf8() as u8).collect();
        let line = field.line();
        // The selection's far end, or the caret when nothing is selected.
        let selection = line.selection();
        let anchor = if selection.start == line.caret() {
            selection.end
        } else {
            selection.start
        };
        let characters = lengths.len();
        let at = |byte: usize| TextPosition {
            // The node id Bevy gives an entity's node.
            node: NodeId(run_entity.to_bits()),
            character_index: value
                .0
                .get(..byte)
                .map_or(characters, |before| before.chars().count()),
        };
        run.set_value(value.0.as_str());
        run.set_character_lengths(lengths);
        // Platforms that read a value rather than text runs (UI Automation's value pattern).
        entry.set_value(value.0.as_str());
        entry.set_text_selection(TextSelection {
            anchor: at(if line.is_composing() {
                line.shown_caret()
            } else {
                anchor
            }),
            focus: at(line.shown_caret()),
        });
    }
}
