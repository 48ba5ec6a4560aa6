//! The window's side of the input method (IME): allowed on the window, and told where the
//! caret is, so the platform opens its candidate list there.
//!
//! What the IME types is applied to the line with the keys, in order (`super::typing`).

use bevy::{input_focus::InputFocus, prelude::*, ui::UiGlobalTransform, window::PrimaryWindow};

use super::{ChatInput, Field, caret::CaretBar, window_scale};

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
    input_focus: Res<InputFocus>,
    chat: Single<Entity, With<ChatInput>>,
    fields: Query<(Ref<ComputedNode>, Ref<UiGlobalTransform>), With<Field>>,
    bars: Query<(&ComputedNode, Ref<UiGlobalTransform>, &ChildOf), With<CaretBar>>,
    parents: Query<&ChildOf>,
    zoom: Res<UiScale>,
) {
    // The focused field, or the chat's while focus is elsewhere: what is typed lands there.
    let field = input_focus
        .get()
        .filter(|&focused| fields.contains(focused))
        .unwrap_or(*chat);
    let (Ok(mut window), Ok((node, transform))) = (windows.single_mut(), fields.get(field)) else {
        return;
    };
    // The field's bar stands in the field's text viewport.
    let bar = bars
        .iter()
        .find(|(_, _, ChildOf(viewport))| {
            parents
                .get(*viewport)
                .is_ok_and(|parent| parent.parent() == field)
        })
        .map(|(bar, at, _)| (bar, at));
    let moved = node.is_changed()
        || transform.is_changed()
        || bar.as_ref().is_some_and(|(_, at)| at.is_changed());
    if window.ime_enabled && !moved {
        return;
    }
    // Under the caret's line, so the list opens under the syllable being composed, on whichever
    // line it is; without a caret drawn, at the text area's bottom left.
    let content = node.content_box();
    let mut corner = transform.transform_point2(Vec2::new(content.min.x, content.max.y));
    // A node's transform is its centre: the bar's bottom left corner.
    let caret = bar.map(|(bar, at)| at.transform_point2(bar.size() * Vec2::new(-0.5, 0.5)));
    if let Some(caret) = caret {
        // Not `clamp`: in a field narrower than its padding (a tiny window, a high zoom) the
        // text area's right edge is left of its left one.
        corner.x = caret
            .x
            .min(transform.transform_point2(content.max).x)
            .max(corner.x);
        // Within the text area: a line scrolled out of view is not where the list belongs.
        corner.y = caret
            .y
            .max(transform.transform_point2(content.min).y)
            .min(corner.y);
    }
    // Layout is in physical pixels; the window wants its own logical ones, which the zoom
    // does not scale.
    let position = corner / window_scale(&node, &zoom);
    if !window.ime_enabled {
        window.ime_enabled = true;
    }
    if window.ime_position != position {
        window.ime_position = position;
    }
}
