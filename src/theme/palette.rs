//! The colours: a palette per theme, and a [`Swatch`] to name one colour of either. The core's
//! table (`chat::RoleStyle`) gives each role its swatches; which palette is in use is
//! [`Theme`](super::Theme)'s.

use bevy::prelude::*;

/// The app's colours, one set per [`Theme`](super::Theme). In each, text meets WCAG AA contrast
/// on every background it sits on (4.5:1), and borders and the scrollbar stand out from what
/// they sit on (3:1); `tests/app/theme.rs` checks both palettes.
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
    /// A link's text and underline, on either role's bubble.
    pub link: Color,
    /// The text of the link the keyboard is on, over the focus ring's colour.
    pub focused_link_text: Color,
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
        // A light blue, apart from the text's near-white by its hue and the underline.
        link: Color::srgb_u8(0x9e, 0xcb, 0xff),
        focused_link_text: Color::srgb_u8(0x1b, 0x1d, 0x23),
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
        link: Color::srgb_u8(0x0b, 0x4f, 0xc2),
        focused_link_text: Color::srgb_u8(0xff, 0xff, 0xff),
    };
}

/// One colour of a palette, named by the field it reads: `|p| p.text`.
pub type Swatch = fn(&Palette) -> Color;
