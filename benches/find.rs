//! The find bar's and the selection's costs with 100,000 messages logged (the benchmarks' usual
//! log, `fill_log`), on the wall clock, in the dev profile the tests use:
//!
//! - opening the bar: the frames it takes to fold every body into the search's copy;
//! - each keystroke of a query: how long until the count is complete, in how many frames, and
//!   the longest of those frames (whole frames, UI layout and all);
//! - Ctrl+A then Ctrl+C in the conversation: how long until the text is on the clipboard;
//! - the search's memory beside the bodies' own bytes.
//!
//! Run a few times: this machine is shared, and wall-clock times drift with its load (the
//! instruction counts of `benches/frame-instructions.sh` do not).
//!
//!     cargo bench --profile dev --bench find

#[path = "../tests/app/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use agent_chat::{
    chat::{ChatMessage, MessageLog},
    view::find::Finder,
};
use bevy::{input::keyboard::Key, prelude::*};
use common::{
    copied, fill_log, finish_mounting, fix_pick, key_in, laid_out_app, play_the_clipboard_in, tap,
    tap_down, tap_up,
};

const LOGGED: usize = 100_000;

fn main() {
    if std::env::args().any(|arg| arg == "--list") {
        return;
    }
    let mut app = play_the_clipboard_in(laid_out_app());
    fix_pick(&mut app, &[0, 1, 2, 3, 4]);
    fill_log(&mut app, LOGGED);
    finish_mounting(&mut app);
    let idle = median_frame(&mut app);
    println!("{LOGGED} messages; an idle frame: {:.2} ms", ms(idle));

    ctrl(&mut app, KeyCode::KeyF, "f");
    let (frames, total, longest) = until_searched(&mut app);
    println!(
        "open the bar (fold every body): {frames} frames, {:.1} ms, longest frame {:.2} ms",
        ms(total),
        ms(longest)
    );
    let mut query = String::new();
    for c in "메시지 4999".chars() {
        query.push(c);
        key_in(&mut app, &c.to_string());
        let (frames, total, longest) = until_searched(&mut app);
        let count = app.world().resource::<Finder>().count();
        println!(
            "typed {query:<12} count {count:>6} complete in {:>6.1} ms, {frames} frames, longest {:.2} ms",
            ms(total),
            ms(longest)
        );
    }
    let bodies: usize = app
        .world_mut()
        .query::<&ChatMessage>()
        .iter(app.world())
        .map(|message| message.body().len())
        .sum();
    let held = app.world().resource::<Finder>().heap_bytes();
    println!(
        "search memory: {:.2} MB beside {:.2} MB of bodies ({:.2}x)",
        held as f64 / 1e6,
        bodies as f64 / 1e6,
        held as f64 / bodies as f64
    );
    tap(&mut app, KeyCode::Escape, Key::Escape);
    app.update();
    let idle_closed = median_frame(&mut app);

    // Into the conversation, select all of it, copy.
    tap(&mut app, KeyCode::Tab, Key::Tab);
    app.update();
    let start = Instant::now();
    ctrl(&mut app, KeyCode::KeyA, "a");
    ctrl(&mut app, KeyCode::KeyC, "c");
    let took = start.elapsed();
    let text = copied(&mut app);
    println!(
        "Ctrl+A, Ctrl+C over {LOGGED} messages: {:.1} ms, {:.2} MB on the clipboard",
        ms(took),
        text.iter().map(String::len).sum::<usize>() as f64 / 1e6
    );
    println!(
        "an idle frame after closing the bar: {:.2} ms",
        ms(idle_closed)
    );
}

fn ctrl(app: &mut App, key_code: KeyCode, letter: &str) {
    tap_down(app, KeyCode::ControlLeft);
    tap(app, key_code, Key::Character(letter.into()));
    tap_up(app, KeyCode::ControlLeft);
    app.update();
}

/// Runs frames until the search has been through the log: how many, the time they took, and
/// the longest.
fn until_searched(app: &mut App) -> (usize, Duration, Duration) {
    let (mut frames, mut total, mut longest) = (0, Duration::ZERO, Duration::ZERO);
    loop {
        let start = Instant::now();
        app.update();
        let took = start.elapsed();
        frames += 1;
        total += took;
        longest = longest.max(took);
        let len = app.world().resource::<MessageLog>().len();
        if app.world().resource::<Finder>().is_complete(len) || frames > 1000 {
            return (frames, total, longest);
        }
    }
}

fn median_frame(app: &mut App) -> Duration {
    let mut times: Vec<Duration> = (0..21)
        .map(|_| {
            let start = Instant::now();
            app.update();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}
