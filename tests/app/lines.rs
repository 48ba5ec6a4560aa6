//! Messages of more than one line (issue 56): Shift+Enter breaks the line and Enter sends it,
//! a paste keeps its lines, the field grows with them and scrolls past its limit, Up and Down
//! move between them and walk the lines sent before at the edges, and the rows, the copy and
//! the reader keep the lines as written. Keys are delivered as a window does, through the real
//! systems.

use crate::common;

use agent_chat::{
    chat::Role,
    input::{Field, MAX_INPUT_CHARS, clipboard::ClipboardText},
};
use bevy::{
    input::{ButtonState, keyboard::Key},
    prelude::*,
    window::Ime,
};
use common::*;

const SHIFT: &[KeyCode] = &[KeyCode::ShiftLeft];
const CTRL: &[KeyCode] = &[KeyCode::ControlLeft];

/// Shift+Enter, in the frame being gathered.
fn new_line(app: &mut App) {
    chord(app, SHIFT, KeyCode::Enter, Key::Enter);
}

/// Types `lines`, a Shift+Enter between each two, and runs a frame.
fn type_lines(app: &mut App, lines: &[&str]) {
    for (index, line) in lines.iter().enumerate() {
        if index > 0 {
            new_line(app);
        }
        key_in(app, line);
    }
    app.update();
}

/// A key with no text of its own, with `modifiers` held, and a frame.
fn press(app: &mut App, modifiers: &[KeyCode], key_code: KeyCode, logical: Key) {
    chord(app, modifiers, key_code, logical);
    app.update();
}

fn up(app: &mut App) {
    press(app, &[], KeyCode::ArrowUp, Key::ArrowUp);
}

fn down(app: &mut App) {
    press(app, &[], KeyCode::ArrowDown, Key::ArrowDown);
}

/// The chat field's text and caret.
fn field(app: &mut App) -> (String, usize) {
    let entity = input_entity(app);
    let line = app.world().get::<Field>(entity).unwrap().line();
    (line.text().to_owned(), line.caret())
}

/// The byte the caret is at, as `(text, caret)` puts it: `text` up to the caret.
fn caret_after(text: &str) -> usize {
    text.len()
}

#[test]
fn shift_enter_breaks_the_line_and_enter_sends_it_whole_with_the_ends_trimmed() {
    let mut app = headless_app();
    fix_pick(&mut app, &[1]);
    type_lines(&mut app, &["  첫째 줄", "둘째 줄", ""]);
    assert_eq!(
        field(&mut app),
        (
            "  첫째 줄\n둘째 줄\n".to_owned(),
            caret_after("  첫째 줄\n둘째 줄\n")
        ),
        "each Shift+Enter is a line break at the caret; nothing is sent"
    );
    assert!(logged(&app).is_empty());
    press_enter(&mut app);
    assert_eq!(
        recorded(&app).0,
        ["첫째 줄\n둘째 줄"],
        "spec step 1 trims the ends only; the break inside stays"
    );
    assert_eq!(
        logged(&app),
        [
            (Role::User, "첫째 줄\n둘째 줄".to_owned()),
            (Role::Agent, agent_chat::chat::REPLIES[1].to_owned())
        ]
    );
    assert_eq!(
        field(&mut app),
        (String::new(), 0),
        "the field is empty at once"
    );
}

#[test]
fn a_message_of_only_line_breaks_spaces_and_tabs_is_blank_and_ignored() {
    let mut app = headless_app();
    let picks = fix_pick(&mut app, &[0]);
    type_lines(&mut app, &[" ", "\t", "", "  "]);
    assert_eq!(
        input_value(&mut app),
        " \n \n\n  ",
        "a tab typed is a space"
    );
    press_enter(&mut app);
    assert_eq!(input_value(&mut app), "", "cleared, blank or not");
    assert!(logged(&app).is_empty(), "no message");
    assert!(recorded(&app).0.is_empty(), "no record");
    assert_eq!(pick_calls(&picks), 0, "no reply picked");
}

#[test]
fn shift_enter_replaces_the_selection_and_undo_takes_the_break_back() {
    let mut app = headless_app();
    type_text(&mut app, "하나 둘");
    for _ in 0..2 {
        chord(&mut app, SHIFT, KeyCode::ArrowLeft, Key::ArrowLeft);
    }
    app.update();
    new_line(&mut app);
    app.update();
    assert_eq!(
        field(&mut app),
        ("하나\n".to_owned(), caret_after("하나\n"))
    );
    chord(&mut app, CTRL, KeyCode::KeyZ, Key::Character("z".into()));
    app.update();
    assert_eq!(
        field(&mut app).0,
        "하나 둘",
        "undo brings the selection back"
    );
}

#[test]
fn shift_enter_while_a_syllable_is_composed_breaks_the_line_after_it() {
    let mut app = headless_app();
    type_text(&mut app, "가");
    let window = Entity::PLACEHOLDER;
    let preedit = |value: &str| Ime::Preedit {
        window,
        value: value.into(),
        cursor: Some((value.len(), value.len())),
    };
    deliver(&mut app, preedit("한"));
    app.update();
    // ibus-hangul ends the syllable, then passes the key on, and commits it only after (the
    // order `input/commit_wait.rs` sorts out).
    deliver(&mut app, preedit(""));
    new_line(&mut app);
    app.update();
    deliver(
        &mut app,
        Ime::Commit {
            window,
            value: "한".into(),
        },
    );
    app.update();
    key_in(&mut app, "글");
    app.update();
    assert_eq!(
        field(&mut app),
        ("가한\n글".to_owned(), caret_after("가한\n글")),
        "the syllable first, then the break, then what came after"
    );
}

/// What winit says when Shift goes down (or up), as a raw event beside Bevy's.
fn window_says_shift(app: &mut App, held: bool) {
    use bevy::winit::RawWinitWindowEvent;
    use winit::{event::WindowEvent, keyboard::ModifiersState, window::WindowId};
    let state = if held {
        ModifiersState::SHIFT
    } else {
        ModifiersState::empty()
    };
    app.world_mut().write_message(RawWinitWindowEvent {
        window_id: WindowId::dummy(),
        event: WindowEvent::ModifiersChanged(state.into()),
    });
}

#[test]
fn enter_is_shift_enter_when_the_window_says_shift_is_held_though_its_keys_never_came() {
    // ibus-hangul keeps Shift's press and release for itself while it composes; winit still
    // reports the modifiers.
    let mut app = headless_app();
    fix_pick(&mut app, &[0]);
    key_in(&mut app, "첫");
    window_says_shift(&mut app, true);
    tap(&mut app, KeyCode::Enter, Key::Enter);
    app.update();
    window_says_shift(&mut app, false);
    key_in(&mut app, "둘");
    app.update();
    assert_eq!(
        input_value(&mut app),
        "첫\n둘",
        "a line break, nothing sent"
    );
    press_enter(&mut app);
    assert_eq!(recorded(&app).0, ["첫\n둘"], "Shift let go: Enter sends");
}

#[test]
fn a_paste_keeps_its_lines_as_lf_and_other_control_characters_become_spaces() {
    let mut app = play_the_clipboard_in(headless_app());
    type_text(&mut app, "[]");
    press(&mut app, &[], KeyCode::ArrowLeft, Key::ArrowLeft);
    chord(&mut app, CTRL, KeyCode::KeyV, Key::Character("v".into()));
    app.update();
    app.world_mut()
        .write_message(ClipboardText(Some("하나\r\n둘\r셋\n넷\t끝\u{1b}".into())));
    app.update();
    assert_eq!(
        field(&mut app),
        (
            "[하나\n둘\n셋\n넷 끝 ]".to_owned(),
            caret_after("[하나\n둘\n셋\n넷 끝 ")
        ),
        "CR LF and a lone CR are one LF each; a tab and an escape are spaces"
    );
}

#[test]
fn a_paste_of_a_hundred_thousand_lines_keeps_what_fits_shows_the_notice_and_loses_nothing_below() {
    let mut app = play_the_clipboard_in(headless_app());
    let pasted: String = (0..100_000).map(|n| format!("{n}\n")).collect();
    chord(&mut app, CTRL, KeyCode::KeyV, Key::Character("v".into()));
    app.update();
    app.world_mut()
        .write_message(ClipboardText(Some(pasted.clone())));
    app.update();
    let limit = usize::from(MAX_INPUT_CHARS);
    let kept = input_value(&mut app);
    assert_eq!(kept.chars().count(), limit, "filled to the limit");
    assert!(
        pasted.starts_with(&kept),
        "the start of the paste, line breaks and all"
    );
    assert_eq!(
        length_notice(&mut app),
        Display::Flex,
        "the notice says why"
    );
}

/// The app with real layout, `lines` typed into its field.
fn lines_app(lines: &[&str]) -> App {
    let mut app = laid_out_app();
    type_lines(&mut app, lines);
    app.update();
    app
}

#[test]
fn up_and_down_move_between_the_lines_and_walk_the_lines_sent_at_the_first_and_last() {
    let mut app = laid_out_app();
    fix_pick(&mut app, &[0]);
    submit(&mut app, "sent before");
    app.update();
    type_lines(&mut app, &["abcd", "ef", "ghij"]);
    app.update();
    up(&mut app);
    assert_eq!(
        field(&mut app).1,
        caret_after("abcd\nef"),
        "Up from the end of `ghij` lands at the end of the shorter line above"
    );
    up(&mut app);
    let (_, at) = field(&mut app);
    assert!(
        at <= "abcd".len(),
        "then on the first line, near where it was across"
    );
    up(&mut app);
    assert_eq!(
        field(&mut app).0,
        "sent before",
        "Up on the first line walks back to the line sent before"
    );
    down(&mut app);
    assert_eq!(
        field(&mut app).0,
        "abcd\nef\nghij",
        "Down on its last line comes back to the draft"
    );
    press(&mut app, CTRL, KeyCode::Home, Key::Home);
    assert_eq!(field(&mut app).1, 0, "Ctrl+Home: the text's start");
    down(&mut app);
    down(&mut app);
    assert_eq!(
        field(&mut app).1,
        caret_after("abcd\nef\n"),
        "Down, Down: the third line"
    );
    press(&mut app, SHIFT, KeyCode::ArrowUp, Key::ArrowUp);
    let entity = input_entity(&mut app);
    let line = app.world().get::<Field>(entity).unwrap().line();
    assert_eq!(
        line.selected_text(),
        Some("ef\n"),
        "Shift+Up selects up to the same place on the line above"
    );
    press(&mut app, CTRL, KeyCode::End, Key::End);
    assert_eq!(
        field(&mut app).1,
        "abcd\nef\nghij".len(),
        "Ctrl+End: the text's end"
    );
}

#[test]
fn home_end_up_and_down_follow_the_lines_a_long_line_wraps_into() {
    // Long enough to wrap in the 800-pixel window, with no line break in it.
    let words: Vec<String> = (0..40).map(|n| format!("word{n}")).collect();
    let long = words.join(" ");
    let mut app = lines_app(&[&long]);
    press(&mut app, &[], KeyCode::Home, Key::Home);
    let (_, start) = field(&mut app);
    assert!(
        start > 0 && long.as_bytes()[start - 1] == b' ',
        "Home goes to the start of the wrapped line the caret is on, after a space: {start}"
    );
    up(&mut app);
    let (text, at) = field(&mut app);
    assert_eq!(
        text, long,
        "Up on a wrapped line moves, and walks no history"
    );
    assert!(at < start, "to the line above");
    press(&mut app, &[], KeyCode::End, Key::End);
    let (_, end) = field(&mut app);
    assert!(
        end < long.len() && end >= start - 1,
        "End goes to the end of that wrapped line, not the text's: {end}"
    );
    press(&mut app, CTRL, KeyCode::Home, Key::Home);
    assert_eq!(field(&mut app).1, 0);
}

#[test]
fn ctrl_home_in_a_field_of_one_line_still_scrolls_the_conversation() {
    let mut app = laid_out_app();
    fill_log(&mut app, 200);
    finish_mounting(&mut app);
    type_text(&mut app, "draft");
    press(&mut app, CTRL, KeyCode::Home, Key::Home);
    finish_mounting(&mut app);
    assert_eq!(offset(&mut app), 0.0, "the conversation's start is in view");
    assert_eq!(
        field(&mut app),
        ("draft".to_owned(), caret_after("draft")),
        "the one line's caret stays"
    );
}

/// The field's viewport (the node its text scrolls in) and the text's own node.
fn field_view(app: &mut App) -> (Rect, Rect) {
    let text = widget_line(app);
    let viewport = app.world().get::<ChildOf>(text).unwrap().parent();
    (rect(app, viewport), rect(app, text))
}

#[test]
fn the_field_grows_with_its_lines_to_its_limit_then_scrolls_with_the_caret_in_view() {
    let mut app = laid_out_app();
    fill_log(&mut app, 50);
    finish_mounting(&mut app);
    let (one_line, _) = field_view(&mut app);
    let conversation_bottom = |app: &mut App| {
        let newest = *row_entities(app.world_mut()).last().unwrap();
        rect(app, newest).max.y
    };
    let newest_before = conversation_bottom(&mut app);

    type_lines(&mut app, &["1", "2", "3"]);
    app.update();
    let (three, _) = field_view(&mut app);
    let grown = three.height() / one_line.height();
    assert!(
        (2.7..3.3).contains(&grown),
        "three lines, three times as tall: {grown}"
    );
    assert!(
        (three.max.y - one_line.max.y).abs() < 1.0,
        "the field grows upwards; its bottom stays"
    );
    app.update();
    let newest_after = conversation_bottom(&mut app);
    assert!(
        newest_after <= three.min.y && newest_after < newest_before,
        "the conversation gives up the room, its newest row still in view above the field"
    );

    // A break after `3`, then 27 more lines.
    let more: Vec<String> = std::iter::once(String::new())
        .chain((4..=30).map(|n| n.to_string()))
        .collect();
    let more: Vec<&str> = more.iter().map(String::as_str).collect();
    type_lines(&mut app, &more);
    app.update();
    app.update();
    let (tall, text) = field_view(&mut app);
    let lines_shown = tall.height() / one_line.height();
    assert!(
        (7.5..8.5).contains(&lines_shown),
        "at most about eight lines: {lines_shown}"
    );
    assert!(
        text.height() > tall.height() * 3.0,
        "the rest scroll: {text:?} in {tall:?}"
    );
    let bar = caret_bar(&mut app);
    let caret = rect(&mut app, bar);
    assert!(
        caret.min.y >= tall.min.y - 0.5 && caret.max.y <= tall.max.y + 0.5,
        "the caret, on the last line, is in view: {caret:?} in {tall:?}"
    );

    press(&mut app, CTRL, KeyCode::Home, Key::Home);
    app.update();
    let (view, text) = field_view(&mut app);
    let caret = rect(&mut app, bar);
    assert!(
        (text.min.y - view.min.y).abs() < 0.5 && caret.min.y >= view.min.y - 0.5,
        "Ctrl+Home scrolls the first line back into view"
    );

    press_enter(&mut app);
    app.update();
    let (after, _) = field_view(&mut app);
    assert!(
        (after.height() - one_line.height()).abs() < 0.5,
        "sent, the field is one line again"
    );
}

#[test]
fn a_row_shows_its_lines_measures_them_and_copies_them_back() {
    let mut app = play_the_clipboard_in(laid_out_app());
    fix_pick(&mut app, &[0]);
    write_submit_message(&mut app, "one\ntwo\nthree");
    finish_mounting(&mut app);
    let rows = row_entities(app.world_mut());
    let user = rows[rows.len() - 2];
    let reply = rows[rows.len() - 1];
    let text = text_of_row(app.world(), user);
    assert_eq!(shown_text(app.world(), text), "사용자: one\ntwo\nthree");
    let user_height = rect(&mut app, user).height();
    let reply_height = rect(&mut app, reply).height();
    let reply_text = text_of_row(app.world(), reply);
    let one_line = rect(&mut app, reply_text).height();
    let more = (user_height - reply_height) / one_line;
    assert!(
        (1.9..2.1).contains(&more),
        "three lines take two lines more than one reply line: {more}"
    );
    let heights = list(&mut app).heights();
    let measured = heights.extent(heights.len() - 2) - heights.gap();
    assert!(
        (measured - user_height).abs() < 1.0,
        "the list measures the row as laid out: {measured} for {user_height}"
    );

    // Shift+Tab: focus on the newest message; Up: the user's; Ctrl+C: its body.
    chord(&mut app, SHIFT, KeyCode::Tab, Key::Tab);
    app.update();
    up(&mut app);
    chord(&mut app, CTRL, KeyCode::KeyC, Key::Character("c".into()));
    app.update();
    assert_eq!(
        copied(&mut app),
        ["one\ntwo\nthree"],
        "copied with its line breaks"
    );
}

#[test]
fn a_long_line_wraps_at_the_fields_edge_and_the_caret_stays_on_its_last_line() {
    for text in [
        "가나다라마".repeat(40),
        "abcde".repeat(200),
        "word ".repeat(100),
    ] {
        let mut app = lines_app(&[&text]);
        let (view, wrapped) = field_view(&mut app);
        let bar = caret_bar(&mut app);
        let caret = rect(&mut app, bar);
        let start: String = text.chars().take(4).collect();
        assert_eq!(
            (wrapped.min.x, wrapped.max.x),
            (view.min.x, view.max.x),
            "{start}…: wrapped at the view's edges, never scrolled sideways"
        );
        assert!(
            wrapped.height() > caret.height() * 3.0,
            "{start}…: on several lines"
        );
        assert!(
            view.contains(caret.min) && view.contains(caret.max - 0.5),
            "{start}…: the caret {caret:?} in view {view:?}"
        );
        assert!(
            (caret.max.y - wrapped.max.y).abs() < 1.0,
            "{start}…: on the last line"
        );
    }
}

#[test]
fn find_matches_within_a_line_and_its_mark_lands_on_that_line() {
    let mut app = laid_out_app();
    fix_pick(&mut app, &[0]);
    write_submit_message(&mut app, "첫 줄\n둘째 줄의 needle 하나\n셋째 줄");
    finish_mounting(&mut app);
    chord(&mut app, CTRL, KeyCode::KeyF, Key::Character("f".into()));
    app.update();
    key_in(&mut app, "needle");
    for _ in 0..5 {
        app.update();
    }
    let rows = row_entities(app.world_mut());
    let text = text_of_row(app.world(), rows[0]);
    let marked: Vec<String> = marked_spans(app.world(), text)
        .into_iter()
        .map(|(shown, _)| shown)
        .collect();
    assert_eq!(marked, ["needle"], "the match, marked alone");
    // The marked span sits on the second line: the text before it holds one line break.
    let shown = shown_text(app.world(), text);
    let before = &shown[..shown.find("needle").unwrap()];
    assert_eq!(before.matches('\n').count(), 1, "{shown:?}");
}

#[test]
fn a_message_of_a_thousand_lines_is_measured_whole_and_scrolls_like_any_other() {
    let mut app = laid_out_app();
    fix_pick(&mut app, &[0]);
    fill_log(&mut app, 40);
    // Rows 40, 42 and 44: one line, two lines, a thousand.
    write_submit_message(&mut app, "a");
    write_submit_message(&mut app, "a\nb");
    let thousand: Vec<String> = (1..=1000).map(|n| n.to_string()).collect();
    write_submit_message(&mut app, &thousand.join("\n"));
    fill_log(&mut app, 40);
    finish_mounting(&mut app);
    // From the top, down through the whole conversation a page at a time: the long row is
    // measured as it comes into view, and the list's total is then the sum of what it measured.
    press(&mut app, CTRL, KeyCode::Home, Key::Home);
    finish_mounting(&mut app);
    for _ in 0..200 {
        press(&mut app, &[], KeyCode::PageDown, Key::PageDown);
        if list(&mut app).follows_end() {
            break;
        }
    }
    finish_mounting(&mut app);
    let heights = list(&mut app).heights();
    let (one, two, long) = (40, 42, 44);
    assert!(
        heights.is_measured(long),
        "the long row was measured on the way"
    );
    let line = heights.extent(two) - heights.extent(one);
    let lines = 1.0 + (heights.extent(long) - heights.extent(one)) / line;
    assert!(
        (995.0..1005.0).contains(&lines),
        "a thousand lines of {line} px: {lines}"
    );
    assert!(
        (0..heights.len()).all(|i| heights.is_measured(i)),
        "every row measured on the way down: the scrollbar's length is exact, not estimated"
    );
}

/// How many frames marked the field's text node (its layout or its node) changed.
#[derive(Resource, Default)]
struct TextNodeMarked(usize);

fn count_marks(
    mut marked: ResMut<TextNodeMarked>,
    texts: Query<(&Name, Ref<TextLayout>, Ref<Node>)>,
) {
    let changed = texts.iter().any(|(name, layout, node)| {
        name.as_str() == "TextInputInner" && (layout.is_changed() || node.is_changed())
    });
    marked.0 += usize::from(changed);
}

#[test]
fn an_idle_frame_with_lines_in_the_field_lays_none_of_them_out_again() {
    let mut app = laid_out_app();
    app.init_resource::<TextNodeMarked>()
        .add_systems(Last, count_marks);
    let lines: Vec<String> = (1..=100).map(|n| format!("line {n}")).collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    type_lines(&mut app, &lines);
    for _ in 0..3 {
        app.update();
    }
    app.world_mut().resource_mut::<TextNodeMarked>().0 = 0;
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<TextNodeMarked>().0,
        0,
        "no idle frame marks the field's text changed (a change lays all its lines out again)"
    );
}

#[test]
fn a_click_places_the_caret_on_the_line_clicked_and_a_drag_selects_across_lines() {
    let mut app = lines_app(&["abc", "def", "ghi"]);
    let (_, text) = field_view(&mut app);
    let line = text.height() / 3.0;
    // Layout is in physical pixels; this window's scale is 1, so the pointer's are the same.
    let on_line = |n: f32, x: f32| Vec2::new(text.min.x + x, text.min.y + line * (n + 0.5));
    pointer(&mut app, on_line(0.0, 1.0), Some(ButtonState::Pressed));
    pointer(&mut app, on_line(0.0, 1.0), Some(ButtonState::Released));
    assert_eq!(field(&mut app).1, 0, "the first line's start");
    // Well after a double-click's time: a press of its own.
    std::thread::sleep(std::time::Duration::from_millis(450));
    pointer(&mut app, on_line(1.0, 200.0), Some(ButtonState::Pressed));
    pointer(&mut app, on_line(1.0, 200.0), Some(ButtonState::Released));
    assert_eq!(
        field(&mut app).1,
        caret_after("abc\ndef"),
        "right of the second line's end: that end"
    );
    std::thread::sleep(std::time::Duration::from_millis(450));
    pointer(&mut app, on_line(0.0, 1.0), Some(ButtonState::Pressed));
    pointer(&mut app, on_line(2.0, 200.0), None);
    pointer(&mut app, on_line(2.0, 200.0), Some(ButtonState::Released));
    let entity = input_entity(&mut app);
    let selected = app
        .world()
        .get::<Field>(entity)
        .unwrap()
        .line()
        .selected_text()
        .map(str::to_owned);
    assert_eq!(
        selected.as_deref(),
        Some("abc\ndef\nghi"),
        "a drag down three lines"
    );
}

#[test]
fn up_and_down_keep_their_place_across_through_a_shorter_line() {
    let mut app = lines_app(&["abcdef", "ab", "abcdef"]);
    up(&mut app);
    assert_eq!(
        field(&mut app).1,
        caret_after("abcdef\nab"),
        "the short line's end"
    );
    up(&mut app);
    assert_eq!(
        field(&mut app).1,
        caret_after("abcdef"),
        "back where it was across, not pulled over by the short line"
    );
    down(&mut app);
    down(&mut app);
    assert_eq!(field(&mut app).1, caret_after("abcdef\nab\nabcdef"));
    // Another move forgets the place: Left, then Up, aims from where the caret is now.
    press(&mut app, &[], KeyCode::ArrowLeft, Key::ArrowLeft);
    press(&mut app, &[], KeyCode::ArrowLeft, Key::ArrowLeft);
    press(&mut app, &[], KeyCode::ArrowLeft, Key::ArrowLeft);
    press(&mut app, &[], KeyCode::ArrowLeft, Key::ArrowLeft);
    up(&mut app);
    up(&mut app);
    assert_eq!(
        field(&mut app).1,
        caret_after("ab"),
        "two in, on the first line"
    );
}
