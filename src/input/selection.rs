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
//! ([`OnScreen`]).
//!
//! The widget's caret is a glyph in its middle span. This module empties that span (an empty
//! line keeps a space there, for its height), and `super::caret` draws the caret as a bar at
//! the layout's own cursor position: a glyph inside the line takes part in its bidi order and
//! its shaping, so it split numbers in right-to-left text and parted joined Arabic letters.

use std::time::Duration;

use bevy::{
    input_focus::{FocusCause, InputFocus},
    platform::time::Instant,
    prelude::*,
    text::{
        ComputedTextBlock, LineBreak, TextBackgroundColor, TextBrush, Underline, UnderlineColor,
    },
    ui::UiGlobalTransform,
    window::WindowEvent,
};
use bevy_simple_text_input::{TextInputTextColor, TextInputTextFont};
use parley::{AlignmentOptions, Cluster, Cursor, Layout, Selection};

use super::window_scale;
use super::{
    Field, FieldDrawing,
    clipboard::WritePrimary,
    clock::InputClock,
    editor::{Affinity, LineEditor, Motion, nearest_boundary},
};
use crate::{
    PointerGrab,
    theme::{Palette, Theme},
};

pub(super) fn plugin(app: &mut App) {
    // After the widget, which rewrites its spans in the frame the line changes (`frame.rs`).
    app.add_systems(Update, decorate.in_set(FieldDrawing::Decorate));
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
/// the IME, the mouse, the arrows and the caret find it by this, without a walk through the
/// widget's nodes. With the line that [`decorate`] last gave it, which is what its layout shows:
/// byte for byte, since the widget's caret glyph is taken out of it.
#[derive(Component)]
pub(crate) struct LineText {
    /// The field whose line this is.
    field: Entity,
    /// The line as shown (with the composition, if any).
    shown: String,
    /// Its layout as drawn, kept by [`follow_the_layout`].
    layout: Layout<TextBrush>,
}

impl LineText {
    /// The field whose line this is.
    pub(super) fn field(&self) -> Entity {
        self.field
    }

    /// The line's layout as drawn (see [`follow_the_layout`]).
    pub(super) fn layout(&self) -> &Layout<TextBrush> {
        &self.layout
    }

    /// Where a click at `at` (physical pixels from the text's top left corner) lands: the byte the
    /// caret goes to and the side it shows beside, and the start of the clicked cluster (what a
    /// double-click's word is looked up from). Both come from Parley's hit test on the line's
    /// own layout, which knows where each cluster was drawn, in either direction and however
    /// many glyphs it took.
    fn hit(&self, at: Vec2) -> ((usize, Affinity), usize) {
        let layout = &self.layout;
        let cursor = Cursor::from_point(layout, at.x, at.y);
        let caret = cursor.index();
        let cluster = Cluster::from_point(layout, at.x, at.y)
            .map_or(caret, |(cluster, _)| cluster.text_range().start);
        (self.on_a_boundary(cursor), cluster)
    }

    /// Where the caret goes for Parley's `cursor`: its byte, or when that falls inside a
    /// grapheme cluster the nearer end of the cluster, and the side it shows beside (after the
    /// cluster, when moved to its end).
    fn on_a_boundary(&self, cursor: Cursor) -> (usize, Affinity) {
        let at = nearest_boundary(&self.shown, cursor.index());
        let affinity = if at == cursor.index() {
            cursor.affinity()
        } else {
            Affinity::Upstream
        };
        (at, affinity)
    }
}

/// The field's line on screen: the text it was last given and its layout, once both agree with
/// the line being edited.
#[derive(Clone, Copy)]
pub(super) struct OnScreen<'a> {
    laid_out: &'a LineText,
}

impl<'a> OnScreen<'a> {
    /// The line on screen, if its layout shows `line` as it is now: not when this frame changed its
    /// text before its layout could follow, nor before it has been laid out at all.
    pub(super) fn of(laid_out: &'a LineText, line: &LineEditor) -> Option<Self> {
        let layout = laid_out.layout();
        let laid_out_len = layout.lines().last().map(|line| line.text_range().end);
        let current = laid_out.shown == line.shown() && laid_out_len == Some(laid_out.shown.len());
        current.then_some(Self { laid_out })
    }

    /// How many lines the text takes on screen, wrapped lines counted.
    pub(super) fn lines(&self) -> usize {
        self.laid_out.layout.len()
    }

    /// Which line on screen `line`'s caret is on, counted from 0.
    pub(super) fn caret_line(&self, line: &LineEditor) -> usize {
        let y = self.caret(line).geometry(&self.laid_out.layout, 0.0).y0 as f32;
        self.laid_out
            .layout
            .lines()
            .position(|line| y < line.metrics().block_max_coord)
            .unwrap_or(self.lines().saturating_sub(1))
    }

    /// Where a move by lines on screen takes `line`'s caret, and the side it shows beside: up or
    /// down a line, or to the start or end of its own line, as Parley's selection moves go. Up
    /// and Down aim at the place across where a run of them began (`line`'s goal, else the
    /// caret's), so a shorter line on the way does not pull the caret over; on the first line
    /// Up goes to its start, on the last Down to its end. With that place across, for the
    /// next Up or Down. The far end of the selection is kept or not as the caller does.
    pub(super) fn by_lines(
        &self,
        line: &LineEditor,
        motion: Motion,
    ) -> (usize, Affinity, Option<f32>) {
        let layout = &self.laid_out.layout;
        let caret = self.caret(line);
        let here = Selection::from(caret);
        let across = line
            .goal()
            .unwrap_or_else(|| caret.geometry(layout, 0.0).x0 as f32);
        let on = self.caret_line(line);
        let vertical = match motion {
            Motion::Up => on.checked_sub(1),
            Motion::Down => Some(on + 1).filter(|&below| below < self.lines()),
            _ => None,
        };
        let there = match (motion, vertical.and_then(|index| layout.get(index))) {
            (Motion::Up | Motion::Down, Some(target)) => {
                let metrics = target.metrics();
                Cursor::from_point(
                    layout,
                    across,
                    metrics.block_max_coord - metrics.ascent * 0.5,
                )
            }
            (Motion::Up | Motion::Home, _) => here.line_start(layout, false).focus(),
            _ => here.line_end(layout, false).focus(),
        };
        let (at, affinity) = self.laid_out.on_a_boundary(there);
        let goal = matches!(motion, Motion::Up | Motion::Down).then_some(across);
        (at, affinity, goal)
    }

    fn caret(&self, line: &LineEditor) -> Cursor {
        Cursor::from_byte_index(&self.laid_out.layout, line.shown_caret(), line.affinity())
    }

    /// Where `line`'s caret goes one grapheme cluster to the right (or the left) on screen, and
    /// which side it then shows beside: over the cluster drawn next to it, to that cluster's far
    /// edge, with Parley's visual cursor moves. In an Arabic word inside a Latin line that is
    /// back through the text. `None` at the line's edge.
    pub(super) fn step(&self, line: &LineEditor, rightwards: bool) -> Option<(usize, Affinity)> {
        let layout = &self.laid_out.layout;
        let mut cursor = self.caret(line);
        // A grapheme cluster drawn as one glyph (a flag, a ZWJ family) is several of Parley's
        // clusters: the caret crosses them all at once.
        for _ in 0..=self.laid_out.shown.len() {
            let next = if rightwards {
                cursor.next_visual(layout)
            } else {
                cursor.previous_visual(layout)
            };
            if next == cursor {
                return None;
            }
            cursor = next;
            if nearest_boundary(&self.laid_out.shown, cursor.index()) == cursor.index() {
                return Some((cursor.index(), cursor.affinity()));
            }
        }
        None
    }
}

/// Keeps each field's layout as drawn: Bevy's text block broken into lines at the text's
/// width, as Bevy's text system breaks it for drawing.
///
/// Bevy's own copy is not always that: while it measures a node, the layout pass breaks the
/// block's lines at whatever widths it tries, and leaves it so when the node's size comes out
/// unchanged (bevy_text's pipeline notes that it "arbitrarily adjusts the buffer layout"). A
/// line that wraps then read as one long line to the caret, the arrows and the mouse. So the
/// fields read this copy, made again whenever the block or the node changes. A workaround
/// ([`crate::workarounds`]); canary `bevys_text_block_is_left_as_its_last_measure_broke_it`.
pub(super) fn follow_the_layout(
    mut lines: Query<(
        &mut LineText,
        Ref<ComputedTextBlock>,
        Ref<ComputedNode>,
        &TextLayout,
    )>,
) {
    for (mut line, block, node, text_layout) in &mut lines {
        if !(block.is_changed() || node.is_changed() || line.is_added()) {
            continue;
        }
        let mut layout = block.buffer().clone();
        let width =
            (text_layout.linebreak != LineBreak::NoWrap).then(|| node.content_box().width());
        layout.break_all_lines(width);
        layout.align(text_layout.justify.into(), AlignmentOptions::default());
        line.bypass_change_detection().layout = layout;
    }
}

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
    fields: Query<(
        Entity,
        Ref<Field>,
        Ref<TextInputTextFont>,
        Ref<TextInputTextColor>,
    )>,
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
        let shown = field.line().shown();
        let (decoration, parts) = Parts::of(&field, &shown);

        let Some(spans) = children.get(text).ok() else {
            continue;
        };
        // The widget's caret glyph is punctuation: in the line, it would take a direction
        // from its neighbours, split a number in right-to-left text and part joined Arabic
        // letters. The caret is drawn over the line instead (`super::caret`).
        // An empty line keeps one space there, which draws nothing, for its height.
        let caret_span = if shown.is_empty() { " " } else { "" };
        if writer.text(text, CARET).as_str() != caret_span {
            *writer.text(text, CARET) = caret_span.to_owned();
        }
        if let Ok(mut line_text) = lines.get_mut(text) {
            if line_text.shown != shown {
                line_text.shown = shown.to_string();
            }
        } else {
            commands.entity(text).insert(LineText {
                field: entity,
                shown: shown.to_string(),
                layout: Layout::default(),
            });
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

        mark(
            decoration,
            palette,
            color.0,
            (text, spans),
            &mut writer,
            &mut commands,
        );
    }
}

/// Marks the spans beside the caret of the line `text` as `decoration` says: selected, or
/// underlined as a composition, or plain, in `color` or the palette's selection colours.
fn mark(
    decoration: Decoration,
    palette: &Palette,
    color: TextColor,
    (text, spans): (Entity, &Children),
    writer: &mut TextUiWriter,
    commands: &mut Commands,
) {
    for (index, span) in [(BEFORE_CARET, spans.first()), (AFTER_CARET, spans.get(2))] {
        let Some(&span) = span else {
            continue;
        };
        let text_color = match decoration {
            Decoration::Selected => palette.selection_text,
            _ => color.0,
        };
        *writer.color(text, index) = TextColor(text_color);
        let mut span = commands.entity(span);
        match decoration {
            Decoration::Selected => {
                span.insert(TextBackgroundColor(palette.selection))
                    .remove::<(Underline, UnderlineColor)>();
            }
            Decoration::Composing => {
                span.insert((Underline, UnderlineColor(color.0)))
                    .remove::<TextBackgroundColor>();
            }
            Decoration::Plain => {
                span.remove::<(TextBackgroundColor, Underline, UnderlineColor)>();
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

/// Where the pointer is, which field a press is being dragged in, and the last press (for
/// double-clicks).
#[derive(Debug, Default)]
pub(super) struct Pointer {
    at: Option<Vec2>,
    dragging: Option<Entity>,
    last_press: Option<(Instant, Vec2)>,
}

impl Pointer {
    /// A left press, `(when, where)`, on `field`'s line at `caret` in `cluster`: a second press
    /// soon and near selects the word; else the caret goes there and a drag begins.
    fn left_press(
        &mut self,
        (now, at): (Instant, Vec2),
        entity: Entity,
        field: &mut Field,
        (caret, affinity): (usize, Affinity),
        cluster: usize,
    ) {
        let double = self.last_press.is_some_and(|(then, place)| {
            now - then <= DOUBLE_CLICK_TIME && place.distance(at) <= DOUBLE_CLICK_DISTANCE
        });
        if double {
            field.line_mut().select_word_at(cluster);
            self.last_press = None;
        } else {
            field.line_mut().place_beside(caret, affinity, false);
            self.dragging = Some(entity);
            self.last_press = Some((now, at));
        }
    }
}

/// Paste the PRIMARY selection into this field, at its caret: a middle click there.
#[derive(Message, Debug, Clone, Copy)]
pub(crate) struct PastePrimary(pub(crate) Entity);

/// Offers a field's selection as the PRIMARY selection whenever it changes (X11's "what is
/// selected"; `super::clipboard`).
pub(super) fn offer_the_selection(
    fields: Query<&Field, Changed<Field>>,
    mut offered: Local<String>,
    mut primary: MessageWriter<WritePrimary>,
) {
    for field in &fields {
        if let Some(text) = field.line().selected_text()
            && text != *offered
        {
            text.clone_into(&mut offered);
            primary.write(WritePrimary(text.to_owned()));
        }
    }
}

/// Places the caret where a field is clicked, extends the selection while the button is held
/// and the pointer moves, and selects the word under a double-click; a middle click pastes the
/// PRIMARY selection there. Reads the pointer's messages in the order they came, so a quick
/// press, move and release still drags.
pub(super) fn point_and_drag(
    mut events: MessageReader<WindowEvent>,
    mut pointer: Local<Pointer>,
    mut fields: Query<(Entity, &mut Field, &ComputedNode, &UiGlobalTransform)>,
    lines: Query<(&LineText, &ComputedNode, &UiGlobalTransform)>,
    mut input_focus: ResMut<InputFocus>,
    mut pastes: MessageWriter<PastePrimary>,
    clock: Res<InputClock>,
    zoom: Res<UiScale>,
    grab: Res<PointerGrab>,
) {
    // Where a pointer at `at` (logical pixels) lands in `field`'s line.
    let hit = |field: Entity, at: Vec2| {
        let (laid_out, node, transform) = lines.iter().find(|(line, ..)| line.field == field)?;
        // The pointer comes in the window's logical pixels, layout is in physical ones.
        let corner = transform.transform_point2(-node.size() / 2.0);
        Some(laid_out.hit(at * window_scale(node, &zoom) - corner))
    };
    for event in events.read() {
        match event {
            WindowEvent::CursorMoved(moved) => {
                pointer.at = Some(moved.position);
                if let Some(dragged) = pointer.dragging
                    && let Ok((_, mut field, _, _)) = fields.get_mut(dragged)
                    && !field.line().is_composing()
                    && let Some(((caret, affinity), _)) = hit(dragged, moved.position)
                {
                    field.line_mut().place_beside(caret, affinity, true);
                }
            }
            WindowEvent::MouseButtonInput(button)
                if matches!(button.button, MouseButton::Left | MouseButton::Middle) =>
            {
                if !button.state.is_pressed() {
                    if button.button == MouseButton::Left {
                        pointer.dragging = None;
                    }
                    continue;
                }
                // Not while an open menu has the pointer (`view/menu.rs`).
                let Some(at) = pointer.at.filter(|_| !grab.0) else {
                    continue;
                };
                let pressed = fields.iter_mut().find(|(_, _, node, transform)| {
                    node.contains_point(**transform, at * window_scale(node, &zoom))
                });
                let Some((entity, mut field, _, _)) = pressed else {
                    continue;
                };
                let Some(((caret, affinity), cluster)) = hit(entity, at) else {
                    continue;
                };
                if field.line().is_composing() {
                    continue;
                }
                // A click in a field gives it keyboard focus.
                if input_focus.get() != Some(entity) {
                    input_focus.set(entity, FocusCause::Pressed);
                }
                if button.button == MouseButton::Middle {
                    // A middle click pastes the PRIMARY selection where it lands, as in every
                    // GTK and Qt field.
                    field.line_mut().place_beside(caret, affinity, false);
                    pastes.write(PastePrimary(entity));
                    continue;
                }
                let press = (clock.now(), at);
                pointer.left_press(press, entity, &mut field, (caret, affinity), cluster);
            }
            _ => {}
        }
    }
}
