//! Whatever a user or a machine throws at the flow: odd text, huge text, bursts, a full field, a
//! damaged font. Each test states the rule it holds the app to.

use crate::common;

use agent_chat::{
    chat::{MessageLog, REPLIES, ROW_BORDER, Role, RowClass, is_invisible, normalize},
    input::{
        LENGTH_LIMIT_NOTICE, MAX_INPUT_CHARS,
        editor::{LineEditor, Motion},
    },
    scroll::UNSIZED_VIEW,
    theme::{Palette, fonts},
    view::{MAX_SHOWN_CHARS, paragraph},
};
use bevy::{input::keyboard::Key, prelude::*, text::DEFAULT_FONT_DATA};
use bevy_simple_text_input::TextInputSubmitMessage;
use common::*;
use proptest::prelude::*;

/// Whitespace as the spec lists it, plus every other kind `str::trim` removes.
const WHITESPACE: &[&str] = &[
    " ", "\t", "\r", "\n", "\r\n", "\u{a0}", "\u{3000}", "\u{2028}", "\u{2029}", "\u{85}",
];
/// Characters that draw nothing; a line of only these and whitespace is blank.
const INVISIBLE: &[char] = &['\u{200b}', '\u{200d}', '\u{2060}', '\u{feff}', '\u{3164}'];

#[test]
fn blank_means_nothing_visible_after_trimming() {
    for blank in WHITESPACE {
        assert_eq!(normalize(blank), None, "{blank:?} is whitespace");
    }
    for &c in INVISIBLE {
        assert!(is_invisible(c));
        assert_eq!(
            normalize(&format!(" {c} ")),
            None,
            "{c:?} alone draws nothing"
        );
    }
    assert_eq!(
        normalize("\u{3164}\u{3164}"),
        None,
        "Hangul fillers are blank"
    );

    assert_eq!(
        normalize("  a\u{200b}  "),
        Some("a\u{200b}"),
        "kept inside text"
    );
    assert_eq!(
        normalize("\t👩\u{200d}💻\n"),
        Some("👩\u{200d}💻"),
        "a ZWJ sequence is text"
    );
    assert_eq!(normalize("e\u{301}"), Some("e\u{301}"));
    assert_eq!(
        normalize("\u{1b}[31m"),
        Some("\u{1b}[31m"),
        "control characters are text, shown and logged escaped"
    );
}

#[test]
fn an_invisible_only_submission_changes_nothing() {
    let mut app = headless_app();
    let calls = fix_pick(&mut app, &[0]);
    for line in ["\u{200b}", "\u{3164} \u{3164}", "\u{feff} \u{2060}"] {
        submit(&mut app, line);
    }
    // A tab can't be typed into the field; sent raw, it is blank all the same.
    write_submit_message(&mut app, "\u{feff}\t\u{2060}");
    assert_eq!(pick_calls(&calls), 0);
    assert!(logged(&app).is_empty() && rows(&mut app).is_empty());
}

/// One piece of a generated line: ordinary text, Korean, emoji, combining marks, right-to-left
/// text, control characters, whitespace, or an invisible character.
fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9.,!?:/_-]{1,12}",
        "[가-힣]{1,6}",
        prop::sample::select(vec![
            "👩\u{200d}💻",
            "👨\u{200d}👩\u{200d}👧\u{200d}👦",
            "🏳\u{fe0f}\u{200d}🌈",
            "🙂",
        ])
        .prop_map(str::to_owned),
        prop::sample::select(vec!["e\u{301}", "한\u{308}", "a\u{20dd}\u{301}"])
            .prop_map(str::to_owned),
        prop::sample::select(vec!["שלום", "مرحبا", "\u{202e}abc\u{202c}", "\u{2067}x"])
            .prop_map(str::to_owned),
        "[\u{0}-\u{8}\u{b}\u{e}-\u{1f}\u{7f}]{1,3}",
        prop::sample::select(WHITESPACE.to_vec()).prop_map(str::to_owned),
        prop::sample::select(INVISIBLE.to_vec()).prop_map(String::from),
    ]
}

/// A line of zero to six fragments: often blank, often mixed.
fn line() -> impl Strategy<Value = String> {
    prop::collection::vec(fragment(), 0..6).prop_map(|parts| parts.concat())
}

/// The spec's rule, written out independently of `normalize`.
fn expected_body(raw: &str) -> Option<&str> {
    let trimmed = raw.trim_matches(char::is_whitespace);
    trimmed
        .chars()
        .any(|c| !c.is_whitespace() && !INVISIBLE.contains(&c))
        .then_some(trimmed)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Any sequence of lines, several per frame, with the real random reply pick.
    #[test]
    fn any_sequence_of_lines_yields_ordered_pairs_and_matching_rows(
        frames in prop::collection::vec(prop::collection::vec(line(), 0..4), 1..6)
    ) {
        let mut app = headless_app();
        let input = input_entity(&mut app);
        let mut accepted = Vec::new();
        for frame in &frames {
            for raw in frame {
                app.world_mut().write_message(TextInputSubmitMessage { entity: input, value: raw.clone() });
                accepted.extend(expected_body(raw).map(str::to_owned));
            }
            app.update();
        }

        let (inputs, replies) = recorded(&app);
        prop_assert_eq!(&inputs, &accepted, "inputs recorded trimmed, in order, blanks skipped");
        prop_assert_eq!(replies.len(), accepted.len(), "one reply per accepted input");
        prop_assert!(replies.iter().all(|reply| REPLIES.contains(reply)), "replies from the list");

        let log = logged(&app);
        prop_assert_eq!(log.len(), 2 * accepted.len());
        for (i, pair) in log.chunks(2).enumerate() {
            prop_assert_eq!(&pair[0], &(Role::User, accepted[i].clone()));
            prop_assert_eq!(&pair[1], &(Role::Agent, replies[i].to_owned()));
        }

        let shown = rows(&mut app);
        // The newest rows, as many as the view holds: a row per message in view.
        prop_assert!(shown.len() <= log.len() && (log.is_empty() || !shown.is_empty()));
        let first = assert_newest_run(&app, &shown);
        for (row, (role, body)) in shown.iter().zip(&log[first..]) {
            let (label, class, justify, border) = match role {
                Role::User => ("사용자", RowClass::UserMessage, JustifyContent::FlexStart, UiRect::left(ROW_BORDER)),
                Role::Agent => ("에이전트", RowClass::AgentReply, JustifyContent::FlexEnd, UiRect::right(ROW_BORDER)),
            };
            // Marks for the layout aside (a body that starts right to left), the label and body.
            let text = format!("{label}: {body}");
            prop_assert_eq!(&row.text, &paragraph::layout_text(&text, body));
            prop_assert_eq!((row.class, row.justify, row.border), (class, justify, border));
        }
    }
}

#[test]
fn a_burst_of_ten_thousand_submissions_in_one_frame_keeps_every_one_in_order() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0, 1, 2, 3, 4]);
    let input = input_entity(&mut app);
    for i in 0..10_000 {
        app.world_mut().write_message(TextInputSubmitMessage {
            entity: input,
            value: format!("burst {i}"),
        });
    }
    app.update();

    let log = logged(&app);
    assert_eq!(log.len(), 20_000, "nothing lost");
    for (i, pair) in log.chunks(2).enumerate() {
        assert_eq!(
            pair[0],
            (Role::User, format!("burst {i}")),
            "user message {i}"
        );
        assert_eq!(
            pair[1],
            (Role::Agent, REPLIES[i % 5].to_owned()),
            "its reply"
        );
    }
    let shown = rows(&mut app);
    assert!(
        shown.len() > 2 && shown.len() <= most_rows_mounted(UNSIZED_VIEW),
        "rows for the view, not for the burst: {}",
        shown.len()
    );
    assert_newest_run(&app, &shown);
    assert_eq!(shown[shown.len() - 2].text, "사용자: burst 9999");
}

#[test]
fn rows_follow_the_newest_messages_while_the_log_keeps_every_message() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0]);
    // One frame at a time, well past what the view holds: the oldest rows leave as new ones
    // come, while the view follows the end.
    let most = most_rows_mounted(UNSIZED_VIEW);
    for i in 0..most + 10 {
        submit(&mut app, &format!("line {i}"));
    }
    let log = app.world().resource::<MessageLog>().entities().to_vec();
    assert_eq!(log.len(), 2 * (most + 10), "the log keeps everything");
    let shown = rows(&mut app);
    assert!(shown.len() <= most, "{} rows", shown.len());
    let first = assert_newest_run(&app, &shown);
    assert!(first > 0, "the oldest rows left");
    assert_eq!(logged(&app)[0], (Role::User, "line 0".to_owned()));
}

#[test]
fn a_one_mebibyte_submission_is_logged_whole_and_shown_shortened() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0]);
    let huge = "가나다라".repeat(1 << 18); // 1,048,576 characters, 3 MiB of UTF-8
    // Far over what the field takes (it stops at its length limit): as another route would send it.
    write_submit_message(&mut app, &format!("  {huge}  "));

    let log = logged(&app);
    assert_eq!(
        log[0],
        (Role::User, huge.clone()),
        "the log keeps every character"
    );
    assert_eq!(recorded(&app).0, std::slice::from_ref(&huge));

    let shown = rows(&mut app);
    let hidden = huge.chars().count() - MAX_SHOWN_CHARS;
    let start: String = huge.chars().take(MAX_SHOWN_CHARS).collect();
    assert_eq!(
        shown[0].text,
        format!("사용자: {start}… (+{hidden}자)"),
        "the row shows the start and how much more there is"
    );
    assert_eq!(shown[1].text, format!("에이전트: {}", REPLIES[0]));
}

#[test]
fn a_full_field_refuses_more_keys_and_says_so_until_it_is_emptied() {
    let mut app = headless_app();
    let limit = usize::from(MAX_INPUT_CHARS);
    let border = |app: &mut App| {
        let input = input_entity(app);
        app.world().get::<BorderColor>(input).unwrap().left
    };
    assert_eq!(length_notice(&mut app), Display::None, "no notice at start");

    type_text(&mut app, &"가".repeat(limit - 1));
    assert_eq!(
        length_notice(&mut app),
        Display::None,
        "one below the limit"
    );
    type_text(&mut app, "abcde");
    assert_eq!(
        input_value(&mut app).chars().count(),
        limit,
        "the field stops at the limit"
    );
    assert!(
        input_value(&mut app).ends_with("가a"),
        "the first key fits, the rest are refused"
    );
    assert_eq!(length_notice(&mut app), Display::Flex, "the user sees why");
    assert!(
        LENGTH_LIMIT_NOTICE.contains(&limit.to_string()),
        "and the limit"
    );
    assert_eq!(
        border(&mut app),
        Palette::DARK.warning,
        "and the field's border says so too"
    );

    press_enter(&mut app);
    assert_eq!(
        length_notice(&mut app),
        Display::None,
        "gone once the field is empty"
    );
    assert_eq!(border(&mut app), Palette::DARK.input_border);
    let (inputs, _) = recorded(&app);
    assert_eq!(inputs[0].chars().count(), limit, "the full line is sent");
}

#[test]
fn a_control_character_a_key_types_is_a_space_and_a_line_break_stays_one() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0]);
    type_text(&mut app, "first\nsecond\tthird\r\u{7}");
    app.update();
    assert_eq!(
        input_value(&mut app),
        "first\nsecond third\n ",
        "a line feed or a return typed as a character breaks the line; a tab or a bell is a space"
    );
    press_enter(&mut app);
    assert_eq!(
        recorded(&app).0,
        ["first\nsecond third"],
        "sent with the line break inside, the ends trimmed"
    );
}

#[test]
fn two_lines_entered_within_one_frame_are_both_sent_in_order() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0, 1]);
    // Keys a fast typist (or a slow frame) delivers together: "first", Enter, "second", Enter.
    for line in ["first", "second"] {
        key_in(&mut app, line);
        tap(&mut app, KeyCode::Enter, Key::Enter);
    }
    app.update();
    assert_eq!(
        recorded(&app).0,
        ["first", "second"],
        "both lines, in order, in the frame that read them"
    );
    assert_eq!(input_value(&mut app), "");

    // Three more Enters in one frame, one of them on a blank line.
    for line in ["third", "   ", "fourth"] {
        key_in(&mut app, line);
        tap(&mut app, KeyCode::Enter, Key::Enter);
    }
    app.update();
    assert_eq!(
        recorded(&app).0,
        ["first", "second", "third", "fourth"],
        "each line once, in order"
    );
    assert_eq!(logged(&app).len(), 8);
}

#[test]
fn keys_typed_after_enter_in_the_same_frame_start_the_next_line() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0]);
    key_in(&mut app, "hello");
    tap(&mut app, KeyCode::Enter, Key::Enter);
    key_in(&mut app, "wor");
    app.update();
    assert_eq!(recorded(&app).0, ["hello"]);
    assert_eq!(
        input_value(&mut app),
        "wor",
        "the next line's start is kept"
    );
}

#[test]
fn the_bundled_font_reads_and_covers_hangul() {
    let bundled = include_bytes!("../../assets/fonts/AgentChatHangul.ttf");
    assert_eq!(fonts::check_hangul_font(bundled), Ok(()));
    assert_eq!(fonts::load_font(bundled).data.data(), &bundled[..]);
}

#[test]
fn a_damaged_font_falls_back_to_bevys_builtin_one() {
    let bundled = include_bytes!("../../assets/fonts/AgentChatHangul.ttf");
    for (damaged, why) in [
        (&b"not a font at all"[..], "garbage"),
        (&bundled[..512], "truncated"),
        (DEFAULT_FONT_DATA, "a font without Hangul"),
    ] {
        assert!(
            fonts::check_hangul_font(damaged).is_err(),
            "{why} is rejected"
        );
        assert_eq!(
            fonts::load_font(damaged).data.data(),
            DEFAULT_FONT_DATA,
            "{why}: the app falls back to Bevy's built-in font"
        );
    }
}

/// One thing a user can do to the field's line.
#[derive(Debug, Clone)]
enum Edit {
    Type(String),
    Paste(String),
    Compose(String, usize),
    Commit(String),
    Move(Motion, bool),
    Delete(Motion),
    Place(usize, bool),
    SelectWord(usize),
    SelectAll,
    Cut,
    Undo,
    Redo,
    Replace(String),
    Take,
}

fn motion() -> impl Strategy<Value = Motion> {
    prop::sample::select(vec![
        Motion::Left,
        Motion::Right,
        Motion::WordLeft,
        Motion::WordRight,
        Motion::Home,
        Motion::End,
        Motion::Up,
        Motion::Down,
        Motion::TextStart,
        Motion::TextEnd,
    ])
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        4 => line().prop_map(Edit::Type),
        1 => fragment().prop_map(Edit::Paste),
        1 => (fragment(), 0..40usize).prop_map(|(text, caret)| Edit::Compose(text, caret)),
        1 => fragment().prop_map(Edit::Commit),
        3 => (motion(), any::<bool>()).prop_map(|(motion, extend)| Edit::Move(motion, extend)),
        2 => motion().prop_map(Edit::Delete),
        1 => (0..200usize, any::<bool>()).prop_map(|(at, extend)| Edit::Place(at, extend)),
        1 => (0..200usize).prop_map(Edit::SelectWord),
        1 => Just(Edit::SelectAll),
        1 => Just(Edit::Cut),
        2 => Just(Edit::Undo),
        1 => Just(Edit::Redo),
        1 => line().prop_map(Edit::Replace),
        1 => Just(Edit::Take),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any sequence of edits on any text, in a field of one line or of many: no panic, the caret
    /// and selection inside the text on character boundaries, within the limit, no control
    /// character but a line break where the field keeps them (and none where it does not), and
    /// undo then redo back where it was.
    #[test]
    fn any_edits_on_any_text_keep_the_line_whole(
        edits in prop::collection::vec(edit(), 1..40),
        keeps_breaks in any::<bool>(),
    ) {
        const LIMIT: usize = 24;
        let mut line = if keeps_breaks {
            LineEditor::with_line_breaks(LIMIT)
        } else {
            LineEditor::new(LIMIT)
        };
        for edit in edits {
            match edit {
                Edit::Type(text) => { line.type_text(&text); }
                Edit::Paste(text) => { line.paste(&text); }
                Edit::Compose(text, caret) => { line.compose(&text, Some(caret)); }
                Edit::Commit(text) => {
                    line.compose("", None);
                    line.type_text(&text);
                }
                Edit::Move(motion, extend) => line.move_caret(motion, extend),
                Edit::Delete(motion) => line.delete(motion),
                Edit::Place(at, extend) => line.place(at, extend),
                Edit::SelectWord(at) => line.select_word_at(at),
                Edit::SelectAll => line.select_all(),
                Edit::Cut => { line.cut(); }
                Edit::Undo => {
                    let before = line.text().to_owned();
                    if line.undo() {
                        prop_assert!(line.redo(), "what was undone can be redone");
                        prop_assert_eq!(line.text(), before.as_str());
                        line.undo();
                    }
                }
                Edit::Redo => { line.redo(); }
                Edit::Replace(text) => line.replace_all(&text),
                Edit::Take => { line.take(); }
            }
            let text = line.text();
            let selection = line.selection();
            prop_assert!(selection.end <= text.len());
            for at in [line.caret(), selection.start, selection.end] {
                prop_assert!(text.is_char_boundary(at), "{at} inside a character of {text:?}");
            }
            prop_assert!(text.chars().count() <= LIMIT, "{text:?} is over the limit");
            let stray = |c: char| c.is_control() && !(keeps_breaks && c == '\n');
            prop_assert!(!text.contains(stray), "{text:?} holds a stray control character");
            let shown = line.shown();
            prop_assert!(shown.is_char_boundary(line.shown_caret()) && line.shown_caret() <= shown.len());
            if let Some(composition) = line.composition() {
                prop_assert!(composition.end <= shown.len());
                prop_assert!(shown.chars().count() <= LIMIT, "{shown:?}: the composition fits too");
            }
        }
    }
}
