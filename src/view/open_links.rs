//! The links in messages, as the user meets them: found once per message, opened by a click,
//! and the pointer a hand over them.
//!
//! **Found once.** When a message is logged, [`links::find`] looks through the part of its body
//! a row shows, and the message entity gets [`Links`] if it holds any: rows, the keyboard, the
//! menus and screen readers read them from there, never find them again.
//!
//! **A click opens.** A press and a release on the same link, the pointer not having moved
//! away between them, open it, once no second press has come within the double-click time: a
//! double-click selects a word (`view/selection.rs`) and opens nothing, and a drag that starts
//! on a link selects text. The pointer is a hand over a link, and the default arrow elsewhere.
//! Enter on a link the keyboard focused (`view/focus.rs`), `링크 열기` in its menu
//! (`view/menu.rs`) and a screen reader's activate action open one too: each writes an
//! [`OpenLink`].
//!
//! **Opened by the desktop.** `open_links` hands the address to [`LinkOpener`], on a thread
//! of its own, so a slow portal or browser never holds up a frame. Only `http`, `https` and
//! `mailto` addresses are ever opened ([`links::may_open`]). A failure is one line in the log
//! and a notice over the conversation, which screen readers are told, never a panic.

use std::{
    sync::{
        Mutex,
        mpsc::{Receiver, Sender, channel},
    },
    thread,
    time::Duration,
};

use bevy::{
    input::{keyboard::KeyboardInput, mouse::MouseButtonInput},
    platform::time::Instant,
    prelude::*,
    ui::UiGlobalTransform,
    window::{CursorIcon, CursorMoved, PrimaryWindow, SystemCursorIcon, WindowEvent},
    winit::{EventLoopProxyWrapper, WinitUserEvent},
};

use super::{
    Conversation,
    selection::{MULTI_CLICK_DISTANCE, MULTI_CLICK_TIME, RowsOnScreen},
    shown_len,
    speech::{Announce, Notice, Topic, hide_the_notice},
};
use crate::{
    PointerGrab,
    chat::ChatMessage,
    input::{self, clock::InputClock, window_scale},
    links::{self, Links},
};

pub(super) fn plugin(app: &mut App) {
    app.register_type::<LinkNotice>()
        .add_message::<OpenLink>()
        .init_resource::<LinkOpener>()
        .init_resource::<Opening>()
        .init_resource::<LinkPointer>()
        .add_observer(find_links)
        .add_systems(
            Update,
            (
                point_at_links.run_if(
                    on_message::<CursorMoved>
                        .or_eager(on_message::<MouseButtonInput>)
                        .or_eager(|pointer: Res<LinkPointer>| pointer.clicked.is_some()),
                ),
                hide_the_notice::<LinkNotice>
                    .run_if(on_message::<KeyboardInput>.or_eager(on_message::<MouseButtonInput>)),
                open_links.run_if(
                    on_message::<OpenLink>.or_eager(|opening: Res<Opening>| opening.waiting > 0),
                ),
            )
                .chain()
                .in_set(LinkSystems),
        );
}

/// The systems that open links: after the keys and the pointer have asked (`frame.rs`).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LinkSystems;

/// Open this address in the desktop's browser or mail program; only the addresses
/// [`links::may_open`] allows are.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct OpenLink(pub String);

/// How an address is handed to the desktop: [`links::open::open`] in the app. A test of the
/// app's own systems puts in a function that keeps what it is given instead, so that no
/// browser opens on the machine that runs it; the window tests open through the desktop.
#[derive(Resource, Debug, Clone, Copy)]
pub struct LinkOpener(pub fn(&str) -> Result<&'static str, String>);

impl Default for LinkOpener {
    fn default() -> Self {
        Self(links::open::open)
    }
}

/// What the notice says when the desktop could not open a link.
pub const OPEN_FAILED_NOTICE: &str = "링크를 열 수 없어요";

/// Marks the notice that a link could not be opened; hidden until one could not.
#[derive(Component, Reflect, Debug, Default)]
#[reflect(Component)]
pub struct LinkNotice;

impl Notice for LinkNotice {
    const TOPIC: Topic = Topic::Link;
}

/// The notice that a link could not be opened, among the others (`view.rs`).
pub(super) fn link_notice() -> impl Bundle {
    (
        Name::new("Link notice"),
        LinkNotice,
        input::notice(OPEN_FAILED_NOTICE, |p| p.warning),
    )
}

/// How far past the part of a long body a row shows links are looked for: a link the cut runs
/// through is no link (it would open an address cut short), and this is longer than any address
/// a browser takes.
const LONGEST_LINK: usize = 2048;

/// Finds the links of a message as it is logged, those whole in the part of its body a row
/// shows.
fn find_links(added: On<Add, ChatMessage>, messages: Query<&ChatMessage>, mut commands: Commands) {
    let Ok(message) = messages.get(added.entity) else {
        return;
    };
    let body = message.body();
    let shown = shown_len(body);
    let looked_at = &body[..body.floor_char_boundary(shown + LONGEST_LINK)];
    let mut found = links::find(looked_at);
    found.retain(|link| link.range.end <= shown);
    if !found.is_empty() {
        commands.entity(added.entity).insert(Links(found));
    }
}

/// The pointer over links: where it is, the link a press started on, and the click that waits
/// out the double-click time before it opens.
#[derive(Resource, Debug, Default)]
pub(super) struct LinkPointer {
    /// Where the pointer is, in logical pixels.
    at: Option<Vec2>,
    /// Whether the pointer shows the hand.
    hand: bool,
    /// The last press: when, and where.
    last_press: Option<(Instant, Vec2)>,
    /// The press that started on a link: where, and the link's address.
    pressed: Option<(Vec2, String)>,
    /// A click on a link, and when it opens if no second press comes first.
    clicked: Option<(Instant, String)>,
    /// Whether a wake-up is on its way for the click.
    woken: bool,
}

impl LinkPointer {
    /// Follows one of the pointer's events; `link_at` is the address under a point.
    fn follow(
        &mut self,
        event: &WindowEvent,
        now: Instant,
        shift: bool,
        link_at: impl Fn(Vec2) -> Option<String>,
    ) {
        match event {
            WindowEvent::CursorMoved(moved) => {
                self.at = Some(moved.position);
                // Moved away from where it was pressed, it drags: a selection, not a click.
                if let Some((from, _)) = &self.pressed
                    && from.distance(moved.position) > MULTI_CLICK_DISTANCE
                {
                    self.pressed = None;
                }
            }
            WindowEvent::MouseButtonInput(button) if button.button == MouseButton::Left => {
                let Some(at) = self.at else {
                    return;
                };
                if button.state.is_pressed() {
                    // A second press: a double-click, which opens nothing.
                    self.clicked = None;
                    let again = self.last_press.is_some_and(|(then, place)| {
                        now - then <= MULTI_CLICK_TIME && place.distance(at) <= MULTI_CLICK_DISTANCE
                    });
                    self.last_press = Some((now, at));
                    // Shift+click extends the selection (`view/selection.rs`).
                    self.pressed =
                        (link_at(at).filter(|_| !again && !shift)).map(|target| (at, target));
                } else if let Some((_, target)) = self.pressed.take()
                    && link_at(at).as_ref() == Some(&target)
                {
                    self.clicked = Some((now + MULTI_CLICK_TIME, target));
                    self.woken = false;
                }
            }
            _ => {}
        }
    }
}

/// Follows the pointer over the links: the hand over one, a click on one opened once the
/// double-click time has passed without a second press.
fn point_at_links(
    mut events: MessageReader<WindowEvent>,
    mut pointer: ResMut<LinkPointer>,
    clock: Res<InputClock>,
    conversation: Single<(&ComputedNode, &UiGlobalTransform), With<Conversation>>,
    zoom: Res<UiScale>,
    rows: RowsOnScreen,
    grab: Res<PointerGrab>,
    keys: Res<ButtonInput<KeyCode>>,
    windows: Query<Entity, With<PrimaryWindow>>,
    proxy: Option<Res<EventLoopProxyWrapper>>,
    mut opens: MessageWriter<OpenLink>,
    mut commands: Commands,
) {
    let (node, transform) = *conversation;
    let to_physical = window_scale(node, &zoom);
    // The address under the pointer, while no menu has the pointer.
    let link_at = |at: Vec2| {
        let physical = at * to_physical;
        if grab.0 || !node.contains_point(*transform, physical) {
            return None;
        }
        let (place, index) = rows.link_at(physical)?;
        Some(rows.links(place)?.0.get(index)?.target.clone())
    };
    let now = clock.now();
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    for event in events.read() {
        pointer.follow(event, now, shift, link_at);
    }
    let hand = pointer.at.and_then(link_at).is_some();
    if hand != pointer.hand {
        pointer.hand = hand;
        let icon = if hand {
            SystemCursorIcon::Pointer
        } else {
            SystemCursorIcon::Default
        };
        for window in &windows {
            commands.entity(window).insert(CursorIcon::from(icon));
        }
    }
    match pointer.clicked.take() {
        Some((due, target)) if due <= now => {
            opens.write(OpenLink(target));
        }
        Some((due, target)) => {
            if !pointer.woken
                && let Some(proxy) = &proxy
            {
                pointer.woken = wake_after(proxy, due - now);
            }
            pointer.clicked = Some((due, target));
        }
        None => {}
    }
}

/// Wakes the resting window after `wait`, from a thread: whether the thread started.
fn wake_after(proxy: &EventLoopProxyWrapper, wait: Duration) -> bool {
    let proxy = (**proxy).clone();
    thread::Builder::new()
        .name("link click wake-up".into())
        .spawn(move || {
            thread::sleep(wait);
            let _ = proxy.send_event(WinitUserEvent::WakeUp);
        })
        .is_ok()
}

/// How handing an address to the desktop went: the way it took, or why it failed.
type Outcome = Result<&'static str, String>;

/// The addresses handed to the desktop whose outcome has not come back yet.
#[derive(Resource)]
pub(super) struct Opening {
    /// How many are out.
    waiting: usize,
    tell: Sender<(String, Outcome)>,
    news: Mutex<Receiver<(String, Outcome)>>,
}

impl Default for Opening {
    fn default() -> Self {
        let (tell, news) = channel();
        Self {
            waiting: 0,
            tell,
            news: Mutex::new(news),
        }
    }
}

/// Hands each allowed address to the desktop on a thread, and takes in how it went: a failure
/// is logged and shown.
fn open_links(
    mut asked: MessageReader<OpenLink>,
    opener: Res<LinkOpener>,
    mut opening: ResMut<Opening>,
    proxy: Option<Res<EventLoopProxyWrapper>>,
    mut notice: Single<&mut Node, With<LinkNotice>>,
    mut announce: MessageWriter<Announce>,
) {
    for OpenLink(address) in asked.read() {
        if !links::may_open(address) {
            warn!("not opening {address:?}: only http, https and mailto links are opened");
            continue;
        }
        let (open, tell, given) = (opener.0, opening.tell.clone(), address.clone());
        let proxy = proxy.as_deref().map(|proxy| (**proxy).clone());
        let spawned = thread::Builder::new()
            .name("opening a link".into())
            .spawn(move || {
                let outcome = open(&given);
                // The app may have exited meanwhile: nothing to tell then.
                if tell.send((given, outcome)).is_ok()
                    && let Some(proxy) = proxy
                {
                    let _ = proxy.send_event(WinitUserEvent::WakeUp);
                }
            });
        match spawned {
            Ok(_) => opening.waiting += 1,
            Err(error) => warn!("could not start opening {address:?}: {error}"),
        }
    }
    let outcomes: Vec<_> = match opening.news.lock() {
        Ok(news) => news.try_iter().collect(),
        Err(_) => Vec::new(),
    };
    opening.waiting = opening.waiting.saturating_sub(outcomes.len());
    for (address, outcome) in outcomes {
        match outcome {
            Ok(way) => debug!("opened {address} through {way}"),
            Err(error) => {
                warn!("could not open {address}: {error}");
                notice.display = Display::Flex;
                announce.write(Announce::say(Topic::Link, OPEN_FAILED_NOTICE));
            }
        }
    }
}
