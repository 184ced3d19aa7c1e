//! The small total the app's "Show both" behaviour writes in a number's top-right corner, beside
//! the count-down: cut off the number's ink before the count-down is cut into glyphs.
//!
//! The app draws it right-aligned 0.075 of the cell from the cell's right edge, its top about
//! as far below the cell's top, in a bold face 0.3 of the cell high (0.4 of the count-down's):
//! its digit's ink spans about 0.75-0.92 of the cell across and 0.06-0.26 down (captures at
//! 40 and 66.75 px cells), above the inset a number's own ink is cut from. The count-down's
//! ink starts 0.22 of the cell down, and a "-1" reaches as far right as the total's left edge,
//! so the two are told apart by the pieces their ink falls into, not by columns.

use crate::rect::Rect;
use crate::vision::glyph::{Glyph, Ink};
use std::ops::RangeInclusive;

/// The zone the total lies wholly in, as shares of the cell's side: right of this...
const ZONE_LEFT: f64 = 0.55;
/// ...and above this.
const ZONE_BOTTOM: f64 = 0.45;
/// The total's top lies above this, and the count-down's never does: the total's ink starts
/// 0.05-0.07 of the cell down, the count-down's 0.15-0.17 (a 6's round top the highest), in
/// captures at 40 and 66.75 px cells; a copy shrunk to 0.75× blurs each a pixel further.
const MAX_TOP: f64 = 0.11;
/// Its right edge lies right of this.
const MIN_RIGHT: f64 = 0.8;
/// How far above the cell the zone reaches, as a share of its side: the total's top stands
/// 0.05 of the cell below the cell's top, and a copy shrunk to 0.75× blurs it onto the cell's
/// first row of pixels, so a zone starting there would find it touching its edge. Above the
/// cell lies the grid line and the foot of the cell above, where only the path is drawn.
const ZONE_ABOVE: f64 = 0.1;
/// Its height (a digit of the small face is 0.2 of the cell).
const HEIGHT: RangeInclusive<f64> = 0.12..=0.3;

/// A cell's top-right zone in pixels, with what each pixel shows.
pub(super) struct Zone {
    pub(super) x0: i64,
    pub(super) y0: i64,
    pub(super) width: usize,
    pub(super) height: usize,
    /// Number ink, row by row.
    pub(super) ink: Vec<bool>,
    /// The path's ink grown by its anti-aliased rim and a pixel more: a piece the path cuts
    /// off a digit touches it.
    pub(super) near_path: Vec<bool>,
}

/// What a number's cell shows in its top-right corner.
#[derive(Debug, Clone)]
pub(super) enum Corner {
    /// No ink near the cell's top: the count-down or total alone.
    Blank,
    /// The small total, cut off.
    Total(Glyph),
    /// Ink near the cell's top that is not a total alone: one touching the count-down (a "-1"
    /// reaches under it), crossed by the path, or anything else. The count-down never reaches
    /// that high.
    Other,
}

/// The pixel rectangle of `cell`'s top-right zone: its top-left corner, width and height.
pub(super) fn zone_of(cell: Rect<f64>) -> (i64, i64, usize, usize) {
    let x0 = (cell.x + ZONE_LEFT * cell.w).ceil() as i64;
    let y0 = (cell.y - ZONE_ABOVE * cell.h).ceil() as i64;
    let x1 = (cell.x + cell.w).floor() as i64;
    let y1 = (cell.y + ZONE_BOTTOM * cell.h).floor() as i64;
    (x0, y0, (x1 - x0).max(1) as usize, (y1 - y0).max(1) as usize)
}

/// What `zone` of `cell` shows: the small total when the 8-connected pieces of ink lying
/// wholly inside it (off its edges, so no part of the count-down or of a neighbour's ink
/// running on past them) and clear of the path together have the total's place and height,
/// with their pixels in picture coordinates.
pub(super) fn cut_corner(zone: &Zone, cell: Rect<f64>) -> (Corner, Vec<(i64, i64)>) {
    let (w, h) = (zone.width, zone.height);
    let across = |x: usize| (zone.x0 as f64 + x as f64 + 0.5 - cell.x) / cell.w;
    let down = |y: usize| (zone.y0 as f64 + y as f64 + 0.5 - cell.y) / cell.h;
    let high = (0..w * h).any(|k| zone.ink[k] && down(k / w) <= MAX_TOP);
    if !high {
        return (Corner::Blank, Vec::new());
    }
    let mut mask = vec![false; w * h];
    let mut pixels = Vec::new();
    let mut bounds: Option<(usize, usize, usize, usize)> = None;
    for piece in pieces(&zone.ink, w, h) {
        let inside = piece.iter().all(|&k| {
            let (x, y) = (k % w, k / w);
            x > 0 && y > 0 && x + 1 < w && y + 1 < h && !zone.near_path[k]
        });
        if !inside {
            continue;
        }
        for k in piece {
            let (x, y) = (k % w, k / w);
            mask[k] = true;
            pixels.push((zone.x0 + x as i64, zone.y0 + y as i64));
            bounds = Some(match bounds {
                None => (x, y, x, y),
                Some((a, b, c, d)) => (a.min(x), b.min(y), c.max(x), d.max(y)),
            });
        }
    }
    let Some((left, top, right, bottom)) = bounds else {
        return (Corner::Other, Vec::new());
    };
    let height = (bottom + 1 - top) as f64 / cell.h;
    let placed = down(top) <= MAX_TOP && across(right) >= MIN_RIGHT && HEIGHT.contains(&height);
    // Ink high in the corner outside the pieces cut would be left unexplained.
    let all_cut = (0..w * h).all(|k| !zone.ink[k] || mask[k] || down(k / w) > MAX_TOP);
    if !(placed && all_cut) {
        return (Corner::Other, Vec::new());
    }
    let ink = Ink {
        width: w,
        height: h,
        on: mask,
    };
    (
        Corner::Total(ink.normalize((left, top, right, bottom))),
        pixels,
    )
}

/// The 8-connected pieces of `on` (`width` × `height`, row by row), each as its pixels'
/// indices.
pub(super) fn pieces(on: &[bool], width: usize, height: usize) -> Vec<Vec<usize>> {
    let mut seen = vec![false; on.len()];
    let mut out = Vec::new();
    for start in 0..on.len() {
        if !on[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut piece = vec![start];
        let mut k = 0;
        while k < piece.len() {
            let (x, y) = (piece[k] % width, piece[k] / width);
            k += 1;
            for yy in y.saturating_sub(1)..(y + 2).min(height) {
                for xx in x.saturating_sub(1)..(x + 2).min(width) {
                    let i = yy * width + xx;
                    if on[i] && !seen[i] {
                        seen[i] = true;
                        piece.push(i);
                    }
                }
            }
        }
        out.push(piece);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 100 px cell at the origin: its zone is x 55..100, y 0..45.
    const CELL: Rect<f64> = Rect {
        x: 0.0,
        y: 0.0,
        w: 100.0,
        h: 100.0,
    };

    /// The zone of `CELL` with ink in the given boxes (cell pixels, inclusive) and the path's
    /// rim over `path`.
    fn zone(boxes: &[(i64, i64, i64, i64)], path: &[(i64, i64, i64, i64)]) -> Zone {
        let (x0, y0, width, height) = zone_of(CELL);
        let fill = |bs: &[(i64, i64, i64, i64)]| {
            (0..width * height)
                .map(|k| {
                    let (x, y) = (x0 + (k % width) as i64, y0 + (k / width) as i64);
                    bs.iter()
                        .any(|&(a, b, c, d)| (a..=c).contains(&x) && (b..=d).contains(&y))
                })
                .collect()
        };
        Zone {
            x0,
            y0,
            width,
            height,
            ink: fill(boxes),
            near_path: fill(path),
        }
    }

    const TOTAL: (i64, i64, i64, i64) = (76, 6, 91, 25);

    #[test]
    fn a_digit_high_in_the_corner_is_the_total() {
        let (corner, pixels) = cut_corner(&zone(&[TOTAL], &[]), CELL);
        assert!(matches!(corner, Corner::Total(_)));
        assert_eq!(pixels.len(), 16 * 20);
        // The count-down beside it, running on below the zone, is left to the number.
        let (corner, pixels) = cut_corner(&zone(&[TOTAL, (40, 16, 70, 70)], &[]), CELL);
        assert!(matches!(corner, Corner::Total(_)));
        assert_eq!(pixels.len(), 16 * 20);
    }

    /// The count-down alone never reaches the cell's top tenth: nothing is cut.
    #[test]
    fn a_count_down_alone_leaves_the_corner_blank() {
        let (corner, pixels) = cut_corner(&zone(&[(30, 15, 74, 70)], &[]), CELL);
        assert!(matches!(corner, Corner::Blank));
        assert!(pixels.is_empty());
    }

    /// Ink high in the corner that is not a total alone: touching the count-down (a "-1"
    /// reaching under it), by the path, too small, or with ink beside it left over.
    #[test]
    fn anything_else_high_in_the_corner_is_no_total() {
        let other = |boxes: &[(i64, i64, i64, i64)], path: &[(i64, i64, i64, i64)]| {
            let (corner, pixels) = cut_corner(&zone(boxes, path), CELL);
            matches!(corner, Corner::Other) && pixels.is_empty()
        };
        assert!(
            other(&[TOTAL, (60, 20, 80, 70)], &[]),
            "touching the number"
        );
        assert!(other(&[TOTAL], &[(90, 20, 99, 30)]), "by the path");
        assert!(other(&[(80, 6, 91, 10)], &[]), "too small");
        assert!(other(&[TOTAL, (56, 5, 60, 60)], &[]), "ink beside it");
    }
}
