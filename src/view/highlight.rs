//! How a row draws what is marked in its text: its part of the conversation's selection
//! (`view/selection.rs`), the find's matches (`view/find.rs`), the current one apart, and its
//! links (`view/open_links.rs`), underlined, the one the keyboard is on filled in the focus
//! ring's colour.
//!
//! Both are kept as places in the log, and a row draws them from the place it shows, in the
//! frame it comes to show it: a row recycled from another message never keeps that message's
//! marks. A row with nothing marked is one text, as it was mounted; a marked one is its text cut
//! into spans, the marked ones with a fill of their own (Bevy draws a span's background itself,
//! glyph run by glyph run, so the fill follows right-to-left and mixed text as it is drawn).

use std::ops::Range;

use bevy::{
    prelude::*,
    text::{TextBackgroundColor, Underline},
};

use super::{
    MessageRow,
    find::Finder,
    focus::FocusedLink,
    paragraph::LaidOut,
    selection::{ConversationSelection, RowsOnScreen, Selected},
};
use crate::{
    links::Links,
    scroll::Item,
    theme::{self, Palette, Theme},
};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_marks
            .run_if(
                resource_changed::<ConversationSelection>
                    .or_eager(resource_changed::<Finder>)
                    .or_eager(resource_changed::<Theme>)
                    .or_eager(resource_changed::<FocusedLink>)
                    .or_eager(any_match_filter::<(Changed<Item>, With<MessageRow>)>),
            )
            .in_set(super::DressRows),
    );
}

/// What a row's text has marked, as last drawn: its part of the selection, and the matches in
/// its body, with which of them is current.
#[derive(Component, Debug, Default, Clone, PartialEq, Eq)]
pub struct Marks {
    /// The selected part of the body, and whether the label too.
    pub selected: Option<Selected>,
    /// The find's matches in the body.
    pub matches: Vec<Range<usize>>,
    /// Which of `matches` is the current one.
    pub current: Option<usize>,
    /// The links in the body.
    pub links: Vec<Range<usize>>,
    /// Which of `links` has the keyboard's focus.
    pub focused_link: Option<usize>,
}

impl Marks {
    fn is_empty(&self) -> bool {
        self.selected.is_none() && self.matches.is_empty() && self.links.is_empty()
    }
}

/// How a stretch of a row's text is drawn; the later ones win where marks overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Look {
    Plain,
    Link,
    FocusedLink,
    Match,
    Current,
    Selected,
}

impl Look {
    /// The text colour and the fill, if any.
    fn colours(self, palette: &Palette) -> (Color, Option<Color>) {
        match self {
            Self::Plain => (palette.text, None),
            Self::Link => (palette.link, None),
            Self::FocusedLink => (palette.focused_link_text, Some(palette.focus_ring)),
            Self::Match => (palette.find_match_text, Some(palette.find_match)),
            Self::Current => (palette.find_current_text, Some(palette.find_current)),
            Self::Selected => (palette.selection_text, Some(palette.selection)),
        }
    }
}

/// Draws each mounted row's marks: for the rows that came to show another message this frame,
/// and for all when the selection, the find or the theme changes.
fn draw_marks(
    selection: Res<ConversationSelection>,
    finder: Res<Finder>,
    theme: Res<Theme>,
    focused_link: Res<FocusedLink>,
    rows: RowsOnScreen,
    mounted: Query<(Ref<Item>, &Children), With<MessageRow>>,
    mut texts: Query<(&mut Text, Option<&Marks>)>,
    mut commands: Commands,
) {
    let all = selection.is_changed()
        || finder.is_changed()
        || theme.is_changed()
        || focused_link.is_changed();
    for (item, children) in &mounted {
        if !all && !item.is_changed() {
            continue;
        }
        let Some(text) = rows.text_of(children) else {
            continue;
        };
        let Ok((mut shown, drawn)) = texts.get_mut(text) else {
            continue;
        };
        let Some((role, body)) = rows.message(item.0) else {
            continue;
        };
        let (matches, current) = finder.matches_in(item.0, body);
        let wanted = Marks {
            selected: selection.of(item.0, body.len()),
            matches,
            current,
            ..links_of(item.0, &rows, *focused_link)
        };
        let unchanged = drawn.map_or(wanted.is_empty(), |drawn| *drawn == wanted);
        // A row that came to show another message has that message's text, and no marks:
        // drawn again unless it has none to show.
        if item.is_changed() && wanted.is_empty() && drawn.is_none_or(Marks::is_empty) {
            continue;
        }
        if unchanged && !item.is_changed() && !theme.is_changed() {
            continue;
        }
        let laid = LaidOut::of(role, body);
        let mut entity = commands.entity(text);
        entity.despawn_children();
        if wanted.is_empty() {
            shown.0 = laid.text;
            entity.remove::<Marks>();
            continue;
        }
        let stretches = stretches(&laid, &wanted);
        let palette = theme.palette();
        // The root keeps the row's own colour: the text before the first mark.
        let plain = stretches
            .first()
            .filter(|(_, look, _)| *look == Look::Plain)
            .map_or(0..0, |(range, _, _)| range.clone());
        shown.0 = laid.text[plain.clone()].to_owned();
        let rest = stretches.into_iter().skip(usize::from(!plain.is_empty()));
        entity.insert(wanted).with_children(|spans| {
            for (range, look, underlined) in rest {
                spawn_span(spans, &laid.text[range], (look, underlined), palette);
            }
        });
    }
}

/// Spawns a span of `text` drawn as `look`, and underlined if asked.
fn spawn_span(
    spans: &mut ChildSpawnerCommands,
    text: &str,
    (look, underlined): (Look, bool),
    palette: &Palette,
) {
    let (colour, fill) = look.colours(palette);
    let mut span = spans.spawn((TextSpan::new(text), theme::text_font(), TextColor(colour)));
    if let Some(fill) = fill {
        span.insert(TextBackgroundColor(fill));
    }
    if underlined {
        span.insert(Underline);
    }
}

/// The marks of the links of the message at `place`: where they are, and which of them the
/// keyboard is on.
fn links_of(place: usize, rows: &RowsOnScreen, FocusedLink(focused): FocusedLink) -> Marks {
    let links = rows.links(place).map_or(Vec::new(), |Links(links)| {
        links.iter().map(|link| link.range.clone()).collect()
    });
    Marks {
        links,
        focused_link: focused.filter(|&(at, _)| at == place).map(|(_, link)| link),
        ..default()
    }
}

/// The laid-out text cut where its marks start and end, each stretch with how it is drawn and
/// whether it is underlined (a link's, whatever else marks it).
fn stretches(laid: &LaidOut, marks: &Marks) -> Vec<(Range<usize>, Look, bool)> {
    // In order and apart, as they were found: the one over a stretch is found by halving, so a
    // message of 500 links is cut in as many steps as its stretches, give or take a logarithm.
    let links: Vec<(Range<usize>, Look)> = (marks.links.iter().enumerate())
        .map(|(i, link)| {
            let focused = marks.focused_link == Some(i);
            let look = if focused {
                Look::FocusedLink
            } else {
                Look::Link
            };
            (laid.range(link.clone(), false), look)
        })
        .collect();
    let mut marked: Vec<(Range<usize>, Look)> = Vec::new();
    for (i, found) in marks.matches.iter().enumerate() {
        let look = if marks.current == Some(i) {
            Look::Current
        } else {
            Look::Match
        };
        marked.push((laid.range(found.clone(), false), look));
    }
    if let Some(selected) = &marks.selected {
        marked.push((
            laid.range(selected.body.clone(), selected.label),
            Look::Selected,
        ));
    }
    let mut cuts: Vec<usize> = (links.iter().chain(&marked))
        .flat_map(|(range, _)| [range.start, range.end])
        .chain([0, laid.text.len()])
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    let mut stretches: Vec<(Range<usize>, Look, bool)> = Vec::new();
    for pair in cuts.windows(2) {
        let range = pair[0]..pair[1];
        let link = link_over(&links, &range);
        let look = (marked.iter())
            .filter(|(marked, _)| marked.start <= range.start && range.end <= marked.end)
            .map(|&(_, look)| look)
            .chain(link)
            .max()
            .unwrap_or(Look::Plain);
        let underlined = link.is_some();
        match stretches.last_mut() {
            Some((last, last_look, last_line))
                if (*last_look, *last_line) == (look, underlined) =>
            {
                last.end = range.end;
            }
            _ => stretches.push((range, look, underlined)),
        }
    }
    stretches
}

/// The look of the link over `range`, of `links` in order and apart, if one is.
fn link_over(links: &[(Range<usize>, Look)], range: &Range<usize>) -> Option<Look> {
    let at = links.partition_point(|(link, _)| link.start <= range.start);
    let (link, look) = &links[at.checked_sub(1)?];
    (range.end <= link.end).then_some(*look)
}
