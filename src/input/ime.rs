//! The window's side of the input method (IME): allowed on the window, and told where the
//! caret is, so the platform opens its candidate list there.
//!
//! What the IME types is applied to the line with the keys, in order (`super::typing`).

use bevy::{
    prelude::*,
    text::TextLayoutInfo,
    ui::{ComputedUiRenderTargetInfo, UiGlobalTransform},
    window::PrimaryWindow,
};

use super::{
    ChatInput,
    selection::{self, LineText},
};

/// Allows the IME on the window and tells it where the caret is, so the platform draws its
/// candidate list under the syllable being composed rather than at the window's corner.
///
/// Checked every frame and written only when different; worked out again only when the caret's
/// layout or the field moved: the caret moves as the user types, the field with the window's
/// size, and another plugin may turn the IME off. Bevy's own text-input plugin does (it is part of
/// `DefaultPlugins` when Bevy is built with `bevy_ui_widgets`), whenever input focus changes and
/// no `EditableText` has it; this field is not one.
pub(super) fn place_ime_window(
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
    fields: Query<
        (
            Ref<ComputedNode>,
            Ref<UiGlobalTransform>,
            &ComputedUiRenderTargetInfo,
        ),
        With<ChatInput>,
    >,
    lines: Query<(Ref<TextLayoutInfo>, &ComputedNode, Ref<UiGlobalTransform>), With<LineText>>,
) {
    let (Ok(mut window), Ok((node, transform, target))) = (windows.single_mut(), fields.single())
    else {
        return;
    };
    let line = lines.single().ok();
    let moved = node.is_changed()
        || transform.is_changed()
        || line
            .as_ref()
            .is_some_and(|(layout, _, at)| layout.is_changed() || at.is_changed());
    if window.ime_enabled && !moved {
        return;
    }
    // Below the text area, so the list opens under the line being typed; at the caret when the
    // widget's text is laid out, else at the area's left edge.
    let content = node.content_box();
    let mut corner = transform.transform_point2(Vec2::new(content.min.x, content.max.y));
    let caret_x = line.and_then(|(layout, text_node, text_transform)| {
        let caret = layout
            .glyphs
            .iter()
            .find(|g| g.section_index == selection::CARET)?;
        // Glyphs sit in the text's box, whose transform is its centre.
        let left = text_transform.transform_point2(-text_node.size() / 2.0).x;
        Some(left + caret.position.x)
    });
    if let Some(x) = caret_x {
        corner.x = x.clamp(corner.x, transform.transform_point2(content.max).x);
    }
    // Layout is in physical pixels; the window wants logical ones.
    let position = corner / target.scale_factor();
    if !window.ime_enabled {
        window.ime_enabled = true;
    }
    if window.ime_position != position {
        window.ime_position = position;
    }
}
