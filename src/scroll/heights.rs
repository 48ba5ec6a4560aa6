//! How tall every item of a long list is, without a UI node for each: a height per item, and
//! the offsets of all of them in a Fenwick tree (a binary indexed tree), so that turning an
//! offset into an item and back costs `O(log n)` however long the list.
//!
//! An item's height is its measured one once it has been laid out at the current width, and an
//! estimate from its [`Shape`] before that. A width change re-estimates every item: the one
//! place that visits them all, and only in the frame the width changes.
//!
//! The tree is written here rather than taken from a crate: it needs appending, `f64` sums and
//! a search by offset, about forty lines, and the crates that offer one lack one of the three.

/// What an estimate of an item's height is made from: the width of its text laid out on one
/// line, and how many hard line breaks it holds. Both in logical pixels at the app's font size.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Shape {
    /// The text's advance if nothing wrapped, hard breaks aside.
    pub width: f32,
    /// How many line breaks the text holds.
    pub breaks: u32,
}

/// A function that estimates how tall an item of a given [`Shape`] is at a given list width.
pub type Estimate = fn(Shape, f32) -> f32;

/// The heights of a list's items and the offsets between them.
///
/// Each item owns its height plus the gap below it (its *extent*), so that item `i` starts at
/// the sum of the extents before it, [`top_of(i)`](Self::top_of).
#[derive(Debug, Clone)]
pub struct Heights {
    shapes: Vec<Shape>,
    /// Each item's extent as the tree holds it, to know the change when it is measured.
    extents: Vec<f32>,
    /// Which items were measured at [`width`](Self::width).
    measured: Vec<bool>,
    /// Fenwick tree over the extents: `tree[i - 1]` holds the sum of extents
    /// `(i - lowest_bit(i))..i`. In `f64`: the offsets of 100,000 rows reach millions of pixels,
    /// where an `f32` no longer tells one pixel from the next.
    tree: Vec<f64>,
    width: f32,
    gap: f32,
    estimate: Estimate,
}

impl Heights {
    /// An empty list whose items are `gap` apart and estimated with `estimate`.
    pub fn new(gap: f32, estimate: Estimate) -> Self {
        Self {
            shapes: Vec::new(),
            extents: Vec::new(),
            measured: Vec::new(),
            tree: Vec::new(),
            width: 0.0,
            gap,
            estimate,
        }
    }

    /// How many items the list holds.
    pub fn len(&self) -> usize {
        self.shapes.len()
    }

    /// True while the list holds no item.
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty()
    }

    /// The space between two items, in logical pixels.
    pub fn gap(&self) -> f32 {
        self.gap
    }

    /// The width the heights are for.
    pub fn width(&self) -> f32 {
        self.width
    }

    /// Appends an item, estimated at the current width.
    pub fn push(&mut self, shape: Shape) {
        let extent = (self.estimate)(shape, self.width) + self.gap;
        self.shapes.push(shape);
        self.extents.push(extent);
        self.measured.push(false);
        // The new node covers `(n - lowest_bit(n))..n`: its own extent and the nodes below it
        // that the range takes in.
        let n = self.tree.len() + 1;
        let covered = self.sum_to(n - 1) - self.sum_to(n - lowest_bit(n));
        self.tree.push(covered + f64::from(extent));
    }

    /// Records the laid-out height of item `i`; true when it differs from what the list held.
    pub fn measure(&mut self, i: usize, height: f32) -> bool {
        self.measured[i] = true;
        let extent = height + self.gap;
        let change = extent - self.extents[i];
        if change.abs() < 0.01 {
            return false;
        }
        self.extents[i] = extent;
        let mut node = i + 1;
        while node <= self.tree.len() {
            self.tree[node - 1] += f64::from(change);
            node += lowest_bit(node);
        }
        true
    }

    /// Whether item `i` has been measured at the current width.
    pub fn is_measured(&self, i: usize) -> bool {
        self.measured[i]
    }

    /// Re-estimates every item for a new list width, forgetting what was measured at the old.
    pub fn set_width(&mut self, width: f32) {
        if width == self.width {
            return;
        }
        self.width = width;
        for (extent, &shape) in self.extents.iter_mut().zip(&self.shapes) {
            *extent = (self.estimate)(shape, width) + self.gap;
        }
        self.measured.fill(false);
        // Linear-time build: each node passes its sum up to its parent.
        for (node, &extent) in self.tree.iter_mut().zip(&self.extents) {
            *node = f64::from(extent);
        }
        for node in 1..=self.tree.len() {
            let parent = node + lowest_bit(node);
            if parent <= self.tree.len() {
                self.tree[parent - 1] += self.tree[node - 1];
            }
        }
    }

    /// The height of item `i` plus the gap below it.
    pub fn extent(&self, i: usize) -> f32 {
        self.extents[i]
    }

    /// Where item `i` starts: the extents of the items before it. `top_of(len())` is the total.
    pub fn top_of(&self, i: usize) -> f64 {
        self.sum_to(i)
    }

    /// The height of the whole list, the gap after the last item excluded.
    pub fn total(&self) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        self.sum_to(self.len()) - f64::from(self.gap)
    }

    /// The item at `offset` from the list's top, and how far into its extent the offset lies.
    /// Offsets before the top are the top; offsets past the end fall in the last item.
    pub fn locate(&self, offset: f64) -> (usize, f32) {
        if self.is_empty() {
            return (0, 0.0);
        }
        let mut rest = offset.max(0.0);
        // Binary lifting: the largest prefix of items that ends at or before `offset`.
        let mut before = 0;
        let mut step = self.tree.len().next_power_of_two();
        while step > 0 {
            let next = before + step;
            if next <= self.tree.len() && self.tree[next - 1] <= rest {
                before = next;
                rest -= self.tree[next - 1];
            }
            step /= 2;
        }
        if before == self.len() {
            let last = self.len() - 1;
            return (last, self.extents[last]);
        }
        (before, rest as f32)
    }

    /// The sum of the first `n` extents.
    fn sum_to(&self, mut n: usize) -> f64 {
        let mut sum = 0.0;
        while n > 0 {
            sum += self.tree[n - 1];
            n -= lowest_bit(n);
        }
        sum
    }
}

fn lowest_bit(n: usize) -> usize {
    n & n.wrapping_neg()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An item `width` pixels wide is `width` tall, `breaks` aside: easy to check by hand.
    fn by_width(shape: Shape, list_width: f32) -> f32 {
        shape.width + list_width + shape.breaks as f32
    }

    fn list(widths: &[f32]) -> Heights {
        let mut heights = Heights::new(8.0, by_width);
        for &width in widths {
            heights.push(Shape { width, breaks: 0 });
        }
        heights
    }

    /// The prefix sums, the slow way.
    fn tops(heights: &Heights) -> Vec<f64> {
        let mut sum = 0.0;
        (0..=heights.len())
            .map(|i| {
                let top = sum;
                if i < heights.len() {
                    sum += f64::from(heights.extent(i));
                }
                top
            })
            .collect()
    }

    #[test]
    fn offsets_are_the_sums_of_the_extents_before_each_item() {
        let mut heights = list(&[10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0]);
        assert_eq!(heights.top_of(3), 18.0 + 28.0 + 38.0);
        assert_eq!(
            heights.total(),
            18.0 + 28.0 + 38.0 + 48.0 + 58.0 + 68.0 + 70.0
        );
        assert!(heights.measure(2, 100.0));
        assert!(
            !heights.measure(2, 100.0),
            "the same height again is no change"
        );
        assert!(heights.is_measured(2) && !heights.is_measured(3));
        for (i, top) in tops(&heights).into_iter().enumerate() {
            assert_eq!(heights.top_of(i), top, "item {i}");
        }
        heights.set_width(5.0);
        assert!(
            !heights.is_measured(2),
            "a new width forgets what was measured"
        );
        for (i, top) in tops(&heights).into_iter().enumerate() {
            assert_eq!(heights.top_of(i), top, "item {i} at the new width");
        }
        assert_eq!(heights.extent(0), 10.0 + 5.0 + 8.0);
    }

    #[test]
    fn locate_finds_the_item_under_every_offset_and_is_the_inverse_of_top_of() {
        let widths: Vec<f32> = (0..1000).map(|i| (i * 37 % 101) as f32).collect();
        let mut heights = list(&widths);
        for i in (0..1000).step_by(7) {
            heights.measure(i, 3.0);
        }
        for i in 0..heights.len() {
            let top = heights.top_of(i);
            assert_eq!(heights.locate(top), (i, 0.0), "the top of item {i}");
            let inside = top + f64::from(heights.extent(i)) - 0.5;
            let (at, into) = heights.locate(inside);
            assert_eq!(at, i, "the last pixel of item {i}");
            assert!((into - (heights.extent(i) - 0.5)).abs() < 1e-3);
        }
        assert_eq!(heights.locate(-5.0), (0, 0.0), "above the top");
        assert_eq!(heights.locate(1e12).0, 999, "past the end");
        assert_eq!(Heights::new(8.0, by_width).locate(10.0), (0, 0.0));
    }

    #[test]
    fn a_million_items_still_tell_one_pixel_from_the_next() {
        let mut heights = list(&vec![40.0; 1_000_000]);
        let middle = heights.top_of(600_000);
        assert_eq!(middle, 600_000.0 * 48.0);
        assert_eq!(heights.locate(middle + 1.0), (600_000, 1.0));
        heights.measure(0, 41.0);
        assert_eq!(heights.top_of(600_000), middle + 1.0);
        assert_eq!(heights.locate(middle + 1.0), (600_000, 0.0));
    }
}
