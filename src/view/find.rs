//! Finding text in the conversation: Ctrl+F opens a bar over the conversation's top edge, and
//! what is typed there is found in every message's body, however long the log.
//!
//! All of the find bar is here, its field ([`find_input`]), its matches and its systems, but
//! what its keys mean: that is data below it, in the field's keymap
//! ([`find_key`](input::keymap::find_key), which the routing table in `input/routing.rs` asks
//! first for every key). The bar floats over the conversation: opening it moves and lays out
//! nothing else. Its field is the chat's field a second time (`input`: the same editing, the
//! same input method), and the typing passes on the bar's keys as [`Find`]: Enter or F3 for the
//! next match, Shift+Enter or Shift+F3 for the one before (wrapping at the ends), and Escape to
//! close it. While the bar is open, Escape closes it wherever keyboard focus is, as in every
//! program, and only then quits the app (spec step 8): [`the_bar_is_closed`] is the exit key's
//! run condition, in `frame.rs`. Focus that was in the bar goes back where it was before the bar
//! opened; focus elsewhere (a draft in the chat's field) stays where it is.
//!
//! Text is compared folded: in Unicode's NFC (Hangul pasted as conjoining jamo, as macOS writes
//! it, is its syllables) and in lower case. Diacritics count: `e` does not find `é`, as `가` does
//! not find `각`: in the languages people write here an accent changes the word. A Korean
//! syllable still being composed finds the syllables it may become: `하` finds `한` and `학`.
//! Only bodies are searched, not the labels.
//!
//! The bodies are folded once, the first time the bar opens, and kept up as messages come: the
//! few that folding changes (capitals, decomposed Hangul) into one copy (`Folded`), the rest
//! searched as they are, so the copy is never larger than the bodies. Each query is then a
//! plain substring search. Both work at most [`SLICE_TIME`] a frame, so no frame waits on a long
//! log, and the count shows once every message has been searched. The matches are kept as a
//! count per message with any: a query that matches everywhere costs two numbers a message.
//! Rows draw their matches (`view/highlight.rs`) from their bodies, folded again: a row is one of
//! a few dozen.

use std::{
    ops::Range,
    time::{Duration, Instant},
};

use accesskit::Role as AccessRole;
use bevy::{
    input_focus::{FocusCause, InputFocus},
    prelude::*,
    window::RequestRedraw,
};
use icu_normalizer::ComposingNormalizerBorrowed;
use unicode_segmentation::UnicodeSegmentation;

use super::{
    Conversation, MessageRow,
    selection::ConversationSelection,
    speech::{Announce, Topic},
};
use crate::{
    a11y::accessible,
    chat::{ChatMessage, MessageLog},
    input::{self, ChatInput, Field, keymap::Find},
    scroll::{Item, VirtualList},
    theme::{self, Paint, Palette, Theme},
};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Find>()
        .register_type::<FindField>()
        .register_type::<FindBar>()
        .register_type::<FindCount>()
        .init_resource::<Finder>()
        .add_systems(
            Update,
            (
                take_keys.run_if(on_message::<Find>),
                (follow_the_query, search_in_slices, show_the_count)
                    .chain()
                    .run_if(|finder: Res<Finder>| finder.open),
            )
                .chain()
                .in_set(FindSystems),
        );
}

/// Marks the find bar's field: it edits as the chat's field does (`keyboard/typing.rs`), and sends
/// nothing.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct FindField;

/// The find bar's field in `palette`'s colours, holding `query`, all of it selected.
pub fn find_input(palette: &Palette, query: &str) -> impl Bundle {
    (
        Name::new("Find input"),
        FindField,
        input::text_field(
            Field::with_text_selected(query),
            palette,
            FIND_PLACEHOLDER,
            accesskit::Role::SearchInput,
            "대화에서 찾기",
        ),
        Node {
            width: px(240),
            padding: UiRect::axes(px(8), px(4)),
            border: UiRect::all(px(2)),
            overflow: Overflow::clip(),
            ..default()
        },
    )
}

/// What the empty find field shows.
pub const FIND_PLACEHOLDER: &str = "대화에서 찾기";

/// The find bar's systems: they take its keys, search, and show the count.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FindSystems;

/// How long the search works in one frame, at most (and a few messages more): a long log is
/// searched over a few frames, and no frame waits on all of it.
pub const SLICE_TIME: Duration = Duration::from_millis(4);

/// How many messages the search goes through between two looks at the clock.
const BETWEEN_LOOKS: usize = 256;

/// The longest selection the bar opens with as its query; a longer one, or one over more than
/// one message or line, leaves the query as it was.
pub const MAX_PREFILL_CHARS: usize = 100;

/// What the count says when nothing matches.
pub const NO_MATCHES: &str = "결과 없음";

/// Marks the find bar.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct FindBar;

/// Marks the count beside the find field: `3/17`, or [`NO_MATCHES`].
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct FindCount;

/// The bar, out of the conversation's layout, at its top right: the count, after which the find
/// field goes first.
fn find_bar() -> impl Bundle {
    (
        Name::new("Find bar"),
        FindBar,
        accessible(AccessRole::Search, "찾기"),
        Node {
            position_type: PositionType::Absolute,
            top: px(8),
            // Clear of the scrollbar.
            right: px(20),
            column_gap: px(8),
            align_items: AlignItems::Center,
            padding: UiRect::all(px(6)),
            border: UiRect::all(px(1)),
            ..default()
        },
        Paint::background(|p| p.window_background).with_border(|p| p.input_border),
        children![(
            Name::new("Find count"),
            FindCount,
            Text::new(""),
            theme::small_font(),
            Paint::text(|p| p.text),
            Node {
                min_width: px(64),
                ..default()
            },
        )],
    )
}

/// The find bar's state: whether it is open, the query, the folded bodies, and the matches.
#[derive(Resource, Debug, Default)]
pub struct Finder {
    open: bool,
    /// Where keyboard focus goes back to when the bar closes: the chat's field, or the
    /// conversation's list.
    returns_to: Option<Entity>,
    /// The query as typed, for the bar to open with again.
    query: String,
    needle: Needle,
    folded: Folded,
    /// How many of the log's messages have been searched for the needle.
    searched: usize,
    /// The messages with matches, in log order: each one's place, and how many matches there
    /// are up to and including it.
    hits: Vec<(u32, u32)>,
    /// The current match: its message's place, and which of that message's matches.
    current: Option<(usize, usize)>,
}

impl Finder {
    /// Whether the bar is open.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Whether every message has been searched for the query.
    pub fn is_complete(&self, log_len: usize) -> bool {
        self.searched >= log_len
    }

    /// How many matches there are, as far as the search has come.
    pub fn count(&self) -> usize {
        self.hits.last().map_or(0, |&(_, total)| total as usize)
    }

    /// The current match: its message's place, and which of its matches (from 0).
    pub fn current(&self) -> Option<(usize, usize)> {
        self.current
    }

    /// Where the current match is among all, from 1.
    pub fn current_number(&self) -> Option<usize> {
        let (place, nth) = self.current?;
        let at = self
            .hits
            .partition_point(|&(hit, _)| (hit as usize) < place);
        let before = at.checked_sub(1).map_or(0, |i| self.hits[i].1 as usize);
        Some(before + nth + 1)
    }

    /// What the count beside the field says: `3/17`, [`NO_MATCHES`], or nothing while there is
    /// no query or the search is not through.
    pub fn count_text(&self, log_len: usize) -> String {
        if self.needle.is_empty() || !self.is_complete(log_len) {
            return String::new();
        }
        match self.current_number() {
            _ if self.count() == 0 => NO_MATCHES.to_owned(),
            Some(number) => format!("{number}/{}", self.count()),
            None => format!("0/{}", self.count()),
        }
    }

    /// The matches in `body`, the body of the message at `place`, as byte ranges of the body,
    /// with which of them is current; none while the bar is closed.
    pub fn matches_in(&self, place: usize, body: &str) -> (Vec<Range<usize>>, Option<usize>) {
        let has = self
            .hits
            .binary_search_by_key(&place, |&(hit, _)| hit as usize)
            .is_ok();
        if !self.open || self.needle.is_empty() || !has {
            return (Vec::new(), None);
        }
        let current = self
            .current
            .and_then(|(at, nth)| (at == place).then_some(nth));
        (self.needle.in_body(body), current)
    }

    /// The bytes the search holds on the heap: the folded copy of the bodies, and the matches.
    pub fn heap_bytes(&self) -> usize {
        self.folded.text.capacity()
            + self.folded.changed.capacity() * size_of::<(u32, u32)>()
            + self.hits.capacity() * size_of::<(u32, u32)>()
    }

    /// The match `index` (from 0) among all.
    fn nth(&self, index: usize) -> Option<(usize, usize)> {
        let at = self
            .hits
            .partition_point(|&(_, total)| total as usize <= index);
        let &(place, _) = self.hits.get(at)?;
        let before = at.checked_sub(1).map_or(0, |i| self.hits[i].1 as usize);
        Some((place as usize, index - before))
    }

    /// The match nearest the view, whose top is `top`: the first at or after it, else the last.
    fn nearest(&self, top: usize) -> Option<(usize, usize)> {
        let after = self.hits.partition_point(|&(hit, _)| (hit as usize) < top);
        match self.hits.get(after) {
            Some(&(place, _)) => Some((place as usize, 0)),
            None => self.nth(self.count().checked_sub(1)?),
        }
    }

    /// The match `step` away from the current one (1 on, -1 back), wrapping at the ends.
    fn step(&self, step: isize) -> Option<(usize, usize)> {
        let count = self.count();
        if count == 0 {
            return None;
        }
        let now = self.current_number().map_or(0, |n| n - 1) as isize;
        self.nth((now + step).rem_euclid(count as isize) as usize)
    }
}

/// Whether the find bar is closed. While it is open, Escape closes it, wherever keyboard focus
/// is, and does nothing else (the frame map gives the exit key this condition).
pub fn the_bar_is_closed(finder: Res<Finder>) -> bool {
    !finder.is_open()
}

/// Opens and closes the bar and moves between matches, as the keys ask.
fn take_keys(
    mut keys: MessageReader<Find>,
    mut finder: ResMut<Finder>,
    mut input_focus: ResMut<InputFocus>,
    selection: Res<ConversationSelection>,
    log: Res<MessageLog>,
    messages: Query<&ChatMessage>,
    theme: Res<Theme>,
    bars: Query<Entity, With<FindBar>>,
    mut announce: MessageWriter<Announce>,
    mut find_field: Query<&mut Field, With<FindField>>,
    chat: Single<Entity, With<ChatInput>>,
    conversation: Single<(Entity, &mut VirtualList, &ChildOf), With<Conversation>>,
    rows: Query<&Item, With<MessageRow>>,
    mut commands: Commands,
) {
    let (list_entity, mut list, ChildOf(pane)) = conversation.into_inner();
    for key in keys.read() {
        match *key {
            Find::Open { from } => {
                let query = prefill(&selection, &log, &messages);
                if let Ok(mut field) = find_field.single_mut() {
                    match query {
                        Some(text) => field.set_text_selected(&text),
                        None => field.select_all(),
                    }
                    continue;
                }
                finder.open = true;
                // Back to the conversation, or else the chat's field.
                let in_list = from.is_some_and(|from| from == list_entity || rows.contains(from));
                finder.returns_to = Some(if in_list { list_entity } else { *chat });
                // The bar is made as it opens, and goes as it closes: while closed, it costs
                // no frame anything.
                let query = query.unwrap_or_else(|| finder.query.clone());
                let field = commands.spawn(find_input(theme.palette(), &query)).id();
                commands
                    .spawn((find_bar(), ChildOf(*pane)))
                    .insert_children(0, &[field]);
                input_focus.set(field, FocusCause::Navigated);
            }
            Find::Close if finder.open => {
                finder.open = false;
                for bar in &bars {
                    commands.entity(bar).despawn();
                }
                announce.write(Announce::hush(Topic::FindCount));
                let back = finder.returns_to.take().unwrap_or(*chat);
                // Focus in the bar goes back; focus elsewhere (a draft in the chat's field, the
                // conversation) stays where the user put it.
                let in_bar = input_focus.get().is_none_or(|at| find_field.contains(at));
                if in_bar {
                    input_focus.set(back, FocusCause::Navigated);
                }
            }
            Find::Next | Find::Previous if finder.open => {
                let step = if *key == Find::Next { 1 } else { -1 };
                let to = match finder.current {
                    Some(_) => finder.step(step),
                    None => finder.nearest(list.anchor().0),
                };
                if let Some(to) = to {
                    finder.current = Some(to);
                    list.reveal(to.0, REVEAL_MARGIN);
                }
            }
            Find::Close | Find::Next | Find::Previous => {}
        }
    }
}

/// How much of the view is kept clear above a revealed match, in logical pixels: the bar's
/// offset from the top (8), its height (50: the field's line, paddings and borders), and a gap.
/// `tests/app/find.rs` checks that a revealed row stands below the bar.
const REVEAL_MARGIN: f32 = 72.0;

/// The selection, if it is short and on one line of one message: what the bar opens with.
fn prefill(
    selection: &ConversationSelection,
    log: &MessageLog,
    messages: &Query<&ChatMessage>,
) -> Option<String> {
    let (start, end) = selection.ends();
    if selection.is_empty() || start.message != end.message {
        return None;
    }
    let body = messages
        .get(*log.entities().get(start.message)?)
        .ok()?
        .body();
    let text = body.get(start.offset..end.offset)?;
    let short = text.chars().count() <= MAX_PREFILL_CHARS && !text.contains(['\n', '\r']);
    short.then(|| text.to_owned())
}

/// Starts the search again when the query changes: each character typed, the syllable being
/// composed included.
fn follow_the_query(mut finder: ResMut<Finder>, find_field: Query<Ref<Field>, With<FindField>>) {
    let Ok(find_field) = find_field.single() else {
        return;
    };
    if !find_field.is_changed() {
        return;
    }
    let line = find_field.line();
    let needle = Needle::of(&line.shown(), line.composition());
    if needle != finder.needle {
        let finder = &mut *finder;
        line.text().clone_into(&mut finder.query);
        finder.needle = needle;
        finder.searched = 0;
        finder.hits.clear();
        finder.current = None;
    }
}

/// Folds the bodies not folded yet and searches the messages not searched yet, a slice a
/// frame, while the bar is open; once through, takes the view to the match nearest it.
fn search_in_slices(
    mut finder: ResMut<Finder>,
    log: Res<MessageLog>,
    messages: Query<&ChatMessage>,
    mut conversation: Single<&mut VirtualList, With<Conversation>>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let len = log.len();
    // Nothing to do in most frames: leave the resource unchanged, so rows are not redrawn.
    if !finder.open || finder.searched >= len {
        return;
    }
    let finder = &mut *finder;
    let deadline = Instant::now() + SLICE_TIME;
    while finder.searched < len
        && (!finder.searched.is_multiple_of(BETWEEN_LOOKS) || Instant::now() < deadline)
    {
        let place = finder.searched;
        let body = messages
            .get(log.entities()[place])
            .map_or("", ChatMessage::body);
        if finder.folded.len() <= place {
            finder.folded.push(body);
        }
        let folded = finder.folded.body(place, body);
        if !finder.needle.is_empty() {
            let found = finder.needle.find_in(folded).count();
            if found > 0 {
                let total = finder.count() + found;
                finder.hits.push((place as u32, total as u32));
            }
        }
        finder.searched += 1;
    }
    if finder.searched < len {
        redraw.write(RequestRedraw);
    } else if finder.current.is_none() && !finder.needle.is_empty() {
        finder.current = finder.nearest(conversation.anchor().0);
        if let Some((place, _)) = finder.current {
            conversation.reveal(place, REVEAL_MARGIN);
        }
    }
}

/// Shows the count beside the field when it changes, and has screen readers say it.
fn show_the_count(
    finder: Res<Finder>,
    log: Res<MessageLog>,
    mut count: Query<&mut Text, With<FindCount>>,
    mut announce: MessageWriter<Announce>,
) {
    if !finder.is_changed() {
        return;
    }
    let Ok(mut text) = count.single_mut() else {
        return;
    };
    let shown = if finder.open {
        finder.count_text(log.len())
    } else {
        String::new()
    };
    if text.0 == shown {
        return;
    }
    text.0 = shown.clone();
    announce.write(if shown.is_empty() {
        Announce::hush(Topic::FindCount)
    } else {
        Announce::say(Topic::FindCount, shown)
    });
}

/// What is searched for: the query folded, and the syllable being composed at its end, if any.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Needle {
    text: String,
    syllable: Option<Jamo>,
}

impl Needle {
    /// The needle for the query `shown`, of which `composing` is being composed by an input
    /// method.
    fn of(shown: &str, composing: Option<Range<usize>>) -> Self {
        let syllable = composing
            .filter(|range| range.end == shown.len())
            .and_then(|range| {
                let mut chars = shown[range.clone()].chars();
                let jamo = Jamo::of(chars.next()?)?;
                chars.next().is_none().then_some((range.start, jamo))
            });
        let (committed, syllable) = match syllable {
            Some((start, jamo)) => (&shown[..start], Some(jamo)),
            None => (shown, None),
        };
        Self {
            text: fold(committed),
            syllable,
        }
    }

    fn is_empty(&self) -> bool {
        self.text.is_empty() && self.syllable.is_none()
    }

    /// Where the needle is in the folded text `haystack`, without overlaps.
    fn find_in<'a>(&'a self, haystack: &'a str) -> impl Iterator<Item = Range<usize>> + 'a {
        let mut from = 0;
        std::iter::from_fn(move || {
            while from <= haystack.len() {
                let start = if self.text.is_empty() {
                    from
                } else {
                    from + haystack.get(from..)?.find(&self.text)?
                };
                let mut end = start + self.text.len();
                let Some(jamo) = self.syllable else {
                    from = end.max(start + 1);
                    return Some(start..end);
                };
                let next = haystack[end..].chars().next();
                if let Some(next) = next
                    && jamo.begins(next)
                {
                    end += next.len_utf8();
                    from = end;
                    return Some(start..end);
                }
                // Not here: on from the next character.
                from = start + haystack[start..].chars().next()?.len_utf8();
            }
            None
        })
    }

    /// Where the needle is in `body`, as byte ranges of the body: the body folded as the copy
    /// is, cluster by cluster, each match widened to whole clusters.
    fn in_body(&self, body: &str) -> Vec<Range<usize>> {
        let mut folded = String::with_capacity(body.len());
        // Each cluster's start, folded and in the body.
        let mut starts = Vec::new();
        for (at, cluster) in body.grapheme_indices(true) {
            starts.push((folded.len(), at));
            fold_into(&mut folded, cluster);
        }
        starts.push((folded.len(), body.len()));
        let body_start = |folded_at: usize| {
            let i = starts.partition_point(|&(f, _)| f <= folded_at);
            starts[i.saturating_sub(1)].1
        };
        let body_end = |folded_at: usize| {
            let i = starts.partition_point(|&(f, _)| f < folded_at);
            starts.get(i).map_or(body.len(), |&(_, b)| b)
        };
        self.find_in(&folded)
            .map(|range| body_start(range.start)..body_end(range.end))
            .collect()
    }
}

/// A Hangul syllable being composed, as its jamo: the leading consonant, and the vowel and the
/// trailing consonant once typed. It finds every syllable that starts with them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Jamo {
    lead: u32,
    vowel: Option<u32>,
    tail: Option<u32>,
}

/// Where Unicode's precomposed Hangul syllables start, and how many jamo combine (Unicode's
/// chapter 3.12).
const SYLLABLES: u32 = 0xAC00;
const VOWELS: u32 = 21;
const TAILS: u32 = 28;

/// The compatibility letters an input method shows for a lone leading consonant (ㄱ to ㅎ), in
/// the order of the leading consonants.
const LEADS: [char; 19] = [
    'ㄱ', 'ㄲ', 'ㄴ', 'ㄷ', 'ㄸ', 'ㄹ', 'ㅁ', 'ㅂ', 'ㅃ', 'ㅅ', 'ㅆ', 'ㅇ', 'ㅈ', 'ㅉ', 'ㅊ', 'ㅋ',
    'ㅌ', 'ㅍ', 'ㅎ',
];

impl Jamo {
    /// The jamo of a syllable, or of a lone leading consonant; `None` for anything else.
    fn of(c: char) -> Option<Self> {
        if let Some(lead) = LEADS.iter().position(|&l| l == c) {
            return Some(Self {
                lead: lead as u32,
                vowel: None,
                tail: None,
            });
        }
        let index = u32::from(c).checked_sub(SYLLABLES)?;
        if index >= 19 * VOWELS * TAILS {
            return None;
        }
        let tail = index % TAILS;
        Some(Self {
            lead: index / (VOWELS * TAILS),
            vowel: Some(index % (VOWELS * TAILS) / TAILS),
            tail: (tail != 0).then_some(tail),
        })
    }

    /// Whether `c` is a syllable that starts with these jamo.
    fn begins(self, c: char) -> bool {
        let Some(other) = Self::of(c).filter(|other| other.vowel.is_some()) else {
            return false;
        };
        other.lead == self.lead
            && self.vowel.is_none_or(|v| other.vowel == Some(v))
            && self.tail.is_none_or(|t| other.tail == Some(t))
    }
}

/// `text` folded for comparing: in NFC and lower case, a grapheme cluster at a time (so a match
/// maps back to the text's clusters).
fn fold(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    for cluster in text.graphemes(true) {
        fold_into(&mut folded, cluster);
    }
    folded
}

/// Appends the grapheme cluster `cluster`, folded, to `out`.
fn fold_into(out: &mut String, cluster: &str) {
    if cluster.len() == 1 {
        // ASCII: already in NFC.
        out.push(cluster.as_bytes()[0].to_ascii_lowercase() as char);
        return;
    }
    let nfc = ComposingNormalizerBorrowed::new_nfc().normalize(cluster);
    for c in nfc.chars() {
        out.extend(c.to_lowercase());
    }
}

/// The bodies of the log that folding changes, folded, one after another: the search's copy.
/// Most bodies are in NFC and lower case already (Hangul has no case): those are searched as
/// they are, and cost the copy nothing.
#[derive(Debug, Default)]
struct Folded {
    text: String,
    /// The messages folded into `text`: each one's place, and where its folded body ends.
    changed: Vec<(u32, u32)>,
    /// How many of the log's messages have been looked at.
    messages: usize,
}

impl Folded {
    /// How many of the log's messages have been looked at.
    fn len(&self) -> usize {
        self.messages
    }

    /// Looks at the next message's body, and keeps it folded if folding changes it.
    fn push(&mut self, body: &str) {
        let place = self.messages as u32;
        self.messages += 1;
        if is_folded(body) {
            return;
        }
        for cluster in body.graphemes(true) {
            fold_into(&mut self.text, cluster);
        }
        self.changed.push((place, self.text.len() as u32));
    }

    /// The folded body of the message at `place`, whose body is `body`.
    fn body<'a>(&'a self, place: usize, body: &'a str) -> &'a str {
        let Ok(at) = self
            .changed
            .binary_search_by_key(&(place as u32), |&(changed, _)| changed)
        else {
            return body;
        };
        let start = at
            .checked_sub(1)
            .map_or(0, |before| self.changed[before].1 as usize);
        &self.text[start..self.changed[at].1 as usize]
    }
}

/// Whether folding leaves `body` as it is: it is in NFC, and has nothing to lower-case.
fn is_folded(body: &str) -> bool {
    ComposingNormalizerBorrowed::new_nfc().is_normalized(body)
        && body.chars().all(|c| {
            if c.is_ascii() {
                !c.is_ascii_uppercase()
            } else {
                let mut lower = c.to_lowercase();
                lower.next() == Some(c) && lower.next().is_none()
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(query: &str, composing: Option<Range<usize>>, body: &str) -> Vec<String> {
        Needle::of(query, composing)
            .in_body(body)
            .into_iter()
            .map(|range| body[range].to_owned())
            .collect()
    }

    #[test]
    fn case_and_normal_form_do_not_matter_and_diacritics_do() {
        assert_eq!(found("HeLLo", None, "hello HELLO"), ["hello", "HELLO"]);
        // 한국 written as conjoining jamo (NFD).
        let nfd = "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}어";
        assert_eq!(found("한국", None, nfd), [&nfd[..18]]);
        assert_eq!(found(&nfd[..18], None, "한국어"), ["한국"]);
        assert_eq!(found("e", None, "café"), Vec::<String>::new());
        assert_eq!(found("é", None, "CAFÉ"), ["É"]);
    }

    #[test]
    fn a_syllable_being_composed_finds_the_syllables_it_may_become() {
        let body = "한국 학교 하늘 호수";
        let ha = Some(0.."하".len());
        assert_eq!(found("하", ha.clone(), body), ["한", "학", "하"]);
        assert_eq!(found("하", None, body), ["하"], "committed, it is itself");
        let lone = Some(0.."ㅎ".len());
        assert_eq!(found("ㅎ", lone, body), ["한", "학", "하", "호"]);
        let after = Some("학".len().."학교".len());
        assert_eq!(found("학교", after, body), ["학교"]);
    }

    #[test]
    fn odd_queries_are_matched_literally() {
        assert_eq!(found(".*[", None, "a.*[b"), [".*["]);
        assert_eq!(found(" ", None, "a b c"), [" ", " "]);
        assert_eq!(found("\u{301}", None, "e\u{301}"), Vec::<String>::new());
        let family = "👨‍👩‍👧";
        assert_eq!(
            found("👨", None, family),
            [family],
            "widened to the cluster"
        );
        let long = "가".repeat(2000);
        assert_eq!(found(&long, None, &long).len(), 1);
    }

    #[test]
    fn the_copy_and_a_row_agree_on_every_match() {
        let bodies = ["Straße STRASSE", "한국 ㅎ", "e\u{301}é"];
        let mut folded = Folded::default();
        for body in bodies {
            folded.push(body);
        }
        assert_eq!(
            folded.changed.len(),
            2,
            "the Hangul-only body is searched as it is"
        );
        for query in ["s", "한", "é", "ß"] {
            let needle = Needle::of(query, None);
            for (place, body) in bodies.iter().enumerate() {
                assert_eq!(
                    needle.find_in(folded.body(place, body)).count(),
                    needle.in_body(body).len(),
                    "{query:?} in {body:?}"
                );
            }
        }
    }
}
