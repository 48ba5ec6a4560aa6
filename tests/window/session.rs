//! The harness's processes: the X server, the D-Bus session with ibus and the accessibility bus,
//! the app itself, and the keyboard, clipboard and screen reader that reach it.

use std::{
    fs,
    io::{BufRead, BufReader},
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus, Stdio},
    sync::{
        Arc, Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard,
        atomic::{AtomicBool, Ordering},
    },
    thread::{self, JoinHandle, sleep},
    time::{Duration, Instant},
};

use agent_chat::theme::{Palette, Theme};

use super::{APP, NEEDS_BUS, NEEDS_X, WINDOW, screen::*};

/// An Xvfb server on a display number of its own choosing, stopped on drop.
pub struct Xvfb {
    pub process: Child,
    pub display: String,
}

impl Xvfb {
    pub fn start() -> Self {
        let mut process = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1600x1000x24",
                "-nolisten",
                "tcp",
                // By default an X server resets when its last client leaves, and a client
                // connecting during the reset fails: the tools here come and go while the app
                // connects.
                "-noreset",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start Xvfb ({NEEDS_X}): {e}"));
        let mut line = String::new();
        BufReader::new(process.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("Xvfb reports its display number");
        let display = format!(":{}", line.trim());
        Self { process, display }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        // SIGTERM, not `kill()`'s SIGKILL: a killed X server leaves its socket and lock file in
        // /tmp, and a later server given that display number could not be connected to.
        let stopped = Command::new("kill")
            .arg(self.process.id().to_string())
            .status();
        if !stopped.is_ok_and(|status| status.success()) {
            let _ = self.process.kill();
        }
        let _ = self.process.wait();
    }
}

/// An IME session runs alone: with other windows busy on the two cores (two ibus sessions, or
/// another test's app), ibus-hangul's commit of a syllable reached the app after the space that
/// ended it (`안녕하세 요…`) more often; see also `Ibus::start`. Other sessions share.
pub static WINDOWS: RwLock<()> = RwLock::new(());

/// Sessions with Orca run one at a time: Orca refuses to start while another Orca of the same
/// user runs, whatever its display or bus.
pub static ORCA: Mutex<()> = Mutex::new(());

/// A session's hold on [`WINDOWS`].
pub enum Turn {
    Shared(#[allow(dead_code, reason = "held, not read")] RwLockReadGuard<'static, ()>),
    Alone(#[allow(dead_code, reason = "held, not read")] RwLockWriteGuard<'static, ()>),
}

impl Turn {
    pub fn take(alone: bool) -> Self {
        if alone {
            Self::Alone(WINDOWS.write().unwrap_or_else(PoisonError::into_inner))
        } else {
            Self::Shared(WINDOWS.read().unwrap_or_else(PoisonError::into_inner))
        }
    }
}

/// How a [`Session`] starts the app.
#[derive(Default, Clone, Copy)]
pub struct Setup {
    /// The app talks to ibus with its Hangul engine, as a Korean desktop's would.
    pub ime: bool,
    /// The app talks to ibus with its Japanese engine (anthy, in Hiragana) instead.
    pub japanese: bool,
    /// A screen reader is running: Orca, started before the app on the accessibility bus, as
    /// a session's autostart starts it. The app serves its tree there once Orca is up.
    pub screen_reader: bool,
    /// Which Orca that is.
    pub reader: Reader,
    /// The app holds its first frame back 5 s (`AGENT_CHAT_HOLD_FIRST_FRAME`), as a slow
    /// machine's first frame takes long.
    pub slow_first_frame: bool,
    pub theme: Theme,
    /// Vulkan hidden (its loader finds no driver), as on a machine that has only OpenGL: the app
    /// falls back to Mesa's OpenGL (`workarounds::gpu`).
    pub opengl: bool,
    /// The desktop's `Xft.dpi`, set in the X server's resources before the app starts (96 is
    /// scale 1, 144 is 1.5). The window is then sized to 1280x720 physical pixels, the part
    /// screenshots take.
    pub xft_dpi: Option<u32>,
    /// The desktop opens links with a handler of the test's own ([`write_link_handler`]): a launcher
    /// entry in the app's `XDG_DATA_HOME` for `http`, `https` and `mailto`, the default in its
    /// `XDG_CONFIG_HOME`, whose program appends each address it is given to a file.
    pub links: bool,
}

/// Where the test's link handler writes the addresses it is given, one a line.
pub fn opened_file(shots: &Path) -> PathBuf {
    shots.join("opened.txt")
}

/// Registers a handler of `http`, `https` and `mailto` links that appends each address to
/// `opened`: its launcher entry in `data`'s `applications` (an `XDG_DATA_HOME`), and the default
/// for the three schemes in `config`'s `mimeapps.list` (an `XDG_CONFIG_HOME`), where xdg-open
/// and GLib (`gio open`, the desktop portal) find them. A script, not a shell line in the
/// entry's Exec key: xdg-open splits that at blanks without minding quotes.
pub fn write_link_handler(data: &Path, config: &Path, opened: &Path) {
    let applications = data.join("applications");
    fs::create_dir_all(&applications).unwrap();
    fs::create_dir_all(config).unwrap();
    let handler = data.join("open-link");
    fs::write(
        &handler,
        format!(
            "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{}'\n",
            opened.display()
        ),
    )
    .unwrap();
    fs::set_permissions(&handler, fs::Permissions::from_mode(0o755)).unwrap();
    fs::write(
        applications.join("test-opener.desktop"),
        format!(
            "[Desktop Entry]\nType=Application\nName=Test opener\nExec={} %u\nNoDisplay=true\n\
             MimeType=x-scheme-handler/https;x-scheme-handler/http;x-scheme-handler/mailto;\n",
            handler.display()
        ),
    )
    .unwrap();
    let defaults: String = ["https", "http", "mailto"]
        .map(|scheme| format!("x-scheme-handler/{scheme}=test-opener.desktop\n"))
        .concat();
    fs::write(
        config.join("mimeapps.list"),
        format!("[Default Applications]\n{defaults}"),
    )
    .unwrap();
}

/// Registers the handler under `shots` ([`write_link_handler`], writing to [`opened_file`]),
/// and points `app` at it, as xdg-open's own way finds it, not a desktop's.
fn register_link_handler(shots: &Path, app: &mut Command) {
    let (data, config) = (shots.join("data"), shots.join("config"));
    write_link_handler(&data, &config, &opened_file(shots));
    app.env("XDG_DATA_HOME", data)
        .env("XDG_CONFIG_HOME", config)
        .env_remove("XDG_CURRENT_DESKTOP")
        .env_remove("DESKTOP_SESSION")
        .env_remove("KDE_FULL_SESSION")
        .env_remove("GNOME_DESKTOP_SESSION_ID");
}

/// A D-Bus session bus of the test's own, stopped on drop: ibus and the accessibility bus
/// register on it, away from the developer's desktop.
pub struct SessionBus {
    pub process: Child,
    pub address: String,
}

impl SessionBus {
    /// A bus whose services keep their settings under `home`: dconf, which the accessibility
    /// bus writes GNOME's `toolkit-accessibility` key to when a reader enables it, starts from
    /// this process's environment, and must not write the machine's own settings.
    pub fn start(home: &Path) -> Self {
        let mut process = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .env("XDG_CONFIG_HOME", home)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start dbus-daemon ({NEEDS_BUS}): {e}"));
        let mut address = String::new();
        BufReader::new(process.stdout.take().unwrap())
            .read_line(&mut address)
            .expect("dbus-daemon reports its address");
        Self {
            process,
            address: address.trim().to_owned(),
        }
    }
}

impl Drop for SessionBus {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// What `program` printed, if it ran and succeeded, with `env` set.
fn try_run_env(program: &str, args: &[&str], env: &[(&str, &str)]) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Runs `program` until its output contains `expect`, for at most 60 s: generous, since a first
/// start builds caches and the other window tests share the CPU.
pub fn wait_until_ready(program: &str, args: &[&str], env: &[(&str, &str)], expect: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let output = Command::new(program)
            .args(args)
            .envs(env.iter().copied())
            .output();
        if output.is_ok_and(|out| {
            out.status.success() && String::from_utf8_lossy(&out.stdout).contains(expect)
        }) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "not ready: `{program} {args:?}` never printed {expect:?} ({NEEDS_BUS})"
        );
        sleep(Duration::from_millis(200));
    }
}

/// ibus with one engine (`hangul`, or `anthy` in Hiragana), serving one X server through XIM,
/// on the test's session bus.
pub struct Ibus {
    pub daemon: Child,
}

impl Ibus {
    pub fn start(display: &str, bus: &SessionBus, home: &Path, engine: &str) -> Self {
        // anthy's engine is a Python script, which must find Debian's own python3 first.
        let path = format!("/usr/bin:{}", std::env::var("PATH").unwrap_or_default());
        let env = [
            ("PATH", path.as_str()),
            ("DISPLAY", display),
            ("DBUS_SESSION_BUS_ADDRESS", bus.address.as_str()),
            // ibus keeps its address file and settings here, away from the user's.
            ("XDG_CONFIG_HOME", home.to_str().unwrap()),
            ("XDG_CACHE_HOME", home.to_str().unwrap()),
            // ibus runs in its default mode, as users have it: now and then its XIM frontend
            // sends the key that ended a syllable before the syllable's commit, and the app
            // must put them back in order (`input::COMMIT_PATIENCE`, docs/ime.md).
        ];
        let daemon = Command::new("ibus-daemon")
            .args(["--xim", "--replace", "--panel=disable"])
            .envs(env)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start ibus-daemon ({NEEDS_BUS}): {e}"));
        let ibus = Self { daemon };
        if engine == "anthy" {
            // Hiragana from the first key, as a Japanese desktop starts it.
            let mode = [
                "set",
                "org.freedesktop.ibus.engine.anthy.common",
                "input-mode",
                "0",
            ];
            wait_until_ready("gsettings", &mode, &env, "");
        }
        // The engine chosen once the daemon answers, and its XIM server announced on the
        // display, before the app starts and looks for one. `ibus engine anthy` reports a
        // failure while anthy's Python engine starts, and chooses it all the same: what counts
        // is the engine ibus then names.
        let deadline = Instant::now() + Duration::from_secs(60);
        while try_run_env("ibus", &["engine"], &env).is_none_or(|named| !named.contains(engine)) {
            assert!(
                Instant::now() < deadline,
                "ibus never took the {engine} engine ({NEEDS_BUS})"
            );
            let _ = try_run_env("ibus", &["engine", engine], &env);
            sleep(Duration::from_millis(500));
        }
        wait_until_ready("xprop", &["-root", "XIM_SERVERS"], &env, "@server=ibus");
        ibus
    }
}

impl Drop for Ibus {
    fn drop(&mut self) {
        let _ = self.daemon.kill();
        let _ = self.daemon.wait();
    }
}

/// The accessibility bus that screen readers and apps meet on. Nothing is set on it: a reader
/// that starts says it is there itself (Orca turns on `org.a11y.Status.IsEnabled`).
pub struct AtSpi {
    pub launcher: Child,
}

impl AtSpi {
    /// The launcher reads GNOME's accessibility settings at start, from `home`: with the user's
    /// own, a flag some earlier program left there would turn the app's adapter on, and no
    /// reader would be needed to pass. `display` names the displays, as variables and their
    /// values: `[("DISPLAY", ":5")]`, or with `WAYLAND_DISPLAY` and a compositor's socket.
    pub fn start(display: &[(&str, &str)], bus: &SessionBus, home: &Path) -> Self {
        let env: Vec<(&str, &str)> = [
            ("DBUS_SESSION_BUS_ADDRESS", bus.address.as_str()),
            ("XDG_CONFIG_HOME", home.to_str().unwrap()),
        ]
        .into_iter()
        .chain(display.iter().copied())
        .collect();
        let launcher = Command::new("/usr/libexec/at-spi-bus-launcher")
            .arg("--launch-immediately")
            .env_remove("DISPLAY")
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start at-spi-bus-launcher ({NEEDS_BUS}): {e}"));
        let at_spi = Self { launcher };
        let address = [
            "call",
            "--session",
            "--dest",
            "org.a11y.Bus",
            "--object-path",
            "/org/a11y/bus",
            "--method",
            "org.a11y.Bus.GetAddress",
        ];
        wait_until_ready("gdbus", &address, &env, "unix:");
        at_spi
    }
}

impl Drop for AtSpi {
    fn drop(&mut self) {
        // SIGTERM: the launcher then stops the accessibility bus it started.
        let _ = Command::new("kill")
            .arg(self.launcher.id().to_string())
            .status();
        let _ = self.launcher.wait();
    }
}

/// Which Orca a session runs: the host's, or a newer one from a chroot.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// Debian 12's Orca 43, installed on the host by `.ci/run`.
    #[default]
    Orca43,
    /// Debian 13's Orca 48 (what most people run: Orca 46 to 48), in the chroot that
    /// `tests/orca48-chroot.sh` builds and `.ci/run` keeps outside the clone.
    Orca48,
}

impl Reader {
    /// The chroot Orca 48 runs in: where the variable AGENT_CHAT_ORCA_48 says, or where the script
    /// builds it.
    fn orca48_chroot() -> PathBuf {
        let dir = std::env::var_os("AGENT_CHAT_ORCA_48").map_or_else(
            || Path::new(&std::env::var_os("HOME").unwrap()).join(".cache/agent-chat/orca-48"),
            PathBuf::from,
        );
        assert!(
            dir.join(".built").exists(),
            "no Orca 48 in {}: build it with `sudo tests/orca48-chroot.sh` (.ci/run does)",
            dir.display()
        );
        dir
    }

    /// The command that starts this Orca in a PID namespace of its own, with its files in
    /// `folder`. Orca will not start beside any other Orca of the same user (it asks `pgrep -u
    /// UID -x orca`): a developer's own, or another test's in the same run. With its own /proc,
    /// it sees none. The namespace's first process is Orca, and when the test kills `unshare`,
    /// Orca is killed (`--kill-child`) and the namespace with it, the speech-dispatcher Orca
    /// started included.
    ///
    /// Orca 48 runs from its chroot, in a mount namespace of its own too: the host's `/dev`,
    /// `/tmp`, `/run` and home (where the accessibility bus's socket and dconf are, with
    /// `XDG_RUNTIME_DIR` unset) and `folder` are mounted at the same paths inside, so it meets
    /// the app on the same buses and writes its speech where the test reads it.
    pub fn command(self, folder: &Path) -> Command {
        let mut command = Command::new("unshare");
        command.args(["--map-current-user", "--pid", "--fork", "--mount-proc"]);
        match self {
            Reader::Orca43 => {
                command.args(["--kill-child", "orca"]);
            }
            Reader::Orca48 => {
                const ENTER: &str = r#"set -e; root=$1; shift
for dir in /dev /tmp /run "$HOME" "$FOLDER"; do
  mkdir -p "$root$dir"; mount --rbind "$dir" "$root$dir"; mount --make-rslave "$root$dir"
done
mount -t proc proc "$root/proc"
exec chroot "$root" orca "$@""#;
                command
                    .args(["--mount", "--kill-child", "sh", "-c", ENTER, "sh"])
                    .arg(Self::orca48_chroot())
                    .env("FOLDER", folder);
            }
        }
        command
    }
}

/// Orca, started as a user starts it from a terminal or a session's autostart, on a fresh
/// settings store, with its speech written to a file: speech-dispatcher's generic module runs
/// `echo` for each utterance (`../shared/NOTES.md`, "Real Orca").
pub struct Orca {
    pub process: Child,
    /// The folder with its settings, its speech (`spoken.txt`) and its debug file.
    pub folder: PathBuf,
}

impl Orca {
    /// Orca with its speech written to `spoken.txt` in `folder`, on the displays `display`
    /// names (as [`AtSpi::start`] takes them).
    pub fn start(
        reader: Reader,
        display: &[(&str, &str)],
        bus: &SessionBus,
        folder: &Path,
    ) -> Self {
        let _ = fs::remove_dir_all(folder);
        let config = folder.join("config");
        let modules = config.join("speech-dispatcher/modules");
        let runtime = folder.join("runtime");
        for dir in [&modules, &folder.join("prefs"), &runtime] {
            fs::create_dir_all(dir).unwrap();
        }
        // speech-dispatcher keeps its socket here, and wants it private.
        fs::set_permissions(&runtime, fs::Permissions::from_mode(0o700)).unwrap();
        fs::write(
            config.join("speech-dispatcher/speechd.conf"),
            "AudioOutputMethod \"libao\"\n\
             AddModule \"filelog\" \"sd_generic\" \"filelog.conf\"\n\
             DefaultModule filelog\n\
             DefaultLanguage \"en\"\n",
        )
        .unwrap();
        let spoken = folder.join("spoken.txt");
        let mut module = format!(
            "GenericExecuteSynth \"echo \\'$DATA\\' >> {}\"\n\
             GenericCmdDependency \"echo\"\n",
            spoken.display()
        );
        // Orca 48 asks for `c` under the C locale; without a voice for it Korean comes out as `?`.
        for language in ["en", "ko", "c"] {
            module += &format!(
                "GenericLanguage \"{language}\" \"{language}\" \"utf-8\"\n\
                 AddVoice \"{language}\" \"MALE1\" \"{language}\"\n"
            );
        }
        fs::write(modules.join("filelog.conf"), module).unwrap();
        let log = fs::File::create(folder.join("orca.log")).unwrap();
        let process = reader
            .command(folder)
            .arg("-u")
            .arg(folder.join("prefs"))
            .arg(format!(
                "--debug-file={}",
                folder.join("orca-debug.txt").display()
            ))
            .env_remove("DISPLAY")
            .envs(display.iter().copied())
            .env("DBUS_SESSION_BUS_ADDRESS", &bus.address)
            .env("XDG_CONFIG_HOME", &config)
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("XDG_CACHE_HOME", folder.join("cache"))
            .env("XDG_DATA_HOME", folder.join("data"))
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("start orca ({NEEDS_BUS}): {e}"));
        let orca = Self {
            process,
            folder: folder.to_owned(),
        };
        orca.wait_to_hear("Screen reader on.", Duration::from_secs(60));
        orca
    }

    /// Everything Orca has said, an utterance a line (one may span several: the generic module
    /// echoes the text as it was given).
    ///
    /// Read lossily: Orca 48 under the C locale echoes some keys in bytes that are not UTF-8.
    pub fn spoken(&self) -> String {
        let spoken = fs::read(self.folder.join("spoken.txt")).unwrap_or_default();
        String::from_utf8_lossy(&spoken).into_owned()
    }

    /// Waits until Orca has said `words`, at most `limit`; what it said since `from` (a length
    /// of [`spoken`](Self::spoken)) either way.
    pub fn heard_since(&self, from: usize, words: &str, limit: Duration) -> String {
        let deadline = Instant::now() + limit;
        loop {
            let said = self.spoken().get(from..).unwrap_or_default().to_owned();
            if said.contains(words) || Instant::now() > deadline {
                return said;
            }
            sleep(Duration::from_millis(100));
        }
    }

    fn wait_to_hear(&self, words: &str, limit: Duration) {
        let said = self.heard_since(0, words, limit);
        assert!(
            said.contains(words),
            "Orca never said {words:?} ({NEEDS_BUS}); it said {said:?}; its log: {}",
            fs::read_to_string(self.folder.join("orca.log")).unwrap_or_default()
        );
    }
}

impl Drop for Orca {
    fn drop(&mut self) {
        // Orca ignores SIGTERM and SIGINT. Killing `unshare` kills Orca, the first process of
        // its PID namespace, and so the rest of the namespace: the speech-dispatcher it started
        // (whose pid file holds a pid of the namespace's, not one to kill from here).
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// The app running on its own Xvfb, with its window focused, and a folder for screenshots.
pub struct Session {
    pub app: Child,
    pub window: String,
    /// When the window was found mapped: when it opened, to a fifth of a second.
    pub opened: Instant,
    pub shots: PathBuf,
    pub taken: usize,
    /// Keycodes the server leaves unused, for `type_text` to map characters onto.
    pub spare_keycodes: Vec<u32>,
    /// The colours the app draws with, to tell rows apart in screenshots.
    pub palette: &'static Palette,
    /// Held for their lifetime, and dropped in this order: ibus and the accessibility bus
    /// before the session bus they are on.
    pub _ibus: Option<Ibus>,
    pub orca: Option<Orca>,
    pub reader: Reader,
    pub _at_spi: Option<AtSpi>,
    pub bus: Option<SessionBus>,
    // Dropped last: the app must go before its X server.
    pub xvfb: Xvfb,
    /// Held for the whole session, and let go after everything above (see [`WINDOWS`] and
    /// [`ORCA`]).
    pub _turn: Turn,
    pub _orca_turn: Option<MutexGuard<'static, ()>>,
}

impl Session {
    pub fn start(name: &str) -> Self {
        Self::start_with(name, Setup::default())
    }

    pub fn start_with(name: &str, setup: Setup) -> Self {
        let Setup {
            ime,
            japanese,
            screen_reader,
            reader,
            slow_first_frame: _,
            theme,
            opengl: _,
            xft_dpi,
            links: _,
        } = setup;
        let shots = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("window-tests")
            .join(name);
        let _ = fs::remove_dir_all(&shots);
        fs::create_dir_all(&shots).unwrap();

        let orca_turn = screen_reader.then(|| ORCA.lock().unwrap_or_else(PoisonError::into_inner));
        let engine = if japanese { "anthy" } else { "hangul" };
        let ime = ime || japanese;
        let turn = Turn::take(ime);
        let xvfb = Xvfb::start();
        if let Some(dpi) = xft_dpi {
            let resources = shots.join("Xresources");
            fs::write(&resources, format!("Xft.dpi: {dpi}\n")).unwrap();
            run(
                "xrdb",
                &["-merge", resources.to_str().unwrap()],
                &xvfb.display,
            );
        }
        let bus = (ime || screen_reader).then(|| SessionBus::start(&shots));
        let ibus = bus
            .as_ref()
            .filter(|_| ime)
            .map(|bus| Ibus::start(&xvfb.display, bus, &shots, engine));
        let at_spi = bus
            .as_ref()
            .filter(|_| screen_reader)
            .map(|bus| AtSpi::start(&[("DISPLAY", &xvfb.display)], bus, &shots));
        // Orca first, as a session's autostart starts it; `restart_orca` starts one later.
        let orca = bus.as_ref().filter(|_| screen_reader).map(|bus| {
            let display = [("DISPLAY", xvfb.display.as_str())];
            Orca::start(reader, &display, bus, &shots.join("orca"))
        });
        let bus_address = bus.as_ref().map(|bus| bus.address.as_str());
        let mut app = spawn_app(&xvfb.display, &shots, setup, bus_address);
        let spare_keycodes = spare_keycodes(&xvfb.display);
        assert!(
            !spare_keycodes.is_empty(),
            "the X server has no spare keycode"
        );
        let search = |display: &str| {
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                // Tried again on failure too: xdotool stops at an X error when a window it
                // listed is gone before it looks at it (ibus's XIM makes short-lived windows).
                let args = ["search", "--onlyvisible", "--name", "^agent-chat$"];
                match try_run("xdotool", &args, display) {
                    Ok(out) if out.lines().next().is_some() => return Ok(out),
                    _ if Instant::now() < deadline => sleep(Duration::from_millis(200)),
                    other => return other,
                }
            }
        };
        let mut found = search(&xvfb.display);
        // In about one run of these tests in three, one app failed XOpenDisplay: the server was
        // resetting after a tool's connection closed (fixed with `-noreset` in `Xvfb::start`;
        // six runs clean since). A second start stays as a net until CI has shown it idle for
        // a while; it is printed with the display, never silent.
        if found.is_err() && app.try_wait().is_ok_and(|status| status.is_some()) {
            eprintln!(
                "{name}: the app stopped before mapping a window on {}; its log: {}; starting it once more",
                xvfb.display,
                fs::read_to_string(shots.join("app.log"))
                    .unwrap_or_default()
                    .trim()
            );
            app = spawn_app(&xvfb.display, &shots, setup, bus_address);
            found = search(&xvfb.display);
        }
        let window = match found {
            Ok(out) => out.lines().next().unwrap_or_default().to_owned(),
            Err(why) => panic!(
                "{name}: the app mapped no window titled agent-chat ({why}); its log: {}",
                fs::read_to_string(shots.join("app.log")).unwrap_or_default()
            ),
        };
        let opened = Instant::now();
        let mut session = Self {
            app,
            window,
            opened,
            shots,
            taken: 0,
            spare_keycodes,
            palette: theme.palette(),
            _ibus: ibus,
            orca,
            reader,
            _at_spi: at_spi,
            bus,
            xvfb,
            _turn: turn,
            _orca_turn: orca_turn,
        };
        if xft_dpi.is_some() {
            let (width, height) = (WINDOW.0.to_string(), WINDOW.1.to_string());
            let window = session.window.clone();
            session.xdotool(&["windowsize", "--sync", &window, &width, &height]);
        }
        // No window manager: give keyboard focus directly (windowactivate needs a WM).
        session.xdotool(&["windowfocus", "--sync", &session.window.clone()]);
        session.wait_for("first-frame", |shot| shot.input_bar().is_some());
        session
    }

    pub fn xdotool(&self, args: &[&str]) -> String {
        run(
            "timeout",
            &[&["30", "xdotool"], args].concat(),
            &self.xvfb.display,
        )
    }

    /// Types `text` into the focused window.
    ///
    /// `xdotool type` maps a character missing from the keymap onto a spare keycode only while
    /// it types it; the app, reading the event a moment later, may find the mapping already
    /// undone and lose the character (seen with Hangul). So every character is mapped first,
    /// with `xmodmap`, and stays mapped while it is typed.
    pub fn type_text(&mut self, text: &str) {
        let mut rest = text;
        while !rest.is_empty() {
            // The longest stretch whose distinct non-ASCII characters fit the spare keycodes.
            let mut mapped: Vec<char> = Vec::new();
            let mut end = rest.len();
            for (at, c) in rest.char_indices() {
                if c.is_ascii() || mapped.contains(&c) {
                    continue;
                }
                if mapped.len() == self.spare_keycodes.len() {
                    end = at;
                    break;
                }
                mapped.push(c);
            }
            if !mapped.is_empty() {
                let assignments: Vec<String> = mapped
                    .iter()
                    .zip(&self.spare_keycodes)
                    .flat_map(|(c, code)| {
                        ["-e".into(), format!("keycode {code} = U{:04X}", *c as u32)]
                    })
                    .collect();
                let args: Vec<&str> = assignments.iter().map(String::as_str).collect();
                run("xmodmap", &args, &self.xvfb.display);
                // Let the app see the new keymap before the first key that needs it.
                sleep(Duration::from_millis(300));
            }
            self.xdotool(&["type", "--delay", "40", &rest[..end]]);
            rest = &rest[end..];
            // And read those keys before the next stretch remaps the keycodes.
            sleep(Duration::from_millis(300));
        }
    }

    pub fn key(&mut self, key: &str) {
        self.xdotool(&["key", key]);
        sleep(Duration::from_millis(200));
    }

    /// Puts `text` on the clipboard as another application: xclip owns it, and stays (in the
    /// background) to hand it to whoever asks.
    pub fn offer_clipboard(&self, text: &str) {
        let file = self.shots.join("offered.txt");
        fs::write(&file, text).unwrap();
        self.offer_clipboard_as(&file, "UTF8_STRING");
    }

    /// Puts the contents of `file` on the clipboard as another application offering it as
    /// `target` (a MIME type, or an X11 target such as `UTF8_STRING`) and nothing else.
    pub fn offer_clipboard_as(&self, file: &Path, target: &str) {
        let status = Command::new("xclip")
            .args(["-selection", "clipboard", "-t", target, "-i"])
            .arg(file)
            .env("DISPLAY", &self.xvfb.display)
            // Its background half keeps whatever it was given open: give it nothing to wait on.
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap_or_else(|e| panic!("run xclip (needs xclip): {e}"));
        assert!(status.success(), "xclip could not take the clipboard");
    }

    /// Another application that takes the clipboard and never answers for it
    /// (`tests/silent_clipboard_owner.py`), once it owns it; it is stopped when the returned
    /// guard is dropped.
    pub fn silent_clipboard_owner(&self) -> Stopped {
        let mut owner = Command::new("/usr/bin/python3")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/silent_clipboard_owner.py"
            ))
            .env("DISPLAY", &self.xvfb.display)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("run python3 (needs python3-xlib): {e}"));
        let mut said = String::new();
        BufReader::new(owner.stdout.take().unwrap())
            .read_line(&mut said)
            .unwrap();
        assert_eq!(said.trim(), "owning", "the silent owner took the clipboard");
        Stopped(owner)
    }

    /// What another application reads from the clipboard.
    pub fn read_clipboard(&self) -> String {
        run(
            "timeout",
            &["10", "xclip", "-o", "-selection", "clipboard"],
            &self.xvfb.display,
        )
    }

    /// What another application reads from the PRIMARY selection (a middle click's paste).
    pub fn read_primary(&self) -> String {
        run(
            "timeout",
            &["10", "xclip", "-o", "-selection", "primary"],
            &self.xvfb.display,
        )
    }

    /// Presses the left button at `from`, drags to `to` through a point between, and lets go.
    pub fn drag(&self, from: (usize, usize), to: (usize, usize)) {
        let at = |(x, y): (usize, usize)| [x.to_string(), y.to_string()];
        let [fx, fy] = at(from);
        self.xdotool(&["mousemove", &fx, &fy, "mousedown", "1"]);
        sleep(Duration::from_millis(150));
        let [mx, my] = at(((from.0 + to.0) / 2, (from.1 + to.1) / 2));
        self.xdotool(&["mousemove", &mx, &my]);
        sleep(Duration::from_millis(150));
        let [tx, ty] = at(to);
        self.xdotool(&["mousemove", &tx, &ty]);
        sleep(Duration::from_millis(150));
        self.xdotool(&["mouseup", "1"]);
        sleep(Duration::from_millis(300));
    }

    /// Clicks the left button `times` times at `at`, as quickly as a double- or triple-click.
    pub fn click(&self, at: (usize, usize), times: usize) {
        let (x, y, times) = (at.0.to_string(), at.1.to_string(), times.to_string());
        self.xdotool(&[
            "mousemove",
            &x,
            &y,
            "click",
            "--repeat",
            &times,
            "--delay",
            "80",
            "1",
        ]);
        sleep(Duration::from_millis(400));
    }

    pub fn screenshot(&mut self, label: &str) -> Shot {
        self.taken += 1;
        let ppm = self.shots.join(format!("{:02}-{label}.ppm", self.taken));
        let crop = format!("{}x{}+0+0", WINDOW.0, WINDOW.1);
        run(
            "import",
            &[
                "-window",
                "root",
                "-crop",
                &crop,
                "-depth",
                "8",
                ppm.to_str().unwrap(),
            ],
            &self.xvfb.display,
        );
        let shot = Shot::read(&ppm, self.palette);
        // A PNG beside it for people (the PPM is what the checks read).
        let png = ppm.with_extension("png");
        run(
            "convert",
            &[ppm.to_str().unwrap(), png.to_str().unwrap()],
            &self.xvfb.display,
        );
        shot
    }

    /// Screenshots until `done` holds, for at most 20 s; the last one either way.
    pub fn wait_for(&mut self, label: &str, done: impl Fn(&Shot) -> bool) -> Shot {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let shot = self.screenshot(label);
            if done(&shot) {
                return shot;
            }
            assert!(
                Instant::now() < deadline,
                "{}: timed out waiting for {label}",
                shot.name()
            );
            sleep(Duration::from_millis(250));
        }
    }

    /// The lines the app has recorded so far, read from its debug log.
    pub fn submissions(&self) -> Vec<String> {
        submissions_in(&fs::read_to_string(self.shots.join("app.log")).unwrap())
    }

    /// The text the IME committed, in the order the field took it, and each time the field gave
    /// up waiting for a commit: read from the app's trace (an IME session only).
    pub fn ime_commits(&self) -> (Vec<String>, usize) {
        let log = fs::read_to_string(self.shots.join("app.log")).unwrap();
        let mut commits = Vec::new();
        let mut gave_up = 0;
        for line in log.lines().map(without_colour) {
            if let Some((_, value)) = line.split_once("IME commit ") {
                commits.push(value.trim().trim_matches('"').to_owned());
            } else if line.contains("no IME commit within") {
                gave_up += 1;
            }
        }
        (commits, gave_up)
    }

    /// How often the app's main thread has gone to sleep and woken up since it started: its
    /// voluntary context switches.
    pub fn main_thread_wakeups(&self) -> u64 {
        let pid = self.app.id();
        fs::read_to_string(format!("/proc/{pid}/task/{pid}/status"))
            .expect("the app is running")
            .lines()
            .find_map(|line| line.strip_prefix("voluntary_ctxt_switches:"))
            .and_then(|n| n.trim().parse().ok())
            .expect("a context-switch count")
    }

    /// Screenshots of the input field for `span`, as fast as they come.
    pub fn watch_input(&mut self, label: &str, span: Duration) -> Watched {
        let end = Instant::now() + span;
        let mut shots = Vec::new();
        while Instant::now() < end {
            shots.push(self.screenshot(label));
        }
        Watched(shots)
    }

    /// Stops Orca and starts a new one, on fresh settings, beside the running app: a reader
    /// started after the app.
    pub fn restart_orca(&mut self, folder: &str) {
        self.orca = None;
        let bus = self.bus.as_ref().expect("a session started with Orca");
        let display = [("DISPLAY", self.xvfb.display.as_str())];
        let orca = Orca::start(self.reader, &display, bus, &self.shots.join(folder));
        self.orca = Some(orca);
    }

    /// The session's Orca.
    pub fn orca(&self) -> &Orca {
        self.orca.as_ref().expect("a session started with Orca")
    }

    /// Runs `tests/screen_reader.py` on the test's session bus.
    pub fn screen_reader(&self, args: &[&str]) -> Command {
        let bus = self
            .bus
            .as_ref()
            .expect("a session started with a screen reader");
        let mut reader = Command::new("/usr/bin/python3");
        reader
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/screen_reader.py"
            ))
            .args(args)
            .env("DISPLAY", &self.xvfb.display)
            .env("DBUS_SESSION_BUS_ADDRESS", &bus.address)
            .stderr(Stdio::null());
        reader
    }

    /// A screen reader listening for focus changes and announcements, for `seconds`.
    pub fn listen(&self, seconds: u32) -> Listener {
        let mut process = self
            .screen_reader(&["listen", &seconds.to_string()])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("run screen_reader.py ({NEEDS_BUS}): {e}"));
        let mut heard = BufReader::new(process.stdout.take().unwrap()).lines();
        assert_eq!(
            heard.next().and_then(Result::ok).as_deref(),
            Some("listening")
        );
        Listener {
            _process: Stopped(process),
            heard,
        }
    }

    /// The app's accessible tree as AT-SPI gives it to a screen reader, asked for until `done`
    /// holds, for at most 20 s; the last one either way.
    pub fn reader_tree(&self, done: impl Fn(&[Accessible]) -> bool) -> Vec<Accessible> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let output = self
                .screen_reader(&["tree"])
                .output()
                .unwrap_or_else(|e| panic!("run screen_reader.py ({NEEDS_BUS}): {e}"));
            let tree: Vec<Accessible> = String::from_utf8_lossy(&output.stdout)
                .lines()
                .map(Accessible::parse)
                .collect();
            if done(&tree) || Instant::now() > deadline {
                return tree;
            }
            sleep(Duration::from_millis(250));
        }
    }

    /// The middle of the first node in the reader's tree with `role` and `name`, on the
    /// screen, as AT-SPI places it.
    pub fn reader_place(&self, role: &str, name: &str) -> (usize, usize) {
        let output = self
            .screen_reader(&["where", role, name])
            .output()
            .unwrap_or_else(|e| panic!("run screen_reader.py ({NEEDS_BUS}): {e}"));
        let text = String::from_utf8_lossy(&output.stdout);
        let box_: Vec<usize> = text
            .split_whitespace()
            .map(|n| {
                n.parse()
                    .unwrap_or_else(|_| panic!("extents, got {text:?}"))
            })
            .collect();
        let [x, y, width, height] = box_[..] else {
            panic!("no {role} named {name} on the screen: {text:?}");
        };
        (x + width / 2, y + height / 2)
    }

    /// Clicks `button` (1 left, 3 right) at `at`.
    pub fn click_button(&self, at: (usize, usize), button: &str) {
        let (x, y) = (at.0.to_string(), at.1.to_string());
        self.xdotool(&["mousemove", &x, &y, "click", button]);
        sleep(Duration::from_millis(400));
    }

    pub fn wait_for_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        wait_for_exit(&mut self.app, limit)
    }
}

/// Waits, at most `limit`, for `app` to end; how it ended.
pub fn wait_for_exit(app: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if let Some(status) = app.try_wait().unwrap() {
            return Some(status);
        }
        sleep(Duration::from_millis(50));
    }
    None
}

/// The lines of the app's `log` after its first `before`, but for its own debug lines (the
/// harnesses ask for those): what a user would have read.
pub fn said_since(log: &str, before: usize) -> Vec<&str> {
    log.lines()
        .skip(before)
        .filter(|line| !line.contains("DEBUG"))
        .collect()
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.app.kill();
        let _ = self.app.wait();
    }
}

/// What a listening screen reader hears, line by line (see `tests/screen_reader.py`).
pub struct Listener {
    pub _process: Stopped,
    pub heard: std::io::Lines<BufReader<std::process::ChildStdout>>,
}

impl Listener {
    /// The next line starting with `kind`, without it; it fails once the listener stops.
    pub fn next(&mut self, kind: &str) -> String {
        for line in self.heard.by_ref().map_while(Result::ok) {
            if let Some(rest) = line.strip_prefix(kind) {
                return rest.to_owned();
            }
        }
        panic!("the screen reader heard no {kind} before it stopped listening");
    }

    /// The next object that gained focus: its role, name and attributes.
    pub fn next_focus(&mut self) -> (String, String, String) {
        let line = self.next("focus\t");
        let mut fields = line.splitn(3, '\t').map(str::to_owned);
        let mut field = || fields.next().unwrap_or_default();
        (field(), field(), field())
    }

    /// The next announcement's text.
    pub fn next_announcement(&mut self) -> String {
        self.next("announcement\t")
    }
}

/// A helper process, stopped when this is dropped.
pub struct Stopped(pub Child);

impl Drop for Stopped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Threads that keep cores busy, as a build beside the app would, until this is dropped.
pub struct BusyLoops {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

impl BusyLoops {
    pub fn start(count: usize) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..count)
            .map(|_| {
                let stop = Arc::clone(&stop);
                thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        std::hint::spin_loop();
                    }
                })
            })
            .collect();
        Self { stop, threads }
    }
}

impl Drop for BusyLoops {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// A log line without its terminal colour codes (`ESC [ … m`).
pub fn without_colour(line: &str) -> String {
    let mut plain = String::with_capacity(line.len());
    let mut rest = line;
    while let Some((before, code)) = rest.split_once('\x1b') {
        plain.push_str(before);
        rest = code.split_once('m').map_or("", |(_, after)| after);
    }
    plain.push_str(rest);
    plain
}

/// Keycodes with no keysym in the keymap of the X server at `display`.
pub fn spare_keycodes(display: &str) -> Vec<u32> {
    run("xmodmap", &["-pke"], display)
        .lines()
        .filter_map(|line| {
            let (code, syms) = line.strip_prefix("keycode")?.split_once('=')?;
            let code: u32 = code.trim().parse().ok()?;
            (syms.trim().is_empty() && code > 8).then_some(code)
        })
        .collect()
}

/// Starts the app on `display`, its output going to `app.log` in `shots`, on the session bus at
/// `bus` if there is one.
pub fn spawn_app(display: &str, shots: &Path, setup: Setup, bus: Option<&str>) -> Child {
    let log = fs::File::create(shots.join("app.log")).unwrap();
    let mut app = Command::new(APP);
    // On X11, whatever session runs the tests.
    app.env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .env("DISPLAY", display)
        // Each submission logged (escaped, at debug), to compare what arrived byte for byte.
        .env("RUST_LOG", "warn,agent_chat=debug")
        .stdout(log.try_clone().unwrap())
        .stderr(log);
    if let Some(bus) = bus {
        app.env("DBUS_SESSION_BUS_ADDRESS", bus);
    }
    if setup.links {
        register_link_handler(shots, &mut app);
        // Nor the bus of whatever session runs the tests, whose portal would open links its
        // own way: with no bus, xdg-open does.
        if bus.is_none() {
            app.env_remove("DBUS_SESSION_BUS_ADDRESS")
                .env("XDG_RUNTIME_DIR", shots);
        }
    }
    if setup.ime || setup.japanese {
        app.env("XMODIFIERS", "@im=ibus")
            .env("LC_ALL", "C.UTF-8")
            // And each key and IME message as the field takes it, to tell the IME's own
            // disorder from the field's (`Session::ime_commits`).
            .env(
                "RUST_LOG",
                "warn,agent_chat=debug,agent_chat::input::arrival=trace",
            );
    }
    if setup.opengl {
        hide_vulkan(&mut app);
    }
    if setup.slow_first_frame {
        app.env("AGENT_CHAT_HOLD_FIRST_FRAME", "5");
    }
    // The theme the test reads its screenshots with, whatever the desktop running the tests
    // prefers (the app would follow its portal).
    app.env(
        "AGENT_CHAT_THEME",
        match setup.theme {
            Theme::Light => "light",
            Theme::Dark => "dark",
        },
    );
    app.spawn().expect("start the app")
}

/// Points the Vulkan loader at a driver list that is not there: no Vulkan adapter answers, as on
/// a machine without `mesa-vulkan-drivers`.
pub fn hide_vulkan(app: &mut Command) {
    app.env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json");
}

/// Points glvnd's EGL at a vendor list that is not there: no OpenGL through EGL, as on a machine
/// without Mesa's EGL.
pub fn hide_opengl(app: &mut Command) {
    app.env("__EGL_VENDOR_LIBRARY_FILENAMES", "/nonexistent/egl.json");
}

/// Runs a helper program against `display` and returns its stdout; panics with its stderr.
pub fn run(program: &str, args: &[&str], display: &str) -> String {
    try_run(program, args, display).unwrap_or_else(|why| panic!("{why}"))
}

/// [`run`], with a failure returned as what the program said.
pub fn try_run(program: &str, args: &[&str], display: &str) -> Result<String, String> {
    let output = Command::new(program)
        .args(args)
        .env("DISPLAY", display)
        .output()
        .unwrap_or_else(|e| panic!("run {program} ({NEEDS_X}): {e}"));
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!(
            "{program} {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// Screenshots of one stretch of time, in order.
pub struct Watched(pub Vec<Shot>);

impl Watched {
    /// Whether the input field looked different in any two of them.
    pub fn changed(&self) -> bool {
        assert!(self.0.len() >= 3, "too few screenshots to tell");
        let first = &self.0[0];
        self.0.iter().any(|shot| !shot.input_bar_matches_all(first))
    }

    /// Whether the first of these shows the field as any screenshot of `other` does.
    pub fn input_bar_matches_first_of(&self, other: &Watched) -> bool {
        other
            .0
            .iter()
            .any(|shot| self.0[0].input_bar_matches_all(shot))
    }

    pub fn last_name(&self) -> String {
        self.0.last().map(Shot::name).unwrap_or_default()
    }
}

/// One node of the tree a screen reader gets, a line of `screen_reader.py tree`.
#[derive(Debug, Clone, PartialEq)]
pub struct Accessible {
    pub depth: usize,
    pub role: String,
    pub name: String,
    pub description: String,
    /// Sorted: AT-SPI gives them in no particular order.
    pub attributes: Vec<String>,
    /// Of the states a reader tells, those it has: `enabled`, `focused`.
    pub states: Vec<String>,
    /// The text and the caret's offset in it, for nodes that offer text.
    pub text: Option<(String, i64)>,
}

impl Accessible {
    pub fn parse(line: &str) -> Self {
        let depth = (line.len() - line.trim_start_matches(' ').len()) / 2;
        let fields: Vec<&str> = line.trim_start_matches(' ').split('\t').collect();
        Self {
            depth,
            role: fields[0].to_owned(),
            name: fields.get(1).copied().unwrap_or_default().to_owned(),
            description: fields.get(2).copied().unwrap_or_default().to_owned(),
            attributes: fields
                .get(3)
                .filter(|a| !a.is_empty())
                .map(|a| {
                    let mut attributes: Vec<String> = a.split(';').map(str::to_owned).collect();
                    attributes.sort();
                    attributes
                })
                .unwrap_or_default(),
            states: fields
                .get(4)
                .filter(|s| !s.is_empty())
                .map(|s| s.split(';').map(str::to_owned).collect())
                .unwrap_or_default(),
            text: fields
                .get(5)
                .zip(fields.get(6))
                .map(|(text, caret)| ((*text).to_owned(), caret.parse().unwrap())),
        }
    }
}

/// The lines an app's `log` says it recorded, as logged (escaped, in quotes).
pub fn submissions_in(log: &str) -> Vec<String> {
    log.lines()
        .map(without_colour)
        .filter(|line| line.contains("recorded a submission"))
        .filter_map(|line| {
            let (_, rest) = line.split_once("input=")?;
            let (input, _) = rest.split_once(" reply=")?;
            Some(input.to_owned())
        })
        .collect()
}

/// The first node in `tree` with this role.
pub fn by_role<'a>(tree: &'a [Accessible], role: &str) -> Option<&'a Accessible> {
    tree.iter().find(|node| node.role == role)
}
