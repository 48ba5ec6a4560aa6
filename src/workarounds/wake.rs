//! One frame for each request for a frame.
//!
//! The window runs a frame only when something happens (see `main.rs`), and a system that
//! needs one more frame, say to show what the widget lays out a frame late, writes a
//! [`RequestRedraw`]. bevy_winit 0.19 looks for requests after every frame by reading the
//! whole message queue from its start. But a message stays in the queue for the frame after
//! the one that wrote it, and longer while frames come faster than the fixed timestep (the
//! queue moves on only after a fixed update). So the runner found the same request again after
//! the frame it asked for, and ran one or two more frames that showed nothing new: measured
//! after each submission, two frames with nothing to draw. On a software renderer each still
//! costs a whole present.
//!
//! By the start of a frame, the runner has read every request written before it and answered
//! them with this frame. So each frame begins by dropping them.
//!
//! A screen reader's requests (focus this message, press that button) need a frame too. The
//! reader's bus thread hands them to bevy_winit 0.19, which queues them without waking the
//! event loop (it builds AccessKit's adapter with direct handlers, not an event-loop proxy), and
//! reads the queue in a frame's `PostUpdate`. A window resting between events would hold them
//! until the next key or pointer move. So once a reader has asked for the tree, a thread looks
//! at that queue every [`ACTION_POLL`] and wakes the loop when something waits; and a frame that
//! read a request asks for the next, in which the app answers it. Without a reader, no thread
//! runs.
//!
//! Only with the window's runner. Both halves are engine workarounds (see [`super`]): their
//! canaries are `bevy_winit_reads_redraw_requests_from_the_start_of_the_queue` and
//! `a_screen_readers_request_does_not_wake_bevy_winit`.

use std::time::Duration;

use bevy::{
    a11y::{AccessibilityRequested, AccessibilitySystems, ActionRequest},
    ecs::message::MessageUpdateSystems,
    prelude::*,
    window::RequestRedraw,
    winit::{EventLoopProxyWrapper, WinitUserEvent, accessibility::WinitActionRequestHandlers},
};

/// How often the waiting screen reader's requests are looked for while the window sleeps.
pub const ACTION_POLL: Duration = Duration::from_millis(50);

/// Drops answered requests at the start of every frame, and wakes the window for a screen
/// reader's requests; [`workarounds::plugin`](super::plugin) adds it.
pub fn plugin(app: &mut App) {
    app.add_message::<RequestRedraw>()
        .add_message::<ActionRequest>()
        .add_systems(First, forget_answered_requests.after(MessageUpdateSystems))
        .add_systems(
            PostUpdate,
            (
                watch_for_reader_requests,
                answer_reader_requests_next_frame.after(AccessibilitySystems::Update),
            ),
        );
}

/// Starts, once a screen reader has asked for the tree, the thread that wakes the window when
/// the reader's requests wait.
fn watch_for_reader_requests(
    requested: Option<Res<AccessibilityRequested>>,
    handlers: Option<Res<WinitActionRequestHandlers>>,
    proxy: Option<Res<EventLoopProxyWrapper>>,
    mut started: Local<bool>,
) {
    if *started || !requested.is_some_and(|requested| requested.get()) {
        return;
    }
    let (Some(handlers), Some(proxy)) = (handlers, proxy) else {
        return;
    };
    if handlers.is_empty() {
        return;
    }
    *started = true;
    let queues: Vec<_> = handlers.values().cloned().collect();
    let proxy = (**proxy).clone();
    let spawned = std::thread::Builder::new()
        .name("reader requests".into())
        .spawn(move || {
            loop {
                std::thread::sleep(ACTION_POLL);
                let waiting = queues
                    .iter()
                    .any(|queue| queue.lock().is_ok_and(|queue| !queue.is_empty()));
                // The loop is gone once the app exits.
                if waiting && proxy.send_event(WinitUserEvent::WakeUp).is_err() {
                    break;
                }
            }
        });
    if let Err(error) = spawned {
        warn!("screen reader requests will wait for the next input: {error}");
    }
}

/// A frame that read a screen reader's request asks for the next, which carries it out.
fn answer_reader_requests_next_frame(
    mut requests: MessageReader<ActionRequest>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if requests.read().count() > 0 {
        redraw.write(RequestRedraw);
    }
}

/// The requests in the queue now were written before this frame, which answers them.
fn forget_answered_requests(mut requests: ResMut<Messages<RequestRedraw>>) {
    requests.clear();
}

#[cfg(test)]
mod tests {
    use bevy::ecs::message::MessageCursor;

    use super::*;

    /// What the runner reads after a frame: every request in the queue.
    fn requests_seen(app: &App) -> usize {
        let requests = app.world().resource::<Messages<RequestRedraw>>();
        MessageCursor::<RequestRedraw>::default()
            .read(requests)
            .count()
    }

    #[test]
    fn a_request_is_seen_after_the_frame_that_wrote_it_and_never_again() {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, plugin)).add_systems(
            Update,
            |mut frame: Local<u32>, mut redraw: MessageWriter<RequestRedraw>| {
                *frame += 1;
                if *frame == 1 {
                    redraw.write(RequestRedraw);
                }
            },
        );

        app.update();
        assert_eq!(
            requests_seen(&app),
            1,
            "the frame that wrote it asks for one more"
        );
        for frame in 2..5 {
            app.update();
            assert_eq!(
                requests_seen(&app),
                0,
                "frame {frame} was asked for once and asks for nothing"
            );
        }
    }
}
