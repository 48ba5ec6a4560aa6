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
//!     `에이전트: …`), each with its place among all messages, and inside it the row's text as
//!     text a reader's caret and selection commands work on ([`text`]);
//!   - a text entry `메시지 입력` with its text and caret (`input/screen_reader.rs`);
//!   - while it is open, the find bar: a search entry `대화에서 찾기` (`view/find.rs`).
//!
//! What the app says without moving focus (the reply, the copied notice, the zoom level, the
//! find count; paced in `view/speech.rs`) is a live region: AccessKit sends an announcement for
//! it, which Orca 46 and later, NVDA and VoiceOver speak. Orca 43 (Debian 12's) has no handler
//! for announcements; what it does speak is a change of the focused node's description. So
//! while a reader like it listens ([`FocusSpeaks`], which AT-SPI's registry tells:
//! `a11y/registry.rs`), `say_on_the_focus` also puts each announcement on the focused node's
//! description for one frame. Only then: a reader that hears both said it twice.
//!
//! [`AutoFocus`]: bevy::input_focus::AutoFocus

use std::collections::HashMap;

use accesskit::{Live, Node as AccessNode, Role as AccessRole};
use bevy::{
    a11y::{AccessibilityNode, ActionRequest},
    input_focus::InputFocus,
    prelude::*,
    window::RequestRedraw,
};

#[cfg(all(feature = "screen-reader", unix, not(target_os = "macos")))]
pub mod registry;

pub(super) fn plugin(app: &mut App) {
    // Unordered: it keeps a resource that `say_on_the_focus` reads a schedule later.
    #[cfg(all(feature = "screen-reader", unix, not(target_os = "macos")))]
    app.add_systems(Update, registry::follow_the_readers);
    // Bevy's focus plugin (part of `DefaultPlugins`) makes it too; headless apps have none.
    app.init_resource::<InputFocus>()
        .init_resource::<FocusSpeaks>()
        // Written by the window backend for a screen reader's requests (`view/focus.rs`).
        .add_message::<ActionRequest>()
        .add_systems(PostUpdate, say_on_the_focus.in_set(SayOnTheFocus));
}

/// The set of `say_on_the_focus`: after the frame's focus is set and bevy_ui has written its
/// nodes' bounds, before the window backend sends the tree (`frame.rs`).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SayOnTheFocus;

/// Whether a screen reader listens that speaks a change of the focused node's description but no
/// announcement (Orca 43): then each announcement is put on the focus too. AT-SPI's registry
/// tells (`a11y/registry.rs`); until it has, this is true on Linux and the BSDs, where such a
/// reader may run. Elsewhere readers speak announcements.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FocusSpeaks(pub bool);

impl Default for FocusSpeaks {
    fn default() -> Self {
        Self(cfg!(all(unix, not(target_os = "macos"))))
    }
}

/// A node for screen readers with a role and the label to announce.
pub fn accessible(role: AccessRole, label: &str) -> AccessibilityNode {
    let mut node = AccessNode::new(role);
    node.set_label(label);
    AccessibilityNode(node)
}

/// Read-only text for screen readers, as two nodes: the label that holds it (for the row's
/// bubble) and the text run that carries the characters (for the row's text node). AccessKit
/// offers a label's text runs through the platform's text interface (AT-SPI's Text), so a reader
/// can move its caret through a message and select part of it.
pub fn text(text: &str) -> (AccessibilityNode, AccessibilityNode) {
    let mut run = AccessNode::new(AccessRole::TextRun);
    run.set_value(text);
    run.set_character_lengths(
        text.chars()
            .map(|c| c.len_utf8() as u8)
            .collect::<Vec<u8>>(),
    );
    let mut label = AccessNode::new(AccessRole::Label);
    // What a reader selects there is selected in the conversation (`view/selection.rs`).
    label.add_action(accesskit::Action::SetTextSelection);
    // Not a live region of its own inside an announced row: AccessKit's Linux adapter names a
    // label by its text, and a label that took the row's liveness read the reply out twice.
    label.set_live(Live::Off);
    (AccessibilityNode(label), AccessibilityNode(run))
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

/// What the live nodes said last, and the focused node that says it for this frame.
#[derive(Default)]
struct Spoken {
    /// Each live node's label, as AccessKit last announced it.
    live: HashMap<Entity, String>,
    /// The node whose description carries an announcement this frame, and its own description.
    saying: Option<(Entity, Option<String>)>,
}

/// Puts each announcement on the focused node's description for one frame, while a reader
/// listens that speaks only what changes on the focus ([`FocusSpeaks`]: Orca 43,
/// `docs/reading.md`).
///
/// An announcement is what AccessKit makes one of: a live node that appears with a label, or
/// whose label changes. The app makes at most one a frame (a burst of replies is announced as
/// its newest); were there two, the focus would say one of them. The frame after, the focused
/// node gets its own description back, so the next announcement is a change again even when
/// its text is the same.
fn say_on_the_focus(
    mut nodes: Query<(Entity, &mut AccessibilityNode)>,
    mut gone: RemovedComponents<AccessibilityNode>,
    focus: Res<InputFocus>,
    speaks: Res<FocusSpeaks>,
    mut redraw: MessageWriter<RequestRedraw>,
    mut spoken: Local<Spoken>,
) {
    if let Some((entity, own)) = spoken.saying.take()
        && let Ok((_, mut node)) = nodes.get_mut(entity)
    {
        match own {
            Some(own) => node.set_description(own),
            None => node.clear_description(),
        }
    }
    for entity in gone.read() {
        spoken.live.remove(&entity);
    }
    let mut newest = None;
    for (entity, node) in &mut nodes {
        if !node.is_changed() {
            continue;
        }
        let label = node
            .label()
            .filter(|_| node.live().is_some_and(|live| live != Live::Off));
        let Some(label) = label else {
            spoken.live.remove(&entity);
            continue;
        };
        if spoken.live.get(&entity).is_none_or(|said| said != label) {
            spoken.live.insert(entity, label.to_owned());
            newest = Some(label.to_owned());
        }
    }
    let (Some(text), Some(focused), true) = (newest, focus.get(), speaks.0) else {
        return;
    };
    let Ok((_, mut node)) = nodes.get_mut(focused) else {
        return;
    };
    spoken.saying = Some((focused, node.description().map(str::to_owned)));
    node.set_description(text);
    // The frame that gives the description back.
    redraw.write(RequestRedraw);
}
