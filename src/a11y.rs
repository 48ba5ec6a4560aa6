//! What a screen reader is told, through AccessKit.
//!
//! Bevy's window backend sends the platform (AT-SPI on Linux, UI Automation on Windows, the
//! macOS accessibility API) one tree made of every entity that has an [`AccessibilityNode`],
//! nested as the entities are, with the window as its root. It sends it only while
//! [`InputFocus`] names an entity that has such a node: the focused node is where a screen
//! reader starts. The field takes focus when it is spawned ([`AutoFocus`] in
//! [`crate::input::chat_input`]), so the tree goes out from the first frame.
//!
//! The tree a reader gets (docs/reading.md says what it hears):
//!
//! - the window `agent-chat`,
//!   - a list `대화` that says how many messages the conversation holds, and an item per
//!     mounted row: the messages in view and a view's worth around them (`사용자: …`,
//!     `에이전트: …`), each with its place among all messages;
//!   - a text entry `메시지 입력` with its text and caret (`input/screen_reader.rs`).
//!
//! [`AutoFocus`]: bevy::input_focus::AutoFocus

use accesskit::{Live, Node as AccessNode, Role as AccessRole};
use bevy::{
    a11y::{AccessibilityNode, ActionRequest},
    input_focus::InputFocus,
    prelude::*,
};

pub(super) fn plugin(app: &mut App) {
    // Bevy's focus plugin (part of `DefaultPlugins`) makes it too; headless apps have none.
    app.init_resource::<InputFocus>()
        // Written by the window backend for a screen reader's requests (`view/focus.rs`).
        .add_message::<ActionRequest>();
}

/// A node for screen readers with a role and the label to announce.
pub fn accessible(role: AccessRole, label: &str) -> AccessibilityNode {
    let mut node = AccessNode::new(role);
    node.set_label(label);
    AccessibilityNode(node)
}

/// A line a screen reader reads out once, politely (after what it is saying), when it appears:
/// a status node that only readers see. Spawn one anew for each thing to say, and despawn the
/// one before: a live region is read when it is added, not when it stays.
pub fn announcement(text: &str) -> impl Bundle {
    let mut node = accessible(AccessRole::Status, text);
    node.set_live(Live::Polite);
    (
        node,
        Node {
            display: Display::None,
            ..default()
        },
    )
}
