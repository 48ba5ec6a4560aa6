//! The Bevy floor for `benches/weight.sh`: a window with one line of text, built with exactly
//! the app's Bevy features (it is an example of this crate) and the same update mode, and
//! nothing of the app. What it costs, the app cannot cost less than; what the app costs above
//! it is the app's own share.
//!
//!   cargo run --release --example bevy-floor

use bevy::{prelude::*, winit::WinitSettings};

fn main() -> AppExit {
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "bevy-floor".into(),
                ..default()
            }),
            ..default()
        }))
        // As the app's: a frame only when something happens.
        .insert_resource(WinitSettings::desktop_app())
        .add_systems(Update, exit_on_escape)
        .add_systems(Startup, |mut commands: Commands| {
            // The app's camera draws without multisampling too (`view.rs`): the floor is what
            // Bevy itself costs, not a setting the app has already turned off.
            commands.spawn((Camera2d, Msaa::Off));
            // At the bottom, where the benchmark looks for a first frame (the app's field).
            commands.spawn((
                Text::new("one line of text"),
                Node {
                    position_type: PositionType::Absolute,
                    bottom: px(12),
                    left: px(12),
                    ..default()
                },
            ));
        })
        .run()
}

/// As the app's (spec step 8), and what lets `benches/weight/heap.sh` end it cleanly.
fn exit_on_escape(keys: Res<ButtonInput<KeyCode>>, mut exit: MessageWriter<AppExit>) {
    if keys.just_pressed(KeyCode::Escape) {
        exit.write(AppExit::Success);
    }
}
