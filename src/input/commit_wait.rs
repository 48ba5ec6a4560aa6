//! Keys that come before the text they follow. Now and then, ibus's X11 frontend ends a
//! composition, passes on the space or Enter that ended it, and only then commits the syllable.
//! Applied as they came, `안녕하세요` then Enter would send `안녕하세` and leave `요` in the
//! field. So the keys that come after a composition ends with nothing committed are held here
//! until the commit, and land after it; at most [`COMMIT_PATIENCE`], since a composition dropped
//! for good (its last jamo deleted) brings no commit.
//!
//! The keyboard's pass (`keyboard/typing.rs`) passes each piece of typing through
//! [`CommitWait::sort`] before it applies it, and tells [`CommitWait::applied`] what each IME
//! message did.

use std::{collections::VecDeque, time::Duration};

use bevy::{platform::time::Instant, prelude::*, window::Ime};

use super::arrival::{Typed, empties_preedit};

/// How long keys that come right after a composition ended with nothing committed wait for the
/// IME's commit. ibus's X11 frontend sometimes sends the key that ended a syllable (a space, an
/// Enter) before that syllable's commit: 27 ms after the composition ended, under Xvfb; up to
/// 100 ms with two busy loops beside it, in the window test
/// `fifty_lines_typed_through_ibus_hangul_on_a_busy_machine_keep_every_committed_syllable`. Three
/// times that: the cost of waiting too long is only that keys typed right after a composition
/// was dropped (its last jamo deleted) land a moment late.
pub const COMMIT_PATIENCE: Duration = Duration::from_millis(300);

/// The keys held for a commit, and since when.
#[derive(Debug, Default)]
pub(crate) struct CommitWait {
    /// When a composition ended with nothing committed, on the input clock.
    since: Option<Instant>,
    /// The keys that came since, in order: they land after the commit, if it comes in time.
    held: Vec<Typed>,
}

impl CommitWait {
    /// Whether keys wait for a commit: the frame should be followed by another, to stop
    /// waiting in should nothing else come.
    pub(crate) fn is_waiting(&self) -> bool {
        self.since.is_some()
    }

    /// Lets the held keys go, at the front of `queue`, once [`COMMIT_PATIENCE`] has passed
    /// since the composition ended: no commit is coming.
    pub(crate) fn give_up_if_spent(&mut self, now: Instant, queue: &mut VecDeque<Typed>) {
        if self
            .since
            .is_some_and(|since| now.saturating_duration_since(since) >= COMMIT_PATIENCE)
        {
            debug!(
                "no IME commit within {COMMIT_PATIENCE:?}; {} key messages applied",
                self.held.len()
            );
            self.release(queue);
        }
    }

    /// The next piece of typing, if it is to be applied now. While a commit is awaited, a key is
    /// held, and an IME message other than the commit (or an end of composition) goes back to
    /// the front of `queue` behind the held keys, which came before it.
    pub(crate) fn sort(&mut self, typed: Typed, queue: &mut VecDeque<Typed>) -> Option<Typed> {
        if !self.is_waiting() {
            return Some(typed);
        }
        match typed {
            // Keys wait, and a change of Shift with them, between the same keys.
            Typed::Key(_) | Typed::Shift(_) => {
                self.held.push(typed);
                None
            }
            Typed::Ime(ref ime) if empties_preedit(ime) || matches!(ime, Ime::Commit { .. }) => {
                Some(typed)
            }
            Typed::Ime(_) | Typed::FocusLost => {
                queue.push_front(typed);
                self.release(queue);
                None
            }
        }
    }

    /// After an IME message was applied: a composition that `ended` with nothing committed
    /// starts the wait, and text that landed (the commit) ends it, the held keys next.
    pub(crate) fn applied(
        &mut self,
        ime: &Ime,
        ended: bool,
        now: Instant,
        queue: &mut VecDeque<Typed>,
    ) {
        if ended {
            self.since = Some(now);
        } else if !empties_preedit(ime) {
            if !self.held.is_empty() {
                debug!(
                    "{} key messages came before the IME's commit; applied after it",
                    self.held.len()
                );
            }
            self.release(queue);
        }
    }

    /// Puts the held keys back at the front of `queue`, in the order they came.
    fn release(&mut self, queue: &mut VecDeque<Typed>) {
        self.since = None;
        for typed in self.held.drain(..).rev() {
            queue.push_front(typed);
        }
    }
}

#[cfg(test)]
mod tests {
    use bevy::input::{ButtonState, keyboard::Key};

    use super::*;

    fn enter() -> Typed {
        Typed::Key(bevy::input::keyboard::KeyboardInput {
            key_code: KeyCode::Enter,
            logical_key: Key::Enter,
            state: ButtonState::Pressed,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        })
    }

    fn preedit(value: &str) -> Ime {
        Ime::Preedit {
            window: Entity::PLACEHOLDER,
            value: value.to_owned(),
            cursor: None,
        }
    }

    fn commit(value: &str) -> Ime {
        Ime::Commit {
            window: Entity::PLACEHOLDER,
            value: value.to_owned(),
        }
    }

    /// What the field would apply of `queue`, in order, at `now`: an IME message that empties
    /// the preedit ends a composition.
    fn applied_order(
        wait: &mut CommitWait,
        queue: &mut VecDeque<Typed>,
        now: Instant,
    ) -> Vec<String> {
        let mut order = Vec::new();
        wait.give_up_if_spent(now, queue);
        while let Some(typed) = queue.pop_front() {
            let Some(typed) = wait.sort(typed, queue) else {
                continue;
            };
            match &typed {
                Typed::Key(key) => order.push(format!("{:?}", key.logical_key)),
                Typed::Ime(ime) => {
                    order.push(match ime {
                        Ime::Commit { value, .. } => format!("commit {value}"),
                        Ime::Preedit { value, .. } => format!("preedit {value}"),
                        other => format!("{other:?}"),
                    });
                    wait.applied(ime, empties_preedit(ime), now, queue);
                }
                Typed::FocusLost => order.push("FocusLost".into()),
                Typed::Shift(held) => order.push(format!("Shift {held}")),
            }
        }
        order
    }

    #[test]
    fn a_key_before_the_commit_it_follows_lands_after_it() {
        let (mut wait, start) = (CommitWait::default(), Instant::now());
        let mut queue = VecDeque::from([Typed::Ime(preedit("")), enter()]);
        let first = applied_order(&mut wait, &mut queue, start);
        assert_eq!(first.len(), 1, "Enter waits: {first:?}");
        assert!(wait.is_waiting());

        queue.push_back(Typed::Ime(commit("요")));
        let then = applied_order(&mut wait, &mut queue, start + Duration::from_millis(50));
        assert_eq!(then, ["commit 요", "Enter"], "the commit, then Enter");
        assert!(!wait.is_waiting());
    }

    #[test]
    fn without_a_commit_the_keys_go_once_the_patience_is_spent_and_not_before() {
        let (mut wait, start) = (CommitWait::default(), Instant::now());
        let mut queue = VecDeque::from([Typed::Ime(preedit("")), enter()]);
        applied_order(&mut wait, &mut queue, start);
        let almost = start + COMMIT_PATIENCE - Duration::from_millis(1);
        assert!(applied_order(&mut wait, &mut queue, almost).is_empty());
        assert_eq!(
            applied_order(&mut wait, &mut queue, start + COMMIT_PATIENCE),
            ["Enter"]
        );
    }

    #[test]
    fn other_ime_text_goes_after_the_keys_that_came_before_it() {
        let (mut wait, start) = (CommitWait::default(), Instant::now());
        let mut queue =
            VecDeque::from([Typed::Ime(preedit("")), enter(), Typed::Ime(preedit("ㄷ"))]);
        assert_eq!(
            applied_order(&mut wait, &mut queue, start),
            ["preedit ", "Enter", "preedit ㄷ"],
            "Enter before the new syllable"
        );
        assert!(!wait.is_waiting());
    }
}
