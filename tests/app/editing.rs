//! The field edits as desktop fields do (GTK's entry, Qt's line edit): shortcuts, the
//! clipboard, selection, words and clusters, undo, history. Keys are delivered as the platform
//! reports them, modifiers as key events of their own, through the app's real systems.
//!
//! The system clipboard needs a display; here the test plays it ([`play_the_clipboard_in`]),
//! and answers the app's reads itself. The real clipboard, with another application on it, is
//! tested in `tests/window.rs`.

use crate::common;

use std::time::Duration;

use agent_chat::{
    input::{Field, MAX_INPUT_CHARS, clipboard::ClipboardText},
    theme::Palette,
    view::copy::{COPIED, COPY, CopiedNotice, CopyButton},
};
use bevy::{
    input::{ButtonState, keyboard::Key},
    prelude::*,
    text::{TextBackgroundColor, Underline},
    window::Ime,
};
use common::*;

/// The app with the test as the clipboard.
fn app() -> App {
    play_the_clipboard_in(headless_app())
}

fn letter(c: &str) -> Key {
    Key::Character(c.into())
}

const CTRL: &[KeyCode] = &[KeyCode::ControlLeft];
const SHIFT: &[KeyCode] = &[KeyCode::ShiftLeft];
const CTRL_SHIFT: &[KeyCode] = &[KeyCode::ControlLeft, KeyCode::ShiftLeft];

/// A key with no text of its own (an arrow, Home, Backspace), with `modifiers` held.
fn press(app: &mut App, modifiers: &[KeyCode], key_code: KeyCode) {
    let logical = match key_code {
        KeyCode::ArrowLeft => Key::ArrowLeft,
        KeyCode::ArrowRight => Key::ArrowRight,
        KeyCode::ArrowUp => Key::ArrowUp,
        KeyCode::ArrowDown => Key::ArrowDown,
        KeyCode::Home => Key::Home,
        KeyCode::End => Key::End,
        KeyCode::Backspace => Key::Backspace,
        KeyCode::Delete => Key::Delete,
        KeyCode::Insert => Key::Insert,
        _ => panic!("no logical key for {key_code:?} here"),
    };
    chord(app, modifiers, key_code, logical);
}

/// The field's text, caret (bytes) and selected text.
fn field(app: &mut App) -> (String, usize, Option<String>) {
    let input = input_entity(app);
    let line = app.world().get::<Field>(input).unwrap().line();
    (
        line.text().to_owned(),
        line.caret(),
        line.selected_text().map(str::to_owned),
    )
}

fn text(app: &mut App) -> String {
    field(app).0
}

/// Answers the app's read with `text`, and runs the frame that takes it.
fn clipboard_answers(app: &mut App, text: Option<&str>) {
    app.world_mut()
        .write_message(ClipboardText(text.map(str::to_owned)));
    app.update();
}

#[test]
fn shortcuts_never_type_their_letters_and_altgr_still_types() {
    let mut app = app();
    type_text(&mut app, "abc");
    for (modifiers, key_code, c) in [
        (CTRL, KeyCode::KeyK, "k"),
        (CTRL_SHIFT, KeyCode::KeyV, "V"),
        (&[KeyCode::AltLeft][..], KeyCode::KeyX, "x"),
        (&[KeyCode::SuperLeft][..], KeyCode::KeyE, "e"),
    ] {
        chord(&mut app, modifiers, key_code, letter(c));
        app.update();
        assert_eq!(text(&mut app), "abc", "{modifiers:?} + {c} types nothing");
    }
    // AltGr is the right Alt where the layout makes it a character key: AltGr+Q is @ on German.
    deliver(
        &mut app,
        key(KeyCode::AltRight, Key::AltGraph, ButtonState::Pressed),
    );
    tap(&mut app, KeyCode::KeyQ, letter("@"));
    deliver(
        &mut app,
        key(KeyCode::AltRight, Key::AltGraph, ButtonState::Released),
    );
    app.update();
    assert_eq!(text(&mut app), "abc@");
}

#[test]
fn ctrl_v_and_shift_insert_paste_at_the_caret_and_typing_after_them_waits_for_the_paste() {
    let mut app = app();
    type_text(&mut app, "[]");
    press(&mut app, &[], KeyCode::ArrowLeft);
    chord(&mut app, CTRL, KeyCode::KeyV, letter("v"));
    key_in(&mut app, "!");
    app.update();
    assert!(asked_to_read(&mut app), "Ctrl+V reads the clipboard");
    assert_eq!(
        text(&mut app),
        "[]",
        "no `v`, and the `!` waits for the paste"
    );
    clipboard_answers(&mut app, Some("붙여\r\n넣기"));
    assert_eq!(
        field(&mut app),
        ("[붙여\n넣기!]".to_owned(), "[붙여\n넣기!".len(), None),
        "pasted with its line break (CR LF as LF), then the key typed after Ctrl+V"
    );

    press(&mut app, SHIFT, KeyCode::Insert);
    app.update();
    assert!(asked_to_read(&mut app), "Shift+Insert reads the clipboard");
    clipboard_answers(&mut app, Some("🇰🇷"));
    assert_eq!(text(&mut app), "[붙여\n넣기!🇰🇷]");
}

#[test]
fn a_paste_replaces_the_selection_and_one_past_the_limit_is_cut_with_the_notice() {
    let mut app = app();
    type_text(&mut app, "hello world");
    press(&mut app, CTRL_SHIFT, KeyCode::ArrowLeft);
    chord(&mut app, CTRL, KeyCode::KeyV, letter("v"));
    app.update();
    clipboard_answers(&mut app, Some("세상"));
    assert_eq!(text(&mut app), "hello 세상");

    chord(&mut app, CTRL, KeyCode::KeyA, letter("a"));
    chord(&mut app, CTRL, KeyCode::KeyV, letter("v"));
    app.update();
    let full = usize::from(MAX_INPUT_CHARS);
    clipboard_answers(&mut app, Some(&"가".repeat(full + 10)));
    assert_eq!(text(&mut app), "가".repeat(full), "cut to the limit");
    assert_eq!(
        length_notice(&mut app),
        Display::Flex,
        "and the user is told"
    );
}

#[test]
fn a_clipboard_that_cannot_be_read_changes_nothing_and_typing_goes_on() {
    // The real clipboard, with no display to reach: every read fails.
    let mut app = headless_app();
    type_text(&mut app, "keep");
    chord(&mut app, CTRL, KeyCode::KeyV, letter("v"));
    key_in(&mut app, "!");
    for _ in 0..100 {
        app.update();
        if text(&mut app) != "keep" {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        text(&mut app),
        "keep!",
        "nothing pasted, and the key after Ctrl+V still lands"
    );
    chord(&mut app, CTRL, KeyCode::KeyV, letter("v"));
    key_in(&mut app, "?");
    for _ in 0..100 {
        app.update();
        if text(&mut app) != "keep!" {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(text(&mut app), "keep!?", "and so does the next paste's");
}

#[test]
fn a_clipboard_that_does_not_answer_holds_typing_for_at_most_a_second() {
    let mut app = app();
    on_a_lagging_clock(&mut app, Duration::from_millis(100));
    app.update();
    chord(&mut app, CTRL, KeyCode::KeyV, letter("v"));
    key_in(&mut app, "ok");
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(text(&mut app), "", "the keys wait for the paste a moment");
    for _ in 0..6 {
        app.update();
    }
    assert_eq!(
        text(&mut app),
        "ok",
        "then the paste is given up and they land"
    );
    clipboard_answers(&mut app, Some("late"));
    assert_eq!(text(&mut app), "ok", "an answer after that lands nowhere");
}

#[test]
fn a_paste_after_the_window_rested_waits_for_the_clipboard_and_lands() {
    let mut app = app();
    on_a_lagging_clock(&mut app, Duration::from_millis(16));
    app.update();

    // The window sleeps a minute; Ctrl+V wakes it, in the first frame after the rest, when
    // Bevy's `Time<Real>` still reads the rest's start. The clipboard answers two frames later.
    rest(&mut app, Duration::from_secs(60));
    chord(&mut app, CTRL, KeyCode::KeyV, letter("v"));
    key_in(&mut app, "ok");
    app.update();
    app.update();
    clipboard_answers(&mut app, Some("붙여 "));
    assert_eq!(
        text(&mut app),
        "붙여 ok",
        "the paste waited from when it was asked for, not from when the rest began"
    );
}

#[test]
fn copy_and_cut_put_the_selection_on_the_clipboard() {
    let mut app = app();
    type_text(&mut app, "안녕 세상");
    chord(&mut app, CTRL, KeyCode::KeyC, letter("c"));
    app.update();
    assert!(
        copied(&mut app).is_empty(),
        "nothing selected, nothing copied"
    );

    chord(&mut app, CTRL, KeyCode::KeyA, letter("a"));
    chord(&mut app, CTRL, KeyCode::KeyC, letter("c"));
    app.update();
    assert_eq!(copied(&mut app), ["안녕 세상"], "Ctrl+A, Ctrl+C");
    assert_eq!(text(&mut app), "안녕 세상", "a copy leaves the text");

    press(&mut app, &[], KeyCode::End);
    press(&mut app, CTRL_SHIFT, KeyCode::ArrowLeft);
    press(&mut app, CTRL, KeyCode::Insert);
    app.update();
    assert_eq!(copied(&mut app), ["세상"], "Ctrl+Insert copies too");

    chord(&mut app, CTRL, KeyCode::KeyX, letter("x"));
    app.update();
    assert_eq!(copied(&mut app), ["세상"]);
    assert_eq!(text(&mut app), "안녕 ", "Ctrl+X takes it out");

    press(&mut app, SHIFT, KeyCode::Home);
    press(&mut app, SHIFT, KeyCode::Delete);
    app.update();
    assert_eq!(copied(&mut app), ["안녕 "], "Shift+Delete cuts");
    assert_eq!(text(&mut app), "");
}

#[test]
fn shift_extends_the_selection_and_typing_deleting_and_the_ime_replace_it() {
    let mut app = app();
    type_text(&mut app, "Bevy로 만든 chat");
    press(&mut app, SHIFT, KeyCode::ArrowLeft);
    press(&mut app, SHIFT, KeyCode::ArrowLeft);
    app.update();
    assert_eq!(field(&mut app).2.as_deref(), Some("at"), "Shift+Left twice");
    press(&mut app, CTRL_SHIFT, KeyCode::ArrowLeft);
    app.update();
    assert_eq!(
        field(&mut app).2.as_deref(),
        Some("chat"),
        "Ctrl+Shift+Left"
    );
    press(&mut app, SHIFT, KeyCode::Home);
    app.update();
    assert_eq!(field(&mut app).2.as_deref(), Some("Bevy로 만든 chat"));
    press(&mut app, &[], KeyCode::ArrowRight);
    app.update();
    assert_eq!(
        (field(&mut app).1, field(&mut app).2),
        ("Bevy로 만든 chat".len(), None),
        "Right collapses the selection at its end"
    );
    press(&mut app, SHIFT, KeyCode::Home);
    press(&mut app, CTRL_SHIFT, KeyCode::ArrowRight);
    app.update();
    assert_eq!(
        field(&mut app).2.as_deref(),
        Some(" 만든 chat"),
        "Ctrl+Shift+Right moves the caret end of the selection"
    );

    key_in(&mut app, "z");
    app.update();
    assert_eq!(text(&mut app), "Bevy로z", "typing replaces it");
    press(&mut app, SHIFT, KeyCode::ArrowLeft);
    press(&mut app, &[], KeyCode::Backspace);
    app.update();
    assert_eq!(text(&mut app), "Bevy로", "Backspace deletes it");
    press(&mut app, SHIFT, KeyCode::Home);
    press(&mut app, &[], KeyCode::Delete);
    app.update();
    assert_eq!(text(&mut app), "", "so does Delete");

    type_text(&mut app, "ab");
    chord(&mut app, CTRL, KeyCode::KeyA, letter("a"));
    for ime in [
        Ime::Preedit {
            window: Entity::PLACEHOLDER,
            value: "한".into(),
            cursor: Some((3, 3)),
        },
        Ime::Commit {
            window: Entity::PLACEHOLDER,
            value: "한".into(),
        },
    ] {
        deliver(&mut app, ime);
    }
    app.update();
    assert_eq!(text(&mut app), "한", "IME text replaces it");
}

#[test]
fn the_defects_a_new_user_met_are_gone() {
    let mut app = app();
    type_text(&mut app, "안녕 세상");
    press(&mut app, CTRL, KeyCode::ArrowLeft);
    app.update();
    assert_eq!(
        field(&mut app).1,
        "안녕 ".len(),
        "Ctrl+Left stops before 세상"
    );
    press(&mut app, &[], KeyCode::Home);
    press(&mut app, CTRL, KeyCode::ArrowRight);
    app.update();
    assert_eq!(
        field(&mut app).1,
        "안녕".len(),
        "Ctrl+Right stops after 안녕"
    );

    // End then Backspace, read in one frame.
    press(&mut app, &[], KeyCode::End);
    press(&mut app, &[], KeyCode::Backspace);
    app.update();
    assert_eq!(text(&mut app), "안녕 세");

    press(&mut app, CTRL, KeyCode::Backspace);
    app.update();
    assert_eq!(text(&mut app), "안녕 ", "Ctrl+Backspace deletes the word");
    press(&mut app, &[], KeyCode::Home);
    press(&mut app, CTRL, KeyCode::Delete);
    app.update();
    assert_eq!(text(&mut app), " ", "Ctrl+Delete deletes the word after");

    for cluster in [
        "👨\u{200d}👩\u{200d}👧",
        "🇰🇷",
        "\u{1112}\u{1161}\u{11ab}",
        "e\u{301}",
    ] {
        chord(&mut app, CTRL, KeyCode::KeyA, letter("a"));
        key_in(&mut app, &format!("x{cluster}"));
        press(&mut app, &[], KeyCode::Backspace);
        app.update();
        assert_eq!(
            text(&mut app),
            "x",
            "Backspace after {cluster:?} takes all of it"
        );
        key_in(&mut app, cluster);
        press(&mut app, &[], KeyCode::ArrowLeft);
        press(&mut app, &[], KeyCode::ArrowLeft);
        press(&mut app, &[], KeyCode::Delete);
        app.update();
        assert_eq!(
            text(&mut app),
            cluster,
            "Left steps over it, Delete takes the x"
        );
    }
}

#[test]
fn undo_and_redo_step_through_words_and_a_submission_forgets_them() {
    let mut app = app();
    type_text(&mut app, "hello brave");
    type_text(&mut app, " world");
    press(&mut app, CTRL, KeyCode::Backspace);
    app.update();
    assert_eq!(text(&mut app), "hello brave ");
    let undo = |app: &mut App| {
        chord(app, CTRL, KeyCode::KeyZ, letter("z"));
        app.update();
        text(app)
    };
    assert_eq!(undo(&mut app), "hello brave world", "the word deletion");
    assert_eq!(undo(&mut app), "hello brave", "the last word typed");
    assert_eq!(undo(&mut app), "hello");
    chord(&mut app, CTRL_SHIFT, KeyCode::KeyZ, letter("Z"));
    app.update();
    assert_eq!(text(&mut app), "hello brave", "Ctrl+Shift+Z");
    chord(&mut app, CTRL, KeyCode::KeyY, letter("y"));
    app.update();
    assert_eq!(text(&mut app), "hello brave world", "Ctrl+Y");

    press_enter(&mut app);
    assert_eq!(undo(&mut app), "", "nothing to undo into after Enter");
}

#[test]
fn up_and_down_walk_the_lines_sent_and_keep_the_line_being_typed() {
    let mut app = app();
    for line in ["첫째", "  둘째  ", "   "] {
        type_text(&mut app, line);
        press_enter(&mut app);
    }
    type_text(&mut app, "쓰는 중");
    let walk = |app: &mut App, key_code| {
        press(app, &[], key_code);
        app.update();
        text(app)
    };
    assert_eq!(
        walk(&mut app, KeyCode::ArrowUp),
        "둘째",
        "as it was sent, blanks skipped"
    );
    assert_eq!(walk(&mut app, KeyCode::ArrowUp), "첫째");
    assert_eq!(walk(&mut app, KeyCode::ArrowUp), "첫째", "the first stays");
    assert_eq!(walk(&mut app, KeyCode::ArrowDown), "둘째");
    assert_eq!(
        walk(&mut app, KeyCode::ArrowDown),
        "쓰는 중",
        "back to the draft"
    );
    assert_eq!(walk(&mut app, KeyCode::ArrowDown), "쓰는 중");
}

#[test]
fn a_chord_within_one_frame_acts_as_the_chord() {
    let mut app = app();
    type_text(&mut app, "old");
    // Ctrl down, A, Ctrl up, then b: all before the next frame.
    chord(&mut app, CTRL, KeyCode::KeyA, letter("a"));
    key_in(&mut app, "b");
    app.update();
    assert_eq!(text(&mut app), "b", "Ctrl+A selected all, b replaced it");
}

/// The widget's text spans with their text, background, underline and text colour.
fn spans(app: &mut App) -> Vec<(String, Option<Color>, bool, Color)> {
    let inner = widget_line(app);
    let world = app.world();
    let colour =
        |world: &World, entity| world.get::<TextColor>(entity).map_or(Color::NONE, |c| c.0);
    let mut spans = vec![(
        world.get::<Text>(inner).unwrap().0.clone(),
        None,
        false,
        colour(world, inner),
    )];
    for &span in world.get::<Children>(inner).unwrap() {
        spans.push((
            world.get::<TextSpan>(span).unwrap().0.clone(),
            world.get::<TextBackgroundColor>(span).map(|c| c.0),
            world.get::<Underline>(span).is_some(),
            colour(world, span),
        ));
    }
    spans
}

#[test]
fn the_selection_is_drawn_behind_its_text_and_the_composition_underlined() {
    let mut app = app();
    type_text(&mut app, "안녕 세상");
    press(&mut app, &[], KeyCode::ArrowLeft);
    press(&mut app, CTRL_SHIFT, KeyCode::ArrowLeft);
    app.update();
    let fill = Some(Palette::DARK.selection);
    let shown = spans(&mut app);
    let text: String = shown.iter().map(|(text, ..)| text.as_str()).collect();
    assert_eq!(text.replace(['|', '}'], ""), "안녕 세상", "{shown:?}");
    let selected: String = shown
        .iter()
        .filter(|(_, background, ..)| *background == fill)
        .map(|(text, ..)| text.as_str())
        .collect();
    assert_eq!(selected, "세", "only the selection has the fill: {shown:?}");
    assert!(
        shown
            .iter()
            .filter(|(_, background, ..)| *background == fill)
            .all(|(.., colour)| *colour == Palette::DARK.selection_text),
        "selected text is drawn in the selection's text colour: {shown:?}"
    );

    press(&mut app, &[], KeyCode::End);
    deliver(
        &mut app,
        Ime::Preedit {
            window: Entity::PLACEHOLDER,
            value: "한".into(),
            cursor: Some((3, 3)),
        },
    );
    app.update();
    let shown = spans(&mut app);
    let underlined: String = shown
        .iter()
        .filter(|(_, _, underline, _)| *underline)
        .map(|(text, ..)| text.as_str())
        .collect();
    assert_eq!(underlined, "한", "the preedit is underlined: {shown:?}");
    assert!(shown.iter().all(|(_, background, ..)| background.is_none()));
}

/// The middle of each glyph of the field's line, in window pixels, in order.
fn glyph_middles(app: &mut App) -> Vec<Vec2> {
    let line = widget_line(app);
    let world = app.world();
    let layout = world.get::<bevy::text::TextLayoutInfo>(line).unwrap();
    let node = world.get::<ComputedNode>(line).unwrap();
    let transform = world.get::<bevy::ui::UiGlobalTransform>(line).unwrap();
    let top_left = transform.transform_point2(-node.size() / 2.0);
    layout
        .glyphs
        .iter()
        // Not the caret's.
        .filter(|glyph| glyph.section_index != 2)
        .map(|glyph| (top_left + glyph.position) * node.inverse_scale_factor())
        .collect()
}

#[test]
fn a_click_places_the_caret_a_drag_selects_and_a_double_click_takes_a_word() {
    let mut app = laid_out_app();
    let line = "abc 세상 hello";
    type_text(&mut app, line);
    app.update();
    let glyphs = glyph_middles(&mut app);
    assert_eq!(
        glyphs.len(),
        line.chars().count(),
        "one glyph a character here"
    );
    let right_of = |i: usize| glyphs[i] + Vec2::X * 2.0;

    mouse(&mut app, right_of(4), Some(ButtonState::Pressed));
    mouse(&mut app, right_of(4), Some(ButtonState::Released));
    assert_eq!(field(&mut app).1, "abc 세".len(), "the caret goes after 세");

    mouse(&mut app, right_of(1), Some(ButtonState::Pressed));
    mouse(&mut app, right_of(8), None);
    mouse(&mut app, right_of(8), Some(ButtonState::Released));
    assert_eq!(
        field(&mut app).2.as_deref(),
        Some("c 세상 he"),
        "a drag selects from the press to the pointer"
    );
    // The pointer moving on after the release selects nothing more.
    mouse(&mut app, right_of(11), None);
    assert_eq!(field(&mut app).2.as_deref(), Some("c 세상 he"));

    for _ in 0..2 {
        mouse(&mut app, glyphs[5], Some(ButtonState::Pressed));
        mouse(&mut app, glyphs[5], Some(ButtonState::Released));
    }
    assert_eq!(
        field(&mut app).2.as_deref(),
        Some("세상"),
        "a double-click takes the word"
    );
}

// Copying from the conversation.

/// The copy button, if any: the row it is beside, whether it shows, and what it says.
fn button(app: &mut App) -> Option<(Entity, bool, String)> {
    let world = app.world_mut();
    let (button, bubble) = world
        .query_filtered::<(Entity, &ChildOf), With<CopyButton>>()
        .iter(world)
        .map(|(button, parent)| (button, parent.parent()))
        .next()?;
    Some((
        world.get::<ChildOf>(bubble).unwrap().parent(),
        world.get::<InheritedVisibility>(button).unwrap().get(),
        world.get::<Text>(button).unwrap().0.clone(),
    ))
}

/// The copy button's place on screen.
fn button_rect(app: &mut App) -> Rect {
    let world = app.world_mut();
    let button = world
        .query_filtered::<Entity, With<CopyButton>>()
        .single(world)
        .unwrap();
    rect(app, button)
}

fn notice_shows(app: &mut App) -> bool {
    let notice = the::<CopiedNotice>(app);
    app.world().get::<Node>(notice).unwrap().display != Display::None
}

#[test]
fn a_rows_copy_button_shows_on_hover_and_copies_the_body_without_its_label() {
    let mut app = play_the_clipboard_in(laid_out_app());
    fix_pick(&mut app, &[2]);
    type_text(&mut app, "복사해 갈 줄");
    press_enter(&mut app);
    app.update();
    let rows = row_entities(app.world_mut());
    assert_eq!(rows.len(), 2);
    assert!(
        button(&mut app).is_none_or(|(_, shows, _)| !shows),
        "no button until a row is hovered"
    );

    let user_row = rect(&mut app, rows[0]).center();
    pointer(&mut app, user_row, None);
    assert_eq!(
        button(&mut app),
        Some((rows[0], true, COPY.into())),
        "beside the hovered row"
    );

    let at = button_rect(&mut app).center();
    pointer(&mut app, at, None);
    assert_eq!(
        button(&mut app).map(|(row, shows, _)| (row, shows)),
        Some((rows[0], true)),
        "still there with the pointer on it"
    );
    pointer(&mut app, at, Some(ButtonState::Pressed));
    pointer(&mut app, at, Some(ButtonState::Released));
    assert_eq!(copied(&mut app), ["복사해 갈 줄"], "the body, no `사용자:`");
    assert_eq!(button(&mut app).unwrap().2, COPIED);
    assert!(
        notice_shows(&mut app),
        "the copy is confirmed under the field"
    );

    let reply = logged(&app)[1].1.clone();
    let agent_row = rect(&mut app, rows[1]).center();
    pointer(&mut app, agent_row, None);
    assert_eq!(
        button(&mut app),
        Some((rows[1], true, COPY.into())),
        "the button follows the pointer"
    );
    let agent_bubble = app.world().get::<Children>(rows[1]).unwrap()[0];
    let (button_at, bubble) = (button_rect(&mut app), rect(&mut app, agent_bubble));
    assert!(
        button_at.max.x <= bubble.min.x && button_at.min.y >= bubble.min.y,
        "beside the right-aligned bubble, on its left: {button_at:?}, bubble {bubble:?}"
    );
    pointer(&mut app, Vec2::new(5.0, 500.0), None);
    assert!(
        !button(&mut app).unwrap().1,
        "gone when the pointer leaves the rows"
    );
    key_in(&mut app, "x");
    app.update();
    assert!(!notice_shows(&mut app), "the next key puts the notice away");

    // The keyboard: the newest reply.
    chord(&mut app, CTRL_SHIFT, KeyCode::KeyC, letter("C"));
    app.update();
    assert_eq!(
        copied(&mut app),
        [reply],
        "Ctrl+Shift+C copies the newest reply"
    );
    assert!(notice_shows(&mut app));
    assert_eq!(text(&mut app), "x", "and types nothing");
}
