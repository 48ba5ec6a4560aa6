//! The adapter between `bevy_simple_text_input` and the app: the only file that knows the widget.
//!
//! It builds the input field and translates the widget's submit message into a [`Submission`],
//! so the rest of the app would not change if the widget were swapped for another.

use bevy::prelude::*;
use bevy_simple_text_input::{
    TextInput, TextInputMaxLengthMessage, TextInputPlaceholder, TextInputPlugin, TextInputSettings,
    TextInputSubmitMessage, TextInputSystem, TextInputTextColor, TextInputTextFont, TextInputValue,
};

use crate::{AppSystems, chat::Submission, theme};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(TextInputPlugin)
        .configure_sets(Update, AppSystems::ReadInput.after(TextInputSystem))
        .add_systems(
            Update,
            (forward_submissions, show_length_limit).in_set(AppSystems::ReadInput),
        );
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
        TextInput,
        TextInputSettings {
            // Cleared on submit: the app's rule, enforced again in `forward_submissions`.
            retain_on_submit: false,
            max_length: Some(MAX_INPUT_CHARS),
            ..default()
        },
        TextInputTextFont(theme::text_font()),
        TextInputTextColor(TextColor(theme::palette::TEXT)),
        TextInputPlaceholder {
            value: PLACEHOLDER.to_owned(),
            // Keep the hint while the (always focused) field is empty.
            hide_on_focus: false,
            ..default()
        },
        Node {
            flex_grow: 1.0,
            padding: UiRect::all(px(10)),
            border: UiRect::all(px(2)),
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

/// Empties the field and passes the raw line on, for every Enter the widget reports.
///
/// The widget already clears itself because `retain_on_submit` is off; clearing here as well
/// keeps "the input is empty after every Enter, blank or not" true whatever the widget settings.
fn forward_submissions(
    mut submitted: MessageReader<TextInputSubmitMessage>,
    mut fields: Query<&mut TextInputValue, With<ChatInput>>,
    mut submissions: MessageWriter<Submission>,
) {
    for TextInputSubmitMessage { entity, value } in submitted.read() {
        if let Ok(mut field) = fields.get_mut(*entity)
            && !field.0.is_empty()
        {
            field.0.clear();
        }
        submissions.write(Submission(value.clone()));
    }
}
