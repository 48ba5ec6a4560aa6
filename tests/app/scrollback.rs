//! Scrolling back through a long conversation, with full UI layout (no GPU, no window): every
//! message since the start is reachable, in order, with rows mounted only for the view.

use crate::common;

use agent_chat::{
    chat::{MessageLog, RowClass},
    scroll::{Item, LINE, MIN_THUMB_LENGTH, OVERSCAN_STEP, Scrollbar},
    view::{Bubble, Conversation, MessageRow},
};
use bevy::{
    ecs::{change_detection::Tick, message::Messages},
    input::ButtonState,
    prelude::*,
    window::{
        PrimaryWindow, RequestRedraw, WindowResized, WindowResolution, WindowScaleFactorChanged,
    },
};
use common::*;

/// A row in view: its message's place in the log, and its top and bottom edges on screen in
/// physical pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Seen {
    index: usize,
    top: f32,
    bottom: f32,
}

/// The conversation area's top and bottom edges, in physical pixels.
fn area(app: &mut App) -> (f32, f32) {
    let area = the::<Conversation>(app);
    vertical_extent(app, area)
}

/// The rows that show at least one pixel inside the area, top to bottom.
///
/// Every mounted row is checked to show the message at its place, however rows were recycled.
fn in_view(app: &mut App) -> Vec<Seen> {
    assert_rows_show_their_messages(app, "in view");
    let (area_top, area_bottom) = area(app);
    let rows = row_entities(app.world_mut());
    rows.into_iter()
        .filter_map(|row| {
            let Item(index) = *app.world().get::<Item>(row)?;
            let (top, bottom) = vertical_extent(app, row);
            (bottom > area_top && top < area_bottom).then_some(Seen { index, top, bottom })
        })
        .collect()
}

/// Checks that the rows in view are consecutive messages, each below the one before.
fn assert_consecutive(seen: &[Seen], when: &str) {
    assert!(!seen.is_empty(), "{when}: some row is in view");
    for pair in seen.windows(2) {
        assert_eq!(
            pair[1].index,
            pair[0].index + 1,
            "{when}: no message left out between rows in view: {seen:?}"
        );
        assert!(
            pair[1].top > pair[0].bottom,
            "{when}: each row below the one before: {seen:?}"
        );
    }
}

/// `count` submissions of varied shape: short lines, lines that wrap at 800 px, lines with hard
/// breaks, so that the estimates of many rows are wrong until they are measured.
fn varied(count: usize) -> Vec<String> {
    (0..count)
        .map(|i| match i % 6 {
            1 => format!(
                "{i}: {}",
                "줄이 바뀌도록 길게 쓴 문장입니다 ".repeat(1 + i % 4)
            ),
            3 => format!("{i}: 첫째 줄\n둘째 줄\n셋째 줄"),
            5 => format!(
                "{i}: mixed 한국어 and English words, wrapping {}",
                "x".repeat(i % 90)
            ),
            _ => format!("짧은 말 {i}"),
        })
        .collect()
}

/// A laid-out app with `submissions` submissions (twice as many messages), in bursts, at the
/// newest message with its overscan complete.
fn app_with(submissions: &[String]) -> App {
    let mut app = laid_out_app();
    for burst in submissions.chunks(10_000) {
        write_submit_messages(&mut app, burst);
    }
    finish_mounting(&mut app);
    app
}

fn logged_count(app: &App) -> usize {
    app.world().resource::<MessageLog>().len()
}

#[test]
fn ctrl_home_brings_back_the_first_exchange_at_60_and_at_20_000_messages() {
    for messages in [60, 20_000] {
        let mut app = app_with(&numbered(messages / 2));
        press(&mut app, &[KeyCode::ControlLeft, KeyCode::Home]);

        let seen = in_view(&mut app);
        let (area_top, _) = area(&mut app);
        assert_consecutive(&seen, "after Ctrl+Home");
        assert_eq!(
            (seen[0].index, seen[1].index),
            (0, 1),
            "{messages}: the first exchange is in view"
        );
        assert!(
            (seen[0].top - area_top).abs() < 0.5,
            "{messages}: the first row at the top of the area ({} vs {area_top})",
            seen[0].top
        );
        assert_eq!(rows(&mut app)[0].text, "사용자: 메시지 0");
        let mounted = rows(&mut app).len();
        assert!(
            mounted <= most_rows_mounted(list(&mut app).view()),
            "{messages}: {mounted} rows mounted, for the view only"
        );

        press(&mut app, &[KeyCode::ControlLeft, KeyCode::End]);
        let seen = in_view(&mut app);
        let (_, area_bottom) = area(&mut app);
        let last = seen.last().unwrap();
        assert_eq!(last.index, messages - 1, "Ctrl+End: the newest row");
        assert!(last.bottom <= area_bottom + 0.5);
    }
}

#[test]
fn page_up_from_the_end_reaches_the_first_message_and_shows_every_one_on_the_way() {
    let mut app = app_with(&varied(150));
    let messages = logged_count(&app);
    let mut shown = vec![false; messages];
    let mut before = in_view(&mut app);
    assert_eq!(before.last().unwrap().index, messages - 1);
    for page in 0.. {
        assert!(page < messages, "PageUp never reached the first message");
        for seen in &before {
            shown[seen.index] = true;
        }
        let (area_top, _) = area(&mut app);
        if before[0].index == 0 && (before[0].top - area_top).abs() < 0.5 {
            break;
        }
        press(&mut app, &[KeyCode::PageUp]);
        let now = in_view(&mut app);
        assert_consecutive(&now, &format!("page {page}"));
        assert!(
            now.last().unwrap().index >= before[0].index,
            "page {page}: the new page reaches the old page's top row, no gap: {now:?} after {before:?}"
        );
        assert!(
            now[0].index < before[0].index || now[0].top > before[0].top,
            "page {page}: moved up"
        );
        before = now;
    }
    let missed: Vec<usize> = (0..messages).filter(|&i| !shown[i]).collect();
    assert!(missed.is_empty(), "never shown: {missed:?}");
}

/// Turns the wheel one notch at a time until `done`, checking every step: the rows in view are
/// consecutive, and a row in view before and after moved by exactly one line (or less, where
/// the conversation ends). Returns which messages were in view on the way.
fn wheel_through(
    app: &mut App,
    notch: f32,
    done: impl Fn(&[Seen], (f32, f32)) -> bool,
) -> Vec<bool> {
    let mut shown = vec![false; logged_count(app)];
    let conversation = the::<Conversation>(app);
    let to_logical = app
        .world()
        .get::<ComputedNode>(conversation)
        .unwrap()
        .inverse_scale_factor;
    let line = LINE / to_logical;
    let mut before = in_view(app);
    for step in 0.. {
        assert!(step < 20 * shown.len(), "the wheel never got there");
        for seen in &before {
            shown[seen.index] = true;
        }
        if done(&before, area(app)) {
            break;
        }
        wheel(app, notch);
        let now = in_view(app);
        assert_consecutive(&now, &format!("notch {step}"));
        let kept = now
            .iter()
            .find_map(|row| {
                before
                    .iter()
                    .find(|old| old.index == row.index)
                    .map(|old| (old, row))
            })
            .unwrap_or_else(|| {
                panic!("notch {step}: no row stayed in view: {before:?} -> {now:?}")
            });
        let moved = kept.1.top - kept.0.top;
        assert!(
            (moved.abs() - line).abs() < 1.0
                || (moved.abs() < line && moved.signum() == notch.signum()),
            "notch {step}: rows move one line ({line} px) per notch, row {} moved {moved}",
            kept.0.index
        );
        before = now;
    }
    shown
}

#[test]
fn the_wheel_moves_one_line_per_notch_through_every_message_both_ways() {
    let mut app = app_with(&varied(100));
    let messages = logged_count(&app);

    // Up from the end, through rows never laid out before: their real heights differ from
    // the estimates, and nothing jumps.
    let up = wheel_through(&mut app, 1.0, |seen, (top, _)| {
        seen[0].index == 0 && (seen[0].top - top).abs() < 0.5
    });
    assert!(up.iter().all(|&shown| shown), "every message on the way up");

    let down = wheel_through(&mut app, -1.0, |seen, (_, bottom)| {
        let last = seen.last().unwrap();
        last.index == messages - 1 && (last.bottom - bottom).abs() < 0.5
    });
    assert!(
        down.iter().all(|&shown| shown),
        "every message on the way down"
    );
}

#[test]
fn a_reader_keeps_their_place_until_a_submission_brings_the_newest_into_view_at_once() {
    let mut app = app_with(&numbered(10_000));
    let messages = logged_count(&app);
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::Home]);
    for _ in 0..3 {
        press(&mut app, &[KeyCode::PageDown]);
    }
    let reading = in_view(&mut app);
    assert!(reading[0].index > 10, "paged down into the old messages");
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(
        in_view(&mut app),
        reading,
        "no row moved while nothing happened"
    );

    write_submit_messages(&mut app, &["지금 보낸 말"]);
    let seen = in_view(&mut app);
    let (area_top, area_bottom) = area(&mut app);
    let newest = &seen[seen.len() - 2..];
    assert_eq!(
        (newest[0].index, newest[1].index),
        (messages, messages + 1),
        "the new exchange is in view in the frame it was submitted"
    );
    for row in newest {
        assert!(row.top >= area_top - 0.5 && row.bottom <= area_bottom + 0.5);
    }
}

/// Resizes the window to `width` by `height` physical pixels at `scale`, telling the camera as
/// winit would, and runs two frames: the one that lays out at the new size, and one more.
fn resize(app: &mut App, width: u32, height: u32, scale: f32) {
    let entity = the::<PrimaryWindow>(app);
    let mut window = app.world_mut().get_mut::<Window>(entity).unwrap();
    window.resolution = WindowResolution::new(width, height).with_scale_factor_override(scale);
    let (logical_width, logical_height) = (window.width(), window.height());
    app.world_mut().write_message(WindowResized {
        window: entity,
        width: logical_width,
        height: logical_height,
    });
    app.world_mut().write_message(WindowScaleFactorChanged {
        window: entity,
        scale_factor: f64::from(scale),
    });
    app.update();
    app.update();
}

#[test]
fn the_row_being_read_stays_at_the_top_through_resizes_and_scale_changes() {
    let mut app = app_with(&varied(300));
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::Home]);
    for _ in 0..12 {
        press(&mut app, &[KeyCode::PageDown]);
    }
    let read = in_view(&mut app)[1].index;
    // Put that row's top at the top of the view, as a reader lines up what they read.
    let mut guard = 0;
    while !in_view(&mut app)
        .first()
        .is_some_and(|seen| seen.index == read && seen.top <= area(&mut app).0 + 0.5)
    {
        wheel(&mut app, -0.2);
        guard += 1;
        assert!(guard < 100);
    }
    for (width, height, scale) in [
        (320, 480, 1.0),
        (3840, 2160, 1.0),
        (1280, 720, 2.0),
        (1920, 1080, 1.5),
        (800, 600, 1.0),
    ] {
        resize(&mut app, width, height, scale);
        let seen = in_view(&mut app);
        let (area_top, area_bottom) = area(&mut app);
        assert!(
            area_bottom < height as f32 && area_bottom > height as f32 - 100.0 * scale,
            "{width}x{height} at {scale}: the window took the new size ({area_bottom})"
        );
        assert_consecutive(&seen, &format!("{width}x{height} at {scale}"));
        assert_eq!(
            seen[0].index, read,
            "{width}x{height} at {scale}: the row being read is still the first in view"
        );
        assert!(
            seen[0].top <= area_top + 0.5 && seen[0].bottom > area_top,
            "{width}x{height} at {scale}: and still at the top: {seen:?} in {:?}, anchor {:?}",
            area(&mut app),
            list(&mut app).anchor()
        );
    }
}

#[test]
fn the_scrollbar_stands_for_the_whole_log_and_a_drag_passes_through_all_of_it() {
    let mut app = app_with(&numbered(10_000));
    let messages = logged_count(&app);
    app.update();
    let ((track_top, track_bottom), (thumb_top, thumb_bottom), shown) = scrollbar(&mut app);
    assert!(shown);
    let track_length = track_bottom - track_top;
    let view = list(&mut app).view();
    // One-line rows, whose estimates are their laid-out heights: the total is exact.
    let row = 1.2 * agent_chat::theme::FONT_SIZE + 16.0 + 8.0;
    let total = list(&mut app).heights().total();
    assert_eq!(
        total,
        messages as f64 * f64::from(row) - 8.0,
        "the whole log's height"
    );
    let expected = (track_length * view / total as f32).max(MIN_THUMB_LENGTH);
    assert!(
        ((thumb_bottom - thumb_top) - expected).abs() < 0.5,
        "the thumb's length is the view's share of the whole log ({} vs {expected})",
        thumb_bottom - thumb_top
    );
    assert!(
        (thumb_bottom - track_bottom).abs() < 0.5,
        "at the end, at the bottom"
    );

    // Drag from the bottom of the track to its top, in 40 steps, and back down.
    let track = the::<Scrollbar>(&mut app);
    let track_x = rect(&mut app, track).center().x;
    let grab = Vec2::new(track_x, (thumb_top + thumb_bottom) / 2.0);
    let travel = track_length - (thumb_bottom - thumb_top);
    mouse(&mut app, grab, Some(ButtonState::Pressed));
    let mut firsts = Vec::new();
    for step in (0..=40).rev().chain(1..=40) {
        let at = grab - Vec2::new(0.0, travel * (40 - step) as f32 / 40.0);
        mouse(&mut app, at, None);
        let seen = in_view(&mut app);
        assert_consecutive(&seen, &format!("drag step {step}"));
        firsts.push((step, seen[0].index));
        let expected = (messages as f32 - view / row) * step as f32 / 40.0;
        assert!(
            (seen[0].index as f32 - expected).abs() <= 2.0,
            "drag step {step}/40: the thumb's place is the view's place in the log: row {} for {expected}",
            seen[0].index
        );
    }
    mouse(&mut app, grab, Some(ButtonState::Released));
    assert!(
        firsts.iter().any(|&(_, first)| first == 0),
        "the drag reached the first message"
    );
    let (_, (_, thumb_bottom), _) = scrollbar(&mut app);
    assert!(
        (thumb_bottom - track_bottom).abs() < 0.5,
        "and back at the end"
    );
}

#[test]
fn a_drag_whose_last_move_and_release_come_in_one_frame_still_ends_where_the_pointer_did() {
    let mut app = app_with(&numbered(2_000));
    app.update();
    let ((track_top, _), (thumb_top, thumb_bottom), _) = scrollbar(&mut app);
    let track = the::<Scrollbar>(&mut app);
    let track_x = rect(&mut app, track).center().x;
    let grab = Vec2::new(track_x, (thumb_top + thumb_bottom) / 2.0);
    mouse(&mut app, grab, Some(ButtonState::Pressed));
    // A slow frame: the pointer's move to the top and the release arrive together.
    let top = Vec2::new(track_x, track_top - (grab.y - thumb_top));
    mouse(&mut app, top, Some(ButtonState::Released));
    finish_mounting(&mut app);
    assert_eq!(
        in_view(&mut app)[0].index,
        0,
        "the drag went all the way to the first message"
    );
}

#[test]
fn a_ctrl_home_chord_typed_within_one_frame_still_jumps_and_two_page_downs_are_two_pages() {
    let mut app = app_with(&numbered(200));
    let (area_top, _) = area(&mut app);
    // All four key events before the next frame, as `xdotool key ctrl+Home` sends them.
    tap_down(&mut app, KeyCode::ControlLeft);
    tap_down(&mut app, KeyCode::Home);
    tap_up(&mut app, KeyCode::Home);
    tap_up(&mut app, KeyCode::ControlLeft);
    app.update();
    let seen = in_view(&mut app);
    assert_eq!(seen[0].index, 0, "the chord went to the first message");
    assert!((seen[0].top - area_top).abs() < 0.5);

    // Home without Ctrl is the field's, not the conversation's.
    press(&mut app, &[KeyCode::PageDown]);
    let one_page = list(&mut app).offset();
    press(&mut app, &[KeyCode::Home]);
    assert_eq!(
        list(&mut app).offset(),
        one_page,
        "Home alone leaves the view"
    );

    for _ in 0..2 {
        tap_down(&mut app, KeyCode::PageDown);
        tap_up(&mut app, KeyCode::PageDown);
    }
    app.update();
    assert!(
        (list(&mut app).offset() - 3.0 * one_page).abs() < 1.0,
        "two PageDowns in one frame move two pages: {} after {one_page}",
        list(&mut app).offset()
    );
}

#[test]
fn a_jump_builds_the_rows_in_view_first_and_the_overscan_over_the_next_frames() {
    let mut app = app_with(&numbered(5_000));
    let settled = rows(&mut app).len();
    assert_eq!(settled, list(&mut app).wanted().len(), "settled at the end");

    tap_down(&mut app, KeyCode::ControlLeft);
    tap_down(&mut app, KeyCode::Home);
    app.update();
    let shown = in_view(&mut app).len();
    let mounted = rows(&mut app).len();
    assert!(
        mounted <= shown + 2 * OVERSCAN_STEP && mounted < settled,
        "the jump's frame builds the {shown} rows in view and a few more, not {mounted}"
    );
    let redraws = app.world().resource::<Messages<RequestRedraw>>();
    assert!(!redraws.is_empty(), "and asks for the next frame at once");

    for _ in 0..10 {
        app.update();
    }
    assert_eq!(
        rows(&mut app).len(),
        list(&mut app).wanted().len(),
        "a few frames later the overscan is complete"
    );
    assert_eq!(in_view(&mut app)[0].index, 0, "while the view never moved");
}

#[test]
fn a_jump_moves_a_row_to_a_message_with_the_same_text_without_writing_its_text_again() {
    let mut app = laid_out_app();
    // Replies in turn, so every reply is among the rows the jump lets go.
    fix_pick(&mut app, &[0, 1, 2, 3, 4]);
    write_submit_messages(&mut app, &numbered(2_000));
    finish_mounting(&mut app);
    let world = app.world_mut();
    let written: Vec<(Entity, Tick)> = row_entities(world)
        .into_iter()
        .map(|row| {
            let text = text_of_row(world, row);
            (
                text,
                world.entity(text).get_ref::<Text>().unwrap().last_changed(),
            )
        })
        .collect();

    tap_down(&mut app, KeyCode::ControlLeft);
    tap_down(&mut app, KeyCode::Home);
    app.update();
    let seen = in_view(&mut app);
    assert_eq!(seen[0].index, 0, "the jump reached the first message");
    let world = app.world_mut();
    let mut replies = 0;
    for row in row_entities(world) {
        let text = text_of_row(world, row);
        let untouched = written.iter().any(|&(before, tick)| {
            before == text && world.entity(text).get_ref::<Text>().unwrap().last_changed() == tick
        });
        if world.get::<RowClass>(row) == Some(&RowClass::AgentReply) {
            replies += 1;
            assert!(
                untouched,
                "a reply's row took a row that showed the same reply"
            );
        } else {
            assert!(!untouched, "a typed line's row got its own text");
        }
    }
    assert!(replies > 0, "replies among the rows in view");
}

/// The shape docs/runtime-flow.md gives a row: in the item column, or, before the anchor, in
/// the column's overhang; a bubble as its one child; the row's text as the bubble's first child.
#[test]
fn every_row_hangs_in_the_item_column_or_its_overhang_with_a_bubble_and_its_text_first() {
    let mut app = app_with(&varied(200));
    // Scrolled back into the log, so rows hang both above and below the anchor.
    wheel(&mut app, 30.0);
    finish_mounting(&mut app);
    let world = app.world_mut();
    let column = world
        .query_filtered::<Entity, With<agent_chat::scroll::ItemColumn>>()
        .single(world)
        .unwrap();
    let overhang = world
        .query_filtered::<Entity, With<agent_chat::scroll::Overhang>>()
        .single(world)
        .unwrap();
    let mut rows = world.query_filtered::<(Entity, &ChildOf, &Children), With<MessageRow>>();
    let (mut in_column, mut in_overhang) = (0, 0);
    for (row, ChildOf(parent), children) in rows.iter(world) {
        match *parent {
            p if p == column => in_column += 1,
            p if p == overhang => in_overhang += 1,
            other => panic!("row {row} hangs from {other}, not the item column or its overhang"),
        }
        let [bubble] = children[..] else {
            panic!("row {row} has one child, its bubble: {children:?}");
        };
        assert!(
            world.get::<Bubble>(bubble).is_some(),
            "row {row}'s child is a Bubble"
        );
        let text = world.get::<Children>(bubble).unwrap()[0];
        assert!(
            world
                .get::<Text>(text)
                .is_some_and(|text| text.0.contains(": ")),
            "row {row}'s bubble's first child is the row's text"
        );
    }
    assert!(
        in_column > 0 && in_overhang > 0,
        "rows in both: {in_column} in the column, {in_overhang} in the overhang"
    );
}
