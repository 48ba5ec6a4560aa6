//! agent-chat: a small Bevy ECS chat app. Type a line, press Enter, and an agent answers with a
//! canned reply.
//!
//! The app is one plugin, [`AgentChatPlugin`], built from one module per concern:
//!
//! | module     | concern                                                                 |
//! |------------|-------------------------------------------------------------------------|
//! | [`chat`]   | roles, messages, the log, the session record, the reply pick            |
//! | [`input`]  | the text field: editing, IME text, Enter sending the widget's message   |
//! | [`view`]   | the layout, a row for each message in or near the view, keyboard focus  |
//! | [`scroll`] | the virtual list: which rows to mount, where the view is, the scrollbar |
//! | [`theme`]  | palette, text sizes, and the table that maps a role to its look         |
//! | [`fonts`]  | the bundled fonts, and which one draws each script and emoji            |
//! | [`a11y`]   | what a screen reader is told, and where input focus starts              |
//! | [`exit`]   | Escape quits                                                            |
//!
//! Beside it, for the window: [`repaint`] has the renderer draw only what changed since the
//! last frame, and [`wake`] runs one frame for each request for one, and wakes the window for
//! a screen reader's requests.
//!
//! `main.rs` adds Bevy's `DefaultPlugins`, this plugin, [`repaint::plugin`] and
//! [`wake::plugin`]; tests add `MinimalPlugins` and the few resources the widget needs instead
//! (see `tests/common/mod.rs`).

use bevy::prelude::*;

pub mod a11y;
pub mod chat;
pub mod exit;
pub mod fonts;
pub mod input;
pub mod repaint;
pub mod scroll;
pub mod theme;
pub mod view;
pub mod wake;

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
            fonts::plugin,
            theme::plugin,
            chat::plugin,
            input::plugin,
            view::plugin,
            scroll::plugin,
            exit::plugin,
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
