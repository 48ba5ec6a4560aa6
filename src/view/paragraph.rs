//! What a row's text tells the text layout beyond its characters: which way its paragraph
//! runs, and where Thai may break across lines.
//!
//! Both come out as invisible characters in the row's [`Text`](bevy::prelude::Text) only: the
//! message, what the screen reader hears and what is copied stay as typed.

use std::{borrow::Cow, ops::Range};

use icu_segmenter::{LineSegmenter, options::LineBreakOptions};

use super::{row_text, shown_len};
use crate::{
    chat::{Role, RoleStyle},
    text_direction::starts_right_to_left,
};

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

/// A row's text as laid out, and how its bytes stand to the message's body: the label comes
/// first, a long body is cut ([`super::shown_body`]), and the layout may add marks that draw
/// nothing (a right-to-left mark, Thai's line-break marks: [`layout_text`]).
pub(super) struct LaidOut {
    /// The text as laid out.
    pub(super) text: String,
    /// The label's bytes (`사용자: `) in the row's text.
    label: usize,
    /// The body's bytes shown as they are.
    kept: usize,
    /// The body's bytes.
    body: usize,
    /// Where the layout added a mark, as offsets into the row's text (before the marks).
    marks: Vec<usize>,
}

/// Every mark the layout adds (U+200F, U+200B) is three bytes long in UTF-8.
const MARK_LEN: usize = 3;

impl LaidOut {
    pub(super) fn of(role: Role, body: &str) -> Self {
        let text = row_text(role, body);
        let laid = layout_text(&text, body);
        let marks = match &laid {
            Cow::Borrowed(_) => Vec::new(),
            Cow::Owned(laid) => added_marks(laid, &text),
        };
        Self {
            label: RoleStyle::of(role).text("").len(),
            kept: shown_len(body),
            body: body.len(),
            text: laid.into_owned(),
            marks,
        }
    }

    /// The body offset of the layout's byte `index`: the body's start for the label, its end
    /// for the count of what a long row does not show.
    pub(super) fn body_offset(&self, index: usize) -> usize {
        let mut before = 0;
        for (k, &mark) in self.marks.iter().enumerate() {
            if mark + k * MARK_LEN < index {
                before += 1;
            }
        }
        let in_text = index.saturating_sub(before * MARK_LEN);
        match in_text.checked_sub(self.label) {
            None => 0,
            Some(offset) if offset > self.kept => self.body,
            Some(offset) => offset,
        }
    }

    /// The body offset of the `index`-th character of the row's text as screen readers are
    /// told it: without the marks the layout adds.
    pub(super) fn body_offset_of_character(&self, index: usize) -> usize {
        let laid_marks: Vec<usize> = (self.marks.iter().enumerate())
            .map(|(k, &mark)| mark + k * MARK_LEN)
            .collect();
        let at = (self.text.char_indices())
            .filter(|(at, _)| !laid_marks.contains(at))
            .nth(index)
            .map_or(self.text.len(), |(at, _)| at);
        self.body_offset(at)
    }

    /// The layout's byte for the body offset `offset`.
    pub(super) fn index(&self, offset: usize) -> usize {
        if offset > self.kept || (offset == self.body && self.kept < self.body) {
            return self.text.len();
        }
        let in_text = self.label + offset;
        in_text + MARK_LEN * self.marks.iter().filter(|&&mark| mark <= in_text).count()
    }

    /// The bytes of the laid-out text that show `body` (a range of the body's bytes), and the
    /// label before it when `label`.
    pub(super) fn range(&self, body: Range<usize>, label: bool) -> Range<usize> {
        let start = if label { 0 } else { self.index(body.start) };
        start..self.index(body.end).max(start)
    }
}

/// The offsets in `text` where `laid` (the same text with marks added) has a mark.
fn added_marks(laid: &str, text: &str) -> Vec<usize> {
    let mut marks = Vec::new();
    let mut original = text.char_indices().peekable();
    for c in laid.chars() {
        match original.peek() {
            Some(&(_, o)) if o == c => {
                original.next();
            }
            Some(&(at, _)) => marks.push(at),
            None => marks.push(text.len()),
        }
    }
    marks
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

    #[test]
    fn a_long_bodys_cut_and_the_layouts_marks_map_to_its_ends_and_past_them() {
        let body = "שלום עולם";
        let laid = LaidOut::of(Role::User, body);
        assert!(laid.text.starts_with('\u{200F}'), "{:?}", laid.text);
        for offset in [0, "שלום".len(), body.len()] {
            let index = laid.index(offset);
            assert_eq!(laid.body_offset(index), offset, "offset {offset}");
        }
        // A screen reader counts `사용자: ` (5 characters) and `שלום ` (5) before `עולם`.
        assert_eq!(laid.body_offset_of_character(10), "שלום ".len());
        assert_eq!(
            laid.body_offset_of_character(2),
            0,
            "the label is the body's start"
        );
        assert_eq!(laid.body_offset(0), 0, "the label is the body's start");

        let long = "가".repeat(super::super::MAX_SHOWN_CHARS + 10);
        let laid = LaidOut::of(Role::Agent, &long);
        assert_eq!(laid.index(long.len()), laid.text.len(), "the cut's count");
        assert_eq!(laid.body_offset(laid.text.len()), long.len());
        assert_eq!(laid.range(0..long.len(), false).end, laid.text.len());
    }

    #[test]
    fn thai_break_marks_are_found_where_the_layout_added_them() {
        let text = "사용자: สวัสดีครับ";
        let laid = layout_text(text, "สวัสดีครับ");
        let marks = added_marks(&laid, text);
        assert!(!marks.is_empty());
        for mark in marks {
            assert!(text.is_char_boundary(mark));
        }
    }
}
