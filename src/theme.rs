//! How things look: the palette, the Hangul font, and the one table that turns a role into style.

use bevy::{asset::uuid_handle, prelude::*, text::DEFAULT_FONT_DATA};
use skrifa::{FontRef, MetadataProvider};

use crate::chat::Role;

pub(super) fn plugin(app: &mut App) {
    let font = load_font(BUNDLED_FONT);
    app.world_mut()
        .resource_mut::<Assets<Font>>()
        .insert(FONT.id(), font)
        .expect("a fixed handle is always a valid asset id");
}

/// The font file, compiled into the binary rather than loaded from `assets/`: a binary started
/// outside `cargo run` looks for `assets/` next to itself and would come up without Hangul.
const BUNDLED_FONT: &[u8] = include_bytes!("../assets/fonts/AgentChatHangul.ttf");

/// `bytes` as a [`Font`] if they are a readable font with Hangul glyphs; otherwise Bevy's
/// built-in font, after a one-line warning that Korean text will not render.
///
/// The bundled file cannot go missing at run time (a missing file fails the build), so the
/// fault left to handle is a damaged one: the app still starts, readable for Latin text.
pub fn load_font(bytes: &[u8]) -> Font {
    match check_hangul_font(bytes) {
        Ok(()) => Font::from_bytes(bytes.to_vec()),
        Err(problem) => {
            warn!("{problem}; using Bevy's built-in font instead, so Korean text will not render");
            Font::from_bytes(DEFAULT_FONT_DATA.to_vec())
        }
    }
}

/// Whether `bytes` parse as a font that maps Hangul syllables and Latin letters.
pub fn check_hangul_font(bytes: &[u8]) -> Result<(), String> {
    let font = FontRef::new(bytes).map_err(|e| format!("the bundled font cannot be read ({e})"))?;
    let charmap = font.charmap();
    match ['가', '힣', 'A']
        .into_iter()
        .find(|&c| charmap.map(c).is_none())
    {
        None => Ok(()),
        Some(c) => Err(format!("the bundled font has no glyph for {c:?}")),
    }
}

/// The Hangul-capable font (a NanumGothic subset, see `assets/fonts/`) used for all text.
pub const FONT: Handle<Font> = uuid_handle!("5f0c3b0e-5d7e-4c61-9a53-6f1f0c8a2b71");

/// Text size of rows and input, in logical pixels.
pub const FONT_SIZE: f32 = 20.0;

/// The font every text in the app uses.
pub fn text_font() -> TextFont {
    TextFont::from_font_size(FONT_SIZE).with_font(FONT)
}

/// The app's colours. Text meets WCAG AA contrast on every background it sits on (4.5:1), and
/// the side borders stand out from their surroundings (3:1); `tests/theme.rs` checks both.
pub mod palette {
    use bevy::color::Color;

    /// #1b1d23
    pub const WINDOW_BACKGROUND: Color = Color::srgb_u8(0x1b, 0x1d, 0x23);
    /// #eceff4
    pub const TEXT: Color = Color::srgb_u8(0xec, 0xef, 0xf4);
    /// #2b2e37
    pub const INPUT_BACKGROUND: Color = Color::srgb_u8(0x2b, 0x2e, 0x37);
    /// #9aa3b2
    pub const PLACEHOLDER: Color = Color::srgb_u8(0x9a, 0xa3, 0xb2);
    /// #5e6779
    pub const INPUT_BORDER: Color = Color::srgb_u8(0x5e, 0x67, 0x79);
    /// #263349
    pub const USER_BACKGROUND: Color = Color::srgb_u8(0x26, 0x33, 0x49);
    /// #6fa8ff
    pub const USER_BORDER: Color = Color::srgb_u8(0x6f, 0xa8, 0xff);
    /// #f0b429
    pub const WARNING: Color = Color::srgb_u8(0xf0, 0xb4, 0x29);
    /// #243a2f
    pub const AGENT_BACKGROUND: Color = Color::srgb_u8(0x24, 0x3a, 0x2f);
    /// #7bd88f
    pub const AGENT_BORDER: Color = Color::srgb_u8(0x7b, 0xd8, 0x8f);
}

/// Width of the one border that marks a row's side.
pub const ROW_BORDER: Val = Val::Px(4.0);

/// The structural style class of a row, like a CSS class: what a test or a stylesheet keys on.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowClass {
    /// A row showing a [`Role::User`] message.
    UserMessage,
    /// A row showing a [`Role::Agent`] reply.
    AgentReply,
}

/// Everything the screen shows differently per role. Adding a role is one arm in [`Self::of`].
///
/// Alignment and border side make the author visible without colour; colour only adds to them.
#[derive(Clone, Debug, PartialEq)]
pub struct RoleStyle {
    /// The speaker's name shown before the body.
    pub label: &'static str,
    /// The row's style class.
    pub class: RowClass,
    /// Where the bubble sits in its row.
    pub justify: JustifyContent,
    /// The bubble's border widths: one side only.
    pub border: UiRect,
    /// The bubble's border colour.
    pub border_color: Color,
    /// The bubble's fill.
    pub background: Color,
}

impl RoleStyle {
    /// The style of every row of `role`.
    pub fn of(role: Role) -> Self {
        match role {
            Role::User => Self {
                label: "사용자",
                class: RowClass::UserMessage,
                justify: JustifyContent::FlexStart,
                border: UiRect::left(ROW_BORDER),
                border_color: palette::USER_BORDER,
                background: palette::USER_BACKGROUND,
            },
            Role::Agent => Self {
                label: "에이전트",
                class: RowClass::AgentReply,
                justify: JustifyContent::FlexEnd,
                border: UiRect::right(ROW_BORDER),
                border_color: palette::AGENT_BORDER,
                background: palette::AGENT_BACKGROUND,
            },
        }
    }

    /// The text a row shows: `<label>: <body>`.
    pub fn text(&self, body: &str) -> String {
        format!("{}: {}", self.label, body)
    }
}
