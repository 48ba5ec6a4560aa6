//! The engine workarounds: what the app does only because of how Bevy 0.19 and the crates under
//! it behave today. None of it is part of the chat, and a first read can skip all of it.
//!
//! Each one says the version it was written against, the behaviour it works around, where that
//! is tracked upstream (or the report, ready to file), and its canary: a test in
//! `tests/app/workarounds.rs` that reads the engine's own source, at the version Cargo.lock pins,
//! and fails once the behaviour is gone. When the canary fails, the workaround may go.
//!
//! Eight live here. [`plugin`] adds three of them, and `main.rs` adds it after `DefaultPlugins`;
//! headless tests have no window or renderer to work around. `main.rs` puts [`gpu::ChooseGpu`]
//! in `DefaultPlugins` in place of `RenderPlugin`, asks [`display`] before anything starts, and
//! gives Bevy's `LogPlugin` [`display::log_writer`]. The eighth is a crate of its own, put in the
//! build by the app's `[patch.crates-io]`:
//!
//! | workaround | behaviour (Bevy 0.19.1) | upstream | canary |
//! |---|---|---|---|
//! | [`repaint`]: draw only what changed | the UI renderer clears and redraws the whole window every frame; on a software renderer a blinking caret costs a whole frame twice a second | none found; report: "bevy_ui_render: redraw only the damaged region of an unchanged window" | `repaint_was_checked_against_the_locked_bevy` (a version pin: nothing in the source says "no damage tracking") |
//! | [`wake`]: one frame per request | bevy_winit reads `RequestRedraw` with a fresh cursor after every frame, so one request runs two or three frames | none found (bevyengine/bevy#16817 and #17991 are about requests missed, the opposite); report: "bevy_winit re-reads RequestRedraw messages it has answered" | `bevy_winit_reads_redraw_requests_from_the_start_of_the_queue` |
//! | [`wake`]: a reader's request wakes the window | bevy_winit builds AccessKit's adapter with direct handlers, which queue the request without waking the event loop | report: "AccessKit action requests wait for the next window event in reactive mode" | `a_screen_readers_request_does_not_wake_bevy_winit` |
//! | `workarounds/icon.rs`: the window's icon through winit | `Window` has no icon, and bevy_winit sets none: the taskbar and Alt+Tab show a blank | bevyengine/bevy#1031 (open) | `bevy_windows_have_no_icon` |
//! | `workarounds/accesskit_unix`: AccessKit's Linux adapter 0.22 under 0.21's name | accesskit_unix 0.21 (what bevy_winit's accesskit_winit 0.32 asks for) puts the window on the accessibility bus only when `ScreenReaderEnabled` is set, which only GNOME's own switch sets: Orca started from a terminal or an autostart never heard the window | AccessKit/accesskit#713 (fixed in 0.22); Bevy takes it with a newer accesskit_winit | `bevy_builds_the_accesskit_linux_adapter_that_waits_for_screen_reader_enabled` |
//! | [`gpu`]: OpenGL where no Vulkan driver answers | bevy_render makes its wgpu instance without the display handle, so wgpu's OpenGL backend takes EGL's surfaceless platform, which cannot draw to a window, and Bevy panics choosing a present mode | report: "pass the event loop's display handle to `wgpu::InstanceDescriptor`" | `bevy_makes_its_wgpu_instance_without_the_display_handle` |
//! | [`display::log_writer`]: a lost compositor in one line | winit 0.30.13 and bevy_winit 0.19.1 end the app with five error lines, wayland-backend's written straight to stderr, one of them "This is a bug" | report: "bevy_winit: an event loop that stops with an error is not a missing exit code" | `a_lost_compositor_is_five_errors_of_winit_and_bevy_winit` |
//! | [`display`]: X11 where `WAYLAND_DISPLAY` names no compositor | winit 0.30.13 opens the window on Wayland whenever `WAYLAND_DISPLAY` is set, and stops if no compositor is there, with an X server beside it | report: "fall back to X11 when the Wayland connection fails and DISPLAY is set" | `winit_takes_wayland_display_at_its_word` |
//! | [`explain_startup_failures`]: one line, not a backtrace | no display is a panic, not an error to handle | report: "return an error when the event loop or GPU adapter can't be created" | `the_startup_panics_main_explains_still_say_so` |
//!
//! The others must act where the behaviour shows, and say so where they are:
//!
//! | workaround | behaviour (version) | upstream | canary |
//! |---|---|---|---|
//! | `input::caret::SLEEP`: a day, not `Duration::MAX` | bevy_winit 0.19.1 keeps a deadline in the past when the wait overflows `Instant`, and spins | bevyengine/bevy#24989 (merged after 0.19) | `bevy_winit_keeps_a_past_deadline_when_the_wait_overflows` |
//! | `input::caret`: the virtual clock's `max_delta` raised to two blinks | bevy_simple_text_input 0.15 blinks on `Time<Virtual>`, which clamps a frame to 250 ms | report: "blink the caret on real time" | `the_widget_blinks_on_the_virtual_clock` |
//! | `input::caret::place_bar`: the caret drawn as a bar, the widget's caret glyph taken out of its line, and the line scrolled by the app | bevy_simple_text_input 0.15 draws its caret as a character of the line, which takes part in bidi ordering and shaping, and scrolls around it a frame late | report: "draw the caret at the layout's cursor geometry" | `the_widget_scrolls_only_around_its_caret_glyph` |
//! | `input/arrival.rs`: Shift read from winit's raw `ModifiersChanged` between the keys | bevy_winit 0.19.1 passes winit's modifier changes on only as raw winit events; an input method that keeps Shift's key events for itself (ibus-hangul while it composes) left the app with Enter alone for Shift+Enter | report: "pass winit's ModifiersChanged on as a Bevy message" | `bevy_winit_passes_modifier_changes_on_only_raw` |
//! | `input/selection.rs`'s `follow_the_layout`: the fields read a layout of their own, broken at the text's width | bevy_text 0.19.1's layout pass breaks a text block's lines at each width it measures, and leaves it so when the node's size comes out the same: a wrapped field read as one long line | report: "keep the text block's layout as drawn after measuring" | `bevys_text_block_is_left_as_its_last_measure_broke_it` |
//! | `input/selection.rs`: the widget's spans by index, its line by `Name` | bevy_simple_text_input 0.15 exports no marker for its line, and writes it in spans it keeps private | report: "export the inner text's marker" | `the_widget_writes_its_line_as_three_spans_in_a_named_node` |
//! | `view/paragraph.rs`: a zero-width space at each Thai word break | Parley 0.9 (Bevy 0.19.1's text) breaks lines with ICU4X's segmenter for non-complex scripts only | linebender/parley#621 (`complex-scripts`, Parley 0.10) | `parley_breaks_lines_for_non_complex_scripts_only` |
//!
//! # Reports ready to file
//!
//! - **bevy_ui_render: redraw only the damaged region of an unchanged window.** A reactive
//!   desktop app on a software renderer (llvmpipe) pays a whole frame, clear and every UI node,
//!   for a caret that blinks twice a second. The camera's main texture is already kept between
//!   frames; a damage rectangle from the extracted nodes, with the clear and the draws scissored
//!   to it, made a blink cost its own pixels here (`workarounds::repaint`, 5 unit tests and a
//!   pixel-for-pixel window test).
//! - **bevy_winit re-reads RequestRedraw messages it has answered.** `redraw_requested` reads
//!   `Messages<RequestRedraw>` with a new `MessageCursor` after every update. A message stays in
//!   the double buffer for the next frame (longer while no fixed update runs), so one request
//!   in `UpdateMode::Reactive` runs two or three frames. Keeping the cursor between frames would
//!   answer each request once.
//! - **AccessKit action requests wait for the next window event in reactive mode.**
//!   bevy_winit builds the adapter with `Adapter::with_direct_handlers`, whose `do_action` only
//!   queues the request. With `UpdateMode::Reactive` and no input, a screen reader's "focus this"
//!   waits until the pointer moves. Sending `WinitUserEvent::WakeUp` through the event loop
//!   proxy from `do_action` would run the frame that reads it.
//! - **Return an error when the event loop or GPU adapter can't be created.** Without a display
//!   `App::run` panics with `Failed to build event loop`, without an adapter with `Unable to
//!   find a GPU!`; an app can only match the panic's text to tell its user what to install.
//! - **bevy_winit: an event loop that stops with an error is not a missing exit code.** When
//!   the Wayland compositor goes away, `run_app` returns winit's error; bevy_winit logs it, then
//!   logs "Failed to receive an app exit code! This is a bug" and returns `AppExit::error()`.
//!   Returning the error as the exit (and wayland-backend logging through `log` by default, not
//!   `eprintln!`) would let an app say "the compositor went away" in its own words.
//! - **bevy_render: pass the event loop's display handle to `wgpu::InstanceDescriptor`.**
//!   `initialize_renderer` sets `display: None`. With the `gles` feature and no Vulkan driver,
//!   wgpu's EGL then opens Mesa's surfaceless platform; its surfaces offer no present mode, and
//!   `present_mode` panics ("Fallback system failed to choose present mode"). bevy_winit already
//!   keeps the handle (`DisplayHandleWrapper`); with it, EGL opens the X11 or Wayland platform
//!   and the window draws on llvmpipe's OpenGL (`workarounds::gpu`).
//! - **bevy_simple_text_input: blink the caret on real time; draw it at the layout's cursor;
//!   export the line's marker.** The blink timer reads `Res<Time>`, clamped by
//!   `Time<Virtual>`'s `max_delta`, so a window that wakes only to blink blinks at half speed.
//!   The caret is a glyph in the line, a neutral character for the bidi algorithm: in
//!   right-to-left text it splits a number in two or shows on its far side, and inside an
//!   Arabic word it breaks the joining of the letters on each side. Parley's
//!   `Cursor::geometry` gives the caret's place without it; `scroll_with_cursor` could use the
//!   same place, before layout rather than a frame after it. `TextInputInner` and the span
//!   order of the line are private, so an app that decorates the line finds it by `Name`.
//!
//! Not a workaround, though it looks like one: the scrollbar's thumb (`scroll.rs`) writes its
//! own `ComputedNode` and `UiGlobalTransform`. It is placed from the list's heights, which exist
//! only after layout; this is how a node is drawn in the frame layout ran, without a second
//! layout pass.

use bevy::prelude::*;

#[cfg(all(unix, not(target_os = "macos")))]
pub mod display;
pub mod gpu;
mod icon;
pub mod repaint;
mod startup;
pub mod wake;

pub use startup::explain_startup_failures;

/// The window's workarounds: [`repaint`], [`wake`] and the window's icon; `main` adds it after
/// `DefaultPlugins`.
pub fn plugin(app: &mut App) {
    app.add_plugins((repaint::plugin, wake::plugin, icon::plugin));
}
