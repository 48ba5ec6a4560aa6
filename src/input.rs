//! The adapter between `bevy_simple_text_input` and the app: the only file that knows the widget.
//!
//! It builds the input field and translates the widget's submit message into a [`Submission`],
//! so the rest of the app would not change if the widget were swapped for another. The widget
//! reads keys only; `input/ime.rs` brings in text typed through an input method, such as
//! Hangul, and `input/pacing.rs` hands both to the field in the order they were typed.

use bevy::{
    input::InputSystems,
    prelude::*,
    ui::UiSystems,
    window::{Ime, RequestRedraw, WindowEvent, WindowFocused},
};
use bevy_simple_text_input::{
    TextInput, TextInputCursorPos, TextInputMaxLengthMessage, TextInputPlaceholder,
    TextInputPlugin, TextInputSettings, TextInputSubmitMessage, TextInputSystem,
    TextInputTextColor, TextInputTextFont, TextInputValue,
};

use crate::{AppSystems, chat::Submission, theme};

mod ime;
mod pacing;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(TextInputPlugin)
        // Registered by the window plugin too; headless apps have none.
        .add_message::<RequestRedraw>()
        .add_message::<Ime>()
        .add_message::<WindowEvent>()
        .add_message::<WindowFocused>()
        .init_resource::<pacing::HeldTyping>()
        .add_systems(PreUpdate, pacing::pace_typing.before(InputSystems))
        .configure_sets(Update, AppSystems::ReadInput.after(TextInputSystem))
        .add_systems(
            Update,
            // The widget has read the frame's keys; the IME's text follows them (see `pacing`).
            (
                forward_submissions,
                ime::apply_ime,
                keep_one_line,
                show_length_limit,
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

/// The text field: focused from the start, single line, with a placeholder while empty.
pub fn chat_input() -> impl Bundle {
    (
        Name::new("Chat input"),
        ChatInput,
        ime::Composition::default(),
        crate::view::accessible(accesskit::Role::TextInput, "메시지 입력"),
        TextInput,
        TextInputSettings {
            // The app's rule: Enter empties the field at once, whatever it held.
            retain_on_submit: false,
            max_length: Some(MAX_INPUT_CHARS),
            ..default()
        },
        TextInputTextFont(theme::text_font()),
        TextInputTextColor(TextColor(theme::palette::TEXT)),
        TextInputPlaceholder {
            value: PLACEHOLDER.to_owned(),
            // The widget's default (the text colour at 25% opacity) is too faint to read.
            text_color: Some(TextColor(theme::palette::PLACEHOLDER)),
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
        BorderColor::all(theme::palette::INPUT_BORDER),
        BackgroundColor(theme::palette::INPUT_BACKGROUND),
    )
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
        TextColor(theme::palette::WARNING),
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
    fields: Query<(Ref<TextInputValue>, &mut BorderColor), With<ChatInput>>,
    mut notice: Single<&mut Node, With<LengthLimitNotice>>,
) {
    let full = refused.read().count() > 0;
    for (value, mut border) in fields {
        let (display, color) = if full {
            (Display::Flex, theme::palette::WARNING)
        } else if value.is_changed() && value.0.chars().count() < usize::from(MAX_INPUT_CHARS) {
            (Display::None, theme::palette::INPUT_BORDER)
        } else {
            continue;
        };
        if notice.display != display {
            notice.display = display;
        }
        border.set_if_neq(BorderColor::all(color));
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
