//! Messages of more than one line in the real window (issue 56): Shift+Return breaks the line
//! and Return sends it, a text of three lines another application owns is pasted with its
//! lines, the rows show them, and a row's copy gives them back; Korean through ibus-hangul on a
//! second line; on Wayland, the same keys through wtype, and fcitx5-hangul on either line.

use super::{session::*, wayland::Wayland};

/// How much taller the newest user's row is than its reply's (one line), in the shot's pixels:
/// what its lines after the first take.
fn taller_than_a_line(shot: &super::screen::Shot) -> isize {
    let bubbles = shot.bubbles();
    let height = |bubble: &super::screen::Bubble| (bubble.bottom - bubble.top) as isize;
    height(&bubbles[bubbles.len() - 2]) - height(&bubbles[bubbles.len() - 1])
}

#[test]
#[ignore = "opens a real window and uses the clipboard: needs the window tools and xclip"]
fn two_lines_typed_with_shift_return_and_three_pasted_are_sent_shown_and_copied_with_their_breaks()
{
    let mut x = Session::start("lines");
    x.type_text("first line");
    x.key("shift+Return");
    x.type_text("second line");
    let typed = x.screenshot("two-lines-in-the-field");
    x.key("Return");
    let sent = x.wait_for("two-lines-sent", |shot| shot.bubbles().len() == 2);
    // A line of the app's text is about 24 pixels at this scale.
    let line = taller_than_a_line(&sent);
    assert!(
        (18..32).contains(&line),
        "{} (the field in {}): the user's row shows two lines, {line} px taller than the reply",
        sent.name(),
        typed.name()
    );

    x.offer_clipboard("one\r\ntwo\nthree");
    x.key("ctrl+v");
    let pasted = x.screenshot("three-lines-pasted");
    x.key("Return");
    let shot = x.wait_for("three-lines-sent", |shot| shot.bubbles().len() == 4);
    assert_eq!(
        x.submissions(),
        [
            format!("{:?}", "first line\nsecond line"),
            format!("{:?}", "one\ntwo\nthree")
        ],
        "{} then {}: each sent once, its breaks inside (CR LF as LF) (app log: {})",
        pasted.name(),
        shot.name(),
        x.shots.join("app.log").display()
    );
    let two_more = taller_than_a_line(&shot);
    assert!(
        (two_more - 2 * line).abs() <= 2,
        "{}: the pasted row shows three lines, {two_more} px taller than its reply",
        shot.name()
    );

    // The pointer on the pasted row shows its copy button just right of it; a click copies.
    let user = &shot.bubbles()[2];
    let (left, top, right) = (user.left, user.top, user.right);
    x.xdotool(&[
        "mousemove",
        &(left + 20).to_string(),
        &(top + 10).to_string(),
    ]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    x.xdotool(&[
        "mousemove",
        &(right + 24).to_string(),
        &(top + 12).to_string(),
        "click",
        "1",
    ]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let copied = x.screenshot("copied");
    assert_eq!(
        x.read_clipboard(),
        "one\ntwo\nthree",
        "{}: xclip reads the body with its line breaks",
        copied.name()
    );
}

#[test]
#[ignore = "opens a real window and types through ibus-hangul: needs the window tools, ibus, ibus-hangul, dbus, xprop"]
fn korean_through_ibus_hangul_on_a_second_line_and_shift_return_while_composing_break_the_lines() {
    let mut x = Session::start_with(
        "lines_ibus",
        Setup {
            ime: true,
            ..Setup::default()
        },
    );
    x.type_text("first");
    x.key("shift+Return");
    x.key("Hangul");
    // 한글 in 2-set keys, on the second line; Shift+Return while 글 is composed commits it,
    // then breaks the line (ibus keeps the Shift press for itself then: the app hears it from
    // the window system, `input/arrival.rs`).
    for key in "g k s r m f".split(' ') {
        x.key(key);
    }
    let composing = x.screenshot("composing-on-the-second-line");
    x.key("shift+Return");
    for key in "d k s".split(' ') {
        x.key(key);
    }
    // Back to Latin mode, which commits 안, then Return.
    x.key("Hangul");
    x.key("Return");
    let shot = x.wait_for("sent", |shot| shot.bubbles().len() == 2);
    assert_eq!(
        x.submissions(),
        [format!("{:?}", "first\n한글\n안")],
        "{} then {}: each syllable once, on its line; the IME committed {:?} (app log: {})",
        composing.name(),
        shot.name(),
        x.ime_commits().0,
        x.shots.join("app.log").display()
    );
}

#[test]
#[ignore = "runs a headless Wayland compositor: needs sway, wtype, grim and Mesa Vulkan"]
fn on_wayland_shift_return_breaks_the_line_and_return_sends_both() {
    let mut x = Wayland::start("wayland_lines", 1.0);
    x.type_text("first on Wayland");
    x.chord("Shift_L", "Return");
    x.type_text("second");
    x.key("Return");
    x.wait_for("sent", |shot| shot.bubbles().len() == 2);
    assert_eq!(
        x.submissions(),
        [format!("{:?}", "first on Wayland\nsecond")],
        "one message of two lines; the app's log: {}",
        x.log()
    );
}

/// Orca 48 only (`orca_48_session`): Orca 43 says nothing for Up or Down here, in any field.
#[test]
#[ignore = "opens a real window and runs Orca 48 on it: needs the window tools, dbus-daemon, at-spi2-core, speech-dispatcher and the chroot of tests/orca48-chroot.sh"]
fn orca_reads_the_line_up_and_down_take_the_caret_to() {
    let reader = Reader::Orca48;
    let (mut x, kept) = super::orca_48_session("ln-Orca48");
    x.type_text("first line");
    x.key("shift+Return");
    x.type_text("second line");
    let said = super::heard_after_key(&mut x, "Up", "first line");
    assert!(
        said.iter().any(|line| line.contains("first line")),
        "{reader:?} reads the line above after Up: {said:?} ({kept})"
    );
    let said = super::heard_after_key(&mut x, "Down", "second line");
    assert!(
        said.iter().any(|line| line.contains("second line"))
            && !said.iter().any(|line| line.contains("first line")),
        "{reader:?} reads the line below after Down, and only it: {said:?} ({kept})"
    );
}

#[test]
#[ignore = "opens a real window and reads it through AT-SPI: needs the window tools, dbus-daemon, at-spi2-core, python3-pyatspi, orca, speech-dispatcher"]
fn a_reader_gets_the_line_at_every_offset_of_the_field() {
    let mut x = Session::start_with(
        "ln-atspi",
        Setup {
            screen_reader: true,
            ..Setup::default()
        },
    );
    x.type_text("ab");
    x.key("shift+Return");
    x.type_text("cd");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let started = std::time::Instant::now();
    let out = x
        .screen_reader(&["lines", "entry", "메시지 입력"])
        .output()
        .expect("python3 runs");
    let lines = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        lines,
        "count\t5\n0\t0\t3\t'ab\\n'\n1\t0\t3\t'ab\\n'\n2\t0\t3\t'ab\\n'\n3\t3\t5\t'cd'\n4\t3\t5\t'cd'\n5\t3\t5\t'cd'\n",
        "each offset's line, in {:?}",
        started.elapsed()
    );
}

#[test]
#[ignore = "runs a headless Wayland compositor and types through fcitx5-hangul: needs sway, wtype, grim, fcitx5, fcitx5-modules, fcitx5-hangul, dbus-daemon and Mesa Vulkan"]
fn on_wayland_fcitx5_hangul_composes_on_either_line_with_its_candidate_window_at_that_line() {
    let mut x = Wayland::start_with(
        "wl_lines_ko",
        1.0,
        super::wayland::Desktop {
            korean: true,
            ..super::wayland::Desktop::default()
        },
    );
    // 안녕, Shift+Return while 녕 is composed, then 하세요 on the second line.
    x.type_text("dkssud");
    x.chord("Shift_L", "Return");
    x.type_text("gktpdy");
    let composing = x.screenshot("composing-on-the-second-line");
    // 요 is composed, underlined on the second line; the candidate window goes to that line.
    x.composition_with_the_caret_at_its_end(&composing);
    let [_, caret_y, _, height] = x.cursor_rectangle().unwrap();
    // Up (which ends the composition), and 아 composed at the end of the first line: the
    // candidate window goes up a line with it.
    x.key("Up");
    x.type_text("dk");
    let above = x.screenshot("composing-on-the-first-line");
    let [_, first_y, _, _] = x.cursor_rectangle().unwrap();
    assert!(
        first_y + height / 2 <= caret_y && caret_y - first_y <= 2 * height.max(20),
        "{}: the caret's rectangle ({first_y}) a line above the second line's ({caret_y})",
        above.name()
    );
    x.key("Return");
    let shot = x.wait_for("sent", |shot| shot.bubbles().len() == 2);
    assert_eq!(
        x.submissions(),
        [format!("{:?}", "안녕아\n하세요")],
        "{}: both lines, each syllable once; fcitx5's log: {}",
        shot.name(),
        x.ime_log()
    );
}

#[test]
#[ignore = "opens a real window and types through ibus-anthy: needs the window tools, ibus, ibus-anthy, dbus, xprop"]
fn japanese_through_ibus_anthy_is_converted_and_committed_on_a_second_line() {
    let mut x = Session::start_with(
        "lines_anthy",
        Setup {
            japanese: true,
            ..Setup::default()
        },
    );
    // anthy starts in Latin input; Ctrl+J (its default on/off key) turns Hiragana on. Then
    // nihongo, Space converts it, Return commits 日本語; Shift+Return breaks the line.
    x.key("ctrl+j");
    for line in 0..2 {
        if line > 0 {
            x.key("shift+Return");
        }
        for key in "n i h o n g o space".split(' ') {
            x.key(key);
        }
        x.key("Return");
    }
    let typed = x.screenshot("two-lines-in-the-field");
    x.key("Return");
    let shot = x.wait_for("sent", |shot| shot.bubbles().len() == 2);
    assert_eq!(
        x.submissions(),
        [format!("{:?}", "日本語\n日本語")],
        "{} then {}: each line converted and committed once; the IME committed {:?} (app log: {})",
        typed.name(),
        shot.name(),
        x.ime_commits().0,
        x.shots.join("app.log").display()
    );
}
