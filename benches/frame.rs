//! The cost of a whole frame with UI layout and text running (`DefaultPlugins`, no GPU, no
//! window), with 100, 10,000 or 100,000 messages on screen: an idle frame, and the frame in
//! which one more submission arrives.
//!
//!     cargo bench --bench frame

#[path = "../tests/common/mod.rs"]
mod common;

use bevy::prelude::*;
use common::{fill_log, laid_out_app, submit_all};
use divan::Bencher;

fn main() {
    divan::main();
}

/// A laid-out app with `messages` messages in its log and on screen, settled.
fn app_with_log(messages: usize) -> App {
    let mut app = laid_out_app();
    fill_log(&mut app, messages);
    app
}

#[divan::bench(args = [100, 10_000, 100_000], sample_count = 100)]
fn idle_frame(bencher: Bencher, logged: usize) {
    let mut app = app_with_log(logged);
    bencher.bench_local(|| app.update());
}

#[divan::bench(args = [100, 10_000, 100_000], sample_count = 100, sample_size = 1)]
fn frame_with_one_submission(bencher: Bencher, logged: usize) {
    let mut app = app_with_log(logged);
    // Each sample adds two messages to tens of thousands: the log length stays put.
    bencher.bench_local(|| submit_all(&mut app, &["새 메시지 하나"]));
}
