//! What a row's text tells the text layout beyond its characters: which way its paragraph
//! runs, and where Thai may break across lines.
//!
//! Both come out as invisible characters in the row's [`Text`](bevy::prelude::Text) only: the
//! message, what the screen reader hears and what is copied stay as typed.

use std::borrow::Cow;

use icu_segmenter::{LineSegmenter, options::LineBreakOptions};

use crate::input::editor::starts_right_to_left;

/// Right-to-left mark: a strong right-to-left character that draws nothing.
const RLM: char = '\u{200F}';

/// Zero-width space: a line may break after it.
const ZWSP: char = '\u{200B}';

/// The text to lay out for a row whose label and body are `text` and whose body is `body`.
///
/// - **Direction.** A paragraph runs the way its first strong character does (Unicode's bidi
///   rule P2), and a row's text starts with its Hangul label, so a line of Arabic or Hebrew
///   would run left to right with its label on the left. When the body starts right-to-left,
///   a right-to-left mark (U+200F) in front makes the whole row read from the right: label at
///   the right edge, then the body, lines aligned right (rows are laid out with
///   `Justify::Start`).
/// - **Thai** writes no spaces between words, and Bevy 0.19's text layout (Parley 0.9) breaks
///   lines with ICU4X's segmenter for non-complex scripts only, so a Thai line could wrap
///   only between characters. ICU4X's Thai dictionary finds the word breaks here, and a
///   zero-width space (U+200B) marks each one. A workaround ([`crate::workarounds`]) until
///   Bevy's Parley breaks complex scripts; canary
///   `parley_breaks_lines_for_non_complex_scripts_only`.
pub fn layout_text<'a>(text: &'a str, body: &str) -> Cow<'a, str> {
    let rtl = starts_right_to_left(body);
    let thai = text.chars().any(is_thai);
    if !rtl && !thai {
        return Cow::Borrowed(text);
    }
    let mut laid_out = String::with_capacity(text.len() + 16);
    if rtl {
        laid_out.push(RLM);
    }
    if thai {
        push_with_thai_breaks(&mut laid_out, text);
    } else {
        laid_out.push_str(text);
    }
    Cow::Owned(laid_out)
}

/// Appends `text` to `out` with a [`ZWSP`] at each line-break opportunity between two Thai
/// characters.
fn push_with_thai_breaks(out: &mut String, text: &str) {
    let segmenter = LineSegmenter::new_dictionary(LineBreakOptions::default());
    let mut copied = 0;
    for at in segmenter.segment_str(text) {
        let between_thai = text[..at].chars().next_back().is_some_and(is_thai)
            && text[at..].chars().next().is_some_and(is_thai);
        if between_thai {
            out.push_str(&text[copied..at]);
            out.push(ZWSP);
            copied = at;
        }
    }
    out.push_str(&text[copied..]);
}

fn is_thai(c: char) -> bool {
    ('\u{0E00}'..='\u{0E7F}').contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` without the marks [`layout_text`] adds (the tests' lines have none of their own).
    fn without_layout_marks(text: &str) -> String {
        text.chars().filter(|&c| c != RLM && c != ZWSP).collect()
    }

    #[test]
    fn plain_korean_and_latin_rows_are_laid_out_as_they_are() {
        let text = "사용자: hello 안녕";
        assert!(matches!(layout_text(text, "hello 안녕"), Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn a_body_that_starts_right_to_left_turns_the_row_right_to_left() {
        for body in ["مرحبا بالعالم", "שלום", "123 مرحبا", "«שלום» world"]
        {
            let text = format!("사용자: {body}");
            let laid_out = layout_text(&text, body);
            assert!(
                laid_out.starts_with(RLM),
                "{body:?} starts the row with an RLM"
            );
            assert_eq!(without_layout_marks(&laid_out), text);
        }
        for body in ["hello مرحبا", "안녕 שלום", "42"] {
            let text = format!("사용자: {body}");
            assert!(
                !layout_text(&text, body).starts_with(RLM),
                "{body:?} starts left-to-right or with no strong character"
            );
        }
    }

    #[test]
    fn thai_gets_a_break_between_its_words_and_nowhere_else() {
        // "สวัสดีครับ ยินดีต้อนรับ": hello, welcome.
        let text = "사용자: สวัสดีครับ ยินดีต้อนรับ";
        let laid_out = layout_text(text, "สวัสดีครับ ยินดีต้อนรับ");
        let breaks = laid_out.matches(ZWSP).count();
        assert!(
            breaks >= 2,
            "the dictionary splits the Thai words: {laid_out:?}"
        );
        assert_eq!(without_layout_marks(&laid_out), text);
        for (at, _) in laid_out.match_indices(ZWSP) {
            let before = laid_out[..at].chars().next_back().unwrap();
            let after = laid_out[at + ZWSP.len_utf8()..].chars().next().unwrap();
            assert!(is_thai(before) && is_thai(after), "{laid_out:?}");
        }
    }
}
