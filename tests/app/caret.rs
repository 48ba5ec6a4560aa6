//! The caret blinks while the user is active and rests, solid, 10 s after the last input, so an
//! idle window needs no frames; any key, IME message, click or focus gain wakes the blink.
//! Deterministic time: every frame advances the clock by exactly 100 ms, and Bevy's `Time<Real>`
//! lags it as it does with a renderer (`on_a_lagging_clock`).

use crate::common;

use std::time::Duration;

use agent_chat::input::caret::{BLINK_INTERVAL, BLINK_TIMEOUT, CaretBlink, SLEEP};
use bevy::{
    input::{ButtonState, keyboard::Key, mouse::MouseButtonInput},
    prelude::*,
    window::{Ime, WindowFocused},
    winit::{UpdateMode, WinitSettings},
};
use common::{
    deliver, headless_app, input_entity, on_a_lagging_clock, press_enter, rest, tap, type_text,
};

const FRAME: Duration = Duration::from_millis(100);

/// The app on the manual clock, with the window settings `main` starts with.
fn app_on_a_manual_clock() -> App {
    app_on_a_clock_of(FRAME)
}

/// The app on a manual clock that advances by `frame` every frame.
fn app_on_a_clock_of(frame: Duration) -> App {
    let mut app = headless_app();
    on_a_lagging_clock(&mut app, frame);
    app.insert_resource(WinitSettings {
        focused_mode: UpdateMode::reactive_low_power(BLINK_INTERVAL),
        unfocused_mode: UpdateMode::reactive_low_power(BLINK_INTERVAL),
    });
    app.update();
    app
}

/// Whether the caret is drawn now: the widget's caret is the middle span of its inner text,
/// painted transparent while blinked off.
fn caret_shown(app: &mut App) -> bool {
    let field = input_entity(app);
    let world = app.world_mut();
    let inner = world
        .query::<(Entity, &Name)>()
        .iter(world)
        .find(|(entity, name)| {
            name.as_str() == "TextInputInner"
                && std::iter::successors(Some(*entity), |e| world.get::<ChildOf>(*e).map(|c| c.0))
                    .any(|e| e == field)
        })
        .map(|(entity, _)| entity)
        .expect("the widget's inner text");
    let spans = world.get::<Children>(inner).expect("the widget's spans");
    world.get::<TextColor>(spans[1]).unwrap().0.alpha() > 0.0
}

/// The caret over the next `frames` frames, one sample per frame.
fn watch(app: &mut App, frames: usize) -> Vec<bool> {
    (0..frames)
        .map(|_| {
            app.update();
            caret_shown(app)
        })
        .collect()
}

/// How many times the caret turned on or off in `samples`.
fn toggles(samples: &[bool]) -> usize {
    samples.windows(2).filter(|w| w[0] != w[1]).count()
}

/// How long the window may sleep between frames now, focused or not (the same either way).
fn focused_wait(app: &App) -> Duration {
    let settings = app.world().resource::<WinitSettings>();
    let wait = |mode| match mode {
        UpdateMode::Reactive { wait, .. } => wait,
        UpdateMode::Continuous => panic!("the app runs in reactive mode"),
    };
    let focused = wait(settings.focused_mode);
    assert_eq!(
        focused,
        wait(settings.unfocused_mode),
        "one wait for both modes"
    );
    focused
}

fn resting(app: &App) -> bool {
    app.world().resource::<CaretBlink>().is_resting()
}

/// Runs frames until the caret has rested for a while, and checks it stays solid.
fn idle_past_the_timeout(app: &mut App) {
    let frames = (BLINK_TIMEOUT + Duration::from_secs(1)).as_millis() / FRAME.as_millis();
    watch(app, frames as usize);
    let solid = watch(app, 50);
    assert!(
        solid.iter().all(|&shown| shown),
        "after {BLINK_TIMEOUT:?} without input the caret stays shown, never blinked off: {solid:?}"
    );
    assert!(resting(app), "the caret rests");
    assert_eq!(
        focused_wait(app),
        SLEEP,
        "a resting caret needs no timed frames: the window waits for the next event"
    );
}

/// Checks that the caret is blinking again, shown first, at the widget's pace.
fn assert_blinking(app: &mut App, after: &str) {
    assert!(!resting(app), "{after}: the caret blinks again");
    assert_eq!(
        focused_wait(app),
        BLINK_INTERVAL,
        "{after}: the window wakes for each half of the blink"
    );
    let samples = watch(app, 15);
    assert!(
        samples[0] && toggles(&samples) >= 2,
        "{after}: the caret shows at once, then blinks every {BLINK_INTERVAL:?}: {samples:?}"
    );
}

#[test]
fn the_caret_blinks_for_ten_seconds_after_input_then_rests_solid() {
    let mut app = app_on_a_manual_clock();
    type_text(&mut app, "안녕");

    let frames = (BLINK_TIMEOUT - Duration::from_secs(1)).as_millis() / FRAME.as_millis();
    let blinking = watch(&mut app, frames as usize);
    // 0.5 s on, 0.5 s off: about two changes a second.
    assert!(
        toggles(&blinking) >= 15,
        "the caret blinks while the user is active: {blinking:?}"
    );
    assert!(!resting(&app));
    assert_eq!(focused_wait(&app), BLINK_INTERVAL);

    idle_past_the_timeout(&mut app);
}

#[test]
fn a_key_after_a_long_rest_wakes_the_blink_for_the_whole_timeout() {
    let mut app = app_on_a_manual_clock();
    idle_past_the_timeout(&mut app);

    // A resting caret needs no frames: the window sleeps a minute, until a key wakes it. The
    // frame that handles the key is the first after the rest, when Bevy's `Time<Real>` still
    // reads the rest's start.
    rest(&mut app, Duration::from_secs(60));
    type_text(&mut app, "a");
    let frames = (BLINK_TIMEOUT - Duration::from_secs(1)).as_millis() / FRAME.as_millis();
    let blinking = watch(&mut app, frames as usize);
    assert!(
        !resting(&app) && toggles(&blinking) >= 15,
        "the key counts from when it was handled, not from when the rest began: the caret \
         blinks for the whole timeout again: {blinking:?}"
    );
    idle_past_the_timeout(&mut app);
}

#[test]
fn a_window_that_wakes_only_for_the_blink_turns_the_caret_on_or_off_at_every_wake() {
    // Half a blink between frames, as for a window that nothing else wakes. Bevy's virtual
    // clock, which the widget's timer reads, would count only 250 ms of each.
    let mut app = app_on_a_clock_of(BLINK_INTERVAL);
    type_text(&mut app, "안녕");

    let samples = watch(&mut app, 8);
    assert_eq!(
        toggles(&samples),
        samples.len() - 1,
        "every wake turns the caret on or off, none is a frame with nothing new: {samples:?}"
    );
}

#[test]
fn a_key_an_ime_message_a_click_and_focus_gain_each_wake_the_blink() {
    let mut app = app_on_a_manual_clock();
    let window = Entity::PLACEHOLDER;

    idle_past_the_timeout(&mut app);
    // A key that changes no text: only the blink can show it was seen.
    tap(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft);
    app.update();
    assert_blinking(&mut app, "after a key");

    idle_past_the_timeout(&mut app);
    deliver(&mut app, Ime::Enabled { window });
    app.update();
    assert_blinking(&mut app, "after an IME message");

    idle_past_the_timeout(&mut app);
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(MouseButtonInput {
            button: MouseButton::Left,
            state,
            window,
        });
    }
    app.update();
    assert_blinking(&mut app, "after a click");

    // Losing focus rests the caret at once, whatever the time.
    app.world_mut().write_message(WindowFocused {
        window,
        focused: false,
    });
    app.update();
    assert!(resting(&app), "an unfocused window's caret rests at once");
    let unfocused = watch(&mut app, 20);
    assert!(
        unfocused.iter().all(|&shown| shown),
        "and stays solid: {unfocused:?}"
    );
    app.world_mut().write_message(WindowFocused {
        window,
        focused: true,
    });
    app.update();
    assert_blinking(&mut app, "after focus came back");
}

#[test]
fn a_submission_wakes_the_blink_and_the_field_still_works_after_a_rest() {
    let mut app = app_on_a_manual_clock();
    idle_past_the_timeout(&mut app);

    type_text(&mut app, "쉬고 나서");
    press_enter(&mut app);

    assert_eq!(
        common::recorded(&app).0,
        ["쉬고 나서"],
        "typing after a rest reaches the field and Enter submits it"
    );
    assert_blinking(&mut app, "after a submission");
}
