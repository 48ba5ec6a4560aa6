//! Links in the real window: drawn underlined in the link colour, opened by a click through
//! the desktop's own launcher (xdg-open, finding a handler of the test's own), and heard as
//! links by Orca.

use std::{fs, path::Path, thread::sleep, time::Duration};

use super::{screen::*, session::*};

/// The longest run of pixels near `colour` in one row of `bubble`: (row, first column, last
/// column). Text is drawn smoothed, in shades; an underline is a line of one shade, the colour
/// over the bubble at the line's coverage (a 1 px line at about nine tenths here).
fn underline(shot: &Shot, bubble: &Bubble, colour: [u8; 3]) -> Option<(usize, usize, usize)> {
    let mut best: Option<(usize, usize, usize)> = None;
    for y in bubble.top..=bubble.bottom {
        let mut start = None;
        for x in bubble.left..=bubble.right + 1 {
            let near = |p: [u8; 3]| p.iter().zip(colour).all(|(a, b)| a.abs_diff(b) <= 40);
            let on = x <= bubble.right && near(shot.px(x, y));
            match (on, start) {
                (true, None) => start = Some(x),
                (false, Some(from)) => {
                    if best.is_none_or(|(_, a, b)| x - 1 - from > b - a) {
                        best = Some((y, from, x - 1));
                    }
                    start = None;
                }
                _ => {}
            }
        }
    }
    best
}

/// The underline of the link in the first bubble, once the line sent and its reply both show
/// and the link is drawn underlined (longer than 100 px).
pub fn sent_link_underline(shot: &Shot, colour: [u8; 3]) -> Option<(usize, usize, usize)> {
    let bubbles = shot.bubbles();
    (bubbles.len() == 2)
        .then(|| underline(shot, &bubbles[0], colour))
        .flatten()
        .filter(|(_, a, b)| b - a > 100)
}

/// What the test's handler was given, one address a line, in the file `opened`.
fn opened_in(opened: &Path) -> Vec<String> {
    fs::read_to_string(opened)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// What the test's handler was given in this session.
fn opened(x: &Session) -> Vec<String> {
    opened_in(&opened_file(&x.shots))
}

#[test]
#[ignore = "opens a real window and a link: needs the window tools and xdg-open (xdg-utils)"]
fn a_click_on_a_link_sent_opens_exactly_that_address_once_through_the_desktop() {
    let mut x = Session::start_with(
        "link_click",
        Setup {
            links: true,
            ..Setup::default()
        },
    );
    let address = "https://open.example/a_(b)?q=1&r=서울";
    x.type_text(&format!("주소는 {address} 입니다"));
    x.key("Return");
    let link = rgb(x.palette.link);
    let shot = x.wait_for("sent", |shot| sent_link_underline(shot, link).is_some());
    let bubbles = shot.bubbles();
    let (y, first, last) = sent_link_underline(&shot, link).unwrap();
    assert!(
        first > bubbles[0].left + 60,
        "{}: the underline starts at the link, not at the label: {first}",
        shot.name()
    );
    assert!(opened(&x).is_empty(), "nothing opened before the click");
    // On the link's glyphs, above its underline.
    x.click(((first + last) / 2, y - 6), 1);
    let got = opened_once_settled(&x);
    let log = fs::read_to_string(x.shots.join("app.log")).unwrap_or_default();
    assert_eq!(
        got,
        [address],
        "the handler got the address once; the app's log: {log}"
    );
    // No portal here: xdg-open it was.
    assert!(
        log.contains("through the desktop's launcher"),
        "the app's log: {log}"
    );
    // The keyboard reaches the link: it is filled in the focus ring's colour.
    for key in ["shift+Tab", "Up", "Right"] {
        x.key(key);
    }
    let ring = rgb(x.palette.focus_ring);
    let focused = x.wait_for("link focused", |shot| {
        let bubble = &shot.bubbles()[0];
        let filled = (bubble.top..=bubble.bottom)
            .flat_map(|y| (first..=last).map(move |x| (x, y)))
            .filter(|&(x, y)| shot.px(x, y) == ring)
            .count();
        filled > (last - first) * 10
    });
    assert!(
        opened(&x).len() == 1,
        "{}: focusing opens nothing",
        focused.name()
    );
}

/// Orca 48 only (`orca_48_session`): Orca 43 hears no keys under the tests' X server.
#[test]
#[ignore = "opens a real window and runs Orca 48 on it: needs the window tools, dbus-daemon, at-spi2-core, speech-dispatcher and the chroot of tests/orca48-chroot.sh"]
fn orca_says_link_and_its_text_as_the_keyboard_reaches_a_link() {
    let reader = Reader::Orca48;
    let (mut x, kept) = super::orca_48_session("lk-Orca48");
    x.type_text("see www.orca.example now");
    x.key("Return");
    let said = super::heard_after_key(&mut x, "shift+Tab", "에이전트: ");
    assert!(!said.is_empty(), "into the conversation ({kept})");
    super::heard_after_key(&mut x, "Up", "사용자: ");
    let said = super::heard_after_key(&mut x, "Right", "link");
    assert!(
        said.iter()
            .any(|line| line.contains("www.orca.example") && line.contains("link")),
        "{reader:?} says the link's text and that it is a link: {said:?} ({kept})"
    );
}

/// Waits up to 10 s for the handler to be given something in the file `opened`, then 2 s more,
/// for a second opening to show were there one; what it was given.
pub fn opened_once_settled_in(opened: &Path) -> Vec<String> {
    for _ in 0..50 {
        if !opened_in(opened).is_empty() {
            break;
        }
        sleep(Duration::from_millis(200));
    }
    sleep(Duration::from_secs(2));
    opened_in(opened)
}

/// [`opened_once_settled_in`] this session's file.
fn opened_once_settled(x: &Session) -> Vec<String> {
    opened_once_settled_in(&opened_file(&x.shots))
}

#[test]
#[ignore = "opens a real window and reads it through AT-SPI: needs the window tools, dbus-daemon, at-spi2-core, python3-pyatspi, orca, speech-dispatcher and xdg-open"]
fn a_readers_activate_action_on_a_link_opens_it() {
    let mut x = Session::start_with(
        "lk-activate",
        Setup {
            screen_reader: true,
            links: true,
            ..Setup::default()
        },
    );
    x.type_text("메일은 mailto:reader@example.org 로");
    x.key("Return");
    x.wait_for("sent", |shot| shot.bubbles().len() == 2);
    let out = x
        .screen_reader(&["activate", "link", "mailto:reader@example.org"])
        .output()
        .expect("run screen_reader.py");
    assert!(
        out.status.success(),
        "a link node with an action: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "click");
    assert_eq!(
        opened_once_settled(&x),
        ["mailto:reader@example.org"],
        "the app's log: {}",
        fs::read_to_string(x.shots.join("app.log")).unwrap_or_default()
    );
}
