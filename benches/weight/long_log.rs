//! The window app (`src/main.rs`) started with a long conversation already logged, for
//! `benches/weight.sh` to measure what a long log costs: the same plugins, window and update
//! mode, and `LONG_LOG` messages (100,000 unless set) recorded in its first frame, through the
//! same submit message the field sends, so each exchange is a real user line and a real pick.
//!
//!   cargo run --release --example long-log
//!
//! Not a flag of the app: a person never needs to start with a made-up conversation.

use agent_chat::workarounds;
use bevy::prelude::*;
use bevy_simple_text_input::TextInputSubmitMessage;

#[path = "../../src/main.rs"]
#[allow(
    dead_code,
    reason = "its own `main` is the app's; this file has another"
)]
mod window;

fn main() -> AppExit {
    workarounds::explain_startup_failures();
    let messages: usize = std::env::var("LONG_LOG")
        .ok()
        .and_then(|count| count.parse().ok())
        .unwrap_or(100_000);
    let mut app = window::window_app();
    app.add_systems(
        Startup,
        move |mut submits: MessageWriter<TextInputSubmitMessage>| {
            // Two messages an exchange: the line and its reply.
            submits.write_batch((0..messages / 2).map(|i| TextInputSubmitMessage {
                entity: Entity::PLACEHOLDER,
                value: format!("prefill {i}"),
            }));
        },
    );
    app.run()
}
