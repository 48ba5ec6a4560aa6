//! Hands the field each frame only as much typing as it can take in the order it was typed.
//!
//! Within a frame, the widget reads all the keys first, and the IME bridge ([`super::ime`])
//! applies the IME's text after it. Fed a whole frame at once, two kinds of input would come out
//! wrong:
//!
//! - **two Enters**: the widget empties the field at each but reports only the last line, so the
//!   first line would be lost;
//! - **a key after IME text**, such as the space or Enter typed right after a Korean syllable:
//!   the widget would handle the key before the bridge inserts the syllable, so `안녕` + space
//!   would read ` 안녕`, and Enter would send the line without its last syllable.
//!
//! So a frame's typing ends before its second Enter, or before a key press that follows an IME
//! message; the rest waits, in order, for the next frame, and a redraw asks for
//! that frame at once. Typing that needs no split (almost all of it) passes untouched.
//!
//! Keys and IME messages arrive as two message types, each in its own order. The order between
//! them comes from Bevy's [`WindowEvent`] stream, in which the window backend writes every event
//! a second time, in the order the platform delivered them.

use bevy::{
    ecs::message::{MessageCursor, Messages},
    input::keyboard::KeyboardInput,
    prelude::*,
    window::{Ime, RequestRedraw, WindowEvent},
};

/// One piece of typing: a key, or a message from the input method.
#[derive(Debug, Clone)]
enum Typed {
    Key(KeyboardInput),
    Ime(Ime),
}

/// Typing held back for a later frame, oldest first.
#[derive(Resource, Debug, Default)]
pub(super) struct HeldTyping(Vec<Typed>);

/// How far this system has read each message type.
#[derive(Default)]
pub(super) struct Seen {
    keys: MessageCursor<KeyboardInput>,
    imes: MessageCursor<Ime>,
    order: MessageCursor<WindowEvent>,
}

/// Lets through the frame's typing up to the first point the widget and the IME bridge would
/// take out of order, and holds the rest for the next frame. Runs before Bevy's input systems,
/// so everything downstream sees the paced messages.
pub(super) fn pace_typing(
    mut keys: ResMut<Messages<KeyboardInput>>,
    mut imes: ResMut<Messages<Ime>>,
    order: Res<Messages<WindowEvent>>,
    mut seen: Local<Seen>,
    mut held: ResMut<HeldTyping>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let fresh = in_arrival_order(
        seen.keys.read(&keys).cloned().collect(),
        seen.imes.read(&imes).cloned().collect(),
        seen.order.read(&order),
    );
    let was_holding = !held.0.is_empty();
    let mut queue = std::mem::take(&mut held.0);
    queue.extend(fresh);
    let end = end_of_frame(&queue);
    if !was_holding && end == queue.len() {
        // The messages already hold exactly this, in an order the field can follow.
        return;
    }
    held.0 = queue.split_off(end);
    // Messages from earlier frames have been read by every reader and go with the clear; the
    // rewritten ones are new to all readers, this one aside.
    keys.clear();
    imes.clear();
    for typed in queue {
        match typed {
            Typed::Key(key) => {
                keys.write(key);
            }
            Typed::Ime(ime) => {
                imes.write(ime);
            }
        }
    }
    seen.keys.clear(&keys);
    seen.imes.clear(&imes);
    if !held.0.is_empty() {
        redraw.write(RequestRedraw);
    }
}

/// Merges the frame's keys and IME messages in the order the window backend delivered them.
///
/// Messages written without a matching [`WindowEvent`] (by another plugin, say) have no known
/// place; they keep their order among their own type and come last, keys first.
fn in_arrival_order<'a>(
    keys: Vec<KeyboardInput>,
    imes: Vec<Ime>,
    order: impl Iterator<Item = &'a WindowEvent>,
) -> Vec<Typed> {
    let mut keys = keys.into_iter();
    let mut imes = imes.into_iter();
    let mut merged: Vec<Typed> = order
        .filter_map(|event| match event {
            WindowEvent::KeyboardInput(_) => keys.next().map(Typed::Key),
            WindowEvent::Ime(_) => imes.next().map(Typed::Ime),
            _ => None,
        })
        .collect();
    merged.extend(keys.map(Typed::Key));
    merged.extend(imes.map(Typed::Ime));
    merged
}

/// How much of `queue` one frame can take: nothing from the second Enter press on, nor from
/// the first key press that follows an IME message.
fn end_of_frame(queue: &[Typed]) -> usize {
    let mut after_ime = false;
    let mut after_enter = false;
    for (i, typed) in queue.iter().enumerate() {
        match typed {
            Typed::Ime(_) => after_ime = true,
            // A release changes no text; only presses must wait for the IME's text.
            Typed::Key(key) if after_ime && key.state.is_pressed() => return i,
            Typed::Key(key) if is_enter_press(key) => {
                if after_enter {
                    return i;
                }
                after_enter = true;
            }
            Typed::Key(_) => {}
        }
    }
    queue.len()
}

fn is_enter_press(key: &KeyboardInput) -> bool {
    key.state.is_pressed() && matches!(key.key_code, KeyCode::Enter | KeyCode::NumpadEnter)
}
