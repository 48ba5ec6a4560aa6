//! The canaries of the engine workarounds (`src/workarounds.rs` lists them all): each test reads
//! the source of the crate the app works around, at the version Cargo.lock pins, and checks that
//! the behaviour the workaround exists for is still there. One fails once the engine no longer
//! behaves that way: look again at the workaround it names, and most likely remove it.

use crate::sources;

use sources::{ROOT, crate_source, locked_version};

/// The text of `source` from the first `start` to the first `end` after it.
fn between<'a>(source: &'a str, start: &str, end: &str) -> &'a str {
    let from = source
        .find(start)
        .unwrap_or_else(|| panic!("the source still has {start:?}"));
    let rest = &source[from..];
    let to = rest
        .find(end)
        .unwrap_or_else(|| panic!("{end:?} follows {start:?}"));
    &rest[..to]
}

/// Workaround: `input::caret::SLEEP` is a day, where Bevy documents `Duration::MAX` as waiting
/// for ever. bevy_winit adds the wait to the frame's start with `checked_add` and, when that
/// overflows, sets no new deadline: the old one, already past, wakes the loop at once, again
/// and again. bevyengine/bevy#24989 waits instead; once it is in, SLEEP can be `Duration::MAX`.
#[test]
fn bevy_winit_keeps_a_past_deadline_when_the_wait_overflows() {
    let state = crate_source("bevy_winit", "state.rs");
    let reactive = between(
        &state,
        "begin_instant.checked_add(wait)",
        "if self.redraw_requested",
    );
    assert!(
        !reactive.contains("ControlFlow::Wait)") && !reactive.contains("None"),
        "bevy_winit {} handles a wait that overflows; input::caret::SLEEP can be Duration::MAX:\n{reactive}",
        locked_version("bevy_winit")
    );
}

/// Workaround: `workarounds::wake` drops the frame's `RequestRedraw` messages at the start of
/// each frame, because bevy_winit reads them after every frame with a new cursor, from the
/// start of the queue, and so answers each request two or three times.
#[test]
fn bevy_winit_reads_redraw_requests_from_the_start_of_the_queue() {
    let state = crate_source("bevy_winit", "state.rs");
    let after_a_frame = between(&state, "fn redraw_requested(", "\n    fn ");
    assert!(
        after_a_frame.contains("MessageCursor::<RequestRedraw>::default()")
            && after_a_frame.contains(".read(app_redraw_events)"),
        "bevy_winit {} no longer reads RequestRedraw with a fresh cursor after each frame; \
         workarounds::wake's forget_answered_requests may go",
        locked_version("bevy_winit")
    );
}

/// Workaround: `workarounds::wake` polls the queue of a screen reader's requests and wakes the
/// window, because bevy_winit's AccessKit handler only queues them: nothing wakes the event loop
/// until the next window event.
#[test]
fn a_screen_readers_request_does_not_wake_bevy_winit() {
    let accessibility = crate_source("bevy_winit", "accessibility.rs");
    let handler = between(&accessibility, "fn do_action(", "\n    }\n");
    assert!(
        accessibility.contains("Adapter::with_direct_handlers(")
            && handler.contains("push_back(request)")
            && !handler.contains("send_event")
            && !handler.contains("proxy"),
        "bevy_winit {} now wakes its loop for an action request; workarounds::wake's \
         watch_for_reader_requests may go:\n{handler}",
        locked_version("bevy_winit")
    );
}

/// Workaround: `workarounds::explain_startup_failures` turns the panic of a missing display into
/// one line, by its text. Fails if the text changes (the hook would silently stop matching) or
/// goes (Bevy may then return an error the app can handle instead).
#[test]
fn the_startup_panics_main_explains_still_say_so() {
    let ours = std::fs::read_to_string(format!("{ROOT}/src/workarounds/startup.rs")).unwrap();
    let (krate, file, text) = ("bevy_winit", "lib.rs", "Failed to build event loop");
    assert!(
        crate_source(krate, file).contains(&format!("\"{text}")),
        "{krate} {} no longer panics with {text:?}; see workarounds::explain_startup_failures",
        locked_version(krate)
    );
    assert!(
        ours.contains(&format!("\"{text}\"")),
        "the hook matches {text:?}"
    );
}

/// Workaround: `workarounds::gpu` makes the wgpu instance itself, with the event loop's display
/// handle, because bevy_render makes it without one and wgpu's OpenGL backend then cannot draw
/// to a window. Fails once Bevy passes a display handle: then the app may go back to Bevy's own
/// `RenderPlugin`, with the `gles` feature, and keep only the order (Vulkan first).
#[test]
fn bevy_makes_its_wgpu_instance_without_the_display_handle() {
    let renderer = crate_source("bevy_render", "renderer/mod.rs");
    let descriptor = between(
        &renderer,
        "let instance_descriptor = wgpu::InstanceDescriptor {",
        "\n    };",
    );
    assert!(
        descriptor.contains("display: None,"),
        "bevy_render {} now gives wgpu a display handle; workarounds::gpu may go:\n{descriptor}",
        locked_version("bevy_render")
    );
}

/// Workaround: `workarounds::repaint` draws only what changed, because Bevy's UI renderer clears
/// and redraws the whole window every frame. Nothing in Bevy's source says "no damage tracking",
/// so this canary is a version pin: when Bevy moves, read its release notes for partial redraw,
/// and run the window test that compares a partial frame with a whole one.
#[test]
fn repaint_was_checked_against_the_locked_bevy() {
    assert_eq!(
        locked_version("bevy_ui_render"),
        "0.19.1",
        "Bevy moved: does it redraw only what changed now? If not, update this pin after \
         after_a_blinking_caret_redrew_only_itself_the_window_is_the_one_a_whole_frame_draws passes"
    );
}

/// Workaround: `input::caret` raises `Time<Virtual>`'s `max_delta` to two blinks, because the
/// widget's blink timer runs on the virtual clock, which clamps a frame to 250 ms: a window that
/// wakes only to blink would blink at half speed.
#[test]
fn the_widget_blinks_on_the_virtual_clock() {
    let widget = crate_source("bevy_simple_text_input", "lib.rs");
    let blink = between(&widget, "fn blink_cursor(", ") {");
    assert!(
        blink.contains("time: Res<Time>,"),
        "bevy_simple_text_input {} no longer blinks on the virtual clock; \
         input::caret::follow_the_blink_in_virtual_time may go:\n{blink}",
        locked_version("bevy_simple_text_input")
    );
}

/// Workaround: `input::caret` draws the caret as a bar of its own, with the widget's caret
/// glyph taken out of the line, and scrolls the line itself. That holds only while the widget
/// scrolls around its caret's glyph alone: with no glyph in the caret's span, it must leave the
/// line's scroll and justification as the app set them.
#[test]
fn the_widget_scrolls_only_around_its_caret_glyph() {
    let widget = crate_source("bevy_simple_text_input", "lib.rs");
    let rule = between(&widget, "fn scroll_with_cursor(", "\n}\n");
    let version = locked_version("bevy_simple_text_input");
    let changed = |what: &str| {
        format!(
            "bevy_simple_text_input {version}'s scroll_with_cursor {what}; it may scroll the line \
             away from the caret bar (input::caret::place_bar):\n{rule}"
        )
    };
    let finds_the_glyph = ".find(|g| g.section_index == CURSOR_SPAN)";
    let (until_found, after_found) = rule
        .split_once(finds_the_glyph)
        .unwrap_or_else(|| panic!("{}", changed("no longer finds the caret by its glyph")));
    assert!(
        after_found.trim_start().starts_with(
            ".map(|p| p.position.x * inverse_scale_factor)\n        else {\n            continue;"
        ),
        "{}",
        changed("no longer stops where the caret has no glyph")
    );
    // Before that, it writes only where the line's last glyph is the caret's: the app leaves a
    // glyph there only in an empty line, which it lays out from the start anyway.
    let pins_the_end = between(until_found, "Some(CURSOR_SPAN) => {", "}");
    let elsewhere = until_found.replacen(pins_the_end, "", 1);
    assert!(
        !elsewhere.contains("overflow_scroll.x =") && !elsewhere.contains("justify_content ="),
        "{}",
        changed("scrolls without the caret's glyph")
    );
}

/// Workaround: `input/selection.rs` finds the widget's line by its `Name` and its spans by
/// their place, because the widget keeps its marker and span indices private.
#[test]
fn the_widget_writes_its_line_as_three_spans_in_a_named_node() {
    let widget = crate_source("bevy_simple_text_input", "lib.rs");
    let version = locked_version("bevy_simple_text_input");
    assert!(
        widget.contains("\nstruct TextInputInner;"),
        "bevy_simple_text_input {version} exports its line's marker: selection.rs can use it"
    );
    for span in [
        "const PRE_CURSOR_SPAN: usize = 1;",
        "const CURSOR_SPAN: usize = 2;",
        "const POST_CURSOR_SPAN: usize = 3;",
    ] {
        assert!(
            widget.contains(span),
            "bevy_simple_text_input {version} changed its spans ({span}): check selection.rs"
        );
    }
    let line = between(
        &widget,
        "Name::new(\"TextInputInner\")",
        "Name::new(\"TextInputPlaceholderInner\")",
    );
    assert_eq!(
        line.matches("TextSpan::new(").count(),
        3,
        "bevy_simple_text_input {version} writes its line in three spans"
    );
}

/// Workaround: `view/paragraph.rs` marks each Thai word break with a zero-width space, because
/// Bevy's Parley finds line breaks with ICU4X's segmenter for non-complex scripts only, which
/// breaks Thai anywhere between characters. Parley 0.10's `complex-scripts` feature
/// (linebender/parley#621) uses the dictionaries.
#[test]
fn parley_breaks_lines_for_non_complex_scripts_only() {
    let analysis = crate_source("parley", "analysis/mod.rs");
    assert!(
        analysis.contains("LineSegmenter::new_for_non_complex_scripts")
            && !analysis.contains("new_dictionary"),
        "parley {} can break Thai by dictionary: view/paragraph.rs's word marks may go",
        locked_version("parley")
    );
}

/// Workaround: `input/arrival.rs` reads Shift from winit's raw `ModifiersChanged`, because
/// bevy_winit turns no modifier change into a message of its own.
#[test]
fn bevy_winit_passes_modifier_changes_on_only_raw() {
    let state = crate_source("bevy_winit", "state.rs");
    assert!(
        !state.contains("ModifiersChanged"),
        "bevy_winit {} handles ModifiersChanged: input/arrival.rs may read it as Bevy passes it",
        locked_version("bevy_winit")
    );
}

/// Workaround: `input/selection.rs`'s `follow_the_layout` keeps its own copy of a field's text
/// layout, broken at the text's width, because Bevy's measure leaves its block broken at the
/// last width it tried while the node's size came out unchanged.
#[test]
fn bevys_text_block_is_left_as_its_last_measure_broke_it() {
    let pipeline = crate_source("bevy_text", "pipeline.rs");
    assert!(
        pipeline.contains("arbitrarily adjusts the buffer layout"),
        "bevy_text {} keeps the text block's layout as drawn: the fields may read it again \
         (input/selection.rs, follow_the_layout)",
        locked_version("bevy_text")
    );
}

/// Workaround: `workarounds/icon.rs` hands the window's icon to winit itself, because Bevy's
/// `Window` has no icon and bevy_winit builds the window without one (bevyengine/bevy#1031).
#[test]
fn bevy_windows_have_no_icon() {
    let window = crate_source("bevy_window", "window.rs");
    let fields = between(&window, "pub struct Window {", "\n}\n");
    let creation = crate_source("bevy_winit", "winit_windows.rs");
    assert!(
        !fields.to_lowercase().contains("icon") && !creation.contains("with_window_icon"),
        "bevy_window {} gives windows an icon; workarounds/icon.rs may go",
        locked_version("bevy_window")
    );
}

/// Workaround: `workarounds/display.rs` runs the app again on X11 when `WAYLAND_DISPLAY` names
/// no compositor, because winit picks Wayland whenever the variable is set and never falls back.
/// Fails once winit's choice of backend tries the other one.
#[test]
fn winit_takes_wayland_display_at_its_word() {
    let linux = crate_source("winit", "platform_impl/linux/mod.rs");
    let choice = between(
        &linux,
        "// Create the display based on the backend.",
        "\n    }\n",
    );
    assert!(
        choice.contains("Backend::Wayland => EventLoop::new_wayland_any_thread(),")
            && !choice.contains("new_x11_any_thread().or")
            && !linux.contains("fall back"),
        "winit {} may fall back from Wayland to X11 itself; workarounds/display.rs may go:\n{choice}",
        locked_version("winit")
    );
}

/// Workaround: `workarounds::display::log_writer` says a lost compositor in one line, because
/// winit stops its event loop with an error of its own and bevy_winit then logs two more, one
/// calling it a bug. Fails once bevy_winit no longer calls the loop's error "a bug", or winit
/// stops logging it itself: then the lines to drop are others.
#[test]
fn a_lost_compositor_is_five_errors_of_winit_and_bevy_winit() {
    let state = crate_source("bevy_winit", "state.rs");
    let run = between(
        &state,
        "event_loop.run_app(&mut runner_state)",
        "AppExit::error()",
    );
    let wayland = crate_source("winit", "platform_impl/linux/wayland/event_loop/mod.rs");
    assert!(
        run.contains("winit event loop returned an error")
            && run.contains("Failed to receive an app exit code! This is a bug")
            && wayland.contains("tracing::error!(\"Error dispatching event loop: {}\", error);"),
        "bevy_winit {} or winit {} say a lost connection otherwise; check \
         workarounds/display.rs's log writer against what they say now:\n{run}",
        locked_version("bevy_winit"),
        locked_version("winit")
    );
}

/// Workaround: `src/workarounds/accesskit_unix` serves AccessKit's Linux adapter 0.22 to
/// Bevy's accesskit_winit, which asks for 0.21: that one joins the accessibility bus only when
/// `ScreenReaderEnabled` is set, which Orca never sets. Fails once Bevy's accesskit_winit asks
/// for a newer adapter itself (0.22 and later watch `IsEnabled`), or if the patch stops being
/// the adapter in the build. Also checks the patch's premise: what it re-exports watches
/// `IsEnabled`.
#[test]
fn bevy_builds_the_accesskit_linux_adapter_that_waits_for_screen_reader_enabled() {
    let winit = crate_source("accesskit_winit", "../Cargo.toml");
    let wanted = between(&winit, "dependencies.accesskit_unix]", "\n\n");
    assert!(
        wanted.contains("version = \"0.21."),
        "accesskit_winit {} asks for another Linux adapter: if it watches IsEnabled, remove \
         src/workarounds/accesskit_unix and the app's [patch.crates-io]:\n{wanted}",
        locked_version("accesskit_winit")
    );
    let lock = std::fs::read_to_string(format!("{ROOT}/Cargo.lock")).unwrap();
    let shim = between(&lock, "name = \"accesskit_unix\"\nversion = \"0.21", "\n\n");
    assert!(
        !shim.contains("source =") && !lock.contains("[[patch.unused]]"),
        "the adapter in the build is the patch's:\n{shim}"
    );
    // The patch's upstream: the newest accesskit_unix locked (a machine may have unpacked
    // 0.21 too, from before the patch).
    let newest = sources::locked_crates()
        .into_iter()
        .filter(|(name, _)| name == "accesskit_unix")
        .map(|(_, version)| version)
        .max()
        .unwrap();
    let (_, folder) = sources::locked_crate_sources(|name| name == "accesskit_unix")
        .into_iter()
        .find(|(_, folder)| folder.ends_with(format!("accesskit_unix-{newest}/src")))
        .expect("the patch's upstream is unpacked (build the app first)");
    let upstream = std::fs::read_to_string(folder.join("context.rs")).unwrap();
    assert!(
        upstream.contains("receive_is_enabled_changed()"),
        "the adapter the patch re-exports no longer watches IsEnabled"
    );
}
