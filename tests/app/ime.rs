//! Typing Korean through an input method (IME), through the app's real systems.
//!
//! Each test delivers what Bevy's window backend delivers on X11 with ibus-hangul (read in
//! winit's source and seen under Xvfb): the IME takes a jamo key and reports the syllable being
//! composed as `Ime::Preedit`; the press of that key never reaches the app (the tests send its
//! release, which must not upset the order either). Starting
//! the next syllable, or a key the IME passes on (space, punctuation, Enter), first commits the
//! syllable: `Preedit("")` then `Commit(text)`, and then the passed-on key arrives as a key.
//! Where other platforms differ (they report keys the IME took, too), a test says so.

use crate::common;

use std::time::Duration;

use agent_chat::{
    chat::REPLIES,
    input::{COMMIT_PATIENCE, ChatInput, MAX_INPUT_CHARS},
};
use bevy::{
    input::keyboard::Key,
    prelude::*,
    ui::UiGlobalTransform,
    window::{Ime, PrimaryWindow, RequestRedraw, WindowFocused, WindowResolution},
};
use bevy_simple_text_input::{TextInputCursorPos, TextInputInactive, TextInputValue};
use common::*;

/// The IME shows `preedit` as the syllable being composed, caret at its end.
fn compose(app: &mut App, preedit: &str) {
    deliver(
        app,
        Ime::Preedit {
            window: Entity::PLACEHOLDER,
            value: preedit.to_owned(),
            cursor: Some((preedit.len(), preedit.len())),
        },
    );
    // The key the IME took: its press never reaches the app; its release may.
    tap_up(app, KeyCode::KeyA);
}

/// The IME commits `text`, ending the composition.
fn commit(app: &mut App, text: &str) {
    for ime in [
        Ime::Preedit {
            window: Entity::PLACEHOLDER,
            value: String::new(),
            cursor: None,
        },
        Ime::Commit {
            window: Entity::PLACEHOLDER,
            value: text.to_owned(),
        },
    ] {
        deliver(app, ime);
    }
}

/// What ibus-hangul (2-set) sends while `안녕하세요` is typed as `d k s s u d g k t p d y`, one
/// keystroke at a time; the last syllable is still being composed at the end.
fn type_annyeonghaseyo(app: &mut App, frame_per_key: bool) {
    let strokes: [(&str, &[&str]); 12] = [
        ("", &["ㅇ"]),
        ("", &["아"]),
        ("", &["안"]),
        ("안", &["ㄴ"]),
        ("", &["녀"]),
        ("", &["녕"]),
        ("녕", &["ㅎ"]),
        ("", &["하"]),
        ("하", &["ㅅ"]),
        ("", &["세"]),
        ("", &["셍"]),
        // ㅛ takes the ㅇ from 셍: 세 is committed and 요 composed.
        ("세", &["요"]),
    ];
    for (committed, preedits) in strokes {
        if !committed.is_empty() {
            commit(app, committed);
        }
        for preedit in preedits {
            compose(app, preedit);
        }
        if frame_per_key {
            app.update();
        }
    }
}

/// The field's value, its caret (in characters), and whether the widget is set aside for the
/// IME.
fn field(app: &mut App) -> (String, usize, bool) {
    let world = app.world_mut();
    let (value, caret, inactive) = world
        .query_filtered::<(&TextInputValue, &TextInputCursorPos, &TextInputInactive), With<ChatInput>>()
        .single(world)
        .unwrap();
    (value.0.clone(), caret.0, inactive.0)
}

/// Runs frames until nothing is held back any more (at most `n`).
fn settle(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

#[test]
fn a_sentence_typed_through_the_ime_arrives_as_a_user_row_byte_for_byte() {
    for frame_per_key in [true, false] {
        let mut app = headless_app();
        fix_pick(&mut app, &[2]);

        type_annyeonghaseyo(&mut app, frame_per_key);
        app.update();
        assert_eq!(
            field(&mut app),
            ("안녕하세요".to_owned(), 5, true),
            "the composing 요 stands at the caret, and the widget waits for the IME"
        );

        // Enter while composing: ibus-hangul commits 요, then passes Enter on.
        commit(&mut app, "요");
        tap(&mut app, KeyCode::Enter, Key::Enter);
        settle(&mut app, 3);

        let sent = "안녕하세요";
        assert_eq!(
            recorded(&app),
            (vec![sent.to_owned()], vec![REPLIES[2]]),
            "one line, the last syllable in it once (frame per key: {frame_per_key})"
        );
        assert_eq!(
            rows(&mut app)[0].text.as_bytes(),
            format!("사용자: {sent}").as_bytes()
        );
        assert_eq!(field(&mut app), (String::new(), 0, false));
    }
}

#[test]
fn keys_typed_right_after_a_syllable_land_after_it_even_within_one_frame() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0]);

    // "Bevy 0.19 좋아요! ok", delivered in a single frame: ASCII passes the IME as keys,
    // Hangul is composed, and each key after a syllable arrives right after its commit.
    key_in(&mut app, "Bevy 0.19 ");
    for preedit in ["ㅈ", "조", "좋"] {
        compose(&mut app, preedit);
    }
    commit(&mut app, "좋");
    compose(&mut app, "아");
    commit(&mut app, "아");
    compose(&mut app, "ㅇ");
    compose(&mut app, "요");
    commit(&mut app, "요");
    key_in(&mut app, "! ok");
    tap(&mut app, KeyCode::Enter, Key::Enter);
    settle(&mut app, 10);

    assert_eq!(recorded(&app).0, ["Bevy 0.19 좋아요! ok"]);
}

/// A frame at 60 Hz, for tests that count time.
const FRAME: Duration = Duration::from_millis(16);

/// Runs frames of [`FRAME`] each, on a lagging clock, until `span` has passed.
fn run_for(app: &mut App, span: Duration) {
    on_a_lagging_clock(app, FRAME);
    for _ in 0..span.div_duration_f32(FRAME).ceil() as usize + 1 {
        app.update();
    }
}

#[test]
fn backspace_while_composing_edits_the_syllable_and_then_the_committed_text() {
    let mut app = headless_app();
    commit(&mut app, "가");
    for preedit in ["ㅎ", "하", "한"] {
        compose(&mut app, preedit);
    }
    app.update();
    assert_eq!(field(&mut app), ("가한".to_owned(), 2, true));

    // The IME takes Backspace while it composes: one jamo off the syllable at a time.
    for (preedit, expected) in [("하", "가하"), ("ㅎ", "가ㅎ")] {
        compose(&mut app, preedit);
        app.update();
        assert_eq!(field(&mut app), (expected.to_owned(), 2, true));
    }
    // The last jamo goes: the composition is empty and over, 가 untouched.
    compose(&mut app, "");
    app.update();
    assert_eq!(field(&mut app), ("가".to_owned(), 1, false));

    // With nothing composed, the IME passes Backspace on, and the widget deletes 가: after a
    // moment, since a key right after a composition ends may come before its commit (below).
    tap(&mut app, KeyCode::Backspace, Key::Backspace);
    run_for(&mut app, COMMIT_PATIENCE);
    assert_eq!(field(&mut app), (String::new(), 0, false));
}

/// What ibus's X11 frontend sometimes sends when a space or an Enter ends a syllable (under
/// Xvfb, in 1 to 6 runs of 24): the composition ends, the key comes, and only then the commit.
fn overtake_commit(app: &mut App, syllable: &str, key_code: KeyCode, logical_key: Key) {
    for cursor in [Some((0, 0)), None] {
        deliver(
            app,
            Ime::Preedit {
                window: Entity::PLACEHOLDER,
                value: String::new(),
                cursor,
            },
        );
    }
    tap(app, key_code, logical_key);
    app.update();
    assert!(
        !app.world().resource::<Messages<RequestRedraw>>().is_empty(),
        "a frame is asked for while the key waits for the commit"
    );
    app.update();
    commit(app, syllable);
}

#[test]
fn a_key_that_comes_before_the_commit_of_the_syllable_it_ended_lands_after_it() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0]);
    type_annyeonghaseyo(&mut app, true);
    overtake_commit(&mut app, "요", KeyCode::Space, Key::Space);
    key_in(&mut app, "ok");
    app.update();
    assert_eq!(field(&mut app), ("안녕하세요 ok".to_owned(), 8, false));

    // Enter, too, sends the line with the syllable it ended.
    compose(&mut app, "ㄱ");
    compose(&mut app, "가");
    app.update();
    overtake_commit(&mut app, "가", KeyCode::Enter, Key::Enter);
    settle(&mut app, 3);
    assert_eq!(recorded(&app).0, ["안녕하세요 ok가"]);
    assert_eq!(field(&mut app), (String::new(), 0, false));
}

#[test]
fn a_line_typed_at_a_natural_rhythm_keeps_its_last_syllable_after_the_window_rested() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0]);
    on_a_lagging_clock(&mut app, FRAME);
    type_annyeonghaseyo(&mut app, true);

    // A word, a half-second pause in which the window sleeps between two blinks of the caret,
    // then Enter, which ibus passes on before it commits 요. The frame that handles the Enter
    // is the first after the rest, when Bevy's `Time<Real>` still reads the rest's start: had
    // the wait been stamped with that, the next frame would find it long spent and send the
    // line without 요.
    rest(&mut app, Duration::from_millis(500));
    overtake_commit(&mut app, "요", KeyCode::Enter, Key::Enter);
    settle(&mut app, 3);
    assert_eq!(
        recorded(&app).0,
        ["안녕하세요"],
        "the line goes whole, its last syllable with it"
    );
    assert_eq!(
        field(&mut app),
        (String::new(), 0, false),
        "none left behind"
    );
}

#[test]
fn keys_after_a_composition_dropped_without_a_commit_land_within_the_patience() {
    let mut app = headless_app();
    on_a_lagging_clock(&mut app, FRAME);
    commit(&mut app, "가");
    compose(&mut app, "ㄴ");
    app.update();

    // Backspace takes the last jamo, and the user goes on typing at once.
    compose(&mut app, "");
    key_in(&mut app, "ok");
    app.update();
    assert_eq!(
        field(&mut app).0,
        "가",
        "the keys wait a moment for a commit"
    );
    run_for(&mut app, COMMIT_PATIENCE);
    assert_eq!(
        field(&mut app),
        ("가ok".to_owned(), 3, false),
        "none comes, and they land in order"
    );

    // What the IME does next, other than commit, is not held behind: the keys came before it.
    compose(&mut app, "ㄴ");
    compose(&mut app, "");
    key_in(&mut app, "!");
    compose(&mut app, "ㄷ");
    app.update();
    assert_eq!(field(&mut app), ("가ok!ㄷ".to_owned(), 5, true));
}

#[test]
fn keys_a_platform_reports_while_the_ime_composes_change_nothing_twice() {
    let mut app = headless_app();
    fix_pick(&mut app, &[0]);
    commit(&mut app, "가");
    compose(&mut app, "ㄴ");
    app.update();

    // Some platforms report the keys they give the IME as keys too. While composing, none of
    // them may reach the widget: no second ㄴ, no deleted 가, no line sent half-composed.
    tap(&mut app, KeyCode::KeyS, Key::Character("ㄴ".into()));
    tap(&mut app, KeyCode::Backspace, Key::Backspace);
    tap(&mut app, KeyCode::Enter, Key::Enter);
    compose(&mut app, "나");
    app.update();
    assert_eq!(field(&mut app), ("가나".to_owned(), 2, true));
    assert_eq!(recorded(&app).0, Vec::<String>::new());

    commit(&mut app, "나");
    app.update();
    tap(&mut app, KeyCode::Enter, Key::Enter);
    app.update();
    assert_eq!(recorded(&app).0, ["가나"], "each character once");
}

#[test]
fn a_commit_lands_at_the_caret_in_the_middle_of_existing_text() {
    let mut app = headless_app();
    type_text(&mut app, "ab");
    tap(&mut app, KeyCode::ArrowLeft, Key::ArrowLeft);
    app.update();
    assert_eq!(field(&mut app), ("ab".to_owned(), 1, false));

    compose(&mut app, "ㄱ");
    app.update();
    assert_eq!(
        field(&mut app),
        ("aㄱb".to_owned(), 2, true),
        "preedit at the caret"
    );
    compose(&mut app, "가");
    commit(&mut app, "가");
    app.update();
    assert_eq!(
        field(&mut app),
        ("a가b".to_owned(), 2, false),
        "caret after 가"
    );

    type_text(&mut app, "c");
    assert_eq!(field(&mut app), ("a가cb".to_owned(), 3, false));
}

#[test]
fn a_commit_that_differs_from_the_preedit_replaces_it() {
    let mut app = headless_app();
    // d k s k: 안 is composed, then ㅏ takes its ㄴ for a new syllable: 아 is committed, 나
    // composed.
    for preedit in ["ㅇ", "아", "안"] {
        compose(&mut app, preedit);
    }
    commit(&mut app, "아");
    compose(&mut app, "나");
    settle(&mut app, 2);
    assert_eq!(field(&mut app), ("아나".to_owned(), 2, true));
}

#[test]
fn the_preedit_caret_the_ime_asks_for_is_kept() {
    let mut app = headless_app();
    type_text(&mut app, "x");
    // A caret between the two characters of the preedit (byte offset 3, after 한).
    deliver(
        &mut app,
        Ime::Preedit {
            window: Entity::PLACEHOLDER,
            value: "한국".to_owned(),
            cursor: Some((3, 3)),
        },
    );
    app.update();
    assert_eq!(field(&mut app), ("x한국".to_owned(), 2, true));

    // An offset that is not on a character boundary falls back to the end of the preedit.
    deliver(
        &mut app,
        Ime::Preedit {
            window: Entity::PLACEHOLDER,
            value: "한국".to_owned(),
            cursor: Some((1, 1)),
        },
    );
    app.update();
    assert_eq!(field(&mut app), ("x한국".to_owned(), 3, true));
}

#[test]
fn switching_the_ime_off_or_losing_focus_drops_the_composition_and_nothing_else() {
    let mut app = headless_app();
    deliver(
        &mut app,
        Ime::Enabled {
            window: Entity::PLACEHOLDER,
        },
    );
    type_text(&mut app, "ok ");
    compose(&mut app, "하");
    app.update();
    assert_eq!(field(&mut app), ("ok 하".to_owned(), 4, true));

    deliver(
        &mut app,
        Ime::Disabled {
            window: Entity::PLACEHOLDER,
        },
    );
    app.update();
    assert_eq!(field(&mut app), ("ok ".to_owned(), 3, false));
    type_text(&mut app, "go");
    assert_eq!(field(&mut app), ("ok go".to_owned(), 5, false));

    // Losing focus mid-composition drops it too, so the field never waits on an IME that has
    // gone elsewhere.
    compose(&mut app, "하");
    app.update();
    assert_eq!(field(&mut app), ("ok go하".to_owned(), 6, true));
    deliver(
        &mut app,
        WindowFocused {
            window: Entity::PLACEHOLDER,
            focused: false,
        },
    );
    app.update();
    assert_eq!(field(&mut app), ("ok go".to_owned(), 5, false));
}

#[test]
fn ime_text_past_the_length_limit_is_refused_with_the_notice() {
    let mut app = headless_app();
    let full = usize::from(MAX_INPUT_CHARS);
    commit(&mut app, &"a".repeat(full - 1));
    app.update();

    commit(&mut app, "안녕");
    app.update();
    let (value, caret, _) = field(&mut app);
    assert_eq!(value.chars().count(), full);
    assert!(
        value.ends_with('안'),
        "the first character fits, the second is refused"
    );
    assert_eq!(caret, full);
    assert_eq!(
        length_notice(&mut app),
        Display::Flex,
        "the user is told the field is full"
    );
}

/// Where the window tells the IME to open its candidate list, in logical pixels.
fn ime_position(app: &mut App) -> Vec2 {
    let world = app.world_mut();
    world
        .query_filtered::<&Window, With<PrimaryWindow>>()
        .single(world)
        .unwrap()
        .ime_position
}

#[test]
fn the_ime_is_allowed_and_its_candidate_list_opens_at_the_caret() {
    for scale in [1.0, 2.0] {
        let mut app =
            laid_out_app_at(WindowResolution::new(800, 600).with_scale_factor_override(scale));
        app.update();
        let input = input_entity(&mut app);
        let world = app.world_mut();
        let node = world.get::<ComputedNode>(input).unwrap();
        let center = world.get::<UiGlobalTransform>(input).unwrap().translation;
        // The field's rectangle in the window's logical pixels.
        let to_logical = node.inverse_scale_factor();
        let field = Rect::from_center_size(center * to_logical, node.size() * to_logical);
        let window = world
            .query_filtered::<&Window, With<PrimaryWindow>>()
            .single(world)
            .unwrap();

        assert!(
            window.ime_enabled,
            "IME allowed on the window (scale {scale})"
        );
        let at = window.ime_position;
        assert!(
            (field.min.x..field.min.x + 20.0).contains(&at.x)
                && (field.max.y - 20.0..field.max.y).contains(&at.y),
            "in the empty field, the list opens at the bottom-left of its text area \
             (scale {scale}): {at} vs field {field:?}"
        );

        // It follows the caret, so the list opens under the syllable being composed.
        let empty = at;
        type_text(&mut app, "안녕하세요 반갑습니다");
        app.update();
        let typed = ime_position(&mut app);
        assert!(
            typed.x > empty.x + 100.0 && (typed.y - empty.y).abs() < 1.0,
            "after the line typed, at its end (scale {scale}): {typed} vs {empty}"
        );
        tap(&mut app, KeyCode::Home, Key::Home);
        app.update();
        app.update();
        assert!(
            (ime_position(&mut app).x - empty.x).abs() < 4.0,
            "back at the start with the caret (scale {scale})"
        );

        // On the first of three lines, the list opens under that line, not under the field.
        tap(&mut app, KeyCode::End, Key::End);
        for _ in 0..2 {
            tap_down(&mut app, KeyCode::ShiftLeft);
            tap(&mut app, KeyCode::Enter, Key::Enter);
            tap_up(&mut app, KeyCode::ShiftLeft);
            key_in(&mut app, "줄");
        }
        app.update();
        app.update();
        let last_line = ime_position(&mut app);
        for _ in 0..2 {
            tap(&mut app, KeyCode::ArrowUp, Key::ArrowUp);
        }
        app.update();
        app.update();
        let first_line = ime_position(&mut app);
        let line = (last_line.y - first_line.y) / 2.0;
        assert!(
            (15.0..40.0).contains(&line) && (last_line.y - empty.y).abs() < 1.0,
            "two lines up, two lines higher (scale {scale}): {first_line} from {last_line}"
        );

        // Whatever turns it off (Bevy's own text input does, on a focus change), it is back on
        // by the end of the next frame.
        let world = app.world_mut();
        world
            .query_filtered::<&mut Window, With<PrimaryWindow>>()
            .single_mut(world)
            .unwrap()
            .ime_enabled = false;
        app.update();
        let world = app.world_mut();
        let window = world
            .query_filtered::<&Window, With<PrimaryWindow>>()
            .single(world)
            .unwrap();
        assert!(window.ime_enabled, "IME allowed again (scale {scale})");
    }
}
