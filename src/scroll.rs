//! How the conversation scrolls: to the newest row whenever rows arrive, and otherwise where the
//! user takes it, with the mouse wheel, the page keys (while the input keeps focus) or the
//! scrollbar beside it.

use bevy::{
    input::mouse::{MouseScrollUnit, MouseWheel},
    prelude::*,
    ui::UiSystems,
    ui_widgets::{ControlOrientation, Scrollbar, ScrollbarPlugin, ScrollbarThumb},
};

use crate::{
    AppSystems,
    theme::{self, Paint},
    view::Conversation,
};

pub(super) fn plugin(app: &mut App) {
    // `DefaultPlugins` brings it in a windowed app; headless apps need it added.
    if !app.is_plugin_added::<ScrollbarPlugin>() {
        app.add_plugins(ScrollbarPlugin);
    }
    app.add_systems(
        Update,
        (
            scroll_by_user.in_set(AppSystems::ReadInput),
            scroll_to_newest.in_set(AppSystems::Scroll),
        ),
    )
    .add_systems(
        PostUpdate,
        (settle_scroll, show_scrollbar_when_needed).after(UiSystems::Layout),
    );
}

/// How wide the scrollbar is, in logical pixels.
pub const SCROLLBAR_WIDTH: f32 = 8.0;

/// The scrollbar for `conversation`: Bevy's headless scrollbar widget, which sizes and places
/// the thumb from the area's scroll offset, and scrolls the area when the thumb is dragged or
/// the track clicked. It sits in the window's margin, right of the area, so it takes no width
/// from the rows.
pub fn scrollbar(conversation: Entity) -> impl Bundle {
    (
        Name::new("Scrollbar"),
        Scrollbar::new(
            conversation,
            ControlOrientation::Vertical,
            3.0 * SCROLLBAR_WIDTH,
        ),
        Node {
            position_type: PositionType::Absolute,
            // In the margin between the area and the window's edge.
            right: px(-(theme::MARGIN + SCROLLBAR_WIDTH) / 2.0),
            top: px(0),
            bottom: px(0),
            width: px(SCROLLBAR_WIDTH),
            ..default()
        },
        children![(
            Name::new("Scrollbar thumb"),
            ScrollbarThumb {
                border_radius: BorderRadius::all(px(SCROLLBAR_WIDTH / 2.0)),
                ..default()
            },
            Paint::background(|p| p.scrollbar_thumb),
        )],
    )
}

/// How far one wheel notch moves: about one line of text.
pub const LINE: f32 = theme::FONT_SIZE * 1.5;

/// Scrolls to the end whenever rows were mounted, in the same frame.
///
/// Layout (in `PostUpdate`) clamps the offset to the content, so "as far as it goes" lands the
/// newest row fully in view before the frame is drawn. Nothing else moves the view on its own,
/// so a user who scrolled up to read stays there until the next submission.
fn scroll_to_newest(
    conversation: Single<&mut ScrollPosition, (With<Conversation>, Changed<Conversation>)>,
) {
    conversation.into_inner().y = f32::MAX;
}

/// Wheel and touchpad scroll by their delta; PageUp and PageDown by a page; Ctrl+Home and
/// Ctrl+End jump to the oldest and newest rows. Keys the text field does not use, so typing is
/// never interrupted.
fn scroll_by_user(
    mut wheel: MessageReader<MouseWheel>,
    keys: Res<ButtonInput<KeyCode>>,
    conversation: Single<(&mut ScrollPosition, &ComputedNode), With<Conversation>>,
) {
    let (mut scroll, area) = conversation.into_inner();
    let page = (area.size().y * area.inverse_scale_factor() - LINE).max(LINE);
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);

    let mut y = scroll.y;
    for notch in wheel.read() {
        y -= match notch.unit {
            MouseScrollUnit::Line => notch.y * LINE,
            MouseScrollUnit::Pixel => notch.y,
        };
    }
    if keys.just_pressed(KeyCode::PageUp) {
        y -= page;
    }
    if keys.just_pressed(KeyCode::PageDown) {
        y += page;
    }
    if ctrl && keys.just_pressed(KeyCode::Home) {
        y = 0.0;
    }
    if ctrl && keys.just_pressed(KeyCode::End) {
        y = f32::MAX;
    }
    // Above the top is the top; past the end, layout clamps.
    let y = y.max(0.0);
    if y != scroll.y {
        scroll.y = y;
    }
}

/// Shows the scrollbar only while the conversation is taller than its area: a thumb as long as
/// the track would say nothing.
fn show_scrollbar_when_needed(
    // Every frame: layout updates the content size without flagging the node as changed.
    areas: Query<&ComputedNode, With<Conversation>>,
    mut bars: Query<(&Scrollbar, &mut Visibility)>,
) {
    for (bar, mut visibility) in &mut bars {
        let Ok(area) = areas.get(bar.target) else {
            continue;
        };
        let overflows = area.content_size().y > area.size().y + 0.5;
        visibility.set_if_neq(if overflows {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        });
    }
}

/// Copies the offset layout actually used back into [`ScrollPosition`].
///
/// "The end" is written as `f32::MAX` and layout clamps it; left like that, a wheel notch up
/// from the end would subtract from `f32::MAX` and move nothing. Only a laid-out area (one with
/// a size) is settled: a headless app without UI layout keeps what was written.
fn settle_scroll(conversation: Single<(&mut ScrollPosition, &ComputedNode), With<Conversation>>) {
    let (mut scroll, area) = conversation.into_inner();
    if area.size().y <= 0.0 {
        return;
    }
    let used = area.scroll_position.y * area.inverse_scale_factor();
    if (scroll.y - used).abs() > 0.5 {
        scroll.y = used;
    }
}
