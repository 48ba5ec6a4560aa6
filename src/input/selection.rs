//! Draws the selection (a fill behind the selected text) and the IME's composition (underlined)
//! in the widget's text, and lets the mouse place the caret and select.
//!
//! The widget writes its line as three text spans: before the caret, the caret, after it. A
//! selection or a composition always reaches the caret, so it is the end of the first span or
//! the start of the last; this module moves what lies outside it into the text's root (which
//! the widget leaves empty) and a fourth span of its own at the end, and gives the two spans
//! next to the caret the decoration. Bevy's text renderer draws span backgrounds and
//! underlines itself.
//!
//! A click places the caret, a drag selects, a double-click selects a word. Where a click
//! lands comes from the text layout's own hit test, so it is the clicked cluster in
//! right-to-left and mixed-direction text too. The arrows move the caret on the same layout
//! ([`OnScreen`]), and the caret's glyph carries a direction mark ([`caret_span`]), so that
//! where the text changes direction the caret shows on the side it arrived from.

use std::{ops::Range, time::Duration};

use bevy::{
    input_focus::{FocusCause, InputFocus},
    prelude::*,
    text::{ComputedTextBlock, TextBackgroundColor, TextBrush, Underline, UnderlineColor},
    ui::UiGlobalTransform,
    window::WindowEvent,
};
use bevy_simple_text_input::{TextInputSystem, TextInputTextColor, TextInputTextFont};
use icu_properties::{CodePointMapData, props::BidiClass};
use parley::{Cluster, Cursor, Layout};
use unicode_segmentation::{GraphemeCursor, UnicodeSegmentation};

use super::{
    ChatInput, Field,
    editor::{Affinity, LineEditor},
};
use crate::theme::Theme;

pub(super) fn plugin(app: &mut App) {
    // After the widget, which rewrites its spans in the frame the line changes.
    app.add_systems(Update, decorate.after(TextInputSystem));
}

/// The widget's spans, by their place in its text: the root and the three it writes. The widget
/// keeps them private; a workaround ([`crate::workarounds`]), canary
/// `the_widget_writes_its_line_as_three_spans_in_a_named_node`.
const ROOT: usize = 0;
const BEFORE_CARET: usize = 1;
const AFTER_CARET: usize = 3;
/// The span this module adds at the end.
const TAIL: usize = 4;
/// The widget's caret span.
pub(super) const CARET: usize = 2;

/// Two presses this close in time and place are a double-click (GTK's defaults).
const DOUBLE_CLICK_TIME: Duration = Duration::from_millis(400);
const DOUBLE_CLICK_DISTANCE: f32 = 5.0;

/// How the part of the line next to the caret is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decoration {
    Plain,
    Selected,
    Composing,
}

/// The widget's inner text, the node its line is laid out in, once [`decorate`] has found it:
/// the IME, the mouse and the arrows find it by this, without a walk through the widget's nodes.
/// With the line that [`decorate`] last gave it, which is what its layout shows.
#[derive(Component, Debug)]
pub(super) struct LineText {
    /// The line as shown (with the composition, if any).
    shown: String,
    /// Where the caret's span lies in the laid-out text. It starts at the caret's byte in
    /// `shown`; the widget's caret glyph and a direction mark (see [`caret_span`]) fill it.
    caret: Range<usize>,
}

impl LineText {
    /// The byte of the line that byte `laid_out` of the layout's text stands for; a place in
    /// the caret's span is the caret's own.
    fn line_byte(&self, laid_out: usize) -> usize {
        if laid_out < self.caret.start {
            laid_out
        } else if laid_out < self.caret.end {
            self.caret.start
        } else {
            laid_out - self.caret.len()
        }
    }

    /// The line's place and affinity that a Parley cursor in the layout stands for. A cursor
    /// that leans on the caret's own glyph leans on the line's text on its other side.
    fn line_cursor(&self, cursor: Cursor) -> (usize, Affinity) {
        let index = cursor.index();
        let leans_on = match cursor.affinity() {
            Affinity::Upstream => index.checked_sub(1),
            Affinity::Downstream => Some(index),
        };
        let affinity = match leans_on.filter(|at| self.caret.contains(at)) {
            None => cursor.affinity(),
            Some(_) if cursor.affinity() == Affinity::Upstream => Affinity::Downstream,
            Some(_) => Affinity::Upstream,
        };
        (self.line_byte(index), affinity)
    }

    /// Where a click at `x` (physical pixels from the text's left edge) lands: the byte the
    /// caret goes to and the side it shows beside, and the start of the clicked cluster (what a
    /// double-click's word is looked up from). Both come from Parley's hit test on the line's
    /// own layout, which knows where each cluster was drawn, in either direction and however
    /// many glyphs it took.
    fn hit(&self, layout: &Layout<TextBrush>, x: f32) -> ((usize, Affinity), usize) {
        let (caret, affinity) = self.line_cursor(Cursor::from_point(layout, x, 0.0));
        let cluster = Cluster::from_point(layout, x, 0.0).map_or(caret, |(cluster, _)| {
            self.line_byte(cluster.text_range().start)
        });
        let at = nearest_boundary(&self.shown, caret);
        // Moved to a cluster's end, the caret shows after that cluster.
        let affinity = if at == caret {
            affinity
        } else {
            Affinity::Upstream
        };
        ((at, affinity), cluster)
    }

    /// The Parley cursor in the layout for the line's place `at` shown beside its neighbour on
    /// the `affinity` side.
    fn layout_cursor(&self, layout: &Layout<TextBrush>, at: usize, affinity: Affinity) -> Cursor {
        let caret = self.caret.start;
        let (index, affinity) = if at < caret {
            (at, affinity)
        } else if at > caret {
            (at + self.caret.len(), affinity)
        } else if (affinity == Affinity::Upstream && at > 0) || at == self.shown.len() {
            // Beside the text before the caret's glyph, or after it.
            (self.caret.start, Affinity::Upstream)
        } else {
            (self.caret.end, Affinity::Downstream)
        };
        Cursor::from_byte_index(layout, index, affinity)
    }
}

/// The field's line on screen: the text it was last given and its layout, once both agree with
/// the line being edited.
#[derive(Clone, Copy)]
pub(super) struct OnScreen<'a> {
    laid_out: &'a LineText,
    layout: &'a Layout<TextBrush>,
}

impl<'a> OnScreen<'a> {
    /// The line on screen, if `layout` shows `line` as it is now: not when this frame changed its
    /// text before its layout could follow, nor before it has been laid out at all.
    pub(super) fn of(
        laid_out: &'a LineText,
        layout: &'a Layout<TextBrush>,
        line: &LineEditor,
    ) -> Option<Self> {
        let laid_out_len = layout.lines().last().map(|line| line.text_range().end);
        let current = laid_out.shown == line.shown()
            && laid_out_len == Some(laid_out.shown.len() + laid_out.caret.len());
        current.then_some(Self { laid_out, layout })
    }

    /// Where `line`'s caret goes one grapheme cluster to the right (or the left) on screen, and
    /// which side it then shows beside: over the cluster drawn next to it, to that cluster's far
    /// edge, as Parley's visual cursor moves go. In an Arabic word inside a Latin line that is
    /// back through the text; the caret's own glyph is stepped over. `None` at the line's edge.
    pub(super) fn step(&self, line: &LineEditor, rightwards: bool) -> Option<(usize, Affinity)> {
        let layout = self.layout;
        let mut cursor = self
            .laid_out
            .layout_cursor(layout, line.shown_caret(), line.affinity());
        // Each step crosses one of Parley's clusters: the caret's glyph or mark, or a part of a
        // grapheme cluster drawn as one glyph (a flag, a ZWJ family) moves the caret nowhere.
        for _ in 0..=self.laid_out.shown.len() + self.laid_out.caret.len() {
            let [left, right] = cursor.visual_clusters(layout);
            let crossed = if rightwards { right } else { left }?;
            let next = if rightwards {
                cursor.next_visual(layout)
            } else {
                cursor.previous_visual(layout)
            };
            if next == cursor {
                return None;
            }
            cursor = next;
            let (at, affinity) = self.laid_out.line_cursor(cursor);
            let over_caret = self.laid_out.caret.contains(&crossed.text_range().start);
            if !over_caret && is_grapheme_boundary(&self.laid_out.shown, at) {
                return Some((at, affinity));
            }
        }
        None
    }
}

/// Whether `at` lies between two grapheme clusters of `text` (or at an end).
fn is_grapheme_boundary(text: &str, at: usize) -> bool {
    GraphemeCursor::new(at, text.len(), true)
        .is_boundary(text, 0)
        .unwrap_or(false)
}

/// The caret's span: the widget's caret `glyph`, and beside it an invisible mark of the
/// direction of the character the caret leans on (its affinity side), so that the glyph shows
/// there.
///
/// The glyph is punctuation, which takes its direction from the text around it (Unicode's bidi
/// rules N1 and N2): between a Latin letter and an Arabic one it goes with the line, so it
/// could show on the far side of the Arabic word from the place the caret stands for. Next to a
/// mark of the same direction as the character it leans on, it joins that character's run.
/// Beside a space or punctuation no mark is needed: the glyph resolves as they do. Beside a
/// digit in right-to-left text no mark helps (docs/editing.md, "남은 한계").
fn caret_span(glyph: &str, shown: &str, caret: usize, affinity: Affinity) -> String {
    let leans_back = match affinity {
        Affinity::Upstream => caret > 0,
        Affinity::Downstream => caret == shown.len(),
    };
    let neighbour = if leans_back {
        shown[..caret].graphemes(true).next_back()
    } else {
        shown[caret..].graphemes(true).next()
    };
    // A cluster's first character gives its direction; accents take their letter's.
    let classes = CodePointMapData::<BidiClass>::new();
    let mark = neighbour
        .and_then(|cluster| cluster.chars().next())
        .and_then(|c| match classes.get(c) {
            BidiClass::LeftToRight => Some(LRM),
            BidiClass::RightToLeft => Some(RLM),
            BidiClass::ArabicLetter => Some(ALM),
            _ => None,
        });
    let mut span = String::with_capacity(glyph.len() + 3);
    match mark {
        Some(mark) if leans_back => {
            span.push_str(glyph);
            span.push(mark);
        }
        Some(mark) => {
            span.push(mark);
            span.push_str(glyph);
        }
        None => span.push_str(glyph),
    }
    span
}

/// The direction marks [`caret_span`] writes: left-to-right, right-to-left and Arabic letter
/// marks, strong characters of each direction that draw nothing.
const LRM: char = '\u{200E}';
const RLM: char = '\u{200F}';
const ALM: char = '\u{061C}';

/// The widget's inner text, looked up among its nodes by the name the widget gives it.
fn inner_text(entity: Entity, children: &Query<&Children>, names: &Query<&Name>) -> Option<Entity> {
    children.iter_descendants(entity).find(|&e| {
        names
            .get(e)
            .is_ok_and(|name| name.as_str() == "TextInputInner")
    })
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
    mut lines: Query<&mut LineText>,
    mut writer: TextUiWriter,
    mut commands: Commands,
) {
    for (entity, field, font, color) in &fields {
        if !(field.is_changed() || font.is_changed() || color.is_changed() || theme.is_changed()) {
            continue;
        }
        let Some(text) = inner_text(entity, &children, &names) else {
            continue;
        };
        let palette = theme.palette();
        let line = field.line();
        let shown = line.shown();
        let (decoration, parts) = Parts::of(&field, &shown);

        let Some(spans) = children.get(text).ok() else {
            continue;
        };
        // The widget's glyph, as the widget wrote it or as this wrote it last, with a mark.
        let glyph: String = writer
            .text(text, CARET)
            .chars()
            .filter(|c| ![LRM, RLM, ALM].contains(c))
            .collect();
        let caret = line.shown_caret();
        let caret_span = caret_span(&glyph, &shown, caret, line.affinity());
        let laid_out = LineText {
            shown: shown.to_string(),
            caret: caret..caret + caret_span.len(),
        };
        *writer.text(text, CARET) = caret_span;
        if let Ok(mut line_text) = lines.get_mut(text) {
            *line_text = laid_out;
        } else {
            commands.entity(text).insert(laid_out);
        }
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
    /// How `field`'s line, `shown`, is cut and decorated.
    fn of(field: &Field, shown: &'a str) -> (Decoration, Self) {
        let line = field.line();
        let caret = line.shown_caret();
        let (decoration, marked) = match line.composition() {
            Some(composition) => (Decoration::Composing, composition),
            None if !line.selection().is_empty() => (Decoration::Selected, line.selection()),
            None => (Decoration::Plain, caret..caret),
        };
        let around = marked.start.min(caret)..marked.end.max(caret);
        let parts = Self {
            head: &shown[..around.start],
            before: &shown[around.start..caret],
            after: &shown[caret..around.end],
            tail: &shown[around.end..],
        };
        (decoration, parts)
    }
}

/// Where the pointer is, whether a press on the field is being dragged, and the last press
/// (for double-clicks).
#[derive(Debug, Default)]
pub(super) struct Pointer {
    at: Option<Vec2>,
    dragging: bool,
    last_press: Option<(Duration, Vec2)>,
}

/// Places the caret where the field is clicked, extends the selection while the button is held
/// and the pointer moves, and selects the word under a double-click. Reads the pointer's
/// messages in the order they came, so a quick press, move and release still drags.
pub(super) fn point_and_drag(
    mut events: MessageReader<WindowEvent>,
    mut pointer: Local<Pointer>,
    time: Res<Time<Real>>,
    mut fields: Query<(Entity, &mut Field, &ComputedNode, &UiGlobalTransform), With<ChatInput>>,
    lines: Query<(
        &LineText,
        &ComputedTextBlock,
        &ComputedNode,
        &UiGlobalTransform,
    )>,
    mut input_focus: ResMut<InputFocus>,
) {
    // Most frames bring no pointer or key events: nothing to look up then.
    if events.is_empty() {
        return;
    }
    let (
        Ok((entity, mut field, node, transform)),
        Ok((laid_out, layout, text_node, text_transform)),
    ) = (fields.single_mut(), lines.single())
    else {
        events.clear();
        return;
    };
    // The pointer comes in logical pixels, layout is in physical ones.
    let to_physical = node.inverse_scale_factor().recip();
    let text_left = text_transform.transform_point2(-text_node.size() / 2.0).x;
    let hit = |x: f32| laid_out.hit(layout.buffer(), x * to_physical - text_left);
    for event in events.read() {
        match event {
            WindowEvent::CursorMoved(moved) => {
                pointer.at = Some(moved.position);
                if pointer.dragging && !field.line().is_composing() {
                    let ((caret, affinity), _) = hit(moved.position.x);
                    field.line_mut().place_beside(caret, affinity, true);
                }
            }
            WindowEvent::MouseButtonInput(button) if button.button == MouseButton::Left => {
                if !button.state.is_pressed() {
                    pointer.dragging = false;
                    continue;
                }
                let Some(at) = pointer.at else {
                    continue;
                };
                if !node.contains_point(*transform, at * to_physical) || field.line().is_composing()
                {
                    continue;
                }
                // A click in the field gives it keyboard focus back from the conversation.
                if input_focus.get() != Some(entity) {
                    input_focus.set(entity, FocusCause::Pressed);
                }
                let now = time.elapsed();
                let double = pointer.last_press.is_some_and(|(then, place)| {
                    now - then <= DOUBLE_CLICK_TIME && place.distance(at) <= DOUBLE_CLICK_DISTANCE
                });
                let ((caret, affinity), cluster) = hit(at.x);
                if double {
                    field.line_mut().select_word_at(cluster);
                    pointer.last_press = None;
                } else {
                    field.line_mut().place_beside(caret, affinity, false);
                    pointer.dragging = true;
                    pointer.last_press = Some((now, at));
                }
            }
            _ => {}
        }
    }
}

/// `at`, or when it falls inside a grapheme cluster, the nearer end of that cluster: Parley
/// splits a ligature's advance among its characters (a flag's two letters, a ZWJ family's
/// members), and the caret stops only between clusters.
fn nearest_boundary(line: &str, at: usize) -> usize {
    line.grapheme_indices(true)
        .map(|(start, cluster)| start..start + cluster.len())
        .find(|cluster| cluster.start < at && at < cluster.end)
        .map_or(at, |cluster| {
            if at - cluster.start >= cluster.end - at {
                cluster.end
            } else {
                cluster.start
            }
        })
}
