//! One frame of `benches/frame.rs`, once, with full UI layout: `idle`, `submission`, `wheel`
//! (one notch in the middle), `home` (Ctrl+Home from the newest), `down` (keyboard focus one
//! message down, from the middle), `drag` (a selection dragged on by a row, at the newest),
//! `zoom` (Ctrl+=, 100% to 110%, at the newest) or
//! `find-idle` (idle, with the find bar open and its matches drawn in view), on a log that
//! already holds the given number of messages.
//! `atlas` prints the glyph atlases' memory as the zoom visits every level and comes back.
//! `hold-down` is no single frame: it holds Down through 1,000 messages from the middle and
//! prints how many frames showed no focused row, whole, in view.
//!
//! The line cases (issue #56) each come as `-short`, `-wide` and `-tall`: a text of one short
//! line, one long line, and many lines of the same characters (the long line has a space where
//! the tall text breaks). `arrive-*`: the frame in which a message of that text (1,000 lines)
//! arrives and is laid out at the newest; `idle-*`: an idle frame with it in view; `key-*`: one
//! key typed into the chat field holding that text (100 lines); `draft-*`: an idle frame with that
//! text in the field; `paste-*`: the frame that applies a paste (Ctrl+V, the clipboard's answer)
//! of that text (100,000 lines) into the empty field.
//!
//! The link cases (issue #57) each come as `-links` and `-plain`: a message of 500 links
//! (`www.aa` to `www.tf`, apart by spaces: 3,499 characters, all shown), or the same text with a
//! comma for each dot, in which the finder finds none. `arrive-*`: the frame in which it arrives
//! and is logged and laid out at the newest; `idle-*`: an idle frame with it in view; `wheel-*`:
//! a wheel notch that scrolls with it in view; `hover-*`: the pointer moved over its text, from
//! one of its words (links) to another, which runs the links' hit test; `home-*`: Ctrl+Home
//! from the newest to it, the first of the log, so that a row comes to show it.
//!
//! `benches/frame-instructions.sh` runs it under callgrind, which
//! counts the instructions of [`measured_frame`] alone: a count that does not drift with the
//! machine's load, as the times of `cargo bench` do.
//!
//!     bash benches/frame-instructions.sh

#[path = "../tests/app/common/mod.rs"]
mod common;

use accesskit::{Action, ActionRequest as Request, NodeId, TreeId};
use agent_chat::{
    chat::MessageLog,
    input::{MAX_INPUT_CHARS, caret::CaretBlink, clipboard::ClipboardText},
    links::Links,
    scroll::Item,
    view::{Bubble, Conversation, MAX_SHOWN_CHARS, find::Finder, highlight::Marks},
};
use bevy::{
    a11y::ActionRequest,
    input::{ButtonState, keyboard::Key},
    input_focus::InputFocus,
    prelude::*,
    window::{CursorIcon, PrimaryWindow, SystemCursorIcon},
};
use common::{
    body_point, chord, fill_log, finish_mounting, fix_pick, input_value, key_in, laid_out_app,
    length_notice, list_mut, logged, mouse, offset, play_the_clipboard_in, pointer, rect, row_at,
    row_entities, tap, tap_down, tap_up, text_of_row, the, wheel, write_submit_message,
    write_submit_messages,
};

fn main() {
    // `cargo bench` runs every bench target with `--bench`; this one only makes sense under
    // the script.
    let mut args = std::env::args().skip(1);
    let (Some(case), Some(Ok(logged))) = (args.next(), args.next().map(|n| n.parse())) else {
        println!("frame_instructions: run `bash benches/frame-instructions.sh`");
        return;
    };
    let mut app = laid_out_app();
    if case.starts_with("paste-") {
        // The bench answers the paste, as the tests play the clipboard.
        app = play_the_clipboard_in(app);
    }
    // The same replies every run, so every run lays out the same text.
    fix_pick(&mut app, &[0, 1, 2, 3, 4]);
    if matches!(case.as_str(), "home-links" | "home-plain") {
        // The first message of the log, which Ctrl+Home brings into view.
        write_submit_message(&mut app, &link_text(&case));
    }
    fill_log(&mut app, logged);
    finish_mounting(&mut app);
    match case.as_str() {
        "idle" => measured_frame(&mut app, App::update),
        "submission" => measured_frame(&mut app, |app| {
            write_submit_messages(app, &["새 메시지 하나"])
        }),
        "wheel" => {
            let middle = list_mut(&mut app).heights().total() / 2.0;
            list_mut(&mut app).scroll_to(middle);
            finish_mounting(&mut app);
            measured_frame(&mut app, |app| wheel(app, 1.0));
        }
        "home" => {
            tap_down(&mut app, KeyCode::ControlLeft);
            tap_down(&mut app, KeyCode::Home);
            measured_frame(&mut app, App::update);
        }
        "down" => {
            focus_the_middle(&mut app);
            tap_down(&mut app, KeyCode::ArrowDown);
            measured_frame(&mut app, App::update);
        }
        "drag" => {
            // A selection dragged from one row of the view to the next ones, as a person does.
            let rows = row_entities(app.world_mut());
            let (from, to) = (rows[rows.len() / 2], rows[rows.len() / 2 + 2]);
            let (from, to) = (rect(&mut app, from).center(), rect(&mut app, to).center());
            mouse(&mut app, from, Some(ButtonState::Pressed));
            mouse(&mut app, from.lerp(to, 0.5), None);
            measured_frame(&mut app, |app| mouse(app, to, None));
        }
        "zoom" => {
            // Ctrl+= from 100% to 110%: every row laid out again at the new size.
            tap_down(&mut app, KeyCode::ControlLeft);
            tap(&mut app, KeyCode::Equal, Key::Character("=".into()));
            measured_frame(&mut app, App::update);
        }
        "find-idle" => {
            // The find bar open, its query's matches drawn in the rows in view.
            tap_down(&mut app, KeyCode::ControlLeft);
            tap(&mut app, KeyCode::KeyF, Key::Character("f".into()));
            tap_up(&mut app, KeyCode::ControlLeft);
            key_in(&mut app, "메시지");
            // Searched through (in 4 ms slices, which callgrind's slow clock makes many).
            while !app
                .world()
                .resource::<Finder>()
                .is_complete(app.world().resource::<MessageLog>().len())
            {
                app.update();
            }
            finish_mounting(&mut app);
            // The caret rests, as at every idle frame here: typing woke it, and a blink is a
            // repaint the idle frame does not have.
            rest_the_caret(&mut app);
            measured_frame(&mut app, App::update);
        }
        "arrive-short" | "arrive-wide" | "arrive-tall" => {
            let body = message_text(&case);
            rest_the_caret(&mut app);
            measured_frame(&mut app, |app| write_submit_message(app, &body));
            assert_newest_but_one_is(&mut app, &body);
        }
        "idle-short" | "idle-wide" | "idle-tall" => {
            let body = message_text(&case);
            write_submit_message(&mut app, &body);
            finish_mounting(&mut app);
            assert_newest_but_one_is(&mut app, &body);
            rest_the_caret(&mut app);
            measured_frame(&mut app, App::update);
        }
        "key-short" | "key-wide" | "key-tall" | "draft-short" | "draft-wide" | "draft-tall" => {
            let draft = draft_text(&case);
            for (index, line) in draft.split('\n').enumerate() {
                if index > 0 {
                    // Shift+Enter: a line break at the caret.
                    chord(&mut app, SHIFT, KeyCode::Enter, Key::Enter);
                }
                key_in(&mut app, line);
            }
            app.update();
            assert_eq!(input_value(&mut app), draft, "the field holds the draft");
            // The field grown to its height, the conversation given up the room, and the caret
            // resting: the key wakes it, in each of the three alike.
            finish_mounting(&mut app);
            rest_the_caret(&mut app);
            if case.starts_with("draft-") {
                measured_frame(&mut app, App::update);
            } else {
                measured_frame(&mut app, |app| {
                    tap(app, KeyCode::KeyA, Key::Character("가".into()));
                    app.update();
                });
                assert_eq!(input_value(&mut app), draft + "가", "the key landed");
            }
        }
        "paste-short" | "paste-wide" | "paste-tall" => {
            let pasted = pasted_text(&case);
            rest_the_caret(&mut app);
            chord(&mut app, CTRL, KeyCode::KeyV, Key::Character("v".into()));
            app.update();
            let answer = ClipboardText(Some(pasted.clone()));
            measured_frame(&mut app, |app| {
                app.world_mut().write_message(answer);
                app.update();
            });
            let kept = input_value(&mut app);
            let limit = usize::from(MAX_INPUT_CHARS);
            assert_eq!(kept.chars().count(), pasted.chars().count().min(limit));
            assert!(pasted.starts_with(&kept), "the start of the paste");
            let notice = if pasted.chars().count() > limit {
                Display::Flex
            } else {
                Display::None
            };
            assert_eq!(length_notice(&mut app), notice, "the notice, when cut");
        }
        "arrive-links" | "arrive-plain" => {
            let body = link_text(&case);
            rest_the_caret(&mut app);
            measured_frame(&mut app, |app| write_submit_message(app, &body));
            assert_newest_but_one_is(&mut app, &body);
            let place = newest_but_one(&app);
            assert_links(&mut app, &case, place);
        }
        "idle-links" | "idle-plain" => {
            let place = link_message_at_the_newest(&mut app, &case);
            measured_frame(&mut app, App::update);
            assert_links(&mut app, &case, place);
        }
        "wheel-links" | "wheel-plain" => {
            // One notch up from the newest: the view moves 30 pixels up the message.
            let place = link_message_at_the_newest(&mut app, &case);
            let before = offset(&mut app);
            measured_frame(&mut app, |app| wheel(app, 1.0));
            assert!(offset(&mut app) < before, "the notch scrolled");
            assert!(in_view(&mut app, place), "the message is still in view");
            assert_links(&mut app, &case, place);
        }
        "hover-links" | "hover-plain" => {
            // From the middle of the 490th word (a link, or not) to the 495th's, both in view.
            let place = link_message_at_the_newest(&mut app, &case);
            let (from, to) = (
                word_point(&mut app, place, 490),
                word_point(&mut app, place, 495),
            );
            pointer(&mut app, from, None);
            rest_the_caret(&mut app);
            measured_frame(&mut app, |app| pointer(app, to, None));
            let hand = CursorIcon::from(SystemCursorIcon::Pointer);
            let window = the::<PrimaryWindow>(&mut app);
            assert_eq!(
                app.world().get::<CursorIcon>(window) == Some(&hand),
                case == "hover-links",
                "the hand over a link, and only there"
            );
            assert_links(&mut app, &case, place);
        }
        "home-links" | "home-plain" => {
            rest_the_caret(&mut app);
            tap_down(&mut app, KeyCode::ControlLeft);
            tap_down(&mut app, KeyCode::Home);
            measured_frame(&mut app, App::update);
            assert!(in_view(&mut app, 0), "the first message is in view");
            assert_links(&mut app, &case, 0);
        }
        "atlas" => {
            // Every zoom level visited once, up and then down, and back to 100%: the glyph
            // atlases' memory after each.
            println!("glyph atlases at 100%: {} KiB", atlas_kib(&mut app));
            let ctrl = |app: &mut App, key: KeyCode, text: &str| {
                tap_down(app, KeyCode::ControlLeft);
                tap(app, key, Key::Character(text.into()));
                tap_up(app, KeyCode::ControlLeft);
                app.update();
                app.update();
            };
            for _ in 0..7 {
                ctrl(&mut app, KeyCode::Equal, "=");
            }
            println!("... up to 300%: {} KiB", atlas_kib(&mut app));
            for _ in 0..12 {
                ctrl(&mut app, KeyCode::Minus, "-");
            }
            println!("... down to 50%: {} KiB", atlas_kib(&mut app));
            ctrl(&mut app, KeyCode::Digit0, "0");
            println!("back at 100%: {} KiB", atlas_kib(&mut app));
        }
        "hold-down" => {
            let from = focus_the_middle(&mut app);
            let mut missing = 0;
            for n in 1..=1000 {
                tap_down(&mut app, KeyCode::ArrowDown);
                tap_up(&mut app, KeyCode::ArrowDown);
                app.update();
                if !focused_row_in_view(&mut app, from + n) {
                    missing += 1;
                }
            }
            println!("frames without the focused row, whole, in view: {missing} of 1000");
        }
        other => panic!(
            "no case {other:?}: idle, submission, wheel, home, down, drag, zoom, find-idle, atlas, \
             hold-down, arrive-, idle-, key-, draft- or paste- with short, wide or tall, or \
             arrive-, idle-, wheel-, hover- or home- with links or plain"
        ),
    }
}

/// Runs frames until the caret rests (half a second apart: it rests 10 s after the last input),
/// then one more, so that the next frame starts from a resting caret whatever came before.
fn rest_the_caret(app: &mut App) {
    while !app.world().resource::<CaretBlink>().is_resting() {
        std::thread::sleep(std::time::Duration::from_millis(500));
        app.update();
    }
    app.update();
}

/// `lines` numbers from 0, one a line (`tall`), or the same with a space for each break
/// (`wide`): the same characters, in one line.
fn numbers(lines: usize, tall: bool) -> String {
    let numbers: Vec<String> = (0..lines).map(|n| n.to_string()).collect();
    numbers.join(if tall { "\n" } else { " " })
}

/// The shape a line case names: `short`, `wide` or `tall`.
fn shape(case: &str) -> &str {
    case.rsplit('-').next().unwrap_or_default()
}

/// The message of an `arrive-` or `idle-` case: the short one `submission` sends, or 1,000
/// numbers on 1,000 lines (3,889 characters, all of them shown) or on one.
fn message_text(case: &str) -> String {
    match shape(case) {
        "short" => "새 메시지 하나".to_owned(),
        shape => numbers(1000, shape == "tall"),
    }
}

/// The draft of a `key-` or `draft-` case: one short line, or 100 lines of `N번째 줄` (691
/// characters) or the same in one line.
fn draft_text(case: &str) -> String {
    match shape(case) {
        "short" => "첫째 줄".to_owned(),
        shape => {
            let lines: Vec<String> = (1..=100).map(|n| format!("{n}번째 줄")).collect();
            lines.join(if shape == "tall" { "\n" } else { " " })
        }
    }
}

/// The clipboard's text of a `paste-` case: one short line, or `0\n1\n…99999\n` (100,000 lines,
/// 588,890 bytes, as tests/app/lines.rs pastes) or the same bytes with spaces for the breaks.
fn pasted_text(case: &str) -> String {
    match shape(case) {
        "short" => "새 메시지 하나".to_owned(),
        shape => {
            let pasted: String = (0..100_000).map(|n| format!("{n}\n")).collect();
            if shape == "tall" {
                pasted
            } else {
                pasted.replace('\n', " ")
            }
        }
    }
}

/// How many links a link case's message holds.
const LINKS: usize = 500;

/// The message of a link case: 500 `www.` links of two letters, `www.aa` to `www.tf`, apart by
/// spaces (3,499 characters, under the 4,000 a row shows: 500 of `https://example.org/p/N` or
/// `www.a.io/N` would not fit, and `www.` with two letters is the shortest link the finder
/// takes), or the same text with a comma for each dot (`www,aa`), in which it finds none.
fn link_text(case: &str) -> String {
    let letter = |n: usize| char::from(b'a' + u8::try_from(n).unwrap());
    let words: Vec<String> = (0..LINKS)
        .map(|n| format!("www.{}{}", letter(n / 26), letter(n % 26)))
        .collect();
    let text = words.join(" ");
    assert!(text.chars().count() <= MAX_SHOWN_CHARS, "all of it shown");
    if shape(case) == "links" {
        text
    } else {
        text.replace('.', ",")
    }
}

/// The place in the log of the message before the newest.
fn newest_but_one(app: &App) -> usize {
    app.world().resource::<MessageLog>().len() - 2
}

/// Sends the message of a link case, so that it is in view at the newest with the reply below
/// it, and lets everything settle (the caret resting); returns its place in the log.
fn link_message_at_the_newest(app: &mut App, case: &str) -> usize {
    let body = link_text(case);
    write_submit_message(app, &body);
    finish_mounting(app);
    assert_newest_but_one_is(app, &body);
    let place = newest_but_one(app);
    assert!(in_view(app, place), "the message is in view");
    rest_the_caret(app);
    place
}

/// Checks that the message at `place` holds the links of its case (500 links or none), found by
/// the app, and that its row draws them (500 underlined stretches) or is one plain text.
fn assert_links(app: &mut App, case: &str, place: usize) {
    let wanted = if shape(case) == "links" { LINKS } else { 0 };
    let message = app.world().resource::<MessageLog>().entities()[place];
    let found = app
        .world()
        .get::<Links>(message)
        .map_or(0, |links| links.0.len());
    assert_eq!(found, wanted, "the links found in the message");
    let row = row_at(app, place);
    let text = text_of_row(app.world(), row);
    let drawn = app
        .world()
        .get::<Marks>(text)
        .map_or(0, |marks| marks.links.len());
    assert_eq!(drawn, wanted, "the links its row draws");
}

/// Whether the row of the message at `place` is mounted and shows some of it in the
/// conversation's area.
fn in_view(app: &mut App, place: usize) -> bool {
    let Some(row) = row_entities(app.world_mut()).into_iter().find(|&row| {
        app.world()
            .get::<Item>(row)
            .is_some_and(|item| item.0 == place)
    }) else {
        return false;
    };
    let conversation = the::<Conversation>(app);
    let (area, shown) = (rect(app, conversation), rect(app, row));
    shown.min.y < area.max.y && shown.max.y > area.min.y
}

/// The middle of the `n`-th word of a link case's message at `place` (each word 7 bytes on from
/// the last), where the pointer goes; checked to be in the conversation's area.
fn word_point(app: &mut App, place: usize, n: usize) -> Vec2 {
    let at = body_point(app, place, 7 * n + 3);
    let conversation = the::<Conversation>(app);
    assert!(rect(app, conversation).contains(at), "word {n} is in view");
    at
}

/// Checks that the message before the newest (the reply) is `body`, and that its row is mounted.
fn assert_newest_but_one_is(app: &mut App, body: &str) {
    let log = logged(app);
    assert_eq!(log[log.len() - 2].1, body, "the message arrived");
    let place = log.len() - 2;
    let rows = row_entities(app.world_mut());
    assert!(
        rows.iter().any(|&row| app
            .world()
            .get::<Item>(row)
            .is_some_and(|item| item.0 == place)),
        "its row is mounted"
    );
}

const SHIFT: &[KeyCode] = &[KeyCode::ShiftLeft];
const CTRL: &[KeyCode] = &[KeyCode::ControlLeft];

/// The glyph atlases' pixels, in KiB: every atlas texture Bevy's text keeps, for every font
/// and size drawn so far.
fn atlas_kib(app: &mut App) -> usize {
    let world = app.world();
    let images = world.resource::<Assets<Image>>();
    let bytes: usize = world
        .resource::<bevy::text::FontAtlasSet>()
        .values()
        .flatten()
        .filter_map(|atlas| images.get(&atlas.texture))
        .filter_map(|image| image.data.as_ref().map(Vec::len))
        .sum();
    bytes / 1024
}

/// The frame being counted; the script tells callgrind to count inside this function only.
#[inline(never)]
fn measured_frame(app: &mut App, frame: impl FnOnce(&mut App)) {
    frame(app);
}

/// Scrolls to the middle of the log and gives keyboard focus to a message there, as a screen
/// reader's request does; returns its place.
fn focus_the_middle(app: &mut App) -> usize {
    let middle = list_mut(app).heights().total() / 2.0;
    list_mut(app).scroll_to(middle);
    finish_mounting(app);
    let rows = row_entities(app.world_mut());
    let row = rows[rows.len() / 2];
    let place = app.world().get::<Item>(row).unwrap().0;
    app.world_mut().write_message(ActionRequest(Request {
        action: Action::Focus,
        target_tree: TreeId::ROOT,
        target_node: NodeId(row.to_bits()),
        data: None,
    }));
    finish_mounting(app);
    place
}

/// Whether the row with input focus shows message `place`, with its bubble wholly inside the
/// conversation's area.
fn focused_row_in_view(app: &mut App, place: usize) -> bool {
    let Some(row) = app.world().resource::<InputFocus>().get() else {
        return false;
    };
    if app
        .world()
        .get::<Item>(row)
        .is_none_or(|item| item.0 != place)
    {
        return false;
    }
    let Some(&bubble) = app.world().get::<Children>(row).and_then(|c| c.first()) else {
        return false;
    };
    if app.world().get::<Bubble>(bubble).is_none() {
        return false;
    }
    let conversation = the::<Conversation>(app);
    let (area, shown) = (rect(app, conversation), rect(app, bubble));
    shown.min.y >= area.min.y - 0.5 && shown.max.y <= area.max.y + 0.5
}
