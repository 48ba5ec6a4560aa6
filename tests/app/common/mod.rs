//! The headless recipe every test builds on, and helpers that read the app's observable state.
//!
//! `MinimalPlugins` has no window, renderer or UI layout, so these tests see what the systems
//! write (components, resources), not pixels. The text widget needs assets, keyboard input, the
//! `Font` asset type and a text scratch buffer; that is all it takes to run the real app plugin.

#![allow(
    dead_code,
    reason = "each test file uses its own subset of these helpers"
)]

use std::{
    sync::{Arc, Mutex},
    time::Duration,
};

use agent_chat::{
    AgentChatPlugin,
    chat::{
        ChatMessage, MessageLog, REPLIES, ReplyPicker, Role, RoleStyle, RowClass, SessionRecord,
    },
    input::{
        ChatInput, LengthLimitNotice,
        caret::CaretBar,
        clipboard::{ClipboardService, ReadClipboard, ReadPrimary, WriteClipboard, WritePrimary},
        clock::InputClock,
    },
    scroll::{self, Item, ItemColumn, Overhang, Scrollbar, ScrollbarThumb, VirtualList},
    theme,
    view::{
        self, Bubble, MessageRow,
        copy::CopyButton,
        speech::{GAP, Topic},
    },
};
use bevy::{
    a11y::AccessibilityNode,
    input::{
        ButtonState, InputPlugin,
        keyboard::{Key, NativeKey},
        mouse::{MouseButtonInput, MouseScrollUnit, MouseWheel},
        touch::TouchPhase,
    },
    log::LogPlugin,
    platform::time::Instant,
    prelude::*,
    render::{RenderPlugin, settings::WgpuSettings},
    text::{ComputedTextBlock, TextBackgroundColor, TextIterScratch},
    time::TimeUpdateStrategy,
    ui::UiGlobalTransform,
    window::{CursorMoved, PrimaryWindow, WindowEvent, WindowResolution},
    winit::WinitPlugin,
};
use bevy_simple_text_input::{TextInput, TextInputSubmitMessage, TextInputValue};
use parley::{Affinity, Cursor};

/// The app as `main` runs it, minus window and renderer, after its first (start-up) frame.
pub fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), InputPlugin))
        .init_asset::<Font>()
        .init_resource::<TextIterScratch>()
        .add_plugins(AgentChatPlugin);
    app.update();
    app
}

/// The app with real UI layout and text, still without a GPU or a window: Bevy's
/// `DefaultPlugins` with the renderer's backends switched off and winit left out, so node sizes
/// and scroll offsets are computed as on screen. After its first frame.
pub fn laid_out_app() -> App {
    laid_out_app_at(WindowResolution::new(800, 600))
}

/// [`laid_out_app`] with a window of the given size and scale factor.
pub fn laid_out_app_at(resolution: WindowResolution) -> App {
    let mut app = engine_app(resolution);
    app.add_plugins(AgentChatPlugin);
    app.finish();
    app.cleanup();
    app.update();
    app
}

/// The engine that [`laid_out_app_at`] puts the app on, not yet built: Bevy's `DefaultPlugins`
/// for real UI layout, with no GPU and no window backend.
pub fn engine_app(resolution: WindowResolution) -> App {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .build()
            .disable::<WinitPlugin>()
            // One global logger per process; tests run several apps.
            .disable::<LogPlugin>()
            .set(RenderPlugin {
                render_creation: WgpuSettings {
                    backends: None,
                    ..default()
                }
                .into(),
                ..default()
            })
            .set(WindowPlugin {
                primary_window: Some(Window {
                    resolution,
                    ..default()
                }),
                ..default()
            }),
    );
    app
}

/// Replaces the random pick with one that answers `REPLIES[i]` for the `n`-th call's `i` in
/// `order`, and returns the list each call was given, to count and inspect the calls.
pub fn fix_pick(app: &mut App, order: &[usize]) -> Arc<Mutex<Vec<&'static [&'static str]>>> {
    let calls = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&calls);
    let order = order.to_vec();
    app.insert_resource(ReplyPicker::new(move |replies| {
        let mut seen = seen.lock().unwrap();
        let pick = order[seen.len() % order.len()];
        seen.push(replies);
        replies.get(pick).copied()
    }));
    calls
}

/// The number of pick calls so far, checking that every one was given the app's reply list.
pub fn pick_calls(calls: &Mutex<Vec<&'static [&'static str]>>) -> usize {
    let calls = calls.lock().unwrap();
    for list in calls.iter() {
        assert!(
            std::ptr::eq(*list, REPLIES),
            "the pick must be given the fixed reply list, got {list:?}"
        );
    }
    calls.len()
}

/// The input field entity.
///
/// The full app marks its field, beside the find bar's; the core example (`examples/core.rs`)
/// has one field, the widget's.
pub fn input_entity(app: &mut App) -> Entity {
    let world = app.world_mut();
    if let Ok(chat) = world
        .query_filtered::<Entity, With<ChatInput>>()
        .single(world)
    {
        return chat;
    }
    world
        .query_filtered::<Entity, With<TextInput>>()
        .single(world)
        .expect("exactly one chat input")
}

/// The chat field's widget line: the text node it lays the field's text out in (the widget names it, but
/// does not export its marker).
pub fn widget_line(app: &mut App) -> Entity {
    let field = input_entity(app);
    let world = app.world_mut();
    let in_field = |world: &World, mut entity: Entity| {
        while let Some(parent) = world.get::<ChildOf>(entity) {
            entity = parent.parent();
            if entity == field {
                return true;
            }
        }
        false
    };
    world
        .query::<(Entity, &Name)>()
        .iter(world)
        .find(|&(entity, name)| name.as_str() == "TextInputInner" && in_field(world, entity))
        .map(|(entity, _)| entity)
        .expect("the widget's line")
}

/// What the input field holds now.
pub fn input_value(app: &mut App) -> String {
    let input = input_entity(app);
    app.world().get::<TextInputValue>(input).unwrap().0.clone()
}

/// Types `line` into the field and presses Enter, in one frame, as a person does: the app's own
/// field reads the keys, sends its line and clears itself.
///
/// Only what a keyboard can type: a tab or a newline would move focus or send the line early, and
/// the field stops taking characters at its length limit. For those, see [`write_submit_message`].
pub fn submit(app: &mut App, line: &str) {
    assert!(
        !line.chars().any(char::is_control)
            && line.chars().count() <= usize::from(agent_chat::input::MAX_INPUT_CHARS),
        "{line:?} cannot be typed into the field; write_submit_message sends it as the field would"
    );
    key_in(app, line);
    press_enter(app);
}

/// Writes the field's submit message with `raw` in it, skipping the field, then runs one frame.
///
/// For lines no keyboard types into a one-line field (tabs and newlines, as a paste or an IME can
/// bring them; bodies over the length limit) and for tests of the recording alone.
pub fn write_submit_message(app: &mut App, raw: &str) {
    write_submit_messages(app, &[raw]);
}

/// Writes one submit message of the field per line, all in one frame, then runs that frame:
/// bursts no person could type, for filling a long log fast.
pub fn write_submit_messages<S: AsRef<str>>(app: &mut App, lines: &[S]) {
    let entity = input_entity(app);
    for line in lines {
        app.world_mut().write_message(TextInputSubmitMessage {
            entity,
            value: line.as_ref().to_owned(),
        });
    }
    app.update();
}

/// Fills the log with `messages` messages (half typed lines, each its own text as in a real
/// conversation, half replies) in bursts of 10,000 submissions a frame, then runs two quiet
/// frames.
///
/// Bevy keeps a frame's messages for one more frame and frees them in the frame after; the quiet
/// frames free the last burst's here, so a benchmark's measured frame pays only for itself. The
/// typed lines are freed before them too: glibc keeps many small freed blocks aside and merges
/// them at the next large allocation, which would otherwise be in the measured frame (callgrind:
/// 4 M instructions of `malloc_consolidate` in a 14 M frame after 100,000 messages).
pub fn fill_log(app: &mut App, messages: usize) {
    let pairs = messages / 2;
    let lines: Vec<String> = (1..=pairs).map(|n| format!("보낸 메시지 {n}")).collect();
    for burst in lines.chunks(10_000) {
        write_submit_messages(app, burst);
    }
    drop(lines);
    app.update();
    app.update();
}

/// One key press or release, as the window backend writes it.
pub use agent_chat::input::key_message as key;

/// Delivers an input event as Bevy's window backend does, without running a frame: as a
/// message of its own type and again as a [`WindowEvent`], the stream that keeps the order
/// between keys and IME messages.
pub fn deliver<E: Message + Clone + Into<WindowEvent>>(app: &mut App, event: E) {
    app.world_mut().write_message(event.clone());
    app.world_mut().write_message(event.into());
}

/// Presses a key that has no text (a modifier, a page key) without releasing it or running a
/// frame.
pub fn tap_down(app: &mut App, key_code: KeyCode) {
    deliver(
        app,
        key(
            key_code,
            Key::Unidentified(NativeKey::Unidentified),
            ButtonState::Pressed,
        ),
    );
}

/// Releases a key pressed with [`tap_down`], without running a frame.
pub fn tap_up(app: &mut App, key_code: KeyCode) {
    deliver(
        app,
        key(
            key_code,
            Key::Unidentified(NativeKey::Unidentified),
            ButtonState::Released,
        ),
    );
}

/// Presses and releases a key, as a platform reports it, without running a frame.
pub fn tap(app: &mut App, key_code: KeyCode, logical_key: Key) {
    deliver(
        app,
        key(key_code, logical_key.clone(), ButtonState::Pressed),
    );
    deliver(app, key(key_code, logical_key, ButtonState::Released));
}

/// Holds `modifiers` down, taps `key_code` (meaning `logical`, as the layout names the key), and
/// lets the modifiers go: all within one frame, as `xdotool key` sends a chord. Runs no frame.
pub fn chord(app: &mut App, modifiers: &[KeyCode], key_code: KeyCode, logical: Key) {
    for &modifier in modifiers {
        tap_down(app, modifier);
    }
    tap(app, key_code, logical);
    for &modifier in modifiers {
        tap_up(app, modifier);
    }
}

/// Writes one key press per character of `text`, as a platform reports typing, without running
/// a frame.
pub fn key_in(app: &mut App, text: &str) {
    for c in text.chars() {
        if c == ' ' {
            tap(app, KeyCode::Space, Key::Space);
        } else {
            // The physical key does not matter to the widget, only that no binding claims it.
            tap(app, KeyCode::KeyA, Key::Character(c.to_string().into()));
        }
    }
}

/// Types `text` into the focused field one character per key press, then runs one frame.
pub fn type_text(app: &mut App, text: &str) {
    key_in(app, text);
    app.update();
}

/// Presses Enter in the field and runs one frame.
pub fn press_enter(app: &mut App) {
    tap(app, KeyCode::Enter, Key::Enter);
    app.update();
}

/// The log as (role, body) pairs, oldest first.
pub fn logged(app: &App) -> Vec<(Role, String)> {
    let world = app.world();
    world
        .resource::<MessageLog>()
        .entities()
        .iter()
        .map(|&entity| {
            let role = *world
                .get::<Role>(entity)
                .expect("a logged entity has a Role");
            let body = world.get::<ChatMessage>(entity).expect("and a ChatMessage");
            (role, body.body().to_owned())
        })
        .collect()
}

/// The session record: normalized inputs and picked replies.
pub fn recorded(app: &App) -> (Vec<String>, Vec<&'static str>) {
    let record = app.world().resource::<SessionRecord>();
    (record.inputs().to_vec(), record.replies().to_vec())
}

/// One row as a person (or a screen reader) would tell it apart from the others.
#[derive(Debug, Clone, PartialEq)]
pub struct ShownRow {
    /// The message entity the row shows.
    pub message: Entity,
    pub class: RowClass,
    pub justify: JustifyContent,
    pub border: UiRect,
    pub text: String,
}

/// The mounted rows, top to bottom: the rows hanging above the list's item column, then the
/// column's own.
pub fn row_entities(world: &mut World) -> Vec<Entity> {
    let column = world
        .query_filtered::<&Children, With<ItemColumn>>()
        .single(world)
        .expect("exactly one item column")
        .to_vec();
    let mut rows = Vec::new();
    for child in column {
        if world.get::<Overhang>(child).is_some() {
            rows.extend(world.get::<Children>(child).into_iter().flatten().copied());
        } else {
            rows.push(child);
        }
    }
    rows
}

/// The rows of the conversation area in display order.
pub fn rows(app: &mut App) -> Vec<ShownRow> {
    let world = app.world_mut();
    row_entities(world)
        .into_iter()
        .map(|row| {
            let shown = world.get::<MessageRow>(row).expect("only rows in the area");
            let [bubble] = world.get::<Children>(row).unwrap()[..] else {
                panic!("a row has exactly one child, its bubble");
            };
            assert!(world.get::<Bubble>(bubble).is_some());
            let (text, rest) = world
                .get::<Children>(bubble)
                .unwrap()
                .split_first()
                .unwrap();
            let text = *text;
            assert!(
                rest.iter()
                    .all(|&other| world.get::<CopyButton>(other).is_some()),
                "a bubble holds its text, and the copy button while hovered"
            );
            ShownRow {
                message: shown.message,
                class: *world.get::<RowClass>(row).unwrap(),
                justify: world.get::<Node>(row).unwrap().justify_content,
                border: world.get::<Node>(bubble).unwrap().border,
                text: shown_text(world, text),
            }
        })
        .collect()
}

/// The entity holding a row's text: the first child of its bubble (the copy button may follow).
pub fn text_of_row(world: &World, row: Entity) -> Entity {
    let bubble = world.get::<Children>(row).unwrap()[0];
    world.get::<Children>(bubble).unwrap()[0]
}

/// Checks that every mounted row shows the message at its place in the log: the row points at
/// that message, its text reads as the message's label and body, and a screen reader hears the
/// same text at the same place.
pub fn assert_rows_show_their_messages(app: &mut App, when: &str) {
    let world = app.world_mut();
    for row in row_entities(world) {
        let Item(place) = *world
            .get::<Item>(row)
            .expect("a mounted row is a list item");
        let message = world.resource::<MessageLog>().entities()[place];
        assert_eq!(
            world.get::<MessageRow>(row).unwrap().message,
            message,
            "{when}: row {place} points at message {place}"
        );
        let role = *world.get::<Role>(message).unwrap();
        let body = world.get::<ChatMessage>(message).unwrap().body();
        let expected = RoleStyle::of(role).text(&view::shown_body(body));
        assert_eq!(
            shown_text(world, text_of_row(world, row)),
            expected,
            "{when}: row {place} shows its message"
        );
        let heard = world.get::<AccessibilityNode>(row).unwrap();
        assert_eq!(
            (heard.label(), heard.position_in_set()),
            (Some(&expected[..]), Some(place)),
            "{when}: a screen reader hears row {place} as it shows"
        );
    }
}

/// The most rows the conversation mounts at once, whatever the log holds: the view and its
/// overscan on both sides filled with the shortest rows there are (one line, padding and gap),
/// and one more at each end for a row cut by the edge.
pub fn most_rows_mounted(view: f32) -> usize {
    let shortest = 1.2 * theme::FONT_SIZE + 2.0 * view::BUBBLE_PADDING.y + view::ROW_GAP;
    (view * (1.0 + 2.0 * scroll::OVERSCAN) / shortest).ceil() as usize + 2
}

/// Checks that `shown` are the rows of consecutive messages of the log ending at its newest,
/// in log order, and returns the index in the log of the first.
pub fn assert_newest_run(app: &App, shown: &[ShownRow]) -> usize {
    let log = app.world().resource::<MessageLog>().entities();
    let first = log.len() - shown.len();
    assert!(
        shown
            .iter()
            .map(|row| row.message)
            .eq(log[first..].iter().copied()),
        "the rows show the newest {} messages, in log order",
        shown.len()
    );
    first
}

/// Whether the full-field notice is laid out (`Display::Flex`) or hidden (`Display::None`).
pub fn length_notice(app: &mut App) -> Display {
    let world = app.world_mut();
    world
        .query_filtered::<&Node, With<LengthLimitNotice>>()
        .single(world)
        .expect("exactly one length notice")
        .display
}

// Laid-out apps: where things are on screen, and the user's scrolling.

/// `count` distinct short lines.
pub fn numbered(count: usize) -> Vec<String> {
    (0..count).map(|i| format!("메시지 {i}")).collect()
}

/// Where a node is on screen, in physical pixels.
pub fn rect(app: &mut App, entity: Entity) -> Rect {
    let world = app.world_mut();
    let (node, transform) = world
        .query::<(&ComputedNode, &UiGlobalTransform)>()
        .get(world, entity)
        .unwrap();
    Rect::from_center_size(transform.translation, node.size)
}

/// Top and bottom edge of a node, in physical pixels.
pub fn vertical_extent(app: &mut App, entity: Entity) -> (f32, f32) {
    let rect = rect(app, entity);
    (rect.min.y, rect.max.y)
}

/// How far the view's top is from the conversation's top, in logical pixels, as the list
/// settled it after layout.
pub fn offset(app: &mut App) -> f64 {
    list(app).offset()
}

pub fn list(app: &mut App) -> &VirtualList {
    let world = app.world_mut();
    world.query::<&VirtualList>().single(world).unwrap()
}

/// Runs frames until the conversation has mounted all the rows it wants, overscan included
/// (a jump mounts the view's rows first, and the overscan over the next frames).
pub fn finish_mounting(app: &mut App) {
    for _ in 0..20 {
        app.update();
        if rows(app).len() == list(app).wanted().len() {
            return;
        }
    }
    panic!("the conversation never finished mounting its rows");
}

pub fn list_mut(app: &mut App) -> Mut<'_, VirtualList> {
    let world = app.world_mut();
    world.query::<&mut VirtualList>().single_mut(world).unwrap()
}

pub fn wheel(app: &mut App, notches: f32) {
    app.world_mut().write_message(MouseWheel {
        unit: MouseScrollUnit::Line,
        x: 0.0,
        y: notches,
        window: Entity::PLACEHOLDER,
        phase: TouchPhase::Moved,
    });
    app.update();
}

/// Holds `keys` down together for a frame, as a chord, then lets go.
pub fn press(app: &mut App, keys: &[KeyCode]) {
    for &key in keys {
        tap_down(app, key);
    }
    app.update();
    for &key in keys.iter().rev() {
        tap_up(app, key);
    }
    app.update();
}

/// The one entity with component `C`.
pub fn the<C: Component>(app: &mut App) -> Entity {
    let world = app.world_mut();
    world
        .query_filtered::<Entity, With<C>>()
        .single(world)
        .unwrap()
}

/// The scrollbar's track and thumb as (top, bottom) in physical pixels, and whether it shows.
pub fn scrollbar(app: &mut App) -> ((f32, f32), (f32, f32), bool) {
    let (track, thumb) = (the::<Scrollbar>(app), the::<ScrollbarThumb>(app));
    let visible = app.world().get::<InheritedVisibility>(track).unwrap().get();
    (
        vertical_extent(app, track),
        vertical_extent(app, thumb),
        visible,
    )
}

/// Moves the pointer to `at` (logical pixels, which are physical ones at this scale) and
/// presses or releases the left button there, then runs a frame.
pub fn mouse(app: &mut App, at: Vec2, state: Option<ButtonState>) {
    buttons(app, at, MouseButton::Left, state.as_slice());
}

/// Moves the pointer to `at` and gives `button` each of `states` there, then runs a frame.
pub fn buttons(app: &mut App, at: Vec2, button: MouseButton, states: &[ButtonState]) {
    let window = the::<PrimaryWindow>(app);
    deliver(
        app,
        CursorMoved {
            window,
            position: at,
            delta: None,
        },
    );
    for &state in states {
        deliver(
            app,
            MouseButtonInput {
                button,
                state,
                window,
            },
        );
    }
    app.update();
}

/// `app` with the test as its clipboard: the app is told the clipboard is served elsewhere, and
/// what it asks to copy or read is kept for [`copied`] and [`asked_to_read`].
pub fn play_the_clipboard_in(mut app: App) -> App {
    app.insert_resource(ClipboardService::Elsewhere)
        .init_resource::<Played>()
        .add_systems(Last, play_the_clipboard);
    app
}

/// What the app asked of the clipboard the test plays, since the test last looked.
#[derive(Resource, Default)]
struct Played {
    copied: Vec<String>,
    reads: usize,
    offered: Vec<String>,
    primary_reads: usize,
}

fn play_the_clipboard(
    mut writes: MessageReader<WriteClipboard>,
    mut reads: MessageReader<ReadClipboard>,
    mut offers: MessageReader<WritePrimary>,
    mut primary_reads: MessageReader<ReadPrimary>,
    mut played: ResMut<Played>,
) {
    played
        .copied
        .extend(writes.read().map(|WriteClipboard(text)| text.clone()));
    played.reads += reads.read().count();
    played
        .offered
        .extend(offers.read().map(|WritePrimary(text)| text.clone()));
    played.primary_reads += primary_reads.read().count();
}

/// What the app offered as the PRIMARY selection since the last look.
pub fn offered_as_primary(app: &mut App) -> Vec<String> {
    std::mem::take(&mut app.world_mut().resource_mut::<Played>().offered)
}

/// Whether the app asked to read the PRIMARY selection since the last look.
pub fn asked_for_primary(app: &mut App) -> bool {
    std::mem::take(&mut app.world_mut().resource_mut::<Played>().primary_reads) > 0
}

/// What the app put on the clipboard since the last look.
pub fn copied(app: &mut App) -> Vec<String> {
    std::mem::take(&mut app.world_mut().resource_mut::<Played>().copied)
}

/// Whether the app asked to read the clipboard since the last look.
pub fn asked_to_read(app: &mut App) -> bool {
    std::mem::take(&mut app.world_mut().resource_mut::<Played>().reads) > 0
}

/// All the text a text entity shows: its root's and its spans', in order.
pub fn shown_text(world: &World, text: Entity) -> String {
    let mut shown = world.get::<Text>(text).unwrap().0.clone();
    for &span in world.get::<Children>(text).into_iter().flatten() {
        shown.push_str(&world.get::<TextSpan>(span).unwrap().0);
    }
    shown
}

/// The spans of a text entity drawn with a background (a selection, a find's match), in order:
/// each one's text and fill.
pub fn marked_spans(world: &World, text: Entity) -> Vec<(String, Color)> {
    let spans = world.get::<Children>(text).into_iter().flatten();
    spans
        .filter_map(|&span| {
            let fill = world.get::<TextBackgroundColor>(span)?;
            Some((world.get::<TextSpan>(span).unwrap().0.clone(), fill.0))
        })
        .collect()
}

/// The part of a text entity drawn highlighted (with a background), if any.
pub fn highlighted(world: &World, text: Entity) -> Option<String> {
    let (shown, _) = marked_spans(world, text).into_iter().next()?;
    Some(shown)
}

/// Puts the pointer at `at` (window pixels) as the window backend does, and presses or releases
/// the left button there if asked, then runs a frame.
pub fn pointer(app: &mut App, at: Vec2, press: Option<ButtonState>) {
    let world = app.world_mut();
    world
        .query_filtered::<&mut Window, With<PrimaryWindow>>()
        .single_mut(world)
        .unwrap()
        .set_cursor_position(Some(at));
    mouse(app, at, press);
}

/// The chat field's caret bar: the one in the viewport that holds the field's line.
pub fn caret_bar(app: &mut App) -> Entity {
    let line = widget_line(app);
    let world = app.world();
    let viewport = world.get::<ChildOf>(line).unwrap().parent();
    world
        .get::<Children>(viewport)
        .unwrap()
        .iter()
        .find(|&child| world.get::<CaretBar>(child).is_some())
        .expect("the field's caret bar")
}

/// Lets the least time between two announcements pass (`view/reader.rs`), without a frame: the
/// next announcement is said at once, and one that waits is said in the next frame.
pub fn after_the_gap(app: &mut App) {
    let mut clock = app.world_mut().resource_mut::<InputClock>();
    match *clock {
        InputClock::Real => std::thread::sleep(GAP),
        InputClock::Manual(_) => clock.advance(GAP),
    }
}

/// What the status nodes about `topic` say to screen readers, and how politely.
pub fn said_about(app: &mut App, topic: Topic) -> Vec<(Option<String>, Option<accesskit::Live>)> {
    let world = app.world_mut();
    world
        .query::<(&AccessibilityNode, &Topic)>()
        .iter(world)
        .filter(|(_, on)| **on == topic)
        .map(|(node, _)| (node.label().map(str::to_owned), node.live()))
        .collect()
}

/// Puts `app` on a test clock that moves by `frame` at the start of every frame and lags as
/// Bevy's does with a renderer: `Time<Real>` at a frame's start reads the moment the previous
/// frame ended (bevy_render's `send_time`), so in the first frame after a [`rest`] it still
/// reads when the rest began. The input layer's [`InputClock`] reads the moment itself.
/// Calling it again changes the frame's length.
pub fn on_a_lagging_clock(app: &mut App, frame: Duration) {
    if let Some(mut length) = app.world_mut().get_resource_mut::<FrameLength>() {
        length.0 = frame;
        return;
    }
    let start = Instant::now();
    app.insert_resource(InputClock::Manual(start))
        .insert_resource(TimeUpdateStrategy::ManualInstant(start))
        .insert_resource(FrameLength(frame))
        .add_systems(First, start_the_frame)
        .add_systems(Last, end_the_frame_as_a_renderer_does);
}

/// The window rests for `span`: no frame runs, and the clock moves on.
pub fn rest(app: &mut App, span: Duration) {
    app.world_mut().resource_mut::<InputClock>().advance(span);
}

/// How far the lagging clock moves at the start of each frame.
#[derive(Resource)]
struct FrameLength(Duration);

fn start_the_frame(mut clock: ResMut<InputClock>, length: Res<FrameLength>) {
    clock.advance(length.0);
}

/// What bevy_render's `send_time` does once a frame is drawn: the next frame's `Time<Real>`
/// reads this moment.
fn end_the_frame_as_a_renderer_does(
    clock: Res<InputClock>,
    mut strategy: ResMut<TimeUpdateStrategy>,
) {
    *strategy = TimeUpdateStrategy::ManualInstant(clock.now());
}

/// The mounted row that shows the message at `place`.
pub fn row_at(app: &mut App, place: usize) -> Entity {
    let world = app.world_mut();
    row_entities(world)
        .into_iter()
        .find(|&row| world.get::<Item>(row).unwrap().0 == place)
        .unwrap_or_else(|| panic!("message {place} has a row"))
}

/// Where the caret would stand before the laid-out text's byte `index` in the row of the message
/// at `place`, nudged `nudge` pixels into the cluster beside it, halfway down its line: in the
/// window's logical pixels, as the pointer reports them.
pub fn point(app: &mut App, place: usize, index: usize, nudge: f32) -> Vec2 {
    let row = row_at(app, place);
    let world = app.world();
    let text = text_of_row(world, row);
    let layout = world.get::<ComputedTextBlock>(text).unwrap().buffer();
    let node = world.get::<ComputedNode>(text).unwrap();
    let transform = world.get::<UiGlobalTransform>(text).unwrap();
    let caret = Cursor::from_byte_index(layout, index, Affinity::Downstream).geometry(layout, 1.0);
    let top_left = transform.transform_point2(-node.size() / 2.0);
    let at = top_left
        + Vec2::new(
            caret.x0 as f32 + nudge,
            ((caret.y0 + caret.y1) / 2.0) as f32,
        );
    at * node.inverse_scale_factor()
}

/// [`point`] at the body's byte `offset` in a row of Korean or Latin text (nothing laid out
/// beyond the label and the body).
pub fn body_point(app: &mut App, place: usize, offset: usize) -> Vec2 {
    let message = app.world().resource::<MessageLog>().entities()[place];
    let role = *app.world().get::<Role>(message).unwrap();
    let label = RoleStyle::of(role).text("").len();
    point(app, place, label + offset, 1.0)
}
