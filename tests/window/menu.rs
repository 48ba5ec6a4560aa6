//! The context menus in the real window: opened with the right button and the Menu key, read
//! through AT-SPI as a screen reader reads them (a menu of menu items, the greyed ones not
//! enabled, focus on the highlighted one), chosen with the pointer where AT-SPI places them,
//! and what they copy read back with `xclip`.

use std::time::Duration;

use agent_chat::theme::Theme;

use super::{WINDOW, session::*};

/// The open menu's items as a screen reader finds them: name, and whether enabled.
///
/// Canary: AccessKit 0.24's AT-SPI adapter (accesskit_atspi_common 0.19) reports every menu
/// item `enabled`, greyed or not: it drops the state only for roles that can be read-only
/// (AccessKit/accesskit#787; fixed in 0.21 by #788, over accesskit 0.25, which Bevy 0.19 does
/// not build). The app marks the greyed items disabled (`tests/app/menu.rs` reads that); this
/// fails once a reader is told so, and then the tests below assert the greyed items.
fn menu_items(x: &Session) -> Vec<String> {
    let tree = x.reader_tree(|tree| by_role(tree, "menu").is_some());
    let menu = by_role(&tree, "menu").expect("a menu in the reader's tree");
    let mut names = Vec::new();
    for item in tree.iter().filter(|node| node.role == "menu item") {
        assert_eq!(item.depth, menu.depth + 1, "{item:?} is in the menu");
        assert!(
            item.states.iter().any(|s| s == "enabled"),
            "{item:?}: AT-SPI tells a greyed item apart now: assert which are, here"
        );
        names.push(item.name.clone());
    }
    names
}

/// Waits until the reader's tree has no menu: it closed.
fn wait_closed(x: &Session) {
    let tree = x.reader_tree(|tree| by_role(tree, "menu").is_none());
    assert!(
        by_role(&tree, "menu").is_none(),
        "the menu closed: {tree:#?}"
    );
}

fn owned(items: &[&str]) -> Vec<String> {
    items.iter().map(|&name| name.to_owned()).collect()
}

#[test]
#[ignore = "opens a real window, reads it through AT-SPI and uses the clipboard: needs the window tools, xclip, dbus-daemon, at-spi2-core, python3-pyatspi, orca, speech-dispatcher"]
fn a_right_click_in_the_field_then_select_all_then_copy_hands_the_line_to_another_application() {
    let mut x = Session::start_with(
        "menu_field",
        Setup {
            screen_reader: true,
            ..Setup::default()
        },
    );
    let text = "메뉴로 복사할 줄 menu";
    x.type_text(text);
    x.reader_tree(|tree| {
        by_role(tree, "entry").is_some_and(|entry| entry.text.as_ref().is_some_and(|t| t.0 == text))
    });
    let entry = x.reader_place("entry", "메시지 입력");
    x.click_button(entry, "3");
    assert_eq!(
        menu_items(&x),
        owned(&[
            "실행 취소",
            "다시 실행",
            "잘라내기",
            "복사",
            "붙여넣기",
            "삭제",
            "모두 선택"
        ]),
        "the field's menu, in a screen reader's tree"
    );
    x.screenshot("field menu");
    let select_all = x.reader_place("menu item", "모두 선택");
    x.click_button(select_all, "1");
    wait_closed(&x);

    x.click_button(entry, "3");
    menu_items(&x);
    x.screenshot("field menu with a selection");
    let copy = x.reader_place("menu item", "복사");
    x.click_button(copy, "1");
    wait_closed(&x);
    assert_eq!(x.read_clipboard(), text, "xclip reads the field's line");
}

#[test]
#[ignore = "opens a real window, reads it through AT-SPI and uses the clipboard: needs the window tools, xclip, dbus-daemon, at-spi2-core, python3-pyatspi, orca, speech-dispatcher"]
fn the_menu_key_opens_the_menu_a_readers_focus_follows_its_keys_and_escape_does_not_quit() {
    // In the light theme: the other tests look at the dark one.
    let mut x = Session::start_with(
        "menu_keys",
        Setup {
            screen_reader: true,
            theme: Theme::Light,
            ..Setup::default()
        },
    );
    x.type_text("가나");
    x.reader_tree(|tree| {
        by_role(tree, "entry")
            .is_some_and(|entry| entry.text.as_ref().is_some_and(|t| t.0 == "가나"))
    });
    let mut heard = x.listen(30);
    x.key("Menu");
    let item = |name: &str| ("menu item".to_owned(), name.to_owned());
    let focus = |heard: &mut Listener| {
        let (role, name, _) = heard.next_focus();
        (role, name)
    };
    assert_eq!(
        focus(&mut heard),
        item("실행 취소"),
        "the first item that can act"
    );
    x.screenshot("menu from the keyboard");
    // Down skips what cannot act, as GTK's menus do, and wraps.
    for name in ["붙여넣기", "모두 선택", "실행 취소"] {
        x.key("Down");
        assert_eq!(focus(&mut heard), item(name));
    }
    x.key("Escape");
    assert_eq!(
        focus(&mut heard),
        ("entry".to_owned(), "메시지 입력".to_owned()),
        "Escape gives focus back to the field"
    );
    assert!(
        x.wait_for_exit(Duration::from_millis(800)).is_none(),
        "and does not quit"
    );
    wait_closed(&x);
    x.key("Escape");
    let status = x
        .wait_for_exit(Duration::from_secs(10))
        .expect("with no menu open, Escape quits");
    assert!(status.success());
}

#[test]
#[ignore = "opens a real window, reads it through AT-SPI and uses the clipboard: needs the window tools, xclip, dbus-daemon, at-spi2-core, python3-pyatspi, orca, speech-dispatcher"]
fn the_conversations_menu_at_the_windows_corner_opens_inside_it_and_copies_the_message() {
    let mut x = Session::start_with(
        "menu_conv",
        Setup {
            screen_reader: true,
            ..Setup::default()
        },
    );
    let line = "오른쪽 아래 구석에서 연 메뉴";
    x.type_text(line);
    x.key("Return");
    let shot = x.wait_for("exchange", |shot| shot.bubbles().len() == 2);
    // On the user's bubble, near its right edge: the menu opens below and right of the pointer.
    let user = &shot.bubbles()[0];
    x.click_button((user.right - 4, user.top + 8), "3");
    assert_eq!(
        menu_items(&x),
        owned(&["복사", "메시지 복사", "모두 선택", "대화에서 찾기…"])
    );
    let copy = x.reader_place("menu item", "메시지 복사");
    x.click_button(copy, "1");
    wait_closed(&x);
    assert_eq!(
        x.read_clipboard(),
        line,
        "the message's body, without its label"
    );

    // Near the window's bottom right corner (above the field, in the conversation): flipped up
    // and to the left, every item inside the window.
    let field_top = shot.input_bar().expect("the field's top edge");
    let corner = (WINDOW.0 - 30, field_top - 30);
    x.click_button(corner, "3");
    menu_items(&x);
    for name in ["복사", "메시지 복사", "모두 선택", "대화에서 찾기…"] {
        let (cx, cy) = x.reader_place("menu item", name);
        assert!(
            cx < corner.0 && cy < corner.1 && cx < WINDOW.0 && cy < WINDOW.1,
            "{name} at {:?}, left of and above {corner:?}",
            (cx, cy)
        );
    }
    x.screenshot("menu at the corner");
    // A click outside closes it and does nothing else: the window is still there.
    x.click_button((40, 40), "1");
    wait_closed(&x);
}
