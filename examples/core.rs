//! The design card's shape in one file you can run: `cargo run --example core`.
//!
//! A text field and a conversation, and the spec's eight steps; beyond them only the wheel,
//! which Bevy's UI leaves to the app, so that every message stays reachable:
//!
//! 1. the field is `bevy_simple_text_input`'s, with its own editing: on Enter it sends a
//!    `TextInputSubmitMessage` with its line and empties itself;
//! 2. to 5. [`chat::plugin`] records it, the very plugin the full app runs: `record_submissions`
//!    trims the line, stops at a blank one, picks one reply and appends two immutable
//!    [`ChatMessage`]s, user first, to the [`MessageLog`];
//! 6. [`spawn_rows`], below, builds each new row from its [`Role`] alone, through
//!    [`RoleStyle::of`]: label, style class, alignment and border side;
//! 7. the rows are children of a node that scrolls (Bevy's `Overflow::scroll_y`), and a new row
//!    scrolls it to the end;
//! 8. Escape sends `AppExit` (`chat::exit_on_escape`, which [`chat::plugin`] adds).
//!
//! The full app (`cargo run`) keeps this flow and replaces the field and the list; the crate's
//! tour (`cargo doc --open`) says with what, and why. The spec's tests run against both:
//! `tests/app/runtime_flow.rs` builds this file's [`plugin`] as its second app.

use agent_chat::{
    chat::{self, AppSystems, ChatMessage, MessageLog, Role, RoleStyle},
    theme::palette::Palette,
};
use bevy::{
    input::mouse::{MouseScrollUnit, MouseWheel},
    prelude::*,
};
use bevy_simple_text_input::{
    TextInput, TextInputPlaceholder, TextInputPlugin, TextInputSystem, TextInputTextColor,
    TextInputTextFont,
};

fn main() {
    // No display is one line that says what to do, not Bevy's panic (the full app's hook).
    agent_chat::workarounds::explain_startup_failures();
    App::new().add_plugins((DefaultPlugins, plugin)).run();
}

/// Everything but the window and the renderer, which `main` brings with `DefaultPlugins`; a
/// headless test adds it to `MinimalPlugins` instead.
pub fn plugin(app: &mut App) {
    app.add_plugins((TextInputPlugin, chat::plugin))
        // The chain puts a sync point between the two sets: the messages `record_submissions`
        // spawns with `Commands` exist when `spawn_rows` looks for them, in the same frame.
        .configure_sets(
            Update,
            (AppSystems::Record, AppSystems::SpawnRows)
                .chain()
                .after(TextInputSystem),
        )
        .add_systems(Startup, spawn_screen)
        .add_systems(
            Update,
            (
                spawn_rows.in_set(AppSystems::SpawnRows),
                scroll_with_the_wheel,
            ),
        );
}

/// The colours: the full app's dark palette, so both draw a role alike.
const PALETTE: Palette = Palette::DARK;

/// The text size, the full app's (`theme::FONT_SIZE`), in logical pixels.
const FONT_SIZE: f32 = 20.0;

/// The font: the app's own, which has Hangul (Bevy's default font has none, and the labels
/// are Korean).
const FONT_PATH: &str = "fonts/AgentChatHangul.ttf";

/// Marks the node the rows are mounted in.
#[derive(Component)]
pub struct Conversation;

/// The window's content: the conversation above, the field below.
fn spawn_screen(mut commands: Commands, assets: Res<AssetServer>) {
    let font = TextFont::from_font_size(FONT_SIZE).with_font(assets.load(FONT_PATH));
    commands.spawn(Camera2d);
    commands.insert_resource(ClearColor(PALETTE.window_background));
    commands.spawn((
        Node {
            width: percent(100),
            height: percent(100),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(12)),
            row_gap: px(12),
            ..default()
        },
        children![
            (
                Conversation,
                Node {
                    flex_grow: 1.0,
                    flex_direction: FlexDirection::Column,
                    row_gap: px(8),
                    overflow: Overflow::scroll_y(),
                    ..default()
                },
            ),
            (
                TextInput,
                TextInputTextFont(font.clone()),
                TextInputTextColor(TextColor(PALETTE.text)),
                TextInputPlaceholder {
                    value: "메시지 입력".into(),
                    ..default()
                },
                Node {
                    padding: UiRect::all(px(8)),
                    border: UiRect::all(px(2)),
                    ..default()
                },
                BorderColor::all(PALETTE.input_border),
                BackgroundColor(PALETTE.input_background),
            ),
        ],
    ));
    commands.insert_resource(RowFont(font));
}

/// The font rows are drawn with.
#[derive(Resource)]
pub struct RowFont(TextFont);

/// Step 6 and 7: mounts a row for each message logged since the last frame, in log order, and
/// scrolls the conversation to its end.
///
/// Rows are mounted from the log, not from a query of new messages: a query's order is not the
/// log's, and the spec wants the user's row before the agent's.
pub fn spawn_rows(
    log: Res<MessageLog>,
    messages: Query<(&ChatMessage, &Role)>,
    conversation: Single<(Entity, &mut ScrollPosition), With<Conversation>>,
    font: Res<RowFont>,
    mut mounted: Local<usize>,
    mut commands: Commands,
) {
    let new = &log.entities()[*mounted..];
    if new.is_empty() {
        return;
    }
    let (list, mut scroll) = conversation.into_inner();
    for (message, &role) in messages.iter_many(new) {
        commands.spawn((
            row(RoleStyle::of(role), message.body(), &font.0),
            ChildOf(list),
        ));
    }
    *mounted = log.len();
    // Past the end: Bevy's layout clamps it to the last row, once that row is laid out.
    scroll.y = f32::MAX;
}

/// One row: its class, and where it sits, from the role's style; a bubble with the border on
/// the role's side, and the labelled text.
fn row(style: RoleStyle, body: &str, font: &TextFont) -> impl Bundle {
    (
        style.class,
        Node {
            justify_content: style.justify,
            flex_shrink: 0.0,
            ..default()
        },
        children![(
            Node {
                max_width: percent(80),
                padding: UiRect::axes(px(12), px(8)),
                border: style.border,
                ..default()
            },
            BorderColor::all((style.border_color)(&PALETTE)),
            BackgroundColor((style.background)(&PALETTE)),
            Text::new(style.text(body)),
            font.clone(),
            TextColor(PALETTE.text),
        )],
    )
}

/// How far one notch of a wheel scrolls, in logical pixels.
const LINE_HEIGHT: f32 = 24.0;

/// The wheel scrolls the conversation: Bevy's UI keeps a scroll position, and leaves reading
/// the wheel to the app.
fn scroll_with_the_wheel(
    mut wheel: MessageReader<MouseWheel>,
    conversation: Single<(&mut ScrollPosition, &ComputedNode), With<Conversation>>,
) {
    let (mut scroll, node) = conversation.into_inner();
    let end = ((node.content_size().y - node.size().y) * node.inverse_scale_factor()).max(0.0);
    for notch in wheel.read() {
        let step = match notch.unit {
            MouseScrollUnit::Line => notch.y * LINE_HEIGHT,
            MouseScrollUnit::Pixel => notch.y,
        };
        // From where the view is: `spawn_rows` leaves the position past the end.
        scroll.y = (scroll.y.min(end) - step).clamp(0.0, end);
    }
}
