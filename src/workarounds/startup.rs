//! A missing display or GPU told in one line, not a panic's backtrace.

/// Turns the two start-up failures a user can fix into one line that says how, instead of a panic.
///
/// Bevy 0.19 reports a missing display or GPU by panicking deep inside winit and wgpu set-up
/// (`Failed to build event loop` in bevy_winit, `Unable to find a GPU` in bevy_render); there is
/// no error value to match on, so the panic message is. Every other panic keeps the default
/// report. Canary: `the_startup_panics_main_explains_still_say_so`.
pub fn explain_startup_failures() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| info.payload().downcast_ref::<String>().map(String::as_str))
            .unwrap_or_default();
        let advice = if message.contains("Failed to build event loop") {
            "no display to open a window on: run it in a desktop session, or headless with `xvfb-run -a cargo run`"
        } else if message.contains("Unable to find a GPU") {
            "no GPU adapter found: install a Vulkan driver, or Mesa's software one (Debian: `apt-get install mesa-vulkan-drivers`)"
        } else {
            return default_hook(info);
        };
        // The underlying words too, still on the one line: "no display" has several causes.
        let cause = message.lines().next().unwrap_or_default();
        eprintln!("agent-chat: {advice} ({cause})");
        std::process::exit(1);
    }));
}
