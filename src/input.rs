//! The adapter between `bevy_simple_text_input` and the app: the only file that knows the widget.
//!
//! It builds the input field and translates the widget's submit message into a [`Submission`],
//! so the rest of the app would not change if the widget were swapped for another. The widget
//! reads keys only; `input/ime.rs` brings in text typed through an input method, such as
//! Hangul, and `input/pacing.rs` hands both to the field in the order they were typed.
//! `input/caret.rs` stops the caret blinking once the user is idle.

use bevy::{
    input::InputSystems,
    input_focus::{AutoFocus, InputFocus},
    prelude::*,
    ui::UiSystems,
    window::{Ime, RequestRedraw, WindowEvent, WindowFocused},
};
use bevy_simple_text_input::{
    TextInput, TextInputCursorPos, TextInputInactive, TextInputMaxLengthMessage,
    TextInputPlaceholder, TextInputPlugin, TextInputSettings, TextInputSubmitMessage,
    TextInputSystem, TextInputTextColor, TextInputTextFont, TextInputValue,
};

use crate::{
    AppSystems,
    chat::Submission,
    theme::{self, Paint, Palette, Swatch, Theme},
};

pub mod caret;
mod ime;
mod pacing;
mod reader;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(TextInputPlugin)
        // Registered by the window plugin too; headless apps have none.
        .add_message::<RequestRedraw>()
        .add_message::<Ime>()
        .add_message::<WindowEvent>()
        .add_message::<WindowFocused>()
        .init_resource::<pacing::HeldTyping>()
        .init_resource::<caret::CaretBlink>()
        .add_systems(PreUpdate, pacing::pace_typing.before(InputSystems))
        .configure_sets(Update, AppSystems::ReadInput.after(TextInputSystem))
        // Before the widget, which applies a new text colour and blinks its caret in the same
        // frame.
        .add_systems(
            Update,
            (paint_widget, caret::rest_when_idle).before(TextInputSystem),
        )
        .add_systems(
            Update,
            // The widget has read the frame's keys; the IME's text follows them (see `pacing`).
            (
                forward_submissions,
                ime::apply_ime,
                take_keys,
                keep_one_line,
                show_length_limit,
                reader::describe_field,
            )
                .chain()
                .in_set(AppSystems::ReadInput),
        )
        .add_systems(PostUpdate, ime::place_ime_window.after(UiSystems::Layout));
}

/// The most characters the field takes from the keyboard. Plenty for a chat line; it keeps
/// one line's layout cheap. Lines that arrive longer by other routes are still accepted whole
/// (see the view for how they are shown).
pub const MAX_INPUT_CHARS: u16 = 2000;

/// The notice shown while the field is full.
pub const LENGTH_LIMIT_NOTICE: &str = "최대 2000자까지 입력할 수 있어요";

/// What the empty input shows, so a first-time user knows where to type.
pub const PLACEHOLDER: &str = "메시지를 입력하고 Enter를 누르세요";

/// Marks the app's one text field.
#[derive(Component, Debug, Default)]
pub struct ChatInput;

/// The text field in `palette`'s colours: focused from the start, single line, with a
/// placeholder while empty.
pub fn chat_input(palette: &Palette) -> impl Bundle {
    (
        Name::new("Chat input"),
        ChatInput,
        // Input focus from the start: the keys are the field's, and a screen reader starts here.
        AutoFocus,
        ime::Composition::default(),
        crate::a11y::accessible(accesskit::Role::TextInput, "메시지 입력"),
        children![reader::text_run()],
        TextInput,
        TextInputSettings {
            // The app's rule: Enter empties the field at once, whatever it held.
            retain_on_submit: false,
            max_length: Some(MAX_INPUT_CHARS),
            ..default()
        },
        TextInputTextFont(theme::text_font()),
        // The widget reads these two colours when it builds its text; `paint_widget` follows
        // theme changes.
        TextInputTextColor(TextColor(palette.text)),
        TextInputPlaceholder {
            value: PLACEHOLDER.to_owned(),
            // The widget's default (the text colour at 25% opacity) is too faint to read.
            text_color: Some(TextColor(palette.placeholder)),
            // Keep the hint while the (always focused) field is empty.
            hide_on_focus: false,
            ..default()
        },
        Node {
            flex_grow: 1.0,
            padding: UiRect::all(px(10)),
            border: UiRect::all(px(2)),
            // The placeholder does not wrap; in a narrow window it is cut at the border instead
            // of spilling past it.
            overflow: Overflow::clip(),
            ..default()
        },
        Paint::background(|p| p.input_background).with_border(|p| p.input_border),
    )
}

/// Lets the widget take keys only while the field has input focus and no IME composition is in
/// progress (see `input/ime.rs`). Bevy's [`InputFocus`] says where keys go, as for any widget.
fn take_keys(
    focus: Res<InputFocus>,
    mut fields: Query<(Entity, &ime::Composition, &mut TextInputInactive), With<ChatInput>>,
) {
    for (field, composition, mut inactive) in &mut fields {
        let takes_keys = focus.get() == Some(field) && !composition.is_composing();
        if inactive.0 == takes_keys {
            inactive.0 = !takes_keys;
        }
    }
}

/// Marks the notice that tells the user the field is full; hidden until it is.
#[derive(Component, Debug, Default)]
pub struct LengthLimitNotice;

/// The full-field notice, to place next to the field.
pub fn length_limit_notice() -> impl Bundle {
    (
        Name::new("Length limit notice"),
        LengthLimitNotice,
        Text::new(LENGTH_LIMIT_NOTICE),
        TextFont {
            font_size: FontSize::Px(theme::FONT_SIZE * 0.8),
            ..theme::text_font()
        },
        Paint::text(|p| p.warning),
        // Hidden by taking it out of layout, so the empty space does not push the field up.
        Node {
            display: Display::None,
            ..default()
        },
    )
}

/// Shows the notice (and a warning border) when the widget refuses a key because the field is
/// full, and hides it once the text is shorter again, by deletion or by submitting.
fn show_length_limit(
    mut refused: MessageReader<TextInputMaxLengthMessage>,
    fields: Query<(Ref<TextInputValue>, &mut Paint), With<ChatInput>>,
    mut notice: Single<&mut Node, With<LengthLimitNotice>>,
) {
    let full = refused.read().count() > 0;
    for (value, mut paint) in fields {
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
        With<ChatInput>,
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

/// Keeps the field on one line: the widget inserts whatever character a key produces, so a line
/// feed (from a remapped Return key, say) or a tab would otherwise enter the field and make it
/// grow. Each control character becomes a space, one for one, so the cursor stays put.
fn keep_one_line(
    fields: Query<
        (&mut TextInputValue, &mut TextInputCursorPos),
        (With<ChatInput>, Changed<TextInputValue>),
    >,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    for (mut field, mut cursor) in fields {
        if field.0.contains(char::is_control) {
            field.0 = field
                .0
                .chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect();
            // Tells the widget the cursor was placed on purpose, so it does not jump to the end.
            cursor.set_changed();
            // The widget shows the new value next frame; in reactive mode, ask for that frame now.
            redraw.write(RequestRedraw);
        }
    }
}

/// Passes on the raw line of every Enter the widget reports.
///
/// The widget has emptied the field already (`retain_on_submit` is off), at the Enter itself:
/// keys typed after it in the same frame are the start of the next line, and stay.
fn forward_submissions(
    mut submitted: MessageReader<TextInputSubmitMessage>,
    mut submissions: MessageWriter<Submission>,
) {
    submissions.write_batch(
        submitted
            .read()
            .map(|TextInputSubmitMessage { value, .. }| Submission(value.clone())),
    );
}
