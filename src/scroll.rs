//! A scrolling column onto a list too long to lay out: a virtual list. Only the items in and
//! near the view have UI nodes; every other item is a height in [`Heights`], so layout and
//! drawing cost what the window shows, not what the list holds.
//!
//! Where the view is, is an item and a distance into it (the *anchor*, the item at the view's
//! top), not a pixel offset from the list's top: what the user reads stays put when items above
//! it change height, and no `f32` has to hold an offset millions of pixels long. Or the view
//! *follows the end*: the last item stays at the bottom, as after each submission.
//!
//! The mounted items hang in an [`ItemColumn`], placed so that the anchor item's top is the
//! anchor's distance above the view's top; the items before the anchor hang above the column in
//! its [`Overhang`], whose bottom is the column's top. Layout places both in the frame they are
//! mounted, whatever their heights turn out to be, so an estimate that was wrong moves nothing
//! on screen. Following the end, the column instead stands on the view's bottom edge (and starts
//! at its top while the list is shorter than the view).
//!
//! Each frame:
//! 1. input (`ReadInput`): the wheel, the scrollbar and the list's owner (for the page keys,
//!    which come through the text field in the order they were typed) move the anchor;
//! 2. the list's owner spawns the items of [`VirtualList::wanted`] as children of the list, each
//!    with an [`Item`], and despawns those no longer wanted (the view does, in `SpawnRows`);
//! 3. `arrange` moves them into the overhang and the column, in order, and places the column
//!    (`Scroll`);
//! 4. after layout, `settle` measures the mounted items and reads back where the view came
//!    to be: the anchor, and whether the end is in view;
//! 5. the scrollbar's thumb is placed for the whole list, from the heights.
//!
//! This module knows nothing of messages: the view tells it each item's [`Shape`] and how to
//! estimate a height from one.

use std::ops::Range;

use bevy::{
    a11y::AccessibilityNode,
    input::mouse::{MouseScrollUnit, MouseWheel},
    math::Affine2,
    prelude::*,
    ui::{
        ComputedUiRenderTargetInfo, ComputedUiTargetCamera, ResolvedBorderRadius, UiGlobalTransform,
    },
    window::{CursorMoved, RequestRedraw},
};

use crate::{
    AppSystems, PointerGrab,
    theme::{self, Paint},
};

mod heights;

pub use heights::{Estimate, Heights, Shape};

pub(super) fn plugin(app: &mut App) {
    app.register_type::<Item>()
        .register_type::<ItemColumn>()
        .register_type::<Overhang>()
        .register_type::<Scrollbar>()
        // Registered by the window plugin too; headless apps have none.
        .add_message::<CursorMoved>()
        .add_systems(
            Update,
            (
                (scroll_by_wheel, drag_scrollbar)
                    .chain()
                    .in_set(ScrollInput),
                arrange.in_set(AppSystems::Scroll),
            ),
        )
        .add_systems(
            PostUpdate,
            (settle, (place_thumb, show_scrollbar_when_needed))
                .chain()
                .in_set(ScrollLayout),
        );
}

/// The systems that settle the list once Bevy's UI layout has measured its rows, and place
/// the scrollbar, in the same frame (`frame.rs`).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScrollLayout;

/// The systems that scroll a list by the user's wheel and scrollbar: run them after whatever
/// moves keyboard focus in the list and scrolls it to the focused item, so the wheel has the
/// last word in a frame.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScrollInput;

/// How far beyond the view items are mounted, in views: below it while anchored, above it
/// while following the end. Enough that the view is filled where the estimates of the rows'
/// heights were too tall, and that items are measured before they scroll into view, so the
/// scrollbar does not shift under the pointer.
pub const OVERSCAN: f32 = 1.0;

/// How many overscan items may be mounted on each side in one frame (see
/// [`VirtualList::to_mount`]).
pub const OVERSCAN_STEP: usize = 4;

/// The size assumed for a list that layout has not sized yet (its first frame, or a headless
/// app without UI layout), in logical pixels: about the default window's.
pub const UNSIZED_VIEW: f32 = 600.0;

/// The width assumed, likewise, for estimating heights before layout: the default window's.
pub const UNSIZED_WIDTH: f32 = 800.0;

/// A column that scrolls through a list of items, mounting only those near its view.
///
/// Put it on a node that clips its content (`Overflow::clip_y()`), with an [`item_column`] as
/// its one child; see the module's documentation for how the two place the items.
#[derive(Component, Debug)]
pub struct VirtualList {
    heights: Heights,
    /// The item the view is placed from, and how far below that item's top the view's top is,
    /// in logical pixels. After layout, the item at the view's top; between input and layout,
    /// the distance may reach past the item's edges (see [`scroll_by`](Self::scroll_by)).
    anchor: (usize, f32),
    /// Whether the view keeps the last item at its bottom.
    follows_end: bool,
    /// The view's height as last laid out, in logical pixels; 0 before layout.
    view: f32,
    /// The item [`reveal`](Self::reveal) brings into view, and the margin it keeps around it,
    /// until layout has measured it and it is wholly in view.
    revealing: Option<(usize, f32)>,
}

/// A mounted item of a [`VirtualList`]: its index in the list.
#[derive(Component, Reflect, Debug, Clone, Copy, PartialEq, Eq)]
#[reflect(Component)]
pub struct Item(pub usize);

impl VirtualList {
    /// An empty list whose items are `gap` apart and estimated with `estimate` until measured.
    pub fn new(gap: f32, estimate: Estimate) -> Self {
        let mut heights = Heights::new(gap, estimate);
        heights.set_width(UNSIZED_WIDTH);
        Self {
            heights,
            anchor: (0, 0.0),
            follows_end: true,
            view: 0.0,
            revealing: None,
        }
    }

    /// How many items the list holds.
    pub fn len(&self) -> usize {
        self.heights.len()
    }

    /// True while the list holds no item.
    pub fn is_empty(&self) -> bool {
        self.heights.is_empty()
    }

    /// Appends an item. It is mounted once it comes into view, which it does at once if the
    /// view follows the end.
    pub fn push(&mut self, shape: Shape) {
        self.heights.push(shape);
    }

    /// The items' heights, measured or estimated.
    pub fn heights(&self) -> &Heights {
        &self.heights
    }

    /// Whether the view keeps the last item at its bottom.
    pub fn follows_end(&self) -> bool {
        self.follows_end
    }

    /// The item at the view's top, and how far into it (its height plus the gap below it) the
    /// view starts, in logical pixels.
    pub fn anchor(&self) -> (usize, f32) {
        self.anchor
    }

    /// The view's height in logical pixels, as last laid out.
    pub fn view(&self) -> f32 {
        if self.view > 0.0 {
            self.view
        } else {
            UNSIZED_VIEW
        }
    }

    /// From now on, keep the last item at the bottom of the view.
    pub fn follow_end(&mut self) {
        self.follows_end = true;
        self.revealing = None;
    }

    /// Scrolls as little as it takes to show item `index` whole, with `margin` logical pixels
    /// of view around it: to its top if it starts above the view (or is taller than the view),
    /// to its bottom if it ends below. An item not measured yet is placed by its estimate, and
    /// once layout has measured it, placed again (see `settle`).
    pub fn reveal(&mut self, index: usize, margin: f32) {
        if index >= self.len() {
            return;
        }
        self.revealing = Some((index, margin));
        let (anchor, into) = self.anchor;
        let anchor = anchor.min(self.len() - 1);
        // The item's top as seen from the view's top, by the heights between the two.
        let top = (self.heights.top_of(index) - self.heights.top_of(anchor)) as f32 - into;
        let height = self.heights.extent(index) - self.heights.gap();
        self.reveal_at(index, top, height, margin);
    }

    /// [`reveal`](Self::reveal) for an item whose top is `top` below the view's top and which is
    /// `height` tall; true if the view moves.
    fn reveal_at(&mut self, index: usize, top: f32, height: f32, margin: f32) -> bool {
        let view = self.view();
        let last = index + 1 == self.len();
        // The list starts at the view's top: nothing to show above the first item.
        let above = if index == 0 { 0.0 } else { margin };
        let wanted = if top < above || above + height + margin > view {
            above
        } else if top + height + margin > view {
            if self.follows_end && last {
                return false;
            }
            view - margin - height
        } else {
            return false;
        };
        if (wanted - top).abs() < 0.5 {
            return false;
        }
        self.follows_end = last && wanted < top;
        self.anchor = (index, -wanted);
        true
    }

    /// How far the view's top is from the list's top, in logical pixels.
    pub fn offset(&self) -> f64 {
        if self.follows_end {
            return self.end_offset();
        }
        let (item, into) = self.anchor;
        self.heights.top_of(item.min(self.len())) + f64::from(into)
    }

    /// The offset at which the last item's bottom meets the view's.
    fn end_offset(&self) -> f64 {
        (self.heights.total() - f64::from(self.view())).max(0.0)
    }

    /// Puts the view's top `offset` logical pixels below the list's top; from the end's offset
    /// on, the view follows the end.
    pub fn scroll_to(&mut self, offset: f64) {
        self.revealing = None;
        if offset >= self.end_offset() {
            self.follows_end = true;
        } else {
            self.follows_end = false;
            self.anchor = self.heights.locate(offset);
        }
    }

    /// Moves the view by `distance` logical pixels, down for positive ones.
    ///
    /// A move of up to a view (a wheel notch, a page) keeps the anchor's item and only moves the
    /// distance into it, past its edges if need be: the rows between hang from the anchor with
    /// their laid-out heights, so the view moves by exactly `distance` whatever the estimates
    /// said. Only a longer jump goes by the estimates, through [`scroll_to`](Self::scroll_to).
    pub fn scroll_by(&mut self, distance: f64) {
        // From the anchor rather than from `offset()`: following the end, `offset()` is the
        // estimated total less the view, while the anchor is where the view really is.
        self.revealing = None;
        let (item, into) = self.anchor;
        let item = item.min(self.len().saturating_sub(1));
        let target = self.heights.top_of(item) + f64::from(into) + distance;
        if distance.abs() > f64::from(self.view()) {
            self.scroll_to(target.max(0.0));
        } else if target <= 0.0 {
            self.follows_end = false;
            self.anchor = (0, 0.0);
        } else if target >= self.end_offset() {
            self.follows_end = true;
        } else {
            self.follows_end = false;
            self.anchor = (item, into + distance as f32);
        }
    }

    /// How far PageUp and PageDown scroll: a view, less a line that stays in sight.
    pub fn page(&self) -> f64 {
        f64::from((self.view - LINE).max(LINE))
    }

    /// The items to mount: the view's, by their (measured or estimated) heights, and
    /// [`OVERSCAN`] more beyond it on each side there is: above and below the anchor, or back
    /// from the end.
    pub fn wanted(&self) -> Range<usize> {
        self.covering(self.view() * OVERSCAN)
    }

    /// What to mount this frame, given what is mounted: every item the view shows, and of the
    /// rest of [`wanted`](Self::wanted) what is already mounted and [`OVERSCAN_STEP`] more on
    /// each side. After a jump (Ctrl+Home, a drag of the thumb), where nothing mounted is still
    /// wanted, only the view's items: the overscan follows over the next frames instead of all
    /// in one. Mounting is done when this is `wanted()`.
    pub fn to_mount(&self, mounted: Range<usize>) -> Range<usize> {
        let wanted = self.wanted();
        let shown = self.covering(0.0);
        let kept = mounted.start.max(wanted.start)..mounted.end.min(wanted.end);
        let touches = !kept.is_empty() && kept.start <= shown.end && shown.start <= kept.end;
        if !touches {
            // A jump: the rows in view, and nothing more this frame.
            return shown;
        }
        let base = shown.start.min(kept.start)..shown.end.max(kept.end);
        base.start.saturating_sub(OVERSCAN_STEP).max(wanted.start)
            ..(base.end + OVERSCAN_STEP).min(wanted.end)
    }

    /// The items that cover the view and `overscan` logical pixels beyond it.
    fn covering(&self, overscan: f32) -> Range<usize> {
        let len = self.len();
        let view = self.view();
        let back_from = |mut first: usize, reach: f32| {
            let mut covered = 0.0;
            while first > 0 && covered < reach {
                first -= 1;
                covered += self.heights.extent(first);
            }
            first
        };
        if self.follows_end {
            return back_from(len, view + overscan)..len;
        }
        let (anchor, into) = self.anchor;
        let anchor = anchor.min(len);
        // Above the anchor: the part of the view above its top, if any, and the overscan.
        let first = back_from(anchor, (-into).max(0.0) + overscan);
        let mut end = anchor;
        let mut covered = -into;
        while end < len && covered < view + overscan {
            covered += self.heights.extent(end);
            end += 1;
        }
        first..end
    }
}

/// The column that holds a [`VirtualList`]'s mounted items from its anchor on, placed so that
/// the anchor's item is where the view wants it.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct ItemColumn;

/// The mounted items before the anchor, hanging above the [`ItemColumn`]: its bottom is the
/// column's top, so they need no height known in advance to sit right.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct Overhang;

/// The one child of a [`VirtualList`]'s node: the [`ItemColumn`] with its [`Overhang`], items
/// `gap` apart.
///
/// Both are transparent to screen readers (generic containers), which see the list's items as
/// its children, in order.
pub fn item_column(gap: f32) -> impl Bundle {
    (
        Name::new("Item column"),
        ItemColumn,
        AccessibilityNode(accesskit::Node::new(accesskit::Role::GenericContainer)),
        Node {
            position_type: PositionType::Absolute,
            left: px(0),
            right: px(0),
            flex_direction: FlexDirection::Column,
            row_gap: px(gap),
            ..default()
        },
        children![(
            Name::new("Overhang"),
            Overhang,
            AccessibilityNode(accesskit::Node::new(accesskit::Role::GenericContainer)),
            Node {
                position_type: PositionType::Absolute,
                left: px(0),
                right: px(0),
                // Its bottom edge on the column's top edge, one gap above the anchor's item.
                bottom: percent(100),
                padding: UiRect::bottom(px(gap)),
                flex_direction: FlexDirection::Column,
                row_gap: px(gap),
                ..default()
            },
        )],
    )
}

/// Puts each list's mounted items (its children with an [`Item`], new ones among them) in
/// order into the overhang and the column, and places the column: its top the anchor's distance
/// above the view's, or, following the end, its bottom on the view's bottom and all items in
/// it. Touches nothing while that is already so, so a still list costs layout nothing.
fn arrange(
    lists: Query<(&VirtualList, &Children)>,
    mut columns: Query<(Entity, &mut Node, &Children), With<ItemColumn>>,
    overhangs: Query<(Entity, Option<&Children>), With<Overhang>>,
    items: Query<&Item>,
    mut commands: Commands,
) {
    for (list, list_children) in &lists {
        let Some(column) = list_children.iter().find(|&child| columns.contains(child)) else {
            continue;
        };
        let Ok((column, mut node, column_children)) = columns.get_mut(column) else {
            continue;
        };
        let Some((overhang, overhang_children)) = column_children
            .iter()
            .find_map(|child| overhangs.get(child).ok())
        else {
            continue;
        };
        let hanging = overhang_children.map_or(&[][..], |children| &children[..]);
        let standing = column_children.iter().filter(|&child| child != overhang);
        let split = if list.follows_end { 0 } else { list.anchor.0 };
        // In place: the overhang's items before the split and the column's from it, all in
        // order (an item the owner gave other content may have moved), and none new.
        let order: Vec<usize> = hanging
            .iter()
            .copied()
            .chain(standing.clone())
            .filter_map(|item| items.get(item).ok().map(|&Item(i)| i))
            .collect();
        let in_place = order.is_sorted_by(|a, b| a < b)
            && order.partition_point(|&i| i < split) == hanging.len()
            && !list_children.iter().any(|child| items.contains(child));
        if !in_place {
            let mut mounted: Vec<(usize, Entity)> = hanging
                .iter()
                .copied()
                .chain(standing)
                .chain(list_children.iter())
                .filter_map(|entity| items.get(entity).ok().map(|&Item(i)| (i, entity)))
                .collect();
            mounted.sort_unstable_by_key(|&(i, _)| i);
            let at = mounted.partition_point(|&(i, _)| i < split);
            let (before, from) = mounted.split_at(at);
            let entities = |items: &[(usize, Entity)]| -> Vec<Entity> {
                items.iter().map(|&(_, entity)| entity).collect()
            };
            // Adding a child moves it to the end, from wherever it was: the overhang ends up
            // with the items before the anchor, in order, and the column with the overhang
            // first and the rest after it. (`replace_children` would leave an item that moved
            // listed under its old parent too.)
            commands.entity(overhang).add_children(&entities(before));
            commands.entity(column).add_children(&entities(from));
        }
        let (top, bottom, min_height) = if list.follows_end {
            (Val::Auto, px(0), percent(100))
        } else {
            (px(-list.anchor.1), Val::Auto, Val::Auto)
        };
        if (node.top, node.bottom, node.min_height) != (top, bottom, min_height) {
            node.top = top;
            node.bottom = bottom;
            node.min_height = min_height;
        }
    }
}

/// After layout: records the heights of the mounted items and where the view came to be.
///
/// The view's top falls in the first mounted item whose extent (height and gap) reaches below
/// it; that item is the anchor from now on, with the view's top inside it. The view follows the end while the last item's
/// bottom is in view, whether a submission took it there or the user did.
fn settle(
    mut lists: Query<(
        &mut VirtualList,
        &ComputedNode,
        &UiGlobalTransform,
        &Children,
    )>,
    columns: Query<&Children, With<ItemColumn>>,
    overhangs: Query<&Children, With<Overhang>>,
    items: Query<(&Item, &ComputedNode, &UiGlobalTransform)>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    for (mut list, area, area_transform, list_children) in &mut lists {
        if area.size.y <= 0.0 {
            // Not laid out (a headless app without UI layout): keep what input asked for.
            continue;
        }
        let to_logical = area.inverse_scale_factor;
        list.view = area.size.y * to_logical;
        list.heights.set_width(area.size.x * to_logical);
        let Some(column) = list_children
            .iter()
            .find_map(|child| columns.get(child).ok())
        else {
            continue;
        };
        // In order: the overhang's items, then the column's own.
        let hanging = column
            .iter()
            .filter_map(|child| overhangs.get(child).ok())
            .flat_map(|children| children.iter());
        let mounted = hanging.chain(column.iter());

        let view_top = area_transform.translation.y - area.size.y / 2.0;
        let view_bottom = view_top + area.size.y;
        let mut anchor = None;
        let mut last = None;
        let mut revealed = None;
        for (&Item(index), node, transform) in mounted.filter_map(|child| items.get(child).ok()) {
            if index >= list.len() {
                continue;
            }
            list.heights.measure(index, node.size.y * to_logical);
            let top = transform.translation.y - node.size.y / 2.0;
            if list
                .revealing
                .is_some_and(|(revealing, _)| revealing == index)
            {
                revealed = Some((
                    index,
                    (top - view_top) * to_logical,
                    node.size.y * to_logical,
                ));
            }
            let extent = list.heights.extent(index) / to_logical;
            if anchor.is_none() && top + extent > view_top {
                // Above the first item there is nothing to show: the list starts at the top.
                let into = (view_top - top) * to_logical;
                anchor = Some((index, if index == 0 { into.max(0.0) } else { into }));
            }
            last = Some((index, top + node.size.y));
        }
        if let Some(anchor) = anchor {
            list.anchor = anchor;
        }
        list.follows_end = match last {
            Some((index, bottom)) => index + 1 == list.len() && bottom <= view_bottom + 0.5,
            None => true,
        };
        // An item being revealed was placed by its estimated height; now it is measured.
        if let (Some((index, top, height)), Some((_, margin))) = (revealed, list.revealing) {
            if list.reveal_at(index, top, height, margin) {
                redraw.write(RequestRedraw);
            } else {
                list.revealing = None;
            }
        }
    }
}

/// How wide the scrollbar is, in logical pixels.
pub const SCROLLBAR_WIDTH: f32 = 8.0;

/// The shortest the thumb gets however long the conversation, in logical pixels: still easy
/// to grab.
pub const MIN_THUMB_LENGTH: f32 = 3.0 * SCROLLBAR_WIDTH;

/// The scrollbar's track, beside the list it shows and moves.
#[derive(Component, Reflect, Debug)]
#[reflect(Component)]
pub struct Scrollbar {
    /// The [`VirtualList`] entity.
    pub target: Entity,
}

/// The part of a [`Scrollbar`] that shows which share of the list is in view, and where.
///
/// Not a layout node: its size and place come from the list's heights and anchor, which are
/// only known once layout has run, so `place_thumb` sets them right after layout, in the same
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
    /// While dragged: the pointer's height when the drag began, and the list's offset then,
    /// in logical pixels.
    drag_from: Option<(f32, f64)>,
}

/// The scrollbar for `list`, in the window's margin right of the list, so it takes no width
/// from the rows. Dragging the thumb scrolls the list; a click on the track pages toward the
/// click.
pub fn scrollbar(list: Entity) -> impl Bundle {
    (
        Name::new("Scrollbar"),
        Scrollbar { target: list },
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

/// Where the thumb goes on a track of `track` length, for a list showing `visible` of
/// `content`, scrolled down by `offset` (all in one unit): its length and its distance from
/// the track's top.
fn thumb_along(track: f64, visible: f64, content: f64, offset: f64, min_length: f64) -> (f64, f64) {
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

/// Sizes and places each thumb for the whole list, right after [`settle`] found where the
/// view is.
fn place_thumb(
    lists: Query<&VirtualList>,
    tracks: Query<(&Scrollbar, &ComputedNode, &UiGlobalTransform, &Children)>,
    mut thumbs: Query<
        (&mut ComputedNode, &mut UiGlobalTransform),
        (With<ScrollbarThumb>, Without<Scrollbar>),
    >,
) {
    for (bar, track, track_transform, children) in &tracks {
        let Ok(list) = lists.get(bar.target) else {
            continue;
        };
        // Logical pixels for the list, physical ones on screen.
        let to_physical = f64::from(track.inverse_scale_factor).recip();
        let track_length = f64::from(track.size.y);
        let (length, from_top) = thumb_along(
            track_length,
            f64::from(list.view()) * to_physical,
            list.heights.total() * to_physical,
            list.offset() * to_physical,
            f64::from(MIN_THUMB_LENGTH) * to_physical,
        );
        let size = Vec2::new(track.size.x, length as f32);
        // A node's transform is at its centre.
        let centre = Vec2::new(0.0, (from_top + (length - track_length) / 2.0) as f32);
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
/// Drag distance becomes list offset by the inverse of `place_thumb`'s mapping (hidden content
/// over the thumb's travel), so the thumb stays under the pointer, at its shortest length too,
/// and a drag from the top of the track to its bottom passes through the whole list.
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
    mut lists: Query<&mut VirtualList>,
    zoom: Res<UiScale>,
    grab: Res<PointerGrab>,
) {
    if let Some(moved) = moves.read().last() {
        *pointer = Some(moved.position);
    }
    // The pointer comes in the window's logical pixels; the list is in the zoomed ones.
    let pointer = pointer.map(|at| at / zoom.0);
    let released = buttons.just_released(MouseButton::Left);
    for (mut thumb, thumb_node, thumb_transform, ChildOf(track_entity)) in &mut thumbs {
        // A drag ends at the release, but only after the pointer's last move before it: a slow
        // frame can read the last move and the release together.
        let ending = thumb.drag_from.filter(|_| released);
        if released {
            thumb.drag_from = None;
        }
        let (Some(logical), Ok((bar, track, track_transform, shown))) =
            (pointer, tracks.get(*track_entity))
        else {
            continue;
        };
        let Ok(mut list) = lists.get_mut(bar.target) else {
            continue;
        };
        // UI geometry is in physical pixels; the list, like the pointer, in logical ones.
        let to_logical = track.inverse_scale_factor;
        let physical = logical / to_logical;
        if buttons.just_pressed(MouseButton::Left) && shown.get() && !grab.0 {
            if thumb_node.contains_point(*thumb_transform, physical) {
                thumb.drag_from = Some((logical.y, list.offset()));
            } else if track.contains_point(*track_transform, physical) {
                let page = f64::from(list.view());
                let above = physical.y < thumb_transform.translation.y;
                list.scroll_by(if above { -page } else { page });
            }
        }
        if let Some((from_y, from_offset)) = thumb.drag_from.or(ending)
            && (buttons.pressed(MouseButton::Left) || ending.is_some())
        {
            let hidden = (list.heights.total() - f64::from(list.view())).max(0.0);
            let travel = f64::from((track.size.y - thumb_node.size.y) * to_logical).max(1.0);
            let offset = from_offset + f64::from(logical.y - from_y) * hidden / travel;
            if offset != list.offset() {
                list.scroll_to(offset.max(0.0));
            }
        }
        if released {
            // A press and its release read in one frame: a click, not a drag.
            thumb.drag_from = None;
        }
    }
}

/// How far one wheel notch moves: about one line of text.
pub const LINE: f32 = theme::FONT_SIZE * 1.5;

/// Scrolls the list by the mouse wheel; with Ctrl held, the wheel zooms instead
/// (`view/zoom.rs`). The keys that scroll it come through the field, which reads every key in
/// order and knows where focus was at each (`view/focus.rs`).
fn scroll_by_wheel(
    mut wheel: MessageReader<MouseWheel>,
    keys: Res<ButtonInput<KeyCode>>,
    mut list: Single<&mut VirtualList>,
    grab: Res<PointerGrab>,
) {
    // Under an open menu, the wheel does nothing.
    if wheel_zooms(&keys) || grab.0 {
        wheel.clear();
        return;
    }
    let mut distance = 0.0;
    for notch in wheel.read() {
        distance -= f64::from(match notch.unit {
            MouseScrollUnit::Line => notch.y * LINE,
            MouseScrollUnit::Pixel => notch.y,
        });
    }
    if distance != 0.0 {
        list.scroll_by(distance);
    }
}

/// Whether the wheel zooms (`view/zoom.rs`) rather than scrolls: while Ctrl is held. The one
/// rule both ask.
pub fn wheel_zooms(keys: &ButtonInput<KeyCode>) -> bool {
    keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight])
}

/// Shows the scrollbar only while the list is taller than its view: a thumb as long as the
/// track would say nothing.
fn show_scrollbar_when_needed(
    lists: Query<&VirtualList>,
    mut bars: Query<(&Scrollbar, &mut Visibility)>,
) {
    for (bar, mut visibility) in &mut bars {
        let Ok(list) = lists.get(bar.target) else {
            continue;
        };
        let overflows = list.heights.total() > f64::from(list.view()) + 0.5;
        visibility.set_if_neq(if overflows {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        });
    }
}
