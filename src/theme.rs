//! How things look: the palettes and which one is in use, and the text sizes. Which palette
//! colour each role takes is the core's table (`chat::RoleStyle`); which font draws each
//! character is [`fonts`]' concern.

use bevy::{
    prelude::*,
    window::{PrimaryWindow, WindowTheme, WindowThemeChanged},
};

pub mod fonts;
pub mod palette;
#[cfg(all(
    feature = "desktop-theme",
    unix,
    not(any(target_os = "macos", target_os = "android"))
))]
pub mod portal;

use fonts::FONT;
pub use palette::{Palette, Swatch};

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(fonts::plugin)
        .register_type::<Theme>()
        .register_type::<ThemeChoice>()
        .init_resource::<Theme>()
        .add_message::<DesktopTheme>()
        // Both registered by Bevy's window and camera plugins too; headless apps have neither.
        .add_message::<WindowThemeChanged>()
        .init_resource::<ClearColor>()
        .add_systems(
            PostUpdate,
            (paint_window, paint).in_set(ThemeSystems::Paint),
        );
    // What the desktop said, heard before the theme follows it.
    #[cfg(all(
        feature = "desktop-theme",
        unix,
        not(any(target_os = "macos", target_os = "android"))
    ))]
    app.add_systems(
        PreUpdate,
        (portal::hear_the_desktop, follow_platform_theme).chain(),
    );
    #[cfg(not(all(
        feature = "desktop-theme",
        unix,
        not(any(target_os = "macos", target_os = "android"))
    )))]
    app.add_systems(PreUpdate, follow_platform_theme);
    #[cfg(all(unix, not(any(target_os = "macos", target_os = "android"))))]
    app.add_systems(PostUpdate, dress_the_window.in_set(ThemeSystems::Paint));
}

/// The theme's systems in `PostUpdate`, before the UI is laid out and drawn (`frame.rs`).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ThemeSystems {
    /// Colours set, so that the nodes that take a colour from a painted one (the caret bar,
    /// from the text) follow in the same frame.
    Paint,
    /// The fallback fonts put in the text layout's font collection.
    Fonts,
}

/// Text size of rows and input, in logical pixels.
pub const FONT_SIZE: f32 = 20.0;

/// The font every text in the app uses.
pub fn text_font() -> TextFont {
    TextFont::from_font_size(FONT_SIZE).with_font(FONT)
}

/// The same font, smaller: notices under the field, the copy button.
pub fn small_font() -> TextFont {
    TextFont::from_font_size(FONT_SIZE * 0.8).with_font(FONT)
}

/// Which palette the app draws with: the platform's preference (the window's on Windows and
/// macOS, the desktop portal's on Linux), dark where none is told, unless the user chose with
/// [`ThemeChoice`].
#[derive(Resource, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Resource)]
pub enum Theme {
    /// [`Palette::DARK`].
    #[default]
    Dark,
    /// [`Palette::LIGHT`].
    Light,
}

impl Theme {
    /// The colours of this theme.
    pub fn palette(self) -> &'static Palette {
        match self {
            Self::Dark => &Palette::DARK,
            Self::Light => &Palette::LIGHT,
        }
    }
}

impl From<WindowTheme> for Theme {
    fn from(theme: WindowTheme) -> Self {
        match theme {
            WindowTheme::Light => Self::Light,
            WindowTheme::Dark => Self::Dark,
        }
    }
}

/// The desktop's light or dark preference, where the desktop tells it apart from the window:
/// on Linux, through the XDG desktop portal (`portal`), at start-up and whenever the user
/// switches. The theme follows it as it follows a [`WindowThemeChanged`].
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct DesktopTheme(pub Theme);

/// A theme the user chose, which wins over the platform's (`main` reads it from
/// `AGENT_CHAT_THEME`).
#[derive(Resource, Reflect, Clone, Copy, Debug)]
#[reflect(Resource)]
pub struct ThemeChoice(pub Theme);

/// Which palette colours an entity is drawn with. [`paint`] gives it those colours when it
/// appears, when this changes, and whenever the theme changes, so no node keeps a colour of
/// the other theme.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Paint {
    /// Its [`BackgroundColor`].
    pub background: Option<Swatch>,
    /// Its [`BorderColor`], on every side.
    pub border: Option<Swatch>,
    /// Its [`TextColor`].
    pub text: Option<Swatch>,
}

impl Paint {
    /// Filled with `swatch`.
    pub fn background(swatch: Swatch) -> Self {
        Self {
            background: Some(swatch),
            ..default()
        }
    }

    /// Text in `swatch`.
    pub fn text(swatch: Swatch) -> Self {
        Self {
            text: Some(swatch),
            ..default()
        }
    }

    /// This, with a border in `swatch`.
    pub fn with_border(self, swatch: Swatch) -> Self {
        Self {
            border: Some(swatch),
            ..self
        }
    }
}

/// Follows the platform's light or dark preference, unless the user chose a theme.
///
/// The window reports the platform's theme once it exists, in [`Window::window_theme`]; later
/// changes arrive as [`WindowThemeChanged`] messages (the window component is not updated). On
/// Linux winit reports none, and the desktop's preference comes as [`DesktopTheme`] messages.
fn follow_platform_theme(
    choice: Option<Res<ThemeChoice>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut changes: MessageReader<WindowThemeChanged>,
    mut desktop: MessageReader<DesktopTheme>,
    mut reported: Local<Option<WindowTheme>>,
    mut theme: ResMut<Theme>,
) {
    let mut platform = None;
    if let Ok(window) = windows.single()
        && window.window_theme != *reported
    {
        *reported = window.window_theme;
        platform = window.window_theme.map(Theme::from);
    }
    if let Some(change) = changes.read().last() {
        platform = Some(change.theme.into());
    }
    if let Some(DesktopTheme(preferred)) = desktop.read().last() {
        platform = Some(*preferred);
    }
    let wanted = match (choice, platform) {
        (Some(choice), _) => choice.0,
        (None, Some(platform)) => platform,
        (None, None) => return,
    };
    theme.set_if_neq(wanted);
}

/// Dresses the window in the theme, on Linux: the title bar winit draws where the compositor
/// draws none (GNOME on Wayland; Adwaita, light unless told), and the window manager's hint on
/// X11 (`_GTK_THEME_VARIANT`), so a dark window does not wear a light title bar. Only on Linux,
/// where winit reports no theme: on Windows and macOS, setting one would stop the window
/// following the system's. [`follow_platform_theme`] reads the value back as the window's
/// report, which is the theme itself, and so changes nothing.
#[cfg(all(unix, not(any(target_os = "macos", target_os = "android"))))]
fn dress_the_window(theme: Res<Theme>, mut windows: Query<&mut Window, With<PrimaryWindow>>) {
    if !theme.is_changed() {
        return;
    }
    let dressed = match *theme {
        Theme::Light => WindowTheme::Light,
        Theme::Dark => WindowTheme::Dark,
    };
    for mut window in &mut windows {
        window.window_theme = Some(dressed);
    }
}

/// Fills the window with the palette's background: the camera clears to it before the UI is
/// drawn. A full-window node with that fill would cost a second pass over every pixel of every
/// frame, which on a software renderer is most of what an idle frame costs.
fn paint_window(theme: Res<Theme>, mut clear: ResMut<ClearColor>) {
    if theme.is_changed() {
        clear.0 = theme.palette().window_background;
    }
}

/// Gives painted entities their colours from the current theme's palette.
pub fn paint(
    theme: Res<Theme>,
    painted: Query<(
        Ref<Paint>,
        Option<&mut BackgroundColor>,
        Option<&mut BorderColor>,
        Option<&mut TextColor>,
    )>,
) {
    let palette = theme.palette();
    for (paint, background, border, text) in painted {
        if !theme.is_changed() && !paint.is_changed() {
            continue;
        }
        if let (Some(swatch), Some(mut background)) = (paint.background, background) {
            background.set_if_neq(BackgroundColor(swatch(palette)));
        }
        if let (Some(swatch), Some(mut border)) = (paint.border, border) {
            border.set_if_neq(BorderColor::all(swatch(palette)));
        }
        if let (Some(swatch), Some(mut text)) = (paint.text, text) {
            text.set_if_neq(TextColor(swatch(palette)));
        }
    }
}

/// The space around the window's content and between the conversation and the input, in
/// logical pixels.
pub const MARGIN: f32 = 12.0;
