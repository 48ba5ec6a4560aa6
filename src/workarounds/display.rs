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

use std::{
    env,
    ffi::OsString,
    os::unix::net::UnixStream,
    path::PathBuf,
    process::{Command, ExitStatus},
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
