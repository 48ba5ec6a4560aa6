//! The measured frame of `benches/submission.rs`, once: 1,000 submissions on a log that already
//! holds the given number of messages. `benches/submission-instructions.sh` runs it under
//! callgrind, which counts the instructions of [`measured_frame`] alone; unlike a time, the
//! count is the same on a busy machine as on a quiet one.
//!
//!     bash benches/submission-instructions.sh

#[path = "../tests/app/common/mod.rs"]
mod common;

use bevy::prelude::*;
use common::{fill_log, fix_pick, headless_app, write_submit_messages};

fn main() {
    // `cargo bench` runs every bench target with `--bench`; this one only makes sense under
    // the script.
    let Some(logged) = std::env::args().nth(1).and_then(|arg| arg.parse().ok()) else {
        println!("submission_instructions: run `bash benches/submission-instructions.sh`");
        return;
    };
    let mut app = headless_app();
    fix_pick(&mut app, &[0, 1, 2, 3, 4]);
    fill_log(&mut app, logged);
    measured_frame(&mut app, &["새 메시지 하나"; 1000]);
}

/// The frame being counted; the script tells callgrind to count inside this function only.
#[inline(never)]
fn measured_frame(app: &mut App, lines: &[&str]) {
    write_submit_messages(app, lines);
}
