//! The bridge from the platform's input method (IME) into the text field.
//!
//! Hangul is typed through an IME: each key reshapes the syllable being composed (the
//! *preedit*) until the IME *commits* it. Bevy reports that as [`Ime`] messages; the widget
//! reads only keys, so this module writes the IME's text into the widget's value and cursor:
//!
//! - **Preedit**: the composing text stands in the value at the cursor, so the user sees it
//!   where it will land. A new preedit replaces the previous one; an empty one removes it.
//! - **Commit**: the composing text is replaced by the committed text, and the cursor goes after
//!   it. From then on it is ordinary text that Backspace, the arrows and Enter act on.
//! - **Enabled / Disabled**, and the window losing focus: a composition left over is dropped.
//!
//! While a composition is in progress the widget is set inactive (by `super::take_keys`): every
//! key belongs to the IME then, so a platform that also reports the keys it gave the IME cannot
//! make the widget insert a character twice, delete committed text, or send a half-composed
//! line. (Inactive also hides the widget's blinking caret; the preedit itself shows where the
//! user is.)
//!
//! [`super::pacing`] makes sure a frame never holds a key that the user typed after IME text, so
//! applying the IME after the widget has read the frame's keys keeps the typed order.

use std::ops::Range;

use bevy::{
    prelude::*,
    ui::{ComputedUiRenderTargetInfo, UiGlobalTransform},
    window::{Ime, PrimaryWindow, RequestRedraw, WindowFocused},
};
use bevy_simple_text_input::{TextInputCursorPos, TextInputMaxLengthMessage, TextInputValue};

use super::{ChatInput, MAX_INPUT_CHARS};

/// The composition in progress, as the range of characters of the field's value it occupies.
#[derive(Component, Debug, Default)]
pub(super) struct Composition(Option<Range<usize>>);

impl Composition {
    /// Whether the IME is composing text in the field.
    pub(super) fn is_composing(&self) -> bool {
        self.0.is_some()
    }
}

/// What one IME message asks of the field: `text` replaces the composition (or goes in at the
/// caret), and either stays in composition (a preedit) or becomes ordinary text.
struct Edit<'a> {
    text: &'a str,
    /// Where the IME wants the caret inside `text`, as a byte offset; else after it.
    caret: Option<usize>,
    composing: bool,
}

impl<'a> Edit<'a> {
    /// Drops a composition left over, touching nothing else.
    const DROP: Self = Self {
        text: "",
        caret: None,
        composing: false,
    };

    fn of(ime: &'a Ime) -> Self {
        match ime {
            Ime::Preedit { value, cursor, .. } => Self {
                text: value,
                caret: cursor.map(|(_, focus)| focus),
                composing: true,
            },
            Ime::Commit { value, .. } => Self {
                text: value,
                caret: None,
                composing: false,
            },
            Ime::Enabled { .. } | Ime::Disabled { .. } => Self::DROP,
        }
    }
}

/// Applies the frame's IME messages to the field, in order. A window that loses focus drops
/// its composition too (an IME that commits on focus loss sends the commit as well), so the
/// widget is never left set aside for a composition that will not end.
pub(super) fn apply_ime(
    mut imes: MessageReader<Ime>,
    mut focus: MessageReader<WindowFocused>,
    mut fields: Query<
        (
            Entity,
            &mut TextInputValue,
            &mut TextInputCursorPos,
            &mut Composition,
        ),
        With<ChatInput>,
    >,
    mut refused: MessageWriter<TextInputMaxLengthMessage>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let focus_lost = focus.read().any(|window| !window.focused);
    let Ok((entity, mut value, mut cursor, mut composition)) = fields.single_mut() else {
        imes.clear();
        return;
    };
    let edits = imes
        .read()
        .map(Edit::of)
        .chain(focus_lost.then_some(Edit::DROP));
    let mut edited = false;
    for edit in edits {
        if edit.text.is_empty() && composition.0.is_none() {
            continue;
        }
        let mut text = value.0.clone();
        let at = remove_composition(&mut text, composition.0.take())
            .unwrap_or_else(|| cursor.0.min(text.chars().count()));
        let room = usize::from(MAX_INPUT_CHARS).saturating_sub(text.chars().count());
        let kept: String = edit.text.chars().take(room).collect();
        if kept.len() < edit.text.len() {
            refused.write(TextInputMaxLengthMessage { entity });
        }
        let kept_chars = kept.chars().count();
        text.insert_str(byte_index(&text, at), &kept);
        let composing = edit.composing && !kept.is_empty();
        if composing {
            composition.0 = Some(at..at + kept_chars);
        }
        let caret_chars = edit
            .caret
            .and_then(|focus| edit.text.get(..focus))
            .map_or(kept_chars, |before| before.chars().count().min(kept_chars));

        if value.0 != text {
            value.0 = text;
        }
        // Set even when unchanged: it tells the widget the caret was placed on purpose, so it
        // does not jump to the end of the changed value.
        cursor.0 = at + caret_chars;
        edited = true;
    }
    if edited {
        // The widget shows the new value next frame; in reactive mode, ask for that frame now.
        redraw.write(RequestRedraw);
    }
}

/// Removes the composing text from `text`, returning the character index it started at.
/// `None` when nothing was being composed, or the range no longer fits the text.
fn remove_composition(text: &mut String, composing: Option<Range<usize>>) -> Option<usize> {
    let chars = composing?;
    if chars.end > text.chars().count() {
        return None;
    }
    let bytes = byte_index(text, chars.start)..byte_index(text, chars.end);
    text.replace_range(bytes, "");
    Some(chars.start)
}

/// The byte index of the character at `chars`, or the end of `text`.
fn byte_index(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i)
}

/// Allows the IME on the window and tells it where the field is, so the platform draws its
/// candidate list next to the field rather than at the window's corner.
///
/// Checked every frame and written only when different: the field moves with the window's size,
/// and another plugin may turn the IME off. Bevy's own text-input plugin does (it is part of
/// `DefaultPlugins` when Bevy is built with `bevy_ui_widgets`), whenever input focus changes and
/// no `EditableText` has it; this field is not one.
pub(super) fn place_ime_window(
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
    fields: Query<
        (
            &ComputedNode,
            &UiGlobalTransform,
            &ComputedUiRenderTargetInfo,
        ),
        With<ChatInput>,
    >,
) {
    let (Ok(mut window), Ok((node, transform, target))) = (windows.single_mut(), fields.single())
    else {
        return;
    };
    // The bottom-left corner of the text area, so the list opens below the line being typed.
    let content = node.content_box();
    let corner = transform.transform_point2(Vec2::new(content.min.x, content.max.y));
    // Layout is in physical pixels; the window wants logical ones.
    let position = corner / target.scale_factor();
    if !window.ime_enabled {
        window.ime_enabled = true;
    }
    if window.ime_position != position {
        window.ime_position = position;
    }
}
