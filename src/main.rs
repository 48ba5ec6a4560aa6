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
    window::{PrimaryWindow, RequestRedraw},
    winit::{UpdateMode, WinitSettings},
};
use std::time::Duration;

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
                    // Shown once its first frame is drawn (`show_the_window_once_drawn`).
                    visible: false,
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
    .add_plugins((AgentChatPlugin, workarounds::plugin))
    .add_systems(Update, show_the_window_once_drawn);
    if let Some(hold) = first_frame_hold() {
        app.add_systems(Last, hold_the_first_frame(hold));
    }
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

/// Shows the window in the frame after its first, once that frame is drawn.
///
/// The first frame can take long: with a software renderer on a busy machine, compiling the
/// pipelines took 15 s. A window shown before it was blank that long, and worse for a person
/// with a screen reader: the window had focus on screen, but AccessKit's adapter hears of focus
/// from Bevy's event loop, which ran no events until that frame was done. So Orca, told of the
/// window and the field at once, said nothing of them for 15 s. Shown once drawn, the window
/// opens with what it shows, and a reader hears it as it opens: as a Wayland window does anyway
/// (it appears with its first buffer) and as Bevy's own example (`window_settings`) does it.
fn show_the_window_once_drawn(
    mut window: Single<&mut Window, With<PrimaryWindow>>,
    mut frames: Local<u8>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    match *frames {
        // The frame after this one.
        0 => _ = redraw.write(RequestRedraw),
        1 => window.visible = true,
        _ => return,
    }
    *frames += 1;
}

/// `AGENT_CHAT_HOLD_FIRST_FRAME=5` holds the first frame back 5 seconds, after the app has set
/// up its nodes and before anything is drawn: a slow machine's first frame, for the window
/// tests to check what a person sees and a screen reader hears meanwhile. Any other value than
/// a number of seconds from 0 to 60 is reported in one line and ignored.
fn first_frame_hold() -> Option<Duration> {
    let value = std::env::var("AGENT_CHAT_HOLD_FIRST_FRAME").ok()?;
    let seconds = value
        .trim()
        .parse::<f32>()
        .ok()
        .filter(|s| (0.0..=60.0).contains(s));
    if seconds.is_none() {
        eprintln!(
            "agent-chat: AGENT_CHAT_HOLD_FIRST_FRAME is {value:?}; use a number of seconds from 0 to 60. Not holding."
        );
    }
    seconds.map(Duration::from_secs_f32)
}

/// Sleeps `hold` at the end of the first frame.
fn hold_the_first_frame(hold: Duration) -> impl FnMut(Local<bool>) {
    move |mut held: Local<bool>| {
        if !*held {
            *held = true;
            std::thread::sleep(hold);
        }
    }
}
