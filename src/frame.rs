//! The frame map: every system set the app puts systems in, in each schedule, and their order.
//! The plugins only put their systems in a set; this is the one place that says when a set
//! runs. (`tests/app/tour.rs` fails if `configure_sets`, `.before` or `.after` appear anywhere
//! else in `src/`, but for the engine workarounds, which order themselves against the engine's
//! internals they work around.)
//!
//! One frame, top to bottom (Bevy's sets and systems are in brackets; within a set, the
//! plugin's own `.chain()` gives the order shown):
//!
//! ```text
//! PreUpdate     theme: hear_the_desktop (Linux) → follow_platform_theme;
//!               input::clipboard: bring_back_the_text
//!
//! Update
//!  ├─ AppSystems::ReadInput ─────────────── before [TextInputSystem]
//!  │   ├─ MenuSystems::Pointer  point_at_the_menu     first: an open menu has the pointer
//!  │   ├─ KeyboardSystems       edit_field            every key and IME text, where focus is
//!  │   ├─ FieldSystems          point_and_drag → offer_the_selection → show_in_widget
//!  │   │                        → hide_caret_while_composing → show_length_limit
//!  │   │                        → describe_field
//!  │   ├─ EscapeExits           exit_on_escape        after FieldSystems; only while the find
//!  │   │                        bar is closed and Escape closed no menu
//!  │   ├─ SelectionSystems      after FieldSystems
//!  │   ├─ FocusSystems::Walk    after SelectionSystems, before FindSystems
//!  │   ├─ FindSystems           after SelectionSystems and EscapeExits
//!  │   ├─ LinkSystems           point_at_links → hide_the_notice → open_links; after
//!  │   │                        FocusSystems::Walk, which opens links too, and FindSystems
//!  │   └─ ScrollInput           scroll_by_wheel → drag_scrollbar; after LinkSystems, last:
//!  │                            the wheel has the last word in a frame
//!  ├─ FieldDrawing::Paint       paint_widget          before [TextInputSystem]
//!  ├─ FieldDrawing::Rest        rest_when_idle        after FieldSystems, before [TextInputSystem]
//!  ├─ CopySystems               after ReadInput, before [TextInputSystem]
//!  ├─ ZoomSystems               zoom_with_the_wheel → hide_the_notice → zoom → follow_the_level;
//!  │                            after CopySystems, before [TextInputSystem]
//!  ├─ MenuSystems::Show         show_the_menu         after ZoomSystems, before [TextInputSystem]
//!  ├─ [TextInputSystem]         the widget draws the field
//!  ├─ FieldDrawing::Decorate    decorate              after [TextInputSystem], before Record
//!  ├─ AppSystems::Record        record_submissions    after [TextInputSystem]
//!  │        ── sync point: the messages Record spawned with `Commands` exist from here ──
//!  ├─ AppSystems::SpawnRows     follow_the_newest → mount_rows, then DressRows: draw_marks,
//!  │                            describe_rows
//!  └─ AppSystems::Scroll        arrange
//!
//! PostUpdate
//!  ├─ FocusSystems::Show        show_focus
//!  ├─ ThemeSystems::Paint       paint_window → paint; dress_the_window (Linux)
//!  ├─ ThemeSystems::Fonts       fill_fallback_map     after Bevy's font loading
//!  ├─ [UiSystems::Content]
//!  ├─ FieldDrawing::Caret       place_bar             before [UiSystems::Layout]
//!  ├─ FieldDrawing::Clipboard   write_clipboard → write_primary → start_reading
//!  ├─ [UiSystems::Layout]       ui_layout_system, then ScrollLayout: settle → place_thumb,
//!  │                            then MenuSystems::Fit: fit_in_the_window
//!  ├─ FieldDrawing::ImeWindow   place_ime_window      after [UiSystems::Layout]
//!  ├─ [UiSystems::PostLayout]
//!  ├─ Speak                     speak                 what the frame announces, paced
//!  ├─ SayOnTheFocus             say_on_the_focus
//!  └─ [AccessibilitySystems::Update]   the window backend sends the tree
//!
//! Last          zoom: drop_unused_glyph_atlases (in a frame the zoom level changed)
//! ```
//!
//! **The sync point.** `record_submissions` spawns each message with `Commands`, which Bevy
//! applies only at a sync point. The chain of the four [`AppSystems`] sets makes Bevy put one
//! between `Record` and `SpawnRows` (Bevy puts one on each ordering edge that leaves a system
//! with `Commands`, when it builds the schedule, whether or not anything is queued), so
//! `mount_rows` sees the new messages in the frame of the Enter that sent them:
//! `a_submission_scrolls_the_conversation_to_its_end_in_the_same_frame` in
//! `tests/app/runtime_flow.rs` shows it, and
//! `a_sync_point_stands_between_record_and_spawn_rows_before_anything_is_queued` in
//! `tests/app/tour.rs` finds the sync point in the built schedule.
//!
//! **Why Escape closes an open find bar and does not quit:** [`EscapeExits`] runs only while the
//! bar is closed ([`the_bar_is_closed`]), wherever focus is; the bar's own keys
//! ([`FindSystems`]) run after it and close the bar. **In a menu**, the field's typing gives
//! Escape to the menu, which closes and says so ([`escape_is_not_the_menus`]); the exit key
//! runs after the typing.
//!
//! The engine workarounds (`workarounds/`) are not here: they order themselves against the
//! engine's internals (the render world's view preparation, the message update in `First`, the
//! accessibility update), and go when the engine changes.

use bevy::{
    a11y::AccessibilitySystems,
    prelude::*,
    text::load_font_assets_into_font_collection,
    ui::{UiSystems, ui_layout_system},
};
use bevy_simple_text_input::TextInputSystem;

use crate::{
    AppSystems,
    a11y::SayOnTheFocus,
    chat::EscapeExits,
    input::{FieldDrawing, FieldSystems},
    keyboard::KeyboardSystems,
    scroll::{ScrollInput, ScrollLayout},
    theme::ThemeSystems,
    view::{
        DressRows,
        copy::CopySystems,
        find::{FindSystems, the_bar_is_closed},
        focus::FocusSystems,
        menu::{MenuSystems, escape_is_not_the_menus},
        mount_rows,
        open_links::LinkSystems,
        selection::SelectionSystems,
        speech::Speak,
        zoom::ZoomSystems,
    },
};

/// Orders every set of the app's; [`AgentChatPlugin`](crate::AgentChatPlugin) adds it first.
pub(super) fn plugin(app: &mut App) {
    order_the_flow(app);
    order_around_the_widget(app);
    order_around_ui_layout(app);
}

/// `Update`: the runtime flow's four sets, and the frame's input inside the first.
fn order_the_flow(app: &mut App) {
    app.configure_sets(
        Update,
        (
            // The runtime flow, in order. Each set writes what the next one reads, within one
            // frame; the field's line is settled before the widget draws it, and the chat
            // records what was sent once the widget is done with the frame.
            (
                AppSystems::ReadInput,
                AppSystems::Record,
                AppSystems::SpawnRows,
                AppSystems::Scroll,
            )
                .chain(),
            AppSystems::ReadInput.before(TextInputSystem),
            AppSystems::Record.after(TextInputSystem),
            // The frame's input, in the order each part needs the one before. The pointer is
            // an open menu's first: the click that closes it does nothing else.
            MenuSystems::Pointer
                .in_set(AppSystems::ReadInput)
                .before(KeyboardSystems),
            // The keys, then the field's mouse and drawing.
            KeyboardSystems
                .in_set(AppSystems::ReadInput)
                .before(FieldSystems),
            FieldSystems.in_set(AppSystems::ReadInput),
            // After the keys an open menu takes, Escape among them.
            EscapeExits
                .in_set(AppSystems::ReadInput)
                .run_if(the_bar_is_closed)
                .run_if(escape_is_not_the_menus)
                .after(FieldSystems)
                .before(FindSystems),
            SelectionSystems
                .in_set(AppSystems::ReadInput)
                .after(FieldSystems),
            // Ctrl+C copies the selection, if one was made in the same frame.
            FocusSystems::Walk
                .in_set(AppSystems::ReadInput)
                .after(SelectionSystems)
                .before(FindSystems),
            FindSystems
                .in_set(AppSystems::ReadInput)
                .after(SelectionSystems),
            // The pointer's clicks, and Enter on a link (`FocusSystems::Walk`), open in the
            // frame they come.
            LinkSystems
                .in_set(AppSystems::ReadInput)
                .after(FocusSystems::Walk)
                .after(FindSystems),
            ScrollInput.in_set(AppSystems::ReadInput).after(LinkSystems),
        ),
    );
}

/// `Update`: the field's and the rows' other sets, around the widget's.
fn order_around_the_widget(app: &mut App) {
    app.configure_sets(
        Update,
        (
            // Around the widget, which applies a new text colour, blinks its caret and
            // rewrites its spans in the frame the line changes.
            FieldDrawing::Paint.before(TextInputSystem),
            FieldDrawing::Rest
                .after(FieldSystems)
                .before(TextInputSystem),
            // After the keys that ask for copies, before the widget draws the field (both
            // touch text and nodes).
            CopySystems
                .after(AppSystems::ReadInput)
                .before(TextInputSystem),
            // After the keys that ask for a step, and after the copies, whose notice is beside
            // the zoom's; the level is in `UiScale` before layout.
            ZoomSystems
                .after(AppSystems::ReadInput)
                .after(CopySystems)
                .before(TextInputSystem),
            // Once the keys and the pointer have opened, walked or closed it.
            MenuSystems::Show.after(ZoomSystems).before(TextInputSystem),
            // Before the chat records the line, and so before the rows are drawn (text of
            // their own, which Bevy cannot tell apart from the field's).
            FieldDrawing::Decorate
                .after(TextInputSystem)
                .before(AppSystems::Record),
            DressRows.in_set(AppSystems::SpawnRows).after(mount_rows),
        ),
    );
}

/// `PostUpdate`: around Bevy's UI layout and the accessibility update.
fn order_around_ui_layout(app: &mut App) {
    app.configure_sets(
        PostUpdate,
        (
            // Before UI layout, so the ring and the button are drawn in the frame they move.
            // `InputFocus`, which the accessibility update reads, is set in place: that update
            // needs no sync point for it.
            FocusSystems::Show
                .before(UiSystems::Content)
                .before_ignore_deferred(AccessibilitySystems::Update),
            ThemeSystems::Paint.before(UiSystems::Content),
            ThemeSystems::Fonts
                .after(load_font_assets_into_font_collection)
                .before(UiSystems::Content),
            FieldDrawing::Caret
                .after(UiSystems::Content)
                .before(UiSystems::Layout),
            // Before layout, where the list measures its rows: both may ask for a frame.
            FieldDrawing::Clipboard.before(UiSystems::Layout),
            ScrollLayout
                .in_set(UiSystems::Layout)
                .after(ui_layout_system),
            // Once layout has measured it, before anything reads where it is.
            MenuSystems::Fit
                .in_set(UiSystems::Layout)
                .after(ScrollLayout),
            FieldDrawing::ImeWindow.after(UiSystems::Layout),
            Speak.after(UiSystems::PostLayout).before(SayOnTheFocus),
            SayOnTheFocus
                .after(UiSystems::PostLayout)
                .before(AccessibilitySystems::Update),
        ),
    );
}
