//! The desktop's light or dark preference, from the XDG desktop portal.
//!
//! winit reports the platform's theme on Windows and macOS, and none on Linux, on X11 or
//! Wayland. Linux desktops (GNOME, KDE Plasma and the others) publish the preference through the
//! XDG desktop portal instead: the setting `color-scheme` of the namespace
//! `org.freedesktop.appearance` in its `Settings` interface, with a `SettingChanged` signal when
//! the user switches. GTK 4, Qt 6, Firefox and Chromium read it there too.
//!
//! The window app asks on a thread of its own, so a slow or missing portal never holds up a
//! frame, and listens there for changes; each one wakes the window and arrives as a
//! [`DesktopTheme`] message, which the theme follows as it follows winit's report.
//! Headless apps (no window, no event loop to wake) never ask: the tests play the desktop by
//! writing the message. Nor does an app whose user chose a theme (`AGENT_CHAT_THEME`). Without a portal (a bare X server, a desktop without one) the thread
//! says so at debug level and ends, and the theme stays as it was.

use std::{
    sync::mpsc::{Receiver, TryRecvError, channel},
    thread,
};

use bevy::{
    prelude::*,
    winit::{EventLoopProxyWrapper, WinitUserEvent},
};
use futures_lite::StreamExt;
use zbus::{
    Connection, Proxy,
    zvariant::{OwnedValue, Value},
};

use super::{DesktopTheme, Theme, ThemeChoice};

/// The namespace and key of the preference in the portal's settings.
const APPEARANCE: (&str, &str) = ("org.freedesktop.appearance", "color-scheme");

/// The theme a `color-scheme` value asks for: 1 prefers dark, 2 light, and 0 (no preference)
/// the app's own default. `Read` (version 1 of the interface, all that some portals have) wraps
/// the value in a second variant; `ReadOne` and the signal do not.
pub fn theme_of(value: &Value<'_>) -> Option<Theme> {
    match value {
        Value::Value(inner) => theme_of(inner),
        Value::U32(0) => Some(Theme::default()),
        Value::U32(1) => Some(Theme::Dark),
        Value::U32(2) => Some(Theme::Light),
        _ => None,
    }
}

/// The listening thread's news, taken in at the start of a frame.
#[derive(Default)]
pub(super) struct Listener {
    started: bool,
    news: Option<Receiver<Theme>>,
}

/// Starts the listening thread in the window app's first frame (unless the user chose a theme),
/// then writes what it heard.
pub(super) fn hear_the_desktop(
    proxy: Option<Res<EventLoopProxyWrapper>>,
    choice: Option<Res<ThemeChoice>>,
    mut listener: Local<Listener>,
    mut heard: MessageWriter<DesktopTheme>,
) {
    if !listener.started {
        listener.started = true;
        // Nothing to follow where the user chose a theme.
        let (Some(proxy), None) = (proxy, choice) else {
            return;
        };
        let proxy = (**proxy).clone();
        let (tell, news) = channel();
        let spawned = thread::Builder::new()
            .name("desktop theme".into())
            .spawn(move || {
                let told = async_io::block_on(listen(|theme| {
                    // The event loop is gone once the app exits; the thread ends with it.
                    tell.send(theme).is_ok() && proxy.send_event(WinitUserEvent::WakeUp).is_ok()
                }));
                if let Err(error) = told {
                    debug!("no desktop theme to follow: {error}");
                }
            });
        match spawned {
            Ok(_) => listener.news = Some(news),
            Err(error) => warn!("could not listen for the desktop's theme: {error}"),
        }
    }
    let Some(news) = &listener.news else {
        return;
    };
    let ended = loop {
        match news.try_recv() {
            Ok(theme) => {
                heard.write(DesktopTheme(theme));
            }
            Err(TryRecvError::Empty) => break false,
            Err(TryRecvError::Disconnected) => break true,
        }
    };
    if ended {
        listener.news = None;
    }
}

/// Reads the preference from the session bus's portal, then listens for its changes, handing
/// each to `tell` until it returns `false`.
async fn listen(mut tell: impl FnMut(Theme) -> bool) -> zbus::Result<()> {
    let bus = Connection::session().await?;
    let settings = Proxy::new(
        &bus,
        "org.freedesktop.portal.Desktop",
        "/org/freedesktop/portal/desktop",
        "org.freedesktop.portal.Settings",
    )
    .await?;
    // Subscribed before reading, so a change in between is not missed.
    let mut changes = settings.receive_signal("SettingChanged").await?;
    let now: OwnedValue = settings.call("Read", &APPEARANCE).await?;
    if let Some(theme) = theme_of(&now)
        && !tell(theme)
    {
        return Ok(());
    }
    while let Some(change) = changes.next().await {
        let body = change.body();
        let Ok((namespace, key, value)) = body.deserialize::<(&str, &str, Value<'_>)>() else {
            continue;
        };
        if (namespace, key) == APPEARANCE
            && let Some(theme) = theme_of(&value)
            && !tell(theme)
        {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_color_scheme_is_read_as_the_portal_gives_it() {
        assert_eq!(theme_of(&Value::U32(1)), Some(Theme::Dark));
        assert_eq!(theme_of(&Value::U32(2)), Some(Theme::Light));
        // No preference: the app's own.
        assert_eq!(theme_of(&Value::U32(0)), Some(Theme::default()));
        // `Read` wraps it once more.
        let wrapped = Value::Value(Box::new(Value::U32(2)));
        assert_eq!(theme_of(&wrapped), Some(Theme::Light));
        // A value from a newer portal that this app does not know changes nothing.
        assert_eq!(theme_of(&Value::U32(3)), None);
        assert_eq!(theme_of(&Value::from("prefer-light")), None);
    }
}
