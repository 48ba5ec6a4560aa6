//! The palettes are readable (WCAG contrast for every colour pair the app draws), and the app
//! draws in the theme the platform or the user asks for, repainting everything when it changes.

use crate::common;

use agent_chat::theme::{DesktopTheme, Palette, Theme, ThemeChoice};
use bevy::{
    color::LinearRgba,
    input::keyboard::Key,
    prelude::*,
    window::{WindowResolution, WindowTheme, WindowThemeChanged},
};
use bevy_simple_text_input::TextInputTextColor;
use common::*;

const PALETTES: [(&str, Palette); 2] = [("dark", Palette::DARK), ("light", Palette::LIGHT)];

/// WCAG 2 contrast ratio of two opaque colours, from 1:1 to 21:1.
fn contrast(a: Color, b: Color) -> f32 {
    let luminance = |c: Color| {
        let LinearRgba {
            red, green, blue, ..
        } = c.to_linear();
        0.2126 * red + 0.7152 * green + 0.0722 * blue
    };
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[test]
fn text_meets_wcag_aa_on_every_background_it_sits_on() {
    for (theme, p) in PALETTES {
        for (name, foreground, background) in [
            ("row text on a user bubble", p.text, p.user_background),
            ("row text on an agent bubble", p.text, p.agent_background),
            ("typed text in the input", p.text, p.input_background),
            (
                "placeholder in the input",
                p.placeholder,
                p.input_background,
            ),
            (
                "full-field notice on the window",
                p.warning,
                p.window_background,
            ),
            (
                "selected text on the selection",
                p.selection_text,
                p.selection,
            ),
            ("a found match's text", p.find_match_text, p.find_match),
            (
                "the current match's text",
                p.find_current_text,
                p.find_current,
            ),
            ("a link on a user bubble", p.link, p.user_background),
            ("a link on an agent bubble", p.link, p.agent_background),
            ("the focused link's text", p.focused_link_text, p.focus_ring),
        ] {
            let ratio = contrast(foreground, background);
            assert!(ratio >= 4.5, "{theme}, {name}: {ratio:.2}:1 is below 4.5:1");
        }
    }
}

#[test]
fn borders_the_scrollbar_and_the_focus_ring_stand_out_from_what_they_sit_on() {
    for (theme, p) in PALETTES {
        for (name, border, next_to) in [
            (
                "user border / user bubble",
                p.user_border,
                p.user_background,
            ),
            ("user border / window", p.user_border, p.window_background),
            (
                "agent border / agent bubble",
                p.agent_border,
                p.agent_background,
            ),
            ("agent border / window", p.agent_border, p.window_background),
            ("full-field border / input", p.warning, p.input_background),
            (
                "scrollbar thumb / window",
                p.scrollbar_thumb,
                p.window_background,
            ),
            ("selection / input", p.selection, p.input_background),
            // The current match is told from the others by its fill alone.
            (
                "current match / other matches",
                p.find_current,
                p.find_match,
            ),
            // The ring is drawn on the window, a little out from the bubble: its pixels were
            // the window's before focus came (WCAG 2.4.13's comparison), and the bubble is
            // what it surrounds.
            ("focus ring / window", p.focus_ring, p.window_background),
            ("focus ring / user bubble", p.focus_ring, p.user_background),
            (
                "focus ring / agent bubble",
                p.focus_ring,
                p.agent_background,
            ),
        ] {
            let ratio = contrast(border, next_to);
            assert!(ratio >= 3.0, "{theme}, {name}: {ratio:.2}:1 is below 3:1");
        }
    }
}

#[test]
fn the_contrast_formula_matches_known_values() {
    assert!((contrast(Color::WHITE, Color::BLACK) - 21.0).abs() < 0.01);
    assert!((contrast(Color::WHITE, Color::WHITE) - 1.0).abs() < 0.01);
}

/// Every colour the app has drawn with: the window's clear colour, fills, borders, text, the
/// widget's own text spans and the selection behind them.
fn colours_in_use(app: &mut App) -> Vec<Color> {
    let world = app.world_mut();
    let mut colours = vec![world.resource::<ClearColor>().0];
    colours.extend(world.query::<&BackgroundColor>().iter(world).map(|c| c.0));
    colours.extend(world.query::<&BorderColor>().iter(world).map(|c| c.top));
    colours.extend(
        world
            .query::<&bevy::text::TextBackgroundColor>()
            .iter(world)
            .map(|c| c.0),
    );
    // An empty root text (the widget's spans carry its text) draws nothing in its colour.
    colours.extend(
        world
            .query::<(&TextColor, Option<&Text>)>()
            .iter(world)
            .filter(|(_, text)| text.is_none_or(|text| !text.is_empty()))
            .map(|(c, _)| c.0),
    );
    colours.retain(|c| c.alpha() > 0.0);
    colours
}

/// Asserts the app draws in `palette` only: no visible colour outside it.
fn assert_drawn_in(app: &mut App, name: &str, palette: &Palette) {
    let allowed = [
        palette.window_background,
        palette.text,
        palette.input_background,
        palette.placeholder,
        palette.input_border,
        palette.user_background,
        palette.user_border,
        palette.agent_background,
        palette.agent_border,
        palette.warning,
        palette.scrollbar_thumb,
        palette.selection,
        palette.selection_text,
    ];
    let used = colours_in_use(app);
    let stray: Vec<_> = used.iter().filter(|c| !allowed.contains(c)).collect();
    assert!(
        stray.is_empty(),
        "{name}: colours from outside the palette: {stray:?}"
    );
    for (what, colour) in [
        ("the window", palette.window_background),
        ("a user bubble", palette.user_background),
        ("an agent border", palette.agent_border),
        ("row text", palette.text),
        ("the placeholder", palette.placeholder),
    ] {
        assert!(
            used.contains(&colour),
            "{name}: {what} is drawn in the palette"
        );
    }
    let input = input_entity(app);
    assert_eq!(
        app.world().get::<TextInputTextColor>(input).unwrap().0.0,
        palette.text,
        "{name}: typed text"
    );
}

fn platform_says(app: &mut App, theme: WindowTheme) {
    app.world_mut().write_message(WindowThemeChanged {
        window: Entity::PLACEHOLDER,
        theme,
    });
    app.update();
}

#[test]
fn the_app_follows_the_platform_theme_and_repaints_everything() {
    let mut app = headless_app();
    submit(&mut app, "전");
    // A selection in the field, drawn in the palette's selection colours.
    type_text(&mut app, "선택");
    tap_down(&mut app, KeyCode::ShiftLeft);
    tap(&mut app, KeyCode::Home, Key::Home);
    tap_up(&mut app, KeyCode::ShiftLeft);
    app.update();
    assert_eq!(
        *app.world().resource::<Theme>(),
        Theme::Dark,
        "dark by default"
    );
    assert_drawn_in(&mut app, "at start", &Palette::DARK);

    platform_says(&mut app, WindowTheme::Light);
    assert_drawn_in(&mut app, "after the platform turned light", &Palette::LIGHT);
    // Rows mounted after the change are light from the start.
    submit(&mut app, "후");
    assert_eq!(rows(&mut app).len(), 4);
    assert_drawn_in(&mut app, "with rows added in light", &Palette::LIGHT);

    platform_says(&mut app, WindowTheme::Dark);
    assert_drawn_in(&mut app, "back to dark", &Palette::DARK);
}

#[test]
fn the_full_field_border_follows_the_theme_too() {
    let mut app = headless_app();
    platform_says(&mut app, WindowTheme::Light);
    let input = input_entity(&mut app);
    type_text(
        &mut app,
        &"a".repeat(usize::from(agent_chat::input::MAX_INPUT_CHARS) + 1),
    );
    let border = |app: &App| app.world().get::<BorderColor>(input).unwrap().top;
    assert_eq!(border(&app), Palette::LIGHT.warning);
    platform_says(&mut app, WindowTheme::Dark);
    assert_eq!(
        border(&app),
        Palette::DARK.warning,
        "still the warning, in dark"
    );
}

#[test]
fn a_window_that_reports_a_light_platform_starts_light() {
    let mut app = laid_out_app_at(WindowResolution::new(800, 600));
    // What the window backend does once the window exists and the platform says light.
    let world = app.world_mut();
    world
        .query::<&mut Window>()
        .single_mut(world)
        .unwrap()
        .window_theme = Some(WindowTheme::Light);
    submit(&mut app, "창");
    assert_eq!(*app.world().resource::<Theme>(), Theme::Light);
    assert_drawn_in(&mut app, "light window", &Palette::LIGHT);
}

#[test]
fn a_theme_the_user_chose_wins_over_the_platform() {
    let mut app = headless_app();
    app.insert_resource(ThemeChoice(Theme::Light));
    submit(&mut app, "선택");
    assert_drawn_in(&mut app, "chosen light", &Palette::LIGHT);
    platform_says(&mut app, WindowTheme::Dark);
    assert_drawn_in(
        &mut app,
        "platform says dark, user said light",
        &Palette::LIGHT,
    );
}

fn desktop_says(app: &mut App, theme: Theme) {
    app.world_mut().write_message(DesktopTheme(theme));
    app.update();
}

#[test]
fn the_app_follows_the_desktops_preference_as_the_portal_tells_it() {
    let mut app = headless_app();
    submit(&mut app, "포털");
    // What `theme::portal` hears on Linux: the setting at start-up, then each switch.
    desktop_says(&mut app, Theme::Light);
    assert_drawn_in(&mut app, "the desktop prefers light", &Palette::LIGHT);
    desktop_says(&mut app, Theme::Dark);
    assert_drawn_in(&mut app, "the desktop switched to dark", &Palette::DARK);
    // The user's own choice wins over it, as over the window's report.
    app.insert_resource(ThemeChoice(Theme::Dark));
    desktop_says(&mut app, Theme::Light);
    assert_drawn_in(&mut app, "the user chose dark", &Palette::DARK);
}
