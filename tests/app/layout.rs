//! Full UI layout without a GPU: Bevy's `DefaultPlugins` with the renderer's backends switched
//! off and no winit window, so node sizes and scroll offsets are computed as on screen.

use crate::common;

use agent_chat::{
    chat::MessageLog,
    scroll::{Item, Scrollbar},
    view::Conversation,
};
use bevy::{
    input::{ButtonState, keyboard::Key},
    prelude::*,
    text::TextLayoutInfo,
    window::WindowResolution,
};
use common::*;

/// The conversation area and its mounted rows, in order.
fn area_and_rows(app: &mut App) -> (Entity, Vec<Entity>) {
    let world = app.world_mut();
    let area = world
        .query_filtered::<Entity, With<Conversation>>()
        .single(world)
        .unwrap();
    (area, common::row_entities(world))
}

/// The bubble inside a row.
fn bubble(app: &App, row: Entity) -> Entity {
    app.world().get::<Children>(row).unwrap()[0]
}

fn size(app: &App, entity: Entity) -> Vec2 {
    app.world().get::<ComputedNode>(entity).unwrap().size
}

#[test]
fn the_newest_row_is_fully_visible_at_the_end_of_the_submitting_frame() {
    let mut app = laid_out_app();
    // Far more rows than fit in 600 px, all arriving in one frame.
    write_submit_messages(&mut app, &numbered(40));

    let (area, rows) = area_and_rows(&mut app);
    let world = app.world();
    let last = *rows.last().unwrap();
    assert_eq!(
        world.get::<Item>(last),
        Some(&Item(79)),
        "the last child is the newest message's row"
    );
    assert!(
        rows.len() < 80 && rows.len() <= common::most_rows_mounted(600.0),
        "rows for the view only, not for all 80 messages: {}",
        rows.len()
    );

    let (area_top, area_bottom) = vertical_extent(&mut app, area);
    let (first_top, _) = vertical_extent(&mut app, rows[0]);
    let (last_top, last_bottom) = vertical_extent(&mut app, last);
    assert!(
        list(&mut app).offset() > 0.0,
        "the test needs more rows than the area shows"
    );
    assert!(
        last_top >= area_top - 0.5 && last_bottom <= area_bottom + 0.5,
        "the newest row ({last_top}..{last_bottom}) lies inside the area ({area_top}..{area_bottom})"
    );
    assert!(
        first_top < area_top,
        "the oldest mounted row ({first_top}) is out of view above the area ({area_top})"
    );
}

#[test]
fn long_words_and_urls_wrap_inside_a_bubble_of_at_most_three_quarters_width() {
    let mut app = laid_out_app();
    let url = format!("https://example.com/{}", "a1b2c3".repeat(80));
    let word = "가".repeat(300);
    write_submit_messages(&mut app, &[&url, &word]);

    let (area, rows) = area_and_rows(&mut app);
    let area_width = size(&app, area).x;
    for row in [rows[0], rows[2]] {
        let bubble_size = size(&app, bubble(&app, row));
        assert!(
            bubble_size.x <= area_width * 0.75 + 0.5,
            "a bubble is at most 75% of the area ({bubble_size} in {area_width})"
        );
        assert!(
            bubble_size.y > 3.0 * agent_chat::theme::FONT_SIZE,
            "the unbreakable text wrapped onto several lines ({bubble_size})"
        );
        assert!(
            size(&app, row).x <= area_width + 0.5,
            "the row stays inside the area"
        );
    }
}

#[test]
fn a_fifty_line_row_grows_and_the_conversation_still_scrolls_to_its_end() {
    let mut app = laid_out_app();
    let lines: Vec<String> = (1..=50).map(|i| format!("{i}번째 줄")).collect();
    write_submit_messages(&mut app, &[&lines.join("\n")]);

    let (area, rows) = area_and_rows(&mut app);
    let tall = size(&app, bubble(&app, rows[0])).y;
    assert!(
        tall >= 50.0 * agent_chat::theme::FONT_SIZE,
        "fifty lines are fifty lines tall ({tall})"
    );
    let (area_top, area_bottom) = vertical_extent(&mut app, area);
    let (last_top, last_bottom) = vertical_extent(&mut app, rows[1]);
    assert!(
        last_top >= area_top - 0.5 && last_bottom <= area_bottom + 0.5,
        "the reply after the tall row is in view ({last_top}..{last_bottom} in {area_top}..{area_bottom})"
    );
}

#[test]
fn a_bubble_is_exactly_as_tall_as_its_wrapped_text() {
    let mut app = laid_out_app();
    let url = format!("https://example.com/{}", "abc123".repeat(60));
    write_submit_messages(&mut app, &[&url, "짧은 말"]);

    let (_, rows) = area_and_rows(&mut app);
    for row in rows {
        let bubble = bubble(&app, row);
        let text = app.world().get::<Children>(bubble).unwrap()[0];
        let wrapped = app.world().get::<TextLayoutInfo>(text).unwrap().size.y;
        let padding = app.world().get::<ComputedNode>(bubble).unwrap().padding;
        assert!(
            (size(&app, bubble).y - (wrapped + padding.min_inset.y + padding.max_inset.y)).abs()
                < 1.0,
            "no blank lines below the text: bubble {} for text {wrapped}",
            size(&app, bubble)
        );
    }
}

#[test]
fn zero_frames_pass_between_the_widgets_enter_and_the_newest_row_in_view() {
    let mut app = laid_out_app();
    write_submit_messages(&mut app, &["이전 메시지"; 30]);
    common::type_text(&mut app, "지금 보낸 말");
    let before = app.world().resource::<MessageLog>().len();

    // The frame in which the widget reads Enter and emits its submit message.
    common::tap(&mut app, KeyCode::Enter, Key::Enter);
    app.update();

    let (area, rows) = area_and_rows(&mut app);
    let new = &rows[rows.len() - 2..];
    assert_eq!(
        new.iter()
            .map(|&row| *app.world().get::<Item>(row).unwrap())
            .collect::<Vec<_>>(),
        [Item(before), Item(before + 1)],
        "both rows exist at the end of that frame"
    );
    let (area_top, area_bottom) = vertical_extent(&mut app, area);
    for row in new {
        let (top, bottom) = vertical_extent(&mut app, *row);
        assert!(
            top >= area_top - 0.5 && bottom <= area_bottom + 0.5,
            "and are in view ({top}..{bottom} in {area_top}..{area_bottom}): 0 frames of latency"
        );
    }
}

#[test]
fn the_view_follows_each_submission_but_stays_where_the_user_scrolled_in_between() {
    let mut app = laid_out_app();
    write_submit_messages(&mut app, &numbered(40));
    let end = offset(&mut app);
    assert!(end > 0.0, "enough rows to scroll");

    wheel(&mut app, 3.0);
    let read_up = offset(&mut app);
    assert!(
        (end - read_up - 3.0 * f64::from(agent_chat::scroll::LINE)).abs() < 1.0,
        "three notches up from the end move three lines ({end} -> {read_up})"
    );
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(offset(&mut app), read_up, "no jumping back on its own");

    wheel(&mut app, -1.0);
    assert!(offset(&mut app) > read_up, "and down again");

    press(&mut app, &[KeyCode::PageUp]);
    let paged = offset(&mut app);
    assert!(
        paged < read_up - 100.0,
        "PageUp moves about a page ({read_up} -> {paged})"
    );
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::Home]);
    assert_eq!(offset(&mut app), 0.0, "Ctrl+Home goes to the oldest row");
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::End]);
    assert_eq!(offset(&mut app), end, "Ctrl+End to the newest");

    wheel(&mut app, 5.0);
    write_submit_messages(&mut app, &["새 메시지"]);
    let (area, rows) = area_and_rows(&mut app);
    let (area_top, area_bottom) = vertical_extent(&mut app, area);
    let (top, bottom) = vertical_extent(&mut app, *rows.last().unwrap());
    assert!(
        top >= area_top - 0.5 && bottom <= area_bottom + 0.5,
        "a submission brings the newest row back into view"
    );
}

#[test]
fn sides_borders_and_widths_hold_from_320_px_to_4k_and_at_hidpi_scales() {
    for (width, height, scale) in [
        (320, 480, 1.0),
        (1280, 720, 1.0),
        (3840, 2160, 1.0),
        (1920, 1080, 1.5),
        (2560, 1440, 2.0),
    ] {
        let size = format!("{width}x{height} at scale {scale}");
        let mut app = common::laid_out_app_at(
            WindowResolution::new(width, height).with_scale_factor_override(scale),
        );
        let long = "긴 문장이 창의 너비를 넘어서 여러 줄로 감기는지 봅니다 ".repeat(8);
        write_submit_messages(&mut app, &[&long]);

        let (area, rows) = area_and_rows(&mut app);
        let area = rect(&mut app, area);
        let (area_left, area_right) = (area.min.x, area.max.x);
        for (row, user) in [(rows[0], true), (rows[1], false)] {
            let bubble = bubble(&app, row);
            let node = *app.world().get::<ComputedNode>(bubble).unwrap();
            let extent = rect(&mut app, bubble);
            let (left, right) = (extent.min.x, extent.max.x);
            let border = node.border;
            let expected = 4.0 * scale;
            if user {
                assert!(
                    (left - area_left).abs() < 1.0,
                    "{size}: user bubble at the left"
                );
                assert_eq!(
                    (border.min_inset.x, border.max_inset.x),
                    (expected, 0.0),
                    "{size}: user border on the left only, scaled"
                );
            } else {
                assert!(
                    (right - area_right).abs() < 1.0,
                    "{size}: agent bubble at the right"
                );
                assert_eq!(
                    (border.min_inset.x, border.max_inset.x),
                    (0.0, expected),
                    "{size}: agent border on the right only, scaled"
                );
            }
            assert_eq!((border.min_inset.y, border.max_inset.y), (0.0, 0.0));
            assert!(
                node.size.x <= area.width() * 0.75 + 1.0,
                "{size}: a bubble is at most 75% of the area"
            );
        }
    }
}

#[test]
fn the_scrollbar_shows_where_the_view_is_once_there_is_more_than_fits() {
    let mut app = laid_out_app();
    write_submit_messages(&mut app, &numbered(2));
    app.update();
    let (_, _, shown) = scrollbar(&mut app);
    assert!(!shown, "hidden while every row fits");

    write_submit_messages(&mut app, &numbered(40));
    app.update();
    let ((track_top, track_bottom), (thumb_top, thumb_bottom), shown) = scrollbar(&mut app);
    assert!(shown, "shown once the rows overflow");
    let (area, _) = area_and_rows(&mut app);
    let (area_top, area_bottom) = vertical_extent(&mut app, area);
    assert!(
        (track_top - area_top).abs() < 1.0 && (track_bottom - area_bottom).abs() < 1.0,
        "the track runs the height of the conversation"
    );
    let thumb = thumb_bottom - thumb_top;
    assert!(
        thumb < (track_bottom - track_top) / 2.0 && thumb >= 24.0,
        "the thumb is as long as the visible share, not less than its minimum ({thumb} px)"
    );
    assert!(
        (thumb_bottom - track_bottom).abs() < 1.0,
        "at the newest row, the thumb is at the bottom"
    );

    press(&mut app, &[KeyCode::ControlLeft, KeyCode::Home]);
    let (_, (thumb_top, _), _) = scrollbar(&mut app);
    assert!(
        (thumb_top - track_top).abs() < 1.0,
        "at the oldest row, at the top"
    );
}

#[test]
fn the_scrollbar_sits_in_the_margin_and_takes_no_width_from_the_rows() {
    let mut app = laid_out_app();
    write_submit_messages(&mut app, &numbered(40));
    app.update();
    let (track, area) = (the::<Scrollbar>(&mut app), the::<Conversation>(&mut app));
    let (track, area) = (rect(&mut app, track), rect(&mut app, area));
    let (track_left, track_right, area_right) = (track.min.x, track.max.x, area.max.x);
    assert!(
        track_left >= area_right && track_right <= 800.0,
        "between the area ({area_right}) and the window's edge: {track_left}..{track_right}"
    );
    assert!(
        (area_right - (800.0 - agent_chat::theme::MARGIN)).abs() < 0.5,
        "the area keeps its full width"
    );
}

#[test]
fn dragging_the_thumb_scrolls_and_a_click_on_the_track_pages() {
    let mut app = laid_out_app();
    write_submit_messages(&mut app, &numbered(40));
    app.update();
    let ((track_top, track_bottom), (thumb_top, thumb_bottom), _) = scrollbar(&mut app);
    let end = offset(&mut app);
    let track = the::<Scrollbar>(&mut app);
    let track_x = rect(&mut app, track).center().x;

    // A press beside the scrollbar moves nothing.
    mouse(
        &mut app,
        Vec2::new(track_x - 40.0, track_top + 10.0),
        Some(ButtonState::Pressed),
    );
    mouse(
        &mut app,
        Vec2::new(track_x - 40.0, track_top + 10.0),
        Some(ButtonState::Released),
    );
    assert_eq!(offset(&mut app), end, "a press off the scrollbar");

    // Grab the thumb at its middle and drag it up by half its travel.
    let grab = Vec2::new(track_x, (thumb_top + thumb_bottom) / 2.0);
    let travel = (track_bottom - track_top) - (thumb_bottom - thumb_top);
    mouse(&mut app, grab, Some(ButtonState::Pressed));
    mouse(&mut app, grab - Vec2::new(0.0, travel / 2.0), None);
    let halfway = offset(&mut app);
    assert!(
        halfway < end * 0.7 && halfway > end * 0.3,
        "half the travel up is about half the content up: {halfway} of {end}"
    );
    // Further than the track goes: at the oldest row, and the thumb at the top.
    mouse(&mut app, grab - Vec2::new(0.0, 2.0 * travel), None);
    mouse(
        &mut app,
        grab - Vec2::new(0.0, 2.0 * travel),
        Some(ButtonState::Released),
    );
    assert_eq!(offset(&mut app), 0.0, "dragged to the top");
    let (_, (thumb_top, thumb_bottom), _) = scrollbar(&mut app);
    assert!(
        (thumb_top - track_top).abs() < 1.0,
        "the thumb follows to the top"
    );
    // Released: moving the pointer no longer scrolls.
    mouse(&mut app, grab, None);
    assert_eq!(offset(&mut app), 0.0, "no drag after the release");

    // A click on the track below the thumb pages down by the area's height.
    let below = Vec2::new(track_x, (thumb_bottom + track_bottom) / 2.0);
    mouse(&mut app, below, Some(ButtonState::Pressed));
    mouse(&mut app, below, Some(ButtonState::Released));
    let page = track_bottom - track_top;
    assert!(
        (offset(&mut app) - f64::from(page)).abs() < 1.0,
        "one page down: {} for a {page} px area",
        offset(&mut app)
    );
}

/// Where the field draws its caret and where its line shows, in physical pixels: the caret
/// bar's left and right edges, the viewport's, and the viewport's scroll.
fn caret_in_field(app: &mut App) -> (f32, f32, f32, f32, f32) {
    let line = widget_line(app);
    let bar = caret_bar(app);
    let world = app.world_mut();
    let viewport = world.get::<ChildOf>(line).unwrap().parent();
    let edges = |world: &World, entity: Entity| {
        let node = world.get::<ComputedNode>(entity).unwrap();
        let center = world
            .get::<UiGlobalTransform>(entity)
            .unwrap()
            .translation
            .x;
        (center - node.size().x / 2.0, center + node.size().x / 2.0)
    };
    let (bar_left, bar_right) = edges(world, bar);
    let (view_left, view_right) = edges(world, viewport);
    let scroll = world.get::<ScrollPosition>(viewport).unwrap().x;
    (bar_left, bar_right, view_left, view_right, scroll)
}

#[test]
fn the_caret_is_in_view_in_the_frame_the_keys_arrive_and_the_next_frame_moves_nothing() {
    for scale in [1.0, 1.5] {
        caret_in_view_at(scale);
    }
}

/// Where in the field's view the caret is expected.
enum InView {
    Anywhere,
    /// At the start of a line, at the view's left edge.
    AtTheLeftEdge,
}

/// The field's caret through edits and moves in a 800 by 600 window at `scale`.
fn caret_in_view_at(scale: f32) {
    let mut app =
        laid_out_app_at(WindowResolution::new(800, 600).with_scale_factor_override(scale));
    type_text(&mut app, "a");

    // What the user does, and where in the view the caret is then.
    type Deliver = dyn Fn(&mut App);
    let cases: [(&str, &Deliver, InView); 8] = [
        (
            "typing a short line",
            &|app| key_in(app, "hello"),
            InView::Anywhere,
        ),
        (
            "moving left in it",
            &|app| tap(app, KeyCode::ArrowLeft, Key::ArrowLeft),
            InView::Anywhere,
        ),
        (
            "back to its end",
            &|app| tap(app, KeyCode::End, Key::End),
            InView::Anywhere,
        ),
        // Wider than the 800 px window's field: the line wraps, the caret on its last line.
        (
            "typing past the field's width",
            &|app| key_in(app, &"가나다라마".repeat(40)),
            InView::Anywhere,
        ),
        (
            "moving left in the long line",
            &|app| tap(app, KeyCode::ArrowLeft, Key::ArrowLeft),
            InView::Anywhere,
        ),
        (
            "going to the start of the wrapped line",
            &|app| tap(app, KeyCode::Home, Key::Home),
            InView::AtTheLeftEdge,
        ),
        (
            "moving right from there",
            &|app| tap(app, KeyCode::ArrowRight, Key::ArrowRight),
            InView::Anywhere,
        ),
        (
            "back to the wrapped line's end",
            &|app| tap(app, KeyCode::End, Key::End),
            InView::Anywhere,
        ),
    ];
    let mut scrolls = Vec::new();
    for (what, deliver, where_in_view) in cases {
        deliver(&mut app);
        app.update();
        let placed = caret_in_field(&mut app);
        let (bar_left, bar_right, view_left, view_right, scroll) = placed;
        assert!(
            view_left - 0.5 <= bar_left && bar_right <= view_right + 0.5,
            "{what} at {scale}x: the caret ({bar_left}..{bar_right}) is inside the field's view \
             ({view_left}..{view_right})"
        );
        match where_in_view {
            InView::AtTheLeftEdge => assert!(
                bar_left - view_left < 1.0,
                "{what} at {scale}x: the caret at the view's left edge: {placed:?}"
            ),
            InView::Anywhere => {}
        }
        app.update();
        assert_eq!(
            caret_in_field(&mut app),
            placed,
            "{what} at {scale}x: the frame that took the keys placed the caret; the next one moves nothing"
        );
        scrolls.push(scroll);
    }
    assert_eq!(
        scrolls
            .iter()
            .map(|&scroll| scroll > 0.0)
            .collect::<Vec<_>>(),
        [false; 8],
        "the chat field's lines wrap: it never scrolls sideways: {scrolls:?}"
    );
}
