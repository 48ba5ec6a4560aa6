//! The adapter between `bevy_simple_text_input` and the app: with `chat`, which reads the one
//! message the field sends, the only module that knows the widget.
//!
//! The widget draws the field: its text, its caret and their colours, the placeholder, the
//! horizontal scroll. The editing is the adapter's, as on any desktop: `input/edit.rs` applies
//! keys and input-method text (which the keyboard's pass above, `keyboard/typing.rs`, takes in
//! the order they came: `input/arrival.rs` reads them so, and `input/commit_wait.rs` holds keys
//! that overtake an IME's commit) to an `input/editor.rs` line (clusters, words, selection,
//! undo). What each key means is data here, below everything that acts on it: `input/keys.rs`
//! for the line, `input/keymap.rs` for the find bar, zoom and a menu, and `input/routing.rs`
//! says which meaning holds where focus is. This module imports nothing from `view` or
//! `keyboard`, which sit above it.
//!
//! Beside the editing, `input/clipboard.rs` reaches the system clipboard, and
//! `input/selection.rs` draws the selection and takes the mouse. `input/caret.rs` stops the
//! caret blinking once the user is idle. Whatever waits or counts time does it on
//! `input/clock.rs`'s clock. Enter's line leaves as the widget's own submit message,
//! [`TextInputSubmitMessage`](bevy_simple_text_input::TextInputSubmitMessage), which
//! `chat::record_submissions` reads as it is: swapping the widget for another would change this
//! module and that one message type.

use bevy::{
    clipboard::Clipboard,
    input_focus::{AutoFocus, InputFocus},
    prelude::*,
    window::{Ime, RequestRedraw, WindowEvent, WindowFocused},
    winit::RawWinitWindowEvent,
};
use bevy_simple_text_input::{
    TextInput, TextInputInactive, TextInputNavigationBindings, TextInputPlaceholder,
    TextInputPlugin, TextInputSettings, TextInputTextColor, TextInputTextFont, TextInputValue,
};

use crate::theme::{self, Paint, Palette, Swatch, Theme};

pub(crate) mod arrival;
pub mod caret;
pub mod clipboard;
pub mod clock;
pub(crate) mod commit_wait;
pub(crate) mod edit;
pub mod editor;
mod field;
mod ime;
pub mod keymap;
pub(crate) mod keys;
pub(crate) mod routing;
mod screen_reader;
pub(crate) mod selection;

pub use commit_wait::COMMIT_PATIENCE;
pub use field::{Field, key_message, keys_that_send};
pub use keys::{MessageAction, Walk};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((TextInputPlugin, clipboard::plugin, selection::plugin))
        // The widget's own key handling mixes bytes and characters and types the letter of
        // every shortcut; with no bindings it moves nothing (see `chat_input` for the typing).
        .insert_resource(TextInputNavigationBindings(Vec::new()))
        // Registered by the window and clipboard plugins too; headless apps have none.
        .add_message::<RequestRedraw>()
        .add_message::<Ime>()
        .add_message::<WindowEvent>()
        .add_message::<RawWinitWindowEvent>()
        .add_message::<WindowFocused>()
        .add_message::<FieldFull>()
        .add_message::<selection::PastePrimary>()
        .add_message::<ConversationInput>()
        .init_resource::<Clipboard>()
        .register_type::<ChatInput>()
        .register_type::<LengthLimitNotice>()
        .register_type::<caret::CaretBlink>()
        .register_type::<caret::CaretBar>()
        .init_resource::<caret::CaretBlink>()
        .init_resource::<clock::InputClock>()
        .add_systems(
            Update,
            (
                paint_widget.in_set(FieldDrawing::Paint),
                caret::rest_when_idle.in_set(FieldDrawing::Rest),
            ),
        )
        .add_systems(
            Update,
            (
                selection::point_and_drag,
                selection::offer_the_selection.run_if(any_match_filter::<Changed<Field>>),
                edit::show_in_widget,
                hide_caret_while_composing,
                show_length_limit,
                screen_reader::describe_field,
            )
                .chain()
                .in_set(FieldSystems),
        )
        .add_systems(Startup, caret::follow_the_blink_in_virtual_time)
        .add_systems(
            PostUpdate,
            (
                (selection::follow_the_layout, caret::place_bar)
                    .chain()
                    .in_set(FieldDrawing::Caret),
                ime::place_ime_window.in_set(FieldDrawing::ImeWindow),
            ),
        );
}

/// The field's systems, after the keyboard's pass has applied the frame's typing to it
/// (`keyboard/typing.rs`): the mouse, the selection offered, and the line shown.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FieldSystems;

/// The field's other systems, by when they must run around the widget and Bevy's UI layout;
/// the frame map (`frame.rs`) says when.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldDrawing {
    /// The widget's colours from the theme, before the widget applies them.
    Paint,
    /// The caret rests or wakes, once the field has taken the frame's typing.
    Rest,
    /// The line's spans marked (selection, composition), after the widget rewrites them.
    Decorate,
    /// The caret's bar placed where the text layout puts the caret (`PostUpdate`).
    Caret,
    /// The IME's candidate window moved beside the caret (`PostUpdate`).
    ImeWindow,
    /// The system clipboard written and read (`PostUpdate`).
    Clipboard,
}

/// Keys for the conversation, which the field reads with the rest of the typing and passes on
/// in the order they came (see `view/focus.rs`).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConversationInput {
    /// Tab, Shift+Tab or F6 in the field: keyboard focus goes to the conversation.
    Focus,
    /// A key that moves focus from message to message, pressed while focus is out of the field.
    Walk(Walk),
    /// A key that acts on the focused message, pressed while focus is out of the field.
    Act(MessageAction),
    /// PageUp, PageDown, Ctrl+Home or Ctrl+End pressed in the field: the conversation scrolls,
    /// and focus stays in the field.
    Scroll(Walk),
    /// Ctrl+A pressed while focus is out of the field: select the whole conversation.
    SelectAll,
    /// Ctrl+C or Ctrl+Insert pressed in the field with nothing selected there: the window's
    /// selection, if it is the conversation's, is what is copied.
    CopySelection,
    /// The conversation menu's `메시지 복사`: copy the body of the message at this place in the
    /// log (`None`: the focused one), as its `복사` button does.
    CopyMessage(Option<usize>),
    /// The conversation menu's `링크 열기`: open this link, as the message at a place in the log
    /// and which of its links (`None`: the one the keyboard is on).
    OpenLink(Option<(usize, usize)>),
    /// The conversation menu's `링크 주소 복사`: copy this link's address (as `OpenLink`).
    CopyLink(Option<(usize, usize)>),
}

/// The user asked to copy the newest reply (Ctrl+Shift+C); the view answers it.
#[derive(Message, Debug, Clone, Copy)]
pub struct CopyNewestReply;

/// The field refused text: it holds [`MAX_INPUT_CHARS`] characters already.
#[derive(Message, Debug, Clone, Copy)]
pub struct FieldFull(pub Entity);

/// The most characters the field takes from the keyboard or a paste, line breaks counted.
/// Plenty for a chat message; it keeps the field's layout cheap. Messages that arrive longer by
/// other routes are still accepted whole (see the view for how they are shown).
pub const MAX_INPUT_CHARS: u16 = 2000;

/// The notice shown while the field is full.
pub const LENGTH_LIMIT_NOTICE: &str = "최대 2000자까지 입력할 수 있어요";

/// What the empty input shows, so a first-time user knows where to type.
pub const PLACEHOLDER: &str = "메시지를 입력하고 Enter를 누르세요";

/// Marks the field the chat's lines are typed in.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct ChatInput;

/// The chat's field in `palette`'s colours: focused from the start, holding lines as they are
/// typed (Shift+Enter) or pasted, with a placeholder while empty.
pub fn chat_input(palette: &Palette) -> impl Bundle {
    (
        Name::new("Chat input"),
        ChatInput,
        // Input focus from the start: the keys are the field's, and a screen reader starts here.
        AutoFocus,
        text_field(
            Field::with_line_breaks(),
            palette,
            PLACEHOLDER,
            accesskit::Role::MultilineTextInput,
            "메시지 입력",
        ),
        Node {
            flex_grow: 1.0,
            padding: UiRect::all(px(10)),
            border: UiRect::all(px(2)),
            // The placeholder does not wrap; in a narrow window it is cut at the border instead
            // of spilling past it.
            overflow: Overflow::clip(),
            ..default()
        },
    )
}

/// A text field editing `field` (of one line, or of many: [`Field::with_line_breaks`]),
/// showing `placeholder` while empty, which a screen reader tells as `role` named `label`: the
/// widget, with the app's editing, to place in a node.
pub(crate) fn text_field(
    field: Field,
    palette: &Palette,
    placeholder: &str,
    role: accesskit::Role,
    label: &str,
) -> impl Bundle {
    (
        field,
        crate::a11y::accessible(role, label),
        children![screen_reader::text_run()],
        TextInput,
        TextInputSettings {
            // The widget types nothing itself: it refuses every character as over this length,
            // and `typing` applies them instead, with the app's limit (MAX_INPUT_CHARS).
            max_length: Some(0),
            ..default()
        },
        TextInputTextFont(theme::text_font()),
        // The widget reads these two colours when it builds its text; `paint_widget` follows
        // theme changes.
        TextInputTextColor(TextColor(palette.text)),
        TextInputPlaceholder {
            value: placeholder.to_owned(),
            // The widget's default (the text colour at 25% opacity) is too faint to read.
            text_color: Some(TextColor(palette.placeholder)),
            // Keep the hint while the (always focused) field is empty.
            hide_on_focus: false,
            ..default()
        },
        Paint::background(|p| p.input_background).with_border(|p| p.input_border),
    )
}

/// Shows the widget's caret only while the field has input focus and no IME composition is in
/// progress: the composition itself shows where the user is. Bevy's [`InputFocus`] says where
/// keys go, as for any widget.
fn hide_caret_while_composing(
    focus: Res<InputFocus>,
    mut fields: Query<(Entity, &Field, &mut TextInputInactive)>,
) {
    for (entity, field, mut inactive) in &mut fields {
        let active = focus.get() == Some(entity) && !field.line().is_composing();
        if inactive.0 == active {
            inactive.0 = !active;
        }
    }
}

/// Marks the notice that tells the user the field is full; hidden until it is.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct LengthLimitNotice;

/// The full-field notice, to place next to the field.
pub fn length_limit_notice() -> impl Bundle {
    (
        Name::new("Length limit notice"),
        LengthLimitNotice,
        notice(LENGTH_LIMIT_NOTICE, |p| p.warning),
    )
}

/// A line of small text in `colour` on the field's background, in a frame, hidden until
/// something shows it: one of the notices over the conversation (`view.rs`).
pub fn notice(text: &str, colour: Swatch) -> impl Bundle {
    (
        Text::new(text),
        theme::small_font(),
        Paint {
            background: Some(|p| p.input_background),
            text: Some(colour),
            border: Some(|p| p.input_border),
        },
        Node {
            display: Display::None,
            padding: UiRect::axes(px(8), px(2)),
            border: UiRect::all(px(1)),
            ..default()
        },
    )
}

/// Shows the notice (and a warning border) when the field refuses text because it is full, and
/// hides it once the text is shorter again, by deletion or by submitting.
fn show_length_limit(
    mut refused: MessageReader<FieldFull>,
    fields: Query<(Entity, Ref<TextInputValue>, &mut Paint), With<ChatInput>>,
    mut notice: Single<&mut Node, With<LengthLimitNotice>>,
) {
    let refused: Vec<Entity> = refused.read().map(|FieldFull(field)| *field).collect();
    for (entity, value, mut paint) in fields {
        let full = refused.contains(&entity);
        let (display, border): (_, Swatch) = if full {
            (Display::Flex, |p| p.warning)
        } else if value.is_changed() && value.0.chars().count() < usize::from(MAX_INPUT_CHARS) {
            (Display::None, |p| p.input_border)
        } else {
            continue;
        };
        // The border changes with the notice, so it is set when the notice changes.
        if notice.display != display {
            notice.display = display;
            paint.border = Some(border);
        }
    }
}

/// Gives the widget's own text the current theme's colours: the widget colours its text from
/// `TextInputTextColor` (and follows changes to it), but colours the placeholder only when it
/// builds it, so the placeholder's text span is repainted here.
fn paint_widget(
    theme: Res<Theme>,
    mut fields: Query<
        (
            &mut TextInputTextColor,
            &mut TextInputPlaceholder,
            &Children,
        ),
        With<Field>,
    >,
    names: Query<(&Name, &Children)>,
    mut spans: Query<&mut TextColor, With<TextSpan>>,
) {
    if !theme.is_changed() {
        return;
    }
    let palette = theme.palette();
    for (mut text, mut placeholder, children) in &mut fields {
        text.0 = TextColor(palette.text);
        placeholder.text_color = Some(TextColor(palette.placeholder));
        // The widget's placeholder node: a text whose last span is the hint.
        let hint = children
            .iter()
            .filter_map(|child| names.get(child).ok())
            .find(|(name, _)| name.as_str() == "TextInputPlaceholderInner")
            .and_then(|(_, spans)| spans.last().copied());
        if let Some(mut color) = hint.and_then(|span| spans.get_mut(span).ok()) {
            color.0 = palette.placeholder;
        }
    }
}

/// The window's own scale (winit's, which follows the desktop's), from a node's: a node's
/// [`ComputedNode::inverse_scale_factor`] is that of the window and the zoom together. The
/// pointer comes in the window's logical pixels; times this, in layout's physical ones.
pub fn window_scale(node: &ComputedNode, zoom: &UiScale) -> f32 {
    (node.inverse_scale_factor() * zoom.0).recip()
}
