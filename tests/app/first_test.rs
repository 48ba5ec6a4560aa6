//! A first test, written as Bevy's own tests of apps write one (tests/how_to_test_apps.rs, in
//! Bevy's repository): the app on `MinimalPlugins`, a line typed and sent with Bevy's keyboard
//! messages, one frame, and what the session recorded. The crate's tour shows the body as it is
//! here (`tests/app/tour.rs` checks that it does).

use agent_chat::{AgentChatPlugin, chat::SessionRecord, input::keys_that_send};
use bevy::{input::InputPlugin, prelude::*, text::TextIterScratch};

#[test]
fn a_line_typed_with_bevys_keyboard_messages_is_recorded() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), InputPlugin))
        .init_asset::<Font>() // the text widget's two needs, which `DefaultPlugins` meets
        .init_resource::<TextIterScratch>()
        .add_plugins(AgentChatPlugin);
    app.world_mut()
        .write_message_batch(keys_that_send("안녕하세요"));
    app.update();
    assert_eq!(
        app.world().resource::<SessionRecord>().inputs(),
        ["안녕하세요"]
    );
}
