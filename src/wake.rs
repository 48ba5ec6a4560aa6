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
//! Only with the window's runner; `main` adds this plugin.

use bevy::{ecs::message::MessageUpdateSystems, prelude::*, window::RequestRedraw};

/// Drops answered requests at the start of every frame; `main` adds it.
pub fn plugin(app: &mut App) {
    app.add_message::<RequestRedraw>()
        .add_systems(First, forget_answered_requests.after(MessageUpdateSystems));
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
