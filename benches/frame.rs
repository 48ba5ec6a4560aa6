//! The cost of a whole frame with UI layout and text running (`DefaultPlugins`, no GPU, no
//! window) when the log holds 100, 10,000 or 100,000 messages, every one of them reachable:
//!
//! - an idle frame, at the newest message;
//! - the frame in which one more submission arrives;
//! - a frame that scrolls by one wheel notch, in the middle of the conversation;
//! - the Ctrl+Home frame, from the newest message to the first.
//!
//! The virtual list mounts rows for the view only, so none of these should grow with the log.
//!
//!     cargo bench --profile dev --bench frame

#[path = "../tests/app/common/mod.rs"]
mod common;

use std::cell::RefCell;

use bevy::prelude::*;
use common::{
    fill_log, finish_mounting, fix_pick, laid_out_app, list_mut, press, wheel,
    write_submit_messages,
};
use divan::Bencher;

fn main() {
    divan::main();
}

/// A laid-out app with `messages` messages in its log, at the newest, settled.
fn app_with_log(messages: usize) -> App {
    let mut app = laid_out_app();
    fix_pick(&mut app, &[0, 1, 2, 3, 4]);
    fill_log(&mut app, messages);
    finish_mounting(&mut app);
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
    bencher.bench_local(|| write_submit_messages(&mut app, &["새 메시지 하나"]));
}

#[divan::bench(args = [100, 10_000, 100_000], sample_count = 100, sample_size = 1)]
fn wheel_notch_in_the_middle(bencher: Bencher, logged: usize) {
    let mut app = app_with_log(logged);
    let middle = list_mut(&mut app).heights().total() / 2.0;
    list_mut(&mut app).scroll_to(middle);
    finish_mounting(&mut app);
    // Up and down by turns, so the view stays in the middle.
    let mut notch = 1.0;
    bencher.bench_local(|| {
        wheel(&mut app, notch);
        notch = -notch;
    });
}

#[divan::bench(args = [100, 10_000, 100_000], sample_count = 100, sample_size = 1)]
fn ctrl_home_from_the_newest(bencher: Bencher, logged: usize) {
    let app = RefCell::new(app_with_log(logged));
    bencher
        // Back to the newest before each sample, outside the timing.
        .with_inputs(|| press(&mut app.borrow_mut(), &[KeyCode::ControlLeft, KeyCode::End]))
        .bench_local_values(|()| {
            let mut app = app.borrow_mut();
            common::tap_down(&mut app, KeyCode::ControlLeft);
            common::tap_down(&mut app, KeyCode::Home);
            app.update();
            common::tap_up(&mut app, KeyCode::Home);
            common::tap_up(&mut app, KeyCode::ControlLeft);
        });
}
