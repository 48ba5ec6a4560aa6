//! End to end, as a person uses it: the real binary in a real X server (Xvfb) rendering through
//! Mesa's software Vulkan, typed into with `xdotool`, and checked from screenshots.
//!
//! These tests open windows, so a plain `cargo test` skips them (they are `#[ignore]`d, and say
//! so in its output). `.ci/run` installs what they need and runs them; locally:
//!
//! ```sh
//! apt-get install xvfb mesa-vulkan-drivers xdotool imagemagick x11-xserver-utils xclip \
//!     python3-xlib ibus ibus-hangul ibus-anthy dbus-daemon x11-utils at-spi2-core libglib2.0-bin \
//!     python3-pyatspi
//! cargo test --test window -- --ignored
//! ```
//!
//! The IME test starts ibus with its Hangul engine on a D-Bus session of its own, and types
//! Korean key by key through it, as a Korean user's desktop would. The screen-reader test starts
//! the accessibility bus on such a session and reads the app with pyatspi, the library Orca uses
//! (`tests/screen_reader.py`).
//!
//! The harness is in two modules: `tests/window/session.rs` starts the processes (the X server,
//! the D-Bus session, ibus, the accessibility bus, the app) and drives them, and
//! `tests/window/screen.rs` reads screenshots. This file holds the tests themselves, but for
//! those of selecting and finding text, in `tests/window/selecting.rs`.
//!
//! Screenshots of the last run are kept under `target/tmp/window-tests/` (inside
//! `CARGO_TARGET_DIR` when that is set); a failing check names the one it looked at.

use std::{
    fs,
    os::unix::fs::{MetadataExt, PermissionsExt},
    path::Path,
    process::Command,
    thread::sleep,
    time::{Duration, Instant},
};

use agent_chat::{
    chat::REPLIES,
    theme::{Palette, Theme},
};

#[path = "window/screen.rs"]
mod screen;
#[path = "window/session.rs"]
mod session;

// Selecting and finding the conversation's text.
#[path = "window/selecting.rs"]
mod selecting;

// The context menus.
#[path = "window/menu.rs"]
mod menu;

// On Wayland, under a headless sway.
#[path = "window/wayland.rs"]
mod wayland;

// Messages of more than one line.
#[path = "window/lines.rs"]
mod lines;

// Links in messages.
#[path = "window/links.rs"]
mod links;

use screen::*;
use session::*;

const APP: &str = env!("CARGO_BIN_EXE_agent-chat");
/// Bevy's default window size; the X screen is larger so the whole window is on it.
const WINDOW: (usize, usize) = (1280, 720);
const NEEDS_X: &str = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap";
const NEEDS_BUS: &str = "needs dbus-daemon and, for the IME, ibus, ibus-hangul, ibus-anthy and xprop; for the screen reader, at-spi2-core, python3-pyatspi, gdbus, orca and speech-dispatcher";

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn one_submission_shows_a_left_user_row_then_a_right_agent_row() {
    let mut x = Session::start("one_submission");
    let empty = x.screenshot("started");

    x.type_text("hello 안녕하세요");
    x.key("Return");
    let shot = x.wait_for("submitted", |shot| shot.bubbles().len() == 2);

    assert_one_exchange(&shot);
    assert!(
        shot.input_bar_matches(&empty),
        "{}: the input is empty again after Enter (compare with {})",
        shot.name(),
        empty.name()
    );
}

/// Checks that `shot` shows exactly one exchange: the user row first, at the left with its
/// border on its left edge only, then the agent row at the right with its border on its right
/// edge only, both with text drawn in them.
fn assert_one_exchange(shot: &Shot) {
    let bubbles = shot.bubbles();
    let [user, agent] = &bubbles[..] else {
        panic!(
            "{}: expected exactly two rows, found {bubbles:?}",
            shot.name()
        );
    };
    assert_eq!(user.side, Side::User, "{}: user row first", shot.name());
    assert_eq!(agent.side, Side::Agent, "{}: agent row second", shot.name());
    assert!(user.bottom < agent.top, "{}: rows in order", shot.name());
    assert_eq!(
        user.border_columns(),
        Some(user.left..=user.left + 3),
        "{}: the user row's border is one 4 px column on its left edge, and nowhere else",
        shot.name()
    );
    assert_eq!(
        agent.border_columns(),
        Some(agent.right - 3..=agent.right),
        "{}: the agent row's border is one 4 px column on its right edge, and nowhere else",
        shot.name()
    );
    assert!(
        user.left < 20 && agent.right > WINDOW.0 - 20,
        "{}: the user row sits at the left, the agent row at the right ({user:?}, {agent:?})",
        shot.name()
    );
    assert!(
        user.text_pixels > 200 && agent.text_pixels > 200,
        "{}: text drawn in both rows",
        shot.name()
    );
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn the_light_theme_keeps_the_sides_borders_and_order() {
    let mut x = Session::start_with(
        "light_theme",
        Setup {
            theme: Theme::Light,
            ..Setup::default()
        },
    );
    x.type_text("밝은 화면");
    x.key("Return");
    // Rows are found by the light palette's fills and borders: none would be found in dark ones.
    let shot = x.wait_for("submitted", |shot| shot.bubbles().len() == 2);
    assert_one_exchange(&shot);
    assert_eq!(
        shot.px(WINDOW.0 / 2, WINDOW.1 / 2),
        rgb(Palette::LIGHT.window_background),
        "{}: the window is light",
        shot.name()
    );
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn dragging_the_scrollbar_thumb_scrolls_back_to_the_oldest_rows() {
    let mut x = Session::start("scrollbar");
    let start = x.screenshot("started");
    assert_eq!(
        start.thumb(),
        None,
        "{}: no scrollbar while nothing overflows",
        start.name()
    );

    for i in 1..=15 {
        x.xdotool(&["type", "--delay", "5", &format!("line {i}")]);
        x.key("Return");
    }
    let end = x.wait_for("overflowing", |shot| shot.thumb().is_some());
    let (top, bottom) = end.thumb().unwrap();
    let input = end.input_bar().expect("the input field is on screen");
    assert!(
        input - bottom < 24 && top > 100,
        "{}: at the newest rows, the thumb ({top}..{bottom}) is at the bottom",
        end.name()
    );

    // Drag the thumb to the top of the window, in steps, as a hand would.
    let x_thumb = (WINDOW.0 - 6).to_string();
    let grab = ((top + bottom) / 2).to_string();
    x.xdotool(&["mousemove", &x_thumb, &grab, "mousedown", "1"]);
    for y in ["400", "200", "0"] {
        sleep(Duration::from_millis(150));
        x.xdotool(&["mousemove", &x_thumb, y]);
    }
    x.xdotool(&["mouseup", "1"]);
    let dragged = x.wait_for("dragged", |shot| {
        shot.thumb().is_some_and(|(top, _)| top < 20)
    });
    let first = &dragged.bubbles()[0];
    assert_eq!(
        (first.side, first.top),
        (Side::User, 12),
        "{}: the oldest row, the first user line, now sits at the top of the window",
        dragged.name()
    );
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn ctrl_home_brings_back_the_first_exchange_pixel_for_pixel_after_many_more() {
    let mut x = Session::start("scrollback");
    x.type_text("처음 한 말");
    x.key("Return");
    let first = x.wait_for("first-exchange", |shot| shot.bubbles().len() == 2);
    let first_rows = first.bubbles();

    // Many screens more: the first exchange's rows are long gone from the mounted ones.
    for i in 1..=60 {
        x.xdotool(&["type", "--delay", "2", &format!("line {i}")]);
        x.xdotool(&["key", "Return"]);
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while x.submissions().len() < 61 {
        assert!(
            Instant::now() < deadline,
            "the 60 lines were not all recorded"
        );
        sleep(Duration::from_millis(200));
    }
    let end = x.wait_for("sixty-more", |shot| {
        shot.thumb().is_some_and(|(_, bottom)| bottom > 600)
    });
    assert!(
        end.crop(&end.bubbles()[0]) != first.crop(&first_rows[0]),
        "{}: the first row is out of view",
        end.name()
    );

    x.key("ctrl+Home");
    let back = x.wait_for("ctrl-home", |shot| {
        shot.thumb().is_some_and(|(top, _)| top < 20)
    });
    let back_rows = back.bubbles();
    for (i, (then, now)) in first_rows.iter().zip(&back_rows).enumerate() {
        assert_eq!(
            (then.side, then.left, then.right, then.top, then.bottom),
            (now.side, now.left, now.right, now.top, now.bottom),
            "{}: row {i} is back where it was in {}",
            back.name(),
            first.name()
        );
        assert!(
            first.crop(then) == back.crop(now),
            "{}: row {i} is back pixel for pixel, as in {}",
            back.name(),
            first.name()
        );
    }
}

#[test]
#[ignore = "opens a real window and types through ibus-hangul: needs the window tools, ibus, ibus-hangul, dbus, xprop"]
fn korean_typed_through_ibus_hangul_arrives_as_a_user_row_byte_for_byte() {
    let mut x = Session::start_with(
        "ibus_hangul",
        Setup {
            ime: true,
            ..Setup::default()
        },
    );
    // ibus-hangul starts in Latin mode; the Hangul key switches it.
    x.key("Hangul");
    // The 2-set keys of 안녕하세요 반가워요, a space after a composed syllable, and a
    // Backspace while 요 is composed (it takes the vowel off, and y puts it back).
    for key in "d k s s u d g k t p d y space q k s r k d n j d y BackSpace y".split(' ') {
        x.key(key);
    }
    // For people: 요 is still composed here, underlined in the field.
    x.screenshot("composing");
    // Back to Latin mode (which commits 요), then ASCII, then Enter.
    x.key("Hangul");
    for key in ["space", "o", "k", "exclam", "Return"] {
        x.key(key);
    }
    let shot = x.wait_for("submitted", |shot| shot.bubbles().len() == 2);

    assert_eq!(
        x.submissions(),
        [format!("{:?}", "안녕하세요 반가워요 ok!")],
        "{}: the sentence arrived once, whole, in order; the IME committed {:?} (app log: {})",
        shot.name(),
        x.ime_commits().0,
        x.shots.join("app.log").display()
    );
    let bubbles = shot.bubbles();
    assert_eq!(
        bubbles[0].side,
        Side::User,
        "{}: shown as the user's row",
        shot.name()
    );
}

#[test]
#[ignore = "opens a real window and types through ibus-hangul: needs the window tools, ibus, ibus-hangul, dbus, xprop"]
fn fifty_lines_typed_through_ibus_hangul_on_a_busy_machine_keep_every_committed_syllable() {
    const LINES: usize = 50;
    // The 2-set keys of three words, each ending in a syllable that Enter commits.
    const WORDS: [(&str, &str); 3] = [
        ("안녕하세요", "d k s s u d g k t p d y"),
        ("반가워요", "q k s r k d n j d y"),
        ("감사합니다", "r k a t k g k q s l e k"),
    ];
    let mut x = Session::start_with(
        "ibus_hangul_rhythm",
        Setup {
            ime: true,
            ..Setup::default()
        },
    );
    // Two busy loops beside the app, as a build beside it: ibus's commit then comes late more
    // often, and the window sleeps between the caret's blinks.
    let busy = BusyLoops::start(2);
    x.key("Hangul");
    let mut expected = Vec::new();
    for (word, keys) in WORDS.iter().cycle().take(LINES) {
        for key in keys.split(' ') {
            x.key(key);
        }
        // A person's pause before Enter: long enough for the window to sleep.
        sleep(Duration::from_millis(500));
        x.key("Return");
        expected.push(format!("{word:?}"));
    }
    drop(busy);
    // Once more, with nothing typed: a line left in the field (an IME that committed its Enter
    // as text) is sent too, and an empty field sends nothing.
    sleep(Duration::from_millis(500));
    x.key("Return");
    let deadline = Instant::now() + Duration::from_secs(30);
    while x.submissions().len() < LINES && Instant::now() < deadline {
        sleep(Duration::from_millis(250));
    }
    sleep(Duration::from_secs(1));
    let sent = x.submissions();
    let whole = sent.iter().filter(|line| expected.contains(line)).count();
    let log = x.shots.join("app.log");
    eprintln!(
        "{whole}/{LINES} lines arrived whole (app log: {})",
        log.display()
    );
    // With two cores kept busy, ibus's X11 frontend itself now and then commits syllables out
    // of order (`우` before `가`), or commits the Enter as text ("\r") ahead of the syllable it
    // ended: those lines are garbled before the app sees them. What the app answers for: every
    // committed syllable lands, in the order it came, and no line goes before a commit that was
    // on its way (the field gave up waiting for none).
    let (commits, gave_up) = x.ime_commits();
    // A committed "\r" is a line break in the field, "\n" in the line sent.
    let letters = |text: &str| -> String {
        text.replace("\\r", "")
            .replace("\\n", "")
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '"' && *c != '\\')
            .collect()
    };
    assert_eq!(
        letters(&sent.concat()),
        letters(&commits.concat()),
        "{whole}/{LINES} whole; the lines sent hold every syllable the IME committed, in its order: {sent:?} (app log: {})",
        log.display()
    );
    assert_eq!(
        gave_up,
        0,
        "{whole}/{LINES} whole; the field never gave up on a commit, so no line went without its last syllable: {sent:?} (app log: {})",
        log.display()
    );
}

#[test]
#[ignore = "opens a real window and types through ibus-hangul: needs the window tools, ibus, ibus-hangul, dbus, xprop"]
fn a_syllable_converted_to_hanja_through_ibus_hangul_is_sent_and_drawn() {
    let mut x = Session::start_with(
        "ibus_hangul_hanja",
        Setup {
            ime: true,
            ..Setup::default()
        },
    );
    x.key("Hangul");
    // 한, then 국: each composed, converted with the Hanja key, its first candidate taken.
    for syllable in [["g", "k", "s"], ["r", "n", "r"]] {
        for key in syllable {
            x.key(key);
        }
        x.key("Hangul_Hanja");
        x.screenshot("candidates");
        x.key("1");
        x.key("Return");
    }
    let shot = x.wait_for("submitted", |shot| shot.bubbles().len() == 4);

    let sent = x.submissions();
    let hanja =
        |c: char| ('\u{4E00}'..='\u{9FFF}').contains(&c) || ('\u{F900}'..='\u{FAFF}').contains(&c);
    assert!(
        sent.len() == 2
            && sent.iter().all(|line| {
                let line = line.trim_matches('"');
                line.chars().count() == 1 && line.chars().all(hanja)
            }),
        "{}: each syllable arrived as one Hanja: {sent:?}",
        shot.name()
    );
    let bubbles = shot.bubbles();
    let (first, second) = (&bubbles[0], &bubbles[2]);
    assert!(
        first.text_pixels > 200 && shot.crop(first) != shot.crop(second),
        "{}: the two Hanja are drawn, each its own glyph (not the same box)",
        shot.name()
    );
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn korean_text_is_drawn_with_real_glyphs() {
    let mut x = Session::start("korean_glyphs");
    // Same length, different syllables: missing glyphs would draw both as the same row of boxes.
    for line in ["안녕하세요", "가나다라마"] {
        x.type_text(line);
        x.key("Return");
    }
    let shot = x.wait_for("submitted", |shot| shot.bubbles().len() == 4);

    let bubbles = shot.bubbles();
    let (first, second) = (&bubbles[0], &bubbles[2]);
    assert!(
        first.text_pixels > 300 && second.text_pixels > 300,
        "{}: the Hangul rows have ink",
        shot.name()
    );
    assert!(
        shot.crop(first) != shot.crop(second),
        "{}: different Hangul words must not render identically (replacement boxes?)",
        shot.name()
    );
}

/// A line in each script the app bundles a font for, as people paste them.
const SCRIPT_LINES: [&str; 6] = [
    "이모지 👋😀👍🏽👨\u{200d}👩\u{200d}👧🇰🇷1\u{fe0f}\u{20e3} 끝",
    "漢字 韓國語 ひらがな カタカナ Καλημέρα Привет Łódź",
    "مرحبا بالعالم",
    "שלום עולם",
    "สวัสดีครับ नमस्ते নমস্কার வணக்கம்",
    "∑ ∫ √2 ≠ ∞ → € ₩ ✓ ★",
];

#[test]
#[ignore = "opens a real window and uses the clipboard: needs the window tools and xclip"]
fn every_script_is_drawn_emoji_in_colour_and_arabic_from_the_right() {
    let mut x = Session::start("every_script");
    let started = fs::read(x.shots.join("app.log")).unwrap().len();
    for (i, line) in SCRIPT_LINES.iter().enumerate() {
        x.offer_clipboard(line);
        x.key("ctrl+v");
        x.key("Return");
        x.wait_for(&format!("line-{i}"), |shot| {
            shot.bubbles().len() == 2 * (i + 1)
        });
    }
    let shot = x.screenshot("conversation");
    assert_eq!(
        x.submissions(),
        SCRIPT_LINES.map(|line| format!("{line:?}")),
        "{}: every line arrived whole",
        shot.name()
    );
    let bubbles = shot.bubbles();
    let users: Vec<&Bubble> = bubbles.iter().filter(|b| b.side == Side::User).collect();
    assert_eq!(users.len(), SCRIPT_LINES.len(), "{}", shot.name());
    for (line, bubble) in SCRIPT_LINES.iter().zip(&users) {
        let gap = shot.widest_blank(bubble);
        assert!(
            gap < 16,
            "{}: {line:?} has {gap} px without ink between its first and last glyph (a glyph drawn as blank space?)",
            shot.name()
        );
    }
    let colourful: Vec<usize> = users.iter().map(|b| shot.colourful_pixels(b)).collect();
    assert!(
        colourful[0] > 400 && colourful[1..].iter().all(|&n| n < 40),
        "{}: the emoji row, and only it, has colour pixels: {colourful:?}",
        shot.name()
    );

    // The Arabic row reads from the right: its label is at the right end of its text, where
    // a left-to-right row has it at the left.
    let label = label_width("사용자");
    let (latin, arabic) = (users[1], users[2]);
    let at_the_right = shot.ink_match(latin, true, arabic, false, label);
    let at_the_left = shot.ink_match(latin, true, arabic, true, label);
    println!(
        "the label's ink matches the Arabic row's right end {at_the_right:.2}, its left {at_the_left:.2}"
    );
    assert!(
        at_the_right > 0.6 && at_the_left < 0.4,
        "{}: the Arabic row's label is at its right end (match {at_the_right:.2}), not its left ({at_the_left:.2})",
        shot.name()
    );

    // The field shows a pasted mixed line as it will be sent.
    x.offer_clipboard("한국어 😀 عربي 漢字");
    x.key("ctrl+v");
    let field = x.wait_for("pasted-mixed", |shot| shot.input_colourful_pixels() > 100);
    let gap = field.input_widest_blank();
    assert!(
        gap < 16,
        "{}: {gap} px without ink in the field's line",
        field.name()
    );

    let log = fs::read(x.shots.join("app.log")).unwrap();
    let since_start = without_colour(&String::from_utf8_lossy(&log[started..]));
    assert!(
        !since_start.contains("ICU4X") && !since_start.contains("WARN"),
        "the log stays quiet for every script, Thai included: {since_start}"
    );
}

/// How wide `text` is drawn in the app's font at its text size, in pixels.
fn label_width(text: &str) -> usize {
    use skrifa::{FontRef, MetadataProvider, instance::LocationRef, instance::Size};
    let font = FontRef::new(include_bytes!("../assets/fonts/AgentChatHangul.ttf")).unwrap();
    let size = Size::new(agent_chat::theme::FONT_SIZE);
    let metrics = font.glyph_metrics(size, LocationRef::default());
    let charmap = font.charmap();
    let width: f32 = text
        .chars()
        .map(|c| metrics.advance_width(charmap.map(c).unwrap()).unwrap())
        .sum();
    width.round() as usize
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn a_blank_submission_changes_no_pixel_of_the_conversation() {
    let mut x = Session::start("blank_submission");
    x.type_text("first");
    x.key("Return");
    let before = x.wait_for("before", |shot| shot.bubbles().len() == 2);

    x.type_text("   ");
    x.key("Return");
    sleep(Duration::from_millis(1500));
    let after = x.screenshot("after-blank");

    assert!(
        after.conversation() == before.conversation(),
        "{}: a blank submission changed the conversation (compare with {})",
        after.name(),
        before.name()
    );
    assert!(
        after.input_bar_matches(&before),
        "{}: the input is empty again after a blank Enter",
        after.name()
    );
}

#[test]
#[ignore = "opens a real window and uses the clipboard: needs the window tools and xclip"]
fn text_another_application_owns_is_pasted_with_ctrl_v_and_sent_byte_for_byte() {
    let mut x = Session::start("paste_from_another_application");
    let text = "붙여 넣은 줄: Bevy로 만든 chat, 정말 좋아요!";
    x.offer_clipboard(text);
    // The fast chord: Ctrl's press and release may reach the app in the frame of the V.
    x.key("ctrl+v");
    x.key("Return");
    let shot = x.wait_for("pasted-and-sent", |shot| shot.bubbles().len() == 2);
    assert_eq!(
        x.submissions(),
        [format!("{text:?}")],
        "{}: the pasted line arrived whole, without a `v` (app log: {})",
        shot.name(),
        x.shots.join("app.log").display()
    );
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn enter_and_escape_work_from_wherever_the_keyboard_puts_them() {
    let mut x = Session::start("enter_elsewhere");
    x.type_text("moved enter");
    // Return moves to a spare keycode, as on a remapped keyboard, or as an on-screen keyboard
    // or wtype sends it through a keymap of its own: the key's place says nothing of Enter,
    // its meaning does.
    let spare = format!("keycode {} = Return", x.spare_keycodes[0]);
    run(
        "xmodmap",
        &["-e", "keycode 36 = NoSymbol", "-e", &spare],
        &x.xvfb.display,
    );
    sleep(Duration::from_millis(300));
    x.key("Return");
    let shot = x.wait_for("sent", |shot| shot.bubbles().len() == 2);
    assert_eq!(
        x.submissions(),
        [format!("{:?}", "moved enter")],
        "{}: Enter on another keycode sent the line",
        shot.name()
    );
    let spare = format!("keycode {} = Escape", x.spare_keycodes[1]);
    run(
        "xmodmap",
        &["-e", "keycode 9 = NoSymbol", "-e", &spare],
        &x.xvfb.display,
    );
    sleep(Duration::from_millis(300));
    x.key("Escape");
    let exited = x.wait_for_exit(Duration::from_secs(10));
    assert!(
        exited.is_some_and(|status| status.success()),
        "Escape on another keycode quits: {exited:?}"
    );
}

#[test]
#[ignore = "opens a real window and uses the clipboard: needs the window tools and xclip"]
fn ctrl_v_with_no_text_on_the_clipboard_changes_nothing_and_says_so_once() {
    let mut x = Session::start("paste_without_text");
    // A fresh X server: no application owns the clipboard.
    x.key("ctrl+v");
    x.type_text("a");
    // Now one does, with a picture and no text.
    let picture = x.screenshot("picture");
    x.offer_clipboard_as(&picture.path.with_extension("png"), "image/png");
    x.key("ctrl+v");
    x.type_text("b");
    x.key("Return");
    let shot = x.wait_for("sent", |shot| shot.bubbles().len() == 2);
    assert_eq!(
        x.submissions(),
        [format!("{:?}", "ab")],
        "{}: the keys typed after each Ctrl+V arrived, with nothing pasted and no `v`",
        shot.name()
    );
    // Each paste says why once. An owner slower than PASTE_PATIENCE to refuse (seen under
    // CI's load, with a refusal 1.05 s late) is also given up on by the typing first, as the
    // silent owner below is: a line of its own, at most one a paste.
    let log = fs::read_to_string(x.shots.join("app.log")).unwrap();
    let count = |what: &str| log.lines().filter(|line| line.contains(what)).count();
    assert_eq!(
        count("nothing to paste: could not read the clipboard"),
        2,
        "one line in the log for each, saying why: {log}"
    );
    assert!(
        count("nothing to paste: the clipboard did not answer") <= 2,
        "at most one give-up a paste: {log}"
    );
}

#[test]
#[ignore = "opens a real window and uses the clipboard: needs the window tools and python3-xlib"]
fn an_owner_that_never_answers_holds_typing_a_moment_and_never_the_window() {
    let mut x = Session::start("paste_from_a_silent_owner");
    let _owner = x.silent_clipboard_owner();
    x.key("ctrl+v");
    x.type_text("ok");
    x.key("Return");
    let shot = x.wait_for("sent", |shot| shot.bubbles().len() == 2);
    assert_eq!(
        x.submissions(),
        [format!("{:?}", "ok")],
        "{}: the keys after Ctrl+V arrived, with nothing pasted",
        shot.name()
    );
    // The clipboard library waits 4 s for the owner for each text format it asks for; the
    // line went long before it gave up.
    let log: Vec<String> = fs::read_to_string(x.shots.join("app.log"))
        .unwrap()
        .lines()
        .map(without_colour)
        .collect();
    let at = |what: &str| log.iter().position(|line| line.contains(what));
    let (gave_up, sent, read_failed) = (
        at("did not answer within"),
        at("recorded a submission"),
        at("could not read the clipboard"),
    );
    assert!(
        gave_up.is_some() && gave_up < sent && read_failed.is_none_or(|failed| Some(failed) > sent),
        "typing gave up on the paste and the line was sent while the read still waited: {log:#?}"
    );
}

#[test]
#[ignore = "opens a real window and uses the clipboard: needs the window tools and xclip"]
fn ctrl_a_shows_the_selection_and_ctrl_c_hands_it_to_another_application() {
    let mut x = Session::start("copy_to_another_application");
    let text = "복사할 줄 copy me";
    x.type_text(text);
    let before = x.screenshot("typed");
    let selection = rgb(x.palette.selection);
    assert_eq!(
        before.input_pixels(selection),
        0,
        "{}: nothing selected yet",
        before.name()
    );
    x.key("ctrl+a");
    let selected = x.wait_for("selected", |shot| shot.input_pixels(selection) > 500);
    x.key("ctrl+c");
    assert_eq!(
        x.read_clipboard(),
        text,
        "{}: xclip reads what the app copied",
        selected.name()
    );
}

#[test]
#[ignore = "opens a real window and uses the clipboard: needs the window tools and xclip"]
fn a_messages_copy_button_hands_its_body_to_another_application() {
    let mut x = Session::start("copy_a_message");
    let text = "대화에서 복사한 줄";
    x.type_text(text);
    x.key("Return");
    let shot = x.wait_for("exchange", |shot| shot.bubbles().len() == 2);
    let user = &shot.bubbles()[0];
    let (left, top, right) = (user.left, user.top, user.right);
    // The pointer on the row shows the button just right of the bubble; a click copies.
    x.xdotool(&[
        "mousemove",
        &(left + 20).to_string(),
        &(top + 10).to_string(),
    ]);
    sleep(Duration::from_millis(300));
    let hovered = x.screenshot("hovered");
    x.xdotool(&[
        "mousemove",
        &(right + 24).to_string(),
        &(top + 12).to_string(),
        "click",
        "1",
    ]);
    sleep(Duration::from_millis(300));
    let clicked = x.screenshot("clicked");
    assert_eq!(
        x.read_clipboard(),
        text,
        "{} then {}: the body, without its label, reaches xclip",
        hovered.name(),
        clicked.name()
    );
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn the_caret_blinks_after_typing_rests_after_ten_seconds_and_blinks_again_after_a_key() {
    let mut x = Session::start("caret_blink");
    x.type_text("깜빡임");
    let typed = Instant::now();
    let after_typing = x.watch_input("after-typing", Duration::from_millis(1500));
    assert!(
        after_typing.changed(),
        "{}: the caret blinks right after typing",
        after_typing.last_name()
    );

    sleep(Duration::from_secs(12).saturating_sub(typed.elapsed()));
    let woken_before = x.main_thread_wakeups();
    let idle = x.watch_input("idle", Duration::from_secs(2));
    let woken = x.main_thread_wakeups() - woken_before;
    assert!(
        !idle.changed(),
        "{}: 12 s after the last key the caret stands still",
        idle.last_name()
    );
    // The main thread runs every frame; asleep, it does not wake. (A few for stray X events.)
    assert!(
        woken < 5,
        "the resting window's main thread woke {woken} times in 2 s: it should sleep until the next event"
    );
    assert!(
        idle.input_bar_matches_first_of(&after_typing),
        "{}: and it rests shown, as right after typing (the caret's on phase)",
        idle.last_name()
    );

    // A key that changes no text.
    x.key("Left");
    let woken = x.watch_input("after-a-key", Duration::from_millis(1500));
    assert!(
        woken.changed(),
        "{}: a key makes the caret blink again",
        woken.last_name()
    );
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn after_a_blinking_caret_redrew_only_itself_the_window_is_the_one_a_whole_frame_draws() {
    let mut x = Session::start("repaint");
    for line in ["다시 그리기", "two", "셋"] {
        x.type_text(line);
        x.key("Return");
    }
    x.wait_for("answered", |shot| shot.bubbles().len() == 6);
    x.type_text("쓰는 중");
    // About twenty frames that each drew only the caret (`repaint`), then the caret rests.
    sleep(Duration::from_secs(12));
    let resting = x.screenshot("resting");

    // A new size is drawn whole, and so is the old size again.
    let window = x.window.clone();
    x.xdotool(&["windowsize", "--sync", &window, "900", "600"]);
    x.wait_for("smaller", |shot| shot.input_bar() != resting.input_bar());
    let (width, height) = (WINDOW.0.to_string(), WINDOW.1.to_string());
    x.xdotool(&["windowsize", "--sync", &window, &width, &height]);
    // Times out, and fails, unless a whole frame draws every pixel as the resting window shows it.
    x.wait_for("drawn-whole-as-resting", |shot| shot.rgb == resting.rgb);
}

#[test]
#[ignore = "opens a real window and reads it through AT-SPI: needs the window tools, dbus-daemon, at-spi2-core, python3-pyatspi, orca, speech-dispatcher"]
fn a_screen_reader_finds_the_entry_the_list_and_both_rows_and_hears_the_reply() {
    let mut x = Session::start_with(
        "screen_reader",
        Setup {
            screen_reader: true,
            ..Setup::default()
        },
    );
    x.type_text("읽어 주세요");
    x.key("Left");
    let typed = x.reader_tree(|tree| {
        by_role(tree, "entry")
            .is_some_and(|entry| entry.text.as_ref().is_some_and(|(t, _)| !t.is_empty()))
    });
    let window = by_role(&typed, "frame").expect("the app's window, as a frame");
    assert_eq!(window.name, "agent-chat");
    let entry = by_role(&typed, "entry").expect("a text entry in the tree");
    assert_eq!(
        (entry.name.as_str(), entry.text.clone()),
        ("메시지 입력", Some(("읽어 주세요".to_owned(), 5))),
        "the entry is labelled, and tells what was typed and that the caret is one back: {typed:#?}"
    );

    let Listener {
        _process: listener,
        mut heard,
    } = x.listen(20);
    x.key("Return");
    let announcement = heard
        .next()
        .and_then(Result::ok)
        .expect("an announcement within 20 s of Enter");
    let reply = announcement
        .strip_prefix("announcement\t에이전트: ")
        .unwrap_or_else(|| panic!("the agent's reply is announced, got {announcement:?}"));
    assert!(REPLIES.contains(&reply), "{reply:?} is one of the replies");
    drop(listener);
    let rest: Vec<String> = heard
        .map_while(Result::ok)
        .filter(|line| line.starts_with("announcement"))
        .collect();
    assert!(rest.is_empty(), "one announcement only, got also {rest:?}");

    let answered = x.reader_tree(|tree| tree.iter().filter(|n| n.role == "list item").count() == 2);
    let list = by_role(&answered, "list").expect("the conversation list");
    assert_eq!(
        (list.name.as_str(), list.description.as_str()),
        ("대화", "메시지 2개")
    );
    let items: Vec<_> = answered
        .iter()
        .filter(|node| node.role == "list item")
        .map(|item| (item.depth, item.name.clone(), item.attributes.clone()))
        .collect();
    let attributes = |n: &str| vec![format!("posinset:{n}"), "setsize:2".to_owned()];
    assert_eq!(
        items,
        [
            (
                list.depth + 1,
                "사용자: 읽어 주세요".to_owned(),
                attributes("1")
            ),
            (
                list.depth + 1,
                format!("에이전트: {reply}"),
                attributes("2")
            ),
        ],
        "both rows, in order, inside the list: {answered:#?}"
    );
    let entry = by_role(&answered, "entry").unwrap();
    assert_eq!(
        entry.text,
        Some((String::new(), 0)),
        "and the entry is empty again"
    );
    // Inside each item, its text through AT-SPI's Text interface, for the reader's caret.
    let texts: Vec<_> = answered
        .iter()
        .filter(|node| node.role == "label")
        .filter_map(|node| Some((node.depth, node.text.clone()?.0)))
        .collect();
    assert_eq!(
        texts,
        [
            (list.depth + 2, "사용자: 읽어 주세요".to_owned()),
            (list.depth + 2, format!("에이전트: {reply}")),
        ],
        "each row's text is text a reader can read through: {answered:#?}"
    );
}

/// What Orca said since `from`, an utterance a line, with the line breaks the speech module
/// puts inside one (after a sentence) taken out.
fn orca_said(x: &Session, from: usize, words: &str) -> Vec<String> {
    let said = x.orca().heard_since(from, words, Duration::from_secs(5));
    said.replace("\n ", " ")
        .lines()
        .map(str::to_owned)
        .filter(|line| !line.is_empty())
        .collect()
}

/// A person who runs these tests with their own Orca on, or a run of two Orca tests at once:
/// Orca will not start beside another Orca of the same user, so the tests' Orca runs in a PID
/// namespace of its own (`Orca::start`). Here another real Orca of the same user runs, on a
/// session bus of its own as a person's would, and is an `orca` to `pgrep`; the tests' Orca
/// starts and speaks all the same, and leaves the other running.
#[test]
#[ignore = "runs two Orcas: needs Xvfb, dbus-daemon, at-spi2-core, orca, speech-dispatcher and util-linux's unshare"]
fn the_tests_orca_starts_beside_another_orca_of_the_same_user() {
    let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join("window-tests/two-orcas");
    let _ = fs::remove_dir_all(&home);
    let theirs = home.join("theirs");
    let runtime = theirs.join("runtime");
    fs::create_dir_all(&runtime).unwrap();
    fs::set_permissions(&runtime, fs::Permissions::from_mode(0o700)).unwrap();
    let xvfb = Xvfb::start();
    let display = [("DISPLAY", xvfb.display.as_str())];
    let their_bus = SessionBus::start(&theirs);
    let _their_at_spi = AtSpi::start(&display, &their_bus, &theirs);
    let log = fs::File::create(theirs.join("orca.log")).unwrap();
    let debug = theirs.join("orca-debug.txt");
    // Theirs in a PID namespace of its own too, only so that it starts whatever Orcas other
    // tests run at the same time: to `pgrep` out here, as to a test's Orca started without a
    // namespace of its own, it is an `orca` of this user all the same.
    let mut their_orca = Reader::Orca43
        .command(&theirs)
        .arg("-u")
        .arg(theirs.join("prefs"))
        .arg(format!("--debug-file={}", debug.display()))
        .env("DISPLAY", &xvfb.display)
        .env("DBUS_SESSION_BUS_ADDRESS", &their_bus.address)
        .env("XDG_CONFIG_HOME", theirs.join("config"))
        .env("XDG_RUNTIME_DIR", &runtime)
        .env("XDG_CACHE_HOME", theirs.join("cache"))
        .env("XDG_DATA_HOME", theirs.join("data"))
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .unwrap_or_else(|e| panic!("start orca ({NEEDS_BUS}): {e}"));
    // Theirs, the child of its `unshare`, is an `orca` of this user to `pgrep`.
    let uid = fs::metadata("/proc/self").unwrap().uid().to_string();
    let parent = their_orca.id().to_string();
    let running = || {
        let found = Command::new("pgrep")
            .args(["-u", &uid, "-x", "-P", &parent, "orca"])
            .output()
            .unwrap();
        found.status.success()
    };
    // Past its own look for other Orcas, as a person's Orca long since is.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !fs::read_to_string(&debug).is_ok_and(|said| said.contains("About to launch Orca.")) {
        assert!(
            Instant::now() < deadline,
            "the other Orca launched ({})",
            theirs.display()
        );
        sleep(Duration::from_millis(100));
    }
    assert!(running(), "the other Orca runs ({})", theirs.display());

    let bus = SessionBus::start(&home);
    let _at_spi = AtSpi::start(&display, &bus, &home);
    for reader in [Reader::Orca43, Reader::Orca48] {
        // Waits to hear "Screen reader on.", and fails the test if it does not.
        let folder = home.join(format!("{reader:?}"));
        let ours = Orca::start(reader, &display, &bus, &folder);
        assert!(ours.spoken().contains("Screen reader on."));
        assert!(
            their_orca.try_wait().unwrap().is_none() && running(),
            "the other Orca is left running beside our {reader:?} ({})",
            theirs.display()
        );
    }
    // With its namespace, and the speech-dispatcher it may have started there.
    let _ = their_orca.kill();
    let _ = their_orca.wait();
}

#[test]
#[ignore = "opens a real window and runs Orca 43 on it: needs the window tools, dbus-daemon, at-spi2-core, orca, speech-dispatcher"]
fn orca_43_started_as_people_start_it_hears_the_field_each_reply_the_focus_the_copy_the_zoom_and_the_count_once()
 {
    orca_hears_each_thing_once(Reader::Orca43);
}

#[test]
#[ignore = "opens a real window and runs Orca 48 on it: needs the window tools, dbus-daemon, at-spi2-core and the chroot of tests/orca48-chroot.sh"]
fn orca_48_started_as_people_start_it_hears_the_field_each_reply_the_focus_the_copy_the_zoom_and_the_count_once()
 {
    orca_hears_each_thing_once(Reader::Orca48);
}

/// How many times the steps whose speech the app paces are taken, in one session.
const STATUS_RUNS: usize = 5;

/// What Orca says of the window and of each thing the app says, with `reader`: each once, five
/// times over, with nothing doubled and nothing dropped. Orca 48 echoes the keys typed, which
/// Orca 43 does not; that echo is left out of what is compared (`orca_heard`).
fn orca_hears_each_thing_once(reader: Reader) {
    // Short names: speech-dispatcher's socket path under them must fit 108 bytes.
    let mut x = Session::start_with(
        &format!("{reader:?}").to_lowercase(),
        Setup {
            screen_reader: true,
            reader,
            ..Setup::default()
        },
    );
    let kept = x.orca().folder.display().to_string();
    let mark = |x: &Session| x.orca().spoken().len();

    // Orca was started first, with no flag set by anyone; the window and its field on start.
    let said = orca_heard(&x, 0, "메시지 입력 entry.");
    assert_eq!(
        said,
        [
            "Screen reader on.",
            "agent-chat frame",
            "메시지 입력 entry."
        ],
        "Orca's speech and debug file: {kept}"
    );

    for run in 0..STATUS_RUNS {
        let on = |what: &str| format!("run {run}, {what} ({kept})");
        // The reply as it arrives, once; never the user's own line.
        let line = format!("fox{run}");
        x.type_text(&line);
        let said = heard_after_key(&mut x, "Return", "에이전트: ");
        let [reply] = &said[..] else {
            panic!(
                "one utterance, the reply, after Enter: {said:?}; {}",
                on("reply")
            );
        };
        let body = reply.strip_prefix("에이전트: ").unwrap_or_default();
        assert!(
            REPLIES.contains(&body),
            "{reply:?} is a reply; {}",
            on("reply")
        );

        // The conversation, where focus goes back to the message focused before (the newest
        // reply, the first time), and the copied notice.
        let said = heard_after_key(&mut x, "shift+Tab", "에이전트: ");
        assert!(
            entered_the_conversation(reader, &said, 2 * run + 2),
            "{said:?}: {}",
            on("the conversation and its focused message")
        );
        assert_eq!(
            heard_after_key(&mut x, "ctrl+c", "메시지를 복사했어요"),
            ["메시지를 복사했어요"],
            "{}",
            on("the copied notice")
        );

        // A zoom step's level, and back, the second key right after the first.
        let from = mark(&x);
        x.key("ctrl+equal");
        x.key("ctrl+0");
        assert_eq!(
            orca_heard(&x, from, "100%"),
            ["110%", "100%"],
            "{}",
            on("the zoom levels")
        );

        // The find bar's count as it settles, typed 100 ms a letter: `f`, `fo` and `fox` find
        // every line sent so far, the digit only this run's.
        assert_eq!(
            heard_after_key(&mut x, "Tab", "entry."),
            ["메시지 입력 entry."],
            "{}",
            on("the field again")
        );
        let from = mark(&x);
        x.key("ctrl+f");
        if run == 0 {
            // Orca 48 says the landmark (`찾기`) only now and then.
            let said = orca_heard(&x, from, "대화에서 찾기 entry.");
            assert!(
                matches!(
                    said.iter().map(String::as_str).collect::<Vec<_>>()[..],
                    ["찾기", "대화에서 찾기 entry."] | ["대화에서 찾기 entry."]
                ),
                "{said:?}: {}",
                on("the find bar")
            );
        } else {
            // The bar opens on the last query, selected (Orca 43 says it), which typing replaces.
            let last = format!("fox{}z", run - 1);
            orca_heard(&x, from, &last);
            sleep(Duration::from_millis(500));
        }
        let from = mark(&x);
        x.xdotool(&["type", "--delay", "100", &line]);
        sleep(Duration::from_secs(1));
        // Only the counts: typing over the selected query, Orca 43 also says `Text unselected.`
        let said: Vec<String> = orca_heard(&x, from, "1/1")
            .into_iter()
            .filter(|line| line.contains('/'))
            .collect();
        // Of `run + 1` lines with `fox`, the one nearest the view is current.
        let all = format!("/{}", run + 1);
        let counts_all = |line: &String| line.ends_with(&all);
        let settled = match &said[..] {
            [only] if run == 0 => only == "1/1",
            [first, last] => counts_all(first) && last == "1/1",
            _ => false,
        };
        assert!(settled, "{said:?}: {}", on("the count as it settles"));
        let from = mark(&x);
        x.type_text("z");
        assert_eq!(
            orca_heard(&x, from, "결과 없음"),
            ["결과 없음"],
            "{}",
            on("no match")
        );
        assert_eq!(
            heard_after_key(&mut x, "Escape", "entry."),
            ["메시지 입력 entry."],
            "{}",
            on("the field once the bar closes")
        );

        // The field's context menu, by name, and the item the Menu key highlights (only paste
        // can act in an empty field); the field again once Escape closes it.
        assert_eq!(
            heard_after_key(&mut x, "Menu", "붙여넣기"),
            ["편집 menu", "붙여넣기."],
            "{}",
            on("the menu")
        );
        assert_eq!(
            heard_after_key(&mut x, "Escape", "entry."),
            ["메시지 입력 entry."],
            "{}",
            on("the field once the menu closes")
        );
    }

    // A reader started after the app hears it too: the window and its focus as Orca comes up,
    // and what the keys do next.
    x.restart_orca("later");
    let up = Instant::now();
    let kept = x.orca().folder.display().to_string();
    let said = orca_heard(&x, 0, "메시지 입력 entry.");
    let took = up.elapsed();
    assert_eq!(
        said,
        [
            "Screen reader on.",
            "agent-chat frame",
            "메시지 입력 entry."
        ],
        "{kept}"
    );
    println!("{reader:?} started after the app spoke its window {took:?} after it was up");
    assert!(
        took < Duration::from_secs(1),
        "heard within a second, not {took:?} ({kept})"
    );
    let said = heard_after_key(&mut x, "shift+Tab", "에이전트: ");
    assert!(
        entered_the_conversation(reader, &said, 2 * STATUS_RUNS),
        "back to the conversation: {said:?} ({kept})"
    );
}

/// A session with Orca 48, once Orca has said the field, and the folder Orca's files are kept
/// in, for failure messages. For what a key makes Orca say: Orca 43 hears no keys under the
/// tests' X server (its log says "Not speaking inserted string due to lack of cause" for each
/// one), and presents a caret move only when it knows the key that made it. `name` is short:
/// speech-dispatcher's socket path under it must fit 108 bytes.
fn orca_48_session(name: &str) -> (Session, String) {
    let x = Session::start_with(
        name,
        Setup {
            screen_reader: true,
            reader: Reader::Orca48,
            ..Setup::default()
        },
    );
    let kept = x.orca().folder.display().to_string();
    orca_heard(&x, 0, "메시지 입력 entry.");
    (x, kept)
}

/// Presses `key`, and what Orca said from then until `words`, as [`orca_heard`] has it.
fn heard_after_key(x: &mut Session, key: &str, words: &str) -> Vec<String> {
    let from = x.orca().spoken().len();
    x.key(key);
    orca_heard(x, from, words)
}

/// What Orca said since `from`, as [`orca_said`] has it, without the echo of the keys typed
/// (Orca 48's: `left control`, `f`, `return`) or its own clipboard notice, and without what one version adds: the full stop
/// after a frame's name (Orca 43 says `agent-chat frame.`, Orca 48 `agent-chat frame`) and a
/// landmark's role (`landmark 찾기`, `찾기`).
fn orca_heard(x: &Session, from: usize, words: &str) -> Vec<String> {
    orca_said(x, from, words)
        .into_iter()
        .filter(|line| !is_key_echo(line) && !is_orcas_own_copy_notice(line))
        .map(|line| match line.strip_suffix(" frame.") {
            Some(name) => format!("{name} frame"),
            None => line.strip_prefix("landmark ").unwrap_or(&line).to_owned(),
        })
        .collect()
}

/// Whether `said` is what `reader` says as focus enters the conversation of `items` messages, on
/// a reply: the list, its size, then the reply (Orca 43 says the first two apart, `대화.` and
/// `List with 2 items.`; Orca 48 in one, `대화 List with 2 items`).
///
/// Orca 48 says the size the list had when it first entered it, in every later entry too (seen:
/// `List with 2 items` with 4 and 10 messages, where Orca 43 says 4 and 10); not yet explained,
/// so for it the size is not compared (the session note asks for an issue of its own).
fn entered_the_conversation(reader: Reader, said: &[String], items: usize) -> bool {
    let Some((message, list)) = said.split_last() else {
        return false;
    };
    let list = list.join(" ").replace('.', "");
    let size = match reader {
        Reader::Orca43 => list == format!("대화 List with {items} items"),
        Reader::Orca48 => list.starts_with("대화 List with ") && list.ends_with(" items"),
    };
    size && message.starts_with("에이전트: ")
}

/// Whether `line` is Orca's own word on Ctrl+C, not the app's: Orca 48 now and then adds
/// `Copied selection to clipboard.` when it sees the clipboard change (once in five runs in CI).
fn is_orcas_own_copy_notice(line: &str) -> bool {
    line.starts_with("Copied ") && line.ends_with(" to clipboard.")
}

/// Whether Orca said `line` to echo a key typed.
fn is_key_echo(line: &str) -> bool {
    const KEYS: [&str; 12] = [
        "left control",
        "right control",
        "left shift",
        "right shift",
        "return",
        "tab",
        "escape",
        "equals",
        "space",
        "menu",
        "home",
        "backspace",
    ];
    // speech-dispatcher 0.12 writes some keys as one or two letters (`GK`, `K`), or in bytes
    // that are no text.
    line.chars().count() <= 2
        || line
            .chars()
            .any(|c| c == char::REPLACEMENT_CHARACTER || c.is_control())
        || KEYS.contains(&line.to_lowercase().as_str())
}

/// A person on a slow machine, whose first frame takes long (the app holds it back 5 s here):
/// the window opens with that frame, and Orca says the window and the field as it opens, not
/// once the event loop is free again (`main.rs`, `show_the_window_once_drawn`).
#[test]
#[ignore = "opens a real window and runs Orca 43 and Orca 48 on it: needs the window tools, dbus-daemon, at-spi2-core, orca, speech-dispatcher and the chroot of tests/orca48-chroot.sh"]
fn orca_hears_the_window_and_the_field_as_it_opens_while_the_first_frame_is_slow() {
    for reader in [Reader::Orca43, Reader::Orca48] {
        // A short name: speech-dispatcher's socket path under it must fit 108 bytes.
        let x = Session::start_with(
            &format!("slow-{reader:?}"),
            Setup {
                screen_reader: true,
                reader,
                slow_first_frame: true,
                ..Setup::default()
            },
        );
        let kept = x.orca().folder.display().to_string();
        let said = x
            .orca()
            .heard_since(0, "메시지 입력 entry.", Duration::from_secs(10));
        let took = x.opened.elapsed();
        assert!(
            said.contains("agent-chat frame") && said.contains("메시지 입력 entry."),
            "{reader:?} said the window and the field: {said:?} ({kept})"
        );
        println!("{reader:?} said the field {took:?} after the window opened");
        assert!(
            took < Duration::from_secs(2),
            "{reader:?} said the field {took:?} after the window opened, not within 2 s ({kept})"
        );
    }
}

#[test]
#[ignore = "opens a real window and reads it through AT-SPI: needs the window tools, xclip, dbus-daemon, at-spi2-core, python3-pyatspi, orca, speech-dispatcher"]
fn the_keyboard_walks_every_message_and_a_screen_reader_hears_each_step() {
    let mut x = Session::start_with(
        "keyboard_reach",
        Setup {
            screen_reader: true,
            ..Setup::default()
        },
    );
    for line in ["첫째 줄", "둘째 줄", "셋째 줄"] {
        x.type_text(line);
        x.key("Return");
    }
    let tree = x.reader_tree(|tree| tree.iter().filter(|n| n.role == "list item").count() == 6);
    let names: Vec<String> = tree
        .iter()
        .filter(|node| node.role == "list item")
        .map(|node| node.name.clone())
        .collect();
    assert_eq!(names.len(), 6, "three exchanges in the tree: {tree:#?}");
    let unfocused = x.screenshot("before-focus");
    let ring = rgb(unfocused.palette.focus_ring);
    assert_eq!(
        unfocused.count(ring),
        0,
        "no focus ring while the field has focus: {}",
        unfocused.name()
    );

    let mut reader = x.listen(60);
    x.key("shift+Tab");
    assert_eq!(
        reader.next_focus(),
        (
            "list item".into(),
            names[5].clone(),
            "posinset:6;setsize:6".into()
        ),
        "Shift+Tab focuses the newest message"
    );
    let focused = x.screenshot("focus-ring");
    assert!(
        focused.count(ring) > 200,
        "the focused message has a ring in {:?}: {}",
        ring,
        focused.name()
    );
    x.key("ctrl+Home");
    assert_eq!(
        reader.next_focus(),
        (
            "list item".into(),
            names[0].clone(),
            "posinset:1;setsize:6".into()
        ),
        "Ctrl+Home goes to the first"
    );
    x.key("Down");
    assert_eq!(
        reader.next_focus(),
        (
            "list item".into(),
            names[1].clone(),
            "posinset:2;setsize:6".into()
        ),
        "Down goes to the next"
    );
    x.key("ctrl+c");
    assert_eq!(
        reader.next_announcement(),
        "메시지를 복사했어요",
        "the copy is announced"
    );
    let reply = names[1].strip_prefix("에이전트: ").unwrap();
    assert_eq!(
        x.read_clipboard(),
        reply,
        "Ctrl+C hands the focused body, without its label, to another application"
    );
    x.key("Tab");
    assert_eq!(
        reader.next_focus(),
        ("entry".into(), "메시지 입력".into(), String::new()),
        "Tab goes back to the field"
    );
    x.type_text("넷");
    let back = x.reader_tree(|tree| {
        by_role(tree, "entry")
            .is_some_and(|entry| entry.text.as_ref().is_some_and(|(t, _)| t == "넷"))
    });
    assert_eq!(
        by_role(&back, "entry").and_then(|entry| entry.text.clone()),
        Some(("넷".to_owned(), 1)),
        "typing after Tab lands in the field"
    );

    // The caret rests after 10 s and the window then sleeps until an event comes; a reader's
    // request must still be carried out.
    sleep(Duration::from_secs(11));
    let asked = Instant::now();
    x.screen_reader(&["grab", &names[2]])
        .status()
        .map(|status| assert!(status.success(), "screen_reader.py grab"))
        .unwrap_or_else(|e| panic!("run screen_reader.py ({NEEDS_BUS}): {e}"));
    assert_eq!(
        reader.next_focus(),
        (
            "list item".into(),
            names[2].clone(),
            "posinset:3;setsize:6".into()
        ),
        "the reader's grabFocus moves the app's focus"
    );
    let took = asked.elapsed();
    assert!(
        took < Duration::from_secs(1),
        "within a second while the caret rests, took {took:?}"
    );
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn the_focus_ring_shows_in_the_light_theme() {
    let mut x = Session::start_with(
        "focus_ring_light",
        Setup {
            theme: Theme::Light,
            ..Setup::default()
        },
    );
    x.type_text("hello");
    x.key("Return");
    x.key("F6");
    let shot = x.wait_for("focus-ring-light", |shot| {
        shot.count(rgb(shot.palette.focus_ring)) > 200
    });
    let ring = rgb(shot.palette.focus_ring);
    assert!(
        shot.count(ring) > 200,
        "a ring in {ring:?}: {}",
        shot.name()
    );
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn escape_closes_the_window_and_exits_with_success() {
    let mut x = Session::start("escape");
    x.key("Escape");
    let status = x.wait_for_exit(Duration::from_secs(5));
    assert_eq!(
        status.map(|s| s.code()),
        Some(Some(0)),
        "the app exits with status 0 within 5 s of Escape"
    );
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn without_a_gpu_adapter_it_stops_with_one_line_that_says_what_to_do() {
    let _turn = Turn::take(false);
    let xvfb = Xvfb::start();
    // Neither a Vulkan driver nor OpenGL's EGL: no adapter at all.
    let mut app = Command::new(APP);
    app.env("DISPLAY", &xvfb.display);
    hide_vulkan(&mut app);
    hide_opengl(&mut app);
    let last = assert_stops_with_one_line(
        app,
        "agent-chat: no GPU adapter found",
        "mesa-vulkan-drivers",
    );
    assert!(
        last.contains("OpenGL") && last.contains("libgl1-mesa-dri"),
        "what to install for OpenGL too: {last:?}"
    );
}

/// The height of the first row on screen, in pixels.
fn first_row_height(shot: &Shot) -> f32 {
    let bubbles = shot.bubbles();
    bubbles.first().map_or(0.0, |b| (b.bottom - b.top) as f32)
}

/// Ctrl+= three times (110%, 125%, 150%) draws the rows larger, laid out again at the size, and
/// Ctrl+0 draws them exactly as before, to the pixel.
#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn ctrl_equals_three_times_makes_the_rows_larger_and_ctrl_0_restores_them_to_the_pixel() {
    let mut x = Session::start("zoom");
    x.type_text("확대해서 읽기 zoom");
    x.key("Return");
    let before = x.wait_for("sent", |shot| shot.bubbles().len() == 2);
    let height = first_row_height(&before);
    for _ in 0..3 {
        x.key("ctrl+equal");
    }
    let zoomed = x.wait_for("150%", |shot| first_row_height(shot) >= 1.4 * height);
    let bubbles = zoomed.bubbles();
    assert!(
        bubbles.len() == 2
            && bubbles[0].side == Side::User
            && bubbles[1].side == Side::Agent
            && bubbles[0].left < 30
            && bubbles[1].right > WINDOW.0 - 30
            && bubbles.iter().all(|bubble| bubble.text_pixels > 200),
        "{}: the user's row at the left, then the reply at the right, text in both: {bubbles:?}",
        zoomed.name()
    );
    x.key("ctrl+0");
    // Any key but a zoom's puts the notice away; Right moves the empty field's caret nowhere.
    x.key("Right");
    // The glyphs of 100% are drawn anew (the zoom freed their atlas): the same to a level or
    // two of a channel where antialiasing falls, and the same pixels.
    let back = x.wait_for("100%", |shot| {
        let (now, then) = (shot.conversation(), before.conversation());
        now.len() == then.len()
            && now
                .chunks_exact(3)
                .zip(then.chunks_exact(3))
                .all(|(a, b)| close([a[0], a[1], a[2]], [b[0], b[1], b[2]]))
    });
    assert_eq!(first_row_height(&back), height, "{}", back.name());
}

/// At 200% in a 640x480 window, the conversation still reads, scrolls and takes a line.
#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn at_200_percent_in_a_640_by_480_window_every_row_still_shows_and_a_line_still_sends() {
    for theme in [Theme::Dark, Theme::Light] {
        let name = format!("zoom_200_small_{theme:?}").to_lowercase();
        let mut x = Session::start_with(
            &name,
            Setup {
                theme,
                ..Setup::default()
            },
        );
        let window = x.window.clone();
        x.xdotool(&["windowsize", "--sync", &window, "640", "480"]);
        for _ in 0..5 {
            x.key("ctrl+equal");
        }
        for line in [
            "첫 줄",
            "둘째 줄은 조금 더 길게 써서 두 줄로 넘어가게 합니다",
        ] {
            x.type_text(line);
            x.key("Return");
        }
        let shot = x.wait_for("sent at 200%", |shot| {
            let bubbles = shot.bubbles();
            bubbles.len() >= 2 && bubbles.iter().all(|b| b.right < 640 && b.bottom < 480)
        });
        let bubbles = shot.bubbles();
        let newest = bubbles.last().unwrap();
        assert_eq!(
            newest.side,
            Side::Agent,
            "{}: the reply is the newest row",
            shot.name()
        );
        assert!(
            bubbles.iter().all(|b| b.text_pixels > 200),
            "{}: text in every row",
            shot.name()
        );
        assert!(
            (newest.bottom - newest.top) as f32 >= 2.0 * 40.0,
            "{}: drawn at 200%",
            shot.name()
        );
        // The wheel scrolls back to the first line.
        x.xdotool(&["mousemove", "--window", &window, "300", "150"]);
        for _ in 0..10 {
            x.xdotool(&["click", "4"]);
        }
        let top = x.wait_for("scrolled back", |shot| {
            shot.bubbles().first().is_some_and(|b| b.side == Side::User)
        });
        assert!(
            top.bubbles()[0].top < 60,
            "{}: the first row at the top",
            top.name()
        );
    }
}

/// The desktop's own scale (`Xft.dpi: 144`, 1.5) draws rows 1.5 times as tall, and the zoom
/// multiplies with it.
#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap, xrdb"]
fn a_desktop_at_144_dpi_draws_at_one_and_a_half_and_the_zoom_multiplies_with_it() {
    let send = |x: &mut Session| {
        x.type_text("dpi");
        x.key("Return");
        let shot = x.wait_for("sent", |shot| shot.bubbles().len() == 2);
        first_row_height(&shot)
    };
    let at_96 = send(&mut Session::start("dpi_96"));
    let mut x = Session::start_with(
        "dpi_144",
        Setup {
            xft_dpi: Some(144),
            ..Setup::default()
        },
    );
    let at_144 = send(&mut x);
    let ratio = at_144 / at_96;
    assert!(
        (1.4..=1.6).contains(&ratio),
        "rows {at_144} px tall at 144 dpi, {at_96} at 96: {ratio}"
    );
    x.key("ctrl+equal");
    let zoomed = x.wait_for("110% at 144 dpi", |shot| {
        first_row_height(shot) >= at_96 * 1.5 * 1.1 - 2.0
    });
    let ratio = first_row_height(&zoomed) / at_96;
    assert!(
        (1.55..=1.75).contains(&ratio),
        "{}: 1.5 times 1.1: {ratio}",
        zoomed.name()
    );
}

/// Where no Vulkan driver answers, the app draws on OpenGL (`workarounds::gpu`), and what it
/// draws is what Vulkan draws: the same line, of several scripts and a colour emoji, sent, found
/// with the find bar and selected, on each backend in turn, compared pixel by pixel.
#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan and OpenGL, xdotool, ImageMagick, xmodmap"]
fn without_vulkan_it_draws_on_opengl_as_it_does_on_vulkan() {
    let line = "find 안녕하세요 😀 مرحبا 日本語 ไทย find";
    let [vulkan, opengl] = [false, true].map(|opengl| {
        let name = if opengl { "on_opengl" } else { "on_vulkan" };
        let mut x = Session::start_with(
            name,
            Setup {
                opengl,
                ..Setup::default()
            },
        );
        let log = fs::read_to_string(x.shots.join("app.log")).unwrap();
        let chosen: Vec<&str> = log.lines().filter(|l| l.contains("drawing with")).collect();
        let backend = if opengl { "Gl" } else { "Vulkan" };
        assert!(
            chosen.len() == 1 && chosen[0].contains(&format!("drawing with {backend} on llvmpipe")),
            "{name}: one line says the backend and adapter: {chosen:?}"
        );
        x.type_text(line);
        x.key("Return");
        let sent = x.wait_for("sent", |shot| shot.bubbles().len() == 2);
        assert_one_exchange(&sent);
        x.key("ctrl+f");
        x.type_text("find");
        let found = x.wait_for("found", |shot| {
            in_colour(shot, rgb(shot.palette.find_current)) > 50
                && in_colour(shot, rgb(shot.palette.find_match)) > 50
        });
        x.key("Escape");
        let user = &sent.bubbles()[0];
        x.click((user.left + 40, (user.top + user.bottom) / 2), 2);
        let selection = rgb(x.palette.selection);
        let selected = x.wait_for("selected", |shot| in_colour(shot, selection) > 200);
        assert!(
            sent.colourful_pixels(user) > 100,
            "{}: the emoji is drawn in colour",
            sent.name()
        );
        [sent, found, selected]
    });
    for (on_vulkan, on_opengl) in vulkan.iter().zip(&opengl) {
        // The agent's row holds a reply picked at random: compare everything but its lines, in
        // either picture (the find bar may cut it in two).
        let (top, bottom) = [on_vulkan, on_opengl]
            .into_iter()
            .flat_map(Shot::bubbles)
            .filter(|bubble| bubble.side == Side::Agent)
            .fold((WINDOW.1, 0), |(top, bottom), bubble| {
                (top.min(bubble.top), bottom.max(bubble.bottom))
            });
        let (mut same, mut compared) = (0, 0);
        for y in (0..WINDOW.1).filter(|y| !(top..=bottom).contains(y)) {
            for x in 0..WINDOW.0 {
                compared += 1;
                same += usize::from(close(on_vulkan.px(x, y), on_opengl.px(x, y)));
            }
        }
        // A blinking caret may be shown in one and not the other: 200 pixels at most.
        assert!(
            compared - same <= 400,
            "{} and {}: the same picture on both backends, but {} pixels differ",
            on_vulkan.name(),
            on_opengl.name(),
            compared - same
        );
    }
}

/// How many pixels of the conversation are in `colour`.
fn in_colour(shot: &Shot, colour: [u8; 3]) -> usize {
    shot.conversation()
        .chunks_exact(3)
        .filter(|&p| p == colour)
        .count()
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn wgpu_backend_naming_a_backend_that_is_not_there_is_one_line() {
    let _turn = Turn::take(false);
    let xvfb = Xvfb::start();
    for (value, hidden) in [("dx12", false), ("metal,webgpu", false), ("vulkan", true)] {
        let mut app = Command::new(APP);
        app.env("DISPLAY", &xvfb.display).env("WGPU_BACKEND", value);
        if hidden {
            hide_vulkan(&mut app);
        }
        let last = assert_stops_with_one_line(
            app,
            &format!("agent-chat: no GPU adapter for WGPU_BACKEND={value:?}"),
            "vulkan or gl",
        );
        assert!(last.contains("unset it"), "how to go on: {last:?}");
    }
}

/// Not ignored: it needs no display, and it must not open a window on a developer's desktop.
#[test]
fn without_a_display_it_stops_with_one_line_that_says_what_to_do() {
    let mut app = Command::new(APP);
    app.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    assert_stops_with_one_line(app, "agent-chat: no display", "xvfb-run");
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn the_x_server_going_away_ends_the_app_with_one_line() {
    let mut x = Session::start("x_gone");
    let log = x.shots.join("app.log");
    let before = fs::read_to_string(&log).unwrap().lines().count();
    let _ = Command::new("kill")
        .arg(x.xvfb.process.id().to_string())
        .status();
    let status = x
        .wait_for_exit(Duration::from_secs(20))
        .expect("the app ends within 20 s of its X server");
    let log = fs::read_to_string(&log).unwrap();
    let said = said_since(&log, before);
    assert_eq!(status.code(), Some(1), "the app's log: {log}");
    assert_eq!(
        said,
        [format!(
            "X connection to {} broken (explicit kill or server shutdown).",
            x.xvfb.display
        )],
        "Xlib's one line, and no other"
    );
}

/// Runs `app` and checks it fails with status 1, no panic report, and a last line that starts
/// with `what` is missing and mentions `fix`. Returns that line.
fn assert_stops_with_one_line(mut app: Command, what: &str, fix: &str) -> String {
    let output = app.output().expect("run the app");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "no panic report: {stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(what) && last.contains(fix),
        "the last line says what is missing and how to go on: {last:?}"
    );
    last.to_owned()
}

#[test]
#[ignore = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap"]
fn the_window_carries_the_apps_icon_and_the_class_its_launcher_entry_names() {
    let x = Session::start("icon");
    let display = &x.xvfb.display;
    // The taskbar's and Alt+Tab's icon: width, height, then one ARGB value a pixel.
    let property = run(
        "xprop",
        &["-id", &x.window, "-notype", "32c", "_NET_WM_ICON"],
        display,
    );
    let values: Vec<u64> = property
        .split_once('=')
        .map(|(_, values)| values)
        .unwrap_or_default()
        .split(',')
        .filter_map(|value| value.trim().parse().ok())
        .collect();
    let pixels = include_bytes!("../assets/icon/window-64.rgba");
    let expected: Vec<u64> = [64, 64]
        .into_iter()
        .chain(pixels.chunks(4).map(|rgba| {
            let [r, g, b, a] = [rgba[0], rgba[1], rgba[2], rgba[3]].map(u64::from);
            a << 24 | r << 16 | g << 8 | b
        }))
        .collect();
    assert!(
        values == expected,
        "the window's _NET_WM_ICON is the app's 64 px icon (got {} values, starting {:?})",
        values.len(),
        &values[..values.len().min(4)]
    );
    // What ties the window to `assets/desktop/agent-chat.desktop` (its StartupWMClass).
    let class = run("xprop", &["-id", &x.window, "WM_CLASS"], display);
    let desktop = fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/desktop/agent-chat.desktop"),
    )
    .unwrap();
    let startup_class = desktop
        .lines()
        .find_map(|line| line.strip_prefix("StartupWMClass="))
        .expect("the launcher entry names the window's class");
    assert!(
        class.contains(&format!("\"{startup_class}\"")),
        "the window's WM_CLASS is the launcher entry's StartupWMClass {startup_class:?}: {class}"
    );
}
