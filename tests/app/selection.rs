//! Selecting the conversation's text with the mouse and the keys, and copying it: through the
//! app's real systems, on real UI layout and text layout, with the test as the clipboard.

use crate::common;

use agent_chat::{
    chat::{MessageLog, REPLIES},
    input::Field,
    theme::{Palette, Theme},
    view::selection::{ConversationSelection, TextPlace},
};
use bevy::{
    input::{ButtonState, keyboard::Key},
    prelude::*,
    text::ComputedTextBlock,
    ui::UiGlobalTransform,
    window::Ime,
};
use common::*;
use parley::{Affinity, Cursor};

fn drag(app: &mut App, from: Vec2, to: Vec2) {
    pointer(app, from, Some(ButtonState::Pressed));
    pointer(app, (from + to) / 2.0, None);
    pointer(app, to, None);
    pointer(app, to, Some(ButtonState::Released));
}

fn click(app: &mut App, at: Vec2, times: usize) {
    for _ in 0..times {
        pointer(app, at, Some(ButtonState::Pressed));
        pointer(app, at, Some(ButtonState::Released));
    }
}

/// Taps the letter key `letter` with Ctrl held, and runs the frame.
fn ctrl(app: &mut App, key_code: KeyCode, letter: &str) {
    tap_down(app, KeyCode::ControlLeft);
    tap(app, key_code, Key::Character(letter.into()));
    tap_up(app, KeyCode::ControlLeft);
    app.update();
}

fn selection(app: &App) -> ConversationSelection {
    app.world().resource::<ConversationSelection>().clone()
}

/// The highlighted text of each mounted row that has one, by its place in the log.
fn highlights(app: &mut App) -> Vec<(usize, String)> {
    let world = app.world_mut();
    let mut shown = Vec::new();
    for row in row_entities(world) {
        let place = world.get::<agent_chat::scroll::Item>(row).unwrap().0;
        if let Some(part) = highlighted(world, text_of_row(world, row)) {
            shown.push((place, part));
        }
    }
    shown.sort();
    shown
}

/// The field's text, caret and selected text.
fn field(app: &mut App) -> (String, usize, Option<String>) {
    let entity = input_entity(app);
    let line = app.world().get::<Field>(entity).unwrap().line();
    (
        line.text().to_owned(),
        line.caret(),
        line.selected_text().map(str::to_owned),
    )
}

/// A conversation of two exchanges: `안녕하세요 반가워요`, reply 0, `서울역 3번 출구에서 만나요`,
/// reply 1.
fn two_exchanges() -> App {
    let mut app = play_the_clipboard_in(laid_out_app());
    fix_pick(&mut app, &[0, 1]);
    submit(&mut app, "안녕하세요 반가워요");
    submit(&mut app, "서울역 3번 출구에서 만나요");
    app.update();
    app
}

const FIRST: &str = "안녕하세요 반가워요";
const SECOND: &str = "서울역 3번 출구에서 만나요";

fn at(body: &str, part: &str) -> usize {
    body.find(part).unwrap()
}

#[test]
fn a_drag_across_three_messages_highlights_what_it_passed_and_ctrl_c_copies_it_as_drawn() {
    let mut app = two_exchanges();
    let from = body_point(&mut app, 0, at(FIRST, "반가워요"));
    let to = body_point(&mut app, 2, at(SECOND, "출구"));
    drag(&mut app, from, to);
    assert_eq!(
        selection(&app).ends(),
        (
            TextPlace::new(0, at(FIRST, "반가워요")),
            TextPlace::new(2, at(SECOND, "출구"))
        )
    );
    assert_eq!(
        highlights(&mut app),
        [
            (0, "반가워요".to_owned()),
            (1, format!("에이전트: {}", REPLIES[0])),
            (2, "사용자: 서울역 3번 ".to_owned()),
        ],
        "exactly what the drag passed over, labels of the messages it crossed included"
    );
    assert_rows_show_their_messages(&mut app, "while selected");

    // Focus is in the field, which has nothing selected: Ctrl+C copies the conversation's.
    ctrl(&mut app, KeyCode::KeyC, "c");
    assert_eq!(
        copied(&mut app),
        [format!(
            "반가워요\n에이전트: {}\n사용자: 서울역 3번 ",
            REPLIES[0]
        )]
    );

    // Backwards, inside one message: exactly the text passed over.
    let from = body_point(&mut app, 2, at(SECOND, "에서"));
    let to = body_point(&mut app, 2, at(SECOND, "3번"));
    drag(&mut app, from, to);
    assert_eq!(highlights(&mut app), [(2, "3번 출구".to_owned())]);
    tap_down(&mut app, KeyCode::ControlLeft);
    tap(&mut app, KeyCode::Insert, Key::Insert);
    tap_up(&mut app, KeyCode::ControlLeft);
    app.update();
    assert_eq!(copied(&mut app), ["3번 출구"], "Ctrl+Insert copies too");
}

#[test]
fn a_double_click_takes_a_word_a_triple_click_the_body_and_shift_click_extends() {
    let mut app = two_exchanges();
    let word = body_point(&mut app, 2, at(SECOND, "출구에서") + "출".len());
    click(&mut app, word, 2);
    assert_eq!(
        highlights(&mut app),
        [(2, "출구에서".to_owned())],
        "a Korean word with its particle is one word"
    );

    // Dragging with the double-click's second press held extends by words.
    std::thread::sleep(std::time::Duration::from_millis(450));
    pointer(&mut app, word, Some(ButtonState::Pressed));
    pointer(&mut app, word, Some(ButtonState::Released));
    pointer(&mut app, word, Some(ButtonState::Pressed));
    let on = body_point(&mut app, 2, at(SECOND, "만나요") + "만".len());
    pointer(&mut app, on, None);
    pointer(&mut app, on, Some(ButtonState::Released));
    assert_eq!(highlights(&mut app), [(2, "출구에서 만나요".to_owned())]);

    // Pointer rest, then three presses: the whole body, not its neighbours nor its label.
    std::thread::sleep(std::time::Duration::from_millis(450));
    click(&mut app, word, 3);
    assert_eq!(highlights(&mut app), [(2, SECOND.to_owned())]);

    // A click, then Shift+click in another message: from the click to there.
    std::thread::sleep(std::time::Duration::from_millis(450));
    let start = body_point(&mut app, 0, at(FIRST, "반가워요"));
    click(&mut app, start, 1);
    assert!(selection(&app).is_empty(), "a click selects nothing");
    assert_eq!(highlights(&mut app), []);
    let end = body_point(&mut app, 2, at(SECOND, "3번"));
    tap_down(&mut app, KeyCode::ShiftLeft);
    click(&mut app, end, 1);
    tap_up(&mut app, KeyCode::ShiftLeft);
    app.update();
    assert_eq!(
        highlights(&mut app),
        [
            (0, "반가워요".to_owned()),
            (1, format!("에이전트: {}", REPLIES[0])),
            (2, "사용자: 서울역 ".to_owned()),
        ]
    );
}

#[test]
fn ctrl_a_in_the_conversation_selects_it_all_and_a_click_in_the_field_lets_go() {
    let mut app = two_exchanges();
    tap(&mut app, KeyCode::Tab, Key::Tab);
    app.update();
    ctrl(&mut app, KeyCode::KeyA, "a");
    let all = format!(
        "사용자: {FIRST}\n에이전트: {}\n사용자: {SECOND}\n에이전트: {}",
        REPLIES[0], REPLIES[1]
    );
    ctrl(&mut app, KeyCode::KeyC, "c");
    assert_eq!(copied(&mut app), [all], "every message, a line each");
    assert_eq!(highlights(&mut app).len(), 4);

    let input = input_entity(&mut app);
    let in_field = rect(&mut app, input).center();
    click(&mut app, in_field, 1);
    assert!(selection(&app).is_empty());
    assert_eq!(highlights(&mut app), [], "a click elsewhere lets go");
    assert_rows_show_their_messages(&mut app, "after the selection went");

    // In the field, Ctrl+A is still the field's own.
    key_in(&mut app, "abc");
    ctrl(&mut app, KeyCode::KeyA, "a");
    assert_eq!(field(&mut app).2.as_deref(), Some("abc"));
    assert!(selection(&app).is_empty());
}

#[test]
fn one_selection_per_window_the_last_made_is_the_one_ctrl_c_copies() {
    let mut app = two_exchanges();
    key_in(&mut app, "abc");
    ctrl(&mut app, KeyCode::KeyA, "a");
    let from = body_point(&mut app, 0, 0);
    let to = body_point(&mut app, 0, at(FIRST, " "));
    drag(&mut app, from, to);
    assert_eq!(
        field(&mut app),
        ("abc".to_owned(), 3, None),
        "the field lets go of its selection, its caret where it was"
    );
    ctrl(&mut app, KeyCode::KeyC, "c");
    assert_eq!(copied(&mut app), ["안녕하세요"]);

    // Selecting in the field lets go of the conversation's.
    tap_down(&mut app, KeyCode::ShiftLeft);
    tap(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft);
    tap_up(&mut app, KeyCode::ShiftLeft);
    app.update();
    assert!(selection(&app).is_empty());
    assert_eq!(highlights(&mut app), []);
    ctrl(&mut app, KeyCode::KeyC, "c");
    assert_eq!(copied(&mut app), ["c"]);
}

#[test]
fn a_press_in_the_conversation_leaves_the_fields_composition_and_caret_alone() {
    let mut app = two_exchanges();
    key_in(&mut app, "ab");
    deliver(
        &mut app,
        Ime::Preedit {
            window: Entity::PLACEHOLDER,
            value: "한".to_owned(),
            cursor: Some((3, 3)),
        },
    );
    app.update();
    let before = field(&mut app);
    let composing = |app: &mut App| {
        let entity = input_entity(app);
        let line = app.world().get::<Field>(entity).unwrap().line();
        (line.is_composing(), line.shown().into_owned())
    };
    assert_eq!(composing(&mut app), (true, "ab한".to_owned()));
    let from = body_point(&mut app, 2, 0);
    let to = body_point(&mut app, 2, at(SECOND, " "));
    drag(&mut app, from, to);
    assert_eq!(highlights(&mut app), [(2, "서울역".to_owned())]);
    assert_eq!(field(&mut app), before);
    assert_eq!(composing(&mut app), (true, "ab한".to_owned()));
}

#[test]
fn a_right_to_left_row_is_selected_as_drawn_and_copied_as_logged() {
    let mut app = play_the_clipboard_in(laid_out_app());
    fix_pick(&mut app, &[0]);
    write_submit_message(&mut app, "שלום עולם");
    app.update();
    // The row runs right to left, from an RLM (3 bytes) and its label: press just left of
    // where `עולם` starts, and drag out past the bubble's left edge, where the line ends.
    let rlm_and_label = 3 + "사용자: ".len();
    let start = point(&mut app, 0, rlm_and_label + "שלום ".len(), -1.0);
    let row = row_at(&mut app, 0);
    let row = rect(&mut app, row);
    drag(&mut app, start, Vec2::new(row.min.x + 2.0, start.y));
    ctrl(&mut app, KeyCode::KeyC, "c");
    assert_eq!(
        copied(&mut app),
        ["עולם"],
        "what the layout adds is not copied"
    );
    assert_eq!(highlights(&mut app), [(0, "עולם".to_owned())]);
}

#[test]
fn a_press_on_the_copy_button_copies_the_body_and_starts_no_selection() {
    let mut app = two_exchanges();
    let row = row_at(&mut app, 2);
    let centre = rect(&mut app, row).center();
    pointer(&mut app, centre, None);
    let button = the::<agent_chat::view::copy::CopyButton>(&mut app);
    let on = rect(&mut app, button).center();
    pointer(&mut app, on, None);
    pointer(&mut app, on, Some(ButtonState::Pressed));
    pointer(&mut app, centre, None);
    pointer(&mut app, centre, Some(ButtonState::Released));
    assert!(selection(&app).is_empty());
    assert_eq!(copied(&mut app), [SECOND]);
}

#[test]
fn the_highlight_stays_on_its_message_through_recycling_at_100_000_messages() {
    let mut app = play_the_clipboard_in(laid_out_app());
    fill_log(&mut app, 100_000);
    finish_mounting(&mut app);
    let newest = 99_999;
    let body = {
        let message = app.world().resource::<MessageLog>().entities()[newest];
        let body = app.world().get::<agent_chat::chat::ChatMessage>(message);
        body.unwrap().body().to_owned()
    };
    let from = body_point(&mut app, newest, 0);
    let to = body_point(&mut app, newest, body.len());
    drag(&mut app, from, to);
    assert_eq!(highlights(&mut app), [(newest, body.clone())]);

    let page = list(&mut app).page();
    list_mut(&mut app).scroll_by(-10.0 * page);
    finish_mounting(&mut app);
    assert_eq!(
        highlights(&mut app),
        [],
        "ten screens away, no row shows it"
    );
    assert_rows_show_their_messages(&mut app, "ten screens away");

    list_mut(&mut app).follow_end();
    finish_mounting(&mut app);
    assert_eq!(
        highlights(&mut app),
        [(newest, body.clone())],
        "back, on its message and no other"
    );
    // A new message arrives: the selection stays where it is.
    submit(&mut app, "새 메시지");
    finish_mounting(&mut app);
    assert_eq!(highlights(&mut app), [(newest, body)]);
    assert_rows_show_their_messages(&mut app, "after a new message");
}

#[test]
fn a_drag_held_past_the_top_edge_scrolls_and_the_selection_grows() {
    let mut app = play_the_clipboard_in(laid_out_app());
    fill_log(&mut app, 200);
    finish_mounting(&mut app);
    let from = body_point(&mut app, 199, 0);
    pointer(&mut app, from, Some(ButtonState::Pressed));
    let conversation = the::<agent_chat::view::Conversation>(&mut app);
    let top = rect(&mut app, conversation).min.y;
    let before = offset(&mut app);
    pointer(&mut app, Vec2::new(from.x, top - 80.0), None);
    let first_selected = |app: &App| selection(app).ends().0.message;
    let mut reached = first_selected(&app);
    for _ in 0..30 {
        std::thread::sleep(std::time::Duration::from_millis(10));
        app.update();
        reached = reached.min(first_selected(&app));
    }
    pointer(
        &mut app,
        Vec2::new(from.x, top - 80.0),
        Some(ButtonState::Released),
    );
    assert!(
        offset(&mut app) < before - 100.0,
        "the view went up: {before} to {}",
        offset(&mut app)
    );
    assert!(reached < 190, "the selection grew upwards to {reached}");
    assert_eq!(selection(&app).ends().1, TextPlace::new(199, 0));
    let rows_ok = highlights(&mut app)
        .into_iter()
        .all(|(place, _)| place >= first_selected(&app) && place < 199);
    assert!(rows_ok, "only the selected messages are highlighted");
}

#[test]
fn a_selection_is_offered_as_primary_and_a_middle_click_in_the_field_pastes_primary_there() {
    let mut app = two_exchanges();
    let from = body_point(&mut app, 2, at(SECOND, "3번"));
    let to = body_point(&mut app, 2, at(SECOND, "에서"));
    drag(&mut app, from, to);
    assert_eq!(
        offered_as_primary(&mut app),
        ["3번 출구"],
        "once, when the drag ends"
    );

    // The field's selection is offered too.
    key_in(&mut app, "ab");
    tap_down(&mut app, KeyCode::ShiftLeft);
    tap(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft);
    tap_up(&mut app, KeyCode::ShiftLeft);
    app.update();
    assert_eq!(offered_as_primary(&mut app), ["b"]);

    // A middle click between `a` and `b` asks for PRIMARY, and pastes its answer there.
    let line = widget_line(&mut app);
    let (node, transform) = (
        app.world().get::<ComputedNode>(line).unwrap(),
        app.world().get::<UiGlobalTransform>(line).unwrap(),
    );
    let layout = app.world().get::<ComputedTextBlock>(line).unwrap().buffer();
    let caret = Cursor::from_byte_index(layout, 1, Affinity::Downstream).geometry(layout, 1.0);
    let top_left = transform.transform_point2(-node.size() / 2.0);
    let between = (top_left + Vec2::new(caret.x0 as f32 + 1.0, node.size().y / 2.0))
        * node.inverse_scale_factor();
    let window = the::<bevy::window::PrimaryWindow>(&mut app);
    deliver(
        &mut app,
        bevy::window::CursorMoved {
            window,
            position: between,
            delta: None,
        },
    );
    deliver(
        &mut app,
        bevy::input::mouse::MouseButtonInput {
            button: MouseButton::Middle,
            state: ButtonState::Pressed,
            window,
        },
    );
    app.update();
    app.update();
    assert!(asked_for_primary(&mut app));
    app.world_mut()
        .write_message(agent_chat::input::clipboard::ClipboardText(Some(
            "3번".into(),
        )));
    app.update();
    assert_eq!(field(&mut app).0, "a3번b");
}

#[test]
fn the_selection_is_redrawn_in_the_new_theme_and_stays_on_its_text_through_a_resize() {
    let mut app = two_exchanges();
    let from = body_point(&mut app, 2, at(SECOND, "3번"));
    let to = body_point(&mut app, 2, at(SECOND, "에서"));
    drag(&mut app, from, to);
    let fill = |app: &mut App| {
        let row = row_at(app, 2);
        let world = app.world();
        let marked = marked_spans(world, text_of_row(world, row));
        marked.into_iter().next().map(|(_, fill)| fill)
    };
    assert_eq!(fill(&mut app), Some(Palette::DARK.selection));
    *app.world_mut().resource_mut::<Theme>() = Theme::Light;
    app.update();
    assert_eq!(
        fill(&mut app),
        Some(Palette::LIGHT.selection),
        "the theme switched"
    );

    let world = app.world_mut();
    world
        .query_filtered::<&mut Window, With<bevy::window::PrimaryWindow>>()
        .single_mut(world)
        .unwrap()
        .resolution
        .set(420.0, 600.0);
    finish_mounting(&mut app);
    app.update();
    assert_eq!(
        highlights(&mut app),
        [(2, "3번 출구".to_owned())],
        "a narrower window wraps the rows, and the selection is the same text"
    );
}

#[test]
fn in_a_mixed_direction_row_a_word_is_taken_where_it_is_drawn() {
    let mut app = play_the_clipboard_in(laid_out_app());
    fix_pick(&mut app, &[0]);
    let body = "hello שלום world";
    write_submit_message(&mut app, body);
    app.update();
    // `שלום` runs right to left inside the left-to-right line: its first letter is drawn at
    // its right end. Double-click just left of where the text puts that letter's start.
    let label = "사용자: ".len();
    let hebrew = point(&mut app, 0, label + body.find('ש').unwrap(), -2.0);
    click(&mut app, hebrew, 2);
    assert_eq!(highlights(&mut app), [(0, "שלום".to_owned())]);
    ctrl(&mut app, KeyCode::KeyC, "c");
    assert_eq!(copied(&mut app), ["שלום"]);
    std::thread::sleep(std::time::Duration::from_millis(450));
    let world = body_point(&mut app, 0, body.find("world").unwrap() + 1);
    click(&mut app, world, 2);
    assert_eq!(highlights(&mut app), [(0, "world".to_owned())]);
}
