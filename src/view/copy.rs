//! Copying a message from the conversation: a `복사` button beside a row's bubble while the
//! pointer is over the row, as chat apps on the desktop do (Slack, Teams, Telegram, ChatGPT);
//! and the keyboard's Ctrl+Shift+C for the newest reply (Ctrl+C is the field's). Either copies
//! the message's body, without its label, and says so under the field until the next key or
//! click.
//!
//! A button that shows on hover is found without being told: the pointer on a message is what
//! a person does before wanting something of it, and the word `복사` says what it does.

use bevy::{input::keyboard::KeyboardInput, input::mouse::MouseButtonInput, prelude::*};

use crate::{
    AppSystems,
    chat::{Message, MessageLog, Role},
    input::{CopyNewestReply, clipboard::WriteClipboard},
    theme::{self, Paint},
    view::MessageRow,
};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<CopyNewestReply>().add_systems(
        Update,
        (
            hide_the_notice,
            show_the_button_on_hover,
            copy_on_click,
            copy_the_newest_reply,
        )
            .chain()
            .after(AppSystems::ReadInput),
    );
}

/// What the copy button says.
pub const COPY: &str = "복사";
/// What the copy button says once it has copied, until the pointer leaves the row.
pub const COPIED: &str = "복사됨";

/// What the notice under the field says after a copy.
pub const COPIED_NOTICE: &str = "메시지를 복사했어요";

/// Marks a row's copy button.
#[derive(Component, Debug, Default)]
pub struct CopyButton;

/// Marks the notice that a message was copied; hidden until one is.
#[derive(Component, Debug, Default)]
pub struct CopiedNotice;

/// A row's copy button, out of the bubble's layout: beside the bubble, on the side away from
/// the row's edge (`justify` is the row's). Hidden until the pointer is over the row.
pub(super) fn copy_button(justify: JustifyContent) -> (impl Bundle, impl Bundle) {
    let beside = if justify == JustifyContent::FlexEnd {
        Node {
            position_type: PositionType::Absolute,
            right: percent(100),
            margin: UiRect::right(px(6)),
            padding: UiRect::axes(px(6), px(2)),
            border: UiRect::all(px(1)),
            ..default()
        }
    } else {
        Node {
            position_type: PositionType::Absolute,
            left: percent(100),
            margin: UiRect::left(px(6)),
            padding: UiRect::axes(px(6), px(2)),
            border: UiRect::all(px(1)),
            ..default()
        }
    };
    let placed = (beside, Visibility::Hidden, Text::new(COPY));
    let fixed = (
        Name::new("Copy button"),
        CopyButton,
        // Hovering the button still hovers its row, so it does not vanish under the pointer.
        Interaction::default(),
        bevy::ui::FocusPolicy::Pass,
        TextFont {
            font_size: FontSize::Px(theme::FONT_SIZE * 0.8),
            ..theme::text_font()
        },
        Paint::text(|p| p.placeholder).with_border(|p| p.input_border),
    );
    (placed, fixed)
}

/// The notice, to place under the field.
pub(super) fn copied_notice() -> impl Bundle {
    (
        Name::new("Copied notice"),
        CopiedNotice,
        Text::new(COPIED_NOTICE),
        TextFont {
            font_size: FontSize::Px(theme::FONT_SIZE * 0.8),
            ..theme::text_font()
        },
        Paint::text(|p| p.placeholder),
        Node {
            display: Display::None,
            ..default()
        },
    )
}

/// Shows a row's copy button while the pointer is over the row, saying `복사` again each time.
fn show_the_button_on_hover(
    rows: Query<(&Interaction, &Children), (With<MessageRow>, Changed<Interaction>)>,
    bubbles: Query<&Children>,
    mut buttons: Query<(&mut Visibility, &mut Text), With<CopyButton>>,
) {
    for (interaction, row) in &rows {
        let shown = *interaction != Interaction::None;
        for &bubble in row {
            let Ok(inside) = bubbles.get(bubble) else {
                continue;
            };
            let mut found = buttons.iter_many_mut(inside);
            while let Some((mut visibility, mut label)) = found.fetch_next() {
                visibility.set_if_neq(if shown {
                    Visibility::Inherited
                } else {
                    Visibility::Hidden
                });
                if !shown && label.0 != COPY {
                    label.0 = COPY.into();
                }
            }
        }
    }
}

/// Copies the body of the row whose button was pressed.
fn copy_on_click(
    mut buttons: Query<
        (&Interaction, &ChildOf, &mut Text),
        (With<CopyButton>, Changed<Interaction>),
    >,
    bubbles: Query<&ChildOf>,
    rows: Query<&MessageRow>,
    messages: Query<&Message>,
    mut copies: MessageWriter<WriteClipboard>,
    mut notice: Single<&mut Node, With<CopiedNotice>>,
) {
    for (interaction, ChildOf(bubble), mut label) in &mut buttons {
        if *interaction != Interaction::Pressed {
            continue;
        }
        let body = bubbles
            .get(*bubble)
            .and_then(|ChildOf(row)| rows.get(*row))
            .and_then(|row| messages.get(row.message));
        if let Ok(message) = body {
            copies.write(WriteClipboard(message.body().to_owned()));
            label.0 = COPIED.into();
            notice.display = Display::Flex;
        }
    }
}

/// Copies the newest reply when the field asks (Ctrl+Shift+C).
fn copy_the_newest_reply(
    mut asks: MessageReader<CopyNewestReply>,
    log: Res<MessageLog>,
    messages: Query<(&Message, &Role)>,
    mut copies: MessageWriter<WriteClipboard>,
    mut notice: Single<&mut Node, With<CopiedNotice>>,
) {
    if asks.read().count() == 0 {
        return;
    }
    let newest = log.entities().iter().rev().find_map(|&entity| {
        messages
            .get(entity)
            .ok()
            .filter(|(_, role)| **role == Role::Agent)
    });
    if let Some((reply, _)) = newest {
        copies.write(WriteClipboard(reply.body().to_owned()));
        notice.display = Display::Flex;
    }
}

/// Hides the notice at the next key or click, which also says the user has moved on.
fn hide_the_notice(
    mut keys: MessageReader<KeyboardInput>,
    mut clicks: MessageReader<MouseButtonInput>,
    mut notice: Single<&mut Node, With<CopiedNotice>>,
) {
    // Counted, not `any`: every message is read, so none is left to count again next frame.
    let presses = keys.read().filter(|key| key.state.is_pressed()).count()
        + clicks
            .read()
            .filter(|click| click.state.is_pressed())
            .count();
    if presses > 0 && notice.display != Display::None {
        notice.display = Display::None;
    }
}
