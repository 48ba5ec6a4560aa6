//! Full UI layout without a GPU: Bevy's `DefaultPlugins` with the renderer's backends switched
//! off and no winit window, so node sizes and scroll offsets are computed as on screen.

use agent_chat::{AgentChatPlugin, input::ChatInput, view::Conversation, view::MessageRow};
use bevy::{
    log::LogPlugin,
    prelude::*,
    render::{RenderPlugin, settings::WgpuSettings},
    ui::UiGlobalTransform,
    winit::WinitPlugin,
};
use bevy_simple_text_input::TextInputSubmitMessage;

fn laid_out_app() -> App {
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .build()
            .disable::<WinitPlugin>()
            // One global logger per process; tests run several apps.
            .disable::<LogPlugin>()
            .set(RenderPlugin {
                render_creation: WgpuSettings {
                    backends: None,
                    ..default()
                }
                .into(),
                ..default()
            })
            .set(WindowPlugin {
                primary_window: Some(Window {
                    resolution: (800, 600).into(),
                    ..default()
                }),
                ..default()
            }),
    )
    .add_plugins(AgentChatPlugin);
    app.finish();
    app.cleanup();
    app.update();
    app
}

/// Top and bottom edge of a node, in physical pixels.
fn vertical_extent(app: &mut App, entity: Entity) -> (f32, f32) {
    let world = app.world_mut();
    let (node, transform) = world
        .query::<(&ComputedNode, &UiGlobalTransform)>()
        .get(world, entity)
        .unwrap();
    let center = transform.translation.y;
    (center - node.size.y / 2.0, center + node.size.y / 2.0)
}

#[test]
fn the_newest_row_is_fully_visible_at_the_end_of_the_submitting_frame() {
    let mut app = laid_out_app();
    let input = app
        .world_mut()
        .query_filtered::<Entity, With<ChatInput>>()
        .single(app.world())
        .unwrap();

    // Far more rows than fit in 600 px, all arriving in one frame.
    for i in 0..40 {
        app.world_mut().write_message(TextInputSubmitMessage {
            entity: input,
            value: format!("메시지 {i}"),
        });
    }
    app.update();

    let world = app.world_mut();
    let (area, area_node, children) = world
        .query_filtered::<(Entity, &ComputedNode, &Children), With<Conversation>>()
        .single(world)
        .unwrap();
    let rows: Vec<Entity> = children.iter().collect();
    let scrolled = area_node.scroll_position.y;
    let content = area_node.content_size.y;
    assert_eq!(rows.len(), 80);
    assert!(
        world.get::<MessageRow>(rows[79]).is_some(),
        "the last child is a row"
    );

    let (area_top, area_bottom) = vertical_extent(&mut app, area);
    let (first_top, _) = vertical_extent(&mut app, rows[0]);
    let (last_top, last_bottom) = vertical_extent(&mut app, rows[79]);
    assert!(
        content > area_bottom - area_top,
        "the test needs more content ({content}) than the area shows ({area_top}..{area_bottom})"
    );
    assert!(scrolled > 0.0, "the area scrolled");
    assert!(
        last_top >= area_top - 0.5 && last_bottom <= area_bottom + 0.5,
        "the newest row ({last_top}..{last_bottom}) lies inside the area ({area_top}..{area_bottom})"
    );
    assert!(
        first_top < area_top,
        "the oldest row ({first_top}) scrolled out above the area ({area_top})"
    );
}
