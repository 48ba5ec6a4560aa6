//! X11 where `WAYLAND_DISPLAY` names a compositor that is not there.
//!
//! winit 0.30 opens the window on Wayland whenever `WAYLAND_DISPLAY` (or `WAYLAND_SOCKET`) is
//! set, and on X11 only when it is not: it never falls back. A variable left over from a session
//! that ended, or copied into a terminal that now runs under X11, would then stop the app
//! although an X server is there. So before Bevy starts, the app looks for the compositor's
//! socket; if there is none and `DISPLAY` is set, it runs itself again without
//! `WAYLAND_DISPLAY`, on X11, and says so in one line. (Changing its own environment instead is
//! `unsafe` in Rust 2024.) With neither, winit's error is the one-line "no display" of
//! [`super::explain_startup_failures`].
//!
//! To choose for yourself: `WAYLAND_DISPLAY= agent-chat` runs on X11 (winit treats an empty
//! variable as unset); with `WAYLAND_DISPLAY` set, it runs on Wayland.
//!
//! Canary: `winit_takes_wayland_display_at_its_word`, which fails once winit falls back itself.
//!
//! # The compositor going away
//!
//! When the compositor ends under a running window (a session logged out, a compositor that
//! crashed), winit 0.30.13 stops its event loop with an error and bevy_winit 0.19.1 ends the app
//! with status 1, after five lines: wayland-backend's "Io error: Broken pipe" twice, winit's
//! "Error dispatching event loop", and bevy_winit's "winit event loop returned an error" and
//! "Failed to receive an app exit code! This is a bug". A lost X server is one line, Xlib's
//! "X connection to :0 broken". [`log_writer`] makes the Wayland case one line too: Bevy's log
//! writer, which says the first error of a lost connection as one line of the app's and drops
//! the errors that only follow from it. (wayland-backend writes to the log instead of stderr
//! with its `log` feature, which the app's `wayland` feature turns on.) On X11 it drops
//! arboard's error for the closed connection, which came before Xlib's line.
//!
//! Canary: `a_lost_compositor_is_five_errors_of_winit_and_bevy_winit`, which fails once
//! bevy_winit stops calling winit's error "a bug".

use std::{
    env,
    ffi::OsString,
    fmt,
    os::unix::net::UnixStream,
    path::PathBuf,
    process::{Command, ExitStatus},
    sync::atomic::{AtomicBool, Ordering},
};

use bevy::{
    log::{
        BoxedFmtLayer,
        tracing::{
            Event, Level, Metadata,
            field::{Field, Visit},
        },
        tracing_subscriber::{
            self, Layer,
            layer::{Context, Filter},
        },
    },
    prelude::*,
};

/// Runs the app again on X11 if `WAYLAND_DISPLAY` names no compositor and `DISPLAY` is set; that
/// run's exit status, or `None` where the app should go on as it is.
pub fn run_on_x11_where_wayland_is_not_there() -> Option<ExitStatus> {
    let wayland = env::var_os("WAYLAND_DISPLAY").filter(|name| !name.is_empty())?;
    let x11 = env::var_os("DISPLAY").filter(|name| !name.is_empty())?;
    // A socket handed over by the parent process (`WAYLAND_SOCKET`) is winit's to use.
    if env::var_os("WAYLAND_SOCKET").is_some_and(|fd| !fd.is_empty())
        || compositor_answers(&wayland)
    {
        return None;
    }
    eprintln!(
        "agent-chat: no Wayland compositor at WAYLAND_DISPLAY={}; opening the window on X11 \
         (DISPLAY={}) instead",
        wayland.to_string_lossy(),
        x11.to_string_lossy()
    );
    let this = env::current_exe().ok()?;
    Command::new(this)
        .args(env::args_os().skip(1))
        .env_remove("WAYLAND_DISPLAY")
        .status()
        .ok()
}

/// Whether a compositor listens at the socket `name` names: a path, or a name in
/// `XDG_RUNTIME_DIR`, as libwayland reads it.
fn compositor_answers(name: &OsString) -> bool {
    let path = PathBuf::from(name);
    let path = if path.is_absolute() {
        path
    } else {
        match env::var_os("XDG_RUNTIME_DIR") {
            Some(dir) => PathBuf::from(dir).join(path),
            None => return false,
        }
    };
    UnixStream::connect(path).is_ok()
}

/// Bevy's log writer (formatted lines on stderr), but that a display connection lost is told in
/// one line: for `LogPlugin::fmt_layer`.
pub fn log_writer(_: &mut App) -> Option<BoxedFmtLayer> {
    Some(Box::new(
        tracing_subscriber::fmt::Layer::default()
            .with_writer(std::io::stderr)
            .with_filter(OneLineForALostDisplay),
    ))
}

/// Set once the connection to the compositor is gone and that is said.
static GONE: AtomicBool = AtomicBool::new(false);

/// Lets every event through but the errors that tell of a lost display connection; says the
/// first of them in one line of its own.
struct OneLineForALostDisplay;

impl<S> Filter<S> for OneLineForALostDisplay {
    fn enabled(&self, _: &Metadata<'_>, _: &Context<'_, S>) -> bool {
        true
    }

    fn event_enabled(&self, event: &Event<'_>, _: &Context<'_, S>) -> bool {
        if *event.metadata().level() != Level::ERROR {
            return true;
        }
        let said = Said::of(event);
        match what_it_tells(&said.target, &said.message) {
            Lost::Wayland => {
                if !GONE.swap(true, Ordering::Relaxed) {
                    let display = env::var("WAYLAND_DISPLAY").unwrap_or_default();
                    eprintln!(
                        "agent-chat: the Wayland compositor (WAYLAND_DISPLAY={display}) closed \
                         the connection, and the window with it ({})",
                        said.message
                    );
                }
                false
            }
            Lost::X11 => false,
            Lost::Nothing => {
                !(GONE.load(Ordering::Relaxed) && said.target.starts_with("bevy_winit"))
            }
        }
    }
}

/// What an error says of the display connection.
#[derive(Debug, PartialEq, Eq)]
enum Lost {
    /// The compositor's connection is gone: wayland-backend's first error says why, and
    /// winit's event loop stops on it.
    Wayland,
    /// The X server's connection is gone; Xlib says so in a line of its own.
    X11,
    Nothing,
}

/// What the error `message` logged by `target` tells of the display connection.
fn what_it_tells(target: &str, message: &str) -> Lost {
    if target.starts_with("wayland_backend")
        || target.starts_with("winit::platform_impl::linux::wayland")
            && message.starts_with("Error dispatching event loop")
    {
        Lost::Wayland
    } else if target.starts_with("arboard") && message.contains("server closed the connection") {
        Lost::X11
    } else {
        Lost::Nothing
    }
}

/// An event's target and message; for a record of the `log` crate, its own target.
#[derive(Default)]
struct Said {
    target: String,
    message: String,
}

impl Said {
    fn of(event: &Event<'_>) -> Self {
        let mut said = Self::default();
        event.record(&mut said);
        if said.target.is_empty() {
            event.metadata().target().clone_into(&mut said.target);
        }
        said
    }
}

impl Visit for Said {
    fn record_str(&mut self, field: &Field, value: &str) {
        match field.name() {
            "message" => value.clone_into(&mut self.message),
            "log.target" => value.clone_into(&mut self.target),
            _ => {}
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        match field.name() {
            "message" => self.message = format!("{value:?}"),
            "log.target" => self.target = format!("{value:?}"),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_errors_of_a_lost_display_are_known_by_who_says_them() {
        let wayland = [
            (
                "wayland_backend::rs::client_impl",
                "Io error: Broken pipe (os error 32)",
            ),
            (
                "winit::platform_impl::linux::wayland::event_loop",
                "Error dispatching event loop: other error during loop operation",
            ),
        ];
        for (target, message) in wayland {
            assert_eq!(what_it_tells(target, message), Lost::Wayland, "{target}");
        }
        assert_eq!(
            what_it_tells(
                "arboard::platform::linux::x11",
                "Worker thread errored with: Unknown error while interacting with the \
                 clipboard: The X11 server closed the connection"
            ),
            Lost::X11
        );
        // Other errors of the same crates are said as they are.
        for (target, message) in [
            (
                "winit::platform_impl::linux::wayland::seat",
                "Error dispatching",
            ),
            (
                "arboard::platform::linux::x11",
                "Worker thread errored with: timeout",
            ),
            ("bevy_winit::state", "winit event loop returned an error"),
        ] {
            assert_eq!(what_it_tells(target, message), Lost::Nothing, "{target}");
        }
    }
}
