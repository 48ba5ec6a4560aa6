//! agent-chat: a Bevy ECS chat app with a small core. Type a line, press Enter, and an agent
//! answers with a canned reply.
//!
//! # A tour, in two sittings
//!
//! ## First: the core, in one file you can run
//!
//! `cargo run --example core` opens a window that does the spec's eight steps, and beyond them
//! only scrolls back with the wheel. Read its file, `examples/core.rs` (about 200 lines), top to
//! bottom, then the three files of the crate it uses (beside one call, on its first line, to
//! the app's start-up hook in `src/workarounds/startup.rs`, which a missing display needs):
//!
//! - `src/chat.rs` (about 280 lines): the flow's model, [`chat::record_submissions`], the exit
//!   key, and the flow's sets, [`chat::AppSystems`];
//! - `src/chat/style.rs` (about 70 lines): the one table from a role to a row's look,
//!   [`chat::RoleStyle::of`];
//! - `src/theme/palette.rs` (about 100 lines): the colours that table names.
//!
//! That is the core: four files, about 650 lines.
//!
//! | step | what happens | where | checked by |
//! |---|---|---|---|
//! | 1 | Enter: the field's line leaves as the widget's `TextInputSubmitMessage`, and the field is empty at once; in the full app, Shift+Enter breaks the line instead, and the break stays inside the message, since step 2 trims only its ends | `bevy_simple_text_input`'s own field, in the example | `the_input_is_cleared_after_every_submission_and_each_reply_follows_its_message` |
//! | 2 | the line is trimmed; a blank one stops here, before anything is picked or kept | [`chat::normalize`], called by the system [`chat::record_submissions`], in [`AppSystems::Record`] | `blank_input_picks_nothing_and_changes_nothing` |
//! | 3 | one reply is picked from [`chat::REPLIES`], with `rand`'s uniform choice | the resource [`chat::ReplyPicker`], called by the same system | `the_pick_is_called_exactly_once_per_valid_input_with_the_fixed_list` |
//! | 4–5 | two entities, each with an immutable [`chat::ChatMessage`] and [`chat::Role`], appended user first to [`chat::MessageLog`]; the input and the reply to [`chat::SessionRecord`] | the same system | `one_and_several_inputs_are_normalized_answered_and_shown_in_order` |
//! | 6 | each row's label, class, alignment and border side come from the role alone | [`chat::RoleStyle::of`], which the example's `spawn_rows` calls for every row | `labels_classes_alignment_and_border_sides_follow_the_role_alone` |
//! | 7 | the rows are mounted in log order under a node that scrolls (`Overflow::scroll_y`), and a new row scrolls it to the end (`ScrollPosition`) | the example's `spawn_rows`, in [`AppSystems::SpawnRows`] | `the_core_examples_conversation_scrolls_to_the_newest_row` |
//! | 8 | Escape asks the app to exit | the system [`chat::exit_on_escape`] | `escape_requests_app_exit_and_creates_no_state` |
//!
//! The tests named are in `tests/app/runtime_flow.rs`. Those of steps 1 to 6 and 8 run twice,
//! once against the example's plugin and once against the full app (`core_example::…` and
//! `full_app::…`). Step 7's is the example's, laid out; the full app's is
//! `a_submission_scrolls_the_conversation_to_its_end_in_the_same_frame`.
//!
//! **A lesson in Bevy's scheduling** sits between steps 5 and 7. [`chat::record_submissions`]
//! spawns the messages through `Commands`, which change the world only at a sync point (an
//! `ApplyDeferred` system). When Bevy 0.19.1 builds a schedule, it puts one on each ordering edge
//! that leaves a system with a deferred parameter such as `Commands`, whether or not that system
//! will ever queue anything; an edge marked to ignore it (`before_ignore_deferred`) passes it on
//! to the later edges of the system it leads to, and edges at the same depth share one
//! (`AutoInsertApplyDeferredPass`, in `bevy_ecs`). Chaining
//! [`AppSystems::Record`] before [`AppSystems::SpawnRows`] makes such an edge, so the rows are
//! mounted in the frame that sends their messages. The full app has such edges again after
//! `mount_rows`, to the systems that dress the rows and to `Scroll`, so the rows just spawned are
//! marked and put in place in that frame too.
//! `a_sync_point_stands_between_record_and_spawn_rows_before_anything_is_queued`, in
//! `tests/app/tour.rs`, finds it in both apps' built schedules before anyone types.
//!
//! **A first test, in Bevy's way.** A headless test builds the app on `MinimalPlugins`, writes
//! Bevy's own keyboard messages, and runs a frame. [`input::keys_that_send`] spells a line as a
//! press and a release per character, each a `Key::Character` as an on-screen keyboard sends
//! it (a space, a tab and a line break as `Key::Space`, `Key::Tab` and `Key::Enter`: the field
//! reads a key by what it means, not where it sits, so a tab moves focus and a line break sends
//! the line so far), Enter last. Written without
//! the window's ordering stream (`WindowEvent`), they come after any keys that have it.
//! `tests/app/first_test.rs` is this:
//!
//! ```text
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, AssetPlugin::default(), InputPlugin))
//!     .init_asset::<Font>() // the text widget's two needs, which `DefaultPlugins` meets
//!     .init_resource::<TextIterScratch>()
//!     .add_plugins(AgentChatPlugin);
//! app.world_mut()
//!     .write_message_batch(keys_that_send("안녕하세요"));
//! app.update();
//! assert_eq!(
//!     app.world().resource::<SessionRecord>().inputs(),
//!     ["안녕하세요"]
//! );
//! ```
//!
//! ## Then: the full app, and what it replaces
//!
//! `cargo run` runs the same [`chat`] flow in [`AgentChatPlugin`], with three parts of the
//! example replaced, each for a reason measured here:
//!
//! - **The field** ([`input`]). The widget reads keys but no input-method (IME) text at all:
//!   with ibus-hangul on, `안녕하세요` arrived as `dkssudgktpdy`. Bridging the IME's text into it
//!   beside the widget's own key handling applied the two in separate passes, so a Korean
//!   syllable landed after the key typed after it; and the widget counts its caret in bytes in
//!   some moves and in characters in others (`docs/ime.md`). The app keeps the widget to draw
//!   the field, turns its editing off, and applies each key and each piece of IME text in the
//!   order they came; on Enter it writes the widget's own submit message, so [`chat`] cannot
//!   tell the two fields apart.
//! - **The list** ([`scroll`], [`view::recycle`]). One UI node per message costs each frame in
//!   proportion to the log: the app keeps rows only in and near the view, so a frame at 100,000
//!   messages costs what one at 100 does (`docs/performance.md`).
//! - **Escape.** The example quits on it at once. The full app has things that open over the
//!   conversation, the find bar and the context menus, and Escape closes those first, wherever
//!   keyboard focus is: the frame map ([`frame`]) gives the exit key's set two run conditions.
//!   `escape_closes_an_open_bar_wherever_focus_is_and_keeps_the_draft` in `tests/app/find.rs`
//!   checks the bar's.
//!
//! ## The full app's route, from the key to the rows
//!
//! Following one Enter through the full app passes through these 19 files of `src/`, in
//! reading order, about 6,080 lines (`tests/app/tour.rs` counts them). Each file does more than
//! the Enter needs; the items named are the ones on its path.
//!
//! 1. `src/keyboard.rs` (about 20 lines): the keyboard's pass in its set,
//!    [`keyboard::KeyboardSystems`], which the frame map puts in [`AppSystems::ReadInput`].
//! 2. `src/keyboard/typing.rs` (about 510 lines): `edit_field` takes each key where focus is
//!    (`KeyFocus`), asks `route` where it goes, and hands the field's line its action.
//! 3. `src/input/arrival.rs` (about 140 lines): `in_arrival_order`, the frame's keys and IME
//!    text in the order they came, and the window system's word on Shift between them.
//! 4. `src/input/commit_wait.rs` (about 210 lines): `CommitWait::sort`, which holds a key that
//!    may have overtaken an IME's commit until the commit lands (at most
//!    [`input::COMMIT_PATIENCE`]).
//! 5. `src/input/routing.rs` (about 350 lines): `route` and `in_chat_field`, where a key goes for
//!    the target with focus.
//! 6. `src/input/keymap.rs` (about 130 lines): `find_key` and `zoom_key`, which `route` asks
//!    first, then `keys::opens_menu`; Enter in the chat's field means nothing to them. (While a
//!    menu is open, `route` asks `menu_key` alone.)
//! 7. `src/input/keys.rs` (about 430 lines): `action`, which says Enter is `Action::Submit`
//!    (and Shift+Enter `Action::NewLine`, a line break in the field).
//! 8. `src/input/edit.rs` (about 220 lines): `apply`, which on `Action::Submit` writes the
//!    message `Field::submit` returns.
//! 9. `src/input/field.rs` (about 200 lines): [`input::Field::submit`] takes the line, keeps it
//!    for Up and Down if it is not blank, and returns the widget's submit message.
//! 10. `src/input/editor.rs` (about 770 lines): [`input::editor::LineEditor::take`], which
//!     empties the line.
//! 11. `src/input.rs` (about 350 lines): the field's plugin, whose `FieldSystems` run after the
//!     pass; among them `show_in_widget` (in `input/edit.rs`) shows the emptied line.
//! 12. `src/frame.rs` (about 240 lines): the frame map; the pass and the field's systems, the
//!     widget, then `Record`, `SpawnRows`, `Scroll`.
//! 13. `src/chat.rs` (about 280 lines): [`chat::record_submissions`] (steps 2 to 5), as in the
//!     example.
//! 14. `src/view.rs` (about 400 lines): [`view::follow_the_newest`], [`view::mount_rows`], and
//!     `RowContent`, which builds a row's parts from its role and body.
//! 15. `src/view/focus.rs` (about 420 lines): `in_conversation`, whether the user reads with
//!     focus in the conversation (the view then stays where it is).
//! 16. `src/view/recycle.rs` (about 240 lines): [`view::recycle::RowRecycler`]:
//!     `add_new_messages` makes the new messages the list's items, `plan` asks the list which
//!     places to mount, and `mount` spawns their rows, or reuses rows that left the view.
//! 17. `src/scroll.rs` (about 800 lines): `VirtualList::push`, `follow_end` and `to_mount` (the
//!     places to mount); `arrange` puts the rows there, the column's bottom at the view's bottom
//!     while the list follows its end; after Bevy's layout (`PostUpdate`), `settle` measures
//!     them.
//! 18. `src/scroll/heights.rs` (about 280 lines): each message's height, estimated until its
//!     row is measured, from which `to_mount` finds the rows in view.
//! 19. `src/chat/style.rs` (about 70 lines): [`chat::RoleStyle::of`] for each row, as in the
//!     example.
//!
//! A row's parts also call into six files for how it looks, not for which rows show or in
//! what order: `src/view/paragraph.rs` (about 260 lines, its text laid out),
//! `src/text_direction.rs` (about 40 lines, which way it runs), `src/theme.rs` (about 250 lines,
//! its colours and font), `src/a11y.rs` (about 180 lines, its node for screen readers), and
//! after it is mounted, `src/view/highlight.rs` (about 270 lines) and `src/view/reader.rs`
//! (about 100 lines), which mark and describe it (its links among the marks: they were found
//! once, as `record_submissions` spawned the message, by the observer `find_links` of
//! `view/open_links.rs`, which calls `links::find`). The reply is also said to screen readers:
//! `plan` writes it as an `Announce`, which `src/view/speech.rs` (about 170 lines) says. With
//! them the Enter touches 26 files, about 7,350 lines. A reader who also opens every type these
//! systems take as parameters opens seven more: `src/theme/fonts.rs` (about 380 lines, whose
//! `TextMetrics::width` also estimates each new row's height, from which `to_mount` chooses),
//! `src/view/menu.rs` (about 1,130 lines), `src/view/find.rs` (about 780 lines),
//! `src/view/selection.rs` (about 680 lines), `src/input/clock.rs` (about 50 lines),
//! `src/input/selection.rs` (about 540 lines) and `src/input/clipboard.rs` (about 320 lines):
//! 33 files, about 11,230 lines in all. The core example is the same flow in four. Other
//! systems run in the Enter's frame without being on its way: the caret's (`input/caret.rs`),
//! the field's text for screen readers (`input/screen_reader.rs`) and the field's selection
//! offered to the desktop (`input/selection.rs`).
//!
//! The layers stay apart: `input/` (the field, and what each key means, as data) imports
//! neither `view/` (what the user sees) nor `keyboard/`, which carries each key to the field,
//! the find bar, zoom, a menu or the conversation and imports both
//! (`no_two_layers_import_from_each_other`); above them all, only the frame map (`frame.rs`)
//! orders every layer's sets (`only_the_frame_map_orders_systems`).
//!
//! # What else is here
//!
//! | module     | what it adds                                                            |
//! |------------|-------------------------------------------------------------------------|
//! | [`input`]  | a desktop-grade field: clusters, words, selection, undo, the clipboard, IME text, a caret that rests; where input focus starts ([`input::chat_input`]); what a key means to the field's line (`input/keys.rs`) and to the find bar, zoom and a menu ([`input::keymap`]) |
//! | [`keyboard`] | the keyboard's pass: each key, in order, to where focus is |
//! | [`scroll`] | the virtual list: only the rows in and near the view exist, whatever the log holds |
//! | [`view`]   | beyond `mount_rows`: the layout, the rows recycled as the view moves ([`view::recycle`]), keyboard focus in the conversation, the copy button, selecting the conversation's text ([`view::selection`]) and finding in it ([`view::find`]), zoom ([`view::zoom`]), the context menus ([`view::menu`]) and opening the links in messages ([`view::open_links`]) |
//! | [`links`]  | what a link is: found in a text ([`links::find`]), the schemes that may open, and handed to the desktop ([`links::open`]) |
//! | [`text_direction`] | which way a line runs, read alike by the field and the rows |
//! | [`theme`]  | the palette in use, light or dark, and text sizes; the bundled fonts ([`theme::fonts`]), and which one draws each script and emoji |
//! | [`a11y`]   | what a screen reader is told; each node is made where its thing is (a row's with the row, the field's text with the field, a row's text while a reader listens in [`view::reader`]) |
//!
//! Last, [`workarounds`] holds what the app does only because of how Bevy 0.19 and the crates
//! under it behave today (and lists those that must act where the behaviour shows, such as
//! `input/arrival.rs` reading Shift from winit's raw events),
//! each with its upstream issue (or the report, ready to file, where none was found) and a canary
//! test that fails once it can go. Its plugin (the
//! renderer drawing only what changed, one frame for each request for one, and the window's
//! icon) is for the window only: `main.rs` adds it beside Bevy's `DefaultPlugins` and this
//! plugin; tests add `MinimalPlugins` and the few resources the widget needs instead (see
//! `tests/app/common/mod.rs`).
//!
//! This tour is the project's English page for a newcomer: the pages in `docs/` are in Korean
//! and tell the same flow at more length, starting with `docs/runtime-flow.md`. It lives in the
//! crate docs so that `cargo doc` checks its links, and `tests/app/tour.rs` its numbers, its
//! first test and its lesson in scheduling.

use bevy::prelude::*;

pub mod a11y;
pub mod chat;
pub mod frame;
pub mod input;
pub mod keyboard;
pub mod links;
pub mod scroll;
pub mod text_direction;
pub mod theme;
pub mod view;
pub mod workarounds;

pub use chat::AppSystems;

/// The whole app, minus the window and renderer, which `main` brings with `DefaultPlugins`.
pub struct AgentChatPlugin;

impl Plugin for AgentChatPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((
            frame::plugin,
            a11y::plugin,
            theme::plugin,
            chat::plugin,
            input::plugin,
            keyboard::plugin,
            view::plugin,
            scroll::plugin,
        ));
    }
}

/// Whether something open over the window has the pointer's buttons and wheel this frame, as a
/// desktop's pointer grab does: a context menu (`view/menu.rs`), whose click outside closes it
/// and does nothing else. Each system that reads buttons or the wheel leaves them alone then.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PointerGrab(pub bool);
