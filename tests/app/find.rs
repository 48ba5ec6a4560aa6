//! Finding text in the conversation: the find bar through the app's real systems, over real
//! UI and text layout, from a few messages to 100,000.

use crate::common;

use agent_chat::{
    chat::MessageLog,
    input::{ChatInput, Field},
    scroll::Item,
    theme::Palette,
    view::find::FindField,
    view::{
        Conversation,
        find::{FindBar, FindCount, Finder, NO_MATCHES},
        selection::{ConversationSelection, TextPlace},
    },
};
use bevy::{
    input::{ButtonState, keyboard::Key},
    input_focus::InputFocus,
    prelude::*,
    window::Ime,
};
use common::*;

/// Taps `key_code` (naming `logical`) with Ctrl held, and runs the frame.
fn ctrl(app: &mut App, key_code: KeyCode, logical: Key) {
    tap_down(app, KeyCode::ControlLeft);
    tap(app, key_code, logical);
    tap_up(app, KeyCode::ControlLeft);
    app.update();
}

fn ctrl_f(app: &mut App) {
    ctrl(app, KeyCode::KeyF, Key::Character("f".into()));
}

/// Taps `key_code` (naming `logical`), with Shift held if `shift`, and runs the frame.
fn key(app: &mut App, key_code: KeyCode, logical: Key, shift: bool) {
    if shift {
        tap_down(app, KeyCode::ShiftLeft);
    }
    tap(app, key_code, logical);
    if shift {
        tap_up(app, KeyCode::ShiftLeft);
    }
    app.update();
}

/// Runs frames until the search has been through the whole log.
fn search_through(app: &mut App) {
    for _ in 0..50 {
        let len = app.world().resource::<MessageLog>().len();
        if app.world().resource::<Finder>().is_complete(len) {
            app.update();
            return;
        }
        app.update();
    }
    panic!("the search never got through the log");
}

fn count_text(app: &mut App) -> String {
    let count = the::<FindCount>(app);
    app.world().get::<Text>(count).unwrap().0.clone()
}

/// Whether the find bar is there (it is made as it opens, and goes as it closes).
fn bar_shows(app: &mut App) -> bool {
    let world = app.world_mut();
    world
        .query_filtered::<&Node, With<FindBar>>()
        .iter(world)
        .any(|node| node.display != Display::None)
}

fn focus(app: &App) -> Option<Entity> {
    app.world().resource::<InputFocus>().get()
}

fn query(app: &mut App) -> (String, Option<String>) {
    let field = the::<FindField>(app);
    let line = app.world().get::<Field>(field).unwrap().line();
    (
        line.text().to_owned(),
        line.selected_text().map(str::to_owned),
    )
}

/// The mounted rows' marked stretches, by place: the text and its fill.
fn marks(app: &mut App) -> Vec<(usize, String, Color)> {
    let world = app.world_mut();
    let mut marked = Vec::new();
    for row in row_entities(world) {
        let place = world.get::<Item>(row).unwrap().0;
        let text = text_of_row(world, row);
        for (shown, fill) in marked_spans(world, text) {
            marked.push((place, shown, fill));
        }
    }
    marked.sort_by_key(|(place, ..)| *place);
    marked
}

fn current_match(app: &App) -> Option<(usize, usize)> {
    app.world().resource::<Finder>().current()
}

#[test]
fn ctrl_f_opens_the_bar_over_the_conversation_without_moving_a_row() {
    let mut app = laid_out_app();
    fill_log(&mut app, 40);
    finish_mounting(&mut app);
    let before: Vec<Rect> = row_entities(app.world_mut())
        .into_iter()
        .map(|row| rect(&mut app, row))
        .collect();
    ctrl_f(&mut app);
    app.update();
    assert!(bar_shows(&mut app));
    let field = the::<FindField>(&mut app);
    assert_eq!(focus(&app), Some(field), "keyboard focus is in the bar");
    let after: Vec<Rect> = row_entities(app.world_mut())
        .into_iter()
        .map(|row| rect(&mut app, row))
        .collect();
    assert_eq!(before, after, "no row moved");
    let conversation = the::<Conversation>(&mut app);
    let (bar, area) = (the::<FindBar>(&mut app), rect(&mut app, conversation));
    let bar = rect(&mut app, bar);
    assert!(
        area.contains(bar.min) && area.contains(bar.max),
        "over the conversation"
    );
}

#[test]
fn a_query_is_counted_over_100_000_messages_and_f3_and_enter_walk_the_matches_wrapping() {
    let mut app = laid_out_app();
    fill_log(&mut app, 100_000);
    finish_mounting(&mut app);
    ctrl_f(&mut app);
    key_in(&mut app, "메시지 4999");
    app.update();
    search_through(&mut app);
    // `보낸 메시지 4999` and `보낸 메시지 49990` to `49999`, the user's lines 4999 and so on.
    assert_eq!(app.world().resource::<Finder>().count(), 11);
    // The view is at the end, where the last few matches are: the first of those in view is
    // current.
    let place_of = |n: usize| 2 * (n - 1);
    let (place, _) = current_match(&app).expect("a current match");
    let n = place / 2 + 1;
    assert!((49990..=49999).contains(&n), "a match in view: {n}");
    assert_eq!(count_text(&mut app), format!("{}/11", n - 49990 + 2));
    finish_mounting(&mut app);
    let current = Palette::DARK.find_current;
    assert!(
        marks(&mut app).contains(&(place, "메시지 4999".to_owned(), current)),
        "the current match is drawn as current: {:?}",
        marks(&mut app)
    );

    // On to the last, and from there, wrapping, to the first.
    for _ in n..49999 {
        key(&mut app, KeyCode::F3, Key::F3, false);
    }
    assert_eq!(count_text(&mut app), "11/11");
    key(&mut app, KeyCode::F3, Key::F3, false);
    finish_mounting(&mut app);
    assert_eq!(count_text(&mut app), "1/11", "F3 wraps to the first");
    assert_eq!(current_match(&app), Some((place_of(4999), 0)));
    let shown = marks(&mut app);
    assert!(
        shown.contains(&(place_of(4999), "메시지 4999".to_owned(), current)),
        "its row is mounted and shows it as current: {shown:?}"
    );
    assert!(
        shown
            .iter()
            .all(|(place, _, fill)| *place == place_of(4999) || *fill != current),
        "one current match"
    );
    // In view, and not under the bar (nor under the field, which is below the conversation).
    let row = row_entities(app.world_mut())
        .into_iter()
        .find(|&row| app.world().get::<Item>(row).unwrap().0 == place_of(4999))
        .unwrap();
    let (row, bar) = (rect(&mut app, row), the::<FindBar>(&mut app));
    let (bar, conversation) = (rect(&mut app, bar), the::<Conversation>(&mut app));
    let area = rect(&mut app, conversation);
    assert!(
        row.min.y >= bar.max.y && row.max.y <= area.max.y,
        "the match's row {row:?} is below the bar {bar:?} and in {area:?}"
    );

    key(&mut app, KeyCode::Enter, Key::Enter, true);
    assert_eq!(count_text(&mut app), "11/11", "Shift+Enter wraps back");
    key(&mut app, KeyCode::F3, Key::F3, true);
    assert_eq!(count_text(&mut app), "10/11", "Shift+F3 goes back one");
    key(&mut app, KeyCode::Enter, Key::Enter, false);
    assert_eq!(count_text(&mut app), "11/11", "Enter goes on");
    assert_eq!(
        app.world().resource::<MessageLog>().len(),
        100_000,
        "Enter in the bar sends nothing"
    );

    // A new message while the bar is open: the count follows, the current match stays.
    let field = the::<ChatInput>(&mut app);
    app.world_mut()
        .resource_mut::<InputFocus>()
        .set(field, bevy::input_focus::FocusCause::Navigated);
    submit(&mut app, "메시지 4999 또");
    search_through(&mut app);
    assert_eq!(count_text(&mut app), "11/12");
    assert_eq!(current_match(&app), Some((place_of(49999), 0)));
}

#[test]
fn nothing_found_says_so_and_odd_queries_are_taken_literally() {
    let mut app = laid_out_app();
    submit(&mut app, "a.*[b 👨‍👩‍👧 e\u{301}");
    app.update();
    ctrl_f(&mut app);
    key_in(&mut app, "없는 말");
    app.update();
    search_through(&mut app);
    assert_eq!(count_text(&mut app), NO_MATCHES);
    let field = the::<FindField>(&mut app);
    for (odd, count) in [
        (".*[", 1),
        ("👨", 1),
        ("\u{301}", 0),
        (" ", 2),
        ("가".repeat(2000).as_str(), 0),
    ] {
        app.world_mut()
            .get_mut::<Field>(field)
            .unwrap()
            .set_text_selected(odd);
        app.update();
        search_through(&mut app);
        assert_eq!(found_in(&app, 0), count, "{odd:.20?}");
    }
}

/// How many matches the message at `place` has.
fn found_in(app: &App, place: usize) -> usize {
    let message = app.world().resource::<MessageLog>().entities()[place];
    let body = app.world().get::<agent_chat::chat::ChatMessage>(message);
    let finder = app.world().resource::<Finder>();
    finder.matches_in(place, body.unwrap().body()).0.len()
}

#[test]
fn hangul_in_nfd_and_other_case_are_found_and_a_composing_syllable_finds_what_it_may_become() {
    let mut app = laid_out_app();
    // 한국 학교, written as conjoining jamo (NFD), as macOS writes it.
    write_submit_message(
        &mut app,
        "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8} \u{1112}\u{1161}\u{11A8}\u{1100}\u{116D}",
    );
    submit(&mut app, "Seoul STATION");
    app.update();
    ctrl_f(&mut app);
    key_in(&mut app, "한국");
    app.update();
    search_through(&mut app);
    assert_eq!(found_in(&app, 0), 1, "NFC finds NFD");

    let field = the::<FindField>(&mut app);
    app.world_mut()
        .get_mut::<Field>(field)
        .unwrap()
        .set_text_selected("station");
    app.update();
    search_through(&mut app);
    assert_eq!(found_in(&app, 2), 1, "case does not matter");

    // Typing 하 through the input method: the syllable being composed.
    app.world_mut()
        .get_mut::<Field>(field)
        .unwrap()
        .set_text_selected("");
    deliver(
        &mut app,
        Ime::Preedit {
            window: Entity::PLACEHOLDER,
            value: "하".to_owned(),
            cursor: Some((3, 3)),
        },
    );
    app.update();
    search_through(&mut app);
    assert_eq!(
        found_in(&app, 0),
        2,
        "하 finds 한 and 학 while it is composed"
    );
    assert_eq!(found_in(&app, 2), 0);
}

/// Presses Escape and runs a frame; the exits it asked for.
fn escape(app: &mut App) -> Vec<AppExit> {
    key(app, KeyCode::Escape, Key::Escape, false);
    let exits = app.world().resource::<Messages<AppExit>>();
    exits.iter_current_update_messages().cloned().collect()
}

/// A message with `찾을` in it, and the bar open on that query, searched through; the app and
/// the chat's field.
fn a_bar_with_a_match() -> (App, Entity) {
    let mut app = laid_out_app();
    submit(&mut app, "찾을 말");
    app.update();
    let chat = the::<ChatInput>(&mut app);
    ctrl_f(&mut app);
    key_in(&mut app, "찾을");
    app.update();
    search_through(&mut app);
    (app, chat)
}

#[test]
fn escape_closes_the_bar_gives_focus_back_and_only_then_quits() {
    let (mut app, chat) = a_bar_with_a_match();
    assert!(!marks(&mut app).is_empty(), "the match is drawn");

    assert_eq!(escape(&mut app), [], "no quitting");
    assert!(!bar_shows(&mut app));
    assert_eq!(focus(&app), Some(chat), "focus is back in the field");
    assert_eq!(marks(&mut app), [], "the matches are no longer drawn");

    assert!(
        escape(&mut app).iter().any(AppExit::is_success),
        "with the bar closed, Escape quits"
    );
}

/// The case a person met in the real window: the bar open, a click back into the chat's field, a
/// draft typed there, then Escape. It closes the bar, as in every program, and keeps the draft and
/// the focus where they are; only the next Escape quits.
#[test]
fn escape_closes_an_open_bar_wherever_focus_is_and_keeps_the_draft() {
    let (mut app, chat) = a_bar_with_a_match();
    assert_eq!(count_text(&mut app), "1/1");

    let field = rect(&mut app, chat).center();
    mouse(&mut app, field, Some(ButtonState::Pressed));
    mouse(&mut app, field, Some(ButtonState::Released));
    assert_eq!(
        focus(&app),
        Some(chat),
        "the click put focus in the chat's field"
    );
    type_text(&mut app, "초안");
    assert!(bar_shows(&mut app), "the bar is still open");

    assert_eq!(
        escape(&mut app),
        [],
        "Escape closed the bar and did not quit"
    );
    app.update();
    assert!(!bar_shows(&mut app), "the bar is closed");
    assert_eq!(focus(&app), Some(chat), "focus stays in the chat's field");
    assert_eq!(input_value(&mut app), "초안", "the draft is kept");

    assert!(
        escape(&mut app).iter().any(AppExit::is_success),
        "with the bar closed, Escape quits"
    );
}

#[test]
fn the_bar_opens_on_a_short_selection_and_from_the_conversation_goes_back_there() {
    let mut app = laid_out_app();
    submit(&mut app, "서울역 3번 출구에서 만나요");
    app.update();
    let at = "서울역 ".len();
    app.world_mut().insert_resource(ConversationSelection::new(
        TextPlace::new(0, at),
        TextPlace::new(0, at + "3번 출구".len()),
    ));
    // Into the conversation, and Ctrl+F there.
    tap(&mut app, KeyCode::Tab, Key::Tab);
    app.update();
    let list = the::<Conversation>(&mut app);
    let in_conversation = |app: &App| {
        let focused = focus(app).unwrap();
        focused == list || app.world().get::<Item>(focused).is_some()
    };
    assert!(in_conversation(&app));
    ctrl_f(&mut app);
    assert_eq!(
        query(&mut app),
        ("3번 출구".to_owned(), Some("3번 출구".to_owned())),
        "the selection, selected"
    );
    key(&mut app, KeyCode::Escape, Key::Escape, false);
    app.update();
    assert!(in_conversation(&app), "focus went back to the conversation");
}
