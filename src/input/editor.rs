//! The text being typed, and what editing does to it: a caret and a selection that move by
//! grapheme clusters, words (Unicode's UAX #29) and lines, insertion that keeps the text within
//! its limit (on one line, or with its line breaks where the field allows them), and undo.
//! Plain Rust, no Bevy: `super` turns keys into calls on it.
//!
//! The moves here go through the text. Where the text wraps, Up, Down, Home and End follow the
//! lines on screen instead, from the layout (`super::selection::OnScreen`); the moves here are
//! what they fall back to before the text is laid out, by its hard line breaks.
//!
//! Positions are byte offsets into the text, always on a grapheme cluster's boundary, so no
//! move or deletion can split an emoji sequence, a flag, a syllable written as conjoining jamo
//! or a letter from its accent.
//!
//! Where text changes direction (`abc` then an Arabic word, say), one offset is two places on
//! screen: after `abc`, and at the far edge of the Arabic word. The caret's *affinity* says which
//! of the two it shows at: beside the character before it in the text (upstream) or the one
//! after it (downstream). Editing leaves it upstream, beside what was just typed; a move on
//! screen (`super::selection`) sets it to the side the caret arrived from.

use std::ops::Range;

pub use parley::Affinity;
use unicode_segmentation::{GraphemeCursor, UnicodeSegmentation};

/// Where a caret move goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Motion {
    /// One grapheme cluster back.
    Left,
    /// One grapheme cluster on.
    Right,
    /// To the start of this word, or of the one before.
    WordLeft,
    /// To the end of this word, or of the one after (as GTK's entry does).
    WordRight,
    /// To the start of the line.
    Home,
    /// To the end of the line.
    End,
    /// To the line above, at the same column; on the first line, to its start.
    Up,
    /// To the line below, at the same column; on the last line, to its end.
    Down,
    /// To the start of the text (Ctrl+Home).
    TextStart,
    /// To the end of the text (Ctrl+End).
    TextEnd,
}

impl Motion {
    /// The same key's move in a line that runs right to left, where the arrows still move the
    /// caret the way they point: Left goes on through the text, Right goes back (as in
    /// Windows' and GTK's entries for a right-to-left line). Home and End stay the line's start
    /// and end, which there are its right and left edges.
    pub fn mirrored(self) -> Self {
        match self {
            Self::Left => Self::Right,
            Self::Right => Self::Left,
            Self::WordLeft => Self::WordRight,
            Self::WordRight => Self::WordLeft,
            _ => self,
        }
    }
}

/// How the last change was made, to group typing into undo steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    Typing,
    Erasing,
    /// Paste, cut, a word deleted, a line recalled: each one step of its own.
    Other,
}

/// The text, caret and selection at one moment, as undo keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Snapshot {
    text: String,
    caret: usize,
    anchor: usize,
}

/// How many steps undo goes back at most.
const UNDO_DEPTH: usize = 100;

/// Editable text: one line, or several where the field keeps line breaks.
#[derive(Debug, Clone)]
pub struct LineEditor {
    now: Snapshot,
    max_chars: usize,
    /// Whether a line break stays one (a multi-line field) or becomes a space (a one-line one).
    keeps_breaks: bool,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// The last change, and where it left the caret: typing right there continues its step.
    last: Option<(Change, usize)>,
    /// What the input method is composing: shown at the caret, not yet part of the text. With
    /// where the IME wants the caret inside it, in bytes.
    composing: Option<(String, usize)>,
    /// Which neighbour the caret shows beside (see the module's doc).
    affinity: Affinity,
    /// Where across the text Up and Down aim while they go on, in the layout's pixels, and the
    /// caret they left: kept through a shorter line, forgotten once the caret is elsewhere.
    goal: Option<(usize, f32)>,
}

impl LineEditor {
    /// An empty line that holds at most `max_chars` characters, on one line: a line break
    /// inserted becomes a space.
    pub fn new(max_chars: usize) -> Self {
        Self {
            now: Snapshot {
                text: String::new(),
                caret: 0,
                anchor: 0,
            },
            max_chars,
            keeps_breaks: false,
            undo: Vec::new(),
            redo: Vec::new(),
            last: None,
            composing: None,
            affinity: Affinity::Upstream,
            goal: None,
        }
    }

    /// An empty text of at most `max_chars` characters that keeps the line breaks inserted into
    /// it (as LF: CR LF and a lone CR become one).
    pub fn with_line_breaks(max_chars: usize) -> Self {
        Self {
            keeps_breaks: true,
            ..Self::new(max_chars)
        }
    }

    /// Whether a line break inserted stays one.
    pub fn keeps_breaks(&self) -> bool {
        self.keeps_breaks
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.now.text
    }

    /// The caret, as a byte offset.
    pub fn caret(&self) -> usize {
        self.now.caret
    }

    /// Which neighbour in the text the caret shows beside, where the two are far apart on
    /// screen.
    pub fn affinity(&self) -> Affinity {
        self.affinity
    }

    /// Where across Up and Down aim, while the caret is where the last of them left it.
    pub fn goal(&self) -> Option<f32> {
        self.goal
            .filter(|&(caret, _)| caret == self.now.caret)
            .map(|(_, across)| across)
    }

    /// Notes that Up or Down, which just placed the caret, aimed at `across` (see
    /// [`Self::goal`]).
    pub fn aim_at(&mut self, across: f32) {
        self.goal = Some((self.now.caret, across));
    }

    /// The selected bytes, empty when nothing is selected.
    pub fn selection(&self) -> Range<usize> {
        self.now.caret.min(self.now.anchor)..self.now.caret.max(self.now.anchor)
    }

    /// The selected text, if any.
    pub fn selected_text(&self) -> Option<&str> {
        let selection = self.selection();
        (!selection.is_empty()).then(|| &self.now.text[selection])
    }

    /// Whether the input method is composing text.
    pub fn is_composing(&self) -> bool {
        self.composing.is_some()
    }

    /// The line as shown: the text with the composition at the caret.
    pub fn shown(&self) -> std::borrow::Cow<'_, str> {
        match &self.composing {
            None => self.now.text.as_str().into(),
            Some((composing, _)) => {
                let mut shown = self.now.text.clone();
                shown.insert_str(self.now.caret, composing);
                shown.into()
            }
        }
    }

    /// Where the caret shows in [`Self::shown`].
    pub fn shown_caret(&self) -> usize {
        self.now.caret + self.composing.as_ref().map_or(0, |(_, caret)| *caret)
    }

    /// The composition's bytes in [`Self::shown`], if any.
    pub fn composition(&self) -> Option<Range<usize>> {
        let (composing, _) = self.composing.as_ref()?;
        Some(self.now.caret..self.now.caret + composing.len())
    }

    /// Shows `text` as the input method's composition (replacing the last), with the caret at
    /// `caret` bytes into it (else after it); empty text ends the composition. A composition
    /// that starts over a selection replaces it. Returns whether all of `text` fitted.
    pub fn compose(&mut self, text: &str, caret: Option<usize>) -> bool {
        if text.is_empty() {
            self.composing = None;
            return true;
        }
        if !self.selection().is_empty() {
            self.delete(Motion::Left);
        }
        let line = clean(text, false);
        let kept = fit(&line, self.room());
        let caret = caret
            .filter(|&caret| kept.is_char_boundary(caret.min(kept.len())))
            .map_or(kept.len(), |caret| caret.min(kept.len()));
        let fitted = kept.len() == line.len();
        self.composing = (!kept.is_empty()).then(|| (kept.to_owned(), caret));
        fitted
    }

    /// Moves the caret; with `extend`, the selection's far end stays where it was.
    ///
    /// Without `extend`, a selection collapses: Left and Right stop at its start and end, as on
    /// every desktop, and the other moves start from the caret.
    pub fn move_caret(&mut self, motion: Motion, extend: bool) {
        let selection = self.selection();
        let to = match motion {
            Motion::Left if !extend && !selection.is_empty() => selection.start,
            Motion::Right if !extend && !selection.is_empty() => selection.end,
            _ => self.target(motion),
        };
        self.place(to, extend);
    }

    /// Puts the caret at `at` (a byte offset, moved back to a cluster boundary), extending the
    /// selection or not.
    pub fn place(&mut self, at: usize, extend: bool) {
        self.place_beside(at, Affinity::Upstream, extend);
    }

    /// Puts the caret at `at` as [`Self::place`] does, shown beside its neighbour on the
    /// `affinity` side: where a click or a move on screen left it.
    pub fn place_beside(&mut self, at: usize, affinity: Affinity, extend: bool) {
        let at = self.boundary_at_or_before(at);
        self.now.caret = at;
        if !extend {
            self.now.anchor = at;
        }
        self.last = None;
        self.affinity = affinity;
    }

    /// Selects the whole line.
    pub fn select_all(&mut self) {
        self.now.anchor = 0;
        self.now.caret = self.now.text.len();
        self.last = None;
        self.affinity = Affinity::Upstream;
    }

    /// Selects the word (or the run of spaces or punctuation) at `at`: a double-click.
    pub fn select_word_at(&mut self, at: usize) {
        let word = word_at(&self.now.text, at);
        self.now.anchor = word.start;
        self.now.caret = word.end;
        self.last = None;
        self.affinity = Affinity::Upstream;
    }

    /// Types `text` at the caret, replacing the selection. Returns whether all of it fitted.
    pub fn type_text(&mut self, text: &str) -> bool {
        self.insert(text, Change::Typing)
    }

    /// Inserts `text` as one undo step (a paste, an IME commit of many characters), replacing
    /// the selection. Returns whether all of it fitted.
    pub fn paste(&mut self, text: &str) -> bool {
        self.insert(text, Change::Other)
    }

    /// Deletes the selection, or else from the caret to where `motion` would take it.
    pub fn delete(&mut self, motion: Motion) {
        let mut range = self.selection();
        if range.is_empty() {
            let to = self.target(motion);
            range = to.min(self.now.caret)..to.max(self.now.caret);
        }
        if range.is_empty() {
            return;
        }
        let change = match motion {
            Motion::Left | Motion::Right if self.selection().is_empty() => Change::Erasing,
            _ => Change::Other,
        };
        self.record(change, range.start);
        self.now.text.replace_range(range.clone(), "");
        self.now.caret = range.start;
        self.now.anchor = range.start;
        self.affinity = Affinity::Upstream;
        self.last = Some((change, range.start));
    }

    /// Takes the selected text out of the line (a cut).
    pub fn cut(&mut self) -> Option<String> {
        let cut = self.selected_text()?.to_owned();
        self.delete(Motion::Left);
        Some(cut)
    }

    /// Replaces the whole line (a line recalled from history), as one undo step.
    pub fn replace_all(&mut self, text: &str) {
        self.select_all();
        self.paste(text);
    }

    /// Takes the text, leaving an empty one with no undo history: what Enter does.
    pub fn take(&mut self) -> String {
        let line = std::mem::take(&mut self.now.text);
        *self = Self {
            keeps_breaks: self.keeps_breaks,
            ..Self::new(self.max_chars)
        };
        line
    }

    /// Whether the caret is on the text's first line, by its hard line breaks.
    pub fn on_first_line(&self) -> bool {
        !self.now.text[..self.now.caret].contains('\n')
    }

    /// Whether the caret is on the text's last line, by its hard line breaks.
    pub fn on_last_line(&self) -> bool {
        !self.now.text[self.now.caret..].contains('\n')
    }

    /// Whether there is a step to go back ([`Self::undo`]).
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is an undone step to take again ([`Self::redo`]).
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Goes back one step; returns whether there was one.
    pub fn undo(&mut self) -> bool {
        let Some(before) = self.undo.pop() else {
            return false;
        };
        self.composing = None;
        self.redo.push(std::mem::replace(&mut self.now, before));
        self.last = None;
        self.affinity = Affinity::Upstream;
        true
    }

    /// Goes forward again one undone step; returns whether there was one.
    pub fn redo(&mut self) -> bool {
        let Some(after) = self.redo.pop() else {
            return false;
        };
        self.composing = None;
        self.undo.push(std::mem::replace(&mut self.now, after));
        self.last = None;
        self.affinity = Affinity::Upstream;
        true
    }

    /// How many more characters fit, once the selection is gone.
    pub fn room(&self) -> usize {
        let kept = self.now.text.chars().count() - self.now.text[self.selection()].chars().count();
        self.max_chars.saturating_sub(kept)
    }

    fn insert(&mut self, text: &str, change: Change) -> bool {
        // What can fit, before it is cleaned: a paste of 100,000 lines is cut to its start
        // first, and only that start is cleaned.
        let room = self.room();
        let start = prefix(text, room);
        let line = clean(start, self.keeps_breaks);
        let kept = fit(&line, room);
        let fitted = start.len() == text.len() && kept.len() == line.len();
        if kept.is_empty() && self.selection().is_empty() {
            return fitted;
        }
        let range = self.selection();
        // Typing continues a step while it goes on where it left off and does not start a word.
        let starts_word = kept.starts_with(char::is_whitespace);
        let change = if change == Change::Typing && starts_word {
            Change::Other
        } else {
            change
        };
        self.record(change, range.start);
        self.now.text.replace_range(range.clone(), kept);
        self.now.caret = range.start + kept.len();
        self.now.anchor = self.now.caret;
        self.affinity = Affinity::Upstream;
        // A space ends the word being typed: what follows is a step of its own.
        let next = if starts_word { Change::Typing } else { change };
        self.last = Some((next, self.now.caret));
        fitted
    }

    /// Saves the state before a change, unless the change continues the last step. Any change
    /// but the input method's own ends a composition: what is composed was meant for the line
    /// as it was.
    fn record(&mut self, change: Change, at: usize) {
        self.composing = None;
        let continues = change != Change::Other
            && self.selection().is_empty()
            && self.last.is_some_and(|(last, caret)| {
                last == change
                    && caret == self.now.caret
                    && (change == Change::Typing || at <= caret)
            });
        if !continues {
            if self.undo.len() == UNDO_DEPTH {
                self.undo.remove(0);
            }
            self.undo.push(self.now.clone());
        }
        self.redo.clear();
    }

    /// Where `motion` takes the caret from where it is.
    fn target(&self, motion: Motion) -> usize {
        let (text, caret) = (&self.now.text, self.now.caret);
        match motion {
            Motion::Left => GraphemeCursor::new(caret, text.len(), true)
                .prev_boundary(text, 0)
                .ok()
                .flatten()
                .unwrap_or(0),
            Motion::Right => GraphemeCursor::new(caret, text.len(), true)
                .next_boundary(text, 0)
                .ok()
                .flatten()
                .unwrap_or(text.len()),
            Motion::WordLeft => words(text)
                .map(|word| word.start)
                .take_while(|&start| start < caret)
                .last()
                .unwrap_or(0),
            Motion::WordRight => words(text)
                .map(|word| word.end)
                .find(|&end| end > caret)
                .unwrap_or(text.len()),
            Motion::Home => line_start(text, caret),
            Motion::End => line_end(text, caret),
            Motion::Up if self.on_first_line() => 0,
            Motion::Down if self.on_last_line() => text.len(),
            Motion::Up => self.same_column(line_start(text, caret) - 1),
            Motion::Down => self.same_column(line_end(text, caret) + 1),
            Motion::TextStart => 0,
            Motion::TextEnd => text.len(),
        }
    }

    /// The place on the line holding the byte `on` as many grapheme clusters into it as the
    /// caret is into its own, or that line's end.
    fn same_column(&self, on: usize) -> usize {
        let text = &self.now.text;
        let caret = self.now.caret;
        let column = text[line_start(text, caret)..caret].graphemes(true).count();
        let start = line_start(text, on);
        let line = &text[start..line_end(text, on)];
        start
            + line
                .grapheme_indices(true)
                .nth(column)
                .map_or(line.len(), |(at, _)| at)
    }

    /// `at`, or the nearest cluster boundary before it.
    fn boundary_at_or_before(&self, at: usize) -> usize {
        let text = &self.now.text;
        let mut at = at.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let mut cursor = GraphemeCursor::new(at, text.len(), true);
        match cursor.is_boundary(text, 0) {
            Ok(true) => at,
            _ => cursor.prev_boundary(text, 0).ok().flatten().unwrap_or(0),
        }
    }
}

/// The word (or the run of spaces or punctuation) of `text` at the byte offset `at`, by UAX #29:
/// what a double-click selects. A Korean 어절, particles and all, is one word.
pub fn word_at(text: &str, at: usize) -> Range<usize> {
    let at = at.min(text.len());
    text.split_word_bound_indices()
        .map(|(start, word)| start..start + word.len())
        .find(|range| range.contains(&at) || (range.end == text.len() && at == text.len()))
        .unwrap_or(at..at)
}

/// `at`, or when it falls inside a grapheme cluster, the nearer end of that cluster: Parley
/// splits a ligature's advance among its characters (a flag's two letters, a ZWJ family's
/// members), and a caret or a selection stops only between clusters.
pub fn nearest_boundary(text: &str, at: usize) -> usize {
    text.grapheme_indices(true)
        .map(|(start, cluster)| start..start + cluster.len())
        .find(|cluster| cluster.start < at && at < cluster.end)
        .map_or(at, |cluster| {
            if at - cluster.start >= cluster.end - at {
                cluster.end
            } else {
                cluster.start
            }
        })
}

/// Where the line of `text` holding the byte `at` starts: after the line break before it.
fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |end| end + 1)
}

/// Where the line of `text` holding the byte `at` ends: at the line break after it.
fn line_end(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |end| at + end)
}

/// The words of `text` (UAX #29 segments with a letter or digit in them), as byte ranges:
/// spaces and punctuation between them are not words to stop at.
fn words(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    text.split_word_bound_indices()
        .filter(|(_, segment)| segment.chars().any(char::is_alphanumeric))
        .map(|(start, word)| start..start + word.len())
}

/// `text` as a field takes it: each line break (CR LF, a lone CR or LF) stays one LF where
/// `keeps_breaks`, else becomes a space; every other control character becomes a space.
fn clean(text: &str, keeps_breaks: bool) -> std::borrow::Cow<'_, str> {
    if !text.contains(|c: char| c.is_control() && !(keeps_breaks && c == '\n')) {
        return text.into();
    }
    let breaks = if keeps_breaks { '\n' } else { ' ' };
    text.replace("\r\n", "\n")
        .chars()
        .map(|c| match c {
            '\n' | '\r' => breaks,
            c if c.is_control() => ' ',
            c => c,
        })
        .collect::<String>()
        .into()
}

/// The start of `text` that can hold the first `room` characters it cleans to: twice as many
/// characters (a CR LF cleans to one), and the LF after a CR it ends with.
fn prefix(text: &str, room: usize) -> &str {
    let end = text
        .char_indices()
        .nth(room.saturating_mul(2).saturating_add(1))
        .map_or(text.len(), |(end, _)| end);
    let end = if text[..end].ends_with('\r') && text[end..].starts_with('\n') {
        end + 1
    } else {
        end
    };
    &text[..end]
}

/// The longest start of `text` of at most `room` characters that ends on a cluster boundary.
fn fit(text: &str, room: usize) -> &str {
    let mut chars = 0;
    let mut end = 0;
    for (start, cluster) in text.grapheme_indices(true) {
        chars += cluster.chars().count();
        if chars > room {
            break;
        }
        end = start + cluster.len();
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> LineEditor {
        let mut editor = LineEditor::new(2000);
        editor.paste(text);
        editor
    }

    fn caret_after(text: &str, motions: &[Motion]) -> usize {
        let mut editor = line(text);
        editor.move_caret(Motion::Home, false);
        for &motion in motions {
            editor.move_caret(motion, false);
        }
        editor.caret()
    }

    #[test]
    fn word_moves_stop_at_korean_latin_and_mixed_words() {
        use Motion::*;
        let text = "안녕 세상";
        assert_eq!(caret_after(text, &[WordRight]), "안녕".len());
        assert_eq!(caret_after(text, &[WordRight, WordRight]), text.len());
        assert_eq!(caret_after(text, &[End, WordLeft]), "안녕 ".len());
        assert_eq!(caret_after(text, &[End, WordLeft, WordLeft]), 0);

        let mixed = "Bevy로 만든 chat, 좋아요!";
        let stops: Vec<usize> = (1..=5)
            .map(|n| caret_after(mixed, &vec![WordRight; n]))
            .collect();
        let ends = [
            "Bevy로",
            "Bevy로 만든",
            "Bevy로 만든 chat",
            "Bevy로 만든 chat, 좋아요",
        ];
        let mut expected: Vec<usize> = ends.iter().map(|s| s.len()).collect();
        expected.push(mixed.len());
        assert_eq!(
            stops, expected,
            "word ends of {mixed:?}, then the line's end"
        );
    }

    #[test]
    fn the_caret_and_deletion_step_over_whole_clusters() {
        for cluster in [
            "👨\u{200d}👩\u{200d}👧",   // a family: a ZWJ sequence
            "🇰🇷",                       // a flag: two regional indicators
            "\u{1112}\u{1161}\u{11ab}", // 한 written as conjoining jamo
            "e\u{301}",                 // é as e and a combining accent
        ] {
            let text = format!("a{cluster}b");
            assert_eq!(
                caret_after(&text, &[Motion::Right, Motion::Right]),
                1 + cluster.len(),
                "Right steps over {cluster:?} at once"
            );
            let mut editor = line(&format!("a{cluster}"));
            editor.delete(Motion::Left);
            assert_eq!(editor.text(), "a", "Backspace takes all of {cluster:?}");
            editor = line(&text);
            editor.move_caret(Motion::Home, false);
            editor.move_caret(Motion::Right, false);
            editor.delete(Motion::Right);
            assert_eq!(editor.text(), "ab", "Delete takes all of {cluster:?}");
        }
    }

    #[test]
    fn typing_replaces_the_selection_and_undo_goes_back_a_word_at_a_time() {
        let mut editor = LineEditor::new(2000);
        for c in "hello world".chars() {
            editor.type_text(&c.to_string());
        }
        editor.move_caret(Motion::WordLeft, true);
        assert_eq!(editor.selected_text(), Some("world"));
        editor.type_text("세");
        assert_eq!(editor.text(), "hello 세");
        assert!(editor.undo());
        assert_eq!(
            (editor.text(), editor.selected_text()),
            ("hello world", Some("world"))
        );
        assert!(editor.undo());
        assert_eq!(editor.text(), "hello");
        assert!(editor.undo());
        assert_eq!(editor.text(), "");
        assert!(!editor.undo());
        assert!(editor.redo() && editor.redo());
        assert_eq!(editor.text(), "hello world");
    }

    #[test]
    fn a_paste_stays_on_one_line_and_is_cut_to_the_limit_at_a_cluster() {
        let mut editor = LineEditor::new(6);
        assert!(editor.paste("a\r\nb\nc\t"));
        assert_eq!(editor.text(), "a b c ");
        editor = LineEditor::new(5);
        // The family emoji is five characters: it fits whole or not at all.
        assert!(!editor.paste("ab👨\u{200d}👩\u{200d}👧"));
        assert_eq!(editor.text(), "ab");
    }

    #[test]
    fn a_text_with_line_breaks_keeps_them_as_lf_and_only_them() {
        let mut editor = LineEditor::with_line_breaks(20);
        assert!(editor.paste("a\r\nb\rc\nd\te\u{7}"));
        assert_eq!(editor.text(), "a\nb\nc\nd e ");
        let mut editor = LineEditor::with_line_breaks(3);
        assert!(!editor.paste("a\nb\nc"), "a break counts as a character");
        assert_eq!(editor.take(), "a\nb");
        assert!(
            editor.keeps_breaks(),
            "an emptied field keeps breaking lines"
        );
    }

    #[test]
    fn up_down_home_and_end_follow_the_hard_lines_before_a_layout_does() {
        use Motion::*;
        let mut editor = LineEditor::with_line_breaks(100);
        editor.paste("첫째 줄\nab\n셋째 줄이다");
        let at = |editor: &LineEditor| editor.caret();
        assert!(editor.on_last_line() && !editor.on_first_line());
        editor.move_caret(Home, false);
        assert_eq!(
            at(&editor),
            "첫째 줄\nab\n".len(),
            "Home: this line's start"
        );
        editor.move_caret(Right, false);
        editor.move_caret(Right, false);
        editor.move_caret(Up, false);
        assert_eq!(
            at(&editor),
            "첫째 줄\nab".len(),
            "two clusters in, on a shorter line"
        );
        editor.move_caret(Up, true);
        assert_eq!(
            editor.selected_text(),
            Some(" 줄\nab"),
            "Shift+Up selects up"
        );
        editor.move_caret(Up, false);
        assert_eq!(at(&editor), 0, "Up on the first line goes to its start");
        editor.move_caret(End, false);
        assert_eq!(at(&editor), "첫째 줄".len(), "End: this line's end");
        editor.move_caret(TextEnd, false);
        assert_eq!(at(&editor), editor.text().len());
        editor.move_caret(TextStart, false);
        editor.move_caret(Down, false);
        editor.move_caret(Down, false);
        assert_eq!(at(&editor), "첫째 줄\nab\n".len());
        editor.move_caret(Down, false);
        assert_eq!(
            at(&editor),
            editor.text().len(),
            "Down on the last line: its end"
        );
    }

    #[test]
    fn a_click_inside_a_cluster_lands_before_it() {
        let mut editor = line("a🇰🇷");
        editor.place(1 + 4, false);
        assert_eq!(editor.caret(), 1);
    }

    #[test]
    fn a_double_click_selects_the_word_under_it() {
        let mut editor = line("안녕 세상");
        editor.select_word_at("안녕 세".len());
        assert_eq!(editor.selected_text(), Some("세상"));
    }
}
