//! agent-chat: a small Bevy ECS chat app. Type a line, press Enter, and an agent answers with a
//! canned reply.
//!
//! # A tour: one Enter, from the key to the rows
//!
//! The whole app is one plugin, [`AgentChatPlugin`]. Its `Update` systems run in four ordered
//! sets, [`AppSystems`], so one frame takes a key press all the way to the rows on screen. Each
//! step of the runtime flow is one system, and one test in `tests/runtime_flow.rs` checks it
//! through the real systems:
//!
//! | step | what happens | where | checked by |
//! |---|---|---|---|
//! | 1 | Enter: the field sends its line and empties itself, blank or not | `edit_field` in [`input`] | `the_input_is_cleared_after_every_submission_and_each_reply_follows_its_message` |
//! | 1–2 | the line is trimmed; a blank one stops here, before anything is picked or kept | [`chat::normalize`], called by [`chat::record_submissions`] | `blank_input_picks_nothing_and_changes_nothing` |
//! | 3 | one reply is picked from [`chat::REPLIES`], with `rand`'s uniform choice | [`chat::ReplyPicker`] | `the_pick_is_called_exactly_once_per_valid_input_with_the_fixed_list` |
//! | 4–5 | two immutable entities, [`chat::Message`] with a [`chat::Role`], appended user first to [`chat::MessageLog`]; the inputs and replies to [`chat::SessionRecord`] | [`chat::record_submissions`] | `one_and_several_inputs_are_normalized_answered_and_shown_in_order`, `earlier_messages_and_rows_never_change` |
//! | 6 | each row's label, class, alignment and border side come from the role alone | [`chat::RoleStyle::of`] | `labels_classes_alignment_and_border_sides_follow_the_role_alone` |
//! | 7 | the rows are mounted in log order and the view follows the newest | [`view::mount_rows`], [`scroll::VirtualList::follow_end`] | `a_submission_scrolls_the_conversation_to_its_end_in_the_same_frame` |
//! | 8 | Escape asks the app to exit, whatever else happens in the frame | [`chat::exit::exit_on_escape`] | `escape_requests_app_exit_and_creates_no_state` |
//!
//! That is the core: the [`chat`] module, with [`chat::style`] and [`chat::exit`], and the rows
//! [`view`] builds from it. The field sends the widget's own
//! [`TextInputSubmitMessage`](bevy_simple_text_input::TextInputSubmitMessage), and
//! [`chat::record_submissions`] reads it directly: one hop. The model never sees the widget or
//! the screen, so a headless app with `MinimalPlugins` runs it.
//!
//! # What to skip on a first read
//!
//! The rest makes it a desktop app, and none of it changes the flow above:
//!
//! | module     | what it adds                                                            |
//! |------------|-------------------------------------------------------------------------|
//! | [`input`]  | a desktop-grade field: clusters, words, selection, undo, the clipboard, IME text, a caret that rests |
//! | [`scroll`] | the virtual list: only the rows in and near the view exist, whatever the log holds |
//! | [`view`]   | beyond the rows: the layout, keyboard focus in the conversation, the copy button |
//! | [`theme`]  | palette and text sizes, light and dark; the bundled fonts ([`theme::fonts`]), and which one draws each script and emoji |
//! | [`a11y`]   | what a screen reader is told, and where input focus starts; each node is made where its thing is (a row's with the row, the field's text with the field) |
//!
//! Last, [`workarounds`] holds what the app does only because of how Bevy 0.19 behaves today,
//! each with the upstream issue and a canary test that fails once it can go. Its plugin (the
//! renderer drawing only what changed, one frame for each request for one) is for the window
//! only: `main.rs` adds it beside Bevy's `DefaultPlugins` and this plugin; tests add
//! `MinimalPlugins` and the few resources the widget needs instead (see `tests/common/mod.rs`).

use bevy::prelude::*;

pub mod a11y;
pub mod chat;
pub mod input;
pub mod scroll;
pub mod theme;
pub mod view;
pub mod workarounds;

/// The whole app, minus the window and renderer, which `main` brings with `DefaultPlugins`.
pub struct AgentChatPlugin;

impl Plugin for AgentChatPlugin {
    fn build(&self, app: &mut App) {
        // The runtime flow, in order. Each set writes what the next one reads, within one frame.
        app.configure_sets(
            Update,
            (
                AppSystems::ReadInput,
                AppSystems::Record,
                AppSystems::SpawnRows,
                AppSystems::Scroll,
            )
                .chain(),
        );
        app.add_plugins((
            a11y::plugin,
            theme::plugin,
            chat::plugin,
            input::plugin,
            view::plugin,
            scroll::plugin,
        ));
    }
}

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
