//! agent-chat: a small Bevy ECS chat app. Type a line, press Enter, and an agent answers with
//! a canned reply.
//!
//! # A tour: one Enter, from the key to the rows
//!
//! The whole app is one plugin, [`AgentChatPlugin`]. The spec's steps run in Bevy's `Update`
//! schedule, in the four sets of [`AppSystems`], chained in that order, so one frame takes a key
//! press all the way to the rows. Each step below names the item that does it (a link into
//! these docs) and the test in `tests/app/runtime_flow.rs` that checks it through the real systems:
//!
//! | step | what happens | where | checked by |
//! |---|---|---|---|
//! | 1 | Enter: the field's line leaves as the widget's submit message, as typed, and the field is empty at once. The app writes that message itself: the widget's own editing is off, since it applied keys and IME text in separate passes (a Korean syllable landed after the key typed after it) | [`input::Field::submit`], which the field's system calls for the Enter key, in [`AppSystems::ReadInput`] | `the_input_is_cleared_after_every_submission_and_each_reply_follows_its_message` |
//! | 2 | the line is trimmed; a blank one stops here, before anything is picked or kept | [`chat::normalize`], called by the system [`chat::record_submissions`], in [`AppSystems::Record`] | `blank_input_picks_nothing_and_changes_nothing` |
//! | 3 | one reply is picked from [`chat::REPLIES`], with `rand`'s uniform choice | the resource [`chat::ReplyPicker`], called by the same system | `the_pick_is_called_exactly_once_per_valid_input_with_the_fixed_list` |
//! | 4–5 | two immutable entities, a [`chat::ChatMessage`] with a [`chat::Role`] each, appended user first to [`chat::MessageLog`]; the input and the reply to [`chat::SessionRecord`] | the same system, [`chat::record_submissions`] | `one_and_several_inputs_are_normalized_answered_and_shown_in_order`, `earlier_messages_and_rows_never_change` |
//! | 6 | each row's label, class, alignment and border side come from the role alone | the function [`chat::RoleStyle::of`], which the view calls for every row | `labels_classes_alignment_and_border_sides_follow_the_role_alone` |
//! | 7 | the view goes to the newest, unless the user reads with keyboard focus in the conversation; the rows are mounted in log order | the systems [`view::follow_the_newest`] then [`view::mount_rows`], in [`AppSystems::SpawnRows`]; `scroll::arrange` puts the rows in place in [`AppSystems::Scroll`] | `a_submission_scrolls_the_conversation_to_its_end_in_the_same_frame`, `a_new_message_leaves_the_focus_and_the_view_where_they_were` |
//! | 8 | Escape asks the app to exit; where something is open over the conversation (the find bar), Escape closes that instead | the system [`chat::exit::exit_on_escape`], in [`AppSystems::ReadInput`]; the frame map gives its set a run condition | `escape_requests_app_exit_and_creates_no_state`, `escape_closes_the_bar_gives_focus_back_and_only_then_quits` |
//!
//! Between step 5 and step 7 there is a lesson in Bevy's scheduling: [`chat::record_submissions`]
//! spawns the messages through `Commands`, which take effect only at a sync point. The four
//! sets are chained, and Bevy puts a sync point after a chained set whose systems queued
//! commands, so [`view::mount_rows`] finds the new messages in the same frame; the step 7 test
//! above shows it. The whole frame, every set and what runs in it, is drawn in [`frame`], the
//! one place that orders them.
//!
//! Following one Enter takes six files of `src/`, about 950 lines: this one,
//! `src/input/field.rs` (step 1), `src/chat.rs` (steps 2 to 5), `src/chat/style.rs` (step 6),
//! `src/view.rs` (step 7) and `src/chat/exit.rs` (step 8).
//!
//! That is the core: the [`chat`] module with [`chat::style`] and [`chat::exit`], and
//! [`view::mount_rows`] with the row it builds. Of the text widget, [`chat`] knows only the
//! widget's [`TextInputSubmitMessage`](bevy_simple_text_input::TextInputSubmitMessage), which
//! [`chat::record_submissions`] reads as the field sent it: one hop, by design. Of the screen,
//! only [`chat::style`] knows anything: the UI values (`JustifyContent`, `UiRect`, palette
//! colours) of each role, in one table. Nothing in [`chat`] needs a window or a renderer, so a
//! headless app with `MinimalPlugins` runs it.
//!
//! # What to skip on a first read
//!
//! The rest makes it a desktop app, and none of it changes the flow above. Some of it runs
//! beside the four sets rather than in them (the copy button's systems after
//! [`AppSystems::ReadInput`], the field's colours before the widget draws), and the list's rows
//! are measured and the scrollbar placed in `PostUpdate`, after Bevy's UI layout:
//!
//! | module     | what it adds                                                            |
//! |------------|-------------------------------------------------------------------------|
//! | [`input`]  | a desktop-grade field: clusters, words, selection, undo, the clipboard, IME text, a caret that rests |
//! | [`scroll`] | the virtual list: only the rows in and near the view exist, whatever the log holds |
//! | [`view`]   | beyond `mount_rows`: the layout, the rows recycled as the view moves ([`view::recycle`]), keyboard focus in the conversation, the copy button, selecting the conversation's text ([`view::selection`]) and finding in it ([`view::find`]), zoom ([`view::zoom`]) and the context menus ([`view::menu`]) |
//! | [`text_direction`] | which way a line runs, read alike by the field and the rows |
//! | [`theme`]  | palette and text sizes, light and dark; the bundled fonts ([`theme::fonts`]), and which one draws each script and emoji |
//! | [`a11y`]   | what a screen reader is told, and where input focus starts; each node is made where its thing is (a row's with the row, the field's text with the field, a row's text while a reader listens in [`view::reader`]) |
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
pub mod scroll;
pub mod text_direction;
pub mod theme;
pub mod view;
pub mod workarounds;

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

/// The app's `Update` systems, in the order the runtime flow runs them.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Read the keyboard and wheel: the field sends its line on Enter, Escape exits, keys move
    /// focus in the conversation, wheel and page keys scroll.
    ReadInput,
    /// Normalize submissions, pick replies, and log the messages.
    Record,
    /// Mount rows for the messages the view wants (the newest, after a submission) and retire
    /// the rest.
    SpawnRows,
    /// Put the mounted rows in place for where the view is.
    Scroll,
}
