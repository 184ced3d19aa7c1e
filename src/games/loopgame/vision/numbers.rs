//! Cutting each cell's number out: its glyphs, the strokes the path hides, and its fill
//! colour, ready to be read.

use super::corner::{cut_corner, pieces, zone_of, Corner, Zone};
use super::ink::{matched_ink, number_ink, InkRule};
use super::look::{palette_value, path_ink};
use super::sign::{split_sign, Sign};
use super::{pixel, region_of, Located};
use crate::error::Region;
use crate::games::loopgame::model::Cell;
use crate::vision::color::{dominant, rgb, saturation};
use crate::vision::glyph::{Glyph, Ink};
use image::RgbaImage;

/// A cell holds a number when this share of its inner square is number ink (a "1" at the
/// smallest cell covers about 6%).
pub(super) const NUMBER_SHARE: f64 = 0.02;

/// A number's ink cut out of its cell, not yet read.
#[derive(Debug, Clone)]
pub(super) struct Number {
    pub(super) at: Cell,
    pub(super) glyphs: Vec<Glyph>,
    /// Per glyph, the share of each of its cells on the path or its rim (`PATH_RING`).
    pub(super) unseen: Vec<Glyph>,
    /// Whether the path crosses the number (its strokes there are hidden).
    pub(super) crossed: bool,
    /// Per glyph, each cell's share hidden by the path.
    pub(super) hidden: Vec<Glyph>,
    /// The most common saturated colour of its ink.
    pub(super) colour: [u8; 3],
    /// A minus before the digit (split off `glyphs`), or a digit where one puts it.
    pub(super) sign: Sign,
    /// What the cell's top-right corner shows: the small total of the app's "Show both"
    /// behaviour is cut off before the count-down is cut into `glyphs`.
    pub(super) corner: Corner,
    pub(super) region: Region,
}

/// A cell with number ink too little to be a number: a number's leftovers (blurred, shrunk,
/// half rubbed out) or a stray mark, not a blank cell.
#[derive(Debug, Clone)]
pub(super) struct Faint {
    pub(super) at: Cell,
    /// The share of the cell's inner square that is number ink.
    pub(super) share: f64,
    pub(super) region: Region,
}

/// What the cells hold: numbers cut out, and the cells with some number ink but too little.
#[derive(Debug, Clone, Default)]
pub(super) struct Cut {
    pub(super) numbers: Vec<Number>,
    pub(super) faint: Vec<Faint>,
}

/// Cuts the number out of every cell that has one, as the templates were learned.
pub(super) fn numbers(img: &RgbaImage, l: &Located) -> Vec<Number> {
    numbers_by(img, l, InkRule::Saturated).numbers
}

pub(super) fn numbers_by(img: &RgbaImage, l: &Located, rule: InkRule) -> Cut {
    let g = &l.geometry;
    let mut out = Cut::default();
    for r in 0..l.size {
        for c in 0..l.size {
            let cell = g.cell(r, c);
            // Clear of the grid lines and the neighbours' anti-aliasing.
            let inset = 0.06 * g.pitch();
            let x0 = (cell.x + inset).ceil() as i64;
            let y0 = (cell.y + inset).ceil() as i64;
            let side = (cell.w - 2.0 * inset).floor().max(1.0) as usize;
            let mut on = vec![false; side * side];
            let mut path = vec![false; side * side];
            let mut colours = Vec::new();
            let at =
                |i: usize, j: usize| pixel(img, (x0 + i as i64) as f64, (y0 + j as i64) as f64);
            let matched = (rule == InkRule::Matched).then(|| {
                let fill: Vec<[u8; 3]> = (0..side * side)
                    .filter_map(|k| at(k % side, k / side))
                    .map(rgb)
                    .filter(|&p| saturation(p) >= 80)
                    .collect();
                l.look.numbers[palette_value(&l.look, fill_colour(&fill))]
            });
            let is_ink = |p| match matched {
                Some(colour) => matched_ink(p, &l.look, colour),
                None => number_ink(p, &l.look, rule),
            };
            for j in 0..side {
                for i in 0..side {
                    let Some(p) = at(i, j) else {
                        continue;
                    };
                    if is_ink(p) {
                        on[j * side + i] = true;
                        if saturation(rgb(p)) >= 80 {
                            colours.push((j * side + i, rgb(p)));
                        }
                    } else if path_ink(p, &l.look) {
                        path[j * side + i] = true;
                    }
                }
            }
            if matched.is_some() {
                drop_specks(&mut on, side, speck_area(g.pitch()));
            }
            let count = on.iter().filter(|&&v| v).count();
            if (count as f64) < NUMBER_SHARE * (side * side) as f64 {
                if count > 0 {
                    out.faint.push(Faint {
                        at: [r, c],
                        share: count as f64 / (side * side) as f64,
                        region: region_of(cell),
                    });
                }
                continue;
            }
            let (corner, cut) = small_total(img, l, cell, is_ink, matched.is_some());
            for (x, y) in cut {
                let (i, j) = (x - x0, y - y0);
                if (0..side as i64).contains(&i) && (0..side as i64).contains(&j) {
                    on[j as usize * side + i as usize] = false;
                }
            }
            // Beside the path a stroke blends with its black or white, still saturated but
            // darker or paler; on a small crossed digit those pixels can outnumber the fill.
            let touches_path = |k: usize| {
                let (x, y) = (k % side, k / side);
                (y.saturating_sub(1)..(y + 2).min(side)).any(|yy| {
                    (x.saturating_sub(1)..(x + 2).min(side)).any(|xx| path[yy * side + xx])
                })
            };
            let clear: Vec<[u8; 3]> = colours
                .iter()
                .filter(|&&(k, _)| !touches_path(k))
                .map(|&(_, c)| c)
                .collect();
            let colours: Vec<[u8; 3]> = if clear.is_empty() {
                colours.iter().map(|&(_, c)| c).collect()
            } else {
                clear
            };
            let patch = Ink {
                width: side,
                height: side,
                on: on.clone(),
            };
            // A stray anti-aliased speck is no glyph.
            let parts: Vec<_> = patch
                .split()
                .into_iter()
                .filter(|&(a, b, c, d)| (c + 1 - a) * (d + 1 - b) >= 6)
                .collect();
            // The path drawn across a digit can hide whole columns of it: parts with only
            // path between them are one glyph.
            let mut merged: Vec<(usize, usize, usize, usize)> = Vec::new();
            for p in parts {
                if let Some(last) = merged.last_mut() {
                    let gap = last.2 + 1..p.0;
                    let (ya, yb) = (last.1.min(p.1), last.3.max(p.3));
                    // A gap column of the path's anti-aliased rim (neither ink nor path) is
                    // still the path's.
                    let bridged = gap.clone().all(|x| {
                        (ya..=yb).any(|y| {
                            (x.saturating_sub(1)..(x + 2).min(side)).any(|xx| path[y * side + xx])
                        })
                    });
                    if bridged {
                        *last = (last.0, ya, p.2, yb);
                        continue;
                    }
                }
                merged.push(p);
            }
            let near_path = widened(&path, side, PATH_RING);
            let (merged, sign) = split_sign(&merged, &on, &near_path, side);
            let crossed = merged.iter().any(|&(a, b, c, d)| {
                (b.saturating_sub(2)..(d + 3).min(side))
                    .any(|y| (a.saturating_sub(2)..(c + 3).min(side)).any(|x| path[y * side + x]))
            });
            // Only the path's own pixels count as hidden, not its anti-aliased rim: hiding
            // the rim too (a pixel more each side at 0.75x) left too little of a crossed 0 to
            // tell it from a 9 by shape. The rim is left out only in a JPEG copy's second
            // view, where it rings.
            let near_path = Ink {
                width: side,
                height: side,
                on: near_path,
            };
            let hidden = Ink {
                width: side,
                height: side,
                on: path,
            };
            let colour = fill_colour(&colours);
            out.numbers.push(Number {
                at: [r, c],
                glyphs: merged.iter().map(|&b| patch.normalize(b)).collect(),
                hidden: merged.iter().map(|&b| hidden.normalize(b)).collect(),
                unseen: merged.iter().map(|&b| near_path.normalize(b)).collect(),
                crossed,
                colour,
                sign,
                corner,
                region: region_of(cell),
            });
        }
    }
    out
}

/// What `cell`'s top-right corner shows (`corner`), its ink cut with the number's own rule,
/// and the pixels of a small total found there.
fn small_total(
    img: &RgbaImage,
    l: &Located,
    cell: crate::rect::Rect<f64>,
    is_ink: impl Fn(image::Rgba<u8>) -> bool,
    specks: bool,
) -> (Corner, Vec<(i64, i64)>) {
    let (x0, y0, width, height) = zone_of(cell);
    let mut ink = vec![false; width * height];
    let mut path = vec![false; width * height];
    for j in 0..height {
        for i in 0..width {
            let Some(p) = pixel(img, (x0 + i as i64) as f64, (y0 + j as i64) as f64) else {
                continue;
            };
            if is_ink(p) {
                ink[j * width + i] = true;
            } else if path_ink(p, &l.look) {
                path[j * width + i] = true;
            }
        }
    }
    if specks {
        drop_specks_in(&mut ink, width, height, speck_area(l.geometry.pitch()));
    }
    let near_path = grown(&path, width, height, PATH_RING + 1);
    let zone = Zone {
        x0,
        y0,
        width,
        height,
        ink,
        near_path,
    };
    cut_corner(&zone, cell)
}

/// The largest speck of ink a JPEG copy leaves beside a number (its ringing crosses the
/// matched-ink threshold here and there, a few pixels at a time), for cells of `pitch` px:
/// 8 px at the app's smallest cells (50 px), in proportion to the cell's area, at least 2. A
/// stroke's piece cut off by the path is larger.
fn speck_area(pitch: f64) -> usize {
    (8.0 * (pitch / 50.0).powi(2)).round().max(2.0) as usize
}

/// Clears the 8-connected pieces of `on` (a `side`-wide square) of fewer than `area` pixels:
/// a speck below a number would stretch the box the glyph is normalised in.
fn drop_specks(on: &mut [bool], side: usize, area: usize) {
    drop_specks_in(on, side, side, area)
}

fn drop_specks_in(on: &mut [bool], width: usize, height: usize, area: usize) {
    for piece in pieces(on, width, height) {
        if piece.len() < area {
            piece.into_iter().for_each(|i| on[i] = false);
        }
    }
}

/// How far around the path's ink a number's pixels count as unseen: its anti-aliased rim, 1 px.
/// (3 px, to leave out a JPEG copy's ringing beside it too, left too little of crossed 0s to
/// read: 27 of 34 q20 copies read instead of 31.)
const PATH_RING: usize = 1;

/// `mask` grown by `reach` pixels each way (a square), a `side`-wide square patch.
pub(super) fn widened(mask: &[bool], side: usize, reach: usize) -> Vec<bool> {
    grown(mask, side, side, reach)
}

/// `mask` (`width` × `height`, row by row) grown by `reach` pixels each way (a square).
fn grown(mask: &[bool], width: usize, height: usize, reach: usize) -> Vec<bool> {
    (0..mask.len())
        .map(|k| {
            let (x, y) = (k % width, k / width);
            (y.saturating_sub(reach)..(y + reach + 1).min(height)).any(|yy| {
                (x.saturating_sub(reach)..(x + reach + 1).min(width))
                    .any(|xx| mask[yy * width + xx])
            })
        })
        .collect()
}

/// The glyph's flat fill, not its anti-aliased rim: the colour most of its pixels share within
/// 16 levels a channel, averaged. Not the most common exact colour: a lossy copy (JPEG) scatters
/// the fill over many near colours, and one of the rim's could then come out on top.
fn fill_colour(colours: &[[u8; 3]]) -> [u8; 3] {
    if colours.is_empty() {
        return [0, 0, 0];
    }
    dominant(colours.iter().copied(), 4).0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::color::near;
    use image::Rgba;

    /// Specks under the size limit go, pieces at it stay; the limit grows with the cell.
    #[test]
    fn specks_are_dropped_and_strokes_kept() {
        let side = 10;
        let mut on = vec![false; side * side];
        for k in [0, 1, 11] {
            on[k] = true;
        }
        for y in 4..8 {
            for x in 4..6 {
                on[y * side + x] = true;
            }
        }
        drop_specks(&mut on, side, 8);
        assert_eq!(on.iter().filter(|&&v| v).count(), 8);
        assert!(!on[0] && on[4 * side + 4]);
        assert_eq!(speck_area(50.0), 8);
        assert_eq!(speck_area(100.0), 32);
        assert_eq!(speck_area(25.0), 2);
    }

    #[test]
    fn the_fill_colour_outvotes_a_noisy_rim() {
        // A fill scattered a few levels either way (a lossy copy), and more rim pixels than
        // any one fill shade, each a different blend towards the white board.
        let fill = [0xff, 0x41, 0x69];
        let mut colours: Vec<[u8; 3]> = (0..40)
            .map(|k| {
                [
                    0xff - (k % 3) as u8,
                    0x3f + (k % 5) as u8,
                    0x67 + (k % 4) as u8,
                ]
            })
            .collect();
        colours.extend((1..=30).map(|k| [0xff, 0x41 + 6 * k as u8, 0x69 + 5 * k as u8]));
        let got = fill_colour(&colours);
        assert!(
            near(Rgba([got[0], got[1], got[2], 255]), fill, 3),
            "{got:?}"
        );
        assert_eq!(fill_colour(&[]), [0, 0, 0]);
    }
}
