//! The cost of submissions as the conversation grows: 1,000 submissions in one frame of the
//! headless app (rows spawned as in the real app) when the log already holds 0, 200, 10,000 or
//! 100,000 messages. Nothing on the submission path should grow with the log.
//!
//! From 200 messages on, the screen is full and each frame also retires old rows, work the
//! empty case does not have; 200 is the like-for-like baseline for the longer logs.
//!
//!     cargo bench --bench submission

#[path = "../tests/app/common/mod.rs"]
mod common;

use bevy::prelude::*;
use common::{fill_log, fix_pick, headless_app, write_submit_messages};
use divan::Bencher;

fn main() {
    divan::main();
}

/// A headless app whose log already holds `messages` messages.
fn app_with_log(messages: usize) -> App {
    let mut app = headless_app();
    fix_pick(&mut app, &[0, 1, 2, 3, 4]);
    fill_log(&mut app, messages);
    app
}

#[divan::bench(args = [0, 200, 10_000, 100_000], sample_count = 100, sample_size = 1)]
fn thousand_submissions_in_one_frame(bencher: Bencher, logged: usize) {
    let lines = vec!["새 메시지 하나"; 1000];
    bencher
        .with_inputs(|| app_with_log(logged))
        // Returning the app keeps its drop out of the timing.
        .bench_local_values(|mut app| {
            write_submit_messages(&mut app, &lines);
            app
        });
}
