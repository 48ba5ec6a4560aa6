//! What the app says to a screen reader without moving focus: a reply, the copied notice, the
//! zoom level, the find count. Each is an [`Announce`] message; `speak` says it as a polite
//! status node ([`a11y::announcement`]) and keeps [`GAP`] between two.
//!
//! Orca 48 drops an announcement that comes within 100 ms of the app's last one
//! (docs/reading.md): a count that changed twice in quick typing lost the one it settled on. So
//! what comes too soon waits until the gap has passed, and a newer announcement about the same
//! thing replaces it: the count a person stops typing at is the one said, and said last.

use std::{collections::VecDeque, thread, time::Duration};

use bevy::{
    input::{keyboard::KeyboardInput, mouse::MouseButtonInput},
    platform::time::Instant,
    prelude::*,
    winit::{EventLoopProxyWrapper, WinitUserEvent},
};

use crate::{a11y, input::clock::InputClock};

pub(super) fn plugin(app: &mut App) {
    app.register_type::<Topic>()
        .add_message::<Announce>()
        .add_systems(PostUpdate, speak.in_set(Speak));
}

/// The least time between two things the app says.
pub const GAP: Duration = Duration::from_millis(150);

/// What an announcement is about. Of each, one waits at most, and one status node says it: the
/// node carries its topic.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq)]
#[reflect(Component)]
pub enum Topic {
    /// The newest reply.
    Reply,
    /// That a copy was made.
    Copied,
    /// The zoom level after a step.
    Zoom,
    /// The find bar's count.
    FindCount,
    /// That a link could not be opened.
    Link,
}

/// Has screen readers told `text` about `topic`, or, with no text, hushes the topic: what waits
/// on it is dropped, and what said it leaves the reader's tree (the notice went away, the find
/// bar closed).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct Announce {
    /// What it is about.
    pub topic: Topic,
    /// What to say; `None` hushes the topic.
    pub text: Option<String>,
}

impl Announce {
    /// Says `text` about `topic`.
    pub fn say(topic: Topic, text: impl Into<String>) -> Self {
        Self {
            topic,
            text: Some(text.into()),
        }
    }

    /// Hushes `topic`.
    pub fn hush(topic: Topic) -> Self {
        Self { topic, text: None }
    }
}

/// A notice over the conversation that tells of `TOPIC` while it shows, until the next key or
/// click, which also says the user has moved on: the copied notice, the link that could not be
/// opened.
pub trait Notice: Component {
    /// What it tells of, to screen readers too.
    const TOPIC: Topic;
}

/// Hides the notice `N` at the next key or click, on screen and to screen readers.
pub(super) fn hide_the_notice<N: Notice>(
    mut keys: MessageReader<KeyboardInput>,
    mut clicks: MessageReader<MouseButtonInput>,
    mut notice: Single<&mut Node, With<N>>,
    mut announce: MessageWriter<Announce>,
) {
    // Counted, not `any`: every message is read, so none is left to count again next frame.
    let presses = keys.read().filter(|key| key.state.is_pressed()).count()
        + (clicks.read())
            .filter(|click| click.state.is_pressed())
            .count();
    if presses > 0 && notice.display != Display::None {
        notice.display = Display::None;
        // Out of the reader's tree with the notice off the screen.
        announce.write(Announce::hush(N::TOPIC));
    }
}

/// The set of `speak`, after the systems that announce (`frame.rs`).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Speak;

/// What waits to be said, and when the last thing was.
#[derive(Default)]
struct Speaking {
    waiting: VecDeque<(Topic, String)>,
    last: Option<Instant>,
    /// Whether a wake-up is on its way for what waits.
    woken: bool,
}

/// Says the frame's announcements, one per [`GAP`], each as a new status node of its topic
/// (despawning the one before: a live region is read when it appears, so the same words again
/// are said again). What cannot be said yet waits, the newest of each topic, and a thread wakes
/// the resting window when its time comes.
fn speak(
    mut asked: MessageReader<Announce>,
    clock: Res<InputClock>,
    said: Query<(Entity, &Topic)>,
    proxy: Option<Res<EventLoopProxyWrapper>>,
    mut speaking: Local<Speaking>,
    mut commands: Commands,
) {
    for Announce { topic, text } in asked.read() {
        let waiting = speaking.waiting.iter().position(|(on, _)| on == topic);
        match (text, waiting) {
            (Some(text), Some(at)) => speaking.waiting[at].1.clone_from(text),
            (Some(text), None) => speaking.waiting.push_back((*topic, text.clone())),
            (None, at) => {
                if let Some(at) = at {
                    speaking.waiting.remove(at);
                }
                for (node, _) in said.iter().filter(|(_, on)| *on == topic) {
                    commands.entity(node).try_despawn();
                }
            }
        }
    }
    let now = clock.now();
    let due = speaking.last.map_or(now, |last| last + GAP);
    if due <= now
        && let Some((topic, text)) = speaking.waiting.pop_front()
    {
        // Tried: a hush earlier in the frame may have despawned it.
        for (node, _) in said.iter().filter(|(_, on)| **on == topic) {
            commands.entity(node).try_despawn();
        }
        commands.spawn((Name::new("Announcement"), topic, a11y::announcement(&text)));
        speaking.last = Some(now);
        speaking.woken = false;
    }
    if speaking.waiting.is_empty() || speaking.woken {
        return;
    }
    // The window sleeps between events; headless apps run their frames themselves.
    let Some(proxy) = proxy else {
        return;
    };
    let proxy = (**proxy).clone();
    let wait = speaking
        .last
        .map_or(GAP, |last| (last + GAP).saturating_duration_since(now));
    let spawned = thread::Builder::new()
        .name("announcement wake-up".into())
        .spawn(move || {
            thread::sleep(wait);
            let _ = proxy.send_event(WinitUserEvent::WakeUp);
        });
    speaking.woken = spawned.is_ok();
}
