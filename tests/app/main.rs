//! The headless tests: one test crate, one module per concern, so that a change to `src/`
//! links Bevy into one test executable rather than one per file.
//!
//! Run one module's tests by its name: `cargo test --test app ime::`. The real-window tests
//! are a crate of their own (`tests/window.rs`), and so is the soak test (`tests/soak.rs`),
//! which measures its process's memory and needs the process to itself.

mod common;
mod sources;

/// The core example, built into the tests so the spec's list runs against its plugin too
/// (`runtime_flow.rs`). Its `main` is the example's, not the tests'.
#[path = "../../examples/core.rs"]
#[allow(
    dead_code,
    reason = "the example's `main` opens a window; the tests use its plugin"
)]
mod core_example;

mod accessibility;
mod caret;
mod docs;
mod editing;
mod find;
mod first_test;
mod hardening;
mod ime;
mod inspect;
mod keyboard;
mod layout;
mod lines;
mod links;
mod logging;
mod menu;
mod runtime_flow;
mod scripts;
mod scrollback;
mod selection;
mod theme;
mod tour;
mod workarounds;
mod zoom;
