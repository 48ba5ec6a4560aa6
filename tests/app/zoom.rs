//! Zoom: Ctrl+= / Ctrl+- / Ctrl+0 and Ctrl+wheel through the app's real systems, over real UI
//! and text layout, from a few messages to 100,000.

use crate::common;

use agent_chat::{
    chat::MessageLog,
    input::{ChatInput, Field},
    scroll::Item,
    view::{
        Conversation,
        copy::CopiedNotice,
        find::{FindField, Finder},
        selection::ConversationSelection,
        speech::Topic,
        zoom::{LEVELS, ZoomLevel, ZoomNotice},
    },
};
use bevy::{
    input::{
        keyboard::Key,
        mouse::{MouseScrollUnit, MouseWheel},
        touch::TouchPhase,
    },
    input_focus::InputFocus,
    prelude::*,
    ui::UiScale,
};
use common::*;

/// Taps `key_code` (typing `text`) with Ctrl held, and runs the frame.
fn ctrl(app: &mut App, key_code: KeyCode, text: &str) {
    tap_down(app, KeyCode::ControlLeft);
    tap(app, key_code, Key::Character(text.into()));
    tap_up(app, KeyCode::ControlLeft);
    app.update();
}

fn zoom_in(app: &mut App) {
    ctrl(app, KeyCode::Equal, "=");
}

fn zoom_out(app: &mut App) {
    ctrl(app, KeyCode::Minus, "-");
}

fn reset(app: &mut App) {
    ctrl(app, KeyCode::Digit0, "0");
}

fn scale(app: &App) -> f32 {
    app.world().resource::<UiScale>().0
}

/// What the zoom notice says, if it shows.
fn notice(app: &mut App) -> Option<String> {
    let notice = the::<ZoomNotice>(app);
    let world = app.world();
    (world.get::<Node>(notice).unwrap().display != Display::None)
        .then(|| world.get::<Text>(notice).unwrap().0.clone())
}

/// What screen readers are told of the last step: the live status line's label.
fn announced(app: &mut App) -> Vec<String> {
    said_about(app, Topic::Zoom)
        .into_iter()
        .filter_map(|(label, _)| label)
        .collect()
}

/// `notches` of the wheel in one frame, Ctrl held if `ctrl`.
fn wheel_with(app: &mut App, notches: &[f32], ctrl: bool) {
    if ctrl {
        tap_down(app, KeyCode::ControlLeft);
        app.update();
    }
    for &y in notches {
        app.world_mut().write_message(MouseWheel {
            unit: MouseScrollUnit::Line,
            x: 0.0,
            y,
            window: Entity::PLACEHOLDER,
            phase: TouchPhase::Moved,
        });
    }
    app.update();
    if ctrl {
        tap_up(app, KeyCode::ControlLeft);
        app.update();
    }
}

#[test]
fn ctrl_equals_minus_and_zero_step_through_the_levels_and_the_level_is_shown_and_said() {
    let mut app = headless_app();
    assert_eq!(scale(&app), 1.0);
    assert_eq!(notice(&mut app), None, "no notice before a step");

    for expected in [1.1, 1.25, 1.5] {
        zoom_in(&mut app);
        assert_eq!(scale(&app), expected);
    }
    assert_eq!(notice(&mut app).as_deref(), Some("150%"));
    // Three steps a frame apart: the first is said at once; the two after it came too soon after
    // for a screen reader to hear (`view/reader.rs`), and the level they settle on waits.
    assert_eq!(announced(&mut app), ["110%"], "the first step at once");
    after_the_gap(&mut app);
    app.update();
    assert_eq!(
        announced(&mut app),
        ["150%"],
        "then the level it settled on, once, as the copied notice is"
    );

    // Ctrl++ (Shift on the main row, or the keypad) zooms in too; Ctrl+- out; Ctrl+0 resets.
    tap_down(&mut app, KeyCode::ShiftLeft);
    ctrl(&mut app, KeyCode::Equal, "+");
    tap_up(&mut app, KeyCode::ShiftLeft);
    assert_eq!(scale(&app), 1.75);
    ctrl(&mut app, KeyCode::NumpadAdd, "+");
    assert_eq!(scale(&app), 2.0);
    ctrl(&mut app, KeyCode::NumpadSubtract, "-");
    zoom_out(&mut app);
    assert_eq!(scale(&app), 1.5);
    ctrl(&mut app, KeyCode::Digit0, "0");
    assert_eq!(scale(&app), 1.0);
    assert_eq!(notice(&mut app).as_deref(), Some("100%"));

    // Held at either end, and the notice still says where.
    for _ in 0..20 {
        zoom_in(&mut app);
    }
    assert_eq!(scale(&app), 3.0);
    assert_eq!(notice(&mut app).as_deref(), Some("300%"));
    for _ in 0..20 {
        zoom_out(&mut app);
    }
    assert_eq!(scale(&app), 0.5);
    assert_eq!(notice(&mut app).as_deref(), Some("50%"));

    // None of it typed a character; the next key that is not a zoom puts the notice away.
    assert_eq!(input_value(&mut app), "");
    type_text(&mut app, "=");
    assert_eq!(input_value(&mut app), "=", "without Ctrl, = types");
    assert_eq!(notice(&mut app), None);
    assert_eq!(announced(&mut app), Vec::<String>::new());
}

#[test]
fn ctrl_with_the_wheel_zooms_a_step_a_notch_and_scrolls_nothing_and_a_thousand_notches_stop_at_the_ends()
 {
    let mut app = laid_out_app();
    fill_log(&mut app, 200);
    finish_mounting(&mut app);
    wheel(&mut app, 30.0);
    finish_mounting(&mut app);
    let anchor = list(&mut app).anchor();

    wheel_with(&mut app, &[1.0], true);
    assert_eq!(scale(&app), 1.1, "a notch away from the user zooms in");
    wheel_with(&mut app, &[-1.0, -1.0], true);
    assert_eq!(scale(&app), 0.9);
    assert_eq!(
        list(&mut app).anchor().0,
        anchor.0,
        "the list did not scroll with Ctrl held"
    );

    // A high-resolution wheel's halves of a notch add up to a step.
    wheel_with(&mut app, &[0.5], true);
    assert_eq!(scale(&app), 0.9, "half a notch is no step yet");
    wheel_with(&mut app, &[0.5], true);
    assert_eq!(scale(&app), 1.0, "two halves are one");
    wheel_with(&mut app, &[-1.0], true);

    wheel_with(&mut app, &[1.0; 1000], true);
    assert_eq!(scale(&app), 3.0);
    wheel_with(&mut app, &[-1000.0], true);
    assert_eq!(scale(&app), 0.5);
    finish_mounting(&mut app);
    assert_rows_show_their_messages(&mut app, "after a thousand notches");

    // Without Ctrl the wheel scrolls again, and zooms nothing.
    wheel_with(&mut app, &[3.0], false);
    assert_eq!(scale(&app), 0.5);
    assert_ne!(list(&mut app).anchor().0, anchor.0, "it scrolled");
}

/// The rows that show inside the conversation: their places and their tops.
fn in_view(app: &mut App) -> Vec<(usize, f32, f32)> {
    let area = the::<Conversation>(app);
    let (top, bottom) = vertical_extent(app, area);
    let rows = row_entities(app.world_mut());
    let mut seen: Vec<(usize, f32, f32)> = rows
        .into_iter()
        .filter_map(|row| {
            let Item(place) = *app.world().get::<Item>(row)?;
            let (row_top, row_bottom) = vertical_extent(app, row);
            (row_bottom > top && row_top < bottom).then_some((place, row_top, row_bottom))
        })
        .collect();
    seen.sort_by_key(|&(place, ..)| place);
    seen
}

#[test]
fn the_message_at_the_top_stays_there_through_every_level_at_100_000_messages() {
    let mut app = laid_out_app();
    fill_log(&mut app, 100_000);
    finish_mounting(&mut app);
    // Somewhere in the middle, a row's top lined up with the view's, as a reader lines it up.
    list_mut(&mut app).scroll_to(2_000_000.0);
    finish_mounting(&mut app);
    let area = the::<Conversation>(&mut app);
    let area_top = vertical_extent(&mut app, area).0;
    let read = in_view(&mut app)[1].0;
    let mut guard = 0;
    while !in_view(&mut app)
        .first()
        .is_some_and(|&(place, top, _)| place == read && top <= area_top + 0.5)
    {
        wheel(&mut app, -0.2);
        guard += 1;
        assert!(guard < 100);
    }
    let height_at = |app: &mut App| {
        let (_, top, bottom) = in_view(app)[0];
        bottom - top
    };
    let at_100 = height_at(&mut app);
    // How far above the view the row starts (a wheel step is a fifth of a line), in logical
    // pixels, which the zoom scales.
    let into = area_top - in_view(&mut app)[0].1;
    let mut heights = vec![];
    for step in [zoom_in as fn(&mut App); 7]
        .into_iter()
        .chain([zoom_out as fn(&mut App); 12])
    {
        step(&mut app);
        finish_mounting(&mut app);
        let seen = in_view(&mut app);
        // The window's margin is zoomed too: the view's top moves.
        let area_top = vertical_extent(&mut app, area).0;
        let level = scale(&app);
        assert_eq!(
            seen[0].0, read,
            "at {level}: the message being read is still the first in view: {seen:?}"
        );
        // Its top no further above the view's than it was, at the new size, and not below it:
        // within two pixels, as layout puts nodes on whole physical pixels (at 125% a logical
        // pixel is not one) and the list reads its place back from where layout put them.
        let above = area_top - seen[0].1;
        assert!(
            (-1.0..=into * level + 2.0).contains(&above) && seen[0].2 > area_top,
            "at {level}: and still at the top ({area_top}, {into} px into it at 100%): {seen:?}"
        );
        heights.push((level, height_at(&mut app)));
        assert_eq!(app.world().resource::<MessageLog>().len(), 100_000);
    }
    // Text is laid out again at each size: the row is at least as tall as its level says (more
    // where its text now wraps), and no taller below 100%.
    for (level, height) in heights {
        let expected = at_100 * level;
        assert!(
            height >= expected * 0.9 - 2.0 && (level > 1.0 || height <= expected * 1.1 + 2.0),
            "at {level}: the row is {height} px tall, {at_100} at 100%"
        );
    }
}

#[test]
fn a_notice_shows_over_the_conversation_and_moves_neither_the_field_nor_a_row() {
    let mut app = laid_out_app();
    fill_log(&mut app, 40);
    finish_mounting(&mut app);
    let field = the::<ChatInput>(&mut app);
    let rows_before: Vec<Rect> = row_entities(app.world_mut())
        .into_iter()
        .map(|row| rect(&mut app, row))
        .collect();
    let field_before = rect(&mut app, field);

    let area = the::<Conversation>(&mut app);
    let area = rect(&mut app, area);
    // The copied notice (Ctrl+Shift+C copies the newest reply), then the zoom's, after a step
    // in and back to 100%.
    let copied = the::<CopiedNotice>(&mut app);
    let zoomed = the::<ZoomNotice>(&mut app);
    let show_copied = |app: &mut App| {
        tap_down(app, KeyCode::ShiftLeft);
        ctrl(app, KeyCode::KeyC, "C");
        tap_up(app, KeyCode::ShiftLeft);
    };
    let show_zoom = |app: &mut App| {
        zoom_in(app);
        ctrl(app, KeyCode::Digit0, "0");
    };
    for (notice, show) in [
        (copied, &show_copied as &dyn Fn(&mut App)),
        (zoomed, &show_zoom),
    ] {
        show(&mut app);
        app.update();
        assert_ne!(
            app.world().get::<Node>(notice).unwrap().display,
            Display::None,
            "the notice shows"
        );
        assert_eq!(
            rect(&mut app, field),
            field_before,
            "the field did not move"
        );
        let rows_after: Vec<Rect> = row_entities(app.world_mut())
            .into_iter()
            .map(|row| rect(&mut app, row))
            .collect();
        assert_eq!(rows_after, rows_before, "no row moved");
        let shown = rect(&mut app, notice);
        assert!(
            shown.width() > 0.0 && area.contains(shown.min) && area.contains(shown.max),
            "over the conversation: {shown:?} in {area:?}"
        );
    }
}

#[test]
fn at_200_percent_a_click_lands_on_the_word_under_the_pointer() {
    let mut app = laid_out_app();
    fill_log(&mut app, 6);
    finish_mounting(&mut app);
    for _ in 0..5 {
        zoom_in(&mut app);
    }
    assert_eq!(scale(&app), 2.0);
    finish_mounting(&mut app);
    // The newest user line's row, and its text node.
    let (place, row) = {
        let world = app.world_mut();
        let rows = row_entities(world);
        rows.into_iter()
            .filter_map(|row| Some((world.get::<Item>(row)?.0, row)))
            .filter(|&(place, _)| place % 2 == 0)
            .max_by_key(|&(place, _)| place)
            .unwrap()
    };
    let text = text_of_row(app.world(), row);
    let (right, top, bottom) = {
        let node = app.world().get::<ComputedNode>(text).unwrap();
        let transform = app
            .world()
            .get::<bevy::ui::UiGlobalTransform>(text)
            .unwrap();
        let top_left = transform.transform_point2(-node.size() / 2.0);
        (
            top_left.x + node.size().x,
            top_left.y,
            top_left.y + node.size().y,
        )
    };
    // The window's scale is 1: the pointer's pixels are layout's physical ones. A double click
    // a few pixels in from the line's end takes its last word, the line's number.
    let at = Vec2::new(right - 6.0, (top + bottom) / 2.0);
    for _ in 0..2 {
        pointer(&mut app, at, Some(bevy::input::ButtonState::Pressed));
        pointer(&mut app, at, Some(bevy::input::ButtonState::Released));
    }
    let world = app.world();
    let number = (place / 2 + 1).to_string();
    assert_eq!(
        highlighted(world, text_of_row(world, row)).as_deref(),
        Some(number.as_str()),
        "the word at the pointer in message {place}"
    );
}

#[test]
fn the_levels_are_the_browsers_from_50_to_300_percent_and_a_start_level_snaps_to_one() {
    assert_eq!(LEVELS.first(), Some(&0.5));
    assert_eq!(LEVELS.last(), Some(&3.0));
    assert!(LEVELS.is_sorted());
    assert_eq!(ZoomLevel::nearest(1.5).map(ZoomLevel::factor), Some(1.5));
    assert_eq!(ZoomLevel::nearest(1.3).map(ZoomLevel::factor), Some(1.25));
    assert_eq!(ZoomLevel::nearest(4.0), None);
    assert_eq!(ZoomLevel::nearest(f32::NAN), None);
    assert_eq!(ZoomLevel::default().percent(), "100%");
}

#[test]
fn at_200_percent_the_input_methods_list_opens_under_the_caret() {
    let mut app = laid_out_app();
    for _ in 0..5 {
        zoom_in(&mut app);
    }
    type_text(&mut app, "안녕하세요");
    app.update();
    let input = input_entity(&mut app);
    let caret = caret_bar(&mut app);
    let world = app.world_mut();
    // The window's scale is 1: its logical pixels are layout's physical ones.
    let field = {
        let node = world.get::<ComputedNode>(input).unwrap();
        let center = world
            .get::<bevy::ui::UiGlobalTransform>(input)
            .unwrap()
            .translation;
        Rect::from_center_size(center, node.size())
    };
    let caret_x = {
        let node = world.get::<ComputedNode>(caret).unwrap();
        let transform = world.get::<bevy::ui::UiGlobalTransform>(caret).unwrap();
        transform.transform_point2(-node.size() / 2.0).x
    };
    let at = world
        .query_filtered::<&Window, With<bevy::window::PrimaryWindow>>()
        .single(world)
        .unwrap()
        .ime_position;
    assert!(
        (at.x - caret_x).abs() < 2.0 && (field.max.y - 30.0..field.max.y).contains(&at.y),
        "at the caret ({caret_x}), at the bottom of the field ({field:?}): {at}"
    );
}

#[test]
fn a_step_keeps_the_composition_the_selection_the_matches_and_the_focus() {
    let mut app = laid_out_app();
    fill_log(&mut app, 40);
    finish_mounting(&mut app);

    // In the field, a line typed and a syllable being composed.
    type_text(&mut app, "안녕");
    deliver(
        &mut app,
        bevy::window::Ime::Preedit {
            window: Entity::PLACEHOLDER,
            value: "하".into(),
            cursor: Some((3, 3)),
        },
    );
    app.update();
    let line = |app: &mut App| {
        let field = the::<ChatInput>(app);
        let line = app.world().get::<Field>(field).unwrap().line();
        (line.text().to_owned(), line.caret(), line.is_composing())
    };
    let composing = line(&mut app);
    assert!(composing.2, "composing before the step");
    zoom_in(&mut app);
    assert_eq!(scale(&app), 1.1);
    assert_eq!(
        line(&mut app),
        composing,
        "the text, caret and composition as they were"
    );
    deliver(
        &mut app,
        bevy::window::Ime::Commit {
            window: Entity::PLACEHOLDER,
            value: "하".into(),
        },
    );
    app.update();
    assert_eq!(line(&mut app).0, "안녕하");

    // In the conversation, everything selected; then the find bar open on a query.
    tap(&mut app, KeyCode::Tab, Key::Tab);
    app.update();
    ctrl(&mut app, KeyCode::KeyA, "a");
    let selected = app.world().resource::<ConversationSelection>().clone();
    assert!(!selected.is_empty(), "Ctrl+A selected the conversation");
    ctrl(&mut app, KeyCode::KeyF, "f");
    key_in(&mut app, "메시지 1");
    for _ in 0..5 {
        app.update();
    }
    let finder = app.world().resource::<Finder>();
    let (count, current) = (finder.count(), finder.current());
    assert!(count > 1, "the query has matches");
    let focus = app.world().resource::<InputFocus>().get();
    assert_eq!(focus, Some(the::<FindField>(&mut app)));

    zoom_in(&mut app);
    zoom_out(&mut app);
    zoom_out(&mut app);
    assert_eq!(scale(&app), 1.0, "110% + 1 - 2 steps");
    for _ in 0..3 {
        app.update();
    }
    let finder = app.world().resource::<Finder>();
    assert_eq!(
        (finder.count(), finder.current()),
        (count, current),
        "the matches"
    );
    assert_eq!(
        app.world().resource::<ConversationSelection>(),
        &selected,
        "the selection"
    );
    assert_eq!(
        app.world().resource::<InputFocus>().get(),
        focus,
        "the focus"
    );
    assert_eq!(line(&mut app).0, "안녕하", "the field's text");
}

#[test]
fn a_100_by_60_window_at_300_percent_still_takes_lines_and_held_keys_and_clicks_break_nothing() {
    let mut app = laid_out_app_at(bevy::window::WindowResolution::new(100, 60));
    fill_log(&mut app, 10);
    // Zoom keys held down: the platform repeats them, dozens a frame.
    for _ in 0..4 {
        tap_down(&mut app, KeyCode::ControlLeft);
        for _ in 0..30 {
            tap(&mut app, KeyCode::Equal, Key::Character("=".into()));
        }
        tap_up(&mut app, KeyCode::ControlLeft);
        app.update();
    }
    assert_eq!(scale(&app), 3.0);
    // Clicks all over the window, and a drag held through a step.
    for y in (0..60).step_by(7) {
        for x in (0..100).step_by(9) {
            pointer(
                &mut app,
                Vec2::new(x as f32, y as f32),
                Some(bevy::input::ButtonState::Pressed),
            );
            pointer(
                &mut app,
                Vec2::new(x as f32, y as f32),
                Some(bevy::input::ButtonState::Released),
            );
        }
    }
    pointer(
        &mut app,
        Vec2::new(10.0, 10.0),
        Some(bevy::input::ButtonState::Pressed),
    );
    zoom_out(&mut app);
    pointer(&mut app, Vec2::new(90.0, 40.0), None);
    pointer(
        &mut app,
        Vec2::new(90.0, 40.0),
        Some(bevy::input::ButtonState::Released),
    );
    zoom_in(&mut app);
    for _ in 0..3 {
        app.update();
    }
    type_text(&mut app, "좁은 창");
    press_enter(&mut app);
    finish_mounting(&mut app);
    let log = app.world().resource::<MessageLog>();
    assert_eq!(log.len(), 12, "the line and its reply are logged");
    assert_eq!(logged(&app)[10].1, "좁은 창");
    assert_eq!(input_value(&mut app), "");
    assert_rows_show_their_messages(&mut app, "at 300% in 100x60");
}

#[test]
fn the_glyphs_of_sizes_left_behind_are_freed_and_every_drawn_glyph_keeps_its_atlas() {
    let mut app = laid_out_app();
    fill_log(&mut app, 60);
    finish_mounting(&mut app);
    let atlas_count = |app: &App| {
        app.world()
            .resource::<bevy::text::FontAtlasSet>()
            .values()
            .map(Vec::len)
            .sum::<usize>()
    };
    let at_start = atlas_count(&app);
    let mut most = 0;
    for step in [zoom_in as fn(&mut App); 7]
        .into_iter()
        .chain([zoom_out as fn(&mut App); 12])
        .chain([reset as fn(&mut App)])
    {
        step(&mut app);
        app.update();
        most = most.max(atlas_count(&app));
        // Every glyph laid out is drawn from an atlas that is still there.
        let world = app.world_mut();
        let kept: Vec<AssetId<Image>> = world
            .resource::<bevy::text::FontAtlasSet>()
            .values()
            .flatten()
            .map(|atlas| atlas.texture.id())
            .collect();
        let images = world.resource::<Assets<Image>>().ids().collect::<Vec<_>>();
        let mut texts = world.query::<&bevy::text::TextLayoutInfo>();
        for text in texts.iter(world) {
            for glyph in &text.glyphs {
                let texture = glyph.atlas_info.texture;
                assert!(
                    kept.contains(&texture) && images.contains(&texture),
                    "at {}: a glyph's atlas is gone",
                    world.resource::<UiScale>().0
                );
            }
        }
    }
    assert!(
        most <= at_start * 3,
        "the atlases of the sizes left behind went: at most {most}, {at_start} at the start"
    );
    assert!(atlas_count(&app) <= at_start * 2, "back at 100%");
}
