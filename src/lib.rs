//! agent-chat: a small Bevy ECS chat app. Type a line, press Enter, and an agent answers with
//! a canned reply.
//!
//! # A tour, in two sittings
//!
//! ## First: the core, in one file you can run
//!
//! `cargo run --example core` opens a window that does the spec's eight steps and nothing
//! more. Read its file, `examples/core.rs` (191 lines), top to bottom, then the three files of
//! the crate it uses:
//!
//! - `src/chat.rs` (275 lines): the flow's model, [`chat::record_submissions`], the exit key,
//!   and the flow's sets, [`AppSystems`];
//! - `src/chat/style.rs` (69 lines): the one table from a role to a row's look,
//!   [`chat::RoleStyle::of`];
//! - `src/theme/palette.rs` (102 lines): the colours that table names.
//!
//! That is the core: four files, about 640 lines.
//!
//! | step | what happens | where | checked by |
//! |---|---|---|---|
//! | 1 | Enter: the field's line leaves as the widget's `TextInputSubmitMessage`, and the field is empty at once | `bevy_simple_text_input`'s own field, in the example | `the_input_is_cleared_after_every_submission_and_each_reply_follows_its_message` |
//! | 2 | the line is trimmed; a blank one stops here, before anything is picked or kept | [`chat::normalize`], called by the system [`chat::record_submissions`], in [`AppSystems::Record`] | `blank_input_picks_nothing_and_changes_nothing` |
//! | 3 | one reply is picked from [`chat::REPLIES`], with `rand`'s uniform choice | the resource [`chat::ReplyPicker`], called by the same system | `the_pick_is_called_exactly_once_per_valid_input_with_the_fixed_list` |
//! | 4–5 | two immutable entities, a [`chat::ChatMessage`] with a [`chat::Role`] each, appended user first to [`chat::MessageLog`]; the input and the reply to [`chat::SessionRecord`] | the same system | `one_and_several_inputs_are_normalized_answered_and_shown_in_order` |
//! | 6 | each row's label, class, alignment and border side come from the role alone | [`chat::RoleStyle::of`], which the example's `spawn_rows` calls for every row | `labels_classes_alignment_and_border_sides_follow_the_role_alone` |
//! | 7 | the rows are mounted in log order under a node that scrolls (`Overflow::scroll_y`), and a new row scrolls it to the end (`ScrollPosition`) | the example's `spawn_rows`, in [`AppSystems::SpawnRows`] | `the_core_examples_conversation_scrolls_to_the_newest_row` |
//! | 8 | Escape asks the app to exit | the system [`chat::exit_on_escape`] | `escape_requests_app_exit_and_creates_no_state` |
//!
//! The tests named are in `tests/app/runtime_flow.rs`, and each runs twice: once against the
//! example's plugin and once against the full app (`core_example::…` and `full_app::…`).
//!
//! **A lesson in Bevy's scheduling** sits between steps 5 and 7. [`chat::record_submissions`]
//! spawns the messages through `Commands`, which change the world only at a sync point. When
//! Bevy 0.19.1 builds a schedule, it puts a sync point (an `ApplyDeferred` system) on every
//! ordering edge that leaves a system with a deferred parameter such as `Commands`, whether or
//! not that system will ever queue anything (`AutoInsertApplyDeferredPass`, in `bevy_ecs`).
//! Chaining [`AppSystems::Record`] before [`AppSystems::SpawnRows`] is such an edge, so the rows
//! are mounted in the frame of the Enter that sent their messages.
//! `a_sync_point_stands_between_record_and_spawn_rows_before_anything_is_queued`, in
//! `tests/app/tour.rs`, finds it in both apps' built schedules before anyone types.
//!
//! **A first test, in Bevy's way.** A headless test builds the app on `MinimalPlugins`, writes
//! Bevy's own keyboard messages, and runs a frame. [`input::keys_that_send`] spells a line as
//! the key presses and releases a keyboard sends, Enter last; `tests/app/first_test.rs` is this:
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
//! - **The field** ([`input`]). The widget applies keys and input-method text in separate
//!   passes, so a Korean syllable landed after the key typed after it, and it counts its caret
//!   in bytes in some moves and in characters in others (`docs/ime.md`). The app keeps the
//!   widget to draw the field, turns its editing off, and applies each key and each piece of IME
//!   text in the order they came; on Enter it writes the widget's own submit message, so
//!   [`chat`] cannot tell the two fields apart.
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
//! Following one Enter through the full app passes through these 16 files of `src/`, in
//! order, about 4,790 lines (`tests/app/tour.rs` counts them):
//!
//! 1. `src/keyboard.rs` (20 lines): the keyboard's pass, in its set, which the frame map puts
//!    first in [`AppSystems::ReadInput`] but for an open menu's pointer.
//! 2. `src/keyboard/typing.rs` (493 lines): `edit_field` takes each key where focus is, routes
//!    it, and hands the field's line its action.
//! 3. `src/input/arrival.rs` (97 lines): the frame's keys and IME text, in the order they came.
//! 4. `src/input/routing.rs` (326 lines): `route`, where a key goes for the target with focus.
//! 5. `src/input/keymap.rs` (131 lines): what a key means to the find bar, zoom and a menu,
//!    which `route` asks first (Enter means nothing to them in the chat's field).
//! 6. `src/input/keys.rs` (414 lines): `keys::action`, which says Enter is `Action::Submit`.
//! 7. `src/input/edit.rs` (167 lines): `apply`, which sends the line on `Action::Submit`.
//! 8. `src/input/field.rs` (186 lines): [`input::Field::submit`] writes the submit message.
//! 9. `src/input/editor.rs` (595 lines): [`input::editor::LineEditor::take`] empties the line.
//! 10. `src/frame.rs` (234 lines): the frame map; the widget, then `Record`, `SpawnRows`,
//!     `Scroll`.
//! 11. `src/chat.rs` (275 lines): [`chat::record_submissions`] (steps 2 to 5), as in the
//!     example.
//! 12. `src/view.rs` (407 lines): [`view::follow_the_newest`], then [`view::mount_rows`].
//! 13. `src/view/focus.rs` (323 lines): whether the user reads with focus in the conversation.
//! 14. `src/scroll.rs` (803 lines): the list goes to its end and says which places to mount;
//!     `arrange` puts the rows there.
//! 15. `src/view/recycle.rs` (249 lines): [`view::recycle::RowRecycler`] spawns or reuses the
//!     rows.
//! 16. `src/chat/style.rs` (69 lines): [`chat::RoleStyle::of`] for each row, as in the example.
//!
//! It is long because each file also does the desktop's other work (selection, undo, the
//! clipboard, finding, 100,000 rows); the example is the same flow without it. The layers stay
//! apart: `input/` (the field, and what each key means, as data) imports neither `view/` (what
//! the user sees) nor `keyboard/`, which carries each key to the field, the find bar, zoom, a
//! menu or the conversation and is the one layer that imports both
//! (`no_two_layers_import_from_each_other`).
//!
//! # What else is here
//!
//! | module     | what it adds                                                            |
//! |------------|-------------------------------------------------------------------------|
//! | [`input`]  | a desktop-grade field: clusters, words, selection, undo, the clipboard, IME text, a caret that rests; where input focus starts ([`input::chat_input`]); what each key means ([`input::keymap`]) |
//! | [`keyboard`] | the keyboard's pass: each key, in order, to where focus is |
//! | [`scroll`] | the virtual list: only the rows in and near the view exist, whatever the log holds |
//! | [`view`]   | beyond `mount_rows`: the layout, the rows recycled as the view moves ([`view::recycle`]), keyboard focus in the conversation, the copy button, selecting the conversation's text ([`view::selection`]) and finding in it ([`view::find`]), zoom ([`view::zoom`]) and the context menus ([`view::menu`]) |
//! | [`text_direction`] | which way a line runs, read alike by the field and the rows |
//! | [`theme`]  | the palettes in use, light and dark, and text sizes; the bundled fonts ([`theme::fonts`]), and which one draws each script and emoji |
//! | [`a11y`]   | what a screen reader is told; each node is made where its thing is (a row's with the row, the field's text with the field, a row's text while a reader listens in [`view::reader`]) |
//!
//! Last, [`workarounds`] holds what the app does only because of how Bevy 0.19 behaves today,
//! each with the upstream issue and a canary test that fails once it can go. Its plugin (the
//! renderer drawing only what changed, one frame for each request for one) is for the window
//! only: `main.rs` adds it beside Bevy's `DefaultPlugins` and this plugin; tests add
//! `MinimalPlugins` and the few resources the widget needs instead (see `tests/app/common/mod.rs`).
//!
//! This tour is the project's English page for a newcomer: the pages in `docs/` are in Korean
//! and tell the same flow at more length, starting with `docs/runtime-flow.md`. One text in the
//! crate docs, rather than a copy in `docs/`, is the one that `cargo doc` links and that cannot
//! drift from the code it links to.

use bevy::prelude::*;

pub mod a11y;
pub mod chat;
pub mod frame;
pub mod input;
pub mod keyboard;
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
