//! The system clipboard, through Bevy's [`Clipboard`], without ever holding up a frame.
//!
//! Writing is quick. Reading is not always: on X11 the text comes from the application that
//! owns the clipboard, and one that does not answer keeps the reader waiting for seconds. So
//! reads run on a thread of their own, with a `Clipboard` of its own (on X11 every instance
//! shares one connection), and frames go on meanwhile. Bevy's resource stays where Bevy's own
//! systems look for it. On Windows, where two users of the clipboard at once can deadlock, text
//! copied while a read is out is written once it is back; on X11 a read asks the owner over a
//! connection of its own and holds no lock a copy needs, so a copy goes at once (a read from an
//! owner that never answers takes some 20 s: 4 s for each text format asked for).
//!
//! The rest of the app speaks to this module in messages: [`ReadClipboard`] asks, and
//! [`ClipboardText`] answers; [`WriteClipboard`] copies. With [`ClipboardService::Elsewhere`]
//! this module leaves them to someone else, which is how tests play the clipboard.
//!
//! On X11 (and Wayland compositors that have it) there is a second clipboard, the PRIMARY
//! selection: whatever was selected last, in any application, pasted with a middle click. Every
//! GTK and Qt application offers its selections there; [`WritePrimary`] does, and
//! [`ReadPrimary`] asks for it (the answer is a [`ClipboardText`] too). Bevy's `Clipboard` does
//! not reach it, so this module asks `arboard` (which Bevy's clipboard is built on) directly.

use std::sync::{
    Mutex,
    mpsc::{Receiver, Sender, TryRecvError, channel},
};

use bevy::{
    clipboard::{Clipboard, ClipboardError},
    prelude::*,
    window::RequestRedraw,
};

use super::FieldDrawing;

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

/// Offers this text as the PRIMARY selection: it is what is selected now.
#[derive(Message, Debug, Clone)]
pub struct WritePrimary(pub String);

/// Asks for the PRIMARY selection's text (a middle click); a [`ClipboardText`] answers.
#[derive(Message, Debug, Clone, Copy)]
pub struct ReadPrimary;

/// Who serves the clipboard messages.
#[derive(Resource, Reflect, Debug, Default, Clone, Copy, PartialEq, Eq)]
#[reflect(Resource)]
pub enum ClipboardService {
    /// The system clipboard, through Bevy's [`Clipboard`].
    #[default]
    System,
    /// Someone else reads [`ReadClipboard`] and [`WriteClipboard`] and answers with
    /// [`ClipboardText`].
    Elsewhere,
}

pub(super) fn plugin(app: &mut App) {
    app.register_type::<ClipboardService>()
        .add_message::<ReadClipboard>()
        .add_message::<ClipboardText>()
        .add_message::<WriteClipboard>()
        .add_message::<WritePrimary>()
        .add_message::<ReadPrimary>()
        .init_resource::<ClipboardService>()
        .init_resource::<Reader>()
        .add_systems(PreUpdate, bring_back_the_text)
        .add_systems(
            PostUpdate,
            (write_clipboard, write_primary, start_reading)
                .chain()
                .in_set(FieldDrawing::Clipboard)
                .run_if(resource_equals(ClipboardService::System)),
        );
}

/// The reading thread, once the first paste has started it, and what waits on it.
#[derive(Resource, Default)]
struct Reader {
    thread: Option<ReaderThread>,
    /// Whether a read is out.
    reading: bool,
    /// The last text copied while a read was out (Windows).
    unwritten: Option<String>,
}

/// The ends of the channels to the reading thread: an ask out, the text back (behind a mutex
/// only because a resource must be shareable; the app holds it exclusively).
struct ReaderThread {
    asks: Sender<Selection>,
    texts: Mutex<Receiver<Result<String, ClipboardError>>>,
}

impl ReaderThread {
    /// A thread that reads the clipboard each time it is asked, until the app drops this.
    fn start() -> std::io::Result<Self> {
        let (asks, asked) = channel::<Selection>();
        let (answer, texts) = channel();
        std::thread::Builder::new()
            .name("clipboard reader".into())
            .spawn(move || {
                let mut clipboard = Clipboard::default();
                for selection in asked {
                    let text = match selection {
                        Selection::Clipboard => {
                            clipboard.fetch_text().poll_result().unwrap_or_else(|| {
                                Err(ClipboardError::Unknown {
                                    description: "the read did not finish".into(),
                                })
                            })
                        }
                        Selection::Primary => primary::read(),
                    };
                    if answer.send(text).is_err() {
                        break;
                    }
                }
            })?;
        Ok(Self {
            asks,
            texts: Mutex::new(texts),
        })
    }
}

/// Copies the frame's last [`WriteClipboard`] (each replaces the one before); on Windows, not
/// while a read is out: then the copy waits for it.
fn write_clipboard(
    mut writes: MessageReader<WriteClipboard>,
    mut reader: ResMut<Reader>,
    clipboard: Option<ResMut<Clipboard>>,
) {
    if let Some(WriteClipboard(text)) = writes.read().last() {
        reader.unwritten = Some(text.clone());
    }
    if cfg!(windows) && reader.reading {
        return;
    }
    let (Some(mut clipboard), Some(text)) = (clipboard, reader.unwritten.take()) else {
        return;
    };
    if let Err(error) = clipboard.set_text(text) {
        warn!("could not copy to the clipboard: {error}");
    }
}

/// Which of the two clipboards a read is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Selection {
    Clipboard,
    Primary,
}

/// Offers the frame's last [`WritePrimary`] as the PRIMARY selection.
fn write_primary(mut writes: MessageReader<WritePrimary>, mut primary: Local<primary::Primary>) {
    if let Some(WritePrimary(text)) = writes.read().last() {
        primary.offer(text);
    }
}

/// Asks the reading thread for the clipboard's text, when a [`ReadClipboard`] (or the PRIMARY
/// selection's, when a [`ReadPrimary`]) asks and no read is out already (its answer serves every
/// ask).
fn start_reading(
    mut asks: MessageReader<ReadClipboard>,
    mut primary_asks: MessageReader<ReadPrimary>,
    mut reader: ResMut<Reader>,
    mut answers: MessageWriter<ClipboardText>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    let selection = match (asks.read().count(), primary_asks.read().count()) {
        (0, 0) => return,
        (0, _) => Selection::Primary,
        _ => Selection::Clipboard,
    };
    if reader.reading {
        return;
    }
    if reader.thread.is_none() {
        match ReaderThread::start() {
            Ok(thread) => reader.thread = Some(thread),
            Err(error) => {
                warn!("nothing to paste: no thread to read the clipboard on ({error})");
                answers.write(ClipboardText(None));
                return;
            }
        }
    }
    let asked = reader
        .thread
        .as_ref()
        .is_some_and(|t| t.asks.send(selection).is_ok());
    if !asked {
        reader.thread = None;
        warn!("nothing to paste: the clipboard reader stopped");
        answers.write(ClipboardText(None));
        return;
    }
    reader.reading = true;
    // The answer is looked for at the start of a frame: make sure one comes.
    redraw.write(RequestRedraw);
}

/// Answers with the text once the reading thread has it. Asks for frames until then, since
/// nothing else may wake the window.
fn bring_back_the_text(
    mut reader: ResMut<Reader>,
    mut answers: MessageWriter<ClipboardText>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if !reader.reading {
        return;
    }
    let Some(thread) = &mut reader.thread else {
        return;
    };
    let texts = thread
        .texts
        .get_mut()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let text = match texts.try_recv() {
        Err(TryRecvError::Empty) => {
            redraw.write(RequestRedraw);
            return;
        }
        Ok(text) => text.map_err(|error| error.to_string()),
        Err(TryRecvError::Disconnected) => {
            reader.thread = None;
            Err("the clipboard reader stopped".to_owned())
        }
    };
    reader.reading = false;
    answers.write(ClipboardText(match text {
        Ok(text) => Some(text),
        Err(error) => {
            warn!("nothing to paste: could not read the clipboard ({error})");
            None
        }
    }));
}

/// The PRIMARY selection, through `arboard`, where the platform has one.
#[cfg(all(unix, not(any(target_os = "macos", target_os = "android"))))]
mod primary {
    use std::sync::Mutex;

    use arboard::{GetExtLinux, LinuxClipboardKind, SetExtLinux};
    use bevy::{clipboard::ClipboardError, log::warn};

    /// The connection that serves the selection to whoever asks, once something was offered.
    /// On X11 the text is served from it for as long as it lives: it lives as long as the app.
    #[derive(Default)]
    pub(super) struct Primary(Option<Mutex<arboard::Clipboard>>);

    impl Primary {
        /// Offers `text` as the selection.
        pub(super) fn offer(&mut self, text: &str) {
            if self.0.is_none() {
                match arboard::Clipboard::new() {
                    Ok(clipboard) => self.0 = Some(Mutex::new(clipboard)),
                    Err(error) => {
                        warn!("no PRIMARY selection to offer the selection as: {error}");
                        return;
                    }
                }
            }
            let Some(clipboard) = &mut self.0 else {
                return;
            };
            let clipboard = clipboard
                .get_mut()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            let offered = clipboard
                .set()
                .clipboard(LinuxClipboardKind::Primary)
                .text(text);
            if let Err(error) = offered {
                warn!("could not offer the PRIMARY selection: {error}");
            }
        }
    }

    /// The selection's text, from whoever has it (the reading thread calls this).
    pub(super) fn read() -> Result<String, ClipboardError> {
        let unknown = |error: arboard::Error| ClipboardError::Unknown {
            description: error.to_string(),
        };
        arboard::Clipboard::new()
            .and_then(|mut clipboard| {
                clipboard
                    .get()
                    .clipboard(LinuxClipboardKind::Primary)
                    .text()
            })
            .map_err(unknown)
    }
}

/// Platforms with no PRIMARY selection: nothing is offered, and a read finds no text.
#[cfg(not(all(unix, not(any(target_os = "macos", target_os = "android")))))]
mod primary {
    use bevy::clipboard::ClipboardError;

    #[derive(Default)]
    pub(super) struct Primary;

    impl Primary {
        pub(super) fn offer(&mut self, _: &str) {}
    }

    pub(super) fn read() -> Result<String, ClipboardError> {
        Err(ClipboardError::ContentNotAvailable)
    }
}
