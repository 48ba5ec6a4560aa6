//! Which screen readers listen for what, from AT-SPI's registry: whether one of them speaks a
//! change of the focused node's description and no announcement (Orca 43), so that
//! `say_on_the_focus` must say each announcement there too.
//!
//! Every AT-SPI client tells the registry which events it wants (`RegisterEvent`), and the
//! registry tells every app (`GetRegisteredEvents`, then the signals `EventListenerRegistered`
//! and `EventListenerDeregistered`), so that an app need not send what nobody hears. Orca 43
//! registers `Object:PropertyChange:AccessibleDescription` and no `Object:Announcement`; Orca 48
//! registers both (as, from their scripts, Orca 46 and 47 do), and said an announcement twice
//! when the app also put it on the focus. The app asks on a thread of its own once a reader has asked for the tree, and follows
//! the readers as they come and go. Only with a window: headless apps keep the default.

use std::{
    collections::{BTreeMap, BTreeSet},
    sync::mpsc::{Receiver, TryRecvError, channel},
    thread,
};

use bevy::{a11y::AccessibilityRequested, prelude::*, winit::EventLoopProxyWrapper};
use futures_lite::{StreamExt, stream};
use zbus::{Connection, Proxy, connection::Builder};

use super::FocusSpeaks;

/// The event a reader that speaks the focus's description listens for.
const DESCRIPTION: &str = "Object:PropertyChange:AccessibleDescription";
/// The event a reader that speaks announcements listens for.
const ANNOUNCEMENT: &str = "Object:Announcement:";

/// Whether a listener registered as `listener` hears `event` (both as the registry writes them,
/// `Class:Major:Minor`): each part it names must be the event's, and a part it leaves empty, or
/// out, stands for any.
pub fn hears(listener: &str, event: &str) -> bool {
    let mut event = event.split(':');
    listener.split(':').all(|part| {
        let theirs = event.next().unwrap_or_default();
        part.is_empty() || part.eq_ignore_ascii_case(theirs)
    })
}

/// Whether some client, of those that registered `events` (its bus name, an event it listens
/// for), hears a description change and no announcement.
pub fn focus_must_speak<'a>(events: impl IntoIterator<Item = (&'a str, &'a str)>) -> bool {
    let mut clients: BTreeMap<&str, (bool, bool)> = BTreeMap::new();
    for (client, listener) in events {
        let heard = clients.entry(client).or_default();
        heard.0 |= hears(listener, DESCRIPTION);
        heard.1 |= hears(listener, ANNOUNCEMENT);
    }
    clients
        .values()
        .any(|&(description, announcement)| description && !announcement)
}

/// The listening thread's news.
#[derive(Default)]
pub(super) struct Listening {
    started: bool,
    news: Option<Receiver<bool>>,
}

/// Starts the listening thread once a reader has asked for the tree (in the window app), then
/// takes what it heard into [`FocusSpeaks`].
pub(super) fn follow_the_readers(
    requested: Option<Res<AccessibilityRequested>>,
    window: Option<Res<EventLoopProxyWrapper>>,
    mut listening: Local<Listening>,
    mut speaks: ResMut<FocusSpeaks>,
) {
    if !listening.started && window.is_some() && requested.is_some_and(|r| r.get()) {
        listening.started = true;
        let (tell, news) = channel();
        let spawned = thread::Builder::new()
            .name("screen readers".into())
            .spawn(move || {
                // The app is gone once the receiver is; the thread ends with it.
                if let Err(error) = async_io::block_on(listen(|must| tell.send(must).is_ok())) {
                    debug!("the registry of screen readers did not answer: {error}");
                }
            });
        match spawned {
            Ok(_) => listening.news = Some(news),
            Err(error) => warn!("could not ask which screen readers listen: {error}"),
        }
    }
    let Some(news) = &listening.news else {
        return;
    };
    loop {
        match news.try_recv() {
            Ok(must) => speaks.set_if_neq(FocusSpeaks(must)),
            Err(TryRecvError::Empty) => break,
            Err(TryRecvError::Disconnected) => {
                listening.news = None;
                break;
            }
        };
    }
}

/// Reads the registered events from the accessibility bus's registry, then follows their
/// changes, handing what they mean to `tell` until it returns `false`.
async fn listen(mut tell: impl FnMut(bool) -> bool) -> zbus::Result<()> {
    // Where the accessibility bus is: as AccessKit's adapter finds it.
    let address = match std::env::var("AT_SPI_BUS_ADDRESS") {
        Ok(address) if !address.is_empty() => address,
        _ => {
            let session = Connection::session().await?;
            let bus = Proxy::new(&session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus").await?;
            bus.call("GetAddress", &()).await?
        }
    };
    let bus = Builder::address(address.as_str())?.build().await?;
    let registry = Proxy::new(
        &bus,
        "org.a11y.atspi.Registry",
        "/org/a11y/atspi/registry",
        "org.a11y.atspi.Registry",
    )
    .await?;
    // Subscribed before reading, so a change in between is not missed.
    let added = registry.receive_signal("EventListenerRegistered").await?;
    let removed = registry.receive_signal("EventListenerDeregistered").await?;
    let mut changes = stream::or(added.map(|m| (true, m)), removed.map(|m| (false, m)));
    let now: Vec<(String, String)> = registry.call("GetRegisteredEvents", &()).await?;
    let mut events: BTreeSet<(String, String)> = now.into_iter().collect();
    let meaning = |events: &BTreeSet<(String, String)>| {
        focus_must_speak(events.iter().map(|(c, e)| (c.as_str(), e.as_str())))
    };
    if !tell(meaning(&events)) {
        return Ok(());
    }
    while let Some((registered, change)) = changes.next().await {
        let Ok(event) = change.body().deserialize::<(String, String)>() else {
            continue;
        };
        if registered {
            events.insert(event);
        } else {
            events.remove(&event);
        }
        if !tell(meaning(&events)) {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listener_hears_the_events_its_named_parts_match() {
        assert!(hears(DESCRIPTION, DESCRIPTION));
        assert!(hears("Object:PropertyChange:", DESCRIPTION));
        assert!(hears("Object:", ANNOUNCEMENT));
        assert!(hears("object:announcement", ANNOUNCEMENT));
        assert!(hears("", ANNOUNCEMENT));
        assert!(!hears("Object:PropertyChange:AccessibleName", DESCRIPTION));
        assert!(!hears("Window:Activate:", ANNOUNCEMENT));
    }

    #[test]
    fn the_focus_speaks_only_for_a_reader_that_hears_descriptions_and_no_announcement() {
        // Orca 43, as the registry listed it here (a part of its 34 events).
        let orca43 = [(":1.0", "Window:Activate:"), (":1.0", DESCRIPTION)];
        assert!(focus_must_speak(orca43));
        // Orca 48.
        let orca48 = [(":1.0", ANNOUNCEMENT), (":1.0", DESCRIPTION)];
        assert!(!focus_must_speak(orca48));
        // A tool that listens for announcements beside Orca 43 does not silence Orca 43.
        assert!(focus_must_speak([
            (":1.0", DESCRIPTION),
            (":1.7", ANNOUNCEMENT)
        ]));
        assert!(!focus_must_speak([]));
    }
}
