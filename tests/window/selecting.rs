//! Selecting the conversation's text with the mouse and finding it with the find bar, in the
//! real window: what another application reads (`xclip`), what a screen reader hears (AT-SPI),
//! and what the screen shows, in both themes.

use std::{thread::sleep, time::Duration};

use agent_chat::{
    chat::REPLIES,
    theme::{Palette, Theme},
};

use super::{screen::*, session::*};

/// Two exchanges typed and sent; the screenshot once all four bubbles show.
fn two_exchanges(x: &mut Session, lines: [&str; 2]) -> Shot {
    for line in lines {
        x.type_text(line);
        x.key("Return");
    }
    x.wait_for("two exchanges", |shot| shot.bubbles().len() == 4)
}

/// Halfway down a bubble, `inset` pixels in from its left edge (from its right if negative).
fn in_bubble(bubble: &Bubble, inset: isize) -> (usize, usize) {
    let x = if inset >= 0 {
        bubble.left + inset as usize
    } else {
        bubble.right - inset.unsigned_abs()
    };
    (x, (bubble.top + bubble.bottom) / 2)
}

/// How many pixels of the conversation are in `colour`.
fn conversation_pixels(shot: &Shot, colour: [u8; 3]) -> usize {
    shot.conversation()
        .chunks_exact(3)
        .filter(|&p| p == colour)
        .count()
}

#[test]
#[ignore = "opens a real window and uses the clipboard: needs the window tools and xclip"]
fn a_drag_across_three_messages_hands_them_to_another_application_as_drawn() {
    let mut x = Session::start("drag_across_messages");
    let lines = ["alpha beta gamma", "delta epsilon zeta"];
    let shot = two_exchanges(&mut x, lines);
    let bubbles = shot.bubbles();
    // From inside the first line's text to inside the third's.
    let from = in_bubble(&bubbles[0], 120);
    let to = in_bubble(&bubbles[2], 100);
    x.drag(from, to);
    let selection = rgb(x.palette.selection);
    let selected = x.wait_for("selected", |shot| {
        conversation_pixels(shot, selection) > 2000
    });
    x.key("ctrl+c");
    let copied = x.read_clipboard();
    let copied_lines: Vec<&str> = copied.lines().collect();
    let [first, reply, third] = copied_lines[..] else {
        panic!(
            "{}: three lines, one a message, got {copied:?}",
            selected.name()
        );
    };
    assert!(
        !first.is_empty() && lines[0].ends_with(first) && first != lines[0],
        "the first message from where the drag began, no label: {first:?}"
    );
    let reply = reply
        .strip_prefix("에이전트: ")
        .unwrap_or_else(|| panic!("the reply with its label: {reply:?}"));
    assert!(REPLIES.contains(&reply), "{reply:?} is a whole reply");
    let third_body = third
        .strip_prefix("사용자: ")
        .unwrap_or_else(|| panic!("the third with its label: {third:?}"));
    assert!(
        !third_body.is_empty() && lines[1].starts_with(third_body) && third_body != lines[1],
        "the third message up to where the drag ended: {third:?}"
    );
    assert_eq!(
        x.read_primary(),
        copied,
        "the selection is the PRIMARY selection too"
    );
}

#[test]
#[ignore = "opens a real window and uses the clipboard: needs the window tools and xclip"]
fn a_double_click_takes_a_word_and_a_triple_click_the_whole_message() {
    let mut x = Session::start_with(
        "word_and_message",
        Setup {
            theme: Theme::Light,
            ..Setup::default()
        },
    );
    let lines = ["alpha beta gamma", "delta epsilon zeta"];
    let shot = two_exchanges(&mut x, lines);
    let bubbles = shot.bubbles();
    // Inside the last word of the first line: its bubble ends 12 px of padding after it.
    x.click(in_bubble(&bubbles[0], -20), 2);
    let word = x.screenshot("double-clicked");
    x.key("ctrl+c");
    assert_eq!(x.read_clipboard(), "gamma", "{}: the word", word.name());
    assert!(
        conversation_pixels(&word, rgb(Palette::LIGHT.selection)) > 200,
        "{}: the word is drawn selected, in the light theme",
        word.name()
    );
    sleep(Duration::from_millis(500));
    x.click(in_bubble(&bubbles[2], -20), 3);
    let message = x.screenshot("triple-clicked");
    x.key("ctrl+c");
    assert_eq!(
        x.read_clipboard(),
        lines[1],
        "{}: the whole body, not its label nor its neighbours",
        message.name()
    );
}

#[test]
#[ignore = "opens a real window and reads it through AT-SPI: needs the window tools, dbus-daemon, at-spi2-core, python3-pyatspi, orca, speech-dispatcher"]
fn ctrl_f_finds_f3_moves_on_escape_closes_and_a_screen_reader_hears_the_count() {
    let mut x = Session::start_with(
        "find",
        Setup {
            screen_reader: true,
            ..Setup::default()
        },
    );
    let shot = two_exchanges(&mut x, ["find me here", "and find me there"]);
    let plain = conversation_pixels(&shot, rgb(x.palette.find_current));
    let mut listener = x.listen(30);
    x.key("ctrl+f");
    x.type_text("find");
    let count = listener.next_announcement();
    let found = x.wait_for("found", |shot| {
        conversation_pixels(shot, rgb(shot.palette.find_current)) > plain + 50
    });
    assert!(
        count == "1/2" || count == "2/2",
        "{}: the count is heard, got {count:?}",
        found.name()
    );
    assert!(
        conversation_pixels(&found, rgb(x.palette.find_match)) > 50,
        "{}: the other match is drawn too, in its own colour",
        found.name()
    );
    x.key("F3");
    let next = listener.next_announcement();
    assert_ne!(next, count, "F3 moves to the other match, and says so");
    assert!(next.ends_with("/2"), "{next:?}");
    x.key("Escape");
    let closed = x.wait_for("closed", |shot| {
        conversation_pixels(shot, rgb(shot.palette.find_current)) <= plain
    });
    assert!(
        x.wait_for_exit(Duration::from_millis(500)).is_none(),
        "{}: Escape in the bar closed the bar, not the app",
        closed.name()
    );
    x.key("Escape");
    assert!(
        x.wait_for_exit(Duration::from_secs(10)).is_some(),
        "then Escape quits"
    );
}
