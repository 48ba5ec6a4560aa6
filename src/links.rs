//! Links in what people write: which parts of a message's text are web or mail addresses, and
//! how one is handed to the desktop to open. Plain functions and one component; the view
//! finds them when a message is logged, draws, opens and describes them
//! (`view/open_links.rs`).

use std::ops::Range;

use bevy::prelude::*;

mod find;
pub mod open;

pub use find::{find, may_open};

/// A link in a message's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Where it is in the text, in bytes.
    pub range: Range<usize>,
    /// The address it opens: the text itself, or `https://` before a link written from `www.`.
    pub target: String,
}

/// The links of a message (on its entity, beside its `ChatMessage`), in the order they appear;
/// found once, when it is logged. A message with none has no `Links`.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct Links(pub Vec<Link>);

impl Links {
    /// Which link holds the byte at `offset`.
    pub fn index_at(&self, offset: usize) -> Option<usize> {
        // In order and apart, so the last one starting at or before `offset` is the only one
        // that can hold it.
        let index = self
            .0
            .partition_point(|link| link.range.start <= offset)
            .checked_sub(1)?;
        self.0[index].range.contains(&offset).then_some(index)
    }
}
