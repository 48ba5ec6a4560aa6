//! Repaints only the part of the window that changed since the last frame drawn: a blinking
//! caret costs its own few pixels, not the whole conversation again.
//!
//! Bevy draws every frame from scratch: it clears the camera's main texture and draws every UI
//! node into it, then copies that texture to the window. On a GPU that is nothing; on a
//! software renderer (Mesa's llvmpipe, what a machine without a GPU draws with) filling a
//! window of bubbles and glyphs is most of a frame's cost, and a blinking caret asks for two
//! frames a second. But the main texture is kept from frame to frame (Bevy's texture cache
//! hands the camera the same one while its size holds), so it still holds the last frame.
//!
//! So, after Bevy has extracted this frame's UI nodes, `limit_to_damage` compares them with
//! the last frame's. The nodes that differ, where they were and where they are, make the
//! damage: one rectangle. The camera does not clear this frame ([`ClearColorConfig::None`]),
//! the damage is painted with the clear colour, and only the nodes that cross it are drawn,
//! clipped to it. Every pixel outside the damage is the one the last frame drew, which is the
//! one this frame would draw; every pixel inside is drawn as a full frame would draw it, in the
//! same order. A frame in which nothing changed draws nothing.
//!
//! Whatever the comparison cannot vouch for draws the whole frame, as Bevy would: the first
//! frame, a new size or clear colour, a frame after one that was not drawn, a rotated node, a
//! camera with a viewport, multisampling or HDR (their textures are not simply kept), and
//! the other UI pipelines (box shadows, image slices), which draw over what is there. The app
//! uses none of those; gradients and UI materials, which this module cannot see, it must not
//! use either.
//!
//! Only with a renderer: headless, without [`RenderApp`], the plugin adds nothing. An engine
//! workaround (see [`super`]), for as long as Bevy redraws the whole window each frame.

use bevy::{
    asset::AssetId,
    math::Affine2,
    platform::{collections::HashMap, time::Instant},
    prelude::*,
    render::{
        Render, RenderApp, RenderSystems,
        camera::ExtractedCamera,
        sync_world::{MainEntity, TemporaryRenderEntity},
        view::{ViewTarget, prepare_view_targets},
    },
    ui::ResolvedBorderRadius,
    ui_render::{
        ExtractedGlyph, ExtractedUiItem, ExtractedUiNode, ExtractedUiNodes, NodeType,
        box_shadow::ExtractedBoxShadows, ui_texture_slice_pipeline::ExtractedUiTextureSlices,
    },
};

/// Adds the damage check to the renderer; [`workarounds::plugin`](super::plugin) adds it.
pub fn plugin(app: &mut App) {
    let Some(render_app) = app.get_sub_app_mut(RenderApp) else {
        return;
    };
    // After extraction has been applied (the cameras are extracted by commands), before the
    // views' textures are set up with the camera's clear colour and the nodes are queued.
    render_app.init_resource::<LastFrames>().add_systems(
        Render,
        (
            limit_to_damage.before(prepare_view_targets),
            note_drawn_views.after(prepare_view_targets),
        )
            .in_set(RenderSystems::PrepareViews),
    );
}

/// What each UI camera drew last, by the camera's render entity.
#[derive(Resource, Default)]
struct LastFrames(HashMap<Entity, Frame>);

/// One camera's frame: what it was asked to draw, and whether it was drawn.
struct Frame {
    size: UVec2,
    clear: LinearRgba,
    /// Every node, in the order extracted.
    nodes: Vec<Drawn>,
    /// Whether the frame reached the camera's main texture; until it has, the texture still
    /// holds the frame before.
    drawn: bool,
}

/// One extracted node: everything that decides its pixels, and the pixels it can touch.
struct Drawn {
    paint: Paint,
    bounds: Rect,
    /// Bevy clips a rotated node only roughly, so a frame with one is drawn whole.
    axis_aligned: bool,
}

/// Everything about one extracted node that decides its pixels, as comparable bits: its place
/// in the drawing order, texture, clip, transform, and its box or its glyphs.
#[derive(PartialEq, Eq, Hash)]
struct Paint {
    entity: MainEntity,
    image: AssetId<Image>,
    bits: Vec<u32>,
}

fn limit_to_damage(
    mut extracted: ResMut<ExtractedUiNodes>,
    mut cameras: Query<(Entity, &mut ExtractedCamera, &Msaa)>,
    clear_color: Res<ClearColor>,
    box_shadows: Res<ExtractedBoxShadows>,
    slices: Res<ExtractedUiTextureSlices>,
    mut last: ResMut<LastFrames>,
    mut commands: Commands,
) {
    let other_pipelines = !box_shadows.box_shadows.is_empty() || !slices.slices.is_empty();
    let mut frames = HashMap::<Entity, Frame>::default();
    for (camera, mut extracted_camera, msaa) in &mut cameras {
        let started = Instant::now();
        let Some(size) = extracted_camera.physical_target_size else {
            continue;
        };
        let clear = match extracted_camera.clear_color {
            ClearColorConfig::Default => clear_color.0,
            ClearColorConfig::Custom(color) => color,
            // A camera that draws over others is not ours to manage.
            ClearColorConfig::None => continue,
        };
        let nodes: Vec<Drawn> = extracted
            .uinodes
            .iter()
            .filter(|node| node.extracted_camera_entity == camera)
            .map(|node| drawn(node, &extracted.glyphs))
            .collect();
        let frame = Frame {
            size,
            clear: clear.into(),
            nodes,
            drawn: false,
        };
        let comparable = !other_pipelines
            && extracted_camera.viewport.is_none()
            && !extracted_camera.hdr
            && *msaa == Msaa::Off;
        let damage = last
            .0
            .get(&camera)
            .filter(|before| comparable && before.drawn)
            .and_then(|before| damage(before, &frame));
        // One line a frame, to count frames and see what each redrew and what the comparison
        // cost: `RUST_LOG=agent_chat::workarounds::repaint=debug cargo run`.
        let compared = started.elapsed();
        if let Some(damage) = damage {
            debug!(
                "frame redraws {} px at {} (compared in {compared:?})",
                damage.size(),
                damage.min
            );
            extracted_camera.clear_color = ClearColorConfig::None;
            limit(&mut extracted, camera, &frame, damage, &mut commands);
        } else {
            debug!("frame draws the whole window (compared in {compared:?})");
        }
        frames.insert(camera, frame);
    }
    last.0 = frames;
}

/// Records which cameras' frames were drawn: a camera Bevy skipped this frame (no window
/// surface, no size) left its texture as it was, and its next frame is drawn whole.
fn note_drawn_views(views: Query<(), With<ViewTarget>>, mut last: ResMut<LastFrames>) {
    for (&camera, frame) in &mut last.0 {
        // A window of no size runs no camera, but may still have a view.
        frame.drawn = views.contains(camera) && frame.size.min_element() > 0;
    }
}

/// The part of the window this frame must draw, given the last frame drawn: `None` when the
/// whole of it must be (nothing to compare with), an empty rectangle when nothing changed.
fn damage(before: &Frame, now: &Frame) -> Option<Rect> {
    if before.size != now.size || before.clear != now.clear {
        return None;
    }
    if !before
        .nodes
        .iter()
        .chain(&now.nodes)
        .all(|node| node.axis_aligned)
    {
        return None;
    }
    // How many more times each paint was drawn before than now: the nodes that left, and,
    // negative, those that came.
    let mut surplus = HashMap::<&Paint, (i32, Rect)>::default();
    for node in &before.nodes {
        surplus.entry(&node.paint).or_insert((0, node.bounds)).0 += 1;
    }
    for node in &now.nodes {
        surplus.entry(&node.paint).or_insert((0, node.bounds)).0 -= 1;
    }
    let changed = |node: &&Drawn| surplus[&node.paint].0 != 0;
    // The nodes that stayed must also keep their order, or pixels where two of them overlap
    // could change anywhere.
    let stayed = |node: &&Drawn| !changed(node);
    let stayed_before = before.nodes.iter().filter(stayed).map(|node| &node.paint);
    let stayed_now = now.nodes.iter().filter(stayed).map(|node| &node.paint);
    if !stayed_before.eq(stayed_now) {
        return None;
    }
    let damage = (before.nodes.iter().chain(&now.nodes))
        .filter(changed)
        .fold(Rect::default(), |damage, node| union(damage, node.bounds));
    // Whole pixels, inside the window: a node cut at a pixel's edge covers the same pixels.
    let window = Rect::from_corners(Vec2::ZERO, now.size.as_vec2());
    Some(Rect::from_corners(damage.min.floor(), damage.max.ceil()).intersect(window))
}

/// Limits `camera`'s nodes to `damage`: the damage painted with the clear colour, then each
/// node that crosses it, clipped to it.
fn limit(
    extracted: &mut ExtractedUiNodes,
    camera: Entity,
    frame: &Frame,
    damage: Rect,
    commands: &mut Commands,
) {
    let mut bounds = frame.nodes.iter().map(|node| node.bounds);
    extracted.uinodes.retain_mut(|node| {
        if node.extracted_camera_entity != camera {
            return true;
        }
        let crosses = bounds
            .next()
            .is_some_and(|bounds| !bounds.intersect(damage).is_empty());
        node.clip = Some(node.clip.map_or(damage, |clip| clip.intersect(damage)));
        crosses
    });
    if damage.is_empty() {
        return;
    }
    // Larger than the damage and clipped to it, so that its edges are cut, not smoothed.
    let cover = damage.inflate(2.0);
    extracted.uinodes.push(ExtractedUiNode {
        // Under every node.
        z_order: f32::MIN,
        image: AssetId::default(),
        clip: Some(damage),
        extracted_camera_entity: camera,
        item: plain_box(cover.size(), frame.clear),
        main_entity: Entity::PLACEHOLDER.into(),
        render_entity: commands.spawn(TemporaryRenderEntity).id(),
        transform: Affine2::from_translation(cover.center()),
    });
}

/// A box of one colour: no image, border or rounding.
fn plain_box(size: Vec2, color: LinearRgba) -> ExtractedUiItem {
    ExtractedUiItem::Node {
        color,
        rect: Rect::from_corners(Vec2::ZERO, size),
        atlas_scaling: None,
        flip_x: false,
        flip_y: false,
        border_radius: ResolvedBorderRadius::ZERO,
        border: BorderRect::ZERO,
        node_type: NodeType::Rect,
    }
}

/// What decides an extracted node's pixels, and the pixels it can touch: its quad (or its
/// glyphs' quads) through its transform, cut by its clip.
fn drawn(node: &ExtractedUiNode, glyphs: &[ExtractedGlyph]) -> Drawn {
    let transform = node.transform;
    let mut bits = vec![node.z_order.to_bits()];
    let clip = node.clip.unwrap_or(Rect {
        min: Vec2::splat(f32::NEG_INFINITY),
        max: Vec2::splat(f32::INFINITY),
    });
    push_rect(&mut bits, clip);
    bits.extend(transform.to_cols_array().map(f32::to_bits));
    // Two opposite corners span an axis-aligned quad (a rotated node has the frame drawn whole).
    let quad = |center: Vec2, size: Vec2| {
        let a = transform.transform_point2(center - size / 2.0);
        let b = transform.transform_point2(center + size / 2.0);
        Rect::from_corners(a, b)
    };
    let mut bounds = Rect::default();
    match &node.item {
        ExtractedUiItem::Node {
            color,
            rect,
            atlas_scaling,
            flip_x,
            flip_y,
            border_radius,
            border,
            node_type,
        } => {
            bits.push(0);
            bits.extend(color.to_f32_array().map(f32::to_bits));
            push_rect(&mut bits, *rect);
            let scaling = atlas_scaling.unwrap_or(Vec2::NAN);
            bits.extend([scaling.x, scaling.y].map(f32::to_bits));
            bits.extend([*flip_x as u32, *flip_y as u32]);
            let ResolvedBorderRadius {
                top_left,
                top_right,
                bottom_right,
                bottom_left,
            } = *border_radius;
            bits.extend([top_left, top_right, bottom_right, bottom_left].map(f32::to_bits));
            push_rect(
                &mut bits,
                Rect {
                    min: border.min_inset,
                    max: border.max_inset,
                },
            );
            bits.push(match node_type {
                NodeType::Rect => u32::MAX,
                NodeType::Inverted => u32::MAX - 1,
                NodeType::Border(flags) => *flags,
            });
            bounds = quad(Vec2::ZERO, rect.size());
        }
        ExtractedUiItem::Glyphs { range } => {
            bits.push(1);
            for glyph in &glyphs[range.clone()] {
                bits.extend(glyph.color.to_f32_array().map(f32::to_bits));
                bits.extend(glyph.translation.to_array().map(f32::to_bits));
                push_rect(&mut bits, glyph.rect);
                bounds = union(bounds, quad(glyph.translation, glyph.rect.size()));
            }
        }
    }
    Drawn {
        paint: Paint {
            entity: node.main_entity,
            image: node.image,
            bits,
        },
        bounds: bounds.intersect(clip),
        axis_aligned: transform.matrix2.x_axis.y == 0.0 && transform.matrix2.y_axis.x == 0.0,
    }
}

/// The smallest rectangle around both; an empty one adds nothing.
fn union(a: Rect, b: Rect) -> Rect {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b,
        (_, true) => a,
        _ => a.union(b),
    }
}

fn push_rect(bits: &mut Vec<u32>, rect: Rect) {
    bits.extend([rect.min.x, rect.min.y, rect.max.x, rect.max.y].map(f32::to_bits));
}

#[cfg(test)]
mod tests {
    use super::*;

    const WINDOW: UVec2 = UVec2::new(800, 600);

    /// A plain box of `size` centred at `center`, of `color`, `z`-th in the drawing order.
    fn node(entity: u32, z: f32, center: Vec2, size: Vec2, color: LinearRgba) -> ExtractedUiNode {
        ExtractedUiNode {
            z_order: z,
            image: AssetId::default(),
            clip: None,
            extracted_camera_entity: Entity::PLACEHOLDER,
            item: plain_box(size, color),
            main_entity: Entity::from_raw_u32(entity).unwrap().into(),
            render_entity: Entity::PLACEHOLDER,
            transform: Affine2::from_translation(center),
        }
    }

    fn frame(nodes: &[ExtractedUiNode]) -> Frame {
        Frame {
            size: WINDOW,
            clear: LinearRgba::BLACK,
            nodes: nodes.iter().map(|node| drawn(node, &[])).collect(),
            drawn: true,
        }
    }

    /// A conversation row and the input with its caret, as the app draws them.
    fn screen(caret: Option<LinearRgba>) -> Vec<ExtractedUiNode> {
        let row = node(
            1,
            1.0,
            Vec2::new(200.0, 100.0),
            Vec2::new(300.0, 40.0),
            LinearRgba::BLUE,
        );
        let input = node(
            2,
            2.0,
            Vec2::new(400.0, 570.0),
            Vec2::new(780.0, 40.0),
            LinearRgba::WHITE,
        );
        let caret =
            caret.map(|color| node(3, 3.0, Vec2::new(20.5, 570.0), Vec2::new(2.0, 20.0), color));
        [row, input].into_iter().chain(caret).collect()
    }

    #[test]
    fn a_frame_like_the_last_has_no_damage() {
        let damage = damage(&frame(&screen(None)), &frame(&screen(None)));
        assert_eq!(damage.map(|d| d.is_empty()), Some(true), "{damage:?}");
    }

    #[test]
    fn a_caret_that_comes_or_goes_damages_its_own_whole_pixels_only() {
        let on = frame(&screen(Some(LinearRgba::BLACK)));
        let off = frame(&screen(None));
        let caret = Rect::new(19.0, 560.0, 22.0, 580.0);
        assert_eq!(damage(&off, &on), Some(caret), "when it appears");
        assert_eq!(damage(&on, &off), Some(caret), "when it goes");
        let recoloured = frame(&screen(Some(LinearRgba::RED)));
        assert_eq!(
            damage(&on, &recoloured),
            Some(caret),
            "when its colour changes"
        );
    }

    #[test]
    fn a_node_that_moves_damages_where_it_was_and_where_it_is() {
        let before = frame(&screen(None));
        let mut moved = screen(None);
        moved[0].transform = Affine2::from_translation(Vec2::new(200.0, 300.0));
        assert_eq!(
            damage(&before, &frame(&moved)),
            Some(Rect::new(50.0, 80.0, 350.0, 320.0))
        );
    }

    #[test]
    fn what_the_comparison_cannot_vouch_for_is_drawn_whole() {
        let before = frame(&screen(None));
        let mut resized = frame(&screen(None));
        resized.size = UVec2::new(1000, 600);
        assert_eq!(damage(&before, &resized), None, "a new size");
        let mut cleared = frame(&screen(None));
        cleared.clear = LinearRgba::WHITE;
        assert_eq!(damage(&before, &cleared), None, "a new clear colour");
        let mut swapped = screen(None);
        swapped.swap(0, 1);
        assert_eq!(
            damage(&before, &frame(&swapped)),
            None,
            "nodes drawn in another order"
        );
        let mut rotated = screen(None);
        rotated[0].transform = Affine2::from_angle_translation(0.1, Vec2::new(200.0, 100.0));
        assert_eq!(damage(&before, &frame(&rotated)), None, "a rotated node");
    }

    #[test]
    fn limiting_keeps_the_nodes_that_cross_the_damage_clipped_to_it_over_the_clear_colour() {
        let mut world = World::new();
        let mut queue = bevy::ecs::world::CommandQueue::default();
        let mut commands = Commands::new(&mut queue, &world);
        let nodes = screen(Some(LinearRgba::BLACK));
        let now = frame(&nodes);
        let mut extracted = ExtractedUiNodes {
            uinodes: nodes,
            glyphs: Vec::new(),
        };
        let caret = Rect::new(19.0, 560.0, 22.0, 580.0);
        limit(
            &mut extracted,
            Entity::PLACEHOLDER,
            &now,
            caret,
            &mut commands,
        );
        queue.apply(&mut world);

        let kept: Vec<(f32, Option<Rect>)> = extracted
            .uinodes
            .iter()
            .map(|node| (node.z_order, node.clip))
            .collect();
        assert_eq!(
            kept,
            [
                (2.0, Some(caret)),
                (3.0, Some(caret)),
                (f32::MIN, Some(caret))
            ],
            "the input and the caret, then the clear colour under them; not the row"
        );
        let cover = extracted.uinodes.last().unwrap();
        let ExtractedUiItem::Node { color, rect, .. } = cover.item else {
            panic!("the cover is a box");
        };
        assert_eq!(color, now.clear);
        let covered = Rect::from_center_size(cover.transform.translation, rect.size());
        assert_eq!(
            covered.intersect(caret),
            caret,
            "it covers all of the damage"
        );
    }
}
