//! Every script is drawn: lines in each script the app bundles a font for are laid out by Bevy's
//! real text layout (no GPU), and every cluster must come out as a real glyph of the font that
//! docs/fonts.md says draws it, in the conversation and in the field. And the field edits what
//! it draws: clicks, drags and arrows land where the layout drew each cluster, in right-to-left
//! and mixed-direction lines too.

use crate::common;

use std::collections::HashSet;

use agent_chat::{
    chat::Role,
    input::Field,
    theme::fonts::{EMOJI_FAMILY, FALLBACKS, FONT, FallbackFonts, TextMetrics},
    view::{self, paragraph},
};
use bevy::{
    input::{ButtonState, keyboard::Key},
    prelude::*,
    text::{ComputedTextBlock, TextBrush},
    window::WindowResolution,
};
use common::*;
use parley::{Layout, PositionedLayoutItem};
use unicode_segmentation::UnicodeSegmentation;

const HANGUL: &str = "AgentChat Hangul";
const SYMBOLS: &[&str] = &[
    HANGUL,
    "Noto Sans",
    "Noto Sans Symbols",
    "Noto Sans Symbols2",
    "Noto Sans Math",
];

/// A line in one script, and the fonts its clusters may be drawn with.
struct Sample {
    what: &'static str,
    text: &'static str,
    fonts: &'static [&'static str],
}

const SAMPLES: &[Sample] = &[
    Sample {
        what: "emoji: faces, a skin tone, a ZWJ family, a flag, a keycap, a heart, a sign",
        text: "👋😀👍🏽👨‍👩‍👧🇰🇷1️⃣❤️⚠",
        fonts: &[EMOJI_FAMILY],
    },
    Sample {
        what: "Korean with emoji",
        text: "안녕하세요 😀 반가워요",
        fonts: &[HANGUL, EMOJI_FAMILY],
    },
    Sample {
        what: "Hanja (KS X 1001)",
        text: "漢字 韓國語 大韓民國",
        fonts: &[HANGUL],
    },
    Sample {
        what: "kana",
        text: "ひらがな カタカナ",
        fonts: &[HANGUL],
    },
    Sample {
        what: "Latin with diacritics, composed and combining",
        text: "Ångström façade Łódź ŵ ḗ ǖ e\u{301}",
        fonts: &[HANGUL, "Noto Sans"],
    },
    Sample {
        what: "Greek",
        text: "Καλημέρα κόσμε",
        fonts: &[HANGUL, "Noto Sans"],
    },
    Sample {
        what: "Cyrillic",
        text: "Привет, мир! Ђурђевдан",
        fonts: &[HANGUL, "Noto Sans"],
    },
    Sample {
        what: "Arabic",
        text: "مرحبا بالعالم",
        fonts: &["Noto Sans Arabic"],
    },
    Sample {
        what: "Hebrew",
        text: "שלום עולם",
        fonts: &["Noto Sans Hebrew"],
    },
    Sample {
        what: "Thai",
        text: "สวัสดีครับ ยินดีต้อนรับ",
        fonts: &["Noto Sans Thai"],
    },
    Sample {
        what: "Devanagari",
        text: "नमस्ते दुनिया",
        fonts: &["Noto Sans Devanagari"],
    },
    Sample {
        what: "Bengali",
        text: "নমস্কার বিশ্ব",
        fonts: &["Noto Sans Bengali"],
    },
    Sample {
        what: "Tamil",
        text: "வணக்கம் உலகம்",
        fonts: &["Noto Sans Tamil"],
    },
    Sample {
        what: "math",
        text: "∑ ∫ √2 ≠ ∞ ∀x∈ℝ ⊂ ⊗ 𝔸",
        fonts: SYMBOLS,
    },
    Sample {
        what: "arrows, currency and symbols",
        text: "→ ⇄ ↻ € ₩ ₹ ₿ ✓ ★ ♫",
        fonts: SYMBOLS,
    },
];

/// Which bundled font each font blob in a layout is: the Hangul font or a fallback's family.
fn font_names(app: &App) -> Vec<(u64, &'static str)> {
    font_names_without(app, usize::MAX)
}

/// Each cluster of `text`'s layout that draws something: its text, the family of the font it
/// was drawn with, and whether all its glyphs are real (not the font's `.notdef`).
fn clusters(
    layout: &Layout<TextBrush>,
    text: &str,
    names: &[(u64, &'static str)],
) -> Vec<(String, &'static str, bool)> {
    let mut found = Vec::new();
    for line in layout.lines() {
        for item in line.items() {
            let PositionedLayoutItem::GlyphRun(run) = item else {
                continue;
            };
            let font = run.run().font().data.id();
            let family = names
                .iter()
                .find(|(id, _)| *id == font)
                .map_or("an unbundled font", |(_, name)| name);
            for cluster in run.run().clusters() {
                let source = &text[cluster.text_range()];
                if cluster.is_space_or_nbsp() || source.chars().all(is_invisible_mark) {
                    continue;
                }
                let real = cluster.glyphs().all(|glyph| glyph.id != 0);
                found.push((source.to_owned(), family, real));
            }
        }
    }
    found
}

/// The layout marks the row adds ([`paragraph::layout_text`]), which draw nothing.
fn is_invisible_mark(c: char) -> bool {
    matches!(c, '\u{200B}' | '\u{200F}')
}

fn assert_drawn(sample: &Sample, found: &[(String, &str, bool)], where_: &str) {
    let body: Vec<_> = found
        .iter()
        .filter(|(text, _, _)| sample.text.contains(text.as_str()))
        .collect();
    assert!(
        !body.is_empty(),
        "{} ({where_}): laid out no cluster of {:?}",
        sample.what,
        sample.text
    );
    for (text, family, real) in body {
        assert!(
            *real,
            "{} ({where_}): {text:?} is drawn as {family}'s .notdef box",
            sample.what
        );
        assert!(
            sample.fonts.contains(family),
            "{} ({where_}): {text:?} is drawn with {family}, expected one of {:?}",
            sample.what,
            sample.fonts
        );
    }
}

fn block(app: &App, entity: Entity) -> &ComputedTextBlock {
    app.world().get::<ComputedTextBlock>(entity).unwrap()
}

/// Submits `body`, and returns the text entity of the row that shows it, and that row's text.
fn submit_and_find_row(app: &mut App, body: &str) -> (Entity, Entity, String) {
    submit(app, body);
    let world = app.world_mut();
    let rows = row_entities(world);
    // The newest exchange is in view: the user's row, then the reply's.
    let row = rows[rows.len() - 2];
    let text = text_of_row(world, row);
    let shown = world.get::<Text>(text).unwrap().0.clone();
    assert_eq!(
        shown,
        paragraph::layout_text(&format!("사용자: {body}"), body),
        "the row before the reply shows the line sent"
    );
    (row, text, shown)
}

#[test]
fn every_script_is_drawn_with_its_font_in_a_row() {
    let mut app = laid_out_app();
    let names = font_names(&app);
    for sample in SAMPLES {
        let (_, text, shown) = submit_and_find_row(&mut app, sample.text);
        let found = clusters(block(&app, text).buffer(), &shown, &names);
        assert_drawn(sample, &found, "row");
    }
}

#[test]
fn every_script_is_drawn_with_its_font_in_the_field() {
    let mut app = laid_out_app();
    let names = font_names(&app);
    for sample in SAMPLES {
        type_text(&mut app, sample.text);
        app.update();
        assert_eq!(input_value(&mut app), sample.text, "{}: typed", sample.what);
        let line = widget_line(&mut app);
        let text = field_text(&mut app, line);
        let found = clusters(block(&app, line).buffer(), &text, &names);
        assert_drawn(sample, &found, "field");
        press_enter(&mut app);
    }
}

#[test]
fn every_hanja_of_ks_x_1001_is_drawn_with_the_hangul_font() {
    // KS X 1001 has its 4,888 Hanja in rows 42 to 93, 94 to a row: in EUC-KR, the lead bytes
    // 0xCA to 0xFD, each with the trail bytes 0xA1 to 0xFE.
    let hanja: Vec<char> = (0xCA..=0xFD_u8)
        .flat_map(|lead| (0xA1..=0xFE_u8).map(move |trail| [lead, trail]))
        .map(|bytes| {
            let (text, errors) = encoding_rs::EUC_KR.decode_without_bom_handling(&bytes);
            let mut chars = text.chars();
            match (errors, chars.next(), chars.next()) {
                (false, Some(hanja), None) => hanja,
                _ => panic!("{bytes:02X?} decodes to {text:?}, not one character"),
            }
        })
        .collect();
    let all: HashSet<char> = hanja.iter().copied().collect();
    assert_eq!(all.len(), 4888, "KS X 1001's Hanja, each its own character");

    let mut app = laid_out_app();
    let names = font_names(&app);
    let mut drawn = HashSet::new();
    for chunk in hanja.chunks(1000) {
        let body: String = chunk.iter().collect();
        let (_, text, shown) = submit_and_find_row(&mut app, &body);
        for (cluster, family, real) in clusters(block(&app, text).buffer(), &shown, &names) {
            let Some(hanja) = cluster.chars().next().filter(|c| all.contains(c)) else {
                continue;
            };
            assert!(
                real && family == HANGUL && cluster.chars().count() == 1,
                "{cluster:?} is drawn as {family}'s glyph (real: {real})"
            );
            drawn.insert(hanja);
        }
    }
    assert_eq!(drawn, all, "every Hanja is laid out in a row");
}

/// The whole text of the widget's line: its spans, in order, as the layout saw them.
fn field_text(app: &mut App, line: Entity) -> String {
    let world = app.world_mut();
    let mut text = world.get::<Text>(line).unwrap().0.clone();
    let spans: Vec<Entity> = world
        .get::<Children>(line)
        .map(|children| children.to_vec())
        .unwrap_or_default();
    for span in spans {
        if let Some(span) = world.get::<TextSpan>(span) {
            text.push_str(&span.0);
        }
    }
    text
}

#[test]
fn a_character_no_font_has_is_a_visible_box_not_blank_space() {
    let mut app = laid_out_app();
    let names = font_names(&app);
    // Ethiopic and Old Italic: no bundled font has them.
    let unbundled = "ሰላም 𐌀𐌁";
    let (_, row, text) = submit_and_find_row(&mut app, unbundled);
    let found = clusters(block(&app, row).buffer(), &text, &names);
    let missing: Vec<_> = found
        .iter()
        .filter(|(text, _, _)| unbundled.contains(text.as_str()))
        .collect();
    assert_eq!(missing.len(), 5, "one cluster per character: {found:?}");
    for (text, family, real) in missing {
        assert!(!real, "{text:?} has no glyph in any bundled font");
        assert_eq!(*family, HANGUL, "{text:?} falls to the Hangul font's box");
    }
    let fonts = app.world().resource::<Assets<Font>>();
    let notdef = skrifa_box_area(fonts.get(&FONT).unwrap().data.data());
    assert!(notdef > 0.0, "the Hangul font's .notdef draws an outline");
}

/// The area of the bounding box of a font's glyph 0 (`.notdef`), in font units.
fn skrifa_box_area(font: &[u8]) -> f32 {
    use skrifa::{FontRef, MetadataProvider, instance::Size};
    let font = FontRef::new(font).unwrap();
    let metrics = font.glyph_metrics(Size::unscaled(), skrifa::instance::LocationRef::default());
    metrics
        .bounds(skrifa::GlyphId::NOTDEF)
        .map_or(0.0, |b| (b.x_max - b.x_min) * (b.y_max - b.y_min))
}

#[test]
fn a_row_whose_body_starts_right_to_left_reads_from_the_right() {
    let mut app = laid_out_app();
    let (_, arabic, _) = submit_and_find_row(&mut app, "مرحبا بالعالم");
    let (_, mixed, _) = submit_and_find_row(&mut app, "hello مرحبا");

    // Arabic first: the label sits at the right edge, the body to its left.
    let (label_x, body_x) = label_and_body_x(&app, arabic);
    assert!(
        label_x > body_x,
        "the label ({label_x}) is right of the Arabic body ({body_x})"
    );
    // Latin first: the row reads from the left, the Arabic word still right to left within it.
    let (label_x, body_x) = label_and_body_x(&app, mixed);
    assert!(label_x < body_x, "the label ({label_x}) starts the line");
    let layout = block(&app, mixed).buffer();
    let text = &app.world().get::<Text>(mixed).unwrap().0;
    let arabic_at = text.find('م').unwrap();
    let rtl = layout
        .lines()
        .flat_map(|line| line.runs())
        .any(|run| run.text_range().contains(&arabic_at) && run.is_rtl());
    assert!(rtl, "the Arabic word is a right-to-left run");
}

/// The x of the first glyph run of the row's label and of its body.
fn label_and_body_x(app: &App, text: Entity) -> (f32, f32) {
    let shown = &app.world().get::<Text>(text).unwrap().0;
    let body_at = shown.find(": ").unwrap() + 2;
    let (mut label, mut body) = (None, None);
    for line in block(app, text).buffer().lines() {
        for item in line.items() {
            if let PositionedLayoutItem::GlyphRun(run) = item {
                let range = run.run().text_range();
                if range.start < body_at - 2 && label.is_none() {
                    label = Some(run.offset());
                }
                if range.end > body_at && range.start >= body_at - 2 && body.is_none() {
                    body = Some(run.offset());
                }
            }
        }
    }
    (label.unwrap(), body.unwrap())
}

#[test]
fn thai_wraps_between_words() {
    let mut app = laid_out_app_at(WindowResolution::new(400, 600));
    let thai = "สวัสดีครับ ยินดีต้อนรับสู่ประเทศไทย ขอให้มีความสุขมากๆ นะครับ";
    let (_, row, text) = submit_and_find_row(&mut app, thai);
    let layout = block(&app, row).buffer();
    let lines: Vec<_> = layout.lines().map(|line| line.text_range()).collect();
    assert!(lines.len() > 1, "the Thai line wraps in a narrow window");
    let words = paragraph::layout_text(&text, thai);
    for range in &lines[..lines.len() - 1] {
        let end = range.end;
        let before = &text[..end];
        assert!(
            before.ends_with(['\u{200B}', ' ']) || !text[end..].starts_with(is_thai),
            "line ends between Thai words, not inside one: {:?} | {:?} (words: {words:?})",
            &text[range.clone()],
            &text[end..]
        );
    }
}

fn is_thai(c: char) -> bool {
    ('\u{0E00}'..='\u{0E7F}').contains(&c)
}

#[test]
fn height_estimates_are_within_a_line_of_the_laid_out_height_in_every_script() {
    let mut app = laid_out_app();
    for sample in SAMPLES {
        let body = [sample.text; 12].join(" ");
        let (row, _, _) = submit_and_find_row(&mut app, &body);
        let width = list(&mut app).heights().width();
        let measured = app.world().get::<ComputedNode>(row).unwrap().size.y;
        let metrics = app.world().resource::<TextMetrics>();
        let estimated = view::estimated_height(metrics, Role::User, &body, width);
        assert!(
            measured > 3.0 * view::LINE_HEIGHT,
            "{}: the test's line wraps ({measured})",
            sample.what
        );
        assert!(
            (estimated - measured).abs() <= view::LINE_HEIGHT + 0.5,
            "{}: estimated {estimated} px, laid out {measured} px",
            sample.what
        );
    }
}

/// The caret's place and the selected text in the field now.
fn caret_and_selection(app: &mut App) -> (usize, Option<String>) {
    let input = input_entity(app);
    let line = app.world().get::<Field>(input).unwrap().line();
    (line.caret(), line.selected_text().map(str::to_owned))
}

/// The middle of a node as drawn, in window (logical) pixels.
fn middle(app: &mut App, node: Entity) -> Vec2 {
    let scale = app
        .world()
        .get::<ComputedNode>(node)
        .unwrap()
        .inverse_scale_factor();
    rect(app, node).center() * scale
}

/// Where the caret is drawn: the middle of its bar, in window (logical) pixels.
fn caret_x(app: &mut App) -> f32 {
    let bar = caret_bar(app);
    middle(app, bar).x
}

/// How many of the line's grapheme clusters are drawn left of the caret.
fn clusters_left_of_caret(app: &mut App) -> usize {
    let caret = caret_x(app);
    field_clusters(app)
        .iter()
        .filter(|(_, _, left, right)| (left + right) / 2.0 < caret)
        .count()
}

/// Each grapheme cluster of the field's line as drawn now, in the order of the line's text: its
/// byte range in the line, whether it runs right to left, and its left and right edges in window
/// (logical) pixels.
fn field_clusters(app: &mut App) -> Vec<(std::ops::Range<usize>, bool, f32, f32)> {
    let line = widget_line(app);
    let scale = app
        .world()
        .get::<ComputedNode>(line)
        .unwrap()
        .inverse_scale_factor();
    let left = rect(app, line).min.x;
    // Parley's clusters, as drawn left to right. The laid-out text is the line itself: the
    // widget's caret span is empty.
    let mut found = Vec::new();
    for layout_line in block(app, line).buffer().lines() {
        // Shaping runs, not glyph runs: spans in one font are one run, and each of its glyph
        // runs (one per span) would list all of the run's clusters again.
        for run in layout_line.runs() {
            for cluster in run.visual_clusters() {
                let from = cluster
                    .visual_offset()
                    .expect("a laid-out cluster has a place");
                let to = from + cluster.advance();
                found.push((
                    cluster.text_range(),
                    cluster.is_rtl(),
                    (left + from) * scale,
                    (left + to) * scale,
                ));
            }
        }
    }
    // A ligature (a ZWJ family, a flag) is one glyph that Parley splits among its characters'
    // clusters; the caret stops only between grapheme clusters, so those are the units here.
    let text = input_value(app);
    text.grapheme_indices(true)
        .map(|(start, grapheme)| {
            let range = start..start + grapheme.len();
            let parts = found
                .iter()
                .filter(|(part, ..)| range.contains(&part.start));
            let left = parts.clone().map(|part| part.2).fold(f32::MAX, f32::min);
            let right = parts.clone().map(|part| part.3).fold(f32::MIN, f32::max);
            let rtl = parts.clone().next().is_some_and(|part| part.1);
            (range, rtl, left, right)
        })
        .collect()
}

#[test]
fn a_click_lands_on_the_clicked_cluster_in_right_to_left_and_mixed_text() {
    let mut app = laid_out_app();
    for line in [
        "مرحبا بالعالم",
        "abc שלום def",
        "한국 عربي 😀 漢字",
        "가족 👨\u{200d}👩\u{200d}👧 🇰🇷 끝",
    ] {
        type_text(&mut app, line);
        app.update();
        let y = vertical_middle_of_field(&mut app);
        let count = field_clusters(&mut app).len();
        // Every cluster, each next click half a line from the last: two clicks close in time
        // and place would be a double-click.
        let far_apart = (0..count).map(|i| if i % 2 == 0 { i / 2 } else { count / 2 + i / 2 });
        for (share, leading) in [(0.25, true), (0.75, false)] {
            for k in far_apart.clone() {
                // The layout moves with the caret's glyph: read it again before each click.
                let (range, rtl, from, to) = field_clusters(&mut app)[k].clone();
                click(&mut app, Vec2::new(from + share * (to - from), y));
                // The left part of a cluster is its start when it runs left to right, its end
                // when it runs right to left.
                let expected = if leading != rtl {
                    range.start
                } else {
                    range.end
                };
                assert_eq!(
                    caret_and_selection(&mut app),
                    (expected, None),
                    "{line:?}: a click {:.0}% into {:?} ({}) puts the caret at byte {expected}",
                    share * 100.0,
                    &line[range.clone()],
                    if rtl {
                        "right to left"
                    } else {
                        "left to right"
                    }
                );
            }
        }
        press_enter(&mut app);
    }
}

#[test]
fn a_drag_across_an_arabic_word_selects_it_and_backspace_deletes_it() {
    let mut app = laid_out_app();
    let line = "abc مرحبا def";
    type_text(&mut app, line);
    app.update();
    let y = vertical_middle_of_field(&mut app);
    let clusters = field_clusters(&mut app);
    let word: Vec<_> = clusters
        .iter()
        .filter(|(range, rtl, ..)| *rtl && !line[range.clone()].trim().is_empty())
        .collect();
    let right = word.iter().map(|c| c.3).fold(f32::MIN, f32::max);
    let left = word.iter().map(|c| c.2).fold(f32::MAX, f32::min);
    // From just inside the word's right edge (its start) to just inside its left edge (its end).
    mouse(
        &mut app,
        Vec2::new(right - 1.0, y),
        Some(ButtonState::Pressed),
    );
    mouse(&mut app, Vec2::new(left + 1.0, y), None);
    mouse(
        &mut app,
        Vec2::new(left + 1.0, y),
        Some(ButtonState::Released),
    );
    assert_eq!(
        caret_and_selection(&mut app).1.as_deref(),
        Some("مرحبا"),
        "dragged from its right edge to its left edge, the Arabic word is selected"
    );
    press(&mut app, &[KeyCode::Backspace]);
    assert_eq!(
        input_value(&mut app),
        "abc  def",
        "Backspace deletes the selection"
    );
    // Backspace after an Arabic letter takes that letter, the one before the caret in the text.
    type_text(&mut app, "سلام");
    press(&mut app, &[KeyCode::Backspace]);
    assert_eq!(input_value(&mut app), "abc سلا def");
}

/// A press and a release of the left button at `at`, a frame each, with no move in between (as
/// a person clicks: the field may scroll its line under the pointer after the press).
fn click(app: &mut App, at: Vec2) {
    mouse(app, at, Some(ButtonState::Pressed));
    let window = the::<bevy::window::PrimaryWindow>(app);
    let release = bevy::input::mouse::MouseButtonInput {
        button: MouseButton::Left,
        state: ButtonState::Released,
        window,
    };
    deliver(app, release);
    app.update();
}

/// The middle of the field's line, in window (logical) pixels.
fn vertical_middle_of_field(app: &mut App) -> f32 {
    let line = widget_line(app);
    middle(app, line).y
}

#[test]
fn in_a_right_to_left_line_the_arrows_move_the_caret_the_way_they_point() {
    let mut app = laid_out_app();
    let line = "مرحبا بالعالم";
    type_text(&mut app, line);
    app.update();
    let x_of_caret = |app: &mut App| {
        let (caret, _) = caret_and_selection(app);
        let clusters = field_clusters(app);
        // The caret's place on screen: the left edge of the cluster before it (right to left).
        clusters
            .iter()
            .find(|(range, ..)| range.end == caret)
            .map_or(f32::MAX, |cluster| cluster.2)
    };
    // At the end, which is the line's left edge.
    let mut last = x_of_caret(&mut app);
    for _ in 0..3 {
        press(&mut app, &[KeyCode::ArrowRight]);
        let now = x_of_caret(&mut app);
        assert!(now > last, "Right moves the caret right: {last} -> {now}");
        last = now;
    }
    press(&mut app, &[KeyCode::ArrowLeft]);
    assert!(x_of_caret(&mut app) < last, "Left moves it left again");
    // Home: the line's start, at its right edge; a word to the left from there.
    press(&mut app, &[KeyCode::Home]);
    assert_eq!(caret_and_selection(&mut app).0, 0);
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::ArrowLeft]);
    assert_eq!(
        caret_and_selection(&mut app).0,
        "مرحبا".len(),
        "Ctrl+Left from the start goes past the first word, to its left"
    );
    // Shift+Left selects what the caret passes over.
    press(&mut app, &[KeyCode::ShiftLeft, KeyCode::ArrowLeft]);
    assert_eq!(caret_and_selection(&mut app).1.as_deref(), Some(" "));
}

#[test]
fn in_mixed_direction_lines_the_arrows_step_over_each_cluster_the_way_they_point() {
    let mut app = laid_out_app();
    for line in [
        "abc مرحبا def",
        "abc مرحبا",
        "مرحبا abc بالعالم",
        "한국 עברית 😀 漢字",
        "שלום 123 עולם 4,5",
        "abc مرحبا ١٢٣ و 456",
        "👨\u{200d}👩\u{200d}👧 سلام 🇰🇷",
    ] {
        type_text(&mut app, line);
        app.update();
        let count = line.graphemes(true).count();
        // From the end of the text, wherever that is drawn, to the line's left edge.
        for _ in 0..count {
            press(&mut app, &[KeyCode::ArrowLeft]);
        }
        assert_eq!(
            clusters_left_of_caret(&mut app),
            0,
            "{line:?}: {count} presses of Left reach the left edge"
        );
        let mut visited = vec![caret_and_selection(&mut app).0];
        // Each press steps over one cluster as drawn; at the edge, the next one stays.
        for step in (1..=count).chain([count]) {
            press(&mut app, &[KeyCode::ArrowRight]);
            assert_eq!(
                clusters_left_of_caret(&mut app),
                step,
                "{line:?}: after Right pressed {step} times, the caret is right of {step} clusters"
            );
            visited.push(caret_and_selection(&mut app).0);
        }
        for step in (1..=count).chain([count]) {
            press(&mut app, &[KeyCode::ArrowLeft]);
            assert_eq!(
                clusters_left_of_caret(&mut app),
                count - step,
                "{line:?}: after Left pressed {step} times, the caret is left of {step} clusters"
            );
            visited.push(caret_and_selection(&mut app).0);
        }
        // Where the direction changes, one place on screen stands for two in the text: the
        // caret takes the one beside the cluster it just crossed, so the way there and back
        // between them reach every place in the text.
        visited.sort_unstable();
        visited.dedup();
        let boundaries: Vec<usize> = line
            .grapheme_indices(true)
            .map(|(at, _)| at)
            .chain([line.len()])
            .collect();
        assert_eq!(
            visited, boundaries,
            "{line:?}: the caret stands at each place in the text"
        );
        press_enter(&mut app);
    }
}

#[test]
fn after_a_move_on_screen_typing_and_shift_select_go_by_the_text() {
    let mut app = laid_out_app();
    type_text(&mut app, "abc مرحبا def");
    press(&mut app, &[KeyCode::Home]);
    // Over "abc " and the Arabic word's last letter, which is drawn at its left end.
    for _ in 0.."abc ".len() + 1 {
        press(&mut app, &[KeyCode::ArrowRight]);
    }
    assert_eq!(caret_and_selection(&mut app).0, "abc مرحب".len());
    // Two more to the right, selecting: the two letters before it in the text.
    press(&mut app, &[KeyCode::ShiftLeft, KeyCode::ArrowRight]);
    press(&mut app, &[KeyCode::ShiftLeft, KeyCode::ArrowRight]);
    assert_eq!(caret_and_selection(&mut app).1.as_deref(), Some("حب"));
    press(&mut app, &[KeyCode::Backspace]);
    assert_eq!(input_value(&mut app), "abc مرا def");
    type_text(&mut app, "ل");
    assert_eq!(input_value(&mut app), "abc مرلا def");
}

#[test]
fn the_fallbacks_come_back_after_bevy_rebuilds_its_font_collection() {
    let mut app = laid_out_app();
    // Removing any font asset makes Bevy clear its font collection and register the rest anew,
    // and the fallback map goes with the old collection.
    let armenian = FALLBACKS
        .iter()
        .position(|fallback| fallback.family == "Noto Sans Armenian")
        .unwrap();
    let handle = app.world().resource::<FallbackFonts>().0[armenian].clone();
    app.world_mut()
        .resource_mut::<Assets<Font>>()
        .remove(&handle);
    app.update();
    let names = font_names_without(&app, armenian);
    for sample in SAMPLES.iter().filter(|sample| {
        ["Arabic", "Thai"].contains(&sample.what) || sample.what.starts_with("emoji")
    }) {
        let (_, text, shown) = submit_and_find_row(&mut app, sample.text);
        let found = clusters(block(&app, text).buffer(), &shown, &names);
        assert_drawn(sample, &found, "row, after the collection was rebuilt");
    }
}

/// [`font_names`], leaving out the fallback at index `removed`, whose asset is gone.
fn font_names_without(app: &App, removed: usize) -> Vec<(u64, &'static str)> {
    let fonts = app.world().resource::<Assets<Font>>();
    let handles = &app.world().resource::<FallbackFonts>().0;
    let mut names = vec![(fonts.get(&FONT).unwrap().data.id(), HANGUL)];
    for (i, (handle, fallback)) in handles.iter().zip(FALLBACKS).enumerate() {
        if i != removed {
            names.push((fonts.get(handle).unwrap().data.id(), fallback.family));
        }
    }
    names
}

#[test]
fn arrows_faster_than_a_frame_move_as_far_as_arrows_a_frame_apart() {
    let line = "abc مرحبا def";
    let mut slow = laid_out_app();
    let mut fast = laid_out_app();
    for app in [&mut slow, &mut fast] {
        type_text(app, line);
        press(app, &[KeyCode::Home]);
    }
    // Into the Arabic word and through it, one frame per key and all in one frame.
    for _ in 0..7 {
        press(&mut slow, &[KeyCode::ArrowRight]);
        tap(&mut fast, KeyCode::ArrowRight, Key::ArrowRight);
    }
    fast.update();
    fast.update();
    let (slow_at, fast_at) = (
        caret_and_selection(&mut slow).0,
        caret_and_selection(&mut fast).0,
    );
    assert_eq!(
        fast_at, slow_at,
        "seven Rights in one frame end where seven frames do"
    );
    assert_eq!(
        clusters_left_of_caret(&mut fast),
        7,
        "the caret is right of the seven clusters it crossed"
    );
}

#[test]
fn an_arabic_word_is_drawn_the_same_wherever_the_caret_stands_in_it() {
    let mut app = laid_out_app();
    type_text(&mut app, "abc مرحبا def");
    // The glyphs the line is drawn with, in order: the caret draws over the line, not in it,
    // so the letters on either side of it stay joined.
    let glyphs = |app: &mut App| -> Vec<u32> {
        let line = widget_line(app);
        let mut ids = Vec::new();
        for line in block(app, line).buffer().lines() {
            for run in line.runs() {
                for cluster in run.visual_clusters() {
                    ids.extend(cluster.glyphs().map(|glyph| glyph.id));
                }
            }
        }
        ids
    };
    let at_the_end = glyphs(&mut app);
    press(&mut app, &[KeyCode::Home]);
    for step in 1.."abc مرحبا def".graphemes(true).count() {
        press(&mut app, &[KeyCode::ArrowRight]);
        assert_eq!(
            glyphs(&mut app),
            at_the_end,
            "after {step} steps, the line is drawn with the same glyphs"
        );
    }
}
