//! The core: the spec's flow as it would be in any Bevy app, and what a student copies. Both
//! apps run it: the full one, and `examples/core.rs`, which adds [`plugin`] beside the text
//! widget's.
//!
//! - Enter in the field: the field's entity sends the text widget's [`TextInputSubmitMessage`]
//!   with its line, and is empty at once (step 1). In the example the widget itself sends it;
//!   the full app's own field writes the same message (`input/field.rs` says why).
//! - [`record_submissions`] reads that message directly. A line that is blank once trimmed
//!   ([`normalize`]) stops there. Otherwise one reply is picked ([`ReplyPicker`]), and two
//!   immutable entities, a [`ChatMessage`] with its [`Role`] each, are appended,
//!   user first, to the [`MessageLog`]; the [`SessionRecord`] keeps the inputs and replies
//!   (steps 2 to 5).
//! - [`RoleStyle::of`] is the one table from a role to a row's label, class, alignment and border
//!   side ([`style`]); every row either app builds comes from it (step 6).
//! - Escape asks the app to exit: [`exit_on_escape`] (step 8).
//! - [`AppSystems`]: the flow's sets, in its order; each app chains them where it orders its
//!   frame.
//!
//! Of the text widget, it knows only that message, and nothing of the window or the UI: a
//! headless app with only [`MinimalPlugins`] runs it, and the view reads what it leaves behind.

use bevy::{input::keyboard::Key, prelude::*};
use bevy_simple_text_input::TextInputSubmitMessage;

pub mod style;

pub use style::{ROW_BORDER, RoleStyle, RowClass};

/// The flow's model and its systems: the messages, the log, the record, the reply picker,
/// [`record_submissions`] in [`AppSystems::Record`], and the exit key. The full app adds it
/// through [`AgentChatPlugin`](crate::AgentChatPlugin); `examples/core.rs` adds it alone, beside
/// the text widget's plugin.
pub fn plugin(app: &mut App) {
    app.register_type::<Role>()
        .register_type::<RowClass>()
        .register_type::<ChatMessage>()
        .register_type::<MessageLog>()
        .register_type::<SessionRecord>()
        .add_message::<TextInputSubmitMessage>()
        .init_resource::<MessageLog>()
        .init_resource::<SessionRecord>()
        .init_resource::<ReplyPicker>()
        .add_systems(Update, record_submissions.in_set(AppSystems::Record))
        .add_systems(Update, exit_on_escape.in_set(EscapeExits));
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

/// The fixed replies the agent answers with, one picked at random per valid submission.
///
/// A `static`, not a `const`: it has one address, so a test can check the pick is handed this
/// very list.
pub static REPLIES: &[&str] = &[
    "안녕하세요! 무엇을 도와드릴까요?",
    "좋은 질문이네요. 조금 더 자세히 말씀해 주세요.",
    "말씀 잘 들었습니다.",
    "흥미롭네요! 계속 이야기해 주세요.",
    "알겠습니다. 제가 한번 살펴볼게요.",
];

// The pick below may assume a reply exists; an empty list is a build error, not a runtime one.
const _: () = assert!(!REPLIES.is_empty(), "REPLIES must not be empty");

/// Who wrote a [`ChatMessage`]: the single source every on-screen difference is derived from.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[component(immutable)]
#[reflect(Component)]
pub enum Role {
    /// The person typing into the input.
    User,
    /// The canned agent answering them.
    Agent,
}

/// One line of the conversation, spawned as an entity together with its [`Role`].
///
/// Immutable: once logged, no system can change a message's body (or its role).
///
/// The design card calls it `Message`; it is named `ChatMessage` so that it does not shadow
/// Bevy's `Message` trait (buffered messages, `MessageReader`), which `use bevy::prelude::*`
/// brings into every module that uses this one.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq)]
#[component(immutable)]
#[reflect(Component)]
pub struct ChatMessage {
    body: String,
}

impl ChatMessage {
    /// A message with the given body.
    pub fn new(body: impl Into<String>) -> Self {
        Self { body: body.into() }
    }

    /// The text as the user submitted it (trimmed) or as the agent replied.
    pub fn body(&self) -> &str {
        &self.body
    }
}

/// Every [`ChatMessage`] entity in the order it was created: append-only.
#[derive(Resource, Reflect, Debug, Default)]
#[reflect(Resource)]
pub struct MessageLog(Vec<Entity>);

impl MessageLog {
    /// The message entities, oldest first.
    pub fn entities(&self) -> &[Entity] {
        &self.0
    }

    /// How many messages have been logged.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True before the first valid submission.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// What this session has accepted: the normalized inputs and the replies picked for them.
///
/// Entry `i` of [`inputs`](Self::inputs) was answered by entry `i` of [`replies`](Self::replies).
#[derive(Resource, Reflect, Debug, Default)]
#[reflect(Resource)]
pub struct SessionRecord {
    inputs: Vec<String>,
    replies: Vec<&'static str>,
}

impl SessionRecord {
    /// The trimmed, non-blank inputs, in submission order.
    pub fn inputs(&self) -> &[String] {
        &self.inputs
    }

    /// The picked replies, in submission order.
    pub fn replies(&self) -> &[&'static str] {
        &self.replies
    }
}

/// A function choosing one reply from the list it is given.
pub type PickReply = dyn FnMut(&'static [&'static str]) -> Option<&'static str> + Send + Sync;

/// The seam through which the reply is picked, so a test can fix the choice and count the calls.
///
/// The default is `rand`'s standard uniform choice over the list. Unlike the other resources it
/// is not reflected: a closure has nothing an inspector could show.
#[derive(Resource)]
pub struct ReplyPicker(Box<PickReply>);

impl ReplyPicker {
    /// A picker that calls `pick` with [`REPLIES`] once per valid submission.
    pub fn new(
        pick: impl FnMut(&'static [&'static str]) -> Option<&'static str> + Send + Sync + 'static,
    ) -> Self {
        Self(Box::new(pick))
    }
}

impl Default for ReplyPicker {
    fn default() -> Self {
        use rand::seq::IndexedRandom;
        Self::new(|replies| replies.choose(&mut rand::rng()).copied())
    }
}

/// The normalized form of a submitted line: trimmed, or `None` when nothing visible remains.
///
/// Trimming removes what [`str::trim`] removes, Unicode `White_Space`: spaces, tabs, newlines,
/// no-break and ideographic spaces, line and paragraph separators. A line is blank when it holds
/// nothing but whitespace and [invisible](is_invisible) characters, so a lone zero-width space or
/// Hangul filler is not sent as an empty-looking message. Invisible characters inside a non-blank
/// line are kept: they can be meaningful (a ZWJ joins an emoji sequence).
pub fn normalize(raw: &str) -> Option<&str> {
    let trimmed = raw.trim();
    (!trimmed
        .chars()
        .all(|c| c.is_whitespace() || is_invisible(c)))
    .then_some(trimmed)
}

/// Characters that draw nothing: Unicode's `Default_Ignorable_Code_Point` property (zero-width
/// spaces and joiners, bidi controls, variation selectors, tags), which includes the Hangul
/// fillers a Korean keyboard can produce.
///
/// The ranges are those of `DerivedCoreProperties.txt` as of Unicode 16.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFF8}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// Turns each non-blank line the field submitted into a user message and an agent reply, in
/// that order.
///
/// The line is read as the field sent it on Enter, raw. Blank lines stop before the pick, so
/// they leave no record, no message and nothing to render.
pub fn record_submissions(
    mut submissions: MessageReader<TextInputSubmitMessage>,
    mut picker: ResMut<ReplyPicker>,
    mut log: ResMut<MessageLog>,
    mut record: ResMut<SessionRecord>,
    mut commands: Commands,
) {
    for TextInputSubmitMessage { value: raw, .. } in submissions.read() {
        let Some(input) = normalize(raw) else {
            continue;
        };
        let Some(reply) = (picker.0)(REPLIES) else {
            // Unreachable with the real picker (REPLIES is checked non-empty at compile time);
            // a replaced picker that declines drops the whole submission, never half of it.
            warn!("the reply picker returned no reply; the submission was not recorded");
            continue;
        };

        // Bodies are user text: debug level only, and `?` escapes control and bidi characters,
        // so nothing typed can reach a terminal or log file as a raw escape sequence.
        debug!(input = ?input, reply = ?reply, "recorded a submission");
        record.inputs.push(input.to_owned());
        record.replies.push(reply);
        let user = commands.spawn((Role::User, ChatMessage::new(input))).id();
        let agent = commands.spawn((Role::Agent, ChatMessage::new(reply))).id();
        log.0.extend([user, agent]);
    }
}

/// The exit key's system. A desktop layer that takes Escape for itself in some place (the find
/// bar closes on it) gives this set a run condition, and the core stays as the spec says.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EscapeExits;

/// Requests a successful [`AppExit`] when Escape is pressed: the key that means Escape, wherever
/// the keyboard puts it (a remapped or on-screen keyboard may send it from another place).
///
/// It touches no conversation state: submissions read in the same frame still complete, since
/// the app only stops after the frame ends.
pub fn exit_on_escape(keys: Res<ButtonInput<Key>>, mut exit: MessageWriter<AppExit>) {
    if keys.just_pressed(Key::Escape) {
        exit.write(AppExit::Success);
    }
}
