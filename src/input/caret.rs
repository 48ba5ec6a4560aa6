//! When the caret blinks: while the user is active and for [`BLINK_TIMEOUT`] after, then it
//! rests, solid, until the next input. GTK's rule (`gtk-cursor-blink-timeout`, 10 s), and the
//! reason an idle window can cost nothing: a resting caret needs no frames, so the window
//! waits for the next event instead of waking every half second.
//!
//! The widget blinks its caret on its own timer, [`TextInputCursorTimer`]. Resting pauses that
//! timer; and since the caret may be in its dark half at that moment, the widget is told to
//! show it: any change to [`TextInputInactive`] makes the widget repaint the caret (shown, or
//! hidden while inactive) and restart its timer. Waking does the same with the timer running.

use std::time::Duration;

use bevy::{
    input::{keyboard::KeyboardInput, mouse::MouseButtonInput},
    platform::time::Instant,
    prelude::*,
    text::{LineBreak, TextBrush},
    window::{Ime, PrimaryWindow, WindowFocused},
    winit::{UpdateMode, WinitSettings},
};
use bevy_simple_text_input::{TextInputCursorTimer, TextInputInactive};
use parley::{Cursor, Layout};

use super::{
    Field,
    clock::InputClock,
    selection::{CARET, LineText},
};

/// How long the caret keeps blinking after the last input.
pub const BLINK_TIMEOUT: Duration = Duration::from_secs(10);

/// How often the widget turns its caret on or off while it blinks.
pub const BLINK_INTERVAL: Duration = Duration::from_millis(500);

/// How long a window with nothing to show waits for the next event before it runs a frame
/// anyway: a day, which in practice is never.
///
/// Not `Duration::MAX`, though Bevy documents that as waiting for ever: bevy_winit 0.19 adds the
/// wait to the frame's start instant, and when that overflows it keeps the deadline it had set
/// before, now in the past, so the loop wakes at once, again and again (measured: 127% of a
/// core instead of 0). An engine workaround ([`crate::workarounds`]), fixed upstream by
/// bevyengine/bevy#24989; canary `bevy_winit_keeps_a_past_deadline_when_the_wait_overflows`.
pub const SLEEP: Duration = Duration::from_secs(24 * 60 * 60);

/// Lets Bevy's virtual clock, which the widget's blink timer runs on, keep up with a window that
/// sleeps half a blink between frames.
///
/// The virtual clock advances by at most its `max_delta` a frame, 250 ms by default, so
/// that a game paused in a debugger does not leap ahead. A window that wakes only for the
/// blink sees 500 ms between frames; clamped to 250 ms, the widget's 500 ms timer finished on
/// every other wake, so the caret turned on or off once a second, not twice, and every other
/// frame drew nothing new. Two intervals: the wake may come a little late. A workaround
/// ([`crate::workarounds`]); canary `the_widget_blinks_on_the_virtual_clock`.
pub(super) fn follow_the_blink_in_virtual_time(mut time: ResMut<Time<Virtual>>) {
    time.set_max_delta(2 * BLINK_INTERVAL);
}

/// Whether the caret blinks or rests, and why.
#[derive(Resource, Reflect, Debug)]
#[reflect(Resource)]
pub struct CaretBlink {
    /// When the last key, IME message, click or focus gain was handled, on the [`InputClock`];
    /// the first frame counts as one.
    last_input: Option<Instant>,
    /// Whether the window has keyboard focus: an unfocused window's caret rests at once.
    focused: bool,
    resting: bool,
}

impl Default for CaretBlink {
    fn default() -> Self {
        Self {
            last_input: None,
            focused: true,
            resting: false,
        }
    }
}

impl CaretBlink {
    /// Whether the caret stands still (solid) rather than blinking.
    pub fn is_resting(&self) -> bool {
        self.resting
    }
}

/// Notes the frame's input, rests or wakes the caret, and sets how long the window may sleep:
/// half a blink while the caret blinks, [`SLEEP`] while it rests (every event still wakes it).
///
/// On the [`InputClock`], not Bevy's clocks: after a long sleep, virtual time advances by at most
/// a quarter of a second, and the timeout would stretch to minutes; and the real-time one reads
/// when the sleep began in the frame that wakes from it, so the caret that a key woke rested
/// again in the next frame.
pub(super) fn rest_when_idle(
    clock: Res<InputClock>,
    mut keys: MessageReader<KeyboardInput>,
    mut imes: MessageReader<Ime>,
    mut clicks: MessageReader<MouseButtonInput>,
    mut focus: MessageReader<WindowFocused>,
    mut blink: ResMut<CaretBlink>,
    mut fields: Query<(&mut TextInputCursorTimer, &mut TextInputInactive), With<Field>>,
    settings: Option<ResMut<WinitSettings>>,
) {
    let now = clock.now();
    // Every reader read to its end, so that no message counts again next frame.
    let typed = keys.read().count() > 0;
    let composed = imes.read().count() > 0;
    let clicked = clicks
        .read()
        .filter(|click| click.state.is_pressed())
        .count()
        > 0;
    let mut gained_focus = false;
    if let Some(last) = focus.read().last() {
        gained_focus = last.focused && !blink.focused;
        blink.focused = last.focused;
    }
    if typed || composed {
        // Keys reach only a focused window, whatever order the focus messages came in.
        blink.focused = true;
    }
    if typed || composed || clicked || gained_focus {
        blink.last_input = Some(now);
    }
    let last_input = *blink.last_input.get_or_insert(now);
    let resting = !blink.focused || now.saturating_duration_since(last_input) >= BLINK_TIMEOUT;
    if resting == blink.resting {
        return;
    }
    blink.resting = resting;
    debug!(
        "caret {} (focused: {})",
        if resting { "rests" } else { "blinks" },
        blink.focused
    );
    for (mut cursor, mut inactive) in &mut fields {
        if resting {
            cursor.timer.pause();
        } else {
            cursor.timer.unpause();
        }
        inactive.set_changed();
    }
    // Both modes: the window's own focus flag, which picks the mode, can lag the focus
    // messages read here, and a blinking caret must get its frames either way.
    if let Some(mut settings) = settings {
        let settings = &mut *settings;
        for mode in [&mut settings.focused_mode, &mut settings.unfocused_mode] {
            if let UpdateMode::Reactive { wait, .. } = mode {
                *wait = if resting { SLEEP } else { BLINK_INTERVAL };
            }
        }
    }
}

/// The caret as drawn: a bar over the widget's line, where the line's layout puts the caret.
///
/// The widget draws its caret as a character of the line, in a font of its own. That
/// character is punctuation, which takes its direction from its neighbours (Unicode's bidi
/// rules): in right-to-left text it split numbers in two and parted joined Arabic letters, and
/// where the text changes direction it showed on either side. So the line is laid out without
/// it (`super::selection`), and this bar stands where Parley's cursor geometry says, on the side
/// the caret's affinity names.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct CaretBar;

/// How wide the caret is drawn, in logical pixels.
pub const CARET_WIDTH: f32 = 2.0;

/// Places the caret's bar, and scrolls the line so that the bar is in view, in the frame the
/// line or the caret changed: after Bevy has laid out the line's text, before it lays out the
/// nodes. Shows the bar in the colour the widget gives its own caret, which is how the widget
/// blinks it (and hides it while the field is inactive).
///
/// The widget keeps its caret in view from its caret's glyph, a frame late; with none, it
/// leaves the scroll alone. An engine workaround ([`crate::workarounds`]); canary
/// `the_widget_scrolls_only_around_its_caret_glyph`.
pub(super) fn place_bar(
    fields: Query<(Entity, &Field, &ComputedNode)>,
    mut lines: Query<
        (
            &LineText,
            &ComputedNode,
            &ChildOf,
            &Children,
            &mut Node,
            &mut TextLayout,
        ),
        Without<CaretBar>,
    >,
    mut viewports: Query<
        (&mut Node, &ComputedNode, &mut ScrollPosition, &Children),
        (Without<LineText>, Without<CaretBar>),
    >,
    mut bars: Query<(&mut Node, &mut BackgroundColor), With<CaretBar>>,
    colors: Query<&TextColor>,
    windows: Query<&Window, With<PrimaryWindow>>,
    zoom: Res<UiScale>,
    mut commands: Commands,
) {
    // The window's height in the UI's logical pixels (which the zoom scales).
    let window = windows
        .single()
        .map_or(f32::INFINITY, |window| window.height() / zoom.0);
    for (entity, field, field_node) in &fields {
        let Some((line_text, text_node, child_of, spans, mut text_style, mut text_layout)) =
            lines.iter_mut().find(|(line, ..)| line.field() == entity)
        else {
            continue;
        };
        let viewport_entity = child_of.parent();
        let Ok((mut viewport, viewport_node, mut scroll, shown)) =
            viewports.get_mut(viewport_entity)
        else {
            continue;
        };
        // Parley lays the line out in physical pixels; nodes are placed in logical ones.
        let layout = line_text.layout();
        let to_logical = text_node.inverse_scale_factor();
        let line = field.line();
        let geometry = Cursor::from_byte_index(layout, line.shown_caret(), line.affinity())
            .geometry(layout, 0.0);
        // On the pixel grid, as Bevy places nodes: a bar between two pixels would spill into a
        // third, past the view's edge at the line's end.
        let [x, top, _, bottom] = [geometry.x0, geometry.y0, geometry.x1, geometry.y1]
            .map(|at| (at as f32).round() * to_logical);

        let view = field_node.content_box().width() * field_node.inverse_scale_factor();
        let width = layout.width().ceil() * to_logical + CARET_WIDTH;
        let text = (line.keeps_breaks(), width, &mut text_style);
        scroll_sideways(text, (&mut viewport, &mut scroll), x, view);
        // A field of many lines wraps them at its width (the widget lays out one line, and
        // scrolls it sideways), grows with them up to its limit, then scrolls them.
        if line.keeps_breaks() {
            let text = (layout, to_logical, &mut text_layout, &mut text_style);
            let view = (&mut viewport, viewport_node, &mut scroll);
            fit_lines(text, view, (top, bottom), window);
        }

        // The spans are the text's children, the widget's caret span its second.
        let color = spans
            .get(CARET - 1)
            .and_then(|&span| colors.get(span).ok())
            .map_or(Color::NONE, |color| color.0);
        let place = Rect::new(x, top, x + CARET_WIDTH, bottom);
        let bar = shown.iter().find(|&child| bars.contains(child));
        draw_bar(
            bar,
            viewport_entity,
            (place, color),
            &mut bars,
            &mut commands,
        );
    }
}

/// Starts the line at the view's left edge, with room after its end for the bar (which the
/// widget's glyph used to take), and scrolls it sideways so that the bar at `x` is in a view
/// `view` wide; `text` says whether it wraps (lines that do never scroll sideways), its width
/// and its node.
///
/// This and [`fit_lines`] take Bevy's `Mut` and write only what differs: a mutable borrow
/// alone marks a component changed, and a changed text node is measured and laid out again,
/// every frame (a hundred-line draft cost 4.4 M instructions an idle frame that way).
fn scroll_sideways(
    (wraps, width, text_node): (bool, f32, &mut Mut<Node>),
    (viewport, scroll): (&mut Mut<Node>, &mut Mut<ScrollPosition>),
    x: f32,
    view: f32,
) {
    let room = Val::Px(CARET_WIDTH);
    if text_node.padding.right != room {
        text_node.padding.right = room;
    }
    if viewport.justify_content != JustifyContent::FlexStart {
        viewport.justify_content = JustifyContent::FlexStart;
    }
    let left = if wraps {
        0.0
    } else {
        scroll_to_show(x, width, view, scroll.x)
    };
    if scroll.x != left {
        scroll.x = left;
    }
}

/// Lets a field of many lines wrap them (`text`: its layout, the scale to logical pixels, its
/// settings and its node), grow to [`tallest`] in a window `window` tall, and scroll its `view`
/// so that the caret's line (`top` to `bottom`) is in view.
fn fit_lines(
    (layout, to_logical, text_layout, text_node): (
        &Layout<TextBrush>,
        f32,
        &mut Mut<TextLayout>,
        &mut Mut<Node>,
    ),
    (viewport, viewport_node, scroll): (&mut Mut<Node>, &ComputedNode, &mut Mut<ScrollPosition>),
    (top, bottom): (f32, f32),
    window: f32,
) {
    // As wide as the view, to wrap at its edge; as tall as its lines, not stretched or squeezed
    // to the view's height.
    let full = Val::Percent(100.0);
    if (viewport.width, text_node.width, text_node.align_self) != (full, full, AlignSelf::FlexStart)
    {
        viewport.width = full;
        text_node.width = full;
        text_node.align_self = AlignSelf::FlexStart;
    }
    let wrap = LineBreak::WordOrCharacter;
    if text_layout.linebreak != wrap {
        text_layout.linebreak = wrap;
    }
    if viewport.overflow != Overflow::scroll() {
        viewport.overflow = Overflow::scroll();
    }
    let line_height = layout
        .lines()
        .next()
        .map_or(bottom - top, |line| line.metrics().line_height * to_logical);
    let limit = Val::Px(tallest(line_height, window));
    if viewport.max_height != limit {
        viewport.max_height = limit;
    }
    let view = viewport_node.size().y * viewport_node.inverse_scale_factor();
    let height = layout.height().ceil() * to_logical;
    let down = scroll
        .y
        .min(top)
        .max(bottom - view)
        .clamp(0.0, (height - view).max(0.0));
    if view > 0.0 && scroll.y != down {
        scroll.y = down;
    }
}

/// How many of its lines a field of many lines shows before it scrolls them: about as many
/// as a chat client's field does.
pub const FIELD_LINES: f32 = 8.0;

/// How tall a field of many lines grows, in logical pixels, with lines `line_height` tall in a
/// window `window` tall: [`FIELD_LINES`] lines, but no more than two fifths of the window, so
/// that the conversation keeps most of it, and never less than one line.
fn tallest(line_height: f32, window: f32) -> f32 {
    (FIELD_LINES * line_height)
        .min(window * 0.4)
        .max(line_height)
        .ceil()
}

/// Gives the caret's `bar` (spawned in the line's viewport the first time) its place (in the
/// viewport's logical pixels) and colour.
fn draw_bar(
    bar: Option<Entity>,
    viewport: Entity,
    (place, color): (Rect, Color),
    bars: &mut Query<(&mut Node, &mut BackgroundColor), With<CaretBar>>,
    commands: &mut Commands,
) {
    let node = Node {
        position_type: PositionType::Absolute,
        left: Val::Px(place.min.x),
        top: Val::Px(place.min.y),
        width: Val::Px(place.width()),
        height: Val::Px(place.height()),
        ..default()
    };
    if let Some((mut bar, mut background)) = bar.and_then(|bar| bars.get_mut(bar).ok()) {
        bar.set_if_neq(node);
        background.set_if_neq(BackgroundColor(color));
    } else {
        commands.spawn((
            Name::new("Caret"),
            CaretBar,
            node,
            BackgroundColor(color),
            ChildOf(viewport),
        ));
    }
}

/// How far to scroll a line `width` wide in a view `view` wide, now scrolled by `scroll`, to
/// show the caret's bar at `x` (all in logical pixels): as little as it takes, and never past
/// either end of the line.
fn scroll_to_show(x: f32, width: f32, view: f32, scroll: f32) -> f32 {
    scroll
        .min(x)
        .max(x + CARET_WIDTH - view)
        .clamp(0.0, (width - view).max(0.0))
}
