//! Zoom: the whole window drawn larger or smaller, from 50% to 300% in the steps browsers take.
//!
//! Ctrl+= or Ctrl++ (on the main row or the keypad) zooms in, Ctrl+- zooms out, Ctrl+0 goes
//! back to 100%, and Ctrl with the wheel zooms a step a notch, wherever keyboard focus is. A
//! notice over the conversation shows the level (`150%`), and screen readers hear it as they
//! hear the copied notice. `AGENT_CHAT_ZOOM=1.5` starts at a level (`main.rs`); nothing is
//! stored.
//!
//! The level is Bevy's [`UiScale`]: every node, border and glyph is laid out and drawn again at
//! the new size, and text is shaped at it (crisp, not a scaled bitmap). It multiplies with the
//! desktop's own scale (winit's scale factor, `Xft.dpi` on X11). Layout's logical pixels are
//! the zoomed ones: the list's heights, the caret's place and the notices are in them, and
//! nothing there changes. The pointer comes in the window's logical pixels, so code that puts
//! the pointer on a node converts with [`input::window_scale`].
//!
//! What stays as it was across a step: the message at the top of the view (the list keeps its
//! anchor, as when the window is resized), the selection, the find bar's matches, the keyboard
//! focus, and the field's text, caret and composition. None of them is in pixels.

use bevy::{
    input::{
        keyboard::KeyboardInput,
        mouse::{MouseButtonInput, MouseScrollUnit, MouseWheel},
    },
    platform::collections::HashSet,
    prelude::*,
    text::{FontAtlasSet, TextLayoutInfo},
};

use super::speech::{Announce, Topic};
use crate::{
    PointerGrab,
    input::{
        self,
        keymap::{Zoom, zoom_key},
        keys::Modifiers,
    },
    scroll,
};

pub(super) fn plugin(app: &mut App) {
    app.register_type::<ZoomNotice>()
        .add_message::<Zoom>()
        .init_resource::<ZoomLevel>()
        // `UiPlugin` makes it too; headless apps have none.
        .init_resource::<UiScale>()
        // At the frame's end, once every text in view has been laid out at the new size.
        .add_systems(
            Last,
            drop_unused_glyph_atlases.run_if(resource_changed::<UiScale>),
        )
        // Each only in a frame with something for it: the rest of the time a zoom costs
        // nothing (docs/performance.md §19).
        .add_systems(
            Update,
            (
                zoom_with_the_wheel.run_if(on_message::<MouseWheel>),
                hide_the_notice
                    .run_if(on_message::<KeyboardInput>.or_eager(on_message::<MouseButtonInput>)),
                zoom.run_if(on_message::<Zoom>),
                // The starting level (`AGENT_CHAT_ZOOM`) too, before the first layout.
                follow_the_level.run_if(resource_changed::<ZoomLevel>),
            )
                .chain()
                .in_set(ZoomSystems),
        );
}

/// The zoom's systems: after the frame's keys and wheel are read, before the widget draws.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ZoomSystems;

/// The levels, as browsers have them between 50% and 300%.
pub const LEVELS: [f32; 13] = [
    0.5, 0.67, 0.75, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0,
];

/// Where [`LEVELS`] has 100%.
const ACTUAL_SIZE: usize = 5;

/// The zoom level: an index into [`LEVELS`]. A step puts it in Bevy's [`UiScale`].
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ZoomLevel(usize);

impl Default for ZoomLevel {
    fn default() -> Self {
        Self(ACTUAL_SIZE)
    }
}

impl ZoomLevel {
    /// The level nearest to `factor` (`1.5` for 150%); `None` outside 50% to 300%.
    pub fn nearest(factor: f32) -> Option<Self> {
        if !(LEVELS[0]..=LEVELS[LEVELS.len() - 1]).contains(&factor) {
            return None;
        }
        let distance = |level: f32| (level - factor).abs();
        (0..LEVELS.len())
            .min_by(|&a, &b| distance(LEVELS[a]).total_cmp(&distance(LEVELS[b])))
            .map(Self)
    }

    /// The level's scale: 1.0 at 100%.
    pub fn factor(self) -> f32 {
        LEVELS[self.0]
    }

    /// The level after `step`, held between 50% and 300%.
    pub fn stepped(self, step: Zoom) -> Self {
        Self(match step {
            Zoom::In => (self.0 + 1).min(LEVELS.len() - 1),
            Zoom::Out => self.0.saturating_sub(1),
            Zoom::Reset => ACTUAL_SIZE,
        })
    }

    /// What the notice says: `150%`.
    pub fn percent(self) -> String {
        format!("{:.0}%", self.factor() * 100.0)
    }
}

/// Marks the notice that shows the zoom level; hidden until a step.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct ZoomNotice;

/// The notice, to place with the others over the conversation (`view.rs`).
pub(super) fn zoom_notice() -> impl Bundle {
    (
        Name::new("Zoom notice"),
        ZoomNotice,
        input::notice("100%", |p| p.text),
    )
}

/// Ctrl with the wheel: a step a notch, in for a notch away from the user. A high-resolution
/// wheel's fractions of a notch, and a touchpad's pixels (a wheel line's worth a notch), add up
/// to whole steps. The list does not scroll meanwhile (`scroll::scroll_by_wheel`).
fn zoom_with_the_wheel(
    mut wheel: MessageReader<MouseWheel>,
    keys: Res<ButtonInput<KeyCode>>,
    mut steps: MessageWriter<Zoom>,
    mut turned: Local<f32>,
    grab: Res<PointerGrab>,
) {
    // Under an open menu, the wheel does nothing.
    if !scroll::wheel_zooms(&keys) || grab.0 {
        wheel.clear();
        *turned = 0.0;
        return;
    }
    for notch in wheel.read() {
        *turned += match notch.unit {
            MouseScrollUnit::Line => notch.y,
            MouseScrollUnit::Pixel => notch.y / scroll::LINE,
        };
        let notches = turned.trunc();
        *turned -= notches;
        let step = if notches > 0.0 { Zoom::In } else { Zoom::Out };
        // At most from one end of the levels to the other: a thousand notches in a frame
        // are twelve steps.
        let count = (notches.abs() as usize).min(LEVELS.len());
        steps.write_batch(std::iter::repeat_n(step, count));
    }
}

/// Hides the notice at the next key or click that is not a zoom, as the copied notice goes.
fn hide_the_notice(
    mut keys: MessageReader<KeyboardInput>,
    mut clicks: MessageReader<MouseButtonInput>,
    mut held: Local<Modifiers>,
    mut notice: Single<&mut Node, With<ZoomNotice>>,
    mut announce: MessageWriter<Announce>,
) {
    let mut moved_on = clicks.read().any(|click| click.state.is_pressed());
    for key in keys.read() {
        held.note(key);
        moved_on |= key.state.is_pressed()
            && zoom_key(key, *held).is_none()
            && !matches!(
                key.key_code,
                KeyCode::ControlLeft
                    | KeyCode::ControlRight
                    | KeyCode::ShiftLeft
                    | KeyCode::ShiftRight
            );
    }
    if moved_on && notice.display != Display::None {
        notice.display = Display::None;
        announce.write(Announce::hush(Topic::Zoom));
    }
}

/// Carries out the frame's steps: the new level, the notice shown with it, and the level said
/// to screen readers. At either end a step changes nothing, but the notice still says where it
/// is.
fn zoom(
    mut steps: MessageReader<Zoom>,
    mut level: ResMut<ZoomLevel>,
    mut notice: Single<(&mut Node, &mut Text), With<ZoomNotice>>,
    mut announce: MessageWriter<Announce>,
) {
    let Some(now) = steps.read().fold(None, |now: Option<ZoomLevel>, &step| {
        Some(now.unwrap_or(*level).stepped(step))
    }) else {
        return;
    };
    level.set_if_neq(now);
    notice.0.display = Display::Flex;
    notice.1.0 = now.percent();
    announce.write(Announce::say(Topic::Zoom, now.percent()));
}

/// Puts the level in Bevy's [`UiScale`], which the whole layout reads.
fn follow_the_level(level: Res<ZoomLevel>, mut scale: ResMut<UiScale>) {
    if scale.0 != level.factor() {
        scale.0 = level.factor();
    }
}

/// Frees the glyph atlases no text is drawn from any more, in the frame a step changed the
/// level. Bevy keeps an atlas for every font size ever drawn and never frees one: visiting
/// every level once kept 49 MiB of glyphs for sizes no longer shown (docs/performance.md).
///
/// An atlas goes only when no laid-out text points into it: text laid out anew at the new size
/// points into the new size's atlases, and text not laid out again (a hidden notice) keeps
/// its own. A size visited again is drawn again, as on its first visit.
fn drop_unused_glyph_atlases(
    scale: Res<UiScale>,
    texts: Query<&TextLayoutInfo>,
    atlases: Option<ResMut<FontAtlasSet>>,
) {
    let Some(mut atlases) = atlases.filter(|_| !scale.is_added()) else {
        return;
    };
    let drawn: HashSet<AssetId<Image>> = texts
        .iter()
        .flat_map(|text| &text.glyphs)
        .map(|glyph| glyph.atlas_info.texture)
        .collect();
    atlases.retain(|_, sizes| {
        sizes
            .iter()
            .any(|atlas| drawn.contains(&atlas.texture.id()))
    });
}
