//! A million submissions through the headless app: it finishes, keeps every message, and its
//! memory grows in a straight line with the log.
//!
//! It takes seconds, since the screen mounts only the rows in view. To see the figures:
//! `cargo test --test soak -- --nocapture`.

#[path = "app/common/mod.rs"]
mod common;

use agent_chat::{chat::MessageLog, scroll::UNSIZED_VIEW};
use bevy_simple_text_input::TextInputSubmitMessage;
use common::*;

/// Resident memory of this process, in bytes.
fn resident_bytes() -> usize {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("Linux /proc");
    let pages: usize = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

#[test]
fn a_million_submissions_finish_with_memory_growing_linearly() {
    const TOTAL: usize = 1_000_000;
    const PER_FRAME: usize = 10_000;
    const CHECKPOINTS: [usize; 5] = [50_000, 100_000, 400_000, 700_000, 1_000_000];

    let mut app = headless_app();
    fix_pick(&mut app, &[0, 1, 2, 3, 4]);
    let input = input_entity(&mut app);
    let start = resident_bytes();
    let mut at = Vec::new();
    for frame in 0..TOTAL / PER_FRAME {
        for i in 0..PER_FRAME {
            app.world_mut().write_message(TextInputSubmitMessage {
                entity: input,
                value: format!("soak message {}", frame * PER_FRAME + i),
            });
        }
        app.update();
        let submitted = (frame + 1) * PER_FRAME;
        if CHECKPOINTS.contains(&submitted) {
            at.push((submitted, resident_bytes()));
        }
    }

    let messages = app.world().resource::<MessageLog>().len();
    assert_eq!(
        messages,
        2 * TOTAL,
        "every submission logged, with its reply"
    );
    let shown = rows(&mut app);
    assert!(
        !shown.is_empty() && shown.len() <= most_rows_mounted(UNSIZED_VIEW),
        "rows for the view only: {}",
        shown.len()
    );
    assert_newest_run(&app, &shown);

    println!(
        "resident memory per message (log, record and heights; rows are only those in view), 2 per submission:"
    );
    let mut previous = (0, start);
    let mut slopes = Vec::new();
    for &(submitted, bytes) in &at {
        let slope = (bytes - previous.1) as f64 / (2 * (submitted - previous.0)) as f64;
        println!(
            "  {:>9} messages: {:>6} MiB resident, {slope:>6.0} B/message since the last point",
            2 * submitted,
            bytes >> 20
        );
        slopes.push(slope);
        previous = (submitted, bytes);
    }
    // Linear: each stretch costs per message what the second one did (the first includes the
    // app's own start-up), within the slack of allocator growth steps (vectors double).
    let (first, rest) = (slopes[1], &slopes[2..]);
    for slope in rest {
        assert!(
            (slope / first - 1.0).abs() < 0.5,
            "memory per message drifted from {first:.0} to {slope:.0} B: not linear"
        );
    }
}
