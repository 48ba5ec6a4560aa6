//! Copying a message from the conversation: a `복사` button beside a row's bubble while the
//! pointer is over the row, as chat apps on the desktop do (Slack, Teams, Telegram, ChatGPT);
//! and the keyboard's Ctrl+Shift+C for the newest reply (Ctrl+C is the field's). Either copies
//! the message's body, without its label, and says so under the field until the next key or
//! click.
//!
//! A button that shows on hover is found without being told: the pointer on a message is what
//! a person does before wanting something of it, and the word `복사` says what it does.

use bevy::{
    input::{keyboard::KeyboardInput, mouse::MouseButtonInput},
    prelude::*,
    ui::FocusPolicy,
};

use crate::{
    AppSystems,
    chat::{Message, MessageLog, Role},
    input::{self, CopyNewestReply, clipboard::WriteClipboard},
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

/// The copy button, beside the bubble of the row under the pointer.
///
/// One button for the whole conversation, not one per row: it moves to the row the pointer is
/// on. A button in every mounted row would be some 30 more nodes for layout to walk in every
/// frame, for something only one row shows at a time.
fn copy_button() -> impl Bundle {
    (
        Name::new("Copy button"),
        CopyButton,
        Text::new(COPY),
        // Hovering the button still hovers its row, so it does not vanish under the pointer.
        Interaction::default(),
        FocusPolicy::Pass,
        theme::small_font(),
        Paint::text(|p| p.placeholder).with_border(|p| p.input_border),
    )
}

/// Where the button sits: out of the bubble's layout, beside it on the side away from the
/// row's edge (`justify` is the row's), so no row moves or changes height when it shows.
fn beside(justify: JustifyContent) -> Node {
    let gap = px(6);
    let (left, right, margin) = if justify == JustifyContent::FlexEnd {
        (Val::Auto, percent(100), UiRect::right(gap))
    } else {
        (percent(100), Val::Auto, UiRect::left(gap))
    };
    Node {
        position_type: PositionType::Absolute,
        left,
        right,
        margin,
        padding: UiRect::axes(px(6), px(2)),
        border: UiRect::all(px(1)),
        ..default()
    }
}

/// The notice, to place under the field.
pub(super) fn copied_notice() -> impl Bundle {
    (
        Name::new("Copied notice"),
        CopiedNotice,
        input::notice(COPIED_NOTICE, |p| p.placeholder),
    )
}

/// Puts the copy button beside the bubble of the row the pointer moved onto, saying `복사`
/// again, and hides it when the pointer leaves that row.
fn show_the_button_on_hover(
    rows: Query<(&Interaction, &Node, &Children), (With<MessageRow>, Changed<Interaction>)>,
    mut buttons: Query<
        (Entity, &mut Node, &mut Visibility, &mut Text, &ChildOf),
        (With<CopyButton>, Without<MessageRow>),
    >,
    mut commands: Commands,
) {
    // The row the pointer moved onto, if any; else whether it left the row with the button.
    let mut onto = None;
    let mut left = Vec::new();
    for (interaction, row, bubble) in &rows {
        let Some(&bubble) = bubble.first() else {
            continue;
        };
        if *interaction == Interaction::None {
            left.push(bubble);
        } else {
            onto = Some((bubble, row.justify_content));
        }
    }
    let button = buttons.single_mut();
    match (onto, button) {
        (Some((bubble, justify)), Ok((button, mut node, mut visibility, mut label, parent))) => {
            *node = beside(justify);
            *visibility = Visibility::Inherited;
            if parent.parent() != bubble {
                label.0 = COPY.into();
                commands.entity(bubble).add_child(button);
            }
        }
        // The first hover, or the row that held the button was let go with it.
        (Some((bubble, justify)), Err(_)) => {
            commands
                .entity(bubble)
                .with_child((copy_button(), beside(justify)));
        }
        (None, Ok((_, _, mut visibility, mut label, parent))) => {
            if left.contains(&parent.parent()) {
                *visibility = Visibility::Hidden;
                label.0 = COPY.into();
            }
        }
        (None, Err(_)) => {}
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
