//! The window's icon, for the taskbar and Alt+Tab: Bevy 0.19's `Window` has no field for one
//! (bevyengine/bevy#1031), so it is handed to winit's window directly, once the window exists.
//!
//! The pixels are the icon's 64 px rendering as raw RGBA (`assets/icon/render.sh` makes them
//! from `assets/icon/agent-chat.svg`), so the binary needs no PNG decoder. winit shows a
//! window icon on X11 (`_NET_WM_ICON`) and Windows; Wayland and macOS take the icon from the
//! launcher entry and the app bundle instead (`assets/desktop/`).

use bevy::{
    ecs::system::NonSendMarker,
    prelude::*,
    window::{PrimaryWindow, RawHandleWrapper},
    winit::WINIT_WINDOWS,
};
use winit::window::Icon;

/// The icon's side, in pixels.
const SIDE: u32 = 64;

/// The icon's pixels, row by row, four bytes (RGBA) each.
static PIXELS: &[u8; (SIDE * SIDE * 4) as usize] =
    include_bytes!("../../assets/icon/window-64.rgba");

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, give_the_window_its_icon);
}

/// Hands the icon to the primary window in the frame its platform window appears.
fn give_the_window_its_icon(
    created: Query<Entity, (With<PrimaryWindow>, Added<RawHandleWrapper>)>,
    // winit's windows live on the main thread.
    _main_thread: NonSendMarker,
) {
    for window in &created {
        let icon = match Icon::from_rgba(PIXELS.to_vec(), SIDE, SIDE) {
            Ok(icon) => icon,
            Err(error) => {
                warn!("the window's icon was not set: {error}");
                return;
            }
        };
        WINIT_WINDOWS.with_borrow(|windows| {
            if let Some(window) = windows.get_window(window) {
                window.set_window_icon(Some(icon));
            }
        });
    }
}
