//! Opens the agent-chat window.

use agent_chat::{
    AgentChatPlugin,
    input::caret,
    theme::{Theme, ThemeChoice},
    view::zoom::ZoomLevel,
    workarounds,
};
use bevy::{
    log::LogPlugin,
    prelude::*,
    render::RenderPlugin,
    winit::{UpdateMode, WinitSettings},
};

fn main() -> AppExit {
    workarounds::explain_startup_failures();
    #[cfg(all(unix, not(target_os = "macos")))]
    if let Some(status) = workarounds::display::run_on_x11_where_wayland_is_not_there() {
        return AppExit::from_code(status.code().map_or(1, |code| code as u8));
    }
    window_app().run()
}

/// The app as the window runs it: Bevy's `DefaultPlugins`, the app's plugin and the window's
/// workarounds. `benches/weight/long_log.rs` runs this same app with a long log.
pub(crate) fn window_app() -> App {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "agent-chat".into(),
                    // X11's WM_CLASS and Wayland's app id: what ties the window to its launcher
                    // entry (`assets/desktop/agent-chat.desktop`) and its icon.
                    name: Some("agent-chat".into()),
                    ..default()
                }),
                ..default()
            })
            // A compositor that goes away is told in one line, not five errors.
            .set(LogPlugin {
                fmt_layer: log_writer,
                ..default()
            })
            // Vulkan, or OpenGL where no Vulkan driver answers: Bevy's renderer with a device
            // chosen by the app, in the place of the one Bevy would choose.
            .add_before::<RenderPlugin>(workarounds::gpu::ChooseGpu)
            .disable::<RenderPlugin>(),
    )
    .insert_resource(update_mode())
    .add_plugins((AgentChatPlugin, workarounds::plugin));
    if let Some(choice) = theme_choice() {
        app.insert_resource(choice);
    }
    if let Some(level) = zoom_level() {
        app.insert_resource(level);
    }
    app
}

/// Bevy's log writer, which on Linux says a lost display connection in one line.
fn log_writer(app: &mut App) -> Option<bevy::log::BoxedFmtLayer> {
    #[cfg(all(unix, not(target_os = "macos")))]
    return workarounds::display::log_writer(app);
    #[cfg(not(all(unix, not(target_os = "macos"))))]
    {
        let _ = app;
        None
    }
}

/// `AGENT_CHAT_ZOOM=1.5` starts at 150% (the nearest of the levels, 0.5 to 3); Ctrl+0 still
/// goes to 100%. Any other value is reported in one line and ignored.
fn zoom_level() -> Option<ZoomLevel> {
    let value = std::env::var("AGENT_CHAT_ZOOM").ok()?;
    let level = value.trim().parse().ok().and_then(ZoomLevel::nearest);
    if level.is_none() {
        eprintln!(
            "agent-chat: AGENT_CHAT_ZOOM is {value:?}; use a scale from 0.5 to 3, such as 1.5. Starting at 100%."
        );
    }
    level
}

/// `AGENT_CHAT_THEME=light` or `dark` chooses the theme over the platform's preference (X11
/// states none, so there it is the way to get the light theme). Any other value is reported in
/// one line and ignored.
fn theme_choice() -> Option<ThemeChoice> {
    let value = std::env::var("AGENT_CHAT_THEME").ok()?;
    match value.as_str() {
        "light" => Some(ThemeChoice(Theme::Light)),
        "dark" => Some(ThemeChoice(Theme::Dark)),
        _ => {
            eprintln!(
                "agent-chat: AGENT_CHAT_THEME is {value:?}; use `light` or `dark`. Following the platform's theme."
            );
            None
        }
    }
}

/// Run a frame only when something happens in the window (a key, the pointer, a resize, focus)
/// or the app asks for one, plus every half second while the input's caret blinks. Once the
/// caret rests (`input::caret`, after 10 s without input, or at once when the window loses
/// focus), the window sleeps until the next event. An idle chat window costs nothing.
///
/// Raw device events (mouse motion anywhere on the desktop) wake nothing: the app reads the
/// pointer from window events only.
///
/// `AGENT_CHAT_CONTINUOUS=1` restores Bevy's default continuous loop, to measure the difference
/// (`benches/idle-cpu.sh`).
fn update_mode() -> WinitSettings {
    if std::env::var_os("AGENT_CHAT_CONTINUOUS").is_some() {
        return WinitSettings::game();
    }
    // One mode, focused or not: `input::caret` changes its wait in both at once.
    let blinking = UpdateMode::reactive_low_power(caret::BLINK_INTERVAL);
    WinitSettings {
        focused_mode: blinking,
        unfocused_mode: blinking,
    }
}
