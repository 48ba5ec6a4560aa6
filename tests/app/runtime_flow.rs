//! The spec's verification list, one test per item, through the real systems of two apps: the
//! full app, and the core example (`examples/core.rs`), which does the spec's steps and nothing
//! more. One list of tests, two apps: [`spec_list!`] runs each test once on each (`full_app::…`,
//! `core_example::…`). Each types into the field and presses Enter as a person does
//! (`common::submit`), and asserts the whole observable state together: the session record, the
//! message log (role and body), and the rows on screen (label, style class, alignment, border
//! side, order).
//!
//! | the spec's check | test |
//! |---|---|
//! | one and several inputs: normalized, answered, labelled, in order | `one_and_several_inputs_are_normalized_answered_and_shown_in_order` |
//! | the pick, fixed: called once per input, with the fixed list | `the_pick_is_called_exactly_once_per_valid_input_with_the_fixed_list` |
//! | blank input: no pick, no message, no screen change | `blank_input_picks_nothing_and_changes_nothing` |
//! | labels, classes, alignment and border side by role | `labels_classes_alignment_and_border_sides_follow_the_role_alone` |
//! | the exit key requests an exit | `escape_requests_app_exit_and_creates_no_state` |
//! | the input cleared every time; each reply right after its input | `the_input_is_cleared_after_every_submission_and_each_reply_follows_its_message` |
//!
//! Escape leaves a submission of the same frame whole, in both apps
//! (`escape_in_the_same_frame_as_a_submission_keeps_the_submission_whole`). Two more hold the
//! full app's list to the flow's other promises: nothing earlier ever changes, though its rows
//! are reused (`earlier_messages_and_rows_never_change`), and the view follows the newest
//! (`a_submission_scrolls_the_conversation_to_its_end_in_the_same_frame`; the example's scroll
//! is `the_core_examples_conversation_scrolls_to_the_newest_row`, laid out). What a screen
//! reader hears of the rows is `tests/app/accessibility.rs`'s.

use crate::common;

use agent_chat::{
    chat::{REPLIES, ROW_BORDER, Role, RowClass},
    view::MessageRow,
};
use bevy::{
    input::{InputPlugin, keyboard::Key},
    prelude::*,
    text::TextIterScratch,
    window::{WindowEvent, WindowResolution},
};
use common::*;

/// The core example (`examples/core.rs`) as a headless test builds it, after its first frame:
/// the same recipe as `common::headless_app`'s, with the example's plugin.
pub(crate) fn core_example_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), InputPlugin))
        .init_asset::<Font>()
        .init_resource::<TextIterScratch>()
        // The window backend's stream, which `deliver` writes each key to as well (the full app
        // registers it for its field; the example's field reads the keys alone).
        .add_message::<WindowEvent>()
        .add_plugins(crate::core_example::plugin);
    app.update();
    app
}

/// A row as the spec checks it: class, alignment, border, and the text with its label.
type Row = (RowClass, JustifyContent, UiRect, String);

/// An app the spec's flow runs in.
trait UnderTest {
    /// The app, headless, after its first (start-up) frame.
    fn app() -> App;
    /// The conversation's rows, top to bottom.
    fn shown(app: &mut App) -> Vec<Row>;
    /// The message each row shows, top to bottom, where a row says so: the full app's rows are
    /// reused for other messages as the view moves, so each names its message; the example's
    /// are made once per message, in log order.
    fn shown_messages(app: &mut App) -> Option<Vec<Entity>>;
}

/// The full app: `AgentChatPlugin`, with its own field and its virtual list.
struct FullApp;

impl UnderTest for FullApp {
    fn app() -> App {
        headless_app()
    }

    fn shown(app: &mut App) -> Vec<Row> {
        rows(app)
            .into_iter()
            .map(|row| (row.class, row.justify, row.border, row.text))
            .collect()
    }

    fn shown_messages(app: &mut App) -> Option<Vec<Entity>> {
        Some(rows(app).iter().map(|row| row.message).collect())
    }
}

/// The core example: the widget's own field, and one row per message under a scrolling node.
struct CoreExample;

impl UnderTest for CoreExample {
    fn app() -> App {
        core_example_app()
    }

    fn shown(app: &mut App) -> Vec<Row> {
        let world = app.world_mut();
        let (_, in_order) = example_rows(world);
        let rows = world
            .query_filtered::<(), With<RowClass>>()
            .iter(world)
            .count();
        assert_eq!(in_order.len(), rows, "the list holds the rows only");
        in_order
            .into_iter()
            .map(|row| {
                let [bubble] = world.get::<Children>(row).unwrap()[..] else {
                    panic!("a row has exactly one child, its bubble");
                };
                (
                    *world.get::<RowClass>(row).unwrap(),
                    world.get::<Node>(row).unwrap().justify_content,
                    world.get::<Node>(bubble).unwrap().border,
                    world.get::<Text>(bubble).unwrap().0.clone(),
                )
            })
            .collect()
    }

    fn shown_messages(_: &mut App) -> Option<Vec<Entity>> {
        None
    }
}

/// The core example's conversation node, and the rows mounted in it, in order.
fn example_rows(world: &mut World) -> (Entity, Vec<Entity>) {
    let list = world
        .query_filtered::<Entity, With<crate::core_example::Conversation>>()
        .single(world)
        .expect("the example's conversation");
    let rows = world
        .get::<Children>(list)
        .map(|rows| rows.to_vec())
        .unwrap_or_default();
    (list, rows)
}

/// Each test of the list, once on each app.
macro_rules! spec_list {
    ($($test:ident),* $(,)?) => {
        mod full_app {
            $(#[test]
            fn $test() {
                super::$test::<super::FullApp>();
            })*
        }
        mod core_example {
            $(#[test]
            fn $test() {
                super::$test::<super::CoreExample>();
            })*
        }
    };
}

spec_list!(
    one_and_several_inputs_are_normalized_answered_and_shown_in_order,
    the_pick_is_called_exactly_once_per_valid_input_with_the_fixed_list,
    blank_input_picks_nothing_and_changes_nothing,
    labels_classes_alignment_and_border_sides_follow_the_role_alone,
    escape_requests_app_exit_and_creates_no_state,
    escape_in_the_same_frame_as_a_submission_keeps_the_submission_whole,
    the_input_is_cleared_after_every_submission_and_each_reply_follows_its_message,
);

/// The row a user message must produce, spelled out rather than taken from the theme table.
fn user_row(body: &str) -> Row {
    (
        RowClass::UserMessage,
        JustifyContent::FlexStart,
        UiRect::left(ROW_BORDER),
        format!("사용자: {body}"),
    )
}

/// The row an agent reply must produce.
fn agent_row(body: &str) -> Row {
    (
        RowClass::AgentReply,
        JustifyContent::FlexEnd,
        UiRect::right(ROW_BORDER),
        format!("에이전트: {body}"),
    )
}

fn one_and_several_inputs_are_normalized_answered_and_shown_in_order<A: UnderTest>() {
    let mut app = A::app();
    let calls = fix_pick(&mut app, &[2, 0, 4, 1]);

    submit(&mut app, "  안녕하세요  ");
    assert_eq!(
        recorded(&app),
        (vec!["안녕하세요".to_owned()], vec![REPLIES[2]]),
        "one submission records its trimmed input and the picked reply"
    );
    assert_eq!(
        logged(&app),
        [
            (Role::User, "안녕하세요".to_owned()),
            (Role::Agent, REPLIES[2].to_owned())
        ]
    );
    assert_eq!(
        A::shown(&mut app),
        [user_row("안녕하세요"), agent_row(REPLIES[2])]
    );

    submit(&mut app, "second line");
    // The field turns a pasted tab or newline into a space; a raw one is trimmed all the same.
    write_submit_message(&mut app, "\t셋째\n");
    submit(&mut app, " mixed 한글 and ASCII ");

    let inputs = ["안녕하세요", "second line", "셋째", "mixed 한글 and ASCII"];
    let replies = [REPLIES[2], REPLIES[0], REPLIES[4], REPLIES[1]];
    assert_eq!(pick_calls(&calls), 4, "one pick per valid input");
    assert_eq!(
        recorded(&app),
        (inputs.map(str::to_owned).to_vec(), replies.to_vec()),
        "inputs and replies are recorded in submission order, pairwise"
    );
    let expected_log: Vec<_> = inputs
        .iter()
        .zip(replies)
        .flat_map(|(input, reply)| {
            [
                (Role::User, input.to_string()),
                (Role::Agent, reply.to_owned()),
            ]
        })
        .collect();
    assert_eq!(
        logged(&app),
        expected_log,
        "each user message is followed by its reply"
    );
    let expected_rows: Vec<_> = inputs
        .iter()
        .zip(replies)
        .flat_map(|(input, reply)| [user_row(input), agent_row(reply)])
        .collect();
    assert_eq!(
        A::shown(&mut app),
        expected_rows,
        "rows mirror the log in order"
    );

    let log = app
        .world()
        .resource::<agent_chat::chat::MessageLog>()
        .entities()
        .to_vec();
    if let Some(row_messages) = A::shown_messages(&mut app) {
        assert_eq!(row_messages, log, "row i shows log entry i");
    }
}

fn the_pick_is_called_exactly_once_per_valid_input_with_the_fixed_list<A: UnderTest>() {
    let mut app = A::app();
    let calls = fix_pick(&mut app, &[3]);

    submit(&mut app, "first");
    assert_eq!(pick_calls(&calls), 1);
    submit(&mut app, "   ");
    assert_eq!(pick_calls(&calls), 1, "a blank input does not pick");
    submit(&mut app, "second");
    submit(&mut app, "");
    submit(&mut app, "third");
    assert_eq!(pick_calls(&calls), 3, "three valid inputs, three picks");

    assert_eq!(
        recorded(&app),
        (
            vec!["first".into(), "second".into(), "third".into()],
            vec![REPLIES[3]; 3]
        ),
        "the fixed pick makes the flow deterministic"
    );
    assert_eq!(A::shown(&mut app).len(), 6);
}

fn blank_input_picks_nothing_and_changes_nothing<A: UnderTest>() {
    let mut app = A::app();
    let calls = fix_pick(&mut app, &[0]);
    // Start from a conversation that already has content, so "no change" means something.
    submit(&mut app, "before");

    let records = recorded(&app);
    let log = logged(&app);
    let screen = A::shown(&mut app);
    let entities = app.world().entities().count_spawned();

    for blank in [
        "",
        " ",
        "   ",
        "\t",
        "\n",
        "\r\n",
        " \t\n \t ",
        "\u{a0}",           // no-break space
        "\u{3000}\u{3000}", // ideographic space, as a Korean keyboard types it
        "\u{2028}\u{2029}", // line and paragraph separators
    ] {
        if blank.contains(char::is_control) {
            // No keyboard types these into a one-line field (see above).
            write_submit_message(&mut app, blank);
        } else {
            submit(&mut app, blank);
        }
        assert_eq!(pick_calls(&calls), 1, "{blank:?} must not pick a reply");
        assert_eq!(recorded(&app), records, "{blank:?} must not be recorded");
        assert_eq!(logged(&app), log, "{blank:?} must not create messages");
        assert_eq!(
            A::shown(&mut app),
            screen,
            "{blank:?} must not change the screen"
        );
        assert_eq!(
            app.world().entities().count_spawned(),
            entities,
            "{blank:?} must not spawn anything"
        );
    }
}

fn labels_classes_alignment_and_border_sides_follow_the_role_alone<A: UnderTest>() {
    let mut app = A::app();
    // The user types exactly the reply they will get: identical bodies, so only the role differs.
    fix_pick(&mut app, &[0]);
    submit(&mut app, REPLIES[0]);

    let [
        (user_class, user_justify, user_border, user_text),
        (agent_class, agent_justify, agent_border, agent_text),
    ] = &A::shown(&mut app)[..]
    else {
        panic!("one submission shows two rows");
    };
    assert_eq!(*user_text, format!("사용자: {}", REPLIES[0]));
    assert_eq!(*agent_text, format!("에이전트: {}", REPLIES[0]));
    assert_eq!(*user_class, RowClass::UserMessage);
    assert_eq!(*agent_class, RowClass::AgentReply);
    assert_eq!(
        *user_justify,
        JustifyContent::FlexStart,
        "user rows sit left"
    );
    assert_eq!(
        *agent_justify,
        JustifyContent::FlexEnd,
        "agent rows sit right"
    );

    let sides = |border: UiRect| {
        [border.left, border.right, border.top, border.bottom].map(|side| side != Val::ZERO)
    };
    assert_eq!(
        sides(*user_border),
        [true, false, false, false],
        "user rows have a left border only"
    );
    assert_eq!(
        sides(*agent_border),
        [false, true, false, false],
        "agent rows have a right border only"
    );
}

fn escape_requests_app_exit_and_creates_no_state<A: UnderTest>() {
    let mut app = A::app();
    assert_eq!(app.should_exit(), None);

    tap(&mut app, KeyCode::Escape, Key::Escape);
    app.update();

    assert_eq!(app.should_exit(), Some(AppExit::Success));
    assert_eq!(recorded(&app), (vec![], vec![]), "exit records nothing");
    assert!(logged(&app).is_empty(), "exit creates no message");
    assert!(A::shown(&mut app).is_empty(), "exit shows no row");
}

fn escape_in_the_same_frame_as_a_submission_keeps_the_submission_whole<A: UnderTest>() {
    let mut app = A::app();
    fix_pick(&mut app, &[1]);

    type_text(&mut app, "마지막 말");
    tap(&mut app, KeyCode::Enter, Key::Enter);
    tap(&mut app, KeyCode::Escape, Key::Escape);
    app.update();

    assert_eq!(app.should_exit(), Some(AppExit::Success));
    assert_eq!(
        A::shown(&mut app),
        [user_row("마지막 말"), agent_row(REPLIES[1])],
        "the submission completes, message and reply, before the app stops"
    );
}

fn the_input_is_cleared_after_every_submission_and_each_reply_follows_its_message<A: UnderTest>() {
    let mut app = A::app();
    fix_pick(&mut app, &[4, 2]);

    type_text(&mut app, "hello 세계");
    assert_eq!(
        input_value(&mut app),
        "hello 세계",
        "typing reaches the widget"
    );
    press_enter(&mut app);
    assert_eq!(
        input_value(&mut app),
        "",
        "cleared after a valid submission"
    );
    assert_eq!(
        A::shown(&mut app),
        [user_row("hello 세계"), agent_row(REPLIES[4])],
        "the rows exist at the end of the frame that read Enter"
    );

    type_text(&mut app, "   ");
    press_enter(&mut app);
    assert_eq!(
        input_value(&mut app),
        "",
        "cleared after a blank submission too"
    );
    assert_eq!(
        A::shown(&mut app).len(),
        2,
        "the blank submission showed nothing"
    );

    type_text(&mut app, " 두 번째 ");
    press_enter(&mut app);
    assert_eq!(input_value(&mut app), "");
    assert_eq!(
        A::shown(&mut app),
        [
            user_row("hello 세계"),
            agent_row(REPLIES[4]),
            user_row("두 번째"),
            agent_row(REPLIES[2]),
        ],
        "each user row is immediately followed by its reply"
    );
}

#[test]
fn earlier_messages_and_rows_never_change() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0, 1, 2]);

    submit(&mut app, "one");
    let first_rows = rows(&mut app);
    let first_log = logged(&app);
    let first_row_entities = row_entities(app.world_mut());

    // Enough more that the first rows scroll out of the mounted range, and the list hands their
    // entities to newer messages: the row entities are not the messages, and are reused.
    for i in 0..40 {
        submit(&mut app, &format!("more {i}"));
    }
    let first_messages: Vec<Entity> = first_rows.iter().map(|row| row.message).collect();
    assert!(
        rows(&mut app)
            .iter()
            .all(|row| !first_messages.contains(&row.message)),
        "the first exchange is no longer mounted"
    );
    let world = app.world();
    assert!(
        first_row_entities.iter().any(|&row| world
            .get::<MessageRow>(row)
            .is_some_and(|shown| !first_messages.contains(&shown.message))),
        "a row that showed the first exchange now shows a later message"
    );
    assert_eq!(
        &logged(&app)[..2],
        &first_log[..],
        "the first messages are untouched"
    );

    // Scrolled back, the first exchange is shown exactly as it was.
    list_mut(&mut app).scroll_to(0.0);
    app.update();
    assert_eq!(
        &rows(&mut app)[..2],
        &first_rows[..],
        "the first rows read as they did"
    );
    assert_rows_show_their_messages(&mut app, "scrolled back to the start");
}

#[test]
fn a_submission_scrolls_the_conversation_to_its_end_in_the_same_frame() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0]);
    for i in 0..40 {
        submit(&mut app, &format!("earlier {i}"));
    }
    // The user scrolls up to read the first line.
    list_mut(&mut app).scroll_to(0.0);
    app.update();
    assert!(!list_mut(&mut app).follows_end());
    assert_eq!(
        rows(&mut app)[0].text,
        "사용자: earlier 0",
        "the first row is mounted"
    );

    submit(&mut app, "scroll me");

    // The full-layout test (tests/app/layout.rs) checks the newest row is then fully in view.
    assert!(list_mut(&mut app).follows_end());
    let shown = rows(&mut app);
    assert_eq!(
        shown[shown.len() - 2].text,
        "사용자: scroll me",
        "the new rows are mounted, last"
    );
}

/// The example follows the newest with Bevy's own scrolling: laid out (real UI layout, no GPU),
/// after more rows than fit, the newest row is in view at the bottom and the first is scrolled
/// out above.
#[test]
fn the_core_examples_conversation_scrolls_to_the_newest_row() {
    let mut app = engine_app(WindowResolution::new(800, 600));
    app.add_plugins(crate::core_example::plugin);
    app.finish();
    app.cleanup();
    app.update();
    fix_pick(&mut app, &[0]);
    for i in 0..30 {
        submit(&mut app, &format!("줄 {i}"));
    }
    // The bundled font loads from assets/ in the background; the rows take their height once
    // it has.
    let (list, rows) = example_rows(app.world_mut());
    assert_eq!(rows.len(), 60);
    for _ in 0..200 {
        app.update();
        let node = app.world().get::<ComputedNode>(list).unwrap();
        if node.content_size().y > 2.0 * node.size().y {
            break;
        }
    }
    app.update();
    let view = rect(&mut app, list);
    let newest = rect(&mut app, rows[59]);
    let first = rect(&mut app, rows[0]);
    assert!(
        view.height() > 0.0 && newest.height() > 0.0,
        "laid out: the view {view:?}, the newest row {newest:?}"
    );
    assert!(
        newest.max.y <= view.max.y + 0.5 && newest.min.y >= view.min.y,
        "the newest row {newest:?} is in the view {view:?}"
    );
    assert!(
        first.max.y < view.min.y,
        "the first row {first:?} is scrolled out above the view {view:?}"
    );
}
