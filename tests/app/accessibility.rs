//! What a screen reader is told: the AccessKit tree the window backend sends the platform, read
//! back through `accesskit_consumer`, the library AccessKit's Linux adapter builds its AT-SPI
//! objects and events from. (The real AT-SPI client is in `tests/window.rs`.)

use crate::common;

use accesskit::{Live, Node as AccessNode, NodeId, Role, Tree, TreeId, TreeUpdate};
use accesskit_consumer::{Node as ReadNode, TreeChangeHandler, common_filter};
use std::time::Duration;

use agent_chat::{a11y::FocusSpeaks, chat::REPLIES, view::speech::GAP};
use bevy::{a11y::AccessibilityNode, input::keyboard::Key, input_focus::InputFocus, prelude::*};
use common::{
    after_the_gap, fix_pick, headless_app, input_entity, key_in, on_a_lagging_clock, press_enter,
    submit, tap, tap_down, tap_up, type_text, write_submit_messages,
};

/// The window's node id; headless apps have no window entity.
const WINDOW: NodeId = NodeId(u64::MAX);

/// The update Bevy's window backend sends each frame, assembled by its rule (bevy_winit 0.19,
/// `update_accessibility_nodes`): nothing at all unless [`InputFocus`] names an entity with an
/// [`AccessibilityNode`]; then every such entity, with those of its child entities that have
/// one as its children, the window as the root over the rest, and focus on the focused entity.
fn sent_update(app: &mut App) -> TreeUpdate {
    let world = app.world_mut();
    let focus = world
        .get_resource::<InputFocus>()
        .and_then(InputFocus::get)
        .expect("Bevy sends no tree unless InputFocus names an entity");
    assert!(
        world.get::<AccessibilityNode>(focus).is_some(),
        "Bevy sends no tree while the focused entity has no AccessibilityNode"
    );
    let id = |entity: Entity| NodeId(entity.to_bits());
    let mut nodes = Vec::new();
    let mut top = Vec::new();
    let mut query = world.query::<(
        Entity,
        &AccessibilityNode,
        Option<&Children>,
        Option<&ChildOf>,
    )>();
    for (entity, node, children, parent) in query.iter(world) {
        let mut node = (**node).clone();
        for child in children.into_iter().flatten() {
            if world.get::<AccessibilityNode>(*child).is_some() {
                node.push_child(id(*child));
            }
        }
        if parent.is_none_or(|p| world.get::<AccessibilityNode>(p.parent()).is_none()) {
            top.push(id(entity));
        }
        nodes.push((id(entity), node));
    }
    let mut window = AccessNode::new(Role::Window);
    window.set_label("agent-chat");
    window.set_children(top);
    nodes.insert(0, (WINDOW, window));
    TreeUpdate {
        nodes,
        tree: None,
        tree_id: TreeId::ROOT,
        focus: id(focus),
    }
}

/// The tree as a platform adapter holds it after the app's first frames.
fn reader_tree(app: &mut App) -> accesskit_consumer::Tree {
    let mut update = sent_update(app);
    update.tree = Some(Tree::new(WINDOW));
    accesskit_consumer::Tree::new(update, true)
}

/// The visible children of `node`, as AT-SPI lists them.
fn shown_children<'a>(node: &ReadNode<'a>) -> Vec<ReadNode<'a>> {
    node.filtered_children(common_filter).collect()
}

fn find<'a>(node: &ReadNode<'a>, role: Role) -> ReadNode<'a> {
    shown_children(node)
        .into_iter()
        .find(|child| child.role() == role)
        .unwrap_or_else(|| panic!("no {role:?} under {:?}", node.label()))
}

#[test]
fn the_tree_goes_out_with_the_labelled_entry_focused() {
    let mut app = headless_app();
    let field = input_entity(&mut app);
    assert_eq!(
        app.world().resource::<InputFocus>().get(),
        Some(field),
        "the field has input focus from the first frame"
    );

    let tree = reader_tree(&mut app);
    let state = tree.state();
    let focus = state.focus().expect("something is focused");
    assert_eq!(
        focus.role(),
        Role::MultilineTextInput,
        "keyboard focus is a text entry of many lines"
    );
    assert_eq!(focus.label().as_deref(), Some("메시지 입력"));
    assert!(
        focus.supports_text_ranges(),
        "the entry offers its text (AT-SPI's Text interface)"
    );
    // In the order Bevy's query meets them, which is not the screen's.
    let mut roles: Vec<_> = shown_children(&state.root())
        .iter()
        .map(|node| (node.role(), node.label()))
        .collect();
    roles.sort_by_key(|(role, _)| *role != Role::List);
    assert_eq!(
        roles,
        [
            (Role::List, Some("대화".to_owned())),
            (Role::MultilineTextInput, Some("메시지 입력".to_owned()))
        ],
        "the window holds the conversation list and the entry, nothing else"
    );
}

#[test]
fn the_reader_gets_the_fields_text_and_caret_as_it_changes() {
    let mut app = headless_app();
    type_text(&mut app, "안녕 bevy");
    tap(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft);
    tap(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft);
    app.update();

    let tree = reader_tree(&mut app);
    let entry = tree.state().focus().unwrap();
    assert_eq!(entry.document_range().text(), "안녕 bevy");
    assert_eq!(entry.value().as_deref(), Some("안녕 bevy"));
    let caret = entry.text_selection_focus().expect("the entry has a caret");
    assert_eq!(
        caret.to_global_usv_index(),
        5,
        "the caret is two characters from the end, as on screen"
    );

    tap_down(&mut app, KeyCode::ShiftLeft);
    tap(&mut app, KeyCode::Home, Key::Home);
    tap_up(&mut app, KeyCode::ShiftLeft);
    app.update();
    let tree = reader_tree(&mut app);
    let entry = tree.state().focus().unwrap();
    assert_eq!(
        entry.text_selection().map(|range| range.text()).as_deref(),
        Some("안녕 be"),
        "the reader gets the selection Shift+Home made"
    );

    press_enter(&mut app);
    let tree = reader_tree(&mut app);
    let entry = tree.state().focus().unwrap();
    assert_eq!(
        entry.document_range().text(),
        "",
        "Enter empties it for the reader too"
    );
    assert_eq!(
        entry.text_selection_focus().unwrap().to_global_usv_index(),
        0
    );
}

#[test]
fn rows_read_as_their_text_in_order_with_their_place_among_all_messages() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0, 2]);
    submit(&mut app, "첫 줄");
    submit(&mut app, "  둘째 줄 ");

    let tree = reader_tree(&mut app);
    let state = tree.state();
    let list = find(&state.root(), Role::List);
    assert_eq!(list.description().as_deref(), Some("메시지 4개"));
    let items: Vec<_> = shown_children(&list)
        .iter()
        .map(|item| {
            (
                item.role(),
                item.label().unwrap(),
                item.position_in_set(),
                item.size_of_set_from_container(&common_filter),
            )
        })
        .collect();
    assert_eq!(
        items,
        [
            (Role::ListItem, "사용자: 첫 줄".to_owned(), Some(0), Some(4)),
            (
                Role::ListItem,
                format!("에이전트: {}", REPLIES[0]),
                Some(1),
                Some(4)
            ),
            (
                Role::ListItem,
                "사용자: 둘째 줄".to_owned(),
                Some(2),
                Some(4)
            ),
            (
                Role::ListItem,
                format!("에이전트: {}", REPLIES[2]),
                Some(3),
                Some(4)
            ),
        ]
    );
}

/// What a tree's changes say to readers: the announcements AccessKit's Linux adapter makes (a
/// live node that appears, or a live node whose name changes; accesskit_atspi_common 0.19), and
/// the new descriptions of the focused node, which are what Orca 43 speaks of them.
#[derive(Default)]
struct Heard {
    announcements: Vec<String>,
    on_the_focus: Vec<String>,
}

impl TreeChangeHandler for Heard {
    fn node_added(&mut self, node: &ReadNode) {
        if node.live() != Live::Off
            && let Some(name) = node.label()
        {
            self.announcements.push(name);
        }
    }
    fn node_updated(&mut self, old: &ReadNode, new: &ReadNode) {
        if new.live() != Live::Off && new.label() != old.label() {
            self.announcements.extend(new.label());
        }
        if new.is_focused() && new.description() != old.description() {
            self.on_the_focus
                .extend(new.description().filter(|said| !said.is_empty()));
        }
    }
    fn focus_moved(&mut self, _: Option<&ReadNode>, _: Option<&ReadNode>) {}
    fn node_removed(&mut self, _: &ReadNode) {}
}

/// Runs one frame after `act`, and the announcements the frame's tree update makes. Each frame
/// also says the newest of them on the focus, for Orca 43 (`a11y::say_on_the_focus`).
fn announced(
    app: &mut App,
    tree: &mut accesskit_consumer::Tree,
    act: impl FnOnce(&mut App),
) -> Vec<String> {
    let heard = heard_in(app, tree, act);
    assert_eq!(
        heard.on_the_focus,
        Vec::from_iter(heard.announcements.last().cloned()),
        "the focused node says the frame's newest announcement, and only that"
    );
    heard.announcements
}

/// Runs one frame after `act`, and what the frame's tree update says.
fn heard_in(
    app: &mut App,
    tree: &mut accesskit_consumer::Tree,
    act: impl FnOnce(&mut App),
) -> Heard {
    act(app);
    let mut heard = Heard::default();
    tree.update_and_process_changes(sent_update(app), &mut heard);
    heard
}

/// Orca 46 and later hear announcements, and a change of the focus's description too: once AT-SPI's
/// registry says the readers listening hear announcements (`a11y/registry.rs`), nothing goes on
/// the focus, or they said each thing twice. And what comes less than 150 ms after the app's
/// last announcement, which Orca 48 drops, waits until that time has passed; of what waits about
/// one thing, the newest is said.
#[test]
fn a_reader_that_hears_announcements_hears_each_once_and_none_comes_too_soon() {
    let mut app = headless_app();
    app.insert_resource(FocusSpeaks(false));
    on_a_lagging_clock(&mut app, Duration::from_millis(16));
    fix_pick(&mut app, &[1, 2]);
    let mut tree = reader_tree(&mut app);

    let heard = heard_in(&mut app, &mut tree, |app| submit(app, "하나"));
    assert_eq!(heard.announcements, [format!("에이전트: {}", REPLIES[1])]);
    assert_eq!(
        heard.on_the_focus,
        Vec::<String>::new(),
        "nothing on the focus"
    );

    // The next reply a frame later waits.
    let heard = heard_in(&mut app, &mut tree, |app| submit(app, "둘"));
    assert_eq!(
        heard.announcements,
        Vec::<String>::new(),
        "too soon: it waits"
    );
    let mut heard = Vec::new();
    let mut frames = 0;
    while heard.is_empty() {
        heard.extend(heard_in(&mut app, &mut tree, App::update).announcements);
        frames += 1;
        assert!(frames < 20, "said once the gap has passed");
    }
    assert_eq!(heard, [format!("에이전트: {}", REPLIES[2])]);
    assert!(
        Duration::from_millis(16) * (frames + 2) >= GAP,
        "not before {GAP:?}: {frames} frames"
    );
    for _ in 0..20 {
        let heard = heard_in(&mut app, &mut tree, App::update);
        assert_eq!(heard.announcements, Vec::<String>::new(), "each once");
    }
}

#[test]
fn orca_43_hears_each_reply_on_the_field_even_the_same_reply_twice() {
    let mut app = headless_app();
    fix_pick(&mut app, &[2, 2]);
    let mut tree = reader_tree(&mut app);
    let reply = format!("에이전트: {}", REPLIES[2]);
    let field_description = |tree: &accesskit_consumer::Tree| {
        let state = tree.state();
        let field = state.focus().expect("focus is in the field");
        assert_eq!(field.role(), Role::MultilineTextInput);
        field.description()
    };

    assert_eq!(
        announced(&mut app, &mut tree, |app| submit(app, "하나")),
        [reply.as_str()]
    );
    assert_eq!(field_description(&tree), Some(reply.clone()));
    announced(&mut app, &mut tree, App::update);
    assert_eq!(
        field_description(&tree),
        None,
        "the field's description is its own again the frame after"
    );
    after_the_gap(&mut app);
    assert_eq!(
        announced(&mut app, &mut tree, |app| submit(app, "둘")),
        [reply.as_str()],
        "the same reply again is a change again"
    );
    assert_eq!(field_description(&tree), Some(reply));
}

#[test]
fn each_reply_is_announced_once_a_burst_once_and_the_users_line_never() {
    let mut app = headless_app();
    fix_pick(&mut app, &[1, 3, 4]);
    let mut tree = reader_tree(&mut app);

    assert_eq!(
        announced(&mut app, &mut tree, |app| submit(app, "안녕")),
        [format!("에이전트: {}", REPLIES[1])],
        "the reply is read out, the user's own line is not"
    );
    assert_eq!(
        announced(&mut app, &mut tree, App::update),
        Vec::<String>::new(),
        "nothing is read again while nothing changes"
    );
    type_text(&mut app, "입력 중");
    assert_eq!(
        announced(&mut app, &mut tree, App::update),
        Vec::<String>::new(),
        "typing announces nothing"
    );
    after_the_gap(&mut app);
    let lines = vec!["한꺼번에"; 500];
    let heard = announced(&mut app, &mut tree, |app| {
        write_submit_messages(app, &lines)
    });
    assert_eq!(
        heard.len(),
        1,
        "500 replies in one frame are one announcement, the newest: {heard:?}"
    );
}

#[test]
fn scrolled_back_the_reader_finds_the_first_rows_with_their_place_and_hears_nothing_old() {
    let mut app = headless_app();
    fix_pick(&mut app, &[4]);
    let lines: Vec<String> = (0..1000).map(|i| format!("줄 {i}")).collect();
    write_submit_messages(&mut app, &lines);
    let mut tree = reader_tree(&mut app);

    let heard = announced(&mut app, &mut tree, |app| {
        tap_down(app, KeyCode::ControlLeft);
        tap_down(app, KeyCode::Home);
        app.update();
    });
    assert_eq!(
        heard,
        Vec::<String>::new(),
        "old replies mounted again are not read out"
    );
    let state = tree.state();
    let list = find(&state.root(), Role::List);
    assert_eq!(list.description().as_deref(), Some("메시지 2000개"));
    let items = shown_children(&list);
    assert!(
        items.len() > 2 && items.len() < 100,
        "the rows in and near the view: {}",
        items.len()
    );
    for (i, item) in items.iter().enumerate() {
        assert_eq!(item.position_in_set(), Some(i), "item {i} in log order");
        assert_eq!(item.size_of_set_from_container(&common_filter), Some(2000));
    }
    assert_eq!(items[0].label().as_deref(), Some("사용자: 줄 0"));
}

#[test]
fn the_find_bar_is_an_entry_with_its_text_and_its_count_is_announced() {
    let mut app = headless_app();
    submit(&mut app, "찾아 줘");
    submit(&mut app, "또 찾아");
    // The second reply is said once the gap after the first has passed; the count, the gap after.
    after_the_gap(&mut app);
    app.update();
    after_the_gap(&mut app);
    let mut tree = reader_tree(&mut app);
    let heard = announced(&mut app, &mut tree, |app| {
        tap_down(app, KeyCode::ControlLeft);
        tap(app, KeyCode::KeyF, Key::Character("f".into()));
        tap_up(app, KeyCode::ControlLeft);
        app.update();
    });
    assert_eq!(heard, Vec::<String>::new(), "no count before a query");
    let state = tree.state();
    let entry = state.focus().expect("focus is in the bar");
    assert_eq!(
        (entry.role(), entry.label().as_deref()),
        (Role::SearchInput, Some("대화에서 찾기"))
    );
    // What AccessKit's Linux adapter reads when a text node appears: a text run the field has
    // not described yet (it is made mid-frame) must still read as text, not panic.
    assert_eq!(entry.document_range().text(), "");

    // Frame by frame: each frame's newest announcement is said on the focus in that frame only.
    let mut heard = announced(&mut app, &mut tree, |app| key_in(app, "찾"));
    for _ in 0..4 {
        heard.extend(announced(&mut app, &mut tree, App::update));
    }
    assert_eq!(heard, ["1/2"], "the count is read out once it is known");
    let state = tree.state();
    assert_eq!(state.focus().unwrap().document_range().text(), "찾");
}

#[test]
fn a_rows_text_is_text_a_reader_moves_through_and_what_it_selects_is_selected() {
    let mut app = headless_app();
    // As Bevy's window backend does once assistive technology asks for the tree.
    let requested = bevy::a11y::AccessibilityRequested::default();
    requested.set(true);
    app.insert_resource(requested);
    fix_pick(&mut app, &[0]);
    submit(&mut app, "서울역 3번 출구에서 만나요");
    app.update();
    let tree = reader_tree(&mut app);
    let state = tree.state();
    let list = find(&state.root(), Role::List);
    let item = shown_children(&list).into_iter().next().expect("a row");
    let text = find(&item, Role::Label);
    assert!(
        text.supports_text_ranges(),
        "the row's text offers AT-SPI's Text interface"
    );
    assert_eq!(
        text.document_range().text(),
        "사용자: 서울역 3번 출구에서 만나요"
    );

    // The reader selects `3번 출구`: characters 9 to 14 of the row's text.
    let row = common::row_entities(app.world_mut())[0];
    let run = common::text_of_row(app.world(), row);
    let bubble = app.world().get::<ChildOf>(run).unwrap().parent();
    let at = |character_index| accesskit::TextPosition {
        node: NodeId(run.to_bits()),
        character_index,
    };
    app.world_mut()
        .write_message(bevy::a11y::ActionRequest(accesskit::ActionRequest {
            action: accesskit::Action::SetTextSelection,
            target_tree: TreeId::ROOT,
            target_node: NodeId(bubble.to_bits()),
            data: Some(accesskit::ActionData::SetTextSelection(
                accesskit::TextSelection {
                    anchor: at(9),
                    focus: at(14),
                },
            )),
        }));
    app.update();
    let selection = app
        .world()
        .resource::<agent_chat::view::selection::ConversationSelection>();
    let body = "서울역 3번 출구에서 만나요";
    assert_eq!(
        selection.text(|_| Some((agent_chat::chat::Role::User, body))),
        "3번 출구"
    );
}

#[test]
fn without_a_reader_rows_carry_no_text_nodes() {
    let mut app = headless_app();
    submit(&mut app, "아무도 듣지 않을 때");
    app.update();
    let world = app.world_mut();
    for row in common::row_entities(world) {
        let text = common::text_of_row(world, row);
        let bubble = world.get::<ChildOf>(text).unwrap().parent();
        assert!(
            world.get::<AccessibilityNode>(text).is_none()
                && world.get::<AccessibilityNode>(bubble).is_none(),
            "no reader asked: Bevy would keep their bounds each frame for nobody"
        );
    }
}

#[test]
fn the_reader_gets_one_run_a_line_and_reads_the_line_the_caret_is_on() {
    let mut app = headless_app();
    type_text(&mut app, "first line");
    tap_down(&mut app, KeyCode::ShiftLeft);
    tap(&mut app, KeyCode::Enter, Key::Enter);
    tap_up(&mut app, KeyCode::ShiftLeft);
    key_in(&mut app, "second line");
    app.update();
    app.update();
    let tree = reader_tree(&mut app);
    let state = tree.state();
    let entry = state.focus().unwrap();
    assert_eq!(entry.document_range().text(), "first line\nsecond line");
    let caret = entry.text_selection_focus().expect("a caret");
    let line = |at: accesskit_consumer::TextPosition| {
        (
            at.backward_to_line_start().to_global_usv_index(),
            at.forward_to_line_end().to_global_usv_index(),
        )
    };
    assert_eq!(
        (caret.to_global_usv_index(), line(caret)),
        (22, (11, 22)),
        "the caret at the end, on the second line"
    );
    let lines: Vec<String> = (0..2)
        .filter_map(|index| entry.line_range_from_index(index))
        .map(|range| range.text())
        .collect();
    assert_eq!(
        lines,
        ["first line\n", "second line"],
        "a line a run, break and all"
    );
}
