//! On Wayland: the app native under a headless sway, typed into with `wtype` (and through
//! fcitx5-hangul, the desktop's IME there) and seen with `grim`, beside the desktop portal for
//! the light or dark preference; under a headless weston, which draws no title bar, as GNOME;
//! under a headless KWin at 125% and 150%, which sway 1.7 cannot scale by; and the fall-back to
//! X11 where `WAYLAND_DISPLAY` names no compositor. What they need (`.ci/run` installs it):
//!
//! ```sh
//! apt-get install --no-install-recommends sway wtype grim wl-clipboard fcitx5 fcitx5-modules \
//!     fcitx5-hangul xdg-desktop-portal xdg-desktop-portal-gtk gsettings-desktop-schemas \
//!     weston kwin-wayland python3-dbus
//! ```
//!
//! sway refuses to run as root, so the harness runs it as an unprivileged user it creates
//! (`agent-chat-wayland`) when the tests run as root, as CI's do; its tools and the app run as
//! the tests do, and reach its socket as root may.

use std::{
    fs,
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    sync::PoisonError,
    thread::sleep,
    time::{Duration, Instant},
};

use agent_chat::{
    chat::REPLIES,
    theme::{Palette, Theme},
};
use wayland_client::{
    Connection, Dispatch, EventQueue, QueueHandle, delegate_noop,
    globals::{GlobalListContents, registry_queue_init},
    protocol::{wl_pointer::ButtonState, wl_registry::WlRegistry},
};
use wayland_protocols_wlr::virtual_pointer::v1::client::{
    zwlr_virtual_pointer_manager_v1::ZwlrVirtualPointerManagerV1,
    zwlr_virtual_pointer_v1::ZwlrVirtualPointerV1,
};

use super::{APP, assert_one_exchange, assert_stops_with_one_line, screen::*, session::*};

const NEEDS: &str = "runs a headless Wayland compositor: needs sway, wtype, grim and Mesa Vulkan";

/// The user sway runs as when the tests run as root.
const USER: &str = "agent-chat-wayland";

/// What runs on the desktop beside sway and the app.
#[derive(Default, Clone, Copy)]
pub struct Desktop {
    /// fcitx5-hangul as the IME: every field starts in Hangul, and the app reaches it over
    /// text-input-v3. The app's Wayland messages are logged then too (`WAYLAND_DEBUG`), for
    /// where it says the caret is.
    pub korean: bool,
    /// The XDG desktop portal, with GTK's backend as GNOME has it, on a session bus the app is
    /// on; GNOME's `color-scheme` set to this before the app starts (in a settings file of the
    /// test's own, not the machine's).
    pub color_scheme: Option<&'static str>,
    /// Orca, on the accessibility bus of a session bus the app is on, started before the app
    /// as a session's autostart starts it.
    pub screen_reader: bool,
    /// With the portal: a handler of links of the test's own where the portal's GLib finds it
    /// ([`write_link_handler`]), writing each address it is given to `opened.txt` in the
    /// runtime folder. The app's own folders have none: only the portal can open a link.
    pub links: bool,
}

/// A headless sway with one 1280x720 output at `scale`, and the app on it.
pub struct Wayland {
    sway: Child,
    app: Child,
    /// sway's `XDG_RUNTIME_DIR`: its socket, and the screenshots and the app's log.
    runtime: PathBuf,
    taken: usize,
    palette: &'static Palette,
    /// fcitx5 and the session bus it needs, when the desktop's IME was asked for.
    _ime: Option<(Ended, Ended)>,
    /// The desktop portal's session bus, when it was asked for.
    portal: Option<Portal>,
    /// Orca, the accessibility bus and their session bus, when a screen reader was asked for,
    /// and the X server Orca reads the keyboard's map from; dropped in this order.
    pub reader: Option<(Orca, AtSpi, SessionBus, Xvfb)>,
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
        Self::start_with(name, scale, Desktop::default())
    }

    /// [`Self::start`], with more of a desktop beside the app.
    pub fn start_with(name: &str, scale: f32, desktop: Desktop) -> Self {
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
        wait_for_socket(
            &runtime.join("wayland-1"),
            "sway",
            20,
            Some(&runtime.join("sway.log")),
        );
        let ime = desktop.korean.then(|| start_fcitx5(&runtime));
        let portal = desktop
            .color_scheme
            .map(|scheme| Portal::start(&runtime, scheme));
        if let Some(portal) = portal.as_ref().filter(|_| desktop.links) {
            // Where GLib looks with the portal's `HOME` and `XDG_CONFIG_HOME`.
            let data = portal.folder.join(".local/share");
            let opened = runtime.join("opened.txt");
            write_link_handler(&data, &portal.folder.join("config"), &opened);
        }
        let reader = desktop.screen_reader.then(|| {
            // Kept after the test, as the X11 tests keep theirs: Orca's speech and debug file.
            let home = Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join("window-tests")
                .join(name);
            let _ = fs::remove_dir_all(&home);
            fs::create_dir_all(&home).unwrap();
            let socket = runtime.join("wayland-1");
            // Orca 43 reads the keyboard's map from an X server (`xkbcomp $DISPLAY`), which a
            // GNOME session on Wayland gives it in XWayland; here an Xvfb plays that part.
            let xwayland = Xvfb::start();
            let display = [
                ("WAYLAND_DISPLAY", socket.to_str().unwrap()),
                ("DISPLAY", xwayland.display.as_str()),
            ];
            let bus = SessionBus::start(&home);
            let at_spi = AtSpi::start(&display, &bus, &home);
            let orca = Orca::start(Reader::Orca43, &display, &bus, &home.join("orca"));
            (orca, at_spi, bus, xwayland)
        });
        assert!(
            portal.is_none() || reader.is_none(),
            "the app is on one session bus"
        );
        let app_log = fs::File::create(runtime.join("app.log")).unwrap();
        let mut app = Command::new(APP);
        if desktop.korean {
            app.env("WAYLAND_DEBUG", "1");
        }
        match &portal {
            Some(portal) => app.env("DBUS_SESSION_BUS_ADDRESS", &portal.address),
            // Dark, as the screenshots are read, whatever the machine's own desktop prefers.
            None => app.env("AGENT_CHAT_THEME", "dark"),
        };
        if let Some((_, _, bus, _)) = &reader {
            app.env("DBUS_SESSION_BUS_ADDRESS", &bus.address);
        }
        let app = app
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
            _ime: ime,
            portal,
            reader,
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

    /// A pointer on sway's seat, to click with.
    pub fn pointer(&self) -> Pointer {
        Pointer::new(&self.runtime.join("wayland-1"))
    }

    /// What fcitx5 said, when it runs.
    pub fn ime_log(&self) -> String {
        fs::read_to_string(self.runtime.join("fcitx5.log")).unwrap_or_default()
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
        keep(&ppm, &format!("{:02}-{label}.png", self.taken));
        Shot::read(&ppm, self.palette)
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

    /// The lines the app recorded, once it recorded one, or after 10 s.
    pub fn submissions_once_sent(&self) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.submissions().is_empty() && Instant::now() < deadline {
            sleep(Duration::from_millis(200));
        }
        self.submissions()
    }

    /// Offers text as another application does, with `wl-copy` and its `args` (`--primary`
    /// for the PRIMARY selection). wl-copy leaves a process behind to serve the text, holding
    /// the output it was given, so its output goes nowhere rather than to [`Self::client`].
    pub fn offer(&self, args: &[&str]) {
        let offered = Command::new("wl-copy")
            .args(args)
            .env_remove("DISPLAY")
            .env("WAYLAND_DISPLAY", "wayland-1")
            .env("XDG_RUNTIME_DIR", &self.runtime)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap_or_else(|e| panic!("run wl-copy ({NEEDS}): {e}"));
        assert!(offered.success(), "wl-copy {args:?}");
    }

    /// The composition underlined in `composing` (its row, first and last column), checked to be
    /// where the app last told the compositor its caret is: at the composition's end, on its
    /// line, where the IME's candidate window goes.
    pub fn composition_with_the_caret_at_its_end(&self, composing: &Shot) -> (usize, usize, usize) {
        let Some((row, first, last)) = composing.input_underline() else {
            panic!(
                "{}: the composed syllable is underlined; fcitx5's log: {}",
                composing.name(),
                self.ime_log()
            );
        };
        let [caret_x, caret_y, _, height] = self
            .cursor_rectangle()
            .expect("the app told the compositor where its caret is");
        assert!(
            caret_x.abs_diff(last as i32) <= 4
                && (caret_y - 20..=caret_y + height).contains(&(row as i32)),
            "{}: the caret's rectangle ({caret_x}, {caret_y}, height {height}) is at the \
             composition's end ({last}, row {row})",
            composing.name()
        );
        (row, first, last)
    }

    /// Where the app last told the compositor its caret is, for the IME's candidate window
    /// (`set_cursor_rectangle` of text-input-v3, as `WAYLAND_DEBUG` logs it): x, y, width and
    /// height in the window's logical pixels.
    pub fn cursor_rectangle(&self) -> Option<[i32; 4]> {
        let log = self.log();
        let (_, after) = log.rsplit_once(".set_cursor_rectangle(")?;
        let numbers = after.split_once(')')?.0;
        let numbers: Vec<i32> = numbers
            .split(',')
            .map(|n| n.trim().parse().ok())
            .collect::<Option<_>>()?;
        numbers.try_into().ok()
    }
}

/// A pointer device of the test's own on sway's seat (wlr-virtual-pointer): the headless
/// backend has none, and `swaymsg seat - cursor` moves nothing that a client is told of without
/// one.
pub struct Pointer {
    connection: Connection,
    queue: EventQueue<Nobody>,
    pointer: ZwlrVirtualPointerV1,
    /// Milliseconds, for the events' timestamps.
    time: u32,
}

/// Hears nothing: the virtual pointer's objects have no events.
struct Nobody;

impl Dispatch<WlRegistry, GlobalListContents> for Nobody {
    fn event(
        _: &mut Self,
        _: &WlRegistry,
        _: <WlRegistry as wayland_client::Proxy>::Event,
        _: &GlobalListContents,
        _: &Connection,
        _: &QueueHandle<Self>,
    ) {
    }
}

delegate_noop!(Nobody: ZwlrVirtualPointerManagerV1);
delegate_noop!(Nobody: ZwlrVirtualPointerV1);

/// evdev's code of the middle button.
const BTN_MIDDLE: u32 = 0x112;

impl Pointer {
    fn new(socket: &Path) -> Self {
        let stream = std::os::unix::net::UnixStream::connect(socket)
            .unwrap_or_else(|e| panic!("connect to {}: {e}", socket.display()));
        let connection = Connection::from_socket(stream).expect("a Wayland connection");
        let (globals, mut queue) =
            registry_queue_init::<Nobody>(&connection).expect("the compositor's globals");
        let manager: ZwlrVirtualPointerManagerV1 = globals
            .bind(&queue.handle(), 1..=2, ())
            .expect("the compositor offers wlr-virtual-pointer");
        let pointer = manager.create_virtual_pointer(None, &queue.handle(), ());
        queue
            .roundtrip(&mut Nobody)
            .expect("the virtual pointer made");
        Self {
            connection,
            queue,
            pointer,
            time: 0,
        }
    }

    /// Clicks `button` (an evdev code) at (`x`, `y`) of the 1280x720 output.
    pub fn click(&mut self, x: u32, y: u32, button: u32) {
        self.time += 100;
        self.pointer.motion_absolute(self.time, x, y, 1280, 720);
        self.pointer.frame();
        self.queue.roundtrip(&mut Nobody).expect("the motion sent");
        // The window hears of the pointer (a new device's `wl_pointer`, then its `enter`) before
        // the button.
        sleep(Duration::from_millis(300));
        for state in [ButtonState::Pressed, ButtonState::Released] {
            self.time += 50;
            self.pointer.button(self.time, button, state);
            self.pointer.frame();
        }
        self.queue.roundtrip(&mut Nobody).expect("the clicks sent");
        let _ = self.connection.flush();
        sleep(Duration::from_millis(300));
    }
}

impl Drop for Wayland {
    fn drop(&mut self) {
        let _ = self.app.kill();
        let _ = self.app.wait();
        // Its document portal's mount is gone with it, before the folder it is in.
        drop(self.portal.take());
        drop(self.reader.take());
        let _ = Command::new("kill")
            .arg(self.sway.id().to_string())
            .status();
        let _ = self.sway.wait();
        let _ = fs::remove_dir_all(&self.runtime);
    }
}

/// The XDG desktop portal on a session bus of its own, as a GNOME session has it: the portal
/// and its GTK backend, started by the bus when the app first asks, reading GNOME's settings
/// from a keyfile under the test's folder (`GSETTINGS_BACKEND=keyfile`), never the machine's.
pub struct Portal {
    bus: Stopped,
    /// The bus's address, for the app.
    address: String,
    /// The bus's runtime folder (where the document portal mounts itself) and its settings.
    folder: PathBuf,
}

impl Portal {
    fn start(runtime: &Path, color_scheme: &str) -> Self {
        let folder = runtime.join("portal");
        fs::create_dir_all(folder.join("config")).unwrap();
        run_ok("chmod", &["700", folder.to_str().unwrap()]);
        let mut daemon = Command::new("dbus-daemon");
        daemon
            .env_clear()
            .env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
            .env("HOME", &folder)
            .env("XDG_RUNTIME_DIR", &folder)
            // The backend is a GTK program: it needs a display, and finds sway's by its path.
            .env("WAYLAND_DISPLAY", runtime.join("wayland-1"))
            .env("XDG_CURRENT_DESKTOP", "GNOME")
            .env("GSETTINGS_BACKEND", "keyfile")
            .env("XDG_CONFIG_HOME", folder.join("config"));
        let (bus, address) = start_bus(daemon, &folder);
        let portal = Self {
            bus: Stopped(bus),
            address,
            folder,
        };
        portal.set_color_scheme(color_scheme);
        portal
    }

    /// Sets GNOME's `color-scheme` (`default`, `prefer-dark`, `prefer-light`), as its settings
    /// panel does; the GTK backend tells the portal, which signals `SettingChanged`.
    pub fn set_color_scheme(&self, scheme: &str) {
        let status = Command::new("gsettings")
            .args(["set", "org.gnome.desktop.interface", "color-scheme", scheme])
            .env("GSETTINGS_BACKEND", "keyfile")
            .env("XDG_CONFIG_HOME", self.folder.join("config"))
            .env("DBUS_SESSION_BUS_ADDRESS", &self.address)
            .status()
            .unwrap_or_else(|e| panic!("run gsettings (needs libglib2.0-bin): {e}"));
        assert!(status.success(), "gsettings set color-scheme {scheme}");
    }
}

impl Drop for Portal {
    fn drop(&mut self) {
        let _ = self.bus.0.kill();
        let _ = self.bus.0.wait();
        // The document portal leaves with its bus and takes its mount along; in case it lags.
        let _ = Command::new("fusermount3")
            .args(["-u", "-z"])
            .arg(self.folder.join("doc"))
            .stderr(Stdio::null())
            .status();
    }
}

/// fcitx5 with its Hangul engine as sway's input method, and the session bus it needs, both as
/// sway's user (a session bus lets in its own user only). Hangul is on in every new input
/// context (`fcitx5-remote -o` would race the field's focus), and no key alone switches it off:
/// fcitx5's default is that a lone Left Shift does, and wtype leads with one.
fn start_fcitx5(runtime: &Path) -> (Ended, Ended) {
    let config = runtime.join("xdg-config/fcitx5");
    fs::create_dir_all(&config).unwrap();
    fs::write(
        config.join("profile"),
        "[Groups/0]\nName=Default\nDefault Layout=us\nDefaultIM=hangul\n\n\
         [Groups/0/Items/0]\nName=keyboard-us\nLayout=\n\n\
         [Groups/0/Items/1]\nName=hangul\nLayout=\n\n[GroupOrder]\n0=Default\n",
    )
    .unwrap();
    fs::write(
        config.join("config"),
        "[Hotkey/AltTriggerKeys]\n\n[Behavior]\nActiveByDefault=True\nShareInputState=All\n",
    )
    .unwrap();
    let user = sway_user();
    if let Some(user) = user {
        run_ok("chown", &["-R", user, runtime.to_str().unwrap()]);
    }
    let as_user = |program: &str| match user {
        Some(user) => {
            let mut command = Command::new("runuser");
            command.args(["-u", user, "--", program]);
            command
        }
        None => Command::new(program),
    };
    let mut daemon = as_user("dbus-daemon");
    daemon.env("XDG_RUNTIME_DIR", runtime).env("HOME", runtime);
    let (bus, bus_address) = start_bus(daemon, runtime);
    let bus = Ended(bus);
    let log = fs::File::create(runtime.join("fcitx5.log")).unwrap();
    let fcitx5 = as_user("fcitx5")
        .args([
            "--disable=xim,ibusfrontend,fcitx4frontend,kimpanel,notificationitem",
            "-r",
        ])
        .env_clear()
        .env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
        .env("WAYLAND_DISPLAY", "wayland-1")
        .env("XDG_RUNTIME_DIR", runtime)
        .env("HOME", runtime)
        .env("XDG_CONFIG_HOME", runtime.join("xdg-config"))
        .env("DBUS_SESSION_BUS_ADDRESS", &bus_address)
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap_or_else(|e| panic!("start fcitx5 (needs fcitx5 and fcitx5-hangul): {e}"));
    let fcitx5 = Ended(fcitx5);
    // Up, with its Hangul engine loaded and its input method bound, before the app asks for one.
    let deadline = Instant::now() + Duration::from_secs(20);
    while !fs::read_to_string(runtime.join("fcitx5.log"))
        .unwrap_or_default()
        .contains("Loaded addon hangul")
    {
        assert!(
            Instant::now() < deadline,
            "fcitx5 loaded no Hangul engine in 20 s; its log: {}",
            fs::read_to_string(runtime.join("fcitx5.log")).unwrap_or_default()
        );
        sleep(Duration::from_millis(100));
    }
    (fcitx5, bus)
}

/// Starts `daemon`, a `dbus-daemon` command whose environment is the one the services it starts
/// get, as a session bus listening in `folder`; the process and its address, once it listens.
fn start_bus(mut daemon: Command, folder: &Path) -> (Child, String) {
    let socket = folder.join("bus");
    let address = format!("unix:path={}", socket.display());
    let bus = daemon
        .args(["--session", "--nofork", "--address", &address])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("start dbus-daemon: {e}"));
    wait_for_socket(&socket, "dbus-daemon", 10, None);
    (bus, address)
}

/// Waits for `who` to make `socket`, for at most `seconds`; fails with its `log`, where it has
/// one, if it does not.
fn wait_for_socket(socket: &Path, who: &str, seconds: u64, log: Option<&Path>) {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while !socket.exists() {
        assert!(
            Instant::now() < deadline,
            "{who} made no socket in {seconds} s; its log: {}",
            log.and_then(|log| fs::read_to_string(log).ok())
                .unwrap_or_default()
        );
        sleep(Duration::from_millis(50));
    }
}

/// A process ended with SIGTERM when dropped: `runuser` passes that on to the program it runs
/// as sway's user, where a SIGKILL would end `runuser` alone and leave the program running.
pub struct Ended(Child);

impl Drop for Ended {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg(self.0.id().to_string()).status();
        let _ = self.0.wait();
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
#[ignore = "runs a headless Wayland compositor and types through fcitx5-hangul: needs sway, wtype, grim, fcitx5, fcitx5-modules, fcitx5-hangul, dbus-daemon and Mesa Vulkan"]
fn on_wayland_korean_through_fcitx5_hangul_is_composed_at_the_caret_and_enter_sends_it_whole() {
    let mut x = Wayland::start_with(
        "wl_korean",
        1.0,
        Desktop {
            korean: true,
            ..Desktop::default()
        },
    );
    // The two-set keys of 안녕하세요, and a Backspace while 요 is composed: it takes the vowel
    // off in the IME, and y puts it back. Enter comes right after the last syllable.
    x.type_text("dkssudgktpdy");
    x.key("BackSpace");
    x.type_text("y");
    let composing = x.screenshot("composing");
    // 요 is still composed: underlined in the field, at the end of the line.
    let (row, first, last) = x.composition_with_the_caret_at_its_end(&composing);
    let end = composing.input_ink_end().unwrap();
    assert!(
        end.abs_diff(last) <= 3 && last - first < 30,
        "{}: one syllable underlined, the last ({first}..={last} on row {row}, ink to {end})",
        composing.name()
    );
    x.key("Return");
    let shot = x.wait_for("exchange", |shot| shot.bubbles().len() == 2);
    assert_eq!(
        x.submissions(),
        [format!("{:?}", "안녕하세요")],
        "{}: the whole line, its last syllable too, sent by one Enter; fcitx5's log: {}",
        shot.name(),
        x.ime_log()
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
    x.offer(&[theirs]);
    x.chord("Control_L", "a");
    x.chord("Control_L", "v");
    sleep(Duration::from_millis(500));
    x.key("Return");
    assert_eq!(
        x.submissions_once_sent(),
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
#[ignore = "runs a headless Wayland compositor: needs sway, wtype, grim, wl-clipboard and Mesa Vulkan"]
fn on_wayland_a_selection_is_offered_as_primary_and_a_middle_click_pastes_primary() {
    let x = Wayland::start("wl_primary", 1.0);
    let line = "selected in the app";
    x.type_text(line);
    // Selecting is enough: no copy.
    x.chord("Control_L", "a");
    assert_eq!(
        x.client("wl-paste", &["--primary", "--no-newline"]),
        line,
        "another application's middle click reads the app's selection; the app's log: {}",
        x.log()
    );
    // Another application's selection, pasted by a middle click at the end of the line.
    let theirs = ", and in another";
    x.offer(&["--primary", theirs]);
    x.key("End");
    let mut pointer = x.pointer();
    sleep(Duration::from_millis(300));
    pointer.click(1000, 684, BTN_MIDDLE);
    sleep(Duration::from_millis(500));
    x.key("Return");
    assert_eq!(
        x.submissions_once_sent(),
        [format!("{:?}", format!("{line}{theirs}"))],
        "the app's log: {}",
        x.log()
    );
}

#[test]
#[ignore = "runs a headless Wayland compositor and the desktop portal: needs sway, grim, Mesa Vulkan, dbus-daemon, xdg-desktop-portal, xdg-desktop-portal-gtk, gsettings-desktop-schemas and libglib2.0-bin"]
fn on_wayland_the_window_follows_the_desktops_light_or_dark_preference() {
    let mut x = Wayland::start_with(
        "wl_theme",
        1.0,
        Desktop {
            color_scheme: Some("prefer-light"),
            ..Desktop::default()
        },
    );
    let background = |palette: &Palette| rgb(palette.window_background);
    // Well away from the rows and the field: the window's own fill.
    let fill = |shot: &Shot| shot.px(640, 200);
    x.palette = Theme::Light.palette();
    let light = x.wait_for("light", |shot| fill(shot) == background(&Palette::LIGHT));
    assert_eq!(
        fill(&light),
        background(&Palette::LIGHT),
        "{}: GNOME prefers light, so the window starts light; the app's log: {}",
        light.name(),
        x.log()
    );
    // The user switches: the window follows at once, with no restart.
    x.portal.as_ref().unwrap().set_color_scheme("prefer-dark");
    x.palette = Theme::Dark.palette();
    let dark = x.wait_for("dark", |shot| fill(shot) == background(&Palette::DARK));
    assert_eq!(
        fill(&dark),
        background(&Palette::DARK),
        "{}: switched to dark",
        dark.name()
    );
    // The field too, not only the fill.
    assert!(
        dark.input_bar().is_some(),
        "{}: the field's border in the dark palette",
        dark.name()
    );
}

/// The evdev code of the left button.
const BTN_LEFT: u32 = 0x110;

#[test]
#[ignore = "runs a headless Wayland compositor and the desktop portal: needs sway, grim, Mesa Vulkan, dbus-daemon, xdg-desktop-portal, xdg-desktop-portal-gtk, gsettings-desktop-schemas and libglib2.0-bin"]
fn on_wayland_a_click_on_a_link_opens_it_through_the_desktop_portal() {
    let mut x = Wayland::start_with(
        "wl_link",
        1.0,
        Desktop {
            color_scheme: Some("prefer-dark"),
            links: true,
            ..Desktop::default()
        },
    );
    let address = "https://portal.example/path?x=1";
    x.type_text(&format!("see {address} now"));
    x.key("Return");
    let link = rgb(x.palette.link);
    let shot = x.wait_for("sent", |shot| {
        super::links::sent_link_underline(shot, link).is_some()
    });
    let (y, first, last) = super::links::sent_link_underline(&shot, link)
        .unwrap_or_else(|| panic!("{}: the link is underlined", shot.name()));
    let mut pointer = x.pointer();
    sleep(Duration::from_millis(300));
    pointer.click(((first + last) / 2) as u32, (y - 6) as u32, BTN_LEFT);
    assert_eq!(
        super::links::opened_once_settled_in(&x.runtime.join("opened.txt")),
        [address],
        "the portal's handler got the address once; the app's log: {}",
        x.log()
    );
    assert!(
        x.log().contains("through the desktop portal"),
        "the app's log: {}",
        x.log()
    );
}

#[test]
#[ignore = "runs a headless Wayland compositor and Orca: needs sway, wtype, grim, Mesa Vulkan, orca, speech-dispatcher, at-spi2-core and dbus-daemon"]
fn on_wayland_orca_hears_the_field_and_the_reply() {
    // One Orca at a time: it refuses to start beside another.
    let _turn = ORCA.lock().unwrap_or_else(PoisonError::into_inner);
    let x = Wayland::start_with(
        "wl_orca",
        1.0,
        Desktop {
            screen_reader: true,
            ..Desktop::default()
        },
    );
    // The bridge is D-Bus's, not the display's: Orca finds the window and its field, and speaks
    // the reply as it arrives, as on X11. The headless compositor has no keyboard until wtype
    // brings one, so the window has the keyboard's focus, and Orca hears of it, from the first key.
    let orca = &x.reader.as_ref().unwrap().0;
    x.type_text("hello from Wayland");
    let said = orca.heard_since(0, "메시지 입력", Duration::from_secs(20));
    assert!(
        said.contains("agent-chat frame") && said.contains("메시지 입력 entry"),
        "Orca speaks the window and its focused field; it said {said:?}"
    );
    let from = orca.spoken().len();
    x.key("Return");
    let said = orca.heard_since(from, "에이전트", Duration::from_secs(20));
    // The speech module echoes each sentence on a line of its own.
    let reply = REPLIES
        .iter()
        .find(|reply| said.replace("\n ", " ").contains(*reply));
    assert!(
        said.contains("에이전트") && reply.is_some(),
        "Orca speaks the agent's reply; it said {said:?}"
    );
}

#[test]
#[ignore = "runs a headless Wayland compositor: needs sway, wtype, grim and Mesa Vulkan"]
fn the_compositor_going_away_ends_the_app_with_one_line() {
    let mut x = Wayland::start("wl_gone", 1.0);
    let before = x.log().lines().count();
    let _ = Command::new("kill").arg(x.sway.id().to_string()).status();
    let Some(status) = wait_for_exit(&mut x.app, Duration::from_secs(20)) else {
        panic!(
            "the app still runs 20 s after its compositor went; its log: {}",
            x.log()
        );
    };
    let log = x.log();
    let said = said_since(&log, before);
    assert_eq!(status.code(), Some(1), "the app's log: {log}");
    let [line] = said[..] else {
        panic!("one line, not {}: {said:#?}", said.len());
    };
    assert!(
        line.starts_with(
            "agent-chat: the Wayland compositor (WAYLAND_DISPLAY=wayland-1) closed the \
             connection, and the window with it ("
        ),
        "{line}"
    );
}

#[test]
#[ignore = "runs a headless Wayland compositor: needs weston, ImageMagick and Mesa Vulkan"]
fn where_the_compositor_draws_no_title_bar_the_window_wears_one_in_its_theme() {
    // weston, as GNOME, leaves decorations to the window (it has no xdg-decoration); sway draws
    // its own. Its headless output is drawn with pixman, and `--debug` lets its screenshooter in.
    let runtime = tempdir("weston");
    run_ok("chmod", &["700", runtime.to_str().unwrap()]);
    let weston = Command::new("weston")
        .args([
            "--backend=headless-backend.so",
            "--use-pixman",
            "--width=1600",
            "--height=1000",
            "--debug",
            "--socket=wayland-w",
            "--no-config",
            "--idle-time=0",
        ])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_RUNTIME_DIR", &runtime)
        .stdout(Stdio::null())
        .stderr(fs::File::create(runtime.join("weston.log")).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("start weston (needs weston): {e}"));
    let weston = Stopped(weston);
    wait_for_socket(&runtime.join("wayland-w"), "weston", 20, None);
    for theme in [Theme::Dark, Theme::Light] {
        let name = format!("{theme:?}").to_lowercase();
        let app = Command::new(APP)
            .env_remove("DISPLAY")
            .env("WAYLAND_DISPLAY", "wayland-w")
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("AGENT_CHAT_THEME", &name)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the app");
        let _app = Stopped(app);
        let palette = theme.palette();
        let fill = rgb(palette.window_background);
        // The app's content: the rows where its fill runs for hundreds of pixels.
        let deadline = Instant::now() + Duration::from_secs(30);
        let (shot, top, left, right) = loop {
            let shot = weston_screenshot(&runtime, &name, palette);
            let filled = |y: usize| (0..shot.width).filter(|&x| shot.px(x, y) == fill).count();
            if let Some(top) = (0..shot.height).find(|&y| filled(y) > 600) {
                let row: Vec<usize> = (0..shot.width)
                    .filter(|&x| shot.px(x, top) == fill)
                    .collect();
                let (left, right) = (row[0], row[row.len() - 1]);
                break (shot, top, left, right);
            }
            assert!(
                Instant::now() < deadline,
                "{}: no {name} window in 30 s",
                shot.name()
            );
            sleep(Duration::from_millis(500));
        };
        // Above it, the title bar winit draws: in the theme's lightness, with the title's ink.
        let bar: Vec<[u8; 3]> = (left..=right).map(|x| shot.px(x, top - 18)).collect();
        let lightness = |p: &[u8; 3]| p.iter().map(|&c| u32::from(c)).sum::<u32>() / 3;
        let mut lightnesses: Vec<u32> = bar.iter().map(lightness).collect();
        lightnesses.sort_unstable();
        let usual = lightnesses[lightnesses.len() / 2];
        let inked = bar
            .iter()
            .filter(|p| lightness(p).abs_diff(usual) > 60)
            .count();
        match theme {
            Theme::Dark => assert!(usual < 80, "{}: a dark title bar ({usual})", shot.name()),
            Theme::Light => assert!(usual > 200, "{}: a light title bar ({usual})", shot.name()),
        }
        assert!(
            inked > 20,
            "{}: the title and buttons drawn on it ({inked} px)",
            shot.name()
        );
    }
    drop(weston);
    let _ = fs::remove_dir_all(&runtime);
}

/// A screenshot of weston's output, by its screenshooter (which writes a PNG where it runs).
fn weston_screenshot(runtime: &Path, label: &str, palette: &'static Palette) -> Shot {
    let folder = runtime.join(format!("shots-{label}"));
    let _ = fs::remove_dir_all(&folder);
    fs::create_dir_all(&folder).unwrap();
    let status = Command::new("weston-screenshooter")
        .current_dir(&folder)
        .env("WAYLAND_DISPLAY", "wayland-w")
        .env("XDG_RUNTIME_DIR", runtime)
        .status()
        .unwrap_or_else(|e| panic!("run weston-screenshooter (needs weston): {e}"));
    assert!(status.success(), "weston-screenshooter");
    let png = fs::read_dir(&folder)
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .find(|path| path.extension().is_some_and(|ext| ext == "png"))
        .expect("weston-screenshooter wrote a PNG");
    let ppm = png.with_extension("ppm");
    run_ok("convert", &[png.to_str().unwrap(), ppm.to_str().unwrap()]);
    keep(&ppm, &format!("weston-{label}.png"));
    Shot::read(&ppm, palette)
}

#[test]
#[ignore = "runs KWin headless at scale 1.5: needs kwin-wayland, python3-dbus, dbus-daemon, ImageMagick and Mesa"]
fn at_a_fractional_scale_the_window_is_drawn_at_the_outputs_own_pixels() {
    // sway 1.7 has no wp-fractional-scale; KWin 5.27 has it.
    drawn_at_the_outputs_own_pixels(1.25);
    drawn_at_the_outputs_own_pixels(1.5);
}

/// Under KWin with a virtual output of 1280x720 logical pixels at `scale`: the app draws one
/// pixel for each of the output's own.
fn drawn_at_the_outputs_own_pixels(scale: f32) {
    let (width, height) = ((1280.0 * scale) as usize, (720.0 * scale) as usize);
    let runtime = tempdir(&format!("kwin-{scale}"));
    run_ok("chmod", &["700", runtime.to_str().unwrap()]);
    let mut daemon = Command::new("dbus-daemon");
    daemon
        .env_clear()
        .env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
        .env("HOME", &runtime)
        .env("XDG_RUNTIME_DIR", &runtime);
    let (bus, address) = start_bus(daemon, &runtime);
    let bus = Stopped(bus);
    // KWin's binary carries a file capability (to raise its priority), and a container that
    // allows no new privileges refuses to run such a file; a copy runs without it.
    let kwin_binary = runtime.join("kwin_wayland");
    fs::copy("/usr/bin/kwin_wayland", &kwin_binary)
        .unwrap_or_else(|e| panic!("copy kwin_wayland (needs kwin-wayland): {e}"));
    let kwin = Command::new(&kwin_binary)
        .args([
            "--virtual",
            "--width",
            "1280",
            "--height",
            "720",
            "--scale",
            &scale.to_string(),
            "--socket",
            "wayland-k",
            "--no-lockscreen",
            "--no-global-shortcuts",
            "--no-kactivities",
        ])
        .env_clear()
        .env("PATH", "/usr/sbin:/usr/bin:/sbin:/bin")
        .env("HOME", &runtime)
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("DBUS_SESSION_BUS_ADDRESS", &address)
        .env("QT_QPA_PLATFORM", "offscreen")
        .env("KWIN_SCREENSHOT_NO_PERMISSION_CHECKS", "1")
        .stdout(Stdio::null())
        .stderr(fs::File::create(runtime.join("kwin.log")).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("start kwin_wayland: {e}"));
    let kwin = Stopped(kwin);
    wait_for_socket(
        &runtime.join("wayland-k"),
        "KWin",
        30,
        Some(&runtime.join("kwin.log")),
    );
    let log = runtime.join("app.log");
    let app = Command::new(APP)
        .env_remove("DISPLAY")
        .env("WAYLAND_DISPLAY", "wayland-k")
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("AGENT_CHAT_THEME", "dark")
        .env("WAYLAND_DEBUG", "1")
        .stdout(Stdio::null())
        .stderr(fs::File::create(&log).unwrap())
        .spawn()
        .expect("start the app");
    let app = Stopped(app);
    let palette = Theme::Dark.palette();
    let deadline = Instant::now() + Duration::from_secs(30);
    let shot = loop {
        // None until KWin's screenshot effect is up, a moment after its socket.
        let shot = kwin_screenshot(&runtime, &address, palette);
        if let Some(shot) = shot.filter(|shot| shot.input_bar().is_some()) {
            break shot;
        }
        assert!(
            Instant::now() < deadline,
            "no field on KWin's screen in 30 s; the app's log ends: {}",
            fs::read_to_string(&log)
                .unwrap_or_default()
                .lines()
                .rev()
                .take(20)
                .collect::<Vec<_>>()
                .join("\n")
        );
        sleep(Duration::from_millis(500));
    };
    // The app was told the scale (wp-fractional-scale's, in 120ths), drew that many pixels,
    // and asked the compositor to show them on 1280x720 of its logical space (wp-viewporter):
    // one of its pixels for each of the output's, with nothing for the compositor to scale.
    let said = fs::read_to_string(&log).unwrap();
    let told = format!(".preferred_scale({})", (scale * 120.0) as u32);
    assert!(said.contains(&told), "at {scale}: told {told}");
    assert!(
        said.contains(".set_destination(1280, 720)"),
        "at {scale}: shown at 1280x720 logical pixels"
    );
    assert!(
        said.contains(&format!(", {width}, {height}, ")),
        "at {scale}: its buffers are {width}x{height} (wl_shm's create_buffer)"
    );
    assert!(
        !said.contains(".set_buffer_scale(2)"),
        "at {scale}: not drawn at 200% for the compositor to scale down"
    );
    // On the screen: the field's top border is a line of exactly its colour, as the app drew
    // it, not a blend of it and its neighbours, which scaling would leave.
    let border = rgb(palette.input_border);
    let top = shot.input_bar().unwrap();
    let exact = (0..shot.width)
        .filter(|&x| shot.px(x, top) == border)
        .count();
    assert!(
        (shot.width, shot.height) == (width, height) && exact > shot.width * 9 / 10,
        "{}: at {scale}, the border's row is {exact} of {} px in its exact colour",
        shot.name(),
        shot.width
    );
    drop((app, kwin, bus));
    let _ = fs::remove_dir_all(&runtime);
}

/// A screenshot of KWin's active output at its own pixels (`tests/kwin_screenshot.py`), once
/// KWin can take one.
fn kwin_screenshot(runtime: &Path, bus: &str, palette: &'static Palette) -> Option<Shot> {
    let raw = runtime.join("shot.bgra");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/kwin_screenshot.py");
    let output = Command::new("/usr/bin/python3")
        .arg(script)
        .arg(bus)
        .arg(&raw)
        .output()
        .unwrap_or_else(|e| panic!("run kwin_screenshot.py (needs python3-dbus): {e}"));
    if !output.status.success() {
        let why = String::from_utf8_lossy(&output.stderr);
        // KWin not on the bus yet, or its screenshot effect not loaded yet.
        let not_yet = ["ServiceUnknown", "NameHasNoOwner", "UnknownObject"];
        assert!(
            not_yet.iter().any(|error| why.contains(error)),
            "kwin_screenshot.py: {why}"
        );
        return None;
    }
    let said = String::from_utf8_lossy(&output.stdout);
    let mut size = said.split_whitespace();
    let (width, height) = (size.next().unwrap(), size.next().unwrap());
    let label = runtime.file_name().unwrap().to_string_lossy().into_owned();
    let ppm = runtime.join(format!("{label}.ppm"));
    let raw = format!("bgra:{}", raw.display());
    let size = format!("{width}x{height}");
    run_ok(
        "convert",
        &["-size", &size, "-depth", "8", &raw, ppm.to_str().unwrap()],
    );
    keep(&ppm, &format!("{label}.png"));
    Some(Shot::read(&ppm, palette))
}

/// Keeps a screenshot after the test, as a PNG named `name` under
/// `target/tmp/window-tests/wayland/`, where the X11 tests keep theirs.
fn keep(ppm: &Path, name: &str) {
    let kept = Path::new(env!("CARGO_TARGET_TMPDIR")).join("window-tests/wayland");
    fs::create_dir_all(&kept).unwrap();
    let _ = Command::new("convert")
        .arg(ppm)
        .arg(kept.join(name))
        .status();
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
