//! How things look: the palettes and which one is in use, and the text sizes. Which palette
//! colour each role takes is the core's table (`chat::RoleStyle`); which font draws each
//! character is [`fonts`]' concern.

use bevy::{
    prelude::*,
    window::{PrimaryWindow, WindowTheme, WindowThemeChanged},
};

pub mod fonts;
#[cfg(all(
    feature = "desktop-theme",
    unix,
    not(any(target_os = "macos", target_os = "android"))
))]
pub mod portal;

use fonts::FONT;

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

/// The app's colours, one set per [`Theme`]. In each, text meets WCAG AA contrast on every
/// background it sits on (4.5:1), and borders and the scrollbar stand out from what they sit on
/// (3:1); `tests/app/theme.rs` checks both palettes.
#[derive(Debug, Clone, PartialEq)]
pub struct Palette {
    /// Behind everything.
    pub window_background: Color,
    /// Row text and typed text.
    pub text: Color,
    /// The input field's fill.
    pub input_background: Color,
    /// The hint in the empty input field.
    pub placeholder: Color,
    /// The input field's border.
    pub input_border: Color,
    /// A user row's fill.
    pub user_background: Color,
    /// A user row's left border.
    pub user_border: Color,
    /// An agent row's fill.
    pub agent_background: Color,
    /// An agent row's right border.
    pub agent_border: Color,
    /// The full-field notice, and the field's border while it shows.
    pub warning: Color,
    /// The scrollbar's thumb.
    pub scrollbar_thumb: Color,
    /// Behind the selected text in the input field.
    pub selection: Color,
    /// The selected text.
    pub selection_text: Color,
    /// The ring around the message that has keyboard focus.
    pub focus_ring: Color,
    /// Behind the text a find matched, in the rows.
    pub find_match: Color,
    /// The text a find matched.
    pub find_match_text: Color,
    /// Behind the find's current match: 3:1 or more against the other matches.
    pub find_current: Color,
    /// The text of the find's current match.
    pub find_current_text: Color,
}

impl Palette {
    /// Light text on dark grey: the default, and the theme where the platform states none.
    pub const DARK: Self = Self {
        window_background: Color::srgb_u8(0x1b, 0x1d, 0x23),
        text: Color::srgb_u8(0xec, 0xef, 0xf4),
        input_background: Color::srgb_u8(0x2b, 0x2e, 0x37),
        placeholder: Color::srgb_u8(0x9a, 0xa3, 0xb2),
        input_border: Color::srgb_u8(0x5e, 0x67, 0x79),
        user_background: Color::srgb_u8(0x26, 0x33, 0x49),
        user_border: Color::srgb_u8(0x6f, 0xa8, 0xff),
        agent_background: Color::srgb_u8(0x24, 0x3a, 0x2f),
        agent_border: Color::srgb_u8(0x7b, 0xd8, 0x8f),
        warning: Color::srgb_u8(0xf0, 0xb4, 0x29),
        scrollbar_thumb: Color::srgb_u8(0x76, 0x7f, 0x90),
        // Light on dark: no fill stands out from the field and still carries light text, so
        // the selected text turns dark.
        selection: Color::srgb_u8(0x8a, 0xb4, 0xf8),
        selection_text: Color::srgb_u8(0x1b, 0x1d, 0x23),
        focus_ring: Color::srgb_u8(0xff, 0xd8, 0x4d),
        // Matches a dim amber the light text still reads on; the current one bright, with
        // dark text.
        find_match: Color::srgb_u8(0x5b, 0x4a, 0x16),
        find_match_text: Color::srgb_u8(0xec, 0xef, 0xf4),
        find_current: Color::srgb_u8(0xfa, 0xcc, 0x15),
        find_current_text: Color::srgb_u8(0x1b, 0x1d, 0x23),
    };

    /// Dark text on near-white, for a platform that prefers light.
    pub const LIGHT: Self = Self {
        window_background: Color::srgb_u8(0xf7, 0xf8, 0xfa),
        text: Color::srgb_u8(0x1b, 0x1f, 0x27),
        input_background: Color::srgb_u8(0xff, 0xff, 0xff),
        placeholder: Color::srgb_u8(0x5f, 0x68, 0x78),
        input_border: Color::srgb_u8(0x8a, 0x93, 0xa3),
        user_background: Color::srgb_u8(0xe3, 0xed, 0xff),
        user_border: Color::srgb_u8(0x25, 0x63, 0xeb),
        agent_background: Color::srgb_u8(0xe2, 0xf5, 0xe8),
        agent_border: Color::srgb_u8(0x1a, 0x7f, 0x37),
        warning: Color::srgb_u8(0x8a, 0x5c, 0x00),
        scrollbar_thumb: Color::srgb_u8(0x7a, 0x82, 0x91),
        selection: Color::srgb_u8(0x25, 0x63, 0xeb),
        selection_text: Color::srgb_u8(0xff, 0xff, 0xff),
        focus_ring: Color::srgb_u8(0x6b, 0x21, 0xa8),
        // Matches pale yellow under dark text; the current one dark orange, with white text.
        find_match: Color::srgb_u8(0xfd, 0xe6, 0x8a),
        find_match_text: Color::srgb_u8(0x1b, 0x1f, 0x27),
        find_current: Color::srgb_u8(0xc2, 0x41, 0x0c),
        find_current_text: Color::srgb_u8(0xff, 0xff, 0xff),
    };
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

/// One colour of a palette, named by the field it reads: `|p| p.text`.
pub type Swatch = fn(&Palette) -> Color;

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
