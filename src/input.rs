//! The adapter between `bevy_simple_text_input` and the app: the only file that knows the widget.
//!
//! It builds the input field and translates the widget's submit message into a [`Submission`],
//! so the rest of the app would not change if the widget were swapped for another.

use bevy::prelude::*;
use bevy_simple_text_input::{
    TextInput, TextInputPlaceholder, TextInputPlugin, TextInputSettings, TextInputSubmitMessage,
    TextInputSystem, TextInputTextColor, TextInputTextFont, TextInputValue,
};

use crate::{AppSystems, chat::Submission, theme};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(TextInputPlugin)
        .configure_sets(Update, AppSystems::ReadInput.after(TextInputSystem))
        .add_systems(Update, forward_submissions.in_set(AppSystems::ReadInput));
}

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
