//! What a reading leaves empty, checked against the picture: every lattice point read as no
//! island must show neither an island's ring (one the island test lost, e.g. in a blurred
//! copy) nor a bridge that ends there. A reading must explain every mark at a lattice point,
//! so such ink refuses it, naming the cell; and how clearly each point is empty counts towards
//! the reading's confidence, as a number's likeness does. Both looks are checked the same way;
//! an [`Emptiness`] says where each draws its rings and lines and how ink is told from its
//! empty board.

use super::sample::region_around;
use super::web_theme::WebTheme;
use super::Located;
use crate::error::{Error, Result};
use crate::games::hashi::model::{Bridge, Cell};
use crate::vision::color::{luma, off_mix};
use crate::vision::probe::{profile_sum, ray_peak, sure_below};
use image::{Rgba, RgbaImage};

/// Bridges' canvas level (#D5D5D5): darkness is measured down from it.
const CANVAS: f64 = 213.0;

/// How one look's empty lattice points are told from marked ones. Distances are fractions of
/// a tile; ink is in levels off the empty board.
pub(super) struct Emptiness {
    ink: Box<dyn Fn(Rgba<u8>) -> f64>,
    /// Radii that cover an island's rim and stay clear of a neighbour's and of a bridge
    /// through the point, on the diagonals at these angles.
    ring_radii: (f64, f64),
    ring_angles: &'static [f64],
    /// Mean peak ink on the ring at which a point is plainly empty, and plainly an island.
    ring_clean: f64,
    ring_inked: f64,
    /// One line's ink summed across it (levels × tiles).
    line: f64,
    /// How far along towards an empty neighbour a bridge leaving the point is looked for.
    arm_along: f64,
    /// Where the ring hides under more lines through the point than this, they explain it.
    most_lines_clear: u8,
    /// Under a bridge through the point, look straight across it on both sides instead of on
    /// the diagonals, and take the fainter side: the web game draws a hovered bridge as two
    /// lines, one on the centre line and one 0.23 of a cell to one side, reaching the
    /// diagonals. An island shows its rim on both sides.
    across_when_crossed: bool,
    /// Whether the look draws its lattice border (the region named) this far round a point.
    region: f64,
}

/// Where a bridge crossing a point is looked for: this far along (a bridge across the axis
/// through the point reaches 0.19, a neighbour's ring starts at 0.4), this far to each side
/// (a double bridge's outer line ends at 0.19).
const ARM_ALONG: f64 = 0.3;
const ARM_HALF: f64 = 0.25;

/// Lines across an arm, in units of one line: at which it plainly holds none, and plainly one.
const ARM_CLEAN: f64 = 0.15;
const ARM_INKED: f64 = 0.6;

impl Emptiness {
    /// Simon Tatham's Bridges: black rings (stroke centred at 0.54 of a tile) and lines an
    /// eighth of a tile wide on a flat grey canvas. Halfway to the next empty point is clear
    /// of its non-bridge marks (an `x` a quarter tile from a point).
    pub(super) fn sgt() -> Emptiness {
        Emptiness {
            ink: Box::new(|p| (CANVAS - luma(p) as f64).max(0.0)),
            ring_radii: (0.44, 0.57),
            ring_angles: &[40.0, 45.0, 50.0],
            ring_clean: 12.0,
            ring_inked: 50.0,
            line: CANVAS / 8.0,
            arm_along: 0.5,
            most_lines_clear: 2,
            across_when_crossed: false,
            region: super::sgt_canvas::SGT_RING_OUTER,
        }
    }

    /// The web game: discs of radius 0.33 of a cell (a coloured rim and a shadow below reach
    /// 0.4) on a surface with grid lines along the cells' edges, bridges 0.12 of a cell wide
    /// (a double one's lines 0.23 apart, out to 0.17). Ink is the distance off every mix of
    /// surface and grid, less what a lossy copy's tint step leaves on a plain surface. On the
    /// diagonals only: at 40° a double bridge's edge comes within reach of the inner radius.
    /// Halfway to the next point is a grid line, so arms are looked at nearer.
    pub(super) fn web(theme: WebTheme) -> Emptiness {
        Emptiness {
            ink: Box::new(move |p| {
                (off_mix(p, theme.surface, theme.grid) as f64 - WEB_TINT_NOISE).max(0.0)
            }),
            ring_radii: (0.27, 0.4),
            ring_angles: &[45.0],
            ring_clean: 15.0,
            ring_inked: 60.0,
            line: 0.12 * WEB_LINE_INK,
            arm_along: ARM_ALONG,
            most_lines_clear: 2,
            across_when_crossed: true,
            region: 0.4,
        }
    }

    fn ink(&self, p: Rgba<u8>) -> f64 {
        (self.ink)(p)
    }

    /// The ring measure around a point: the mean over the diagonals of the strongest ink
    /// across the ring's radii.
    pub(super) fn ring(&self, img: &RgbaImage, c: (f64, f64), ts: f64) -> f64 {
        let radii = (self.ring_radii.0 * ts, self.ring_radii.1 * ts);
        let mut sum = 0.0;
        let mut n = 0.0;
        for q in 0..4 {
            for a in self.ring_angles {
                let t = (a + 90.0 * q as f64).to_radians();
                sum += ray_peak(img, c, (t.cos(), t.sin()), radii, |p| self.ink(p));
                n += 1.0;
            }
        }
        sum / n
    }

    /// The ring measure around a point that a bridge crosses (`horizontal` or not).
    fn ring_crossed(&self, img: &RgbaImage, c: (f64, f64), ts: f64, horizontal: bool) -> f64 {
        if !self.across_when_crossed {
            return self.ring(img, c, ts);
        }
        let radii = (self.ring_radii.0 * ts, self.ring_radii.1 * ts);
        let sides = if horizontal {
            [(0.0, -1.0), (0.0, 1.0)]
        } else {
            [(-1.0, 0.0), (1.0, 0.0)]
        };
        sides
            .iter()
            .map(|&d| ray_peak(img, c, d, radii, |p| self.ink(p)))
            .fold(f64::INFINITY, f64::min)
    }

    /// Lines crossing the arm of a point towards `(dx, dy)`, `along` tiles out, in units of
    /// one line.
    pub(super) fn arm_lines(
        &self,
        img: &RgbaImage,
        (cx, cy): (f64, f64),
        ts: f64,
        (dx, dy): (f64, f64),
        along: f64,
    ) -> f64 {
        let at = (cx + dx * along * ts, cy + dy * along * ts);
        // Across the arm: swap the axis.
        let across = (dy.abs(), dx.abs());
        profile_sum(img, at, across, ARM_HALF * ts, |p| self.ink(p)) / (self.line * ts)
    }
}

/// What a light level of tint noise leaves of a plain surface in a lossy copy (JPEG q20
/// turned the light surface #e5e7eb into #e9e9e9).
const WEB_TINT_NOISE: f64 = 8.0;
/// A bridge's ink off the surface, in levels (the light theme's #0f172a is 214 off its
/// surface; the preview's blue 192): taken low, so that a faint bridge still counts whole.
const WEB_LINE_INK: f64 = 180.0;

/// Checks every lattice point without an island against the picture; returns how sure the
/// least clear one is (1 when all are plainly empty, or crossed only by read bridges).
pub(super) fn check_empty_points(
    img: &RgbaImage,
    located: &Located,
    bridges: &[Bridge],
    look: &Emptiness,
) -> Result<f64> {
    let g = &located.geometry;
    let ts = g.pitch();
    let mut worst = 1.0f64;
    for row in 0..located.rows {
        for col in 0..located.cols {
            let at = Cell { row, col };
            if located.islands.iter().any(|f| f.at == at) {
                continue;
            }
            let c = g.centre(row, col);
            let c = (c.x, c.y);
            let region = || region_around(c, ts * look.region);
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
            // More lines (a larger maximum) spread past the diagonal samples: the point is
            // then taken as explained by its bridge.
            if across_h.max(across_v) <= look.most_lines_clear {
                let ring = match (across_h, across_v) {
                    (0, 0) => look.ring(img, c, ts),
                    (_, 0) => look.ring_crossed(img, c, ts, true),
                    _ => look.ring_crossed(img, c, ts, false),
                };
                let sure = sure_below(ring, look.ring_clean, look.ring_inked);
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
                    && (r as usize) < located.rows
                    && (c as usize) < located.cols
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
                    let lines = look.arm_lines(img, c, ts, dir, ARM_ALONG);
                    sure_below(-lines, -ARM_INKED - 0.3, -ARM_CLEAN - 0.3)
                } else if empty(next.0, next.1) {
                    // Towards an island no bridge can end here: the games never put islands
                    // side by side.
                    let lines = look.arm_lines(img, c, ts, dir, look.arm_along);
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
