//! What an inspector (bevy-inspector-egui, Bevy's remote protocol) sees: the public components and
//! resources are registered for reflection, so the conversation can be read without the app's
//! types, by name.

use crate::common;

use agent_chat::chat::{MessageLog, Role};
use bevy::{
    ecs::reflect::{AppTypeRegistry, ReflectComponent, ReflectResource},
    prelude::*,
    reflect::ReflectRef,
};
use common::{fix_pick, headless_app, submit};

#[test]
fn an_inspector_reads_the_log_and_each_messages_role_and_body_by_reflection() {
    let mut app = headless_app();
    fix_pick(&mut app, &[1]);
    submit(&mut app, "안녕");

    let world = app.world();
    let registry = world.resource::<AppTypeRegistry>().read();
    let by_name = |path: &str| {
        registry
            .get_with_type_path(path)
            .unwrap_or_else(|| panic!("{path} is registered"))
    };
    // Resources live on entities of their own; an inspector finds the log's by its type.
    let log_type = by_name("agent_chat::chat::MessageLog");
    assert!(
        log_type.data::<ReflectResource>().is_some(),
        "the log reflects as a resource"
    );
    let id = world.components().get_id(log_type.type_id()).unwrap();
    let holder = world.resource_entities().get(id).unwrap();
    let log = log_type
        .data::<ReflectComponent>()
        .unwrap()
        .reflect(world.entity(holder))
        .unwrap();
    let ReflectRef::TupleStruct(log) = log.reflect_ref() else {
        panic!("the log is a tuple struct");
    };
    let entities = log
        .field(0)
        .and_then(|list| list.try_downcast_ref::<Vec<Entity>>())
        .expect("the log holds entities");
    assert_eq!(entities, world.resource::<MessageLog>().entities());

    let role = by_name("agent_chat::chat::Role")
        .data::<ReflectComponent>()
        .unwrap();
    let message = by_name("agent_chat::chat::ChatMessage")
        .data::<ReflectComponent>()
        .unwrap();
    let read: Vec<(String, String)> = entities
        .iter()
        .map(|&entity| {
            let entity = world.entity(entity);
            let role = role.reflect(entity).expect("each message has a role");
            let ReflectRef::Struct(body) = message.reflect(entity).unwrap().reflect_ref() else {
                panic!("a message is a struct");
            };
            let body = body
                .field("body")
                .and_then(|b| b.try_downcast_ref::<String>());
            (format!("{role:?}"), body.cloned().unwrap_or_default())
        })
        .collect();
    assert_eq!(
        read,
        [
            (format!("{:?}", Role::User), "안녕".to_owned()),
            (
                format!("{:?}", Role::Agent),
                agent_chat::chat::REPLIES[1].to_owned()
            ),
        ]
    );
}
