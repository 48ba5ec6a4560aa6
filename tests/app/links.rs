//! Links in messages: found once as a message is logged, drawn underlined in the link colour,
//! opened by a click (not by a drag or a double-click), by Enter on the link the keyboard is
//! on, by the menu and by a screen reader; only web and mail addresses, ever. Through the app's
//! real systems on real layout; the desktop that opens them is played by the test
//! ([`LinkOpener`]), and `tests/window/links.rs` opens them through the real one.

use std::{
    sync::Mutex,
    time::{Duration, Instant},
};

use crate::common;

use accesskit::{Action, ActionRequest as Request, NodeId, Role as AccessRole, TreeId};
use agent_chat::{
    chat::{ChatMessage, MessageLog, Role},
    links::{self, Links},
    theme::{Palette, Theme},
    view::{
        copy::{ADDRESS_COPIED_NOTICE, CopiedNotice},
        focus::MessageFocus,
        menu::{ContextMenu, MenuCommand},
        open_links::{LinkNotice, LinkOpener, OPEN_FAILED_NOTICE, OpenLink},
        reader::ReaderLink,
        selection::ConversationSelection,
        speech::Topic,
    },
};
use bevy::{
    a11y::{AccessibilityNode, AccessibilityRequested, ActionRequest},
    input::{ButtonState, keyboard::Key},
    input_focus::InputFocus,
    prelude::*,
    text::Underline,
    window::{CursorIcon, PrimaryWindow, SystemCursorIcon},
};
use common::*;

/// What the played desktop was asked to open, by every test of this file (they run at once:
/// each asks for addresses of its own).
static OPENED: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// The played desktop: it keeps the address, and opens nothing.
fn keep(address: &str) -> Result<&'static str, String> {
    OPENED.lock().unwrap().push(address.to_owned());
    Ok("the test")
}

/// How many times the played desktop was asked for `address`, once frames have run for the
/// threads that hand addresses over to come back (or half a second has passed).
fn times_opened(app: &mut App, address: &str) -> usize {
    let count = || {
        (OPENED.lock().unwrap().iter())
            .filter(|opened| *opened == address)
            .count()
    };
    let start = Instant::now();
    while count() == 0 && start.elapsed() < Duration::from_millis(500) {
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
    count()
}

/// The `OpenLink`s the app wrote, kept by the test.
#[derive(Resource, Default)]
struct Asked(Vec<String>);

fn keep_asked(mut asked: MessageReader<OpenLink>, mut kept: ResMut<Asked>) {
    kept.0
        .extend(asked.read().map(|OpenLink(address)| address.clone()));
}

fn asked(app: &App) -> Vec<String> {
    app.world().resource::<Asked>().0.clone()
}

/// A laid-out conversation where `line` was sent and answered, on a manual clock, with the
/// test as the desktop and the clipboard.
fn sent(line: &str) -> App {
    let mut app = play_the_clipboard_in(laid_out_app());
    on_a_lagging_clock(&mut app, Duration::ZERO);
    app.insert_resource(LinkOpener(keep))
        .init_resource::<Asked>()
        .add_systems(Last, keep_asked);
    fix_pick(&mut app, &[0]);
    submit(&mut app, line);
    app.update();
    app
}

/// Where the `nth` character of `part` is, in the sent message's row.
fn at_text(app: &mut App, line: &str, part: &str, nth: usize) -> Vec2 {
    let start = line.find(part).expect("the part is in the line");
    let offset = part
        .char_indices()
        .nth(nth)
        .map_or(part.len(), |(at, _)| at);
    body_point(app, 0, start + offset)
}

fn click(app: &mut App, at: Vec2) {
    pointer(app, at, Some(ButtonState::Pressed));
    pointer(app, at, Some(ButtonState::Released));
}

/// The double-click time passes, and a frame runs.
fn wait_out_a_double_click(app: &mut App) {
    rest(app, Duration::from_millis(500));
    app.update();
}

fn links_of(app: &App, place: usize) -> Option<Vec<String>> {
    let message = app.world().resource::<MessageLog>().entities()[place];
    let Links(links) = app.world().get::<Links>(message)?;
    Some(links.iter().map(|link| link.target.clone()).collect())
}

#[test]
fn links_are_found_once_as_a_message_is_logged_and_the_text_stays_as_written() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0]);
    let line = "see https://example.org/a_(b)) and www.rust-lang.org. or mailto:me@example.org에게";
    submit(&mut app, line);
    assert_eq!(
        links_of(&app, 0).unwrap(),
        [
            "https://example.org/a_(b)",
            "https://www.rust-lang.org",
            "mailto:me@example.org"
        ]
    );
    assert_eq!(logged(&app)[0], (Role::User, line.to_owned()));
    assert_eq!(links_of(&app, 1), None, "the reply has none");

    // Not links: other schemes, bare domains and addresses.
    submit(
        &mut app,
        "javascript:alert(1) file:///etc/passwd ftp://example.org example.com me@example.org",
    );
    assert_eq!(links_of(&app, 2), None);

    // Past the part a long row shows, nothing is found: nothing there to click. Nor is a link
    // the cut runs through, which would open an address cut short.
    let long = format!("{} https://late.example", "가".repeat(4000));
    write_submit_message(&mut app, &long);
    assert_eq!(links_of(&app, 4), None);
    let cut = format!(
        "{} https://cut.example/{}",
        "가".repeat(3970),
        "a".repeat(40)
    );
    write_submit_message(&mut app, &cut);
    assert_eq!(links_of(&app, 6), None);
    let whole = format!("{} https://whole.example", "가".repeat(3970));
    write_submit_message(&mut app, &whole);
    assert_eq!(links_of(&app, 8).unwrap(), ["https://whole.example"]);
    let found_once = {
        let world = app.world_mut();
        world.query::<(&ChatMessage, &Links)>().iter(world).count()
    };
    assert_eq!(found_once, 2, "two messages of ten have links");
}

#[test]
fn a_row_underlines_its_links_in_the_link_colour_and_shows_its_text_whole() {
    let line = "문서는 https://example.org/docs에서, 또는 www.example.net 참고";
    let mut app = sent(line);
    let row = row_at(&mut app, 0);
    let world = app.world();
    let text = text_of_row(world, row);
    assert_eq!(shown_text(world, text), format!("사용자: {line}"));
    let palette = world.resource::<Theme>().palette();
    let underlined: Vec<(String, Color)> = (world.get::<Children>(text).into_iter().flatten())
        .filter(|&&span| world.get::<Underline>(span).is_some())
        .map(|&span| {
            let colour = world.get::<TextColor>(span).unwrap().0;
            (world.get::<TextSpan>(span).unwrap().0.clone(), colour)
        })
        .collect();
    assert_eq!(
        underlined,
        [
            ("https://example.org/docs".to_owned(), palette.link),
            ("www.example.net".to_owned(), palette.link),
        ]
    );
    assert_ne!(Palette::DARK.link, Palette::DARK.text);
}

#[test]
fn a_click_opens_the_link_once_when_no_second_press_follows_and_the_pointer_is_a_hand_on_it() {
    let line = "여기 https://click.example/a?b=1 보세요";
    let mut app = sent(line);
    let on_link = at_text(&mut app, line, "https://click.example/a?b=1", 10);
    let off_link = at_text(&mut app, line, "보세요", 1);
    let hand = |app: &mut App| {
        let window = the::<PrimaryWindow>(app);
        app.world().get::<CursorIcon>(window).cloned()
    };

    pointer(&mut app, on_link, None);
    assert_eq!(hand(&mut app), Some(SystemCursorIcon::Pointer.into()));
    click(&mut app, on_link);
    assert!(asked(&app).is_empty(), "a second press may still come");
    wait_out_a_double_click(&mut app);
    assert_eq!(asked(&app), ["https://click.example/a?b=1"]);
    assert_eq!(times_opened(&mut app, "https://click.example/a?b=1"), 1);
    wait_out_a_double_click(&mut app);
    assert_eq!(asked(&app).len(), 1, "opened once");

    pointer(&mut app, off_link, None);
    assert_eq!(hand(&mut app), Some(SystemCursorIcon::Default.into()));
    click(&mut app, off_link);
    wait_out_a_double_click(&mut app);
    assert_eq!(asked(&app).len(), 1, "a click beside a link opens nothing");
}

#[test]
fn a_double_click_on_a_link_selects_a_word_and_a_drag_from_it_selects_and_neither_opens() {
    let line = "https://double.example/word 끝";
    let mut app = sent(line);
    let on_link = at_text(&mut app, line, "word", 1);
    click(&mut app, on_link);
    click(&mut app, on_link);
    wait_out_a_double_click(&mut app);
    assert!(asked(&app).is_empty(), "a double-click opens nothing");
    let selected = app.world().resource::<ConversationSelection>().clone();
    assert!(!selected.is_empty(), "it selects a word");

    let to = at_text(&mut app, line, "끝", 1);
    pointer(&mut app, on_link, Some(ButtonState::Pressed));
    pointer(&mut app, (on_link + to) / 2.0, None);
    pointer(&mut app, to, Some(ButtonState::Released));
    wait_out_a_double_click(&mut app);
    assert!(asked(&app).is_empty(), "a drag opens nothing");
    assert_ne!(
        *app.world().resource::<ConversationSelection>(),
        selected,
        "it selects"
    );
}

#[test]
fn a_link_broken_across_wrapped_lines_opens_whole_from_either_line() {
    let path = "segment/".repeat(20);
    let address = format!("https://wrapped.example/{path}end");
    let line = format!("긴 링크 {address} 끝");
    let mut app = sent(&line);
    let first = at_text(&mut app, &line, &address, 2);
    let last = at_text(&mut app, &line, &address, address.len() - 2);
    assert!(last.y > first.y + 10.0, "the link wraps: {first} {last}");
    for at in [first, last] {
        click(&mut app, at);
        wait_out_a_double_click(&mut app);
    }
    assert_eq!(asked(&app), [address.clone(), address]);
}

/// Taps `key` with nothing held, and runs the frame.
fn key(app: &mut App, key_code: KeyCode, logical: Key) {
    tap(app, key_code, logical);
    app.update();
}

/// The focused link's text, as drawn: the span filled in the focus ring's colour.
fn focused_link(app: &mut App) -> Option<String> {
    let row = row_at(app, 0);
    let world = app.world();
    let ring = world.resource::<Theme>().palette().focus_ring;
    marked_spans(world, text_of_row(world, row))
        .into_iter()
        .find(|(_, fill)| *fill == ring)
        .map(|(text, _)| text)
}

#[test]
fn right_and_left_walk_a_messages_links_and_enter_opens_the_one_the_keyboard_is_on() {
    let line = "https://one.example 그리고 https://two.example";
    let mut app = sent(line);
    // Into the conversation, on the newest message (the reply), then up to the line sent.
    chord(&mut app, &[KeyCode::ShiftLeft], KeyCode::Tab, Key::Tab);
    app.update();
    key(&mut app, KeyCode::ArrowUp, Key::ArrowUp);
    assert_eq!(focused_link(&mut app), None);
    let right = |app: &mut App| key(app, KeyCode::ArrowRight, Key::ArrowRight);
    let left = |app: &mut App| key(app, KeyCode::ArrowLeft, Key::ArrowLeft);
    right(&mut app);
    assert_eq!(
        focused_link(&mut app).as_deref(),
        Some("https://one.example")
    );
    right(&mut app);
    right(&mut app);
    assert_eq!(
        focused_link(&mut app).as_deref(),
        Some("https://two.example"),
        "the last stays the last"
    );
    key(&mut app, KeyCode::Enter, Key::Enter);
    assert_eq!(asked(&app), ["https://two.example"]);
    left(&mut app);
    left(&mut app);
    assert_eq!(focused_link(&mut app), None, "back on the message itself");
    key(&mut app, KeyCode::Enter, Key::Enter);
    assert_eq!(asked(&app).len(), 1, "Enter on a message opens nothing");
    right(&mut app);
    // Back in the field, the link is drawn as any other, as the ring goes; back in the
    // conversation, on it again.
    key(&mut app, KeyCode::Tab, Key::Tab);
    assert_eq!(focused_link(&mut app), None, "not while typing");
    chord(&mut app, &[KeyCode::ShiftLeft], KeyCode::Tab, Key::Tab);
    app.update();
    assert_eq!(
        focused_link(&mut app).as_deref(),
        Some("https://one.example")
    );
    key(&mut app, KeyCode::ArrowDown, Key::ArrowDown);
    assert_eq!(
        app.world().resource::<MessageFocus>().link(),
        None,
        "another message starts on itself"
    );
    assert_eq!(logged(&app).len(), 2, "no key sent anything");
}

fn menu_items(app: &App) -> Vec<&'static str> {
    let menu = app.world().resource::<ContextMenu>();
    menu.items()
        .iter()
        .map(|item| item.command.label())
        .collect()
}

#[test]
fn the_menu_on_a_link_opens_it_and_copies_its_address_and_elsewhere_has_neither() {
    let line = "메뉴 https://menu.example/x 끝";
    let mut app = sent(line);
    let on_link = at_text(&mut app, line, "https://menu.example/x", 5);
    buttons(
        &mut app,
        on_link,
        MouseButton::Right,
        &[ButtonState::Pressed],
    );
    let items = menu_items(&app);
    assert_eq!(items[..2], ["링크 열기", "링크 주소 복사"]);
    // 링크 주소 복사, by the keys: Down to it, Enter.
    key(&mut app, KeyCode::ArrowDown, Key::ArrowDown);
    key(&mut app, KeyCode::ArrowDown, Key::ArrowDown);
    key(&mut app, KeyCode::Enter, Key::Enter);
    assert_eq!(copied(&mut app), ["https://menu.example/x"]);
    let notice = the::<CopiedNotice>(&mut app);
    assert_eq!(
        app.world().get::<Text>(notice).unwrap().0,
        ADDRESS_COPIED_NOTICE
    );
    assert!(asked(&app).is_empty());

    buttons(
        &mut app,
        on_link,
        MouseButton::Right,
        &[ButtonState::Pressed],
    );
    key(&mut app, KeyCode::ArrowDown, Key::ArrowDown);
    key(&mut app, KeyCode::Enter, Key::Enter);
    assert_eq!(asked(&app), ["https://menu.example/x"], "링크 열기");

    let beside = at_text(&mut app, line, "끝", 0);
    buttons(
        &mut app,
        beside,
        MouseButton::Right,
        &[ButtonState::Pressed],
    );
    let items = menu_items(&app);
    assert!(
        !items.contains(&"링크 열기") && items.contains(&"메시지 복사"),
        "{items:?}"
    );
    key(&mut app, KeyCode::Escape, Key::Escape);

    // From the keyboard, on the link it is on.
    chord(&mut app, &[KeyCode::ShiftLeft], KeyCode::Tab, Key::Tab);
    app.update();
    key(&mut app, KeyCode::ArrowUp, Key::ArrowUp);
    key(&mut app, KeyCode::ArrowRight, Key::ArrowRight);
    chord(&mut app, &[KeyCode::ShiftLeft], KeyCode::F10, Key::F10);
    app.update();
    assert_eq!(menu_items(&app)[..2], ["링크 열기", "링크 주소 복사"]);
    assert_eq!(
        MenuCommand::LINK.map(MenuCommand::label),
        ["링크 열기", "링크 주소 복사"]
    );
}

/// Asks, as a screen reader does, for `action` on `node`.
fn request(app: &mut App, action: Action, node: Entity) {
    app.world_mut().write_message(ActionRequest(Request {
        action,
        target_tree: TreeId::ROOT,
        target_node: NodeId(node.to_bits()),
        data: None,
    }));
    app.update();
}

#[test]
fn a_reader_gets_each_link_as_a_link_node_that_takes_focus_and_opens() {
    let line = "https://reader.example/a 와 www.reader.example";
    let mut app = sent(line);
    // As Bevy's window backend does once assistive technology asks for the tree: the rows on
    // screen are described from then on.
    let requested = AccessibilityRequested::default();
    requested.set(true);
    app.insert_resource(requested);
    app.update();
    let world = app.world_mut();
    let mut nodes: Vec<(Entity, ReaderLink, String, String)> = world
        .query::<(Entity, &ReaderLink, &AccessibilityNode)>()
        .iter(world)
        .filter(|(_, link, _)| link.place == 0)
        .map(|(entity, link, node)| {
            assert_eq!(node.role(), AccessRole::Link);
            assert!(node.supports_action(Action::Click) && node.supports_action(Action::Focus));
            let label = node.label().unwrap().to_owned();
            (entity, *link, label, node.url().unwrap().to_owned())
        })
        .collect();
    nodes.sort_by_key(|(_, link, ..)| link.index);
    let named: Vec<(&str, &str)> = (nodes.iter())
        .map(|(_, _, label, url)| (label.as_str(), url.as_str()))
        .collect();
    assert_eq!(
        named,
        [
            ("https://reader.example/a", "https://reader.example/a"),
            ("www.reader.example", "https://www.reader.example")
        ]
    );
    let (second, ..) = nodes[1];
    assert_eq!(
        app.world().get::<ChildOf>(second).unwrap().parent(),
        nodes[1].1.row,
        "a node of the row's"
    );
    request(&mut app, Action::Focus, second);
    app.update();
    assert_eq!(app.world().resource::<InputFocus>().get(), Some(second));
    assert_eq!(app.world().resource::<MessageFocus>().link(), Some(1));
    request(&mut app, Action::Click, second);
    assert_eq!(asked(&app), ["https://www.reader.example"]);
    // Keys go on working from the link: Left, back to the message's first link, takes focus
    // there.
    key(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft);
    app.update();
    assert_eq!(app.world().resource::<InputFocus>().get(), Some(nodes[0].0));
}

#[test]
fn only_web_and_mail_addresses_are_ever_opened() {
    let mut app = sent("안녕하세요");
    for address in [
        "javascript:alert(1)",
        "file:///etc/passwd",
        "data:text/html,hi",
        "ssh://refused.example",
        "https",
    ] {
        app.world_mut().write_message(OpenLink(address.to_owned()));
        app.update();
        assert_eq!(times_opened(&mut app, address), 0, "{address}");
        assert!(!links::may_open(address));
        assert!(links::open::open(address).is_err(), "{address}");
    }
    for address in [
        "https://a.example",
        "HTTP://b.example",
        "mailto:c@d.example",
    ] {
        assert!(links::may_open(address), "{address}");
    }
}

fn cannot_open(_: &str) -> Result<&'static str, String> {
    Err("no browser here".to_owned())
}

#[test]
fn a_link_that_cannot_be_opened_is_a_notice_that_readers_hear_and_the_next_key_takes_away() {
    let mut app = sent("https://fails.example");
    app.insert_resource(LinkOpener(cannot_open));
    let notice = the::<LinkNotice>(&mut app);
    let display = |app: &App| app.world().get::<Node>(notice).unwrap().display;
    app.world_mut()
        .write_message(OpenLink("https://fails.example".to_owned()));
    let start = Instant::now();
    while display(&app) == Display::None && start.elapsed() < Duration::from_secs(2) {
        app.update();
    }
    assert_eq!(display(&app), Display::Flex);
    assert_eq!(
        app.world().get::<Text>(notice).unwrap().0,
        OPEN_FAILED_NOTICE
    );
    // After the reply, which was said a moment before.
    after_the_gap(&mut app);
    app.update();
    assert_eq!(
        said_about(&mut app, Topic::Link),
        [(
            Some(OPEN_FAILED_NOTICE.to_owned()),
            Some(accesskit::Live::Polite)
        )]
    );
    key(&mut app, KeyCode::KeyA, Key::Character("a".into()));
    assert_eq!(display(&app), Display::None);
}
