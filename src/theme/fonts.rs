//! Where every character gets its glyph: the Hangul font that all text names, and the bundled
//! fonts that draw what it lacks (emoji in colour, Arabic, Hebrew, Thai, the Indic scripts,
//! Greek and Cyrillic with every diacritic, math and symbols).
//!
//! Bevy 0.19's [`TextFont`] names one font. Its text layout (Parley) picks a font for each
//! grapheme cluster: the named one if it covers the cluster, then the fonts of the collection's
//! fallback map for the cluster's script, and for emoji the emoji family. That map starts empty,
//! so [`fill_fallback_map`] fills it from [`FALLBACKS`]. A cluster that no font covers is drawn
//! with the Hangul font's `.notdef` glyph, a visible box, never blank space.
//!
//! Every font ships in the binary (`assets/fonts/subset.sh` makes them from their packages), so
//! a message looks the same on every machine. docs/fonts.md says which font draws what, and
//! how to add a script.

use bevy::{
    asset::uuid_handle,
    prelude::*,
    text::{DEFAULT_FONT_DATA, FontCx},
};
use parley::fontique::{Blob, FamilyId, GenericFamily, Script};
use skrifa::{
    FontRef, MetadataProvider,
    charmap::Charmap,
    instance::{LocationRef, Size},
    metrics::GlyphMetrics,
};
use std::sync::Arc;
use unicode_segmentation::UnicodeSegmentation;

use crate::theme::FONT_SIZE;

pub(super) fn plugin(app: &mut App) {
    let primary = usable_font(BUNDLED_FONT);
    let mut fonts = app.world_mut().resource_mut::<Assets<Font>>();
    fonts
        .insert(FONT.id(), static_font(primary))
        .expect("a fixed handle is always a valid asset id");
    // Assets, like the Hangul font, so that Bevy registers them in its font collection, and
    // again after anything clears it.
    let fallbacks = FALLBACKS
        .iter()
        .map(|fallback| fonts.add(static_font(fallback.data)))
        .collect();
    app.register_type::<FallbackFonts>()
        .insert_resource(FallbackFonts(fallbacks))
        .insert_resource(TextMetrics::new(primary))
        .add_systems(
            PostUpdate,
            fill_fallback_map
                .run_if(resource_exists::<FontCx>.and_then(resource_changed::<Assets<Font>>))
                .in_set(super::ThemeSystems::Fonts),
        );
}

/// The Hangul font's file, compiled into the binary rather than loaded from `assets/`: a binary
/// started outside `cargo run` looks for `assets/` next to itself and would come up without
/// Hangul.
const BUNDLED_FONT: &[u8] = include_bytes!("../../assets/fonts/AgentChatHangul.ttf");

/// The font every text names: NanumGothic, whole (Hangul, KS X 1001's Hanja, kana, Latin), as
/// `AgentChat Hangul` (see `assets/fonts/`).
pub const FONT: Handle<Font> = uuid_handle!("5f0c3b0e-5d7e-4c61-9a53-6f1f0c8a2b71");

/// A bundled font that draws what the Hangul font lacks.
#[derive(Debug)]
pub struct Fallback {
    /// The family name the file gives itself, which the collection knows it by.
    pub family: &'static str,
    /// The file.
    pub data: &'static [u8],
    /// The scripts it is a fallback for; every script when empty.
    pub scripts: &'static [Script],
}

const fn script(tag: &[u8; 4]) -> Script {
    Script::from_bytes(*tag)
}

macro_rules! bundled {
    ($path:literal) => {
        include_bytes!(concat!("../../assets/fonts/", $path))
    };
}

/// The fallback fonts, in the order they are tried: first those of the cluster's script, then
/// those for every script (Latin, Greek and Cyrillic, then symbols and math), then, for emoji,
/// the colour emoji font. Adding a script is one line here and one in `subset.sh`.
pub const FALLBACKS: &[Fallback] = &[
    Fallback {
        family: "Noto Sans Arabic",
        data: bundled!("noto/NotoSansArabic-Regular.ttf"),
        scripts: &[script(b"Arab")],
    },
    Fallback {
        family: "Noto Sans Hebrew",
        data: bundled!("noto/NotoSansHebrew-Regular.ttf"),
        scripts: &[script(b"Hebr")],
    },
    Fallback {
        family: "Noto Sans Thai",
        data: bundled!("noto/NotoSansThai-Regular.ttf"),
        scripts: &[script(b"Thai")],
    },
    Fallback {
        family: "Noto Sans Devanagari",
        data: bundled!("noto/NotoSansDevanagari-Regular.ttf"),
        scripts: &[script(b"Deva")],
    },
    Fallback {
        family: "Noto Sans Bengali",
        data: bundled!("noto/NotoSansBengali-Regular.ttf"),
        scripts: &[script(b"Beng")],
    },
    Fallback {
        family: "Noto Sans Gurmukhi",
        data: bundled!("noto/NotoSansGurmukhi-Regular.ttf"),
        scripts: &[script(b"Guru")],
    },
    Fallback {
        family: "Noto Sans Gujarati",
        data: bundled!("noto/NotoSansGujarati-Regular.ttf"),
        scripts: &[script(b"Gujr")],
    },
    Fallback {
        family: "Noto Sans Tamil",
        data: bundled!("noto/NotoSansTamil-Regular.ttf"),
        scripts: &[script(b"Taml")],
    },
    Fallback {
        family: "Noto Sans Telugu",
        data: bundled!("noto/NotoSansTelugu-Regular.ttf"),
        scripts: &[script(b"Telu")],
    },
    Fallback {
        family: "Noto Sans Kannada",
        data: bundled!("noto/NotoSansKannada-Regular.ttf"),
        scripts: &[script(b"Knda")],
    },
    Fallback {
        family: "Noto Sans Malayalam",
        data: bundled!("noto/NotoSansMalayalam-Regular.ttf"),
        scripts: &[script(b"Mlym")],
    },
    Fallback {
        family: "Noto Sans Armenian",
        data: bundled!("noto/NotoSansArmenian-Regular.ttf"),
        scripts: &[script(b"Armn")],
    },
    Fallback {
        family: "Noto Sans Georgian",
        data: bundled!("noto/NotoSansGeorgian-Regular.ttf"),
        scripts: &[script(b"Geor")],
    },
    // For every script: a symbol or a Latin letter with a diacritic takes the script of the
    // text around it, so a `€` or an `é` in a Korean line is looked up as Hangul.
    Fallback {
        family: "Noto Sans",
        data: bundled!("noto/NotoSans-Regular.ttf"),
        scripts: &[],
    },
    Fallback {
        family: "Noto Sans Symbols2",
        data: bundled!("noto/NotoSansSymbols2-Regular.ttf"),
        scripts: &[],
    },
    Fallback {
        family: "Noto Sans Symbols",
        data: bundled!("noto/NotoSansSymbols-Regular.ttf"),
        scripts: &[],
    },
    Fallback {
        family: "Noto Sans Math",
        data: bundled!("noto/NotoSansMath-Regular.ttf"),
        scripts: &[],
    },
    Fallback {
        family: EMOJI_FAMILY,
        data: bundled!("twemoji/TwemojiMozilla.ttf"),
        scripts: &[],
    },
];

/// The colour emoji font: Mozilla's COLRv0 build of Twemoji, which swash draws in colour.
pub const EMOJI_FAMILY: &str = "Twemoji Mozilla";

/// The scripts the fallback map has an entry for: each bundled script, and those the Hangul
/// font draws itself, whose lines still need symbols and emoji from the fallbacks. A line of
/// digits and punctuation only is looked up as Latin.
const SCRIPTS: &[Script] = &[
    script(b"Hang"),
    script(b"Hani"),
    script(b"Hira"),
    script(b"Kana"),
    script(b"Latn"),
    script(b"Grek"),
    script(b"Cyrl"),
];

/// Strong handles to the [`FALLBACKS`]' font assets, which keep them loaded.
#[derive(Resource, Reflect, Debug)]
#[reflect(Resource)]
pub struct FallbackFonts(pub Vec<Handle<Font>>);

/// A font asset over bytes compiled into the binary, without copying them.
fn static_font(data: &'static [u8]) -> Font {
    Font {
        data: Blob::new(Arc::new(data)),
        alias: String::new(),
    }
}

/// Gives the font collection's fallback map the [`FALLBACKS`], and makes Twemoji its emoji
/// family, once Bevy has registered the fonts: on the first frame, and again whenever Bevy has
/// rebuilt the collection (it does when any font asset is removed, and the map goes with it).
///
/// Runs before text is laid out in a frame where the font assets changed (the first, and one
/// that adds or removes a font); the emoji family's id tells whether the collection is new.
pub fn fill_fallback_map(mut font_cx: ResMut<FontCx>, mut filled: Local<Option<FamilyId>>) {
    let Some(emoji) = font_cx.collection.family_id(EMOJI_FAMILY) else {
        return; // not registered yet
    };
    if *filled == Some(emoji) {
        return;
    }
    let families: Vec<(&Fallback, FamilyId)> = FALLBACKS
        .iter()
        .filter_map(|fallback| Some((fallback, font_cx.collection.family_id(fallback.family)?)))
        .collect();
    let scripts = SCRIPTS
        .iter()
        .chain(FALLBACKS.iter().flat_map(|fallback| fallback.scripts));
    for &script in scripts {
        let own = families
            .iter()
            .filter(|(fallback, _)| fallback.scripts.contains(&script));
        let every = families
            .iter()
            .filter(|(fallback, _)| fallback.scripts.is_empty());
        let ids = own.chain(every).map(|&(_, id)| id);
        font_cx.collection.set_fallbacks(script, ids);
    }
    font_cx
        .collection
        .set_generic_families(GenericFamily::Emoji, std::iter::once(emoji));
    *filled = Some(emoji);
}

/// `bytes` as a [`Font`] if they are a readable font with Hangul glyphs; otherwise Bevy's
/// built-in font, after a one-line warning that Korean text will not render.
///
/// The bundled file cannot go missing at run time (a missing file fails the build), so the
/// fault left to handle is a damaged one: the app still starts, readable for Latin text.
pub fn load_font(bytes: &'static [u8]) -> Font {
    static_font(usable_font(bytes))
}

/// `bytes` if they are a readable font with Hangul glyphs; otherwise Bevy's built-in font,
/// after a one-line warning (see [`load_font`]).
fn usable_font(bytes: &'static [u8]) -> &'static [u8] {
    match check_hangul_font(bytes) {
        Ok(()) => bytes,
        Err(problem) => {
            warn!("{problem}; using Bevy's built-in font instead, so Korean text will not render");
            DEFAULT_FONT_DATA
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

/// How wide a text is at [`FONT_SIZE`], before layout has shaped it: what an estimate of a row's
/// wrapped height starts from.
///
/// Each character is measured in the first of the Hangul font and the [`FALLBACKS`] that has
/// it, as layout would draw it. Glyph advances only, without kerning or shaping, so a measure
/// is close, not exact; the list replaces the estimate with the laid-out height once a row is
/// mounted (`scroll::Heights`).
#[derive(Resource)]
pub struct TextMetrics {
    /// The Hangul font, then the fallbacks, in order.
    fonts: Vec<(Charmap<'static>, GlyphMetrics<'static>)>,
    /// The advances of ASCII and of the Hangul syllables, looked up once: nearly every
    /// character of a Korean chat, measured for every message logged.
    ascii: Box<[f32]>,
    syllables: Box<[f32]>,
}

/// The Hangul syllables block, 가 to 힣.
const SYLLABLES: std::ops::RangeInclusive<char> = '\u{AC00}'..='\u{D7A3}';

impl TextMetrics {
    /// The metrics of `primary`, which [`check_hangul_font`] has accepted (or Bevy's own font),
    /// and of the fallbacks.
    fn new(primary: &'static [u8]) -> Self {
        let primary = FontRef::new(primary)
            .or_else(|_| FontRef::new(DEFAULT_FONT_DATA))
            .expect("Bevy's built-in font is readable");
        let fallbacks = FALLBACKS
            .iter()
            .filter_map(|fallback| FontRef::new(fallback.data).ok());
        let fonts = std::iter::once(primary)
            .chain(fallbacks)
            .map(|font| {
                let metrics = font.glyph_metrics(Size::new(FONT_SIZE), LocationRef::default());
                (font.charmap(), metrics)
            })
            .collect();
        let mut metrics = Self {
            fonts,
            ascii: Box::default(),
            syllables: Box::default(),
        };
        metrics.ascii = ('\0'..='\u{7F}').map(|c| metrics.look_up(c)).collect();
        metrics.syllables = SYLLABLES.map(|c| metrics.look_up(c)).collect();
        metrics
    }

    /// How wide `text` is on one line, in logical pixels.
    pub fn width(&self, text: &str) -> f32 {
        // Nearly every line of a Korean chat is ASCII and Hangul syllables, each character a
        // cluster of its own: no need to find the clusters.
        if text.chars().all(|c| c.is_ascii() || SYLLABLES.contains(&c)) {
            return text.chars().map(|c| self.advance(c)).sum();
        }
        text.graphemes(true).map(|c| self.cluster_width(c)).sum()
    }

    /// How wide one grapheme cluster is. An emoji sequence (a ZWJ family, a flag, a skin tone)
    /// is one glyph as wide as its first emoji; anything else, the sum of its characters (a
    /// combining mark advances by nothing).
    fn cluster_width(&self, cluster: &str) -> f32 {
        let mut chars = cluster.chars();
        let first = chars.next().map_or(0.0, |c| self.advance(c));
        let one_glyph = cluster.chars().any(
            |c| matches!(c, '\u{200D}' | '\u{1F1E6}'..='\u{1F1FF}' | '\u{1F3FB}'..='\u{1F3FF}'),
        );
        if one_glyph {
            first
        } else {
            first + chars.map(|c| self.advance(c)).sum::<f32>()
        }
    }

    /// How far `c` advances the pen, in logical pixels; a character no font has is drawn, and
    /// measured, as the Hangul font's box.
    pub fn advance(&self, c: char) -> f32 {
        if c.is_ascii() {
            self.ascii[c as usize]
        } else if SYLLABLES.contains(&c) {
            self.syllables[c as usize - *SYLLABLES.start() as usize]
        } else {
            self.look_up(c)
        }
    }

    fn look_up(&self, c: char) -> f32 {
        let (glyphs, glyph) = self
            .fonts
            .iter()
            .find_map(|(charmap, glyphs)| Some((glyphs, charmap.map(c)?)))
            .unwrap_or((&self.fonts[0].1, Default::default()));
        glyphs.advance_width(glyph).unwrap_or(FONT_SIZE)
    }
}
