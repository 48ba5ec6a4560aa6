//! What a screen reader is told about the field: its text, and where the caret and the
//! selection are in it.
//!
//! AccessKit reads a text entry's text from *text run* nodes inside it, each with the length
//! in UTF-8 bytes of every character, and its caret as a position in one of those runs. A run
//! is a line to a reader: each of the field's lines is one, ending with its line break, so Up
//! and Down read the line the caret lands on. A character here is one `char`; the caret
//! stops only between grapheme clusters, which are whole runs of such characters, so the
//! reader's caret and the one on screen always agree.

use accesskit::{Node as AccessNode, NodeId, Role as AccessRole, TextPosition, TextSelection};
use bevy::{a11y::AccessibilityNode, prelude::*};
use bevy_simple_text_input::TextInputValue;

use super::Field;

/// Marks the field's text run: a child of the field that only screen readers see.
#[derive(Component, Debug, Default)]
pub(super) struct FieldText;

/// The field's text run, to begin with. Not a UI node: the widget draws the text, this only
/// tells it, and a run a line would otherwise be a node a line for Bevy's layout to walk every
/// frame (a hundred-line draft cost 370 K instructions an idle frame that way).
///
/// Empty from the start, not without text: a field made in the middle of a frame (the find
/// bar's) is sent to the platform before [`describe_field`] has run, and AccessKit reads a
/// run's text as soon as it appears (with no value it panicked, taking the app down).
pub(super) fn text_run() -> impl Bundle {
    run_of("")
}

/// A text run telling `line`.
fn run_of(line: &str) -> impl Bundle + use<> {
    (
        Name::new("Field text run"),
        FieldText,
        AccessibilityNode(run_node(line)),
    )
}

/// The AccessKit node of a run holding `line`: its text, and each character's length in bytes.
fn run_node(line: &str) -> AccessNode {
    let mut run = AccessNode::new(AccessRole::TextRun);
    run.set_value(line);
    run.set_character_lengths(line.chars().map(|c| c.len_utf8() as u8).collect::<Vec<_>>());
    run
}

/// Tells the field's text, caret and selection whenever the line changes.
pub(super) fn describe_field(
    mut fields: Query<
        (
            Entity,
            &TextInputValue,
            &Field,
            &mut AccessibilityNode,
            &Children,
        ),
        Changed<Field>,
    >,
    mut runs: Query<&mut AccessibilityNode, (With<FieldText>, Without<Field>)>,
    mut commands: Commands,
) {
    for (entity, value, field, mut entry, children) in &mut fields {
        let run_entities: Vec<Entity> = children
            .iter()
            .filter(|&child| runs.contains(child))
            .collect();
        let lines = lines_of(&value.0);
        let run_entities = runs_for(&lines, run_entities, entity, &mut runs, &mut commands);
        let line = field.line();
        // The selection's far end, or the caret when nothing is selected.
        let selection = line.selection();
        let anchor = if selection.start == line.caret() {
            selection.end
        } else {
            selection.start
        };
        // The run holding a byte of the text, and how many characters into it the byte is.
        let at = |byte: usize| {
            let mut start = 0;
            for (index, run) in lines.iter().enumerate() {
                let last = index + 1 == lines.len();
                if byte < start + run.len() || last {
                    let within = value.0.get(start..byte.max(start)).unwrap_or(run);
                    return TextPosition {
                        // The node id Bevy gives an entity's node.
                        node: NodeId(run_entities[index].to_bits()),
                        character_index: within.chars().count().min(run.chars().count()),
                    };
                }
                start += run.len();
            }
            unreachable!("the text has a run")
        };
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

/// The text's lines as a reader's runs take them: each with its line break, and an empty last
/// one after a break at the end (the caret can stand there).
fn lines_of(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    if text.is_empty() || text.ends_with('\n') {
        lines.push("");
    }
    lines
}

/// Gives each of `lines` a run among the field's, reusing `existing` in order, spawning more
/// and despawning the rest; returns the runs in order.
fn runs_for(
    lines: &[&str],
    mut existing: Vec<Entity>,
    field: Entity,
    runs: &mut Query<&mut AccessibilityNode, (With<FieldText>, Without<Field>)>,
    commands: &mut Commands,
) -> Vec<Entity> {
    for surplus in existing.split_off(lines.len().min(existing.len())) {
        commands.entity(surplus).despawn();
    }
    for (index, line) in lines.iter().enumerate() {
        match existing.get(index) {
            // Only a line that changed is written: a key changes one line of a hundred.
            Some(&entity) => {
                if let Ok(mut told) = runs.get_mut(entity)
                    && told.value() != Some(*line)
                {
                    told.0 = run_node(line);
                }
            }
            // Spawned as the field's child at once, not moved under it after.
            None => existing.push(commands.spawn((run_of(line), ChildOf(field))).id()),
        }
    }
    existing
}
