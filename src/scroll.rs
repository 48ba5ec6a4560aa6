//! How the conversation scrolls: to the newest row whenever rows arrive, and otherwise where the
//! user takes it, with the mouse wheel, the page keys (while the input keeps focus) or the
//! scrollbar beside it.

use bevy::{
    input::mouse::{MouseScrollUnit, MouseWheel},
    math::Affine2,
    prelude::*,
    ui::{
        ComputedUiRenderTargetInfo, ComputedUiTargetCamera, ResolvedBorderRadius,
        UiGlobalTransform, UiSystems, ui_layout_system,
    },
    window::CursorMoved,
};

use crate::{
    AppSystems,
    theme::{self, Paint},
    view::Conversation,
};

pub(super) fn plugin(app: &mut App) {
    // Registered by the window plugin too; headless apps have none.
    app.add_message::<CursorMoved>()
        .add_systems(
            Update,
            (
                (scroll_by_user, drag_scrollbar).in_set(AppSystems::ReadInput),
                scroll_to_newest.in_set(AppSystems::Scroll),
            ),
        )
        .add_systems(
            PostUpdate,
            (
                (settle_scroll, show_scrollbar_when_needed).after(UiSystems::Layout),
                place_thumb
                    .in_set(UiSystems::Layout)
                    .after(ui_layout_system),
            ),
        );
}

/// How wide the scrollbar is, in logical pixels.
pub const SCROLLBAR_WIDTH: f32 = 8.0;

/// The shortest the thumb gets however long the conversation, in logical pixels: still easy
/// to grab.
pub const MIN_THUMB_LENGTH: f32 = 3.0 * SCROLLBAR_WIDTH;

/// The scrollbar's track, beside the scrolling area it shows and moves.
#[derive(Component, Debug)]
pub struct Scrollbar {
    /// The scrolling area.
    pub target: Entity,
}

/// The part of a [`Scrollbar`] that shows which share of the area is in view, and where.
///
/// Not a layout node: its size and place come from the area's scroll state, which is only
/// known once layout has run, so `place_thumb` sets them right after layout, in the same
/// frame. It carries what a laid-out node would have for the UI renderer to draw it.
#[derive(Component, Debug, Default)]
#[require(
    ComputedNode,
    ComputedUiTargetCamera,
    ComputedUiRenderTargetInfo,
    UiTransform,
    BackgroundColor,
    Visibility,
    ZIndex
)]
pub struct ScrollbarThumb {
    /// While dragged: the pointer's height and the area's offset when the drag began, in
    /// logical pixels.
    drag_from: Option<(f32, f32)>,
}

/// The scrollbar for `conversation`, in the window's margin right of the area, so it takes no
/// width from the rows. Dragging the thumb scrolls the area; a click on the track pages
/// toward the click.
pub fn scrollbar(conversation: Entity) -> impl Bundle {
    (
        Name::new("Scrollbar"),
        Scrollbar {
            target: conversation,
        },
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
            ScrollbarThumb::default(),
            Paint::background(|p| p.scrollbar_thumb),
        )],
    )
}

/// Where the thumb goes on a track of `track` length, for an area showing `visible` of
/// `content`, scrolled down by `offset` (all in one unit): its length and its distance from
/// the track's top.
fn thumb_along(track: f32, visible: f32, content: f32, offset: f32, min_length: f32) -> (f32, f32) {
    if content <= visible {
        return (track, 0.0);
    }
    let length = (track * visible / content).max(min_length).min(track);
    let hidden = content - visible;
    (
        length,
        offset.clamp(0.0, hidden) * (track - length) / hidden,
    )
}

/// Sizes and places each thumb from its area's scroll state, right after layout computed it.
fn place_thumb(
    areas: Query<&ComputedNode, Without<ScrollbarThumb>>,
    tracks: Query<
        (&Scrollbar, &ComputedNode, &UiGlobalTransform, &Children),
        Without<ScrollbarThumb>,
    >,
    mut thumbs: Query<(&mut ComputedNode, &mut UiGlobalTransform), With<ScrollbarThumb>>,
) {
    for (bar, track, track_transform, children) in &tracks {
        let Ok(area) = areas.get(bar.target) else {
            continue;
        };
        // Physical pixels throughout, as layout leaves them.
        let (length, from_top) = thumb_along(
            track.size.y,
            area.size.y,
            area.content_size.y,
            area.scroll_position.y,
            MIN_THUMB_LENGTH / track.inverse_scale_factor,
        );
        let size = Vec2::new(track.size.x, length);
        // A node's transform is at its centre.
        let centre = Vec2::new(0.0, from_top + (length - track.size.y) / 2.0);
        let transform =
            UiGlobalTransform::from(track_transform.affine() * Affine2::from_translation(centre));
        let radius = size.x / 2.0;
        for child in children {
            let Ok((mut node, mut global)) = thumbs.get_mut(*child) else {
                continue;
            };
            if node.size != size {
                node.size = size;
                node.border_radius = ResolvedBorderRadius {
                    top_left: radius,
                    top_right: radius,
                    bottom_right: radius,
                    bottom_left: radius,
                };
            }
            global.set_if_neq(transform);
        }
    }
}

/// Drags the thumb with the left mouse button, or pages toward a click on the track.
///
/// The pointer comes from [`CursorMoved`], which keeps reporting while a pressed button holds
/// the pointer, even beyond the window's edge (the window's own cursor position stops there).
/// Drag distance becomes scroll offset by the inverse of `place_thumb`'s mapping (hidden content
/// over the thumb's travel), so the thumb stays under the pointer, at its shortest length too.
fn drag_scrollbar(
    buttons: Res<ButtonInput<MouseButton>>,
    mut moves: MessageReader<CursorMoved>,
    mut pointer: Local<Option<Vec2>>,
    tracks: Query<(
        &Scrollbar,
        &ComputedNode,
        &UiGlobalTransform,
        &InheritedVisibility,
    )>,
    mut thumbs: Query<(
        &mut ScrollbarThumb,
        &ComputedNode,
        &UiGlobalTransform,
        &ChildOf,
    )>,
    mut areas: Query<(&mut ScrollPosition, &ComputedNode), Without<ScrollbarThumb>>,
) {
    if let Some(moved) = moves.read().last() {
        *pointer = Some(moved.position);
    }
    for (mut thumb, thumb_node, thumb_transform, ChildOf(track_entity)) in &mut thumbs {
        if buttons.just_released(MouseButton::Left) {
            thumb.drag_from = None;
        }
        let (Some(logical), Ok((bar, track, track_transform, shown))) =
            (*pointer, tracks.get(*track_entity))
        else {
            continue;
        };
        let Ok((mut scroll, area)) = areas.get_mut(bar.target) else {
            continue;
        };
        // UI geometry is in physical pixels; `ScrollPosition`, like the pointer, in logical ones.
        let physical = logical / track.inverse_scale_factor;
        if buttons.just_pressed(MouseButton::Left) && shown.get() {
            if thumb_node.contains_point(*thumb_transform, physical) {
                thumb.drag_from = Some((logical.y, scroll.y));
            } else if track.contains_point(*track_transform, physical) {
                let page = area.size.y * area.inverse_scale_factor;
                let above = physical.y < thumb_transform.translation.y;
                scroll.y = (scroll.y + if above { -page } else { page }).max(0.0);
            }
        }
        if let Some((from_y, from_offset)) = thumb.drag_from
            && buttons.pressed(MouseButton::Left)
        {
            let hidden = (area.content_size.y - area.size.y).max(0.0);
            let per_pixel = hidden / (track.size.y - thumb_node.size.y).max(1.0);
            let offset = (from_offset + (logical.y - from_y) * per_pixel).max(0.0);
            if offset != scroll.y {
                scroll.y = offset;
            }
        }
    }
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
