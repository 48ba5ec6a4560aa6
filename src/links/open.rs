//! Opens a link in the user's browser, the desktop's own way.
//!
//! - Linux: the XDG desktop portal's `OpenURI` (Flatpak, GNOME, KDE and other desktops that run
//!   `xdg-desktop-portal`; built with the `desktop-theme` feature, which brings the D-Bus
//!   client), which opens the link with the handler the user chose, or asks. Where no portal
//!   answers (no session bus, no portal service), `xdg-open`, then `gio open` and `kde-open`
//!   (the `open` crate's list).
//! - macOS: `/usr/bin/open`, which hands the link to LaunchServices.
//! - Windows: `ShellExecuteExW` (the `open` crate's `shellexecute-on-windows` feature).
//!
//! [`open()`](fn@open) blocks for up to a few seconds (longer while a portal dialog asks which browser to
//! use): call it on a thread of its own and send the outcome back, as `view/open_links.rs`
//! does. It never panics; an `Err` is one line, fit for the log and a notice.

#[cfg(target_os = "linux")]
use std::time::Duration;

/// How long a launcher (`xdg-open` and the others) is watched for a failure before the link is
/// taken as handed off. `xdg-open` exits at once where it finds no way to open the link, but may
/// stay until the browser it started exits.
#[cfg(target_os = "linux")]
const LAUNCHER_WATCH: Duration = Duration::from_secs(3);

/// Opens `uri` in the user's browser (or mail program, for `mailto:`), returning once it is
/// handed off, with the way it took, or has failed. The error says why, in one line, for each
/// way that was tried.
pub fn open(uri: &str) -> Result<&'static str, String> {
    // Others (`file:`, `javascript:`, a custom handler's) are refused, so a link in what
    // someone wrote can only reach the browser or the mail program.
    if !super::may_open(uri) {
        return Err(format!("not a web or mail link: {uri:?}"));
    }
    // A line break would split the handler's argument in two, and the log's line too.
    if uri.chars().any(char::is_control) {
        return Err(format!("a control character in the link: {uri:?}"));
    }
    #[cfg(all(target_os = "linux", feature = "desktop-theme"))]
    let portal = match portal::open_uri(uri) {
        Ok(()) => return Ok("the desktop portal"),
        Err(error) => format!("desktop portal: {error}; "),
    };
    #[cfg(not(all(target_os = "linux", feature = "desktop-theme")))]
    let portal = String::new();
    match launch(uri) {
        Ok(()) => Ok("the desktop's launcher"),
        Err(error) => Err(format!("{portal}{error}")),
    }
}

/// Hands `uri` to the first launcher that takes it: on Linux, one that has not failed within
/// [`LAUNCHER_WATCH`].
#[cfg(target_os = "linux")]
fn launch(uri: &str) -> std::io::Result<()> {
    ::open::that_detached_with_timeout(uri, LAUNCHER_WATCH)
}

/// Hands `uri` to the system: `open` on macOS, `ShellExecuteExW` on Windows.
#[cfg(not(target_os = "linux"))]
fn launch(uri: &str) -> std::io::Result<()> {
    ::open::that_detached(uri)
}

/// The XDG desktop portal's `OpenURI`, over the session bus.
///
/// Written with zbus's async API and run with `async_io::block_on`, as `src/theme/portal.rs` is:
/// the blocking API's `MessageIterator` cannot wait for the portal's answer with a timeout.
#[cfg(all(target_os = "linux", feature = "desktop-theme"))]
mod portal {
    use std::{
        collections::HashMap,
        sync::atomic::{AtomicU32, Ordering},
        time::Duration,
    };

    use futures_lite::{StreamExt, future};
    use zbus::{
        MatchRule, MessageStream, connection,
        message::Type,
        zvariant::{OwnedObjectPath, OwnedValue, Value},
    };

    const DESKTOP: &str = "org.freedesktop.portal.Desktop";
    const PATH: &str = "/org/freedesktop/portal/desktop";
    /// How long a call may take: above dbus-daemon's own limit for starting a service (25 s), so
    /// a portal that is slow to start ends in dbus-daemon's error rather than ours, and a link is
    /// never opened by both the portal and `xdg-open`.
    const CALL_TIMEOUT: Duration = Duration::from_secs(30);
    /// How long to wait for the portal's answer once it took the request (it may show a chooser).
    /// No answer by then counts as handed off.
    const ANSWER_TIMEOUT: Duration = Duration::from_secs(120);

    /// Asks the portal to open `uri`. `Err` where there is no session bus, no portal on it
    /// (`org.freedesktop.DBus.Error.ServiceUnknown`, at once) or no `OpenURI` in it, or where
    /// the portal answered that it could not open the link.
    pub fn open_uri(uri: &str) -> Result<(), String> {
        async_io::block_on(ask(uri))
    }

    async fn ask(uri: &str) -> Result<(), String> {
        let bus = async {
            connection::Builder::session()?
                .method_timeout(CALL_TIMEOUT)
                .build()
                .await
        }
        .await
        .map_err(|error| format!("no session bus: {error}"))?;
        // The portal answers with a `Response` signal from a request object. Listen before
        // asking, so the answer cannot come first; the handle token makes its path ours alone.
        static REQUESTS: AtomicU32 = AtomicU32::new(0);
        let token = format!("linkopen{}", REQUESTS.fetch_add(1, Ordering::Relaxed));
        let rule = MatchRule::builder()
            .msg_type(Type::Signal)
            .interface("org.freedesktop.portal.Request")
            .and_then(|rule| rule.member("Response"))
            .map(|rule| rule.build())
            .map_err(|error| error.to_string())?;
        let mut answers = MessageStream::for_match_rule(rule, &bus, Some(8))
            .await
            .map_err(|error| error.to_string())?;
        let options = HashMap::from([("handle_token", Value::from(token.as_str()))]);
        let request: OwnedObjectPath = bus
            .call_method(
                Some(DESKTOP),
                PATH,
                Some("org.freedesktop.portal.OpenURI"),
                "OpenURI",
                &("", uri, options),
            )
            .await
            .and_then(|reply| reply.body().deserialize())
            .map_err(|error| error.to_string())?;
        let answer = async {
            while let Some(Ok(signal)) = answers.next().await {
                if signal.header().path() == Some(&*request) {
                    return signal
                        .body()
                        .deserialize::<(u32, HashMap<String, OwnedValue>)>()
                        .ok();
                }
            }
            None
        };
        let give_up = async {
            async_io::Timer::after(ANSWER_TIMEOUT).await;
            None
        };
        match future::or(answer, give_up).await {
            // 0: opened; 1: the person closed the chooser, which is their answer, not a failure.
            Some((0 | 1, _)) | None => Ok(()),
            Some((code, _)) => Err(format!("the portal could not open it (response {code})")),
        }
    }
}
