//! The context menus, through the app's real systems on real layout: each item does what its
//! key does (by keys, by the pointer and by a screen reader's click), greyed-out items, the
//! menu's keys, the click outside that does nothing else, placement at the window's edges, and
//! a right-click storm. (The real window, X11's clipboard and AT-SPI are in
//! `tests/window/menu.rs`.)

use crate::common;

use std::ops::Range;

use accesskit::{Action, ActionRequest as Request, NodeId, Role as AccessRole, TreeId};
use agent_chat::{
    chat::{ChatMessage, MessageLog},
    input::Field,
    view::{
        find::FindField,
        menu::{ContextMenu, MenuCommand, MenuEntry, MenuOwner, MenuPanel},
        selection::ConversationSelection,
        zoom::ZoomLevel,
    },
};
use bevy::{
    a11y::{AccessibilityNode, ActionRequest},
    input::{ButtonState, keyboard::Key, mouse::MouseButtonInput},
    input_focus::InputFocus,
    prelude::*,
    window::{CursorMoved, Ime, PrimaryWindow, WindowFocused, WindowResolution},
};
use common::*;

/// Taps `key` (meaning `logical`) with `modifiers` held, and runs the frame.
fn chord(app: &mut App, modifiers: &[KeyCode], key: KeyCode, logical: Key) {
    common::chord(app, modifiers, key, logical);
    app.update();
}

/// Taps a named key alone, and runs the frame.
fn key(app: &mut App, key: KeyCode) {
    let logical = match key {
        KeyCode::ArrowUp => Key::ArrowUp,
        KeyCode::ArrowDown => Key::ArrowDown,
        KeyCode::ArrowLeft => Key::ArrowLeft,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::Enter => Key::Enter,
        KeyCode::Space => Key::Space,
        KeyCode::Escape => Key::Escape,
        KeyCode::Tab => Key::Tab,
        KeyCode::Delete => Key::Delete,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::ContextMenu => Key::ContextMenu,
        _ => panic!("no logical key for {key:?} here"),
    };
    chord(app, &[], key, logical);
}

const CTRL: &[KeyCode] = &[KeyCode::ControlLeft];
const SHIFT: &[KeyCode] = &[KeyCode::ShiftLeft];
const CTRL_SHIFT: &[KeyCode] = &[KeyCode::ControlLeft, KeyCode::ShiftLeft];

/// Ctrl (and Shift if `shift`) with a letter.
fn ctrl(app: &mut App, letter: &str, shift: bool) {
    let key = match letter {
        "a" => KeyCode::KeyA,
        "c" => KeyCode::KeyC,
        "f" => KeyCode::KeyF,
        "v" => KeyCode::KeyV,
        "x" => KeyCode::KeyX,
        "z" => KeyCode::KeyZ,
        _ => panic!("no key for {letter} here"),
    };
    let held = if shift { CTRL_SHIFT } else { CTRL };
    chord(app, held, key, Key::Character(letter.into()));
}

/// Presses and releases `button` at `at` (the window's logical pixels), and runs the frame.
fn click(app: &mut App, at: Vec2, button: MouseButton) {
    app.world_mut()
        .query_filtered::<&mut Window, With<PrimaryWindow>>()
        .single_mut(app.world_mut())
        .unwrap()
        .set_cursor_position(Some(at));
    buttons(
        app,
        at,
        button,
        &[ButtonState::Pressed, ButtonState::Released],
    );
}

fn right_click(app: &mut App, at: Vec2) {
    click(app, at, MouseButton::Right);
}

fn left_click(app: &mut App, at: Vec2) {
    click(app, at, MouseButton::Left);
}

fn menu(app: &App) -> &ContextMenu {
    app.world().resource::<ContextMenu>()
}

/// The open menu's items, as (label, whether it can act).
fn items(app: &App) -> Vec<(&'static str, bool)> {
    menu(app)
        .items()
        .iter()
        .map(|item| (item.command.label(), item.enabled))
        .collect()
}

/// The node of the open menu's item at `at`.
fn entry(app: &mut App, at: usize) -> Entity {
    let world = app.world_mut();
    world
        .query::<(Entity, &MenuEntry)>()
        .iter(world)
        .find(|(_, entry)| entry.0 == at)
        .map(|(entity, _)| entity)
        .unwrap_or_else(|| panic!("the menu shows item {at}"))
}

/// Where item `at` of the open menu is, in the window's logical pixels: its middle.
fn item_point(app: &mut App, at: usize) -> Vec2 {
    let entity = entry(app, at);
    rect(app, entity).center()
}

/// Where `command` is among the open menu's items.
fn place_of(app: &App, command: MenuCommand) -> usize {
    menu(app)
        .items()
        .iter()
        .position(|item| item.command == command)
        .expect("the command is in the menu")
}

/// Chooses `command` from the open menu with the keys: Home, Down to it, Enter.
fn choose_by_keys(app: &mut App, command: MenuCommand) {
    let at = place_of(app, command);
    key(app, KeyCode::Home);
    for _ in 0..menu(app).items().len() {
        if menu(app).highlighted() == Some(at) {
            break;
        }
        key(app, KeyCode::ArrowDown);
    }
    assert_eq!(
        menu(app).highlighted(),
        Some(at),
        "Down reaches {command:?}"
    );
    key(app, KeyCode::Enter);
}

/// Chooses `command` from the open menu with the pointer: a click on it.
fn choose_by_pointer(app: &mut App, command: MenuCommand) {
    let point = item_point(app, place_of(app, command));
    left_click(app, point);
}

/// Chooses `command` from the open menu as a screen reader does: a click action on its node.
fn choose_by_reader(app: &mut App, command: MenuCommand) {
    let at = place_of(app, command);
    let node = entry(app, at);
    app.world_mut().write_message(ActionRequest(Request {
        action: Action::Click,
        target_tree: TreeId::ROOT,
        target_node: NodeId(node.to_bits()),
        data: None,
    }));
    app.update();
}

/// The chat field's line: text, caret, selection, and whether it can undo and redo.
fn line(app: &mut App) -> (String, usize, Range<usize>, bool, bool) {
    let field = input_entity(app);
    let line = app.world().get::<Field>(field).unwrap().line();
    (
        line.text().to_owned(),
        line.caret(),
        line.selection(),
        line.can_undo(),
        line.can_redo(),
    )
}

fn input_focus(app: &App) -> Option<Entity> {
    app.world().resource::<InputFocus>().get()
}

/// The middle of the chat field, in the window's logical pixels.
fn field_point(app: &mut App) -> Vec2 {
    let field = input_entity(app);
    rect(app, field).center()
}

/// A field where every item of the field's menu can act: a line typed, its last word deleted
/// and that undone (a step to undo, one to redo), and two characters selected.
fn field_where_everything_can_act() -> App {
    let mut app = play_the_clipboard_in(laid_out_app());
    key_in(&mut app, "안녕 세상 만세");
    app.update();
    for _ in 0..3 {
        key(&mut app, KeyCode::Backspace);
    }
    ctrl(&mut app, "z", false);
    chord(&mut app, SHIFT, KeyCode::ArrowLeft, Key::ArrowLeft);
    chord(&mut app, SHIFT, KeyCode::ArrowLeft, Key::ArrowLeft);
    app
}

#[test]
fn each_item_of_the_fields_menu_does_what_its_key_does_by_keys_pointer_and_reader() {
    let keys: [(MenuCommand, fn(&mut App)); 7] = [
        (MenuCommand::Undo, |app| ctrl(app, "z", false)),
        (MenuCommand::Redo, |app| ctrl(app, "z", true)),
        (MenuCommand::Cut, |app| ctrl(app, "x", false)),
        (MenuCommand::Copy, |app| ctrl(app, "c", false)),
        (MenuCommand::Paste, |app| ctrl(app, "v", false)),
        (MenuCommand::Delete, |app| key(app, KeyCode::Delete)),
        (MenuCommand::SelectAll, |app| ctrl(app, "a", false)),
    ];
    assert_eq!(keys.map(|(command, _)| command), MenuCommand::FIELD);
    for (command, press) in keys {
        let mut by_key = field_where_everything_can_act();
        let start = line(&mut by_key);
        press(&mut by_key);
        let wanted = (
            line(&mut by_key),
            copied(&mut by_key),
            asked_to_read(&mut by_key),
        );
        assert!(
            wanted.0 != start || !wanted.1.is_empty() || wanted.2,
            "{command:?}'s key changes something here"
        );
        let ways: [(&str, fn(&mut App, MenuCommand)); 3] = [
            ("keys", choose_by_keys),
            ("pointer", choose_by_pointer),
            ("reader", choose_by_reader),
        ];
        for (way, choose) in ways {
            let mut app = field_where_everything_can_act();
            assert_eq!(line(&mut app), start);
            if way == "keys" {
                key(&mut app, KeyCode::ContextMenu);
            } else {
                let at = field_point(&mut app);
                right_click(&mut app, at);
            }
            let field = input_entity(&mut app);
            assert_eq!(menu(&app).owner(), Some(MenuOwner::Field(field)));
            assert!(items(&app).iter().all(|(_, enabled)| *enabled));
            choose(&mut app, command);
            let got = (line(&mut app), copied(&mut app), asked_to_read(&mut app));
            assert_eq!(got, wanted, "{command:?} chosen by {way}, and its key");
            assert!(
                !menu(&app).is_open(),
                "{command:?} by {way} closes the menu"
            );
            assert_eq!(input_focus(&app), Some(field), "focus back in the field");
        }
    }
}

/// Two exchanges, keyboard focus on the first reply, and, if `selected`, all of the
/// conversation selected.
fn conversation(selected: bool) -> App {
    let mut app = play_the_clipboard_in(laid_out_app());
    fix_pick(&mut app, &[0, 1]);
    submit(&mut app, "안녕하세요 반가워요");
    submit(&mut app, "서울역 3번 출구에서 만나요");
    app.update();
    chord(&mut app, SHIFT, KeyCode::Tab, Key::Tab);
    key(&mut app, KeyCode::ArrowUp);
    key(&mut app, KeyCode::ArrowUp);
    if selected {
        ctrl(&mut app, "a", false);
    }
    app
}

/// What the conversation's commands change: the copies, its selection, where focus is, and
/// whether the find bar is open.
fn conversation_state(app: &mut App) -> (Vec<String>, ConversationSelection, bool, bool) {
    let focus = input_focus(app);
    let finding = {
        let world = app.world_mut();
        world
            .query_filtered::<Entity, With<FindField>>()
            .iter(world)
            .next()
    };
    (
        copied(app),
        app.world().resource::<ConversationSelection>().clone(),
        finding.is_some(),
        finding.is_some() && focus == finding,
    )
}

#[test]
fn each_item_of_the_conversations_menu_does_what_its_key_or_button_does() {
    let keys: [(MenuCommand, bool, fn(&mut App)); 4] = [
        (MenuCommand::CopySelection, true, |app| {
            ctrl(app, "c", false)
        }),
        // The focused message, as Ctrl+C copies it with nothing selected.
        (MenuCommand::CopyMessage, false, |app| ctrl(app, "c", false)),
        (MenuCommand::SelectConversation, false, |app| {
            ctrl(app, "a", false)
        }),
        (MenuCommand::FindInConversation, false, |app| {
            ctrl(app, "f", false)
        }),
    ];
    assert_eq!(keys.map(|(command, ..)| command), MenuCommand::CONVERSATION);
    for (command, selected, press) in keys {
        let mut by_key = conversation(selected);
        let start = conversation_state(&mut by_key);
        press(&mut by_key);
        let wanted = conversation_state(&mut by_key);
        assert_ne!(wanted, start, "{command:?}'s key changes something here");
        let ways: [(&str, fn(&mut App, MenuCommand)); 2] =
            [("keys", choose_by_keys), ("reader", choose_by_reader)];
        for (way, choose) in ways {
            let mut app = conversation(selected);
            chord(&mut app, SHIFT, KeyCode::F10, Key::F10);
            assert_eq!(
                menu(&app).owner(),
                Some(MenuOwner::Conversation {
                    message: None,
                    link: None
                })
            );
            choose(&mut app, command);
            assert_eq!(
                conversation_state(&mut app),
                wanted,
                "{command:?} chosen by {way}, and its key"
            );
        }
    }

    // By the pointer, `메시지 복사` copies the message under it, as its `복사` button does.
    let mut app = conversation(false);
    let second = app.world().resource::<MessageLog>().entities()[2];
    let body = app
        .world()
        .get::<ChatMessage>(second)
        .unwrap()
        .body()
        .to_owned();
    let row = row_entities(app.world_mut())
        .into_iter()
        .find(|&row| app.world().get::<agent_chat::scroll::Item>(row).unwrap().0 == 2)
        .unwrap();
    let at = rect(&mut app, row).center();
    right_click(&mut app, at);
    assert_eq!(
        menu(&app).owner(),
        Some(MenuOwner::Conversation {
            message: Some(2),
            link: None
        })
    );
    choose_by_pointer(&mut app, MenuCommand::CopyMessage);
    assert_eq!(copied(&mut app), [body]);
}

#[test]
fn items_that_cannot_act_are_greyed_out_and_readers_are_told_they_are_disabled() {
    let mut app = play_the_clipboard_in(laid_out_app());
    key(&mut app, KeyCode::ContextMenu);
    let all = [
        "실행 취소",
        "다시 실행",
        "잘라내기",
        "복사",
        "붙여넣기",
        "삭제",
        "모두 선택",
    ];
    let enabled = |app: &App| -> Vec<&'static str> {
        items(app)
            .into_iter()
            .filter(|(_, enabled)| *enabled)
            .map(|(label, _)| label)
            .collect()
    };
    assert_eq!(items(&app).iter().map(|(l, _)| *l).collect::<Vec<_>>(), all);
    assert_eq!(enabled(&app), ["붙여넣기"], "an empty field can only paste");
    // Screen readers: a menu of menu items, the greyed ones disabled, each with its key.
    for (at, label) in all.into_iter().enumerate() {
        let node = entry(&mut app, at);
        let node = app.world().get::<AccessibilityNode>(node).unwrap();
        assert_eq!(node.role(), AccessRole::MenuItem);
        assert_eq!(node.label(), Some(label));
        assert_eq!(node.is_disabled(), label != "붙여넣기", "{label}");
    }
    let undo = entry(&mut app, 0);
    let undo = app.world().get::<AccessibilityNode>(undo).unwrap();
    assert_eq!(undo.keyboard_shortcut(), Some("Ctrl+Z"));
    let panel = the::<MenuPanel>(&mut app);
    assert_eq!(
        app.world().get::<AccessibilityNode>(panel).unwrap().role(),
        AccessRole::Menu
    );
    // Enter on nothing that can act: only paste is highlighted, and it waits for the clipboard.
    assert_eq!(
        menu(&app).highlighted(),
        Some(4),
        "the first item that can act"
    );
    key(&mut app, KeyCode::Escape);

    key_in(&mut app, "가나");
    app.update();
    key(&mut app, KeyCode::ContextMenu);
    assert_eq!(enabled(&app), ["실행 취소", "붙여넣기", "모두 선택"]);
    key(&mut app, KeyCode::Escape);
    ctrl(&mut app, "a", false);
    key(&mut app, KeyCode::ContextMenu);
    assert_eq!(
        enabled(&app),
        [
            "실행 취소",
            "잘라내기",
            "복사",
            "붙여넣기",
            "삭제",
            "모두 선택"
        ]
    );
    key(&mut app, KeyCode::Escape);
    ctrl(&mut app, "z", false);
    key(&mut app, KeyCode::ContextMenu);
    assert_eq!(enabled(&app), ["다시 실행", "붙여넣기"]);
    key(&mut app, KeyCode::Escape);

    // A full field cannot take a paste.
    let full = "가".repeat(usize::from(agent_chat::input::MAX_INPUT_CHARS));
    let field = input_entity(&mut app);
    app.world_mut()
        .get_mut::<Field>(field)
        .unwrap()
        .set_text_selected(&full);
    app.world_mut()
        .get_mut::<Field>(field)
        .unwrap()
        .drop_selection();
    app.update();
    key(&mut app, KeyCode::ContextMenu);
    assert!(!items(&app)[4].1, "붙여넣기 is greyed out in a full field");
    key(&mut app, KeyCode::Escape);

    // The conversation's: nothing logged, nothing selected, only find.
    let list = the::<agent_chat::view::Conversation>(&mut app);
    let at = rect(&mut app, list).center();
    right_click(&mut app, at);
    let labels: Vec<_> = items(&app).into_iter().filter(|(_, on)| *on).collect();
    assert_eq!(labels, [("대화에서 찾기…", true)]);
}

#[test]
fn the_menus_keys_wrap_skip_what_cannot_act_and_escape_closes_it_without_quitting() {
    let mut app = laid_out_app();
    key_in(&mut app, "가나");
    app.update();
    let field = input_entity(&mut app);
    key(&mut app, KeyCode::ContextMenu);
    // Enabled: 실행 취소 (0), 붙여넣기 (4), 모두 선택 (6).
    let highlighted = |app: &App| menu(app).highlighted();
    assert_eq!(highlighted(&app), Some(0));
    let walk = [
        (KeyCode::ArrowDown, 4),
        (KeyCode::ArrowDown, 6),
        (KeyCode::ArrowDown, 0),
        (KeyCode::ArrowUp, 6),
        (KeyCode::Home, 0),
        (KeyCode::End, 6),
    ];
    for (pressed, to) in walk {
        key(&mut app, pressed);
        assert_eq!(highlighted(&app), Some(to), "after {pressed:?}");
        // Focus is on the highlighted item, so a screen reader follows it.
        let on = entry(&mut app, to);
        assert_eq!(input_focus(&app), Some(on));
    }
    // Typing and shortcuts do nothing while it is open.
    key_in(&mut app, "다");
    ctrl(&mut app, "a", false);
    assert_eq!(line(&mut app).0, "가나");
    assert!(menu(&app).is_open());

    key(&mut app, KeyCode::Escape);
    let exits = |app: &App| {
        app.world()
            .resource::<Messages<AppExit>>()
            .iter_current_update_messages()
            .count()
    };
    assert!(!menu(&app).is_open());
    assert_eq!(exits(&app), 0, "Escape closed the menu, and did not quit");
    assert_eq!(input_focus(&app), Some(field), "focus back where it was");
    assert_eq!(the_layers(&mut app), 0, "the menu is taken down");

    // Space chooses, as Enter does.
    key(&mut app, KeyCode::ContextMenu);
    key(&mut app, KeyCode::End);
    key(&mut app, KeyCode::Space);
    assert_eq!(line(&mut app).2, 0.."가나".len(), "모두 선택, by Space");

    // The Menu key and Escape read in one frame: the menu opens and closes, and the app stays.
    tap(&mut app, KeyCode::ContextMenu, Key::ContextMenu);
    tap(&mut app, KeyCode::Escape, Key::Escape);
    app.update();
    assert!(!menu(&app).is_open());
    assert_eq!(exits(&app), 0, "the Escape was the menu's");

    key(&mut app, KeyCode::Escape);
    assert_eq!(exits(&app), 1, "with no menu open, Escape quits");
}

/// How many menus are built.
fn the_layers(app: &mut App) -> usize {
    let world = app.world_mut();
    world.query::<&MenuPanel>().iter(world).count()
}

#[test]
fn a_click_outside_closes_the_menu_and_does_nothing_else_nor_does_the_wheel() {
    let mut app = play_the_clipboard_in(laid_out_app());
    fill_log(&mut app, 40);
    finish_mounting(&mut app);
    // All of the conversation selected.
    chord(&mut app, SHIFT, KeyCode::Tab, Key::Tab);
    ctrl(&mut app, "a", false);
    let selection = app.world().resource::<ConversationSelection>().clone();
    assert!(!selection.is_empty());
    let list = the::<agent_chat::view::Conversation>(&mut app);
    let area = rect(&mut app, list);
    right_click(&mut app, area.center());
    assert!(menu(&app).is_open());
    let at_first = offset(&mut app);
    wheel(&mut app, 3.0);
    assert_eq!(
        offset(&mut app),
        at_first,
        "the wheel does nothing under a menu"
    );
    let zoom = *app.world().resource::<ZoomLevel>();
    // A click on a row, which would start a selection, closes the menu and only that.
    left_click(&mut app, Vec2::new(area.min.x + 30.0, area.min.y + 20.0));
    assert!(!menu(&app).is_open());
    assert_eq!(
        *app.world().resource::<ConversationSelection>(),
        selection,
        "the closing click selects nothing"
    );
    assert_eq!(*app.world().resource::<ZoomLevel>(), zoom);
    assert!(copied(&mut app).is_empty());
    wheel(&mut app, 3.0);
    assert_ne!(
        offset(&mut app),
        at_first,
        "with the menu closed, the wheel scrolls"
    );

    // In the field: the closing click does not move the caret.
    key_in(&mut app, "가나다");
    app.update();
    key(&mut app, KeyCode::ArrowLeft);
    let before = line(&mut app);
    let at = field_point(&mut app);
    right_click(&mut app, at);
    let field = input_entity(&mut app);
    let left_edge = rect(&mut app, field).min + Vec2::new(14.0, 10.0);
    left_click(&mut app, left_edge);
    assert!(!menu(&app).is_open());
    assert_eq!(line(&mut app), before, "the closing click places no caret");
    // The next click does.
    left_click(&mut app, left_edge);
    assert_eq!(line(&mut app).1, 0, "the next click places the caret");
}

#[test]
fn a_right_click_keeps_a_composition_the_fields_caret_and_the_conversations_selection() {
    let mut app = conversation(true);
    let selection = app.world().resource::<ConversationSelection>().clone();
    let field = input_entity(&mut app);
    key_in(&mut app, "ab");
    app.update();
    deliver(
        &mut app,
        Ime::Preedit {
            window: Entity::PLACEHOLDER,
            value: "한".to_owned(),
            cursor: Some((3, 3)),
        },
    );
    app.update();
    let composing = |app: &App| {
        let line = app.world().get::<Field>(field).unwrap().line();
        (line.shown().into_owned(), line.caret(), line.is_composing())
    };
    let before = composing(&app);
    assert_eq!(before, ("ab한".to_owned(), 2, true));
    let at = field_point(&mut app);
    right_click(&mut app, at);
    assert!(menu(&app).is_open());
    assert_eq!(
        composing(&app),
        before,
        "the composition and caret are as they were"
    );
    // The IME commits as a key goes to the menu: the text lands in the field, focus stays.
    deliver(
        &mut app,
        Ime::Commit {
            window: Entity::PLACEHOLDER,
            value: "한".to_owned(),
        },
    );
    key(&mut app, KeyCode::ArrowDown);
    assert_eq!(composing(&app), ("ab한".to_owned(), 5, false));
    assert!(menu(&app).is_open(), "the menu stays open");
    key(&mut app, KeyCode::Escape);
    // A right-click on the conversation keeps its selection.
    let list = the::<agent_chat::view::Conversation>(&mut app);
    let area = rect(&mut app, list).center();
    right_click(&mut app, area);
    key(&mut app, KeyCode::Escape);
    assert_eq!(*app.world().resource::<ConversationSelection>(), selection);
}

#[test]
fn the_menu_fits_in_the_window_flipping_or_shifting_at_its_edges() {
    let mut app = conversation(false);
    let window = Rect::new(0.0, 0.0, 800.0, 600.0);
    let inside = |menu: Rect| {
        menu.min.x >= window.min.x
            && menu.min.y >= window.min.y
            && menu.max.x <= window.max.x
            && menu.max.y <= window.max.y
    };
    // At the top left of the conversation it opens below and right of the pointer.
    let list = the::<agent_chat::view::Conversation>(&mut app);
    let area = rect(&mut app, list);
    let near = area.min + Vec2::splat(20.0);
    right_click(&mut app, near);
    let panel = the::<MenuPanel>(&mut app);
    let shown = rect(&mut app, panel);
    assert_eq!(shown.min, near, "below and right of the pointer");
    key(&mut app, KeyCode::Escape);
    // At the field, near the bottom right corner: above the pointer, and left of it.
    let field = input_entity(&mut app);
    let corner = rect(&mut app, field).max - Vec2::splat(8.0);
    right_click(&mut app, corner);
    let panel = the::<MenuPanel>(&mut app);
    let shown = rect(&mut app, panel);
    assert!(inside(shown), "{shown:?} in the window");
    assert_eq!(
        shown.max, corner,
        "flipped up and to the left of the pointer"
    );
    key(&mut app, KeyCode::Escape);
    // From the keyboard, under the caret in the field at the bottom: above the caret.
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::ContextMenu);
    let panel = the::<MenuPanel>(&mut app);
    let shown = rect(&mut app, panel);
    assert!(inside(shown), "{shown:?} in the window");
    let field_top = rect(&mut app, field).min.y;
    assert!(shown.max.y <= field_top + 12.0, "above the line: {shown:?}");
}

#[test]
fn in_a_window_too_small_for_it_the_menu_shifts_to_the_edge_and_still_works() {
    let mut app = play_the_clipboard_in(laid_out_app_at(WindowResolution::new(100, 60)));
    // Ctrl+= to 300%.
    for _ in 0..8 {
        chord(&mut app, CTRL, KeyCode::Equal, Key::Character("=".into()));
    }
    assert_eq!(app.world().resource::<UiScale>().0, 3.0);
    key_in(&mut app, "가나");
    app.update();
    key(&mut app, KeyCode::ContextMenu);
    let panel = the::<MenuPanel>(&mut app);
    let shown = rect(&mut app, panel);
    assert_eq!(
        shown.min,
        Vec2::splat(4.0 * 3.0),
        "too big for the window: at its top left edge"
    );
    key(&mut app, KeyCode::End);
    key(&mut app, KeyCode::Enter);
    assert_eq!(line(&mut app).2, 0.."가나".len(), "모두 선택 still works");
}

#[test]
fn the_menu_closes_with_the_windows_focus_and_focus_comes_back_when_it_does() {
    let mut app = conversation(false);
    let focused = input_focus(&app);
    chord(&mut app, SHIFT, KeyCode::F10, Key::F10);
    assert!(menu(&app).is_open());
    let window = the::<PrimaryWindow>(&mut app);
    deliver(
        &mut app,
        WindowFocused {
            window,
            focused: false,
        },
    );
    app.update();
    app.update();
    assert!(!menu(&app).is_open());
    assert_eq!(the_layers(&mut app), 0);
    assert_eq!(input_focus(&app), focused);
}

#[test]
fn a_right_click_storm_leaves_at_most_one_menu_and_the_app_as_it_should_be() {
    let mut app = conversation(false);
    // A fixed walk over the window: right-clicks, clicks and keys in every order, several in a
    // frame.
    let mut seed = 0x2545_f491_u32;
    let mut next = move |n: u32| {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed % n
    };
    let window = the::<PrimaryWindow>(&mut app);
    for _ in 0..300 {
        for _ in 0..=next(3) {
            let at = Vec2::new(next(800) as f32, next(600) as f32);
            deliver(
                &mut app,
                CursorMoved {
                    window,
                    position: at,
                    delta: None,
                },
            );
            let button =
                [MouseButton::Right, MouseButton::Left, MouseButton::Right][next(3) as usize];
            for state in [ButtonState::Pressed, ButtonState::Released] {
                deliver(
                    &mut app,
                    MouseButtonInput {
                        button,
                        state,
                        window,
                    },
                );
            }
            match next(6) {
                0 => tap(&mut app, KeyCode::ArrowDown, Key::ArrowDown),
                1 => tap(&mut app, KeyCode::ContextMenu, Key::ContextMenu),
                _ => {}
            }
        }
        app.update();
        let layers = the_layers(&mut app);
        assert!(layers <= 1, "{layers} menus built");
        assert_eq!(
            layers == 1,
            menu(&app).is_open(),
            "the menu built is the one open"
        );
    }
    // Whatever it left, Escape closes it, and the field takes a line and sends it.
    if menu(&app).is_open() {
        key(&mut app, KeyCode::Escape);
    }
    assert!(!menu(&app).is_open());
    let logged = app.world().resource::<MessageLog>().len();
    let at = field_point(&mut app);
    left_click(&mut app, at);
    key_in(&mut app, "폭풍 뒤");
    press_enter(&mut app);
    assert_eq!(app.world().resource::<MessageLog>().len(), logged + 2);
}

#[test]
fn an_item_chosen_while_a_paste_waits_is_done_once_the_paste_has_landed() {
    let mut app = play_the_clipboard_in(laid_out_app());
    key_in(&mut app, "안녕");
    app.update();
    // Ctrl+V: the paste waits for the clipboard, which the test has not answered yet.
    ctrl(&mut app, "v", false);
    assert!(asked_to_read(&mut app));
    let point = field_point(&mut app);
    right_click(&mut app, point);
    assert!(menu(&app).is_open(), "the pointer opens the menu meanwhile");
    choose_by_pointer(&mut app, MenuCommand::SelectAll);
    assert_eq!(
        line(&mut app).0,
        "안녕",
        "nothing is done before the paste it came after"
    );
    app.world_mut()
        .write_message(agent_chat::input::clipboard::ClipboardText(Some(
            " 세상".to_owned(),
        )));
    app.update();
    let (text, _, selection, ..) = line(&mut app);
    assert_eq!(
        (text.as_str(), selection),
        ("안녕 세상", 0.."안녕 세상".len()),
        "pasted, then all selected: the click was not lost"
    );
    assert!(!menu(&app).is_open(), "and the menu closed with its choice");
}
