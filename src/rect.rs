//! One rectangle type for every place that needs one: a board in image pixels (sub-pixel,
//! `Rect<f64>`), a pixel region named in an error or a screen area in points (`Rect<i32>`).

use serde::Serialize;
use std::fmt;

/// Top-left corner and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Rect<T = i32> {
    pub x: T,
    pub y: T,
    pub w: T,
    pub h: T,
}

impl<T> Rect<T> {
    pub fn new(x: T, y: T, w: T, h: T) -> Rect<T> {
        Rect { x, y, w, h }
    }
}

impl<T: Copy> Rect<T> {
    /// `[x, y, w, h]`, the shape the JSON output gives a board.
    pub fn to_array(self) -> [T; 4] {
        [self.x, self.y, self.w, self.h]
    }
}

impl Rect<i32> {
    /// Whether the point lies inside (the right and bottom edges are outside).
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= self.x
            && y >= self.y
            && (x as i64) < self.x as i64 + self.w as i64
            && (y as i64) < self.y as i64 + self.h as i64
    }

    /// The pixels from `(x0, y0)` to `(x1, y1)`, both inclusive.
    pub fn from_corners(x0: i64, y0: i64, x1: i64, y1: i64) -> Rect<i32> {
        Rect {
            x: x0 as i32,
            y: y0 as i32,
            w: (x1 - x0 + 1) as i32,
            h: (y1 - y0 + 1) as i32,
        }
    }
}

impl Rect<f64> {
    /// The whole pixels this rectangle starts in, and its size rounded down.
    pub fn to_pixels(self) -> Rect<i32> {
        Rect {
            x: self.x as i32,
            y: self.y as i32,
            w: self.w as i32,
            h: self.h as i32,
        }
    }
}

impl<T: fmt::Display> fmt::Display for Rect<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x={} y={} w={} h={}", self.x, self.y, self.w, self.h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contains_excludes_the_far_edges() {
        let r = Rect::new(10, 20, 5, 5);
        assert!(r.contains(10, 20));
        assert!(r.contains(14, 24));
        assert!(!r.contains(15, 24));
        assert!(!r.contains(14, 25));
        assert!(!r.contains(9, 20));
    }

    #[test]
    fn corners_are_inclusive() {
        assert_eq!(Rect::from_corners(3, 4, 3, 9), Rect::new(3, 4, 1, 6));
    }

    #[test]
    fn displays_as_named_fields() {
        assert_eq!(Rect::new(1, 2, 3, 4).to_string(), "x=1 y=2 w=3 h=4");
        assert_eq!(
            Rect::new(1.5, 2.0, 3.0, 4.0).to_array(),
            [1.5, 2.0, 3.0, 4.0]
        );
    }
}
