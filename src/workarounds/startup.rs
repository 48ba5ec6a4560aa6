//! A missing display told in one line, not a panic's backtrace.

/// Turns a start-up failure a user can fix into one line that says how, instead of a panic.
///
/// Bevy 0.19 reports a missing display by panicking deep inside winit's set-up (`Failed to build
/// event loop` in bevy_winit); there is no error value to match on, so the panic message is.
/// (A missing GPU is an error the app's own set-up returns: [`super::gpu::NoGpu`].) Every other
/// panic keeps the default report. Canary: `the_startup_panics_main_explains_still_say_so`.
pub fn explain_startup_failures() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| info.payload().downcast_ref::<String>().map(String::as_str))
            .unwrap_or_default();
        if !message.contains("Failed to build event loop") {
            return default_hook(info);
        }
        let advice = "no display to open a window on: run it in a desktop session, or headless under `xvfb-run -a` (as `xvfb-run -a cargo run`)";
        // The underlying words too, still on the one line: "no display" has several causes.
        let cause = message.lines().next().unwrap_or_default();
        eprintln!("agent-chat: {advice} ({cause})");
        std::process::exit(1);
    }));
}
