//! One frame of `benches/frame.rs`, once, with full UI layout: `idle`, `submission`, `wheel`
//! (one notch in the middle) or `home` (Ctrl+Home from the newest), on a log that already holds
//! the given number of messages. `benches/frame-instructions.sh` runs it under callgrind, which
//! counts the instructions of [`measured_frame`] alone: a count that does not drift with the
//! machine's load, as the times of `cargo bench` do.
//!
//!     bash benches/frame-instructions.sh

#[path = "../tests/common/mod.rs"]
mod common;

use bevy::prelude::*;
use common::{
    fill_log, finish_mounting, fix_pick, laid_out_app, list_mut, submit_all, tap_down, wheel,
};

fn main() {
    // `cargo bench` runs every bench target with `--bench`; this one only makes sense under
    // the script.
    let mut args = std::env::args().skip(1);
    let (Some(case), Some(Ok(logged))) = (args.next(), args.next().map(|n| n.parse())) else {
        println!("frame_instructions: run `bash benches/frame-instructions.sh`");
        return;
    };
    let mut app = laid_out_app();
    // The same replies every run, so every run lays out the same text.
    fix_pick(&mut app, &[0, 1, 2, 3, 4]);
    fill_log(&mut app, logged);
    finish_mounting(&mut app);
    match case.as_str() {
        "idle" => measured_frame(&mut app, App::update),
        "submission" => measured_frame(&mut app, |app| submit_all(app, &["새 메시지 하나"])),
        "wheel" => {
            let middle = list_mut(&mut app).heights().total() / 2.0;
            list_mut(&mut app).scroll_to(middle);
            finish_mounting(&mut app);
            measured_frame(&mut app, |app| wheel(app, 1.0));
        }
        "home" => {
            tap_down(&mut app, KeyCode::ControlLeft);
            tap_down(&mut app, KeyCode::Home);
            measured_frame(&mut app, App::update);
        }
        other => panic!("no case {other:?}: idle, submission, wheel or home"),
    }
}

/// The frame being counted; the script tells callgrind to count inside this function only.
#[inline(never)]
fn measured_frame(app: &mut App, frame: impl FnOnce(&mut App)) {
    frame(app);
}
