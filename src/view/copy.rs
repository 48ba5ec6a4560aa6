//! Copying a message from the conversation: a `복사` button beside a row's bubble while the
//! pointer is over the row, as chat apps on the desktop do (Slack, Teams, Telegram, ChatGPT);
//! the keyboard's Ctrl+Shift+C for the newest reply (Ctrl+C is the field's); for the message
//! that has keyboard focus (`view/focus.rs`), Ctrl+C; and the conversation menu's `메시지 복사`
//! (`view/menu.rs`). Each copies the message's body, without its label, and says so under the
//! field until the next key or click; screen readers hear that said once.
//!
//! A button that shows on hover is found without being told: the pointer on a message is what
//! a person does before wanting something of it, and the word `복사` says what it does.

use accesskit::{Action, Role as AccessRole};
use bevy::{a11y::AccessibilityNode, ecs::system::SystemParam, prelude::*, ui::FocusPolicy};

use super::speech::{Announce, Notice, Topic, hide_the_notice};
use crate::{
    a11y::accessible,
    chat::{ChatMessage, MessageLog, Role},
    input::{self, CopyNewestReply, clipboard::WriteClipboard},
    theme::{self, Paint},
    view::MessageRow,
};

pub(super) fn plugin(app: &mut App) {
    app.register_type::<CopyButton>()
        .register_type::<CopiedNotice>()
        .add_message::<CopyNewestReply>()
        .add_message::<CopyBody>()
        .add_message::<CopyText>()
        .add_message::<CopyAddress>()
        .add_systems(
            Update,
            (
                hide_the_notice::<CopiedNotice>,
                show_the_button_on_hover,
                copy_on_click,
                copy_the_newest_reply,
                copy_bodies,
            )
                .chain()
                .in_set(CopySystems),
        );
}

/// The copy button's and the copies' systems: after the keys that ask for copies, before the
/// widget draws the field (`frame.rs`).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CopySystems;

/// Copy this message's body to the clipboard, and say so.
#[derive(Message, Debug, Clone, Copy)]
pub struct CopyBody(pub Entity);

/// Copy this text (what is selected of the conversation) to the clipboard, and say so.
#[derive(Message, Debug, Clone)]
pub struct CopyText(pub String);

/// Copy this link's address to the clipboard, and say so (`링크 주소 복사`).
#[derive(Message, Debug, Clone)]
pub struct CopyAddress(pub String);

/// What the copy button says.
pub const COPY: &str = "복사";
/// What the copy button says once it has copied, until the pointer leaves the row.
pub const COPIED: &str = "복사됨";

/// What the notice under the field says after a copy.
pub const COPIED_NOTICE: &str = "메시지를 복사했어요";

/// What the notice says after a link's address is copied.
pub const ADDRESS_COPIED_NOTICE: &str = "링크 주소를 복사했어요";

/// Marks a row's copy button.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct CopyButton;

/// Marks the notice that a message was copied; hidden until one is.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct CopiedNotice;

impl Notice for CopiedNotice {
    const TOPIC: Topic = Topic::Copied;
}

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
        button_node(),
        FocusPolicy::Pass,
        theme::small_font(),
        Paint::text(|p| p.placeholder).with_border(|p| p.input_border),
    )
}

/// Puts the button into `bubble`: for screen readers, inside the message it copies.
fn move_button(commands: &mut Commands, button: Entity, bubble: Entity) {
    commands.entity(bubble).add_child(button);
}

/// What a screen reader is told of the button: a push button `복사` that takes a click.
fn button_node() -> AccessibilityNode {
    let mut node = accessible(AccessRole::Button, COPY);
    node.add_action(Action::Click);
    node
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

/// The one copy button: what the pointer shows beside a bubble, and hides.
#[derive(SystemParam)]
struct CopyButtonSpot<'w, 's> {
    buttons: Query<
        'w,
        's,
        (
            Entity,
            &'static mut Node,
            &'static mut Visibility,
            &'static mut AccessibilityNode,
            &'static mut Text,
            &'static ChildOf,
        ),
        (With<CopyButton>, Without<MessageRow>),
    >,
    commands: Commands<'w, 's>,
}

impl CopyButtonSpot<'_, '_> {
    /// Shows the button beside `bubble`, in a row justified `justify`: moved there saying `복사`,
    /// or made there the first time.
    fn show_beside(&mut self, bubble: Entity, justify: JustifyContent) {
        match self.buttons.single_mut() {
            Ok((button, mut node, mut visibility, mut a11y, mut label, ChildOf(from))) => {
                *node = beside(justify);
                show(&mut visibility, &mut a11y, true);
                if *from != bubble {
                    label.0 = COPY.into();
                    move_button(&mut self.commands, button, bubble);
                }
            }
            Err(_) => {
                let button = self.commands.spawn((copy_button(), beside(justify))).id();
                move_button(&mut self.commands, button, bubble);
            }
        }
    }

    /// Hides the button if it is beside `bubble`, ready to say `복사` when it shows again.
    fn hide_from(&mut self, bubble: Entity) {
        if let Ok((_, _, mut visibility, mut a11y, mut label, ChildOf(at))) =
            self.buttons.single_mut()
            && *at == bubble
        {
            show(&mut visibility, &mut a11y, false);
            label.0 = COPY.into();
        }
    }
}

/// Puts the copy button beside the bubble of the row the pointer moved onto, and hides it when
/// the pointer leaves that row.
fn show_the_button_on_hover(
    rows: Query<(&Interaction, &Node, &Children), (With<MessageRow>, Changed<Interaction>)>,
    mut button: CopyButtonSpot,
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
    match onto {
        Some((bubble, justify)) => button.show_beside(bubble, justify),
        None => {
            for bubble in left {
                button.hide_from(bubble);
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
    mut copies: MessageWriter<CopyBody>,
) {
    for (interaction, ChildOf(bubble), mut label) in &mut buttons {
        if *interaction != Interaction::Pressed {
            continue;
        }
        if let Ok(row) = bubbles.get(*bubble).and_then(|ChildOf(row)| rows.get(*row)) {
            copies.write(CopyBody(row.message));
            label.0 = COPIED.into();
        }
    }
}

/// Copies the newest reply when the field asks (Ctrl+Shift+C).
fn copy_the_newest_reply(
    mut asks: MessageReader<CopyNewestReply>,
    log: Res<MessageLog>,
    roles: Query<&Role>,
    mut copies: MessageWriter<CopyBody>,
) {
    if asks.read().count() == 0 {
        return;
    }
    let newest = log
        .entities()
        .iter()
        .rev()
        .find(|&&entity| roles.get(entity) == Ok(&Role::Agent));
    if let Some(&reply) = newest {
        copies.write(CopyBody(reply));
    }
}

/// Hands the frame's last asked-for body or text to the clipboard, shows the notice, and has
/// screen readers say it.
fn copy_bodies(
    mut asks: MessageReader<CopyBody>,
    mut texts: MessageReader<CopyText>,
    mut addresses: MessageReader<CopyAddress>,
    messages: Query<&ChatMessage>,
    mut clipboard: MessageWriter<WriteClipboard>,
    notice: Single<(&mut Node, &mut Text), With<CopiedNotice>>,
    mut announce: MessageWriter<Announce>,
) {
    let body = asks
        .read()
        .filter_map(|CopyBody(message)| messages.get(*message).ok())
        .last()
        .map(|message| message.body().to_owned());
    let address = (addresses.read().last()).map(|CopyAddress(address)| address.clone());
    // They never come in one frame: a key or a menu item copies the selection, the focused
    // message or a link's address.
    let Some((last, said)) = (texts.read().last())
        .map(|CopyText(text)| text.clone())
        .or(body)
        .map(|text| (text, COPIED_NOTICE))
        .or(address.map(|address| (address, ADDRESS_COPIED_NOTICE)))
    else {
        return;
    };
    clipboard.write(WriteClipboard(last));
    let (mut node, mut text) = notice.into_inner();
    node.display = Display::Flex;
    if text.0 != said {
        said.clone_into(&mut text.0);
    }
    announce.write(Announce::say(Topic::Copied, said));
}

/// Shows or hides the button, on screen and to screen readers.
fn show(visibility: &mut Visibility, a11y: &mut AccessibilityNode, shown: bool) {
    if shown {
        *visibility = Visibility::Inherited;
        a11y.clear_hidden();
    } else {
        *visibility = Visibility::Hidden;
        a11y.set_hidden();
    }
}
