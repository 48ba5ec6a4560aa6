//! AccessKit's Linux adapter 0.22, served to Bevy 0.19.1 as the 0.21 it asks for.
//!
//! The adapter puts the window on the accessibility bus only while a screen reader is said to
//! be running. 0.21 (what Bevy 0.19.1's accesskit_winit 0.32 builds) hears that from
//! `org.a11y.Status.ScreenReaderEnabled`, which only GNOME's own screen-reader switch sets: Orca
//! started from a terminal, by a session's autostart or by another desktop never sets it, so it
//! found no window to read. 0.22 hears it from `IsEnabled`, which every AT-SPI client (Orca
//! among them) turns on (AccessKit/accesskit#713). Its public API is 0.21's, item for item, over
//! the same `accesskit` 0.24, so re-exporting it is the whole of the change: the semver trick.
//!
//! An engine workaround (see `src/workarounds.rs`); its canary,
//! `bevy_builds_the_accesskit_linux_adapter_that_waits_for_screen_reader_enabled`, fails once
//! Bevy's own adapter is one that watches `IsEnabled`, and then this crate and the app's
//! `[patch.crates-io]` entry go.

pub use upstream::*;
