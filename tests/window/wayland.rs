//! On Wayland: the app native under a headless sway, typed into with `wtype` and seen with
//! `grim`; and the fall-back to X11 where `WAYLAND_DISPLAY` names no compositor.
//!
//! sway refuses to run as root, so the harness runs it as an unprivileged user it creates
//! (`agent-chat-wayland`) when the tests run as root, as CI's do; its tools and the app run as
//! the tests do, and reach its socket as root may.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    thread::sleep,
    time::{Duration, Instant},
};

use agent_chat::theme::{Palette, Theme};

use super::{APP, assert_one_exchange, assert_stops_with_one_line, screen::*, session::*};

const NEEDS: &str = "runs a headless Wayland compositor: needs sway, wtype, grim and Mesa Vulkan";

/// The user sway runs as when the tests run as root.
const USER: &str = "agent-chat-wayland";

/// A headless sway with one 1280x720 output at `scale`, and the app on it.
pub struct Wayland {
    sway: Child,
    app: Child,
    /// sway's `XDG_RUNTIME_DIR`: its socket, and the screenshots and the app's log.
    runtime: PathBuf,
    taken: usize,
    palette: &'static Palette,
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// The user to run sway as: an unprivileged one, made if it is not there, when this is root.
fn sway_user() -> Option<&'static str> {
    if !is_root() {
        return None;
    }
    let there = Command::new("id")
        .arg(USER)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !there {
        let made = Command::new("useradd")
            .args([
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                USER,
            ])
            .status()
            .unwrap_or_else(|e| panic!("useradd: {e}"));
        assert!(made.success(), "useradd {USER}");
    }
    Some(USER)
}

impl Wayland {
    pub fn start(name: &str, scale: f32) -> Self {
        let runtime = Path::new("/tmp").join(format!("agent-chat-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&runtime);
        fs::create_dir_all(&runtime).unwrap();
        let config = runtime.join("config");
        fs::write(
            &config,
            format!(
                "output * resolution 1280x720 scale {scale}\ndefault_border none\n\
                 default_floating_border none\n"
            ),
        )
        .unwrap();
        let user = sway_user();
        if let Some(user) = user {
            run_ok("chown", &["-R", user, runtime.to_str().unwrap()]);
        }
        run_ok("chmod", &["700", runtime.to_str().unwrap()]);
        let sway_log = fs::File::create(runtime.join("sway.log")).unwrap();
        let mut sway = match user {
            Some(user) => {
                let mut runuser = Command::new("runuser");
                runuser.args(["-u", user, "--", "sway", "-c"]).arg(&config);
                runuser
            }
            None => {
                let mut sway = Command::new("sway");
                sway.arg("-c").arg(&config);
                sway
            }
        };
        let sway = sway
            .env_clear()
            .env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
            .env("HOME", &runtime)
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("WLR_BACKENDS", "headless")
            .env("WLR_RENDERER", "pixman")
            .env("WLR_LIBINPUT_NO_DEVICES", "1")
            .stdout(sway_log.try_clone().unwrap())
            .stderr(sway_log)
            .spawn()
            .unwrap_or_else(|e| panic!("start sway ({NEEDS}): {e}"));
        let socket = runtime.join("wayland-1");
        let deadline = Instant::now() + Duration::from_secs(20);
        while !socket.exists() {
            assert!(
                Instant::now() < deadline,
                "sway made no socket in 20 s; its log: {}",
                fs::read_to_string(runtime.join("sway.log")).unwrap_or_default()
            );
            sleep(Duration::from_millis(100));
        }
        let app_log = fs::File::create(runtime.join("app.log")).unwrap();
        let app = Command::new(APP)
            .env_remove("DISPLAY")
            .env("WAYLAND_DISPLAY", "wayland-1")
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("RUST_LOG", "warn,agent_chat=debug")
            .stdout(app_log.try_clone().unwrap())
            .stderr(app_log)
            .spawn()
            .expect("start the app");
        let mut wayland = Self {
            sway,
            app,
            runtime,
            taken: 0,
            palette: Theme::Dark.palette(),
        };
        wayland.wait_for_window();
        wayland
    }

    /// Runs a Wayland client of the compositor's (`wtype`, `grim`, `swaymsg`); its stdout.
    pub fn client(&self, program: &str, args: &[&str]) -> String {
        let sway_ipc = fs::read_dir(&self.runtime)
            .unwrap()
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .find(|path| {
                path.file_name()
                    .is_some_and(|name| name.to_string_lossy().starts_with("sway-ipc."))
            });
        let mut command = Command::new(program);
        command
            .args(args)
            .env_remove("DISPLAY")
            .env("WAYLAND_DISPLAY", "wayland-1")
            .env("XDG_RUNTIME_DIR", &self.runtime);
        if let Some(ipc) = sway_ipc {
            command.env("SWAYSOCK", ipc);
        }
        let output = command
            .output()
            .unwrap_or_else(|e| panic!("run {program} ({NEEDS}): {e}"));
        assert!(
            output.status.success(),
            "{program} {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// The window sway manages for the app, as `swaymsg -t get_tree` describes it.
    pub fn tree(&self) -> String {
        self.client("swaymsg", &["-t", "get_tree", "-r"])
    }

    fn wait_for_window(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if self.tree().contains("\"app_id\": \"agent-chat\"") {
                // Its first frames drawn.
                sleep(Duration::from_millis(800));
                return;
            }
            if let Ok(Some(status)) = self.app.try_wait() {
                panic!("the app stopped ({status}); its log: {}", self.log());
            }
            assert!(
                Instant::now() < deadline,
                "no agent-chat window in sway's tree in 30 s; the app's log: {}",
                self.log()
            );
            sleep(Duration::from_millis(200));
        }
    }

    pub fn log(&self) -> String {
        fs::read_to_string(self.runtime.join("app.log")).unwrap_or_default()
    }

    /// Types `text` with wtype, which uploads a keymap of its own, as on-screen keyboards do.
    /// It drops the first key of a run, so a Shift leads.
    pub fn type_text(&self, text: &str) {
        self.client("wtype", &["-k", "Shift_L", "-s", "200", "-d", "80", text]);
        sleep(Duration::from_millis(300));
    }

    /// Presses a named key (`Return`) with wtype.
    pub fn key(&self, key: &str) {
        self.client("wtype", &["-k", "Shift_L", "-s", "200", "-k", key]);
        sleep(Duration::from_millis(300));
    }

    /// Presses `key` with the modifier key `modifier` held (`Control_L`), with wtype.
    pub fn chord(&self, modifier: &str, key: &str) {
        self.client(
            "wtype",
            &[
                "-k", "Shift_L", "-s", "200", "-P", modifier, "-k", key, "-p", modifier,
            ],
        );
        sleep(Duration::from_millis(300));
    }

    /// How many frames the app has drawn so far, from its log (`workarounds::repaint` says
    /// each one at debug level).
    pub fn frames(&self) -> usize {
        self.log()
            .lines()
            .filter(|line| {
                line.contains("agent_chat::workarounds::repaint") && line.contains("frame")
            })
            .count()
    }

    /// The output, as grim reads it through the compositor.
    pub fn screenshot(&mut self, label: &str) -> Shot {
        self.taken += 1;
        let ppm = self.runtime.join(format!("{:02}-{label}.ppm", self.taken));
        self.client("grim", &["-t", "ppm", ppm.to_str().unwrap()]);
        let shot = Shot::read(&ppm, self.palette);
        let kept = Path::new(env!("CARGO_TARGET_TMPDIR")).join("window-tests/wayland");
        fs::create_dir_all(&kept).unwrap();
        let png = kept.join(ppm.with_extension("png").file_name().unwrap());
        let _ = Command::new("convert").arg(&ppm).arg(&png).status();
        shot
    }

    /// Screenshots until `done` holds, for at most 20 s; the last one either way.
    pub fn wait_for(&mut self, label: &str, done: impl Fn(&Shot) -> bool) -> Shot {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let shot = self.screenshot(label);
            if done(&shot) || Instant::now() > deadline {
                return shot;
            }
            sleep(Duration::from_millis(300));
        }
    }

    /// The lines the app recorded, from its log.
    pub fn submissions(&self) -> Vec<String> {
        submissions_in(&self.log())
    }
}

impl Drop for Wayland {
    fn drop(&mut self) {
        let _ = self.app.kill();
        let _ = self.app.wait();
        let _ = Command::new("kill")
            .arg(self.sway.id().to_string())
            .status();
        let _ = self.sway.wait();
        let _ = fs::remove_dir_all(&self.runtime);
    }
}

fn run_ok(program: &str, args: &[&str]) {
    let status = Command::new(program)
        .args(args)
        .status()
        .unwrap_or_else(|e| panic!("run {program}: {e}"));
    assert!(status.success(), "{program} {args:?}");
}

#[test]
#[ignore = "runs a headless Wayland compositor: needs sway, wtype, grim and Mesa Vulkan"]
fn on_wayland_the_window_is_native_and_a_line_typed_with_wtype_is_sent_by_its_return() {
    let mut x = Wayland::start("wayland", 1.0);
    // Native: an xdg-shell window with the launcher entry's name as its app id, not XWayland.
    let tree = x.tree();
    assert!(
        tree.contains("\"shell\": \"xdg_shell\"") && !tree.contains("xwayland"),
        "the app's window is a Wayland one: {tree}"
    );
    // Korean goes through the desktop's IME (fcitx5 over text-input-v3), not tried here yet.
    let line = "typed on Wayland, sent by Return";
    x.type_text(line);
    // wtype's Return comes with a keycode of its own keymap: Enter works by what it means.
    x.key("Return");
    let shot = x.wait_for("exchange", |shot| shot.bubbles().len() == 2);
    assert_eq!(
        x.submissions(),
        [format!("{line:?}")],
        "as logged, escaped; the app's log: {}",
        x.log()
    );
    assert_one_exchange(&shot);
}

#[test]
#[ignore = "runs a headless Wayland compositor: needs sway, wtype, grim, wl-clipboard and Mesa Vulkan"]
fn on_wayland_the_clipboard_goes_both_ways_and_a_resting_window_draws_nothing() {
    let x = Wayland::start("wl_clip", 1.0);
    let line = "copied on Wayland";
    x.type_text(line);
    x.chord("Control_L", "a");
    x.chord("Control_L", "c");
    assert_eq!(
        x.client("wl-paste", &["--no-newline"]),
        line,
        "another application reads what the app copied; the app's log: {}",
        x.log()
    );
    // Another application's text, pasted over the selection and sent.
    let theirs = "pasted from another application";
    let offered = Command::new("wl-copy")
        .arg(theirs)
        .env_remove("DISPLAY")
        .env("WAYLAND_DISPLAY", "wayland-1")
        .env("XDG_RUNTIME_DIR", &x.runtime)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("run wl-copy ({NEEDS}): {e}"));
    assert!(offered.success());
    x.chord("Control_L", "a");
    x.chord("Control_L", "v");
    sleep(Duration::from_millis(500));
    x.key("Return");
    let deadline = Instant::now() + Duration::from_secs(10);
    while x.submissions().is_empty() && Instant::now() < deadline {
        sleep(Duration::from_millis(200));
    }
    assert_eq!(
        x.submissions(),
        [format!("{theirs:?}")],
        "the app's log: {}",
        x.log()
    );
    // Once the caret rests (10 s after the last key), the window draws nothing: the compositor's
    // frame callbacks are asked for only with a frame to show.
    sleep(Duration::from_secs(12));
    let resting = x.frames();
    sleep(Duration::from_secs(3));
    assert_eq!(x.frames(), resting, "frames drawn in 3 s at rest");
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn a_wayland_display_that_names_no_compositor_falls_back_to_x11_with_one_line() {
    let xvfb = Xvfb::start();
    let runtime = tempdir("fallback");
    let log = runtime.join("app.log");
    let mut app = Command::new(APP)
        .env("DISPLAY", &xvfb.display)
        .env("WAYLAND_DISPLAY", "wayland-nowhere")
        .env("XDG_RUNTIME_DIR", &runtime)
        .stdout(Stdio::null())
        .stderr(fs::File::create(&log).unwrap())
        .spawn()
        .expect("start the app");
    let deadline = Instant::now() + Duration::from_secs(30);
    let found = loop {
        let args = ["search", "--onlyvisible", "--name", "^agent-chat$"];
        match try_run("xdotool", &args, &xvfb.display) {
            Ok(out) if out.lines().next().is_some() => break true,
            _ if Instant::now() < deadline => sleep(Duration::from_millis(200)),
            _ => break false,
        }
    };
    let _ = app.kill();
    let _ = app.wait();
    let said = fs::read_to_string(&log).unwrap();
    assert!(found, "a window on X11; the app said: {said}");
    let first = said.lines().next().unwrap_or_default();
    assert_eq!(
        first,
        format!(
            "agent-chat: no Wayland compositor at WAYLAND_DISPLAY=wayland-nowhere; opening the \
             window on X11 (DISPLAY={}) instead",
            xvfb.display
        )
    );
    // With no X server either: the one line of no display at all.
    let mut alone = Command::new(APP);
    alone
        .env_remove("DISPLAY")
        .env("WAYLAND_DISPLAY", "wayland-nowhere")
        .env("XDG_RUNTIME_DIR", &runtime);
    assert_stops_with_one_line(alone, "agent-chat: no display", "xvfb-run");
    let _ = fs::remove_dir_all(&runtime);
}

/// A folder of the test's own under /tmp.
fn tempdir(name: &str) -> PathBuf {
    let dir = Path::new("/tmp").join(format!("agent-chat-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}
