//! Which way a piece of text runs. The field (`input`) mirrors its arrow keys by it and the rows
//! (`view`) lay out their paragraphs by it, so the rule lives below both: one rule, read the
//! same way by the line being typed and the message it becomes.

use icu_properties::{CodePointMapData, props::BidiClass};

/// Whether the first strong character of `text` is right-to-left (Hebrew, Arabic and the like),
/// which makes a paragraph of it run right to left (Unicode's bidi rule P2).
pub fn starts_right_to_left(text: &str) -> bool {
    let classes = CodePointMapData::<BidiClass>::new();
    text.chars()
        .map(|c| classes.get(c))
        .find(|&class| {
            matches!(
                class,
                BidiClass::LeftToRight | BidiClass::RightToLeft | BidiClass::ArabicLetter
            )
        })
        .is_some_and(|class| class != BidiClass::LeftToRight)
}

#[cfg(test)]
mod tests {
    use super::starts_right_to_left;

    #[test]
    fn the_first_strong_character_decides() {
        assert!(starts_right_to_left("שלום world"));
        assert!(starts_right_to_left("123 مرحبا"), "digits are weak");
        assert!(!starts_right_to_left("hello שלום"));
        assert!(
            !starts_right_to_left("안녕 مرحبا"),
            "Hangul is left-to-right"
        );
        assert!(
            !starts_right_to_left("123 ..."),
            "no strong character: left to right"
        );
    }
}
