//! The system clipboard, through Bevy's [`Clipboard`], without ever holding up a frame.
//!
//! Writing is quick. Reading is not always: on X11 the text comes from the application that
//! owns the clipboard, and one that does not answer keeps the reader waiting for seconds. So a
//! read runs on a thread of its own: Bevy's `Clipboard` resource goes with it and comes back
//! with the text, and frames go on meanwhile. Text copied while it is away is written when it is
//! back.
//!
//! The rest of the app speaks to this module in messages: [`ReadClipboard`] asks, and
//! [`ClipboardText`] answers; [`WriteClipboard`] copies. Without a `Clipboard` resource nothing
//! answers, which is how tests play the clipboard themselves.

use std::thread::JoinHandle;

use bevy::{
    clipboard::{Clipboard, ClipboardError},
    prelude::*,
    window::RequestRedraw,
};

/// Asks for the clipboard's text; a [`ClipboardText`] answers, a frame or more later.
#[derive(Message, Debug, Clone, Copy)]
pub struct ReadClipboard;

/// The clipboard's text, as a [`ReadClipboard`] asked; `None` when there was none to read (no
/// clipboard, no owner, or something other than text).
#[derive(Message, Debug, Clone)]
pub struct ClipboardText(pub Option<String>);

/// Puts this text on the clipboard.
#[derive(Message, Debug, Clone)]
pub struct WriteClipboard(pub String);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<ReadClipboard>()
        .add_message::<ClipboardText>()
        .add_message::<WriteClipboard>()
        .init_resource::<Reader>()
        .add_systems(PreUpdate, bring_back_the_text)
        .add_systems(PostUpdate, (write_clipboard, start_reading).chain());
}

/// A read in progress: the thread has the clipboard.
type Reading = JoinHandle<(Clipboard, Result<String, ClipboardError>)>;

/// The read in progress, if any, and the last text copied while the clipboard was away.
#[derive(Resource, Default)]
struct Reader {
    reading: Option<Reading>,
    unwritten: Option<String>,
}

/// Copies the frame's last [`WriteClipboard`] (each replaces the one before). While a read
/// has the clipboard, the copy waits for it.
fn write_clipboard(
    mut writes: MessageReader<WriteClipboard>,
    mut reader: ResMut<Reader>,
    clipboard: Option<ResMut<Clipboard>>,
) {
    if let Some(WriteClipboard(text)) = writes.read().last() {
        reader.unwritten = Some(text.clone());
    }
    let (Some(mut clipboard), Some(text)) = (clipboard, reader.unwritten.take()) else {
        return;
    };
    if let Err(error) = clipboard.set_text(text) {
        warn!("could not copy to the clipboard: {error}");
    }
}

/// Sends the clipboard to a thread to read it, when a [`ReadClipboard`] asks and no read is
/// in progress already (its answer serves every ask).
fn start_reading(
    mut asks: MessageReader<ReadClipboard>,
    reader: Res<Reader>,
    mut redraw: MessageWriter<RequestRedraw>,
    mut commands: Commands,
) {
    if asks.read().count() == 0 || reader.reading.is_some() {
        return;
    }
    // The answer is looked for at the start of a frame: make sure one comes.
    redraw.write(RequestRedraw);
    let handle = std::thread::Builder::new().name("clipboard read".into());
    commands.queue(move |world: &mut World| {
        let Some(mut clipboard) = world.remove_resource::<Clipboard>() else {
            return;
        };
        let spawned = handle.spawn(move || {
            let text = clipboard.fetch_text().poll_result().unwrap_or_else(|| {
                Err(ClipboardError::Unknown {
                    description: "the read did not finish".into(),
                })
            });
            (clipboard, text)
        });
        match spawned {
            Ok(reading) => world.resource_mut::<Reader>().reading = Some(reading),
            Err(error) => {
                warn!("could not read the clipboard: no thread to read it on ({error})");
                world.write_message(ClipboardText(None));
            }
        }
    });
}

/// Puts the clipboard back when its read is done and answers with the text. Asks for frames
/// until then, since nothing else may wake the window.
fn bring_back_the_text(
    mut reader: ResMut<Reader>,
    mut answers: MessageWriter<ClipboardText>,
    mut redraw: MessageWriter<RequestRedraw>,
    mut commands: Commands,
) {
    let Some(reading) = reader.reading.take_if(|reading| reading.is_finished()) else {
        if reader.reading.is_some() {
            redraw.write(RequestRedraw);
        }
        return;
    };
    let text = match reading.join() {
        Ok((clipboard, text)) => {
            commands.insert_resource(clipboard);
            text.map_err(|error| error.to_string())
        }
        Err(_) => Err("the reading thread panicked".to_owned()),
    };
    answers.write(ClipboardText(match text {
        Ok(text) => Some(text),
        Err(error) => {
            warn!("nothing to paste: could not read the clipboard ({error})");
            None
        }
    }));
}
