//! Where a key goes: one table, by the target that has keyboard focus when the key comes. A
//! reader answers "what does Down do in the find bar?" here: [`route`] with
//! [`KeyTarget::FindBar`] (it does nothing; the find bar is one line).
//!
//! The keys themselves (which key is which action) are the keymap's: `input/keys.rs` for the
//! field's line, `input/keymap.rs` for the find bar, zoom and a menu. This module only says, per
//! target, which of those readings applies. It is data below every target, and knows none of
//! them: the keyboard's pass (`keyboard/typing.rs`), above the field and the view, carries the
//! answer out.

use bevy::input::keyboard::KeyboardInput;

use super::{
    ConversationInput,
    editor::Motion,
    keymap::{BarState, Find, MenuKey, Zoom, find_key, menu_key, zoom_key},
    keys::{self, Action, Modifiers},
};

/// What can have keyboard focus, as far as keys are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyTarget {
    /// The chat's own field, where lines are typed and sent.
    ChatField,
    /// The find bar's field, while the bar is open.
    FindBar,
    /// The conversation: focus on a message, or on the list (`view/focus.rs`).
    Conversation,
    /// An open context menu (`view/menu.rs`): it takes every key until it closes.
    Menu,
}

/// What a key does where it lands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Route {
    /// Nothing: the key means nothing where focus is (a key release, Down in the find bar).
    Ignore,
    /// Opens, walks or closes the find bar, wherever focus is.
    Find(Find),
    /// Zooms the whole window, wherever focus is.
    Zoom(Zoom),
    /// Passed on to the conversation, which walks, acts or scrolls (`view/focus.rs`).
    ToConversation(ConversationInput),
    /// Focus moves to this target, for the keys after this one.
    Focus(KeyTarget),
    /// Edits this target's line; focus goes there first if it is not there already.
    Edit(KeyTarget, Action),
    /// Opens this target's context menu, at its caret or beside its focused message.
    OpenMenu(KeyTarget),
    /// Walks, chooses from or closes the open menu.
    Menu(MenuKey),
}

/// Where `key` goes, pressed with `held` while `target` has focus and the find bar is open or
/// not (`bar_open`: Escape closes it then, wherever focus is).
pub(crate) fn route(
    key: &KeyboardInput,
    held: Modifiers,
    target: KeyTarget,
    bar_open: bool,
) -> Route {
    // An open menu is modal: its keys, and nothing else.
    if target == KeyTarget::Menu {
        return menu_key(key, held).map_or(Route::Ignore, Route::Menu);
    }
    let bar = match (target, bar_open) {
        (KeyTarget::FindBar, _) => BarState::Focused,
        (_, true) => BarState::Open,
        (_, false) => BarState::Closed,
    };
    if let Some(find) = find_key(key, held, bar) {
        return Route::Find(find);
    }
    if let Some(step) = zoom_key(key, held) {
        return Route::Zoom(step);
    }
    if keys::opens_menu(key, held) {
        return Route::OpenMenu(target);
    }
    match target {
        KeyTarget::ChatField => in_chat_field(key, held),
        KeyTarget::FindBar => in_find_bar(key, held),
        KeyTarget::Conversation => in_conversation(key, held),
        KeyTarget::Menu => Route::Ignore,
    }
}

/// Tab, Shift+Tab and F6 go to the conversation; the page keys scroll it, with focus staying
/// here; the rest edit the line (where Ctrl+Home and Ctrl+End scroll the conversation too while
/// the line is one: `input/edit.rs`).
fn in_chat_field(key: &KeyboardInput, held: Modifiers) -> Route {
    if keys::switches_focus(key, held) {
        Route::Focus(KeyTarget::Conversation)
    } else if let Some(scroll) = keys::scroll(key, held) {
        Route::ToConversation(ConversationInput::Scroll(scroll))
    } else {
        edit(KeyTarget::ChatField, keys::action(key, held))
    }
}

/// The find bar's line edits as the chat's does, but is one line: it sends nothing, breaks no
/// line and has no history or lines to walk.
fn in_find_bar(key: &KeyboardInput, held: Modifiers) -> Route {
    match keys::action(key, held) {
        Some(Action::Submit | Action::NewLine | Action::Move(Motion::Up | Motion::Down, _))
        | None => Route::Ignore,
        action => edit(KeyTarget::FindBar, action),
    }
}

/// Tab, Shift+Tab and F6 go back to the chat's field; keys that walk or act go to the
/// conversation; a typed character goes back to the chat's field, and types there.
fn in_conversation(key: &KeyboardInput, held: Modifiers) -> Route {
    if keys::switches_focus(key, held) {
        Route::Focus(KeyTarget::ChatField)
    } else if !keys::types(key, held) {
        keys::in_conversation(key, held).map_or(Route::Ignore, Route::ToConversation)
    } else {
        match keys::action(key, held) {
            Some(action) => Route::Edit(KeyTarget::ChatField, action),
            None => Route::Focus(KeyTarget::ChatField),
        }
    }
}

fn edit(target: KeyTarget, action: Option<Action>) -> Route {
    action.map_or(Route::Ignore, |action| Route::Edit(target, action))
}

#[cfg(test)]
mod tests {
    use bevy::{
        input::{ButtonState, keyboard::Key},
        prelude::*,
    };

    use super::*;
    use crate::input::Walk;

    fn press(key_code: KeyCode, logical_key: Key) -> KeyboardInput {
        KeyboardInput {
            key_code,
            logical_key,
            state: ButtonState::Pressed,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        }
    }

    fn plain(key_code: KeyCode, logical_key: Key, target: KeyTarget) -> Route {
        let bar_open = target == KeyTarget::FindBar;
        route(
            &press(key_code, logical_key),
            Modifiers::default(),
            target,
            bar_open,
        )
    }

    #[test]
    fn escape_closes_an_open_find_bar_wherever_focus_is() {
        use KeyTarget::*;
        let escape = |target, bar_open| {
            route(
                &press(KeyCode::Escape, Key::Escape),
                Modifiers::default(),
                target,
                bar_open,
            )
        };
        for target in [ChatField, FindBar, Conversation] {
            assert_eq!(
                escape(target, true),
                Route::Find(Find::Close),
                "in {target:?}"
            );
        }
        // With the bar closed, Escape is the exit key's (`chat::exit_on_escape`), not the
        // routing's.
        for target in [ChatField, Conversation] {
            assert_eq!(escape(target, false), Route::Ignore, "in {target:?}");
        }
    }

    #[test]
    fn down_walks_the_conversation_and_does_nothing_in_a_one_line_field() {
        use KeyTarget::*;
        let down = |target| plain(KeyCode::ArrowDown, Key::ArrowDown, target);
        assert_eq!(
            down(Conversation),
            Route::ToConversation(ConversationInput::Walk(Walk::Next))
        );
        // In the chat's field Down recalls a later line; in the find bar it means nothing.
        assert!(matches!(down(ChatField), Route::Edit(ChatField, _)));
        assert_eq!(down(FindBar), Route::Ignore);
    }

    #[test]
    fn tab_goes_between_the_field_and_the_conversation_and_a_letter_comes_back_to_type() {
        use KeyTarget::*;
        let tab = |target| plain(KeyCode::Tab, Key::Tab, target);
        assert_eq!(tab(ChatField), Route::Focus(Conversation));
        assert_eq!(tab(Conversation), Route::Focus(ChatField));
        let a = plain(KeyCode::KeyA, Key::Character("a".into()), Conversation);
        assert_eq!(a, Route::Edit(ChatField, Action::Type("a".into())));
    }

    /// An on-screen keyboard, a remapped key or a tool with a keymap of its own (wtype on
    /// Wayland) sends Enter and the arrows with some other physical code: they work by what
    /// they mean.
    #[test]
    fn named_keys_work_by_their_meaning_wherever_they_sit() {
        use KeyTarget::*;
        let elsewhere = |logical_key| plain(KeyCode::F24, logical_key, ChatField);
        assert_eq!(
            elsewhere(Key::Enter),
            Route::Edit(ChatField, Action::Submit)
        );
        assert!(matches!(
            elsewhere(Key::Backspace),
            Route::Edit(ChatField, Action::Delete(_))
        ));
        assert_eq!(
            plain(KeyCode::F24, Key::ArrowDown, Conversation),
            Route::ToConversation(ConversationInput::Walk(Walk::Next))
        );
        assert_eq!(
            plain(KeyCode::F24, Key::Escape, FindBar),
            Route::Find(Find::Close)
        );
        // A key that types goes by its place no more than it did: its text.
        assert_eq!(
            plain(KeyCode::F24, Key::Character("ㅎ".into()), ChatField),
            Route::Edit(ChatField, Action::Type("ㅎ".into()))
        );
        // Nor is it the named key whose place a keymap gave it (wtype's puts `s` on Backspace's
        // and `b` on Tab's): it types.
        for (place, text) in [
            (KeyCode::Backspace, "s"),
            (KeyCode::Tab, "b"),
            (KeyCode::Enter, "n"),
            (KeyCode::Escape, "q"),
            (KeyCode::ArrowDown, "j"),
        ] {
            for target in [ChatField, Conversation] {
                assert_eq!(
                    plain(place, Key::Character(text.into()), target),
                    Route::Edit(ChatField, Action::Type(text.into())),
                    "{text:?} on {place:?}'s place in {target:?}"
                );
            }
        }
    }

    /// wtype's keymap puts Control where another key sits: a modifier is known by its meaning.
    #[test]
    fn a_modifier_is_known_by_what_it_means_wherever_it_sits() {
        let mut held = Modifiers::default();
        held.note(&press(KeyCode::KeyQ, Key::Control));
        let a = route(
            &press(KeyCode::KeyA, Key::Character("a".into())),
            held,
            KeyTarget::ChatField,
            false,
        );
        assert_eq!(a, Route::Edit(KeyTarget::ChatField, Action::SelectAll));
    }

    #[test]
    fn the_zoom_keys_zoom_wherever_focus_is_and_type_nothing() {
        use KeyTarget::*;
        let mut ctrl = Modifiers::default();
        ctrl.note(&press(KeyCode::ControlLeft, Key::Control));
        let with_ctrl = |key_code, text: &str, target| {
            route(
                &press(key_code, Key::Character(text.into())),
                ctrl,
                target,
                false,
            )
        };
        let keys = [
            (KeyCode::Equal, "=", Zoom::In),
            (KeyCode::Equal, "+", Zoom::In),
            (KeyCode::NumpadAdd, "+", Zoom::In),
            (KeyCode::Minus, "-", Zoom::Out),
            (KeyCode::NumpadSubtract, "-", Zoom::Out),
            (KeyCode::Digit0, "0", Zoom::Reset),
        ];
        for target in [ChatField, FindBar, Conversation] {
            for (key_code, text, step) in keys {
                assert_eq!(
                    with_ctrl(key_code, text, target),
                    Route::Zoom(step),
                    "Ctrl+{text} ({key_code:?}) in {target:?}"
                );
            }
        }
        // Without Ctrl they type, as ever.
        assert_eq!(
            plain(KeyCode::Equal, Key::Character("=".into()), ChatField),
            Route::Edit(ChatField, Action::Type("=".into()))
        );
    }

    #[test]
    fn an_open_menu_takes_its_keys_and_nothing_else() {
        use KeyTarget::*;
        let in_menu = |key_code, logical_key| plain(key_code, logical_key, Menu);
        assert_eq!(
            in_menu(KeyCode::ArrowDown, Key::ArrowDown),
            Route::Menu(MenuKey::Next)
        );
        assert_eq!(
            in_menu(KeyCode::Escape, Key::Escape),
            Route::Menu(MenuKey::Close)
        );
        assert_eq!(
            in_menu(KeyCode::Space, Key::Space),
            Route::Menu(MenuKey::Choose)
        );
        // Typing, Tab and the find key do nothing while it is open.
        assert_eq!(
            in_menu(KeyCode::KeyA, Key::Character("a".into())),
            Route::Ignore
        );
        assert_eq!(in_menu(KeyCode::Tab, Key::Tab), Route::Ignore);
        assert_eq!(in_menu(KeyCode::F3, Key::F3), Route::Ignore);
        // The Menu key opens the menu of wherever focus is.
        for target in [ChatField, FindBar, Conversation] {
            assert_eq!(
                plain(KeyCode::ContextMenu, Key::ContextMenu, target),
                Route::OpenMenu(target)
            );
        }
    }

    #[test]
    fn enter_sends_from_the_chat_field_only() {
        use KeyTarget::*;
        let enter = |target| plain(KeyCode::Enter, Key::Enter, target);
        assert_eq!(enter(ChatField), Route::Edit(ChatField, Action::Submit));
        assert!(
            matches!(enter(FindBar), Route::Find(_)),
            "Enter in the find bar goes to the next match"
        );
    }
}
