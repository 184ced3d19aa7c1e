//! The minus the app writes before a number the drawn path has counted below zero ("-1"): a
//! short bar left of the digit, near its middle height, the two centred together in the cell.
//! The app draws the path over the numbers, and a stroke along the cell's middle lies where
//! that bar does, so a bar can be hidden; the digit's place still shows it was written.

use crate::vision::glyph::Bounds;

/// What stands before a number's digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Sign {
    /// No minus, and the digit stands where a lone digit does.
    Plus,
    /// A minus seen whole, clear of the path, and the digit where it stands after one.
    Minus,
    /// No minus seen, but the digit stands where it does after one: the path may hide it.
    Hidden,
}

// The bar's shape and place, as shares of the digit's height. DejaVu Sans Bold (the app's
// `bold sans-serif` on Debian) draws it 0.41-0.42 of the digit's height long, 0.19-0.23
// thick, 0.23-0.25 before the digit, its middle 0.55-0.58 of the way down (captures of the
// app at 40 and 66.75 px cells); the bounds leave room for other sans faces.
const MAX_LENGTH: f64 = 0.7;
const MAX_THICKNESS: f64 = 0.35;
/// A bar at least this many times as long as it is thick.
const MIN_ELONGATION: f64 = 1.5;
const MAX_GAP: f64 = 0.5;
/// The bar lies between these shares of the digit's height, from its top...
const TOP_LIMIT: f64 = 0.3;
/// ...and from its bottom.
const BOTTOM_LIMIT: f64 = 0.2;
/// A bar's box is this full of ink at least: a rectangle, not a stroke's piece.
const MIN_FILL: f64 = 0.8;
/// The app centres the whole text in the cell, so a minus pushes the digit right by half the
/// minus's advance. A lone digit's box centre lies within 0.07 of its height of the cell's
/// (-0.03 to 0.07 over the corpus and the fixtures at 0.75x, 1x and 1.33x, crossed numbers
/// included); after a minus, 0.29 to 0.34 (the fixtures' "-1"s). From this far right a digit
/// stands where a minus puts it.
const SHIFTED: f64 = 0.15;

/// Splits a leading minus off a number's parts (boxes left to right in a `side`-wide patch
/// centred on the cell, `on` its ink, `near_path` the path's pixels and their rim): the parts
/// left to read as a digit, and the sign before them. A part before the digit that is not
/// plainly a whole minus stays, for the reader to refuse.
pub(super) fn split_sign(
    parts: &[Bounds],
    on: &[bool],
    near_path: &[bool],
    side: usize,
) -> (Vec<Bounds>, Sign) {
    match parts {
        [bar, digit] if shifted(*digit, side) && is_minus(*bar, *digit, on, near_path, side) => {
            (vec![*digit], Sign::Minus)
        }
        [digit] if shifted(*digit, side) => (parts.to_vec(), Sign::Hidden),
        _ => (parts.to_vec(), Sign::Plus),
    }
}

fn height(b: Bounds) -> f64 {
    (b.3 + 1 - b.1) as f64
}

/// Whether the digit's box stands right of the cell's centre as after a minus.
fn shifted(digit: Bounds, side: usize) -> bool {
    let centre = (digit.0 + digit.2 + 1) as f64 / 2.0;
    centre - side as f64 / 2.0 >= SHIFTED * height(digit)
}

fn is_minus(bar: Bounds, digit: Bounds, on: &[bool], near_path: &[bool], side: usize) -> bool {
    let dh = height(digit);
    let (len, thick) = ((bar.2 + 1 - bar.0) as f64, height(bar));
    let gap = digit.0.saturating_sub(bar.2 + 1) as f64;
    let placed = bar.2 < digit.0
        && gap <= MAX_GAP * dh
        && bar.1 as f64 >= digit.1 as f64 + TOP_LIMIT * dh
        && bar.3 as f64 <= digit.3 as f64 - BOTTOM_LIMIT * dh;
    let shaped =
        len <= MAX_LENGTH * dh && thick <= MAX_THICKNESS * dh && len >= MIN_ELONGATION * thick;
    let cells = || (bar.1..=bar.3).flat_map(move |y| (bar.0..=bar.2).map(move |x| y * side + x));
    let filled = cells().filter(|&k| on[k]).count() as f64 >= MIN_FILL * len * thick;
    // Touching the path, part of the bar may be hidden, and what shows may be a digit's piece.
    let clear = (bar.1.saturating_sub(1)..(bar.3 + 2).min(side)).all(|y| {
        (bar.0.saturating_sub(1)..(bar.2 + 2).min(side)).all(|x| !near_path[y * side + x])
    });
    placed && shaped && filled && clear
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIDE: usize = 40;

    fn mask(boxes: &[Bounds]) -> Vec<bool> {
        let mut m = vec![false; SIDE * SIDE];
        for &(x0, y0, x1, y1) in boxes {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    m[y * SIDE + x] = true;
                }
            }
        }
        m
    }

    // The "-1" of a 40 px cell as captured: the bar 9×5, the digit 22 px tall.
    const BAR: Bounds = (7, 16, 15, 20);
    const DIGIT: Bounds = (21, 6, 31, 27);

    #[test]
    fn a_whole_bar_before_the_digit_is_a_minus() {
        let on = mask(&[BAR, DIGIT]);
        let none = vec![false; SIDE * SIDE];
        let (parts, sign) = split_sign(&[BAR, DIGIT], &on, &none, SIDE);
        assert_eq!((parts, sign), (vec![DIGIT], Sign::Minus));
    }

    /// A bar the path touches, too high (a 7's top), too thick, too far off or hollow is no
    /// minus, nor a bar before a digit that stands where a lone digit does: both parts stay.
    #[test]
    fn anything_else_before_the_digit_stays_a_part() {
        let none = vec![false; SIDE * SIDE];
        let touched = mask(&[(15, 10, 18, 30)]);
        let hollow = |on: &mut Vec<bool>| {
            for y in 17..=19 {
                for x in 8..=14 {
                    on[y * SIDE + x] = false;
                }
            }
        };
        let centred: Bounds = (15, 6, 25, 27);
        let cases: [(Bounds, Bounds, &[bool], bool); 6] = [
            (BAR, DIGIT, &touched, false),
            ((7, 6, 15, 10), DIGIT, &none, false),
            ((7, 13, 15, 21), DIGIT, &none, false),
            ((0, 16, 8, 19), DIGIT, &none, false),
            (BAR, DIGIT, &none, true),
            ((3, 16, 11, 20), centred, &none, false),
        ];
        for (k, (bar, digit, near, holed)) in cases.into_iter().enumerate() {
            let mut on = mask(&[bar, digit]);
            if holed {
                hollow(&mut on);
            }
            let (parts, sign) = split_sign(&[bar, digit], &on, near, SIDE);
            assert_eq!((parts.len(), sign), (2, Sign::Plus), "case {k}");
        }
    }

    /// A lone digit pushed right as a minus pushes it leaves the sign open; one a pixel or
    /// two off the centre (how the corpus's lone digits stand) is a plain number.
    #[test]
    fn a_digit_where_a_minus_puts_it_leaves_the_sign_open() {
        let sign = |digit: Bounds| {
            let on = mask(&[digit]);
            split_sign(&[digit], &on, &vec![false; SIDE * SIDE], SIDE).1
        };
        assert_eq!(sign(DIGIT), Sign::Hidden);
        assert_eq!(sign((15, 6, 25, 27)), Sign::Plus);
        assert_eq!(sign((16, 6, 26, 27)), Sign::Plus);
        assert_eq!(sign((13, 6, 23, 27)), Sign::Plus);
    }
}
