//! End to end, as a person uses it: the real binary in a real X server (Xvfb) rendering through
//! Mesa's software Vulkan, typed into with `xdotool`, and checked from screenshots.
//!
//! These tests open windows, so a plain `cargo test` skips them (they are `#[ignore]`d, and say
//! so in its output). `.ci/run` installs what they need and runs them; locally:
//!
//! ```sh
//! apt-get install xvfb mesa-vulkan-drivers xdotool imagemagick x11-xserver-utils xclip \
//!     python3-xlib ibus ibus-hangul dbus-daemon x11-utils at-spi2-core libglib2.0-bin \
//!     python3-pyatspi
//! cargo test --test window -- --ignored
//! ```
//!
//! The IME test starts ibus with its Hangul engine on a D-Bus session of its own, and types
//! Korean key by key through it, as a Korean user's desktop would. The screen-reader test starts
//! the accessibility bus on such a session and reads the app with pyatspi, the library Orca uses
//! (`tests/screen_reader.py`).
//!
//! Screenshots of the last run are kept under `target/tmp/window-tests/` (inside
//! `CARGO_TARGET_DIR` when that is set); a failing check names the one it looked at.

use std::{
    collections::HashSet,
    fs,
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus, Stdio},
    sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard},
    thread::sleep,
    time::{Duration, Instant},
};

use agent_chat::{
    chat::REPLIES,
    theme::{Palette, Theme},
};
use bevy::color::Color;

const APP: &str = env!("CARGO_BIN_EXE_agent-chat");
/// Bevy's default window size; the X screen is larger so the whole window is on it.
const WINDOW: (usize, usize) = (1280, 720);
const NEEDS_X: &str = "opens a real window: needs Xvfb, Mesa Vulkan, xdotool, ImageMagick, xmodmap";
const NEEDS_BUS: &str = "needs dbus-daemon and, for the IME, ibus, ibus-hangul and xprop; for the screen reader, at-spi2-core, python3-pyatspi and gdbus";

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
        "{}: the sentence arrived once, whole, in order (app log: {})",
        shot.name(),
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
    let log = fs::read_to_string(x.shots.join("app.log")).unwrap();
    let said = log
        .lines()
        .filter(|line| line.contains("nothing to paste"))
        .count();
    assert_eq!(said, 2, "one line in the log for each, saying why: {log}");
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
#[ignore = "opens a real window and reads it through AT-SPI: needs the window tools, dbus-daemon, at-spi2-core, python3-pyatspi"]
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

    let mut listener = x
        .screen_reader(&["listen", "20"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("run screen_reader.py ({NEEDS_BUS}): {e}"));
    let mut heard = BufReader::new(listener.stdout.take().unwrap()).lines();
    assert_eq!(
        heard.next().and_then(Result::ok).as_deref(),
        Some("listening")
    );
    x.key("Return");
    let announcement = heard
        .next()
        .and_then(Result::ok)
        .expect("an announcement within 20 s of Enter");
    let reply = announcement
        .strip_prefix("announcement\t에이전트: ")
        .unwrap_or_else(|| panic!("the agent's reply is announced, got {announcement:?}"));
    assert!(REPLIES.contains(&reply), "{reply:?} is one of the replies");
    let _ = listener.kill();
    let _ = listener.wait();
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
}

#[test]
#[ignore = "opens a real window and reads it through AT-SPI: needs the window tools, xclip, dbus-daemon, at-spi2-core, python3-pyatspi"]
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
    // Vulkan only, and a loader that finds no driver: no adapter at all.
    let mut app = Command::new(APP);
    app.env("DISPLAY", &xvfb.display)
        .env("WGPU_BACKEND", "vulkan")
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .env("VK_ICD_FILENAMES", "/nonexistent/icd.json");
    assert_stops_with_one_line(
        app,
        "agent-chat: no GPU adapter found",
        "mesa-vulkan-drivers",
    );
}

/// Not ignored: it needs no display, and it must not open a window on a developer's desktop.
#[test]
fn without_a_display_it_stops_with_one_line_that_says_what_to_do() {
    let mut app = Command::new(APP);
    app.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    assert_stops_with_one_line(app, "agent-chat: no display", "xvfb-run");
}

/// Runs `app` and checks it fails with status 1, no panic report, and a last line that starts
/// with `what` is missing and mentions `fix`.
fn assert_stops_with_one_line(mut app: Command, what: &str, fix: &str) {
    let output = app.output().expect("run the app");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "no panic report: {stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(what) && last.contains(fix),
        "the last line says what is missing and how to go on: {last:?}"
    );
}

// --- The X server, the app, and the keyboard --------------------------------------------------

/// An Xvfb server on a display number of its own choosing, stopped on drop.
struct Xvfb {
    process: Child,
    display: String,
}

impl Xvfb {
    fn start() -> Self {
        let mut process = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1600x1000x24",
                "-nolisten",
                "tcp",
                // By default an X server resets when its last client leaves, and a client
                // connecting during the reset fails: the tools here come and go while the app
                // connects.
                "-noreset",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start Xvfb ({NEEDS_X}): {e}"));
        let mut line = String::new();
        BufReader::new(process.stdout.take().unwrap())
            .read_line(&mut line)
            .expect("Xvfb reports its display number");
        let display = format!(":{}", line.trim());
        Self { process, display }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        // SIGTERM, not `kill()`'s SIGKILL: a killed X server leaves its socket and lock file in
        // /tmp, and a later server given that display number could not be connected to.
        let stopped = Command::new("kill")
            .arg(self.process.id().to_string())
            .status();
        if !stopped.is_ok_and(|status| status.success()) {
            let _ = self.process.kill();
        }
        let _ = self.process.wait();
    }
}

/// An IME session runs alone: with other windows busy on the two cores (two ibus sessions, or
/// another test's app), ibus-hangul's commit of a syllable twice reached the app after the
/// space that ended it (`안녕하세 요…`). Alone it passed every time. Other sessions share.
static WINDOWS: RwLock<()> = RwLock::new(());

/// A session's hold on [`WINDOWS`].
enum Turn {
    Shared(#[allow(dead_code, reason = "held, not read")] RwLockReadGuard<'static, ()>),
    Alone(#[allow(dead_code, reason = "held, not read")] RwLockWriteGuard<'static, ()>),
}

impl Turn {
    fn take(alone: bool) -> Self {
        if alone {
            Self::Alone(WINDOWS.write().unwrap_or_else(PoisonError::into_inner))
        } else {
            Self::Shared(WINDOWS.read().unwrap_or_else(PoisonError::into_inner))
        }
    }
}

/// How a [`Session`] starts the app.
#[derive(Default, Clone, Copy)]
struct Setup {
    /// The app talks to ibus with its Hangul engine, as a Korean desktop's would.
    ime: bool,
    /// A screen reader is running: the app serves its tree on the accessibility bus.
    screen_reader: bool,
    theme: Theme,
}

/// A D-Bus session bus of the test's own, stopped on drop: ibus and the accessibility bus
/// register on it, away from the developer's desktop.
struct SessionBus {
    process: Child,
    address: String,
}

impl SessionBus {
    fn start() -> Self {
        let mut process = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start dbus-daemon ({NEEDS_BUS}): {e}"));
        let mut address = String::new();
        BufReader::new(process.stdout.take().unwrap())
            .read_line(&mut address)
            .expect("dbus-daemon reports its address");
        Self {
            process,
            address: address.trim().to_owned(),
        }
    }
}

impl Drop for SessionBus {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// Runs `program` until its output contains `expect`, for at most 60 s: generous, since a first
/// start builds caches and the other window tests share the CPU.
fn wait_until_ready(program: &str, args: &[&str], env: &[(&str, &str)], expect: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let output = Command::new(program)
            .args(args)
            .envs(env.iter().copied())
            .output();
        if output.is_ok_and(|out| {
            out.status.success() && String::from_utf8_lossy(&out.stdout).contains(expect)
        }) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "not ready: `{program} {args:?}` never printed {expect:?} ({NEEDS_BUS})"
        );
        sleep(Duration::from_millis(200));
    }
}

/// ibus with its Hangul engine, serving one X server through XIM, on the test's session bus.
struct Ibus {
    daemon: Child,
}

impl Ibus {
    fn start(display: &str, bus: &SessionBus, home: &Path) -> Self {
        let env = [
            ("DISPLAY", display),
            ("DBUS_SESSION_BUS_ADDRESS", bus.address.as_str()),
            // ibus keeps its address file and settings here, away from the user's.
            ("XDG_CONFIG_HOME", home.to_str().unwrap()),
            ("XDG_CACHE_HOME", home.to_str().unwrap()),
        ];
        let daemon = Command::new("ibus-daemon")
            .args(["--xim", "--replace", "--panel=disable"])
            .envs(env)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start ibus-daemon ({NEEDS_BUS}): {e}"));
        let ibus = Self { daemon };
        // The Hangul engine chosen once the daemon answers, and its XIM server announced on the
        // display, before the app starts and looks for one.
        wait_until_ready("ibus", &["engine", "hangul"], &env, "");
        wait_until_ready("ibus", &["engine"], &env, "hangul");
        wait_until_ready("xprop", &["-root", "XIM_SERVERS"], &env, "@server=ibus");
        ibus
    }
}

impl Drop for Ibus {
    fn drop(&mut self) {
        let _ = self.daemon.kill();
        let _ = self.daemon.wait();
    }
}

/// The accessibility bus that screen readers and apps meet on, with a screen reader said to be
/// running: AccessKit's Linux adapter starts serving the app's tree only on that flag.
struct AtSpi {
    launcher: Child,
}

impl AtSpi {
    fn start(display: &str, bus: &SessionBus) -> Self {
        let env = [
            ("DISPLAY", display),
            ("DBUS_SESSION_BUS_ADDRESS", bus.address.as_str()),
        ];
        let launcher = Command::new("/usr/libexec/at-spi-bus-launcher")
            .arg("--launch-immediately")
            .envs(env)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start at-spi-bus-launcher ({NEEDS_BUS}): {e}"));
        let at_spi = Self { launcher };
        let enable = [
            "call",
            "--session",
            "--dest",
            "org.a11y.Bus",
            "--object-path",
            "/org/a11y/bus",
            "--method",
            "org.freedesktop.DBus.Properties.Set",
            "org.a11y.Status",
            "ScreenReaderEnabled",
            "<true>",
        ];
        wait_until_ready("gdbus", &enable, &env, "()");
        at_spi
    }
}

impl Drop for AtSpi {
    fn drop(&mut self) {
        // SIGTERM: the launcher then stops the accessibility bus it started.
        let _ = Command::new("kill")
            .arg(self.launcher.id().to_string())
            .status();
        let _ = self.launcher.wait();
    }
}

/// The app running on its own Xvfb, with its window focused, and a folder for screenshots.
struct Session {
    app: Child,
    window: String,
    shots: PathBuf,
    taken: usize,
    /// Keycodes the server leaves unused, for `type_text` to map characters onto.
    spare_keycodes: Vec<u32>,
    /// The colours the app draws with, to tell rows apart in screenshots.
    palette: &'static Palette,
    /// Held for their lifetime, and dropped in this order: ibus and the accessibility bus
    /// before the session bus they are on.
    _ibus: Option<Ibus>,
    _at_spi: Option<AtSpi>,
    bus: Option<SessionBus>,
    // Dropped last: the app must go before its X server.
    xvfb: Xvfb,
    /// Held for the whole session, and let go after everything above (see [`WINDOWS`]).
    _turn: Turn,
}

impl Session {
    fn start(name: &str) -> Self {
        Self::start_with(name, Setup::default())
    }

    fn start_with(name: &str, setup: Setup) -> Self {
        let Setup {
            ime,
            screen_reader,
            theme,
        } = setup;
        let shots = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join("window-tests")
            .join(name);
        let _ = fs::remove_dir_all(&shots);
        fs::create_dir_all(&shots).unwrap();

        let turn = Turn::take(ime);
        let xvfb = Xvfb::start();
        let bus = (ime || screen_reader).then(SessionBus::start);
        let ibus = bus
            .as_ref()
            .filter(|_| ime)
            .map(|bus| Ibus::start(&xvfb.display, bus, &shots));
        let at_spi = bus
            .as_ref()
            .filter(|_| screen_reader)
            .map(|bus| AtSpi::start(&xvfb.display, bus));
        let bus_address = bus.as_ref().map(|bus| bus.address.as_str());
        let mut app = spawn_app(&xvfb.display, &shots, setup, bus_address);
        let spare_keycodes = spare_keycodes(&xvfb.display);
        assert!(
            !spare_keycodes.is_empty(),
            "the X server has no spare keycode"
        );
        let search = |display: &str| {
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                // Tried again on failure too: xdotool stops at an X error when a window it
                // listed is gone before it looks at it (ibus's XIM makes short-lived windows).
                let args = ["search", "--onlyvisible", "--name", "^agent-chat$"];
                match try_run("xdotool", &args, display) {
                    Ok(out) if out.lines().next().is_some() => return Ok(out),
                    _ if Instant::now() < deadline => sleep(Duration::from_millis(200)),
                    other => return other,
                }
            }
        };
        let mut found = search(&xvfb.display);
        // In about one run of these tests in three, one app failed XOpenDisplay: the server was
        // resetting after a tool's connection closed (fixed with `-noreset` in `Xvfb::start`;
        // six runs clean since). A second start stays as a net until CI has shown it idle for
        // a while; it is printed with the display, never silent.
        if found.is_err() && app.try_wait().is_ok_and(|status| status.is_some()) {
            eprintln!(
                "{name}: the app stopped before mapping a window on {}; its log: {}; starting it once more",
                xvfb.display,
                fs::read_to_string(shots.join("app.log"))
                    .unwrap_or_default()
                    .trim()
            );
            app = spawn_app(&xvfb.display, &shots, setup, bus_address);
            found = search(&xvfb.display);
        }
        let window = match found {
            Ok(out) => out.lines().next().unwrap_or_default().to_owned(),
            Err(why) => panic!(
                "{name}: the app mapped no window titled agent-chat ({why}); its log: {}",
                fs::read_to_string(shots.join("app.log")).unwrap_or_default()
            ),
        };
        let mut session = Self {
            app,
            window,
            shots,
            taken: 0,
            spare_keycodes,
            palette: theme.palette(),
            _ibus: ibus,
            _at_spi: at_spi,
            bus,
            xvfb,
            _turn: turn,
        };
        // No window manager: give keyboard focus directly (windowactivate needs a WM).
        session.xdotool(&["windowfocus", "--sync", &session.window.clone()]);
        session.wait_for("first-frame", |shot| shot.input_bar().is_some());
        session
    }

    fn xdotool(&self, args: &[&str]) -> String {
        run(
            "timeout",
            &[&["30", "xdotool"], args].concat(),
            &self.xvfb.display,
        )
    }

    /// Types `text` into the focused window.
    ///
    /// `xdotool type` maps a character missing from the keymap onto a spare keycode only while
    /// it types it; the app, reading the event a moment later, may find the mapping already
    /// undone and lose the character (seen with Hangul). So every character is mapped first,
    /// with `xmodmap`, and stays mapped while it is typed.
    fn type_text(&mut self, text: &str) {
        let mut rest = text;
        while !rest.is_empty() {
            // The longest stretch whose distinct non-ASCII characters fit the spare keycodes.
            let mut mapped: Vec<char> = Vec::new();
            let mut end = rest.len();
            for (at, c) in rest.char_indices() {
                if c.is_ascii() || mapped.contains(&c) {
                    continue;
                }
                if mapped.len() == self.spare_keycodes.len() {
                    end = at;
                    break;
                }
                mapped.push(c);
            }
            if !mapped.is_empty() {
                let assignments: Vec<String> = mapped
                    .iter()
                    .zip(&self.spare_keycodes)
                    .flat_map(|(c, code)| {
                        ["-e".into(), format!("keycode {code} = U{:04X}", *c as u32)]
                    })
                    .collect();
                let args: Vec<&str> = assignments.iter().map(String::as_str).collect();
                run("xmodmap", &args, &self.xvfb.display);
                // Let the app see the new keymap before the first key that needs it.
                sleep(Duration::from_millis(300));
            }
            self.xdotool(&["type", "--delay", "40", &rest[..end]]);
            rest = &rest[end..];
            // And read those keys before the next stretch remaps the keycodes.
            sleep(Duration::from_millis(300));
        }
    }

    fn key(&mut self, key: &str) {
        self.xdotool(&["key", key]);
        sleep(Duration::from_millis(200));
    }

    /// Puts `text` on the clipboard as another application: xclip owns it, and stays (in the
    /// background) to hand it to whoever asks.
    fn offer_clipboard(&self, text: &str) {
        let file = self.shots.join("offered.txt");
        fs::write(&file, text).unwrap();
        self.offer_clipboard_as(&file, "UTF8_STRING");
    }

    /// Puts the contents of `file` on the clipboard as another application offering it as
    /// `target` (a MIME type, or an X11 target such as `UTF8_STRING`) and nothing else.
    fn offer_clipboard_as(&self, file: &Path, target: &str) {
        let status = Command::new("xclip")
            .args(["-selection", "clipboard", "-t", target, "-i"])
            .arg(file)
            .env("DISPLAY", &self.xvfb.display)
            // Its background half keeps whatever it was given open: give it nothing to wait on.
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap_or_else(|e| panic!("run xclip (needs xclip): {e}"));
        assert!(status.success(), "xclip could not take the clipboard");
    }

    /// Another application that takes the clipboard and never answers for it
    /// (`tests/silent_clipboard_owner.py`), once it owns it; it is stopped when the returned
    /// guard is dropped.
    fn silent_clipboard_owner(&self) -> Stopped {
        let mut owner = Command::new("/usr/bin/python3")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/silent_clipboard_owner.py"
            ))
            .env("DISPLAY", &self.xvfb.display)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("run python3 (needs python3-xlib): {e}"));
        let mut said = String::new();
        BufReader::new(owner.stdout.take().unwrap())
            .read_line(&mut said)
            .unwrap();
        assert_eq!(said.trim(), "owning", "the silent owner took the clipboard");
        Stopped(owner)
    }

    /// What another application reads from the clipboard.
    fn read_clipboard(&self) -> String {
        run(
            "timeout",
            &["10", "xclip", "-o", "-selection", "clipboard"],
            &self.xvfb.display,
        )
    }

    fn screenshot(&mut self, label: &str) -> Shot {
        self.taken += 1;
        let ppm = self.shots.join(format!("{:02}-{label}.ppm", self.taken));
        let crop = format!("{}x{}+0+0", WINDOW.0, WINDOW.1);
        run(
            "import",
            &[
                "-window",
                "root",
                "-crop",
                &crop,
                "-depth",
                "8",
                ppm.to_str().unwrap(),
            ],
            &self.xvfb.display,
        );
        let shot = Shot::read(&ppm, self.palette);
        // A PNG beside it for people (the PPM is what the checks read).
        let png = ppm.with_extension("png");
        run(
            "convert",
            &[ppm.to_str().unwrap(), png.to_str().unwrap()],
            &self.xvfb.display,
        );
        shot
    }

    /// Screenshots until `done` holds, for at most 20 s; the last one either way.
    fn wait_for(&mut self, label: &str, done: impl Fn(&Shot) -> bool) -> Shot {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let shot = self.screenshot(label);
            if done(&shot) {
                return shot;
            }
            assert!(
                Instant::now() < deadline,
                "{}: timed out waiting for {label}",
                shot.name()
            );
            sleep(Duration::from_millis(250));
        }
    }

    /// The lines the app has recorded so far, read from its debug log.
    fn submissions(&self) -> Vec<String> {
        fs::read_to_string(self.shots.join("app.log"))
            .unwrap()
            .lines()
            .map(without_colour)
            .filter(|line| line.contains("recorded a submission"))
            .filter_map(|line| {
                let (_, rest) = line.split_once("input=")?;
                let (input, _) = rest.split_once(" reply=")?;
                Some(input.to_owned())
            })
            .collect()
    }

    /// How often the app's main thread has gone to sleep and woken up since it started: its
    /// voluntary context switches.
    fn main_thread_wakeups(&self) -> u64 {
        let pid = self.app.id();
        fs::read_to_string(format!("/proc/{pid}/task/{pid}/status"))
            .expect("the app is running")
            .lines()
            .find_map(|line| line.strip_prefix("voluntary_ctxt_switches:"))
            .and_then(|n| n.trim().parse().ok())
            .expect("a context-switch count")
    }

    /// Screenshots of the input field for `span`, as fast as they come.
    fn watch_input(&mut self, label: &str, span: Duration) -> Watched {
        let end = Instant::now() + span;
        let mut shots = Vec::new();
        while Instant::now() < end {
            shots.push(self.screenshot(label));
        }
        Watched(shots)
    }

    /// Runs `tests/screen_reader.py` on the test's session bus.
    fn screen_reader(&self, args: &[&str]) -> Command {
        let bus = self
            .bus
            .as_ref()
            .expect("a session started with a screen reader");
        let mut reader = Command::new("/usr/bin/python3");
        reader
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/screen_reader.py"
            ))
            .args(args)
            .env("DISPLAY", &self.xvfb.display)
            .env("DBUS_SESSION_BUS_ADDRESS", &bus.address)
            .stderr(Stdio::null());
        reader
    }

    /// A screen reader listening for focus changes and announcements, for `seconds`.
    fn listen(&self, seconds: u32) -> Listener {
        let mut process = self
            .screen_reader(&["listen", &seconds.to_string()])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("run screen_reader.py ({NEEDS_BUS}): {e}"));
        let mut heard = BufReader::new(process.stdout.take().unwrap()).lines();
        assert_eq!(
            heard.next().and_then(Result::ok).as_deref(),
            Some("listening")
        );
        Listener {
            _process: Stopped(process),
            heard,
        }
    }

    /// The app's accessible tree as AT-SPI gives it to a screen reader, asked for until `done`
    /// holds, for at most 20 s; the last one either way.
    fn reader_tree(&self, done: impl Fn(&[Accessible]) -> bool) -> Vec<Accessible> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let output = self
                .screen_reader(&["tree"])
                .output()
                .unwrap_or_else(|e| panic!("run screen_reader.py ({NEEDS_BUS}): {e}"));
            let tree: Vec<Accessible> = String::from_utf8_lossy(&output.stdout)
                .lines()
                .map(Accessible::parse)
                .collect();
            if done(&tree) || Instant::now() > deadline {
                return tree;
            }
            sleep(Duration::from_millis(250));
        }
    }

    fn wait_for_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Some(status) = self.app.try_wait().unwrap() {
                return Some(status);
            }
            sleep(Duration::from_millis(50));
        }
        None
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.app.kill();
        let _ = self.app.wait();
    }
}

/// A helper process, stopped when this is dropped.
/// What a listening screen reader hears, line by line (see `tests/screen_reader.py`).
struct Listener {
    _process: Stopped,
    heard: std::io::Lines<BufReader<std::process::ChildStdout>>,
}

impl Listener {
    /// The next line starting with `kind`, without it; it fails once the listener stops.
    fn next(&mut self, kind: &str) -> String {
        for line in self.heard.by_ref().map_while(Result::ok) {
            if let Some(rest) = line.strip_prefix(kind) {
                return rest.to_owned();
            }
        }
        panic!("the screen reader heard no {kind} before it stopped listening");
    }

    /// The next object that gained focus: its role, name and attributes.
    fn next_focus(&mut self) -> (String, String, String) {
        let line = self.next("focus\t");
        let mut fields = line.splitn(3, '\t').map(str::to_owned);
        let mut field = || fields.next().unwrap_or_default();
        (field(), field(), field())
    }

    /// The next announcement's text.
    fn next_announcement(&mut self) -> String {
        self.next("announcement\t")
    }
}

struct Stopped(Child);

impl Drop for Stopped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A log line without its terminal colour codes (`ESC [ … m`).
fn without_colour(line: &str) -> String {
    let mut plain = String::with_capacity(line.len());
    let mut rest = line;
    while let Some((before, code)) = rest.split_once('\x1b') {
        plain.push_str(before);
        rest = code.split_once('m').map_or("", |(_, after)| after);
    }
    plain.push_str(rest);
    plain
}

/// Keycodes with no keysym in the keymap of the X server at `display`.
fn spare_keycodes(display: &str) -> Vec<u32> {
    run("xmodmap", &["-pke"], display)
        .lines()
        .filter_map(|line| {
            let (code, syms) = line.strip_prefix("keycode")?.split_once('=')?;
            let code: u32 = code.trim().parse().ok()?;
            (syms.trim().is_empty() && code > 8).then_some(code)
        })
        .collect()
}

/// Starts the app on `display`, its output going to `app.log` in `shots`, on the session bus at
/// `bus` if there is one.
fn spawn_app(display: &str, shots: &Path, setup: Setup, bus: Option<&str>) -> Child {
    let log = fs::File::create(shots.join("app.log")).unwrap();
    let mut app = Command::new(APP);
    app.env("DISPLAY", display)
        // Each submission logged (escaped, at debug), to compare what arrived byte for byte.
        .env("RUST_LOG", "warn,agent_chat=debug")
        .stdout(log.try_clone().unwrap())
        .stderr(log);
    if let Some(bus) = bus {
        app.env("DBUS_SESSION_BUS_ADDRESS", bus);
    }
    if setup.ime {
        app.env("XMODIFIERS", "@im=ibus").env("LC_ALL", "C.UTF-8");
    }
    // X11 states no theme preference, so the app is dark unless told otherwise.
    if setup.theme == Theme::Light {
        app.env("AGENT_CHAT_THEME", "light");
    }
    app.spawn().expect("start the app")
}

/// Runs a helper program against `display` and returns its stdout; panics with its stderr.
fn run(program: &str, args: &[&str], display: &str) -> String {
    try_run(program, args, display).unwrap_or_else(|why| panic!("{why}"))
}

/// [`run`], with a failure returned as what the program said.
fn try_run(program: &str, args: &[&str], display: &str) -> Result<String, String> {
    let output = Command::new(program)
        .args(args)
        .env("DISPLAY", display)
        .output()
        .unwrap_or_else(|e| panic!("run {program} ({NEEDS_X}): {e}"));
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!(
            "{program} {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// Screenshots of one stretch of time, in order.
struct Watched(Vec<Shot>);

impl Watched {
    /// Whether the input field looked different in any two of them.
    fn changed(&self) -> bool {
        assert!(self.0.len() >= 3, "too few screenshots to tell");
        let first = &self.0[0];
        self.0.iter().any(|shot| !shot.input_bar_matches_all(first))
    }

    /// Whether the first of these shows the field as any screenshot of `other` does.
    fn input_bar_matches_first_of(&self, other: &Watched) -> bool {
        other
            .0
            .iter()
            .any(|shot| self.0[0].input_bar_matches_all(shot))
    }

    fn last_name(&self) -> String {
        self.0.last().map(Shot::name).unwrap_or_default()
    }
}

/// One node of the tree a screen reader gets, a line of `screen_reader.py tree`.
#[derive(Debug, Clone, PartialEq)]
struct Accessible {
    depth: usize,
    role: String,
    name: String,
    description: String,
    /// Sorted: AT-SPI gives them in no particular order.
    attributes: Vec<String>,
    /// The text and the caret's offset in it, for nodes that offer text.
    text: Option<(String, i64)>,
}

impl Accessible {
    fn parse(line: &str) -> Self {
        let depth = (line.len() - line.trim_start_matches(' ').len()) / 2;
        let fields: Vec<&str> = line.trim_start_matches(' ').split('\t').collect();
        Self {
            depth,
            role: fields[0].to_owned(),
            name: fields.get(1).copied().unwrap_or_default().to_owned(),
            description: fields.get(2).copied().unwrap_or_default().to_owned(),
            attributes: fields
                .get(3)
                .filter(|a| !a.is_empty())
                .map(|a| {
                    let mut attributes: Vec<String> = a.split(';').map(str::to_owned).collect();
                    attributes.sort();
                    attributes
                })
                .unwrap_or_default(),
            text: fields
                .get(4)
                .zip(fields.get(5))
                .map(|(text, caret)| ((*text).to_owned(), caret.parse().unwrap())),
        }
    }
}

/// The first node in `tree` with this role.
fn by_role<'a>(tree: &'a [Accessible], role: &str) -> Option<&'a Accessible> {
    tree.iter().find(|node| node.role == role)
}

// --- Reading the screen ------------------------------------------------------------------------

/// Which side a row is drawn for, told by its fill colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    User,
    Agent,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Fill,
    Border,
}

fn rgb(color: Color) -> [u8; 3] {
    let c = color.to_srgba();
    [c.red, c.green, c.blue].map(|v| (v * 255.0).round() as u8)
}

/// The widest run of `false` between the first and the last `true`.
fn widest_blank(inked: impl Iterator<Item = bool>) -> usize {
    let inked: Vec<bool> = inked.collect();
    let (Some(first), Some(last)) = (
        inked.iter().position(|&i| i),
        inked.iter().rposition(|&i| i),
    ) else {
        return 0;
    };
    inked[first..=last]
        .split(|&i| i)
        .map(<[bool]>::len)
        .max()
        .unwrap_or(0)
}

/// A strongly coloured pixel: far from any grey.
fn is_colourful(p: [u8; 3]) -> bool {
    p.iter().max().unwrap() - p.iter().min().unwrap() > 90
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 3)
}

/// One speech bubble found on screen: its bounding box, and where its border pixels are.
#[derive(Debug, Clone)]
struct Bubble {
    side: Side,
    left: usize,
    right: usize,
    top: usize,
    bottom: usize,
    border_xs: HashSet<usize>,
    border_pixels: usize,
    text_pixels: usize,
}

impl Bubble {
    /// The x range of the border when it is one solid column range, full height; else `None`.
    fn border_columns(&self) -> Option<std::ops::RangeInclusive<usize>> {
        let min = *self.border_xs.iter().min()?;
        let max = *self.border_xs.iter().max()?;
        let height = self.bottom - self.top + 1;
        (self.border_pixels == (max - min + 1) * height).then_some(min..=max)
    }
}

/// A screenshot of the window's area of the X screen.
struct Shot {
    path: PathBuf,
    width: usize,
    height: usize,
    rgb: Vec<u8>,
    /// The colours the app was drawing with.
    palette: &'static Palette,
}

impl Shot {
    /// Reads a binary PPM (P6), as `import` writes it.
    fn read(path: &Path, palette: &'static Palette) -> Self {
        let bytes = fs::read(path).unwrap();
        let mut fields = Vec::new();
        let mut at = 0;
        while fields.len() < 4 {
            while bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            if bytes[at] == b'#' {
                while bytes[at] != b'\n' {
                    at += 1;
                }
                continue;
            }
            let start = at;
            while !bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
        }
        assert_eq!(fields[0], "P6", "{} is not a binary PPM", path.display());
        assert_eq!(fields[3], "255", "{} is not 8-bit", path.display());
        let width: usize = fields[1].parse().unwrap();
        let height: usize = fields[2].parse().unwrap();
        let rgb = bytes[at + 1..].to_vec();
        assert_eq!(rgb.len(), width * height * 3, "{}", path.display());
        Self {
            path: path.to_owned(),
            width,
            height,
            rgb,
            palette,
        }
    }

    /// The PNG beside the PPM, for failure messages.
    fn name(&self) -> String {
        self.path.with_extension("png").display().to_string()
    }

    /// How many pixels are `colour`.
    fn count(&self, colour: [u8; 3]) -> usize {
        self.rgb.chunks_exact(3).filter(|p| *p == colour).count()
    }

    fn px(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    fn classify(&self, x: usize, y: usize) -> Option<(Side, Part)> {
        let p = self.px(x, y);
        [
            (self.palette.user_background, Side::User, Part::Fill),
            (self.palette.user_border, Side::User, Part::Border),
            (self.palette.agent_background, Side::Agent, Part::Fill),
            (self.palette.agent_border, Side::Agent, Part::Border),
        ]
        .into_iter()
        .find(|(color, _, _)| close(p, rgb(*color)))
        .map(|(_, side, part)| (side, part))
    }

    /// A pixel that is no fill or border colour and on the text's side of mid-grey: part of a
    /// glyph.
    fn is_ink(&self, x: usize, y: usize) -> bool {
        let light_text = rgb(self.palette.text).iter().all(|&c| c > 128);
        self.classify(x, y).is_none() && self.px(x, y).iter().all(|&c| (c > 128) == light_text)
    }

    /// The top edge of the input field: the first row with a long run of its border colour.
    fn input_bar(&self) -> Option<usize> {
        let border = rgb(self.palette.input_border);
        (0..self.height).find(|&y| {
            (0..self.width)
                .filter(|&x| close(self.px(x, y), border))
                .count()
                > self.width / 2
        })
    }

    /// How many pixels of the input field are `colour`.
    fn input_pixels(&self, colour: [u8; 3]) -> usize {
        let top = self.input_bar().unwrap_or(self.height);
        (top..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&(x, y)| close(self.px(x, y), colour))
            .count()
    }

    /// The pixels above the input field.
    fn conversation(&self) -> &[u8] {
        let end = self.input_bar().unwrap_or(self.height);
        &self.rgb[..end * self.width * 3]
    }

    /// Whether the input field looks as in `other`, ignoring the blinking cursor at its start.
    fn input_bar_matches(&self, other: &Shot) -> bool {
        let (Some(top), Some(other_top)) = (self.input_bar(), other.input_bar()) else {
            return false;
        };
        top == other_top
            && (top..self.height)
                .all(|y| (40..self.width).all(|x| close(self.px(x, y), other.px(x, y))))
    }

    /// Whether the input field looks exactly as in `other`, the caret included.
    fn input_bar_matches_all(&self, other: &Shot) -> bool {
        let (Some(top), Some(other_top)) = (self.input_bar(), other.input_bar()) else {
            return false;
        };
        top == other_top && self.rgb[top * self.width * 3..] == other.rgb[top * self.width * 3..]
    }

    /// The scrollbar thumb's top and bottom rows, in the window's right margin.
    fn thumb(&self) -> Option<(usize, usize)> {
        let colour = rgb(self.palette.scrollbar_thumb);
        let x = WINDOW.0 - 6;
        let rows: Vec<usize> = (0..self.height)
            .filter(|&y| close(self.px(x, y), colour))
            .collect();
        Some((*rows.first()?, *rows.last()?))
    }

    /// The speech bubbles, top to bottom: connected areas of one side's fill and border colours.
    fn bubbles(&self) -> Vec<Bubble> {
        let end = self.input_bar().unwrap_or(self.height);
        let mut seen = vec![false; self.width * end];
        let mut found = Vec::new();
        for y0 in 0..end {
            for x0 in 0..self.width {
                let Some((side, _)) = self.classify(x0, y0) else {
                    continue;
                };
                if seen[y0 * self.width + x0] {
                    continue;
                }
                let mut bubble = Bubble {
                    side,
                    left: x0,
                    right: x0,
                    top: y0,
                    bottom: y0,
                    border_xs: HashSet::new(),
                    border_pixels: 0,
                    text_pixels: 0,
                };
                let mut stack = vec![(x0, y0)];
                seen[y0 * self.width + x0] = true;
                let mut size = 0;
                while let Some((x, y)) = stack.pop() {
                    size += 1;
                    bubble.left = bubble.left.min(x);
                    bubble.right = bubble.right.max(x);
                    bubble.top = bubble.top.min(y);
                    bubble.bottom = bubble.bottom.max(y);
                    if self.classify(x, y) == Some((side, Part::Border)) {
                        bubble.border_xs.insert(x);
                        bubble.border_pixels += 1;
                    }
                    let neighbours = [
                        (x.wrapping_sub(1), y),
                        (x + 1, y),
                        (x, y.wrapping_sub(1)),
                        (x, y + 1),
                    ];
                    for (nx, ny) in neighbours {
                        if nx < self.width
                            && ny < end
                            && !seen[ny * self.width + nx]
                            && self.classify(nx, ny).map(|(s, _)| s) == Some(side)
                        {
                            seen[ny * self.width + nx] = true;
                            stack.push((nx, ny));
                        }
                    }
                }
                // Anti-aliased glyph edges can match a fill colour for a pixel or two.
                if size > 200 {
                    bubble.text_pixels = (bubble.top..=bubble.bottom)
                        .flat_map(|y| (bubble.left..=bubble.right).map(move |x| (x, y)))
                        .filter(|&(x, y)| self.is_ink(x, y))
                        .count();
                    found.push(bubble);
                }
            }
        }
        found.sort_by_key(|b| b.top);
        found
    }

    /// The widest run of pixel columns without ink between a bubble's first and last inked
    /// column: a glyph drawn as blank space leaves one as wide as the glyph.
    fn widest_blank(&self, bubble: &Bubble) -> usize {
        // Drawn: anything but the bubble's fill and border (grey text, colour emoji).
        widest_blank(
            (bubble.left..=bubble.right)
                .map(|x| (bubble.top..=bubble.bottom).any(|y| self.classify(x, y).is_none())),
        )
    }

    /// The same in the input field's line.
    fn input_widest_blank(&self) -> usize {
        let top = self.input_bar().unwrap_or(self.height);
        let background = rgb(self.palette.input_background);
        // Inside the field's border; the caret's column counts as drawn, which does no harm.
        widest_blank(
            (20..self.width - 20)
                .map(|x| (top + 4..self.height - 4).any(|y| !close(self.px(x, y), background))),
        )
    }

    /// Pixels of a bubble in a strong colour that is neither its fill nor its border: what
    /// colour emoji draw, and grey text never does.
    fn colourful_pixels(&self, bubble: &Bubble) -> usize {
        (bubble.top..=bubble.bottom)
            .flat_map(|y| (bubble.left..=bubble.right).map(move |x| (x, y)))
            .filter(|&(x, y)| self.classify(x, y).is_none() && is_colourful(self.px(x, y)))
            .count()
    }

    /// The same in the input field, inside its border.
    fn input_colourful_pixels(&self) -> usize {
        let top = self.input_bar().unwrap_or(self.height);
        (top + 4..self.height - 4)
            .flat_map(|y| (20..self.width - 20).map(move |x| (x, y)))
            .filter(|&(x, y)| is_colourful(self.px(x, y)))
            .count()
    }

    /// How well the ink of `width` columns at one end of bubble `a` matches that at one end of
    /// bubble `b` (`true`: the left end, from the first inked column; `false`: the right end,
    /// up to the last), as the overlap of the two ink masks over their union, at the best
    /// shift of a few pixels (glyphs sit at sub-pixel positions, and a line's baseline moves a
    /// little with the fonts in it).
    fn ink_match(&self, a: &Bubble, a_left: bool, b: &Bubble, b_left: bool, width: usize) -> f32 {
        let start = |bubble: &Bubble, left: bool| {
            let inked: Vec<usize> = (bubble.left..=bubble.right)
                .filter(|&x| (bubble.top..=bubble.bottom).any(|y| self.is_ink(x, y)))
                .collect();
            if left {
                inked[0]
            } else {
                inked[inked.len() - 1] + 1 - width
            }
        };
        let (ax, bx) = (start(a, a_left), start(b, b_left));
        let height = (a.bottom - a.top).min(b.bottom - b.top) - 4;
        let shifts = (-3..=3).flat_map(|dx: isize| (-2..=2).map(move |dy: isize| (dx, dy)));
        shifts
            .map(|(shift_x, shift_y)| {
                let (mut both, mut either) = (0, 0);
                for dy in 2..height {
                    for dx in 0..width {
                        let pa = self.is_ink(ax + dx, a.top + dy);
                        let x = (bx + dx).saturating_add_signed(shift_x);
                        let y = (b.top + dy).saturating_add_signed(shift_y);
                        let pb = self.is_ink(x, y);
                        both += usize::from(pa && pb);
                        either += usize::from(pa || pb);
                    }
                }
                both as f32 / either.max(1) as f32
            })
            .fold(0.0, f32::max)
    }

    /// The pixels of a bubble's box.
    fn crop(&self, bubble: &Bubble) -> Vec<u8> {
        (bubble.top..=bubble.bottom)
            .flat_map(|y| (bubble.left..=bubble.right).flat_map(move |x| self.px(x, y)))
            .collect()
    }
}
