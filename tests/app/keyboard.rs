//! Every message reachable from the keyboard: focus goes into the conversation and back, walks
//! every message of a long log with the focused one always shown whole, copies, and is what a
//! screen reader is told has focus. (The real window and AT-SPI client are in
//! `tests/window.rs`: `the_keyboard_walks_every_message_and_a_screen_reader_hears_each_step`.)

use crate::common;

use accesskit::{Action, ActionRequest as Request, Live, NodeId, Role as AccessRole, TreeId};
use agent_chat::{
    chat::{MessageLog, REPLIES},
    input::Field,
    view::{
        MAX_SHOWN_CHARS,
        copy::{COPIED_NOTICE, CopiedNotice},
        focus::MessageFocus,
        menu::{ContextMenu, MenuOwner, MenuPanel},
        speech::Topic,
    },
};
use bevy::{
    a11y::{AccessibilityNode, ActionRequest},
    input::keyboard::Key,
    input_focus::InputFocus,
    prelude::*,
    window::{PrimaryWindow, WindowResolution},
};
use common::*;

/// Taps `key` with `modifiers` held, within one frame, and runs it.
fn chord(app: &mut App, modifiers: &[KeyCode], key: KeyCode) {
    for &modifier in modifiers {
        tap_down(app, modifier);
    }
    let logical = match key {
        KeyCode::Tab => Key::Tab,
        KeyCode::F6 => Key::F6,
        KeyCode::F10 => Key::F10,
        KeyCode::ArrowUp => Key::ArrowUp,
        KeyCode::ArrowDown => Key::ArrowDown,
        KeyCode::PageUp => Key::PageUp,
        KeyCode::PageDown => Key::PageDown,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::Enter => Key::Enter,
        KeyCode::Escape => Key::Escape,
        KeyCode::ContextMenu => Key::ContextMenu,
        KeyCode::KeyC => Key::Character("c".into()),
        _ => panic!("no logical key for {key:?} here"),
    };
    tap(app, key, logical);
    for &modifier in modifiers {
        tap_up(app, modifier);
    }
    app.update();
}

fn key(app: &mut App, key: KeyCode) {
    chord(app, &[], key);
}

const SHIFT: &[KeyCode] = &[KeyCode::ShiftLeft];
const CTRL: &[KeyCode] = &[KeyCode::ControlLeft];

fn focused_place(app: &App) -> Option<usize> {
    app.world().resource::<MessageFocus>().place()
}

fn input_focus(app: &App) -> Option<Entity> {
    app.world().resource::<InputFocus>().get()
}

/// The row that has input focus: it shows message `place`, a screen reader hears it as the
/// list item at `place` with the message's text, and its bubble has the focus ring.
fn assert_focus_on(app: &mut App, place: usize, when: &str) -> Entity {
    assert_eq!(focused_place(app), Some(place), "{when}: the focused place");
    let row = input_focus(app).expect("something has input focus");
    let world = app.world_mut();
    let item = world
        .get::<agent_chat::scroll::Item>(row)
        .unwrap_or_else(|| panic!("{when}: input focus is on a row"));
    assert_eq!(item.0, place, "{when}: the focused row is item {place}");
    let message = world.resource::<MessageLog>().entities()[place];
    assert_eq!(
        world
            .get::<agent_chat::view::MessageRow>(row)
            .unwrap()
            .message,
        message,
        "{when}: the focused row shows message {place}"
    );
    let node = world.get::<AccessibilityNode>(row).unwrap();
    assert_eq!(node.role(), AccessRole::ListItem, "{when}");
    assert_eq!(node.position_in_set(), Some(place), "{when}");
    let shown = world
        .get::<Text>(text_of_row(world, row))
        .unwrap()
        .0
        .clone();
    assert_eq!(
        node.label(),
        Some(&shown[..]),
        "{when}: it is heard as shown"
    );
    let bubble = world.get::<Children>(row).unwrap()[0];
    assert_eq!(
        rings(world),
        [bubble],
        "{when}: the focused bubble, and it alone, has a visible focus ring"
    );
    row
}

/// The bubbles whose focus ring shows.
fn rings(world: &mut World) -> Vec<Entity> {
    world
        .query::<(Entity, &Outline)>()
        .iter(world)
        .filter(|(_, outline)| outline.color.alpha() > 0.0)
        .map(|(entity, _)| entity)
        .collect()
}

/// Asserts that row `row` is wholly inside the conversation's area, ring included.
fn assert_in_view(app: &mut App, row: Entity, when: &str) {
    let conversation = the::<agent_chat::view::Conversation>(app);
    let area = rect(app, conversation);
    let bubble = app.world().get::<Children>(row).unwrap()[0];
    let shown = rect(app, bubble);
    assert!(
        shown.min.y >= area.min.y - 0.5 && shown.max.y <= area.max.y + 0.5,
        "{when}: the focused bubble {shown:?} is in the area {area:?}"
    );
}

#[test]
fn shift_tab_focuses_the_newest_message_tab_returns_and_f6_comes_back_to_the_same() {
    let mut app = headless_app();
    write_submit_messages(&mut app, &["하나", "둘", "셋"]);
    let field = input_entity(&mut app);

    chord(&mut app, SHIFT, KeyCode::Tab);
    assert_focus_on(&mut app, 5, "Shift+Tab");
    chord(&mut app, CTRL, KeyCode::Home);
    assert_focus_on(&mut app, 0, "Ctrl+Home");

    key(&mut app, KeyCode::Tab);
    assert_eq!(input_focus(&app), Some(field), "Tab goes back to the field");
    assert!(
        rings(app.world_mut()).is_empty(),
        "no ring once focus is in the field"
    );

    key(&mut app, KeyCode::F6);
    assert_focus_on(&mut app, 0, "F6 comes back to the message focused last");
    key(&mut app, KeyCode::F6);
    assert_eq!(input_focus(&app), Some(field), "F6 goes back to the field");
}

#[test]
fn with_nothing_logged_focus_stays_in_the_field() {
    let mut app = headless_app();
    let field = input_entity(&mut app);
    chord(&mut app, SHIFT, KeyCode::Tab);
    assert_eq!(input_focus(&app), Some(field));
    type_text(&mut app, "a");
    assert_eq!(input_value(&mut app), "a", "and typing goes on");
}

#[test]
fn a_character_typed_in_the_conversation_lands_in_the_field_with_the_draft_as_it_was() {
    let mut app = headless_app();
    for line in ["하나", "둘"] {
        type_text(&mut app, line);
        press_enter(&mut app);
    }
    type_text(&mut app, "초안");
    tap(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft);
    app.update();
    let field = input_entity(&mut app);

    chord(&mut app, SHIFT, KeyCode::Tab);
    key(&mut app, KeyCode::ArrowUp);
    assert_focus_on(
        &mut app,
        2,
        "Up walks the conversation, not the field's history",
    );
    assert_eq!(input_value(&mut app), "초안", "the draft waits");

    // The letter and what follows it in the same frame are the field's.
    key_in(&mut app, "x");
    tap(&mut app, KeyCode::ArrowDown, Key::ArrowDown);
    app.update();
    assert_eq!(
        input_focus(&app),
        Some(field),
        "typing goes back to the field"
    );
    let line = app.world().get::<Field>(field).unwrap().line();
    assert_eq!(
        (line.text(), line.caret()),
        ("초x안", "초x안".len()),
        "the character lands at the caret the draft had, and Down, the field's key now, takes \
         the caret to the end of its last line"
    );
    assert_eq!(
        focused_place(&app),
        Some(2),
        "Down after it was the field's"
    );

    // Up in the field walks its history, as before.
    key(&mut app, KeyCode::ArrowUp);
    assert_eq!(input_value(&mut app), "둘");
}

#[test]
fn escape_quits_with_focus_in_the_conversation() {
    let mut app = headless_app();
    write_submit_messages(&mut app, &["하나"]);
    chord(&mut app, SHIFT, KeyCode::Tab);
    assert_focus_on(&mut app, 1, "Shift+Tab");
    tap(&mut app, KeyCode::Escape, Key::Escape);
    app.update();
    let exits = app.world().resource::<Messages<AppExit>>();
    assert!(
        exits
            .iter_current_update_messages()
            .any(AppExit::is_success),
        "Escape asks to quit"
    );
}

#[test]
fn every_key_reaches_every_message_of_100_000_with_the_focused_row_whole_in_view() {
    let mut app = laid_out_app();
    fill_log(&mut app, 100_000);
    finish_mounting(&mut app);
    let last = 100_000 - 1;

    key(&mut app, KeyCode::F6);
    let row = assert_focus_on(&mut app, last, "F6");
    assert_in_view(&mut app, row, "F6");

    let steps: &[(&[KeyCode], KeyCode, &str)] = &[
        (CTRL, KeyCode::Home, "Ctrl+Home"),
        (&[], KeyCode::ArrowDown, "Down"),
        (&[], KeyCode::PageDown, "PageDown"),
        (&[], KeyCode::PageDown, "PageDown again"),
        (&[], KeyCode::ArrowUp, "Up"),
        (&[], KeyCode::PageUp, "PageUp"),
        (CTRL, KeyCode::End, "Ctrl+End"),
        (&[], KeyCode::ArrowUp, "Up from the newest"),
        (&[], KeyCode::Home, "Home"),
        (&[], KeyCode::End, "End"),
    ];
    let mut at = last;
    for &(modifiers, key_code, when) in steps {
        let before = at;
        chord(&mut app, modifiers, key_code);
        at = focused_place(&app).unwrap();
        match when {
            "Ctrl+Home" | "Home" => assert_eq!(at, 0, "{when}"),
            "Ctrl+End" | "End" => assert_eq!(at, last, "{when}"),
            "Down" => assert_eq!(at, before + 1, "{when}"),
            "Up" | "Up from the newest" => assert_eq!(at, before - 1, "{when}"),
            "PageDown" | "PageDown again" => assert!(at > before + 3, "{when}: {before} to {at}"),
            "PageUp" => assert!(at + 3 < before, "{when}: {before} to {at}"),
            _ => unreachable!(),
        }
        let row = assert_focus_on(&mut app, at, when);
        assert_in_view(&mut app, row, when);
        assert_rows_show_their_messages(&mut app, when);
    }

    // Held Down: a frame per repeat, rows recycled as the view moves. The focused row is
    // there, and whole, in every frame.
    chord(&mut app, CTRL, KeyCode::Home);
    for n in 1..=300 {
        tap(&mut app, KeyCode::ArrowDown, Key::ArrowDown);
        app.update();
        let row = assert_focus_on(&mut app, n, "held Down");
        assert_in_view(&mut app, row, &format!("held Down, message {n}"));
    }
    assert_rows_show_their_messages(&mut app, "after held Down");
}

#[test]
fn focus_stays_on_its_message_through_a_resize() {
    let mut app = laid_out_app();
    fill_log(&mut app, 400);
    finish_mounting(&mut app);
    chord(&mut app, SHIFT, KeyCode::Tab);
    for _ in 0..5 {
        key(&mut app, KeyCode::ArrowUp);
    }
    assert_focus_on(&mut app, 394, "before");
    for (width, height) in [(400, 300), (1600, 900)] {
        let window = the::<PrimaryWindow>(&mut app);
        app.world_mut()
            .get_mut::<Window>(window)
            .unwrap()
            .resolution = WindowResolution::new(width, height);
        app.update();
        app.update();
        assert_focus_on(&mut app, 394, &format!("at {width}x{height}"));
        key(&mut app, KeyCode::ArrowDown);
        let row = assert_focus_on(&mut app, 395, &format!("Down at {width}x{height}"));
        assert_in_view(&mut app, row, &format!("at {width}x{height}"));
        key(&mut app, KeyCode::ArrowUp);
    }
}

/// Where the keys left things once the view has settled: the focused message, the view's
/// offset, whether the field has focus, and what it holds.
fn settled(app: &mut App) -> (Option<usize>, i64, bool, String) {
    finish_mounting(app);
    let field = input_entity(app);
    (
        focused_place(app),
        list_mut(app).offset().round() as i64,
        input_focus(app) == Some(field),
        input_value(app),
    )
}

#[test]
fn keys_in_one_frame_go_where_focus_was_when_each_was_pressed() {
    let reading_the_first_message = || {
        let mut app = laid_out_app();
        fill_log(&mut app, 200);
        finish_mounting(&mut app);
        key(&mut app, KeyCode::F6);
        chord(&mut app, CTRL, KeyCode::Home);
        assert_focus_on(&mut app, 0, "Ctrl+Home");
        app
    };

    // PageDown in the conversation, then a letter, typed faster than a frame.
    let mut fast = reading_the_first_message();
    tap(&mut fast, KeyCode::PageDown, Key::PageDown);
    key_in(&mut fast, "a");
    fast.update();
    // The same keys a frame apart.
    let mut slow = reading_the_first_message();
    key(&mut slow, KeyCode::PageDown);
    type_text(&mut slow, "a");

    let (fast, slow) = (settled(&mut fast), settled(&mut slow));
    assert_eq!(fast, slow, "one frame or two, the keys do the same");
    let (place, _, in_field, typed) = fast;
    assert!(
        place.is_some_and(|place| place > 0),
        "PageDown moved the focus a page: {place:?}"
    );
    assert!(
        in_field && typed == "a",
        "the letter took focus back and typed"
    );
}

#[test]
fn a_new_message_leaves_the_focus_and_the_view_where_they_were() {
    let mut app = laid_out_app();
    fill_log(&mut app, 200);
    finish_mounting(&mut app);
    key(&mut app, KeyCode::F6);
    chord(&mut app, CTRL, KeyCode::Home);
    let row = assert_focus_on(&mut app, 0, "Ctrl+Home");
    let before = rect(&mut app, row);

    // Sent while focus stays in the conversation (typing would take focus to the field first),
    // a while after the log's last reply was said.
    after_the_gap(&mut app);
    write_submit_message(&mut app, "새 메시지");
    app.update();
    let row = assert_focus_on(&mut app, 0, "after a new message");
    assert_eq!(rect(&mut app, row), before, "the focused row did not move");
    let list = the::<agent_chat::view::Conversation>(&mut app);
    let node = app.world().get::<AccessibilityNode>(list).unwrap();
    assert_eq!(node.size_of_set(), Some(202), "the list's count grew");
    let said = said_about(&mut app, Topic::Reply);
    let log = logged(&app);
    assert_eq!(
        said,
        [(
            Some(format!("에이전트: {}", log[201].1)),
            Some(Live::Polite)
        )],
        "the new reply, out of view, is still announced"
    );
}

/// A screen reader's request, as the window backend hands it to the app.
fn request(app: &mut App, action: Action, target: u64) {
    app.world_mut().write_message(ActionRequest(Request {
        action,
        target_tree: TreeId::ROOT,
        target_node: NodeId(target),
        data: None,
    }));
    app.update();
}

#[test]
fn a_readers_requests_move_focus_and_press_the_button_and_stale_ones_are_ignored() {
    let mut app = play_the_clipboard_in(laid_out_app());
    fill_log(&mut app, 60);
    finish_mounting(&mut app);
    let rows = row_entities(app.world_mut());
    let target = *rows
        .iter()
        .find(|&&row| app.world().get::<agent_chat::scroll::Item>(row).unwrap().0 == 55)
        .unwrap();

    request(&mut app, Action::Focus, target.to_bits());
    let row = assert_focus_on(&mut app, 55, "a reader's focus request");
    assert_in_view(&mut app, row, "a reader's focus request");

    // Scrolled away, but still mounted in the overscan: the reader asks to see it again.
    wheel(&mut app, 12.0);
    let conversation = the::<agent_chat::view::Conversation>(&mut app);
    let (area, shown) = (rect(&mut app, conversation), rect(&mut app, row));
    assert!(
        shown.min.y > area.max.y,
        "row 55 is below the view after the wheel"
    );
    request(&mut app, Action::ScrollIntoView, row.to_bits());
    app.update();
    assert_in_view(&mut app, row, "a reader's scroll-into-view request");

    // A row let go of, an entity that never was, and one that is not a row.
    let gone = app.world_mut().spawn_empty().id();
    app.world_mut().despawn(gone);
    let field = input_entity(&mut app);
    let notice = the::<CopiedNotice>(&mut app);
    for stale in [gone.to_bits(), u64::MAX, 12_345, notice.to_bits()] {
        request(&mut app, Action::Focus, stale);
        request(&mut app, Action::ScrollIntoView, stale);
        request(&mut app, Action::Click, stale);
        assert_focus_on(&mut app, 55, "after a stale request");
        assert!(
            copied(&mut app).is_empty(),
            "a stale request copies nothing"
        );
    }

    // Shift+F10 opens the conversation's menu on the focused message, with focus on its first
    // item that can act: `메시지 복사` (nothing is selected to `복사`).
    chord(&mut app, SHIFT, KeyCode::F10);
    let menu = app.world().resource::<ContextMenu>();
    assert_eq!(
        menu.owner(),
        Some(MenuOwner::Conversation {
            message: None,
            link: None
        }),
        "Shift+F10 opens the conversation's menu, for the focused message"
    );
    let item = input_focus(&app).expect("focus on the menu");
    let node = app.world().get::<AccessibilityNode>(item).unwrap();
    assert_eq!(
        (node.role(), node.label()),
        (AccessRole::MenuItem, Some("메시지 복사"))
    );
    request(&mut app, Action::Click, item.to_bits());
    let log = app.world().resource::<MessageLog>().entities().to_vec();
    let body = app
        .world()
        .get::<agent_chat::chat::ChatMessage>(log[55])
        .unwrap()
        .body()
        .to_owned();
    assert_eq!(copied(&mut app), [body], "the reader's click copies");
    assert!(!app.world().resource::<ContextMenu>().is_open());
    assert_focus_on(&mut app, 55, "focus back from the menu");

    request(&mut app, Action::Focus, field.to_bits());
    assert_eq!(
        input_focus(&app),
        Some(field),
        "a reader can focus the field"
    );
}

#[test]
fn ctrl_c_copies_the_whole_body_and_the_copy_is_announced() {
    let mut app = play_the_clipboard_in(headless_app());
    let long = "가".repeat(MAX_SHOWN_CHARS + 500);
    // Longer than the field takes, as a body can arrive by another route.
    write_submit_message(&mut app, &long);
    chord(&mut app, SHIFT, KeyCode::Tab);
    key(&mut app, KeyCode::ArrowUp);
    assert_focus_on(&mut app, 0, "Up");

    after_the_gap(&mut app);
    chord(&mut app, CTRL, KeyCode::KeyC);
    assert_eq!(
        copied(&mut app),
        [long],
        "the whole body, longer than the row shows"
    );
    let notice = the::<CopiedNotice>(&mut app);
    assert_eq!(
        app.world().get::<Node>(notice).unwrap().display,
        Display::Flex
    );
    assert_eq!(
        said_about(&mut app, Topic::Copied),
        [(Some(COPIED_NOTICE.to_owned()), Some(Live::Polite))],
        "a polite live region says it"
    );

    after_the_gap(&mut app);
    key(&mut app, KeyCode::ContextMenu);
    key(&mut app, KeyCode::Enter);
    let reply = app.world().resource::<MessageLog>().entities()[0];
    let body = app
        .world()
        .get::<agent_chat::chat::ChatMessage>(reply)
        .unwrap()
        .body()
        .to_owned();
    assert_eq!(copied(&mut app), [body], "the Menu key, then Enter, copies");
    assert_eq!(
        said_about(&mut app, Topic::Copied).len(),
        1,
        "one announcement for the new copy, made anew"
    );
    assert!(REPLIES.len() > 1);
}

#[test]
fn down_and_shift_f10_in_one_frame_open_the_menu_on_the_message_focus_moved_to() {
    let mut app = play_the_clipboard_in(laid_out_app());
    fill_log(&mut app, 60);
    finish_mounting(&mut app);
    chord(&mut app, SHIFT, KeyCode::Tab);
    key(&mut app, KeyCode::ArrowUp);
    key(&mut app, KeyCode::ArrowUp);
    assert_focus_on(&mut app, 57, "two messages up from the newest");

    // Down, then Shift+F10, read in the same frame.
    tap(&mut app, KeyCode::ArrowDown, Key::ArrowDown);
    tap_down(&mut app, KeyCode::ShiftLeft);
    tap(&mut app, KeyCode::F10, Key::F10);
    tap_up(&mut app, KeyCode::ShiftLeft);
    app.update();

    let row = app
        .world_mut()
        .query::<(Entity, &agent_chat::scroll::Item)>()
        .iter(app.world())
        .find(|(_, item)| item.0 == 58)
        .map(|(row, _)| row)
        .unwrap();
    let bubble = app.world().get::<Children>(row).unwrap()[0];
    let bubble = rect(&mut app, bubble);
    let panel = the::<MenuPanel>(&mut app);
    let menu = rect(&mut app, panel);
    assert_eq!(
        menu.min.y, bubble.min.y,
        "beside the bubble, level with its top"
    );
    assert!(
        menu.max.x <= bubble.min.x || menu.min.x >= bubble.max.x,
        "beside it, not over it: {menu:?} and {bubble:?}"
    );
    // Its first item that can act, `메시지 복사`, copies the message focus moved to.
    key(&mut app, KeyCode::Enter);
    let message = app.world().resource::<MessageLog>().entities()[58];
    let body = app.world().get::<agent_chat::chat::ChatMessage>(message);
    let body = body.unwrap().body().to_owned();
    assert_eq!(copied(&mut app), [body]);
}
