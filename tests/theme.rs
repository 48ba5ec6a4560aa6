//! The palette is readable: WCAG contrast ratios for every colour pair the app draws.

use agent_chat::theme::palette::*;
use bevy::color::{Color, LinearRgba};

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
    for (name, foreground, background) in [
        ("row text on a user bubble", TEXT, USER_BACKGROUND),
        ("row text on an agent bubble", TEXT, AGENT_BACKGROUND),
        ("typed text in the input", TEXT, INPUT_BACKGROUND),
        ("placeholder in the input", PLACEHOLDER, INPUT_BACKGROUND),
        (
            "full-field notice on the window",
            WARNING,
            WINDOW_BACKGROUND,
        ),
    ] {
        let ratio = contrast(foreground, background);
        assert!(ratio >= 4.5, "{name}: {ratio:.2}:1 is below 4.5:1");
    }
}

#[test]
fn the_side_borders_stand_out_from_the_bubble_and_the_window() {
    for (name, border, next_to) in [
        ("user border / user bubble", USER_BORDER, USER_BACKGROUND),
        ("user border / window", USER_BORDER, WINDOW_BACKGROUND),
        (
            "agent border / agent bubble",
            AGENT_BORDER,
            AGENT_BACKGROUND,
        ),
        ("agent border / window", AGENT_BORDER, WINDOW_BACKGROUND),
        ("full-field border / input", WARNING, INPUT_BACKGROUND),
    ] {
        let ratio = contrast(border, next_to);
        assert!(ratio >= 3.0, "{name}: {ratio:.2}:1 is below 3:1");
    }
}

#[test]
fn the_contrast_formula_matches_known_values() {
    assert!((contrast(Color::WHITE, Color::BLACK) - 21.0).abs() < 0.01);
    assert!((contrast(Color::WHITE, Color::WHITE) - 1.0).abs() < 0.01);
}
