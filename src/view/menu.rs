//! The context menus: what can be done where the pointer or the keyboard is, for people who
//! work by mouse and for people who do not know the shortcuts.
//!
//! A right-click on a field, the Menu key or Shift+F10 in it, opens the field's menu
//! ([`MenuCommand::FIELD`]); on the conversation, its menu ([`MenuCommand::CONVERSATION`]), at the
//! pointer or beside the focused message. An item that cannot act is greyed out: its key would
//! do nothing there either.
//!
//! **Each item is its key.** An item names the key that does what it does ([`MenuCommand::key`]),
//! and choosing it routes that key, as if it were pressed where the menu was opened
//! (`keyboard/typing.rs`, `chosen`): the menu cannot do anything its key does not. `메시지 복사`
//! alone has no key; it does what the message's `복사` button does.
//!
//! **Open, the menu is modal.** The keys are its own (`input/routing.rs` routes them by the
//! keymap's [`menu_key`](crate::input::keymap::menu_key)): Up and Down walk its items, wrapping and skipping greyed-out ones, as GTK's
//! menus do; Home and End jump; Enter or Space chooses; Escape closes it, gives focus back and
//! does not quit ([`escape_is_not_the_menus`] is the exit key's run condition, in `frame.rs`).
//! The pointer's buttons are its own too ([`PointerGrab`], which the other pointer systems
//! ask): a click on an item chooses it, a click anywhere else closes the menu and does nothing
//! else, and the wheel does nothing. Losing the window's focus closes it. Opening it touches no
//! field, composition or selection.
//!
//! **It fits in the window.** It opens below and right of where it was asked for, and after
//! layout, in the same frame, flips to the other side where that side has no room, or shifts
//! in from the edge where neither has ([`place`]). Bevy's Popover component (in
//! bevy_ui_widgets) picks among the sides it is given but does not shift, and would add
//! bevy_ui_widgets and bevy_picking to the build (docs/performance.md §20).
//!
//! **Screen readers** get a `menu` of `menu item`s, each with its key as its shortcut and the
//! greyed-out ones disabled; keyboard focus is on the highlighted item, and moves with it.

use accesskit::Role as AccessRole;
use bevy::{
    a11y::ActionRequest,
    ecs::system::SystemParam,
    input::mouse::MouseButtonInput,
    input_focus::{FocusCause, InputFocus},
    prelude::*,
    ui::{FocusPolicy, UiGlobalTransform},
    window::{CursorMoved, WindowEvent},
};

use super::{
    Bubble, Conversation, MessageRow,
    focus::MessageFocus,
    selection::{ConversationSelection, RowsOnScreen},
};
use crate::{
    PointerGrab,
    a11y::accessible,
    chat::MessageLog,
    input::{
        Field, caret::CaretBar, editor::LineEditor, keymap::MenuKey, keys::Chord, window_scale,
    },
    scroll::Item,
    theme::{self, Paint, Swatch},
};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ContextMenu>()
        .init_resource::<PointerGrab>()
        .add_message::<MenuPick>()
        // Each only in a frame with something for it: the pointer, a reader's request, or a
        // grab or Escape of the frame before to let go of (not the keys: the typing takes an
        // open menu's); a changed menu; a menu.
        .add_systems(
            Update,
            point_at_the_menu
                .run_if(
                    on_message::<CursorMoved>
                        .or_eager(on_message::<MouseButtonInput>)
                        .or_eager(on_message::<ActionRequest>)
                        .or_eager(|grab: Res<PointerGrab>| grab.0)
                        .or_eager(|menu: Res<ContextMenu>| menu.took_escape),
                )
                .in_set(MenuSystems::Pointer),
        )
        .add_systems(
            Update,
            show_the_menu
                .run_if(resource_changed::<ContextMenu>)
                .in_set(MenuSystems::Show),
        )
        .add_systems(
            PostUpdate,
            fit_in_the_window
                .run_if(any_with_component::<MenuPanel>)
                .in_set(MenuSystems::Fit),
        );
}

/// The menus' systems, by when they run (`frame.rs` says when).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MenuSystems {
    /// The pointer opens, walks, chooses from and closes a menu, before anything else reads it.
    Pointer,
    /// The open menu is built, highlighted and focused, or taken down, as the frame left it.
    Show,
    /// The menu is placed to fit in the window, once layout has measured it (`PostUpdate`).
    Fit,
}

/// What a menu item does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuCommand {
    /// `실행 취소`: the field's Ctrl+Z.
    Undo,
    /// `다시 실행`: the field's Ctrl+Shift+Z.
    Redo,
    /// `잘라내기`: the field's Ctrl+X.
    Cut,
    /// `복사`: the field's Ctrl+C.
    Copy,
    /// `붙여넣기`: the field's Ctrl+V.
    Paste,
    /// `삭제`: the field's Delete, with text selected.
    Delete,
    /// `모두 선택`: the field's Ctrl+A.
    SelectAll,
    /// `복사`: the conversation's Ctrl+C, with text selected in it.
    CopySelection,
    /// `메시지 복사`: what the message's `복사` button does.
    CopyMessage,
    /// `모두 선택`: the conversation's Ctrl+A.
    SelectConversation,
    /// `대화에서 찾기…`: Ctrl+F.
    FindInConversation,
    /// `링크 열기`: what a click on the link does.
    OpenLink,
    /// `링크 주소 복사`: copies the link's address.
    CopyLinkAddress,
}

impl MenuCommand {
    /// The field's menu, in order, as GTK's and Qt's fields have it.
    pub const FIELD: [Self; 7] = [
        Self::Undo,
        Self::Redo,
        Self::Cut,
        Self::Copy,
        Self::Paste,
        Self::Delete,
        Self::SelectAll,
    ];

    /// What the conversation's menu has first, on a link (or with the keyboard on one), as
    /// browsers have it.
    pub const LINK: [Self; 2] = [Self::OpenLink, Self::CopyLinkAddress];

    /// The conversation's menu, in order.
    pub const CONVERSATION: [Self; 4] = [
        Self::CopySelection,
        Self::CopyMessage,
        Self::SelectConversation,
        Self::FindInConversation,
    ];

    /// What the item says.
    pub fn label(self) -> &'static str {
        match self {
            Self::Undo => "실행 취소",
            Self::Redo => "다시 실행",
            Self::Cut => "잘라내기",
            Self::Copy | Self::CopySelection => "복사",
            Self::Paste => "붙여넣기",
            Self::Delete => "삭제",
            Self::SelectAll | Self::SelectConversation => "모두 선택",
            Self::CopyMessage => "메시지 복사",
            Self::FindInConversation => "대화에서 찾기…",
            Self::OpenLink => "링크 열기",
            Self::CopyLinkAddress => "링크 주소 복사",
        }
    }

    /// The key that does what the item does, where its menu opens: the item runs by routing it.
    pub fn key(self) -> Option<Chord> {
        Some(match self {
            Self::Undo => Chord::ctrl(KeyCode::KeyZ),
            Self::Redo => Chord::ctrl_shift(KeyCode::KeyZ),
            Self::Cut => Chord::ctrl(KeyCode::KeyX),
            Self::Copy | Self::CopySelection => Chord::ctrl(KeyCode::KeyC),
            Self::Paste => Chord::ctrl(KeyCode::KeyV),
            Self::Delete => Chord::bare(KeyCode::Delete),
            Self::SelectAll | Self::SelectConversation => Chord::ctrl(KeyCode::KeyA),
            Self::FindInConversation => Chord::ctrl(KeyCode::KeyF),
            Self::CopyMessage | Self::OpenLink | Self::CopyLinkAddress => return None,
        })
    }
}

/// An item of an open menu: what it does, and whether it can, as things stood when it opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MenuItem {
    /// What it does.
    pub command: MenuCommand,
    /// Whether it can act; greyed out if not.
    pub enabled: bool,
}

/// The field's menu for `line`: undo and redo while there is a step to take, the selection's
/// commands while there is one, paste while the field has room, select all while it has text.
pub fn field_items(line: &LineEditor) -> Vec<MenuItem> {
    let selected = !line.selection().is_empty();
    MenuCommand::FIELD
        .into_iter()
        .map(|command| MenuItem {
            command,
            enabled: match command {
                MenuCommand::Undo => line.can_undo(),
                MenuCommand::Redo => line.can_redo(),
                MenuCommand::Cut | MenuCommand::Copy | MenuCommand::Delete => selected,
                MenuCommand::Paste => line.room() > 0,
                _ => !line.text().is_empty(),
            },
        })
        .collect()
}

/// The conversation's menu: on a link, opening it and copying its address first; copy while
/// text is selected in it, copy a message while there is one under the pointer (or focused),
/// select all while there are messages; find always.
pub fn conversation_items(
    selected: bool,
    a_message: bool,
    logged: bool,
    on_a_link: bool,
) -> Vec<MenuItem> {
    let link = if on_a_link {
        &MenuCommand::LINK[..]
    } else {
        &[]
    };
    (link.iter().chain(&MenuCommand::CONVERSATION))
        .map(|&command| MenuItem {
            command,
            enabled: match command {
                MenuCommand::CopySelection => selected,
                MenuCommand::CopyMessage => a_message,
                MenuCommand::SelectConversation => logged,
                _ => true,
            },
        })
        .collect()
}

/// Whose menu it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuOwner {
    /// A field's: the chat's or the find bar's.
    Field(Entity),
    /// The conversation's.
    Conversation {
        /// The place in the log of the message under the pointer; `None` from the keyboard,
        /// for the focused message, wherever the keys before took focus.
        message: Option<usize>,
        /// Which of that message's links is under the pointer; `None` from the keyboard, for
        /// the one the keyboard is on.
        link: Option<usize>,
    },
}

/// Where a menu was asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Anchor {
    /// At the pointer, in the window's logical pixels.
    Pointer(Vec2),
    /// Under this field's caret.
    Caret(Entity),
    /// Beside the bubble of the message that has keyboard focus.
    FocusedMessage,
}

/// The one context menu there can be, and what it holds while open.
#[derive(Resource, Debug, Default)]
pub struct ContextMenu {
    open: Option<OpenMenu>,
    /// Counts the menus opened, so a menu opened in place of another is built anew.
    opened: u64,
    /// Whether Escape closed a menu this frame (the exit key asks; the menu's pointer system,
    /// which runs first in the frame after, clears it).
    took_escape: bool,
}

/// An open menu.
#[derive(Debug, Clone, PartialEq)]
struct OpenMenu {
    owner: MenuOwner,
    items: Vec<MenuItem>,
    /// The item the keys or the pointer are on; none, opened by the pointer, until it moves.
    highlight: Option<usize>,
    /// Where keyboard focus was, to go back to.
    returns_to: Option<Entity>,
    anchor: Anchor,
}

/// What a key did to the menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MenuOutcome {
    /// It stays open.
    Stays,
    /// It closed; focus goes back here.
    Closed(Option<Entity>),
    /// It closed, choosing this item of this owner's; focus goes back first.
    Chosen(MenuCommand, MenuOwner, Option<Entity>),
}

impl ContextMenu {
    /// Opens `owner`'s menu of `items` at `anchor`, in place of any menu open, with keyboard
    /// focus to come back to `returns_to`. Opened by the keyboard, its first item that can act
    /// is highlighted.
    pub fn open(
        &mut self,
        owner: MenuOwner,
        items: Vec<MenuItem>,
        anchor: Anchor,
        returns_to: Option<Entity>,
    ) {
        let by_keys = !matches!(anchor, Anchor::Pointer(_));
        let mut menu = OpenMenu {
            owner,
            items,
            highlight: None,
            returns_to,
            anchor,
        };
        if by_keys {
            menu.highlight = menu.step(None, 1);
        }
        self.open = Some(menu);
        self.opened += 1;
    }

    /// Whether a menu is open.
    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// The open menu's owner.
    pub fn owner(&self) -> Option<MenuOwner> {
        self.open.as_ref().map(|menu| menu.owner)
    }

    /// The open menu's items.
    pub fn items(&self) -> &[MenuItem] {
        self.open.as_ref().map_or(&[], |menu| &menu.items)
    }

    /// The highlighted item's place among the items.
    pub fn highlighted(&self) -> Option<usize> {
        self.open.as_ref().and_then(|menu| menu.highlight)
    }

    /// Where keyboard focus goes back to when the menu closes.
    pub fn returns_to(&self) -> Option<Entity> {
        self.open.as_ref().and_then(|menu| menu.returns_to)
    }

    /// Carries out a menu key.
    pub fn key(&mut self, key: MenuKey) -> MenuOutcome {
        let Some(menu) = &mut self.open else {
            return MenuOutcome::Stays;
        };
        let to = match key {
            MenuKey::Previous => menu.step(menu.highlight, -1),
            MenuKey::Next => menu.step(menu.highlight, 1),
            MenuKey::First => menu.step(None, 1),
            MenuKey::Last => menu.step(None, -1),
            MenuKey::Choose => return self.choose(),
            MenuKey::Close => {
                self.took_escape = true;
                return MenuOutcome::Closed(self.close());
            }
        };
        if to.is_some() {
            menu.highlight = to;
        }
        MenuOutcome::Stays
    }

    /// Chooses the highlighted item, if it can act; else the menu stays open, as GTK's does.
    fn choose(&mut self) -> MenuOutcome {
        let Some(menu) = &self.open else {
            return MenuOutcome::Stays;
        };
        let Some(item) = menu.highlight.map(|at| menu.items[at]) else {
            return MenuOutcome::Stays;
        };
        if !item.enabled {
            return MenuOutcome::Stays;
        }
        let owner = menu.owner;
        MenuOutcome::Chosen(item.command, owner, self.close())
    }

    /// Closes the menu; where focus goes back to.
    pub fn close(&mut self) -> Option<Entity> {
        self.open.take().and_then(|menu| menu.returns_to)
    }

    /// Highlights the item at `at` (the pointer is on it), if it is not already.
    /// Items that cannot act are not highlighted, as in GTK's menus.
    fn hover(&mut self, at: usize) {
        if let Some(menu) = &mut self.open
            && menu.highlight != Some(at)
            && menu.items.get(at).is_some_and(|item| item.enabled)
        {
            menu.highlight = Some(at);
        }
    }
}

impl OpenMenu {
    /// The item that can act `by` steps (1 or -1) from `from`, wrapping at the ends; from none,
    /// the first (or, back, the last).
    fn step(&self, from: Option<usize>, by: isize) -> Option<usize> {
        let len = self.items.len() as isize;
        let start = from.map_or(if by > 0 { -1 } else { len }, |at| at as isize);
        (1..=len)
            .map(|n| (start + by * n).rem_euclid(len) as usize)
            .find(|&at| self.items[at].enabled)
    }
}

/// The exit key's run condition: Escape quits unless it closed a menu this frame.
pub fn escape_is_not_the_menus(menu: Res<ContextMenu>) -> bool {
    !menu.took_escape
}

/// The pointer, or a screen reader, chose the highlighted item; the field's typing carries it
/// out with the keys (`keyboard/typing.rs`).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct MenuPick;

/// What opening a menu from the keyboard reads, beside the focused field: what the
/// conversation's items act on.
#[derive(SystemParam)]
pub struct Menus<'w, 's> {
    /// The menu.
    pub menu: ResMut<'w, ContextMenu>,
    picks: MessageReader<'w, 's, MenuPick>,
    selection: Res<'w, ConversationSelection>,
    focus: Res<'w, MessageFocus>,
    log: Res<'w, MessageLog>,
}

impl Menus<'_, '_> {
    /// Opens `field`'s menu under its caret, for `line`; focus comes back to the field.
    pub fn open_on_field(&mut self, field: Entity, line: &LineEditor) {
        let items = field_items(line);
        self.menu.open(
            MenuOwner::Field(field),
            items,
            Anchor::Caret(field),
            Some(field),
        );
    }

    /// Opens the conversation's menu beside its focused message; focus comes back to
    /// `returns_to`.
    pub fn open_on_conversation(&mut self, returns_to: Option<Entity>) {
        let focused = self.focus.place().is_some_and(|at| at < self.log.len());
        let on_a_link = focused && self.focus.link().is_some();
        let items = conversation_items(
            !self.selection.is_empty(),
            focused,
            !self.log.is_empty(),
            on_a_link,
        );
        self.menu.open(
            MenuOwner::Conversation {
                message: None,
                link: None,
            },
            items,
            Anchor::FocusedMessage,
            returns_to,
        );
    }

    /// Whether the pointer or a reader chose an item since the typing last looked.
    pub fn picked(&mut self) -> bool {
        self.picks.read().count() > 0
    }
}

/// Marks the layer a menu is built on: all the window, over everything, so nothing under it
/// is hovered while the menu is open.
#[derive(Component, Debug)]
struct MenuLayer;

/// Marks a menu's panel: which menu it shows (how many had opened when it did), and the
/// rectangle it was asked for beside, in physical pixels, with the side it goes on.
#[derive(Component, Debug)]
pub struct MenuPanel {
    opened: u64,
    beside: Rect,
    side: Side,
}

/// Marks a menu item's node, with its place among the items.
#[derive(Component, Debug, Clone, Copy)]
pub struct MenuEntry(pub usize);

/// Which way from its anchor a menu goes first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Below, its left edge at the anchor's (at the pointer or the caret).
    Below,
    /// To the right, its top at the anchor's (beside a message on the left).
    Right,
    /// To the left, its top at the anchor's (beside a message on the right).
    Left,
}

/// The space kept between a menu and the window's edge, in logical pixels.
const EDGE: f32 = 4.0;

/// Where a menu `size` big goes, beside `anchor` on `side`, in a window `window` big, all in
/// the same pixels, `edge` of them kept clear at the window's sides: its top left corner. It
/// goes on `side` if it fits there, on the opposite side if it fits there, and else on `side`,
/// shifted in from the window's edge as far as it must.
pub fn place(anchor: Rect, side: Side, size: Vec2, window: Vec2, edge: f32) -> Vec2 {
    // Along one axis: starting at `after` and running on, or ending at `before`.
    let along = |after: f32, before: f32, len: f32, room: f32, on_first: bool| {
        let (on, back) = (after, before - len);
        let fits = |at: f32| at >= edge && at + len <= room - edge;
        let (first, second) = if on_first { (on, back) } else { (back, on) };
        if fits(first) {
            first
        } else if fits(second) {
            second
        } else {
            first.min(room - edge - len).max(edge)
        }
    };
    let (min, max) = (anchor.min, anchor.max);
    match side {
        Side::Below => Vec2::new(
            along(min.x, max.x, size.x, window.x, true),
            along(max.y, min.y, size.y, window.y, true),
        ),
        Side::Right | Side::Left => Vec2::new(
            along(max.x, min.x, size.x, window.x, side == Side::Right),
            along(min.y, max.y, size.y, window.y, true),
        ),
    }
}

/// Opens, walks, chooses from and closes menus with the pointer, in the order its messages
/// came, and takes a screen reader's requests on the items.
fn point_at_the_menu(
    mut events: MessageReader<WindowEvent>,
    mut requests: MessageReader<ActionRequest>,
    mut menu: ResMut<ContextMenu>,
    mut grab: ResMut<PointerGrab>,
    mut picks: MessageWriter<MenuPick>,
    mut pointer: Local<Option<Vec2>>,
    mut input_focus: ResMut<InputFocus>,
    under: Under,
) {
    // Only when set: the menu changes only when it does.
    if menu.took_escape {
        menu.took_escape = false;
    }
    grab.0 = menu.is_open();
    for event in events.read() {
        match event {
            WindowEvent::CursorMoved(moved) => {
                *pointer = Some(moved.position);
                if menu.is_open()
                    && let Some(at) = under.entry(moved.position)
                {
                    menu.hover(at);
                }
            }
            WindowEvent::MouseButtonInput(button) => {
                let Some(at) = *pointer else {
                    continue;
                };
                let open = menu.is_open();
                let on_menu = open && under.panel(at);
                match (button.button, button.state.is_pressed()) {
                    // A click elsewhere closes the menu, and is taken: it does nothing else.
                    (MouseButton::Left | MouseButton::Middle, true) if open && !on_menu => {
                        give_back(menu.close(), &mut input_focus);
                    }
                    (MouseButton::Left, false) if on_menu => {
                        if let Some(entry) = under.entry(at) {
                            menu.hover(entry);
                            picks.write(MenuPick);
                        }
                    }
                    (MouseButton::Right, true) if !on_menu => {
                        if open {
                            give_back(menu.close(), &mut input_focus);
                        }
                        grab.0 |= under.open_menu_at(at, &mut menu, &input_focus);
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    for ActionRequest(request) in requests.read() {
        let entry = Entity::try_from_bits(request.target_node.0)
            .and_then(|target| under.entries.get(target).ok());
        if let Some((&MenuEntry(at), ..)) = entry {
            menu.hover(at);
            if request.action == accesskit::Action::Click {
                picks.write(MenuPick);
            }
        }
    }
}

/// Gives keyboard focus back to `to`, where a menu was opened from.
fn give_back(to: Option<Entity>, input_focus: &mut InputFocus) {
    if let Some(to) = to {
        input_focus.set(to, FocusCause::Navigated);
    }
}

/// What is under the pointer, as the last layout left it: a menu, a field, the conversation.
#[derive(SystemParam)]
struct Under<'w, 's> {
    entries: Query<
        'w,
        's,
        (
            &'static MenuEntry,
            &'static ComputedNode,
            &'static UiGlobalTransform,
        ),
    >,
    panels: Query<'w, 's, (&'static ComputedNode, &'static UiGlobalTransform), With<MenuPanel>>,
    fields: Query<
        'w,
        's,
        (
            Entity,
            &'static Field,
            &'static ComputedNode,
            &'static UiGlobalTransform,
        ),
    >,
    conversation:
        Single<'w, 's, (&'static ComputedNode, &'static UiGlobalTransform), With<Conversation>>,
    rows: Query<
        'w,
        's,
        (
            &'static Item,
            &'static ComputedNode,
            &'static UiGlobalTransform,
        ),
        With<MessageRow>,
    >,
    on_screen: RowsOnScreen<'w, 's>,
    selection: Res<'w, ConversationSelection>,
    log: Res<'w, MessageLog>,
    zoom: Res<'w, UiScale>,
}

impl Under<'_, '_> {
    /// `at`, the pointer in the window's logical pixels, in layout's physical ones.
    fn physical(&self, at: Vec2) -> Vec2 {
        at * window_scale(self.conversation.0, &self.zoom)
    }

    /// Whether the pointer is on a menu.
    fn panel(&self, at: Vec2) -> bool {
        let at = self.physical(at);
        self.panels
            .iter()
            .any(|(node, transform)| node.contains_point(*transform, at))
    }

    /// The menu item under the pointer.
    fn entry(&self, at: Vec2) -> Option<usize> {
        let at = self.physical(at);
        self.entries
            .iter()
            .find(|(_, node, transform)| node.contains_point(**transform, at))
            .map(|(entry, ..)| entry.0)
    }

    /// Opens the menu of what is under the pointer: a field's, or the conversation's with the
    /// message under it; whether there was one.
    fn open_menu_at(&self, at: Vec2, menu: &mut ContextMenu, input_focus: &InputFocus) -> bool {
        let physical = self.physical(at);
        let returns_to = input_focus.get();
        if let Some((field, line, ..)) = self
            .fields
            .iter()
            .find(|(_, _, node, transform)| node.contains_point(**transform, physical))
        {
            // As in GTK, the field a menu was opened on has focus when it closes.
            let items = field_items(line.line());
            menu.open(
                MenuOwner::Field(field),
                items,
                Anchor::Pointer(at),
                Some(field),
            );
            return true;
        }
        let (node, transform) = *self.conversation;
        if !node.contains_point(*transform, physical) {
            return false;
        }
        let message = self
            .rows
            .iter()
            .find(|(_, node, transform)| node.contains_point(**transform, physical))
            .map(|(&Item(place), ..)| place)
            .filter(|&place| place < self.log.len());
        let link = self.on_screen.link_at(physical);
        let items = conversation_items(
            !self.selection.is_empty(),
            message.is_some(),
            !self.log.is_empty(),
            link.is_some(),
        );
        let owner = MenuOwner::Conversation {
            message,
            link: link.map(|(_, index)| index),
        };
        menu.open(owner, items, Anchor::Pointer(at), returns_to);
        true
    }
}

/// Builds the open menu (or takes down a closed one), highlights its item and gives that item
/// keyboard focus, as the frame's keys and pointer left it.
fn show_the_menu(
    menu: Res<ContextMenu>,
    layers: Query<Entity, With<MenuLayer>>,
    panels: Query<(Entity, &MenuPanel)>,
    mut entries: Query<(Entity, &MenuEntry, &mut Paint, &mut Node, &Children), Without<MessageRow>>,
    mut texts: Query<&mut Paint, (With<Text>, Without<MenuEntry>)>,
    mut input_focus: ResMut<InputFocus>,
    beside: Beside,
    mut commands: Commands,
) {
    let shown = panels
        .iter()
        .find(|(_, panel)| Some(panel.opened) == menu.open.as_ref().map(|_| menu.opened));
    if shown.is_none() {
        for layer in &layers {
            commands.entity(layer).despawn();
        }
    }
    let Some(open) = &menu.open else {
        return;
    };
    let focused = match shown {
        Some((panel, _)) => {
            let mut focused = panel;
            for (entry, &MenuEntry(at), mut paint, mut node, children) in &mut entries {
                let lit = open.highlight == Some(at);
                if lit {
                    focused = entry;
                }
                if node.border.left != ring(lit) {
                    node.border = UiRect::all(ring(lit));
                    *paint = entry_paint(lit);
                    let enabled = open.items[at].enabled;
                    let swatches = [label_swatch(enabled, lit), key_swatch(lit)];
                    for (text, swatch) in children.iter().zip(swatches) {
                        if let Ok(mut paint) = texts.get_mut(text) {
                            *paint = Paint::text(swatch);
                        }
                    }
                }
            }
            focused
        }
        None => {
            let (panel, built) = build(&mut commands, menu.opened, open, &beside);
            open.highlight.map_or(panel, |at| built[at])
        }
    };
    if input_focus.get() != Some(focused) {
        input_focus.set(focused, FocusCause::Navigated);
    }
}

/// The ring around the highlighted item, so it shows without its colour.
fn ring(lit: bool) -> Val {
    px(if lit { 1.0 } else { 0.0 })
}

/// Finds where a menu was asked for, on screen, as the last layout left it.
#[derive(SystemParam)]
struct Beside<'w, 's> {
    bars: Query<
        'w,
        's,
        (
            &'static ComputedNode,
            &'static UiGlobalTransform,
            &'static ChildOf,
        ),
        With<CaretBar>,
    >,
    nodes: Query<'w, 's, (&'static ComputedNode, &'static UiGlobalTransform)>,
    parents: Query<'w, 's, &'static ChildOf>,
    rows: Query<'w, 's, (&'static Item, &'static Node, &'static Children), With<MessageRow>>,
    bubbles: Query<'w, 's, (), With<Bubble>>,
    conversation: Single<'w, 's, Entity, With<Conversation>>,
    focus: Res<'w, MessageFocus>,
    zoom: Res<'w, UiScale>,
}

impl Beside<'_, '_> {
    /// The rectangle (physical pixels) a menu at `anchor` goes beside, and on which side.
    fn rect(&self, anchor: Anchor) -> (Rect, Side) {
        let rect_of = |entity: Entity| {
            let (node, transform) = self.nodes.get(entity).ok()?;
            Some(Rect::from_center_size(transform.translation, node.size()))
        };
        let conversation = rect_of(*self.conversation).unwrap_or_default();
        match anchor {
            Anchor::Pointer(at) => {
                let scale = self
                    .nodes
                    .get(*self.conversation)
                    .map_or(1.0, |(node, _)| window_scale(node, &self.zoom));
                let at = at * scale;
                (Rect::from_corners(at, at), Side::Below)
            }
            Anchor::Caret(field) => {
                let bar = self.bars.iter().find(|(_, _, ChildOf(viewport))| {
                    self.parents
                        .get(*viewport)
                        .is_ok_and(|parent| parent.parent() == field)
                });
                let rect = bar
                    .map(|(node, transform, _)| {
                        Rect::from_center_size(transform.translation, node.size())
                    })
                    .or_else(|| rect_of(field))
                    .unwrap_or_default();
                (rect, Side::Below)
            }
            Anchor::FocusedMessage => {
                let place = self.focus.place();
                let Some((_, row, children)) =
                    self.rows.iter().find(|(item, ..)| Some(item.0) == place)
                else {
                    return (
                        Rect::from_corners(conversation.min, conversation.min),
                        Side::Below,
                    );
                };
                let bubble = children.iter().find(|&child| self.bubbles.contains(child));
                let rect = bubble.and_then(rect_of).unwrap_or(conversation);
                let side = if row.justify_content == JustifyContent::FlexEnd {
                    Side::Left
                } else {
                    Side::Right
                };
                (rect, side)
            }
        }
    }
}

/// Builds the menu `open` on its layer, where it was asked for; its panel and its items.
fn build(
    commands: &mut Commands,
    opened: u64,
    open: &OpenMenu,
    beside: &Beside,
) -> (Entity, Vec<Entity>) {
    let (rect, side) = beside.rect(open.anchor);
    let physical_to_ui = beside
        .nodes
        .get(*beside.conversation)
        .map_or(1.0, |(node, _)| node.inverse_scale_factor());
    let start = place(rect, side, Vec2::ZERO, Vec2::splat(f32::MAX), 0.0) * physical_to_ui;
    let label = match open.owner {
        MenuOwner::Field(_) => "편집",
        MenuOwner::Conversation { .. } => "대화",
    };
    let panel = commands
        .spawn((
            Name::new("Context menu"),
            MenuPanel {
                opened,
                beside: rect,
                side,
            },
            accessible(AccessRole::Menu, label),
            Node {
                position_type: PositionType::Absolute,
                left: px(start.x),
                top: px(start.y),
                flex_direction: FlexDirection::Column,
                min_width: px(200),
                padding: UiRect::all(px(4)),
                border: UiRect::all(px(1)),
                ..default()
            },
            Paint::background(|p| p.input_background).with_border(|p| p.input_border),
        ))
        .id();
    let entries = (open.items.iter().enumerate())
        .map(|(at, item)| {
            let lit = open.highlight == Some(at);
            commands.spawn((entry(at, *item, lit), ChildOf(panel))).id()
        })
        .collect();
    commands
        .spawn((
            Name::new("Menu layer"),
            MenuLayer,
            Node {
                position_type: PositionType::Absolute,
                width: percent(100),
                height: percent(100),
                ..default()
            },
            // Over the rows and the notices; blocks hovering what is under it.
            GlobalZIndex(10),
            FocusPolicy::Block,
            Interaction::default(),
        ))
        .add_child(panel);
    (panel, entries)
}

/// A menu item's node: its label, and its key at the right, greyed out if it cannot act.
fn entry(at: usize, item: MenuItem, lit: bool) -> impl Bundle {
    let command = item.command;
    let mut node = accessible(AccessRole::MenuItem, command.label());
    if let Some(key) = command.key() {
        node.set_keyboard_shortcut(key.label());
    }
    if item.enabled {
        node.add_action(accesskit::Action::Click);
    } else {
        node.set_disabled();
    }
    node.add_action(accesskit::Action::Focus);
    let key = command.key().map(Chord::label).unwrap_or_default();
    (
        Name::new("Menu item"),
        MenuEntry(at),
        node,
        Node {
            justify_content: JustifyContent::SpaceBetween,
            column_gap: px(24),
            padding: UiRect::axes(px(12), px(4)),
            border: UiRect::all(ring(lit)),
            ..default()
        },
        entry_paint(lit),
        children![
            (
                Text::new(command.label()),
                theme::small_font(),
                Paint::text(label_swatch(item.enabled, lit)),
            ),
            (
                Text::new(key),
                theme::small_font(),
                Paint::text(key_swatch(lit)),
            ),
        ],
    )
}

/// A menu item's colours: highlighted, the selection's, in the focus ring's colour.
fn entry_paint(lit: bool) -> Paint {
    if lit {
        Paint::background(|p| p.selection).with_border(|p| p.focus_ring)
    } else {
        Paint::background(|p| p.input_background).with_border(|p| p.input_background)
    }
}

/// The colour of an item's label: on the highlight, the selection's text colour; greyed out,
/// the placeholder's.
fn label_swatch(enabled: bool, lit: bool) -> Swatch {
    match (lit, enabled) {
        (true, _) => |p| p.selection_text,
        (false, true) => |p| p.text,
        (false, false) => |p| p.placeholder,
    }
}

/// The colour of an item's key: as its label on the highlight, quieter elsewhere.
fn key_swatch(lit: bool) -> Swatch {
    if lit {
        |p| p.selection_text
    } else {
        |p| p.placeholder
    }
}

/// Places a menu measured by layout so that it fits in the window ([`place`]), and moves it
/// there in this frame's layout too, so it is never drawn out of place.
fn fit_in_the_window(
    mut panels: Query<(Entity, &MenuPanel, &mut Node, &ComputedNode, &ChildOf)>,
    layers: Query<&ComputedNode, With<MenuLayer>>,
    children: Query<&Children>,
    mut transforms: Query<&mut UiGlobalTransform>,
) {
    for (panel, menu, mut node, computed, ChildOf(layer)) in &mut panels {
        let Ok(window) = layers.get(*layer).map(ComputedNode::size) else {
            continue;
        };
        let Ok(transform) = transforms.get(panel) else {
            continue;
        };
        let scale = computed.inverse_scale_factor().recip();
        let size = computed.size();
        let now = transform.translation - size / 2.0;
        let wanted = place(menu.beside, menu.side, size, window, EDGE * scale).round();
        let shift = wanted - now;
        if shift.length_squared() < 0.25 {
            continue;
        }
        let ui = wanted * computed.inverse_scale_factor();
        node.left = px(ui.x);
        node.top = px(ui.y);
        // Layout has run: move what it placed, the panel and all under it.
        let mut todo = vec![panel];
        while let Some(entity) = todo.pop() {
            if let Ok(mut transform) = transforms.get_mut(entity) {
                let mut affine = transform.affine();
                affine.translation += shift;
                *transform = affine.into();
            }
            todo.extend(children.get(entity).into_iter().flatten());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WINDOW: Vec2 = Vec2::new(800.0, 600.0);
    const SIZE: Vec2 = Vec2::new(200.0, 250.0);

    fn at(x: f32, y: f32) -> Rect {
        Rect::from_corners(Vec2::new(x, y), Vec2::new(x, y))
    }

    #[test]
    fn a_menu_goes_where_asked_flips_where_that_side_has_no_room_and_shifts_where_neither_has() {
        let place = |anchor, side, window| place(anchor, side, SIZE, window, EDGE);
        // Room below and right of the pointer.
        assert_eq!(
            place(at(10.0, 10.0), Side::Below, WINDOW),
            Vec2::new(10.0, 10.0)
        );
        // At the bottom right corner: above and left of it.
        assert_eq!(
            place(at(790.0, 590.0), Side::Below, WINDOW),
            Vec2::new(590.0, 340.0)
        );
        // Under a caret near the bottom: above the caret's top, not over its line.
        let caret = Rect::new(100.0, 560.0, 102.0, 584.0);
        assert_eq!(
            place(caret, Side::Below, WINDOW),
            Vec2::new(100.0, 560.0 - SIZE.y)
        );
        // Beside a bubble on the right: to its left, level with its top; with no room there,
        // to its right.
        let bubble = Rect::new(400.0, 100.0, 780.0, 160.0);
        assert_eq!(place(bubble, Side::Left, WINDOW), Vec2::new(200.0, 100.0));
        let wide = Rect::new(100.0, 100.0, 500.0, 160.0);
        assert_eq!(place(wide, Side::Left, WINDOW), Vec2::new(500.0, 100.0));
        // Neither side has room (a bubble across the window): shifted in from the right edge.
        let across = Rect::new(40.0, 100.0, 760.0, 160.0);
        assert_eq!(
            place(across, Side::Right, WINDOW),
            Vec2::new(WINDOW.x - EDGE - SIZE.x, 100.0)
        );
        // A window smaller than the menu: its top left corner, where the first items show.
        assert_eq!(
            place(at(50.0, 30.0), Side::Below, Vec2::new(100.0, 60.0)),
            Vec2::splat(EDGE)
        );
    }

    #[test]
    fn the_menu_keys_wrap_and_skip_items_that_cannot_act() {
        let items = conversation_items(false, true, true, false);
        let mut menu = ContextMenu::default();
        menu.open(
            MenuOwner::Conversation {
                message: None,
                link: None,
            },
            items,
            Anchor::FocusedMessage,
            None,
        );
        // 복사 cannot act: the first is 메시지 복사.
        assert_eq!(menu.highlighted(), Some(1));
        let mut walked = Vec::new();
        for key in [
            MenuKey::Next,
            MenuKey::Next,
            MenuKey::Next,
            MenuKey::Previous,
        ] {
            menu.key(key);
            walked.push(menu.highlighted().unwrap());
        }
        assert_eq!(walked, [2, 3, 1, 3]);
        assert_eq!(
            menu.key(MenuKey::Choose),
            MenuOutcome::Chosen(
                MenuCommand::FindInConversation,
                MenuOwner::Conversation {
                    message: None,
                    link: None,
                },
                None
            )
        );
        assert!(!menu.is_open());
    }
}
