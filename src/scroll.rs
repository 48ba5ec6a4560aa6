//! How the conversation scrolls: to the newest row whenever rows arrive, and otherwise where the
//! user takes it, with the mouse wheel or the page keys, while the input keeps focus.

use bevy::{
    input::mouse::{MouseScrollUnit, MouseWheel},
    prelude::*,
    ui::UiSystems,
};

use crate::{AppSystems, theme, view::Conversation};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            scroll_by_user.in_set(AppSystems::ReadInput),
            scroll_to_newest.in_set(AppSystems::Scroll),
        ),
    )
    .add_systems(PostUpdate, settle_scroll.after(UiSystems::Layout));
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
