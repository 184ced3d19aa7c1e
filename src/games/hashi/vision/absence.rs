//! What a Bridges reading leaves empty, checked against the picture: every lattice point
//! read as no island must show neither a ring (an island the island test lost, e.g. in a
//! blurred copy) nor a bridge that ends there. A reading must explain every mark at a lattice
//! point, so such ink refuses it, naming the cell; and how clearly each point is empty counts
//! towards the reading's confidence, as a number's likeness does.

use super::sample::region_around;
use super::sgt_lattice::SGT_RING_OUTER;
use super::Located;
use crate::error::{Error, Result};
use crate::games::hashi::model::{Bridge, Cell};
use crate::vision::color::{bilinear, luma};
use image::RgbaImage;

/// Bridges' canvas level (#D5D5D5): darkness is measured down from it.
const CANVAS: f64 = 213.0;

/// Where a ring would be around an empty point, as fractions of the tile: radii that cover
/// a ring's stroke (centre 0.54) and stay clear of a neighbour's ring (0.6 from its centre,
/// one tile away), on the diagonals, clear of any bridge through the point.
const RING_RADII: (f64, f64) = (0.44, 0.57);
const RING_ANGLES_DEG: [f64; 3] = [40.0, 45.0, 50.0];

/// Mean darkness (levels below the canvas) of the ring's stroke around a point at which a
/// point is plainly empty, and at which it is plainly a ring.
const RING_CLEAN: f64 = 12.0;
const RING_INKED: f64 = 50.0;

/// Where a bridge leaving a point would be: a profile across the axis, this far along it
/// (a tile's fraction; a bridge across the axis through the point reaches 0.19, a
/// neighbour's ring starts at 0.4), this far to each side (a double bridge's outer line ends
/// at 0.19).
const ARM_ALONG: f64 = 0.3;
const ARM_HALF: f64 = 0.25;

/// A line's darkness summed across it, in units of one line (Bridges draws lines an eighth
/// of a tile wide): at which an arm plainly holds no line, and plainly does.
const ARM_CLEAN: f64 = 0.15;
const ARM_INKED: f64 = 0.6;

/// Sub-pixel step of the samples.
const STEP: f64 = 0.5;

fn darkness(img: &RgbaImage, x: f64, y: f64) -> f64 {
    bilinear(img, x, y).map_or(0.0, |p| (CANVAS - luma(p) as f64).max(0.0))
}

/// How sure a measure `x` is below `inked`, 1 at `clean` or less.
fn sure_below(x: f64, clean: f64, inked: f64) -> f64 {
    ((inked - x) / (inked - clean)).clamp(0.0, 1.0)
}

/// The ring measure around a point: the mean over the diagonal samples of the darkest point
/// across the ring's radii.
pub(super) fn ring_darkness(img: &RgbaImage, (cx, cy): (f64, f64), ts: f64) -> f64 {
    let steps = (((RING_RADII.1 - RING_RADII.0) * ts) / STEP).ceil() as usize;
    let mut sum = 0.0;
    let mut n = 0.0;
    for q in 0..4 {
        for a in RING_ANGLES_DEG {
            let t = (a + 90.0 * q as f64).to_radians();
            let (dx, dy) = (t.cos(), t.sin());
            let peak = (0..=steps)
                .map(|k| {
                    let r = RING_RADII.0 * ts + k as f64 * STEP;
                    darkness(img, cx + r * dx, cy + r * dy)
                })
                .fold(0.0, f64::max);
            sum += peak;
            n += 1.0;
        }
    }
    sum / n
}

/// Lines crossing the arm of a point towards `(dx, dy)`, in units of one line.
pub(super) fn arm_lines(
    img: &RgbaImage,
    (cx, cy): (f64, f64),
    ts: f64,
    (dx, dy): (f64, f64),
    along: f64,
) -> f64 {
    let (ax, ay) = (cx + dx * along * ts, cy + dy * along * ts);
    // Across the arm: swap the axis.
    let (px, py) = (dy.abs(), dx.abs());
    let n = ((2.0 * ARM_HALF * ts) / STEP).round() as usize;
    let sum: f64 = (0..=n)
        .map(|k| {
            let off = -ARM_HALF * ts + k as f64 * STEP;
            darkness(img, ax + off * px, ay + off * py)
        })
        .sum();
    sum * STEP / (CANVAS * ts / 8.0)
}

/// Checks every lattice point without an island against the picture; returns how sure the
/// least clear one is (1 when all are plainly empty, or crossed only by read bridges).
pub(super) fn check_empty_points(
    img: &RgbaImage,
    located: &Located,
    bridges: &[Bridge],
) -> Result<f64> {
    let g = &located.geometry;
    let ts = g.pitch();
    let mut worst = 1.0f64;
    for row in 0..located.height {
        for col in 0..located.width {
            let at = Cell { row, col };
            if located.islands.iter().any(|f| f.at == at) {
                continue;
            }
            let c = g.centre(row, col);
            let c = (c.x, c.y);
            let region = || region_around(c, ts * SGT_RING_OUTER);
            let through = |horizontal: bool| {
                bridges
                    .iter()
                    .filter(|b| {
                        if horizontal {
                            b.a.row == row && b.b.row == row && b.a.col < col && col < b.b.col
                        } else {
                            b.a.col == col && b.b.col == col && b.a.row < row && row < b.b.row
                        }
                    })
                    .map(|b| b.count)
                    .max()
                    .unwrap_or(0)
            };
            let (across_h, across_v) = (through(true), through(false));
            // Three lines or more (a larger maximum) spread past the diagonal samples: the
            // point is then taken as explained by its bridge.
            if across_h.max(across_v) < 3 {
                let ring = ring_darkness(img, c, ts);
                let sure = sure_below(ring, RING_CLEAN, RING_INKED);
                if sure < super::MIN_CONFIDENCE {
                    return Err(Error::vision(
                        Some(region()),
                        format!(
                            "ink at row {row} col {col} that is neither an island nor a bridge \
                             (a ring too faint to read?)"
                        ),
                    ));
                }
                worst = worst.min(sure);
            }
            let empty = |r: isize, c: isize| {
                r >= 0
                    && c >= 0
                    && (r as usize) < located.height
                    && (c as usize) < located.width
                    && !located.islands.iter().any(|f| {
                        f.at == Cell {
                            row: r as usize,
                            col: c as usize,
                        }
                    })
            };
            for (dir, across) in [
                ((-1.0, 0.0), across_h),
                ((1.0, 0.0), across_h),
                ((0.0, -1.0), across_v),
                ((0.0, 1.0), across_v),
            ] {
                let next = (row as isize + dir.1 as isize, col as isize + dir.0 as isize);
                let sure = if across > 0 {
                    let lines = arm_lines(img, c, ts, dir, ARM_ALONG);
                    sure_below(-lines, -ARM_INKED - 0.3, -ARM_CLEAN - 0.3)
                } else if empty(next.0, next.1) {
                    // Halfway to the next empty point: clear of Bridges' non-bridge marks (a
                    // quarter tile from a point) and of bridges across either point. Towards
                    // an island no bridge can end here: Bridges never puts islands side by side.
                    let lines = arm_lines(img, c, ts, dir, 0.5);
                    sure_below(lines, ARM_CLEAN, ARM_INKED)
                } else {
                    continue;
                };
                if sure < super::MIN_CONFIDENCE {
                    let what = if across > 0 {
                        "a bridge read across it is not drawn there"
                    } else {
                        "a drawn bridge ends there"
                    };
                    return Err(Error::vision(
                        Some(region()),
                        format!("empty cell at row {row} col {col}: {what}"),
                    ));
                }
                worst = worst.min(sure);
            }
        }
    }
    Ok(worst)
}
