//! What the app writes to its log when a user types control characters or bidi overrides.
//!
//! The log is caught by a subscriber for this test's thread alone, where the app's systems run
//! (the app builds Bevy single-threaded): the tests beside it, on other threads, log nowhere.

use crate::common;

use std::{
    io,
    sync::{Arc, Mutex},
};

use bevy::log::{
    Level,
    tracing::subscriber::set_default,
    tracing_subscriber::{fmt, fmt::MakeWriter},
};
use common::*;

/// Everything the subscriber writes, kept in memory.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for Captured {
    type Writer = Captured;
    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

#[test]
fn bodies_are_logged_at_debug_level_only_and_escaped() {
    let captured = Captured::default();
    let _on_this_thread = set_default(
        fmt()
            .with_max_level(Level::TRACE)
            .with_ansi(false)
            .with_writer(captured.clone())
            .finish(),
    );

    let mut app = headless_app();
    // A terminal colour escape, a bell, and a right-to-left override around Korean text.
    let hostile = "\u{1b}[31m빨강\u{7} \u{202e}거꾸로\u{202c}";
    // The field would turn the controls into spaces; sent raw, they must still log escaped.
    write_submit_message(&mut app, hostile);
    assert_eq!(
        recorded(&app).0,
        [hostile],
        "the body itself is kept as sent"
    );

    let log = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    for raw in ['\u{1b}', '\u{7}', '\u{202e}', '\u{202c}'] {
        assert!(
            !log.contains(raw),
            "{raw:?} reached the log unescaped:\n{log}"
        );
    }
    let lines: Vec<&str> = log.lines().filter(|line| line.contains("빨강")).collect();
    assert_eq!(lines.len(), 1, "the body is logged once:\n{log}");
    assert!(
        lines[0].contains("DEBUG")
            && lines[0].contains(r"\u{1b}[31m빨강\u{7} \u{202e}거꾸로\u{202c}"),
        "at debug level, escaped: {}",
        lines[0]
    );
}
