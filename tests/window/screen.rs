//! Reading the screen: a screenshot as pixels, its bubbles, and which side and part of a row a
//! pixel belongs to.

use std::{
    collections::HashSet,
    fs,
    path::{Path, PathBuf},
};

use agent_chat::theme::Palette;
use bevy::color::Color;

use super::WINDOW;

/// Which side a row is drawn for, told by its fill colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    User,
    Agent,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Fill,
    Border,
}

pub fn rgb(color: Color) -> [u8; 3] {
    let c = color.to_srgba();
    [c.red, c.green, c.blue].map(|v| (v * 255.0).round() as u8)
}

/// The widest run of `false` between the first and the last `true`.
pub fn widest_blank(inked: impl Iterator<Item = bool>) -> usize {
    let inked: Vec<bool> = inked.collect();
    let (Some(first), Some(last)) = (
        inked.iter().position(|&i| i),
        inked.iter().rposition(|&i| i),
    ) else {
        return 0;
    };
    inked[first..=last]
        .split(|&i| i)
        .map(<[bool]>::len)
        .max()
        .unwrap_or(0)
}

/// A strongly coloured pixel: far from any grey.
pub fn is_colourful(p: [u8; 3]) -> bool {
    p.iter().max().unwrap() - p.iter().min().unwrap() > 90
}

pub fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 3)
}

/// One speech bubble found on screen: its bounding box, and where its border pixels are.
#[derive(Debug, Clone)]
pub struct Bubble {
    pub side: Side,
    pub left: usize,
    pub right: usize,
    pub top: usize,
    pub bottom: usize,
    pub border_xs: HashSet<usize>,
    pub border_pixels: usize,
    pub text_pixels: usize,
}

impl Bubble {
    /// The x range of the border when it is one solid column range, full height; else `None`.
    pub fn border_columns(&self) -> Option<std::ops::RangeInclusive<usize>> {
        let min = *self.border_xs.iter().min()?;
        let max = *self.border_xs.iter().max()?;
        let height = self.bottom - self.top + 1;
        (self.border_pixels == (max - min + 1) * height).then_some(min..=max)
    }
}

/// A screenshot of the window's area of the X screen.
pub struct Shot {
    pub path: PathBuf,
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<u8>,
    /// The colours the app was drawing with.
    pub palette: &'static Palette,
}

impl Shot {
    /// Reads a binary PPM (P6), as `import` writes it.
    pub fn read(path: &Path, palette: &'static Palette) -> Self {
        let bytes = fs::read(path).unwrap();
        let mut fields = Vec::new();
        let mut at = 0;
        while fields.len() < 4 {
            while bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            if bytes[at] == b'#' {
                while bytes[at] != b'\n' {
                    at += 1;
                }
                continue;
            }
            let start = at;
            while !bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            fields.push(String::from_utf8_lossy(&bytes[start..at]).into_owned());
        }
        assert_eq!(fields[0], "P6", "{} is not a binary PPM", path.display());
        assert_eq!(fields[3], "255", "{} is not 8-bit", path.display());
        let width: usize = fields[1].parse().unwrap();
        let height: usize = fields[2].parse().unwrap();
        let rgb = bytes[at + 1..].to_vec();
        assert_eq!(rgb.len(), width * height * 3, "{}", path.display());
        Self {
            path: path.to_owned(),
            width,
            height,
            rgb,
            palette,
        }
    }

    /// The PNG beside the PPM, for failure messages.
    pub fn name(&self) -> String {
        self.path.with_extension("png").display().to_string()
    }

    /// How many pixels are `colour`.
    pub fn count(&self, colour: [u8; 3]) -> usize {
        self.rgb.chunks_exact(3).filter(|p| *p == colour).count()
    }

    pub fn px(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    pub fn classify(&self, x: usize, y: usize) -> Option<(Side, Part)> {
        let p = self.px(x, y);
        [
            (self.palette.user_background, Side::User, Part::Fill),
            (self.palette.user_border, Side::User, Part::Border),
            (self.palette.agent_background, Side::Agent, Part::Fill),
            (self.palette.agent_border, Side::Agent, Part::Border),
        ]
        .into_iter()
        .find(|(color, _, _)| close(p, rgb(*color)))
        .map(|(_, side, part)| (side, part))
    }

    /// A pixel that is no fill or border colour and on the text's side of mid-grey: part of a
    /// glyph.
    pub fn is_ink(&self, x: usize, y: usize) -> bool {
        let light_text = rgb(self.palette.text).iter().all(|&c| c > 128);
        self.classify(x, y).is_none() && self.px(x, y).iter().all(|&c| (c > 128) == light_text)
    }

    /// The top edge of the input field: the first row with a long run of its border colour.
    pub fn input_bar(&self) -> Option<usize> {
        let border = rgb(self.palette.input_border);
        (0..self.height).find(|&y| {
            (0..self.width)
                .filter(|&x| close(self.px(x, y), border))
                .count()
                > self.width / 2
        })
    }

    /// How many pixels of the input field are `colour`.
    pub fn input_pixels(&self, colour: [u8; 3]) -> usize {
        let top = self.input_bar().unwrap_or(self.height);
        (top..self.height)
            .flat_map(|y| (0..self.width).map(move |x| (x, y)))
            .filter(|&(x, y)| close(self.px(x, y), colour))
            .count()
    }

    /// The pixels above the input field.
    pub fn conversation(&self) -> &[u8] {
        let end = self.input_bar().unwrap_or(self.height);
        &self.rgb[..end * self.width * 3]
    }

    /// Whether the input field looks as in `other`, ignoring the blinking cursor at its start.
    pub fn input_bar_matches(&self, other: &Shot) -> bool {
        let (Some(top), Some(other_top)) = (self.input_bar(), other.input_bar()) else {
            return false;
        };
        top == other_top
            && (top..self.height)
                .all(|y| (40..self.width).all(|x| close(self.px(x, y), other.px(x, y))))
    }

    /// Whether the input field looks exactly as in `other`, the caret included.
    pub fn input_bar_matches_all(&self, other: &Shot) -> bool {
        let (Some(top), Some(other_top)) = (self.input_bar(), other.input_bar()) else {
            return false;
        };
        top == other_top && self.rgb[top * self.width * 3..] == other.rgb[top * self.width * 3..]
    }

    /// The scrollbar thumb's top and bottom rows, in the window's right margin.
    pub fn thumb(&self) -> Option<(usize, usize)> {
        let colour = rgb(self.palette.scrollbar_thumb);
        let x = WINDOW.0 - 6;
        let rows: Vec<usize> = (0..self.height)
            .filter(|&y| close(self.px(x, y), colour))
            .collect();
        Some((*rows.first()?, *rows.last()?))
    }

    /// The speech bubbles, top to bottom: connected areas of one side's fill and border colours.
    pub fn bubbles(&self) -> Vec<Bubble> {
        let end = self.input_bar().unwrap_or(self.height);
        let mut seen = vec![false; self.width * end];
        let mut found = Vec::new();
        for y0 in 0..end {
            for x0 in 0..self.width {
                let Some((side, _)) = self.classify(x0, y0) else {
                    continue;
                };
                if seen[y0 * self.width + x0] {
                    continue;
                }
                let mut bubble = Bubble {
                    side,
                    left: x0,
                    right: x0,
                    top: y0,
                    bottom: y0,
                    border_xs: HashSet::new(),
                    border_pixels: 0,
                    text_pixels: 0,
                };
                let mut stack = vec![(x0, y0)];
                seen[y0 * self.width + x0] = true;
                let mut size = 0;
                while let Some((x, y)) = stack.pop() {
                    size += 1;
                    bubble.left = bubble.left.min(x);
                    bubble.right = bubble.right.max(x);
                    bubble.top = bubble.top.min(y);
                    bubble.bottom = bubble.bottom.max(y);
                    if self.classify(x, y) == Some((side, Part::Border)) {
                        bubble.border_xs.insert(x);
                        bubble.border_pixels += 1;
                    }
                    let neighbours = [
                        (x.wrapping_sub(1), y),
                        (x + 1, y),
                        (x, y.wrapping_sub(1)),
                        (x, y + 1),
                    ];
                    for (nx, ny) in neighbours {
                        if nx < self.width
                            && ny < end
                            && !seen[ny * self.width + nx]
                            && self.classify(nx, ny).map(|(s, _)| s) == Some(side)
                        {
                            seen[ny * self.width + nx] = true;
                            stack.push((nx, ny));
                        }
                    }
                }
                // Anti-aliased glyph edges can match a fill colour for a pixel or two.
                if size > 200 {
                    bubble.text_pixels = (bubble.top..=bubble.bottom)
                        .flat_map(|y| (bubble.left..=bubble.right).map(move |x| (x, y)))
                        .filter(|&(x, y)| self.is_ink(x, y))
                        .count();
                    found.push(bubble);
                }
            }
        }
        found.sort_by_key(|b| b.top);
        found
    }

    /// The widest run of pixel columns without ink between a bubble's first and last inked
    /// column: a glyph drawn as blank space leaves one as wide as the glyph.
    pub fn widest_blank(&self, bubble: &Bubble) -> usize {
        // Drawn: anything but the bubble's fill and border (grey text, colour emoji).
        widest_blank(
            (bubble.left..=bubble.right)
                .map(|x| (bubble.top..=bubble.bottom).any(|y| self.classify(x, y).is_none())),
        )
    }

    /// The same in the input field's line.
    pub fn input_widest_blank(&self) -> usize {
        let top = self.input_bar().unwrap_or(self.height);
        let background = rgb(self.palette.input_background);
        // Inside the field's border; the caret's column counts as drawn, which does no harm.
        widest_blank(
            (20..self.width - 20)
                .map(|x| (top + 4..self.height - 4).any(|y| !close(self.px(x, y), background))),
        )
    }

    /// The line under a composition in the input field, as (row, first column, last column):
    /// the lowest row of the field's ink that holds a run of 10 px or more, with a blank row
    /// just above it (one of the two above, for a 2 px line). The bottom bar of a glyph such as
    /// 요 has strokes on it, so it is not taken for one; a caret is narrower than 4 px.
    pub fn input_underline(&self) -> Option<(usize, usize, usize)> {
        let top = self.input_bar()?;
        let (left, right) = (20, self.width - 20);
        let inked = |y: usize, x: usize| self.is_ink(x, y);
        let y = (top + 4..self.height - 4)
            .rev()
            .find(|&y| (left..right).any(|x| inked(y, x)))?;
        // The longest run of ink in that row.
        let (mut best, mut start) = (None::<(usize, usize)>, None);
        for x in left..=right {
            match (x < right && inked(y, x), start) {
                (true, None) => start = Some(x),
                (false, Some(from)) => {
                    if best.is_none_or(|(a, b)| x - 1 - from > b - a) {
                        best = Some((from, x - 1));
                    }
                    start = None;
                }
                _ => {}
            }
        }
        let (first, last) = best.filter(|(a, b)| b - a + 1 >= 10)?;
        // Above it, nothing drawn over the run, away from its ends (where a caret may stand).
        let blank = |y: usize| !(first + 3..=last - 3).any(|x| inked(y, x));
        (blank(y - 1) || blank(y - 2)).then_some((y, first, last))
    }

    /// The rightmost column with ink in the input field.
    pub fn input_ink_end(&self) -> Option<usize> {
        let top = self.input_bar()?;
        (20..self.width - 20)
            .rev()
            .find(|&x| (top + 4..self.height - 4).any(|y| self.is_ink(x, y)))
    }

    /// Pixels of a bubble in a strong colour that is neither its fill nor its border: what
    /// colour emoji draw, and grey text never does.
    pub fn colourful_pixels(&self, bubble: &Bubble) -> usize {
        (bubble.top..=bubble.bottom)
            .flat_map(|y| (bubble.left..=bubble.right).map(move |x| (x, y)))
            .filter(|&(x, y)| self.classify(x, y).is_none() && is_colourful(self.px(x, y)))
            .count()
    }

    /// The same in the input field, inside its border.
    pub fn input_colourful_pixels(&self) -> usize {
        let top = self.input_bar().unwrap_or(self.height);
        (top + 4..self.height - 4)
            .flat_map(|y| (20..self.width - 20).map(move |x| (x, y)))
            .filter(|&(x, y)| is_colourful(self.px(x, y)))
            .count()
    }

    /// How well the ink of `width` columns at one end of bubble `a` matches that at one end of
    /// bubble `b` (`true`: the left end, from the first inked column; `false`: the right end,
    /// up to the last), as the overlap of the two ink masks over their union, at the best
    /// shift of a few pixels (glyphs sit at sub-pixel positions, and a line's baseline moves a
    /// little with the fonts in it).
    pub fn ink_match(
        &self,
        a: &Bubble,
        a_left: bool,
        b: &Bubble,
        b_left: bool,
        width: usize,
    ) -> f32 {
        let start = |bubble: &Bubble, left: bool| {
            let inked: Vec<usize> = (bubble.left..=bubble.right)
                .filter(|&x| (bubble.top..=bubble.bottom).any(|y| self.is_ink(x, y)))
                .collect();
            if left {
                inked[0]
            } else {
                inked[inked.len() - 1] + 1 - width
            }
        };
        let (ax, bx) = (start(a, a_left), start(b, b_left));
        let height = (a.bottom - a.top).min(b.bottom - b.top) - 4;
        let shifts = (-3..=3).flat_map(|dx: isize| (-2..=2).map(move |dy: isize| (dx, dy)));
        shifts
            .map(|(shift_x, shift_y)| {
                let (mut both, mut either) = (0, 0);
                for dy in 2..height {
                    for dx in 0..width {
                        let pa = self.is_ink(ax + dx, a.top + dy);
                        let x = (bx + dx).saturating_add_signed(shift_x);
                        let y = (b.top + dy).saturating_add_signed(shift_y);
                        let pb = self.is_ink(x, y);
                        both += usize::from(pa && pb);
                        either += usize::from(pa || pb);
                    }
                }
                both as f32 / either.max(1) as f32
            })
            .fold(0.0, f32::max)
    }

    /// The pixels of a bubble's box.
    pub fn crop(&self, bubble: &Bubble) -> Vec<u8> {
        (bubble.top..=bubble.bottom)
            .flat_map(|y| (bubble.left..=bubble.right).flat_map(move |x| self.px(x, y)))
            .collect()
    }
}
