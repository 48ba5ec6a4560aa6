//! The floor under the app's idle cost: a Bevy window that shows nothing but a blinking text
//! cursor, built with the app's Bevy features and the app's update mode.
//!
//! `benches/idle-cpu.sh` measures it next to the app. Here each blink is one whole frame
//! (extract, render, present), however little changed, as in any Bevy app; the app draws only
//! what changed (`src/workarounds/repaint.rs`), so this is the bar its blinking must come under.

use std::time::Duration;

use bevy::{
    prelude::*,
    winit::{UpdateMode, WinitSettings},
};

/// The blinking bar.
#[derive(Component)]
struct Cursor;

fn main() -> AppExit {
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "blink-floor".into(),
                ..default()
            }),
            ..default()
        }))
        // The same as the app's while its caret blinks: a frame on a window event, or every
        // half second for the blink; this one blinks for ever.
        .insert_resource(WinitSettings {
            focused_mode: UpdateMode::reactive_low_power(Duration::from_millis(500)),
            unfocused_mode: UpdateMode::reactive_low_power(Duration::from_secs(24 * 60 * 60)),
        })
        .add_systems(Startup, spawn)
        .add_systems(Update, blink)
        .run()
}

fn spawn(mut commands: Commands, mut time: ResMut<Time<Virtual>>) {
    // As the app does (`input::caret`): the virtual clock keeps up with half a second between
    // frames, so every wake is a blink.
    time.set_max_delta(Duration::from_secs(1));
    commands.spawn((Camera2d, Msaa::Off));
    commands.spawn((
        Cursor,
        Node {
            margin: UiRect::all(px(24)),
            width: px(2),
            height: px(20),
            ..default()
        },
        BackgroundColor(Color::WHITE),
    ));
}

/// Shows or hides the bar every half second, as a text field's cursor does.
fn blink(
    time: Res<Time>,
    mut timer: Local<Option<Timer>>,
    mut cursor: Single<&mut Visibility, With<Cursor>>,
) {
    let timer = timer.get_or_insert_with(|| Timer::from_seconds(0.5, TimerMode::Repeating));
    if timer.tick(time.delta()).just_finished() {
        cursor.toggle_visible_hidden();
    }
}
