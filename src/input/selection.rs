//! Draws the selection (a fill behind the selected text) and the IME's composition (underlined)
//! in the widget's text.
//!
//! The widget writes its line as three text spans: before the caret, the caret, after it. A
//! selection or a composition always reaches the caret, so it is the end of the first span or
//! the start of the last; this module moves what lies outside it into the text's root (which
//! the widget leaves empty) and a fourth span of its own at the end, and gives the two spans
//! next to the caret the decoration. Bevy's text renderer draws span backgrounds and
//! underlines itself.

use std::ops::Range;

use bevy::{
    prelude::*,
    text::{TextBackgroundColor, Underline, UnderlineColor},
};
use bevy_simple_text_input::{TextInputSystem, TextInputTextColor, TextInputTextFont};

use super::{ChatInput, Field};
use crate::theme::Theme;

pub(super) fn plugin(app: &mut App) {
    // After the widget, which rewrites its spans in the frame the line changes.
    app.add_systems(Update, decorate.after(TextInputSystem));
}

/// The widget's spans, by their place in its text: the root and the three it writes.
const ROOT: usize = 0;
const BEFORE_CARET: usize = 1;
const AFTER_CARET: usize = 3;
/// The span this module adds at the end.
const TAIL: usize = 4;

/// How the part of the line next to the caret is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decoration {
    Plain,
    Selected,
    Composing,
}

/// Splits the widget's text around the selection or composition and decorates it; runs when
/// the line, the theme or the field's font or colour changes.
fn decorate(
    theme: Res<Theme>,
    fields: Query<
        (
            Entity,
            Ref<Field>,
            Ref<TextInputTextFont>,
            Ref<TextInputTextColor>,
        ),
        With<ChatInput>,
    >,
    children: Query<&Children>,
    names: Query<&Name>,
    mut writer: TextUiWriter,
    mut commands: Commands,
) {
    for (entity, field, font, color) in &fields {
        if !(field.is_changed() || font.is_changed() || color.is_changed() || theme.is_changed()) {
            continue;
        }
        let Some(text) = children.iter_descendants(entity).find(|&e| {
            names
                .get(e)
                .is_ok_and(|name| name.as_str() == "TextInputInner")
        }) else {
            continue;
        };
        let palette = theme.palette();
        let line = field.line();
        let shown = line.shown();
        let caret = line.shown_caret();
        let (decoration, marked) = match line.composition() {
            Some(composition) => (Decoration::Composing, composition),
            None if !line.selection().is_empty() => (Decoration::Selected, line.selection()),
            None => (Decoration::Plain, caret..caret),
        };
        let around = marked.start.min(caret)..marked.end.max(caret);
        let parts = Parts::of(&shown, caret, around);

        let Some(spans) = children.get(text).ok() else {
            continue;
        };
        if spans.len() < TAIL {
            commands
                .entity(text)
                .with_child((TextSpan::new(parts.tail), font.0.clone(), color.0));
        } else {
            *writer.text(text, TAIL) = parts.tail.to_owned();
            *writer.color(text, TAIL) = color.0;
        }
        // The root spans nothing of the widget's; it takes the field's font and colour.
        *writer.text(text, ROOT) = parts.head.to_owned();
        *writer.font(text, ROOT) = font.0.clone();
        *writer.color(text, ROOT) = color.0;
        *writer.text(text, BEFORE_CARET) = parts.before.to_owned();
        *writer.text(text, AFTER_CARET) = parts.after.to_owned();

        for (index, span) in [(BEFORE_CARET, spans.first()), (AFTER_CARET, spans.get(2))] {
            let Some(&span) = span else {
                continue;
            };
            let text_color = match decoration {
                Decoration::Selected => palette.selection_text,
                _ => color.0.0,
            };
            *writer.color(text, index) = TextColor(text_color);
            let mut span = commands.entity(span);
            match decoration {
                Decoration::Selected => {
                    span.insert(TextBackgroundColor(palette.selection))
                        .remove::<(Underline, UnderlineColor)>();
                }
                Decoration::Composing => {
                    span.insert((Underline, UnderlineColor(color.0.0)))
                        .remove::<TextBackgroundColor>();
                }
                Decoration::Plain => {
                    span.remove::<(TextBackgroundColor, Underline, UnderlineColor)>();
                }
            }
        }
    }
}

/// The line cut in four around the caret: `before` and `after` are the marked part on each side
/// of it.
struct Parts<'a> {
    head: &'a str,
    before: &'a str,
    after: &'a str,
    tail: &'a str,
}

impl<'a> Parts<'a> {
    fn of(shown: &'a str, caret: usize, around: Range<usize>) -> Self {
        Self {
            head: &shown[..around.start],
            before: &shown[around.start..caret],
            after: &shown[caret..around.end],
            tail: &shown[around.end..],
        }
    }
}
