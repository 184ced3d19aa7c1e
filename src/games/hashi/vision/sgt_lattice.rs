//! The Bridges board on a canvas: the tile size and corner that put the island rings on the
//! lattice, and the islands found there. An exact capture's canvas edges give the lattice
//! outright; a lossy or rescaled copy's are a few pixels off, so there the lattice is fitted
//! to the rings themselves.

use super::digits::glyphs_in_disc;
use super::sample::{px, region_around, ring_at_least, ring_band_at_least, RING_CLEAR, RING_FILL};
use super::sgt_blur::{enlargement, sharp_height};
use super::sgt_canvas::{sgt_faint_ink, sgt_ink, SGT_BACKGROUND, SGT_LINE, SGT_RING_OUTER};
use super::web::Fill;
use super::{Found, Located, Style};
use crate::games::hashi::model::Cell;
use crate::rect::Rect;
use crate::screen::PixelPoint;
use crate::vision::color::{is_red, luma};
use crate::vision::geometry::Geometry;
use crate::vision::runs::runs;
use image::{Rgba, RgbaImage};

/// The disc a number's glyphs are cut from: just inside the ring (Bridges refuses orthogonally
/// joined islands, so no neighbour's ring reaches this far in). The ring's inner edge is
/// anti-aliased over a pixel of the picture it was drawn in, and an enlarged copy widens
/// that band with the tile (2 px at 2× of a 32 px tile), so the gap kept from it grows with
/// the tile too: at a fixed 1.5 px, box copies of 32 px tiles at 1.9× and 2× cut the ring's
/// edge into a dozen slivers beside the digit. A number's ink reaches about 0.31 of a tile
/// from the centre (two digits at Bridges' smaller size for 10 and up), well inside.
pub(super) fn digit_radius(ts: f64) -> f64 {
    ts * (SGT_RING_OUTER - SGT_LINE) - RING_EDGE_GAP.max(RING_EDGE_GAP_PER_TILE * ts)
}
const RING_EDGE_GAP: f64 = 1.5;
const RING_EDGE_GAP_PER_TILE: f64 = 0.06;

/// The topmost ink on a canvas `(x, y, w, h)` (the top of an island's ring, straight above its
/// centre) and how many pixels thick the ring is there.
pub(super) fn sgt_top_ring(
    img: &RgbaImage,
    (gx, gy, gw, gh): (i64, i64, i64, i64),
) -> Option<((f64, f64), f64)> {
    // A canvas found from a picture's edge may reach past it: only its pixels inside count.
    let (x0, y0) = (gx.max(0), gy.max(0));
    let x1 = (gx + gw).min(img.width() as i64);
    let y1 = (gy + gh).min(img.height() as i64);
    let row_runs = |y: i64| runs((x0..x1).map(|x| sgt_ink(*img.get_pixel(x as u32, y as u32))));
    let centre = |(s, n): (usize, usize)| x0 as f64 + s as f64 + (n as f64 - 1.0) / 2.0;
    let (first, top_y) = (y0..y1).find_map(|y| row_runs(y).first().map(|&r| (r, y as f64)))?;
    // The arc's top is centred in the row below the first when that row's run spans it: a
    // rescaled copy leaves the first row's pixels partly dark, and one of them just past the
    // ink test (a pixel at the end of an arc 10 px wide at 1.35×) put the centre 4 px off. (A
    // thin ring's next row is already two walls, neither spanning the top.)
    let below = (top_y as i64 + 1 < y1)
        .then(|| row_runs(top_y as i64 + 1))
        .and_then(|rs| {
            rs.into_iter()
                .find(|&(s, n)| s <= first.0 && first.0 + first.1 <= s + n)
        });
    let top_x = centre(below.unwrap_or(first));
    let column = |y: i64| *img.get_pixel(top_x.round() as u32, y as u32);
    let start = (top_y as i64..(top_y as i64 + 2).min(y1)).find(|&y| sgt_ink(column(y)))?;
    let run = (start..y1).take_while(|&y| sgt_ink(column(y))).count() as i64;
    // The line's darkness summed down the column, in pixels of full ink: a filter spreads a
    // line over partly dark pixels on both sides (a 5.4 px line rescaled by Lanczos crossed
    // seven pixels darker than the ink test), and the sum keeps the width it was drawn with.
    // Brighter than the canvas counts as none: a done island's disc is white inside the ring.
    // An error highlight draws the ring red, which is ink at any shade.
    let canvas = SGT_BACKGROUND[0] as f64;
    let darkness = |p: Rgba<u8>| {
        if is_red(p) {
            1.0
        } else {
            ((canvas - luma(p) as f64) / canvas).max(0.0)
        }
    };
    let thick: f64 = (start - LINE_PAD..start + run + LINE_PAD)
        .filter(|&y| y >= y0 && y < y1)
        .map(|y| darkness(column(y)))
        .sum();
    Some(((top_x, top_y), thick.max(1.0)))
}

/// How many pixels past the ink on either side a line's darkness is summed over: a filter's
/// partly dark pixels and its ringing reach about that far.
const LINE_PAD: i64 = 2;

/// The tile sizes a ring line `thick` pixels thick (as `sgt_top_ring` measures it) allows:
/// Bridges draws its lines a whole number of pixels wide, up to a pixel short of an eighth of
/// the tile (7 px at 62 px tiles, 11 % short), and a copy scaled up scales that shortfall with
/// it (12 px at 112 px tiles); the threshold then adds or takes a pixel and a half. The range
/// stays narrower than a factor two from 5 px up, so twice the pitch is never in it.
pub(super) fn tile_sizes(thick: f64) -> std::ops::RangeInclusive<f64> {
    (thick - 1.5) / SGT_LINE..=(thick * SHORTEST_LINE.recip() + 1.5) / SGT_LINE
}

/// The thinnest a Bridges line is drawn, as a share of an eighth of the tile.
const SHORTEST_LINE: f64 = 0.88;

/// How far, in pixels, a ring's measured centre may sit from where an exact capture's canvas
/// edges put it, anywhere on the board.
const SGT_EXACT_DRIFT: f64 = 1.0;

/// How far into the canvas, as a share of the tile, a rescaled copy's filter may ring from a
/// dark frame around it (a window border): Lanczos rings for three source pixels, so the band
/// grows with the scale, and a copy scaled up 1.55× lost 4 px of a 62 px tile's canvas on
/// each side. Twice this stays well under half a tile, so the tile count is never in doubt.
const EDGE_RINGING: f64 = 0.1;

/// A Bridges board's lattice: the canvas corner, the tile size and the board's size.
struct SgtLattice {
    corner: (f64, f64),
    ts: f64,
    w: usize,
    h: usize,
}

/// The board on a canvas `(x, y, w, h)` whose edges are known to within `edge_error` pixels.
pub(super) fn locate_sgt(
    img: &RgbaImage,
    (gx, gy, gw, gh): (i64, i64, i64, i64),
    edge_error: f64,
) -> Option<Located> {
    // The ring is a line's width thick at its top, which bounds the tile size.
    let ((top_x, top_y), thick) = sgt_top_ring(img, (gx, gy, gw, gh))?;
    let ts_range = tile_sizes(thick);

    // The canvas is (W+1)×(H+1) tiles; try every tile count that fits both sides and puts a
    // ring top on the lattice, and keep the one whose lattice carries the most island rings.
    let mut best: Option<(Vec<Cell>, SgtLattice)> = None;
    let err = |ts: f64| {
        if edge_error == 0.0 {
            0.0
        } else {
            edge_error.max(EDGE_RINGING * ts)
        }
    };
    for nx in 3..=(gw / 10).max(3) as usize {
        let ts = gw as f64 / nx as f64;
        let ny = (gh as f64 / ts).round() as usize;
        let misfit = |tile: f64, tiles: usize, side: i64| (side as f64 - tiles as f64 * tile).abs();
        if ny < 3 || misfit(ts, ny, gh) > 1.5 + 2.0 * err(ts) || !ts_range.contains(&ts) {
            continue;
        }
        let off_lattice = |v: f64| (v / ts - (v / ts).round()).abs() * ts;
        let top_centre_y = top_y + SGT_RING_OUTER * ts;
        if off_lattice(top_x - gx as f64) > 2.0 + err(ts)
            || off_lattice(top_centre_y - gy as f64) > 2.0 + 0.03 * ts + err(ts)
        {
            continue;
        }
        let (w, h) = (nx - 1, ny - 1);
        let (corner, ts) = if edge_error == 0.0 {
            ((gx as f64, gy as f64), ts)
        } else {
            // Through the top ring, then fitted to every ring the lattice finds.
            let on_lattice = |v: f64, edge: i64| v - ((v - edge as f64) / ts).round() * ts;
            let corner = (on_lattice(top_x, gx), on_lattice(top_centre_y, gy));
            let rough = sgt_islands(img, corner, ts, w, h);
            let Some((corner, fitted)) = fit_rings(img, &rough, corner, ts) else {
                continue;
            };
            if misfit(fitted, nx, gw) > 1.5 + 2.0 * err(fitted)
                || misfit(fitted, ny, gh) > 1.5 + 2.0 * err(fitted)
            {
                continue;
            }
            (corner, fitted)
        };
        let found = sgt_islands(img, corner, ts, w, h);

        if best.as_ref().is_none_or(|b| found.len() >= b.0.len()) {
            best = Some((found, SgtLattice { corner, ts, w, h }));
        }
    }
    let (centres, SgtLattice { corner, ts, w, h }) = best?;
    let canvas = if edge_error == 0.0 {
        Rect::new(gx as f64, gy as f64, gw as f64, gh as f64)
    } else {
        Rect::new(corner.0, corner.1, (w + 1) as f64 * ts, (h + 1) as f64 * ts)
    };
    if centres.len() < 2 {
        return None;
    }
    if edge_error == 0.0 {
        // An exact capture's canvas edges put every ring where its measured centre is. A
        // rescaled copy blurs the edges a few pixels in: the tile size drifts across the board
        // and the outer islands fall off the lattice, so such a canvas is not taken as exact.
        let (fitted_corner, fitted_ts) = fit_rings(img, &centres, corner, ts)?;
        let drift =
            |k: usize, a: f64, b: f64| ((b + k as f64 * fitted_ts) - (a + k as f64 * ts)).abs();
        let worst = (1..=w)
            .map(|k| drift(k, corner.0, fitted_corner.0))
            .chain((1..=h).map(|k| drift(k, corner.1, fitted_corner.1)))
            .fold(0.0, f64::max);
        if worst > SGT_EXACT_DRIFT {
            return None;
        }
    } else if centres.len() < 3.max(w * h / 20) && !rings_prove_lattice(img, &centres, corner, ts) {
        // A lattice fitted to a handful of rings on a large canvas is a guess, unless the
        // rings themselves pin it.
        return None;
    }
    let centre = |c: Cell| {
        (
            canvas.x + ts * (c.col + 1) as f64,
            canvas.y + ts * (c.row + 1) as f64,
        )
    };
    let digit_r = digit_radius(ts);
    let mut islands: Vec<Found> = centres
        .iter()
        .map(|&at| {
            let c = centre(at);
            Found {
                at,
                glyphs: glyphs_in_disc(img, c, digit_r, sgt_ink),
                faint: glyphs_in_disc(img, c, digit_r, sgt_faint_ink),
                region: region_around(c, ts * SGT_RING_OUTER),
                fill: Fill::Plain,
            }
        })
        .collect();
    let rings: Vec<(f64, f64)> = centres.iter().map(|&at| centre(at)).collect();
    let enlarged = enlargement(img, &rings, ts);
    for cut in islands
        .iter_mut()
        .flat_map(|f| f.glyphs.iter_mut().chain(f.faint.iter_mut()))
    {
        cut.tall = sharp_height(cut.tall, enlarged);
    }
    let geometry = Geometry::square(
        PixelPoint {
            x: canvas.x + ts,
            y: canvas.y + ts,
        },
        ts,
        canvas,
    );
    let located = Located {
        style: Style::Sgt,
        geometry,
        cols: w,
        rows: h,
        islands,
        web: None,
    };
    (edge_error == 0.0 || !rings_beyond(img, &located)).then_some(located)
}

/// Whether an island ring stands on the lattice, carried on over the whole picture, outside
/// the board. A lossy copy's canvas is found as a blended area of its colour, which can stop
/// inside the real canvas (a JPEG copy of a canvas-only picture at 12 px tiles found 8×7 of
/// a 10×10 board), and the smaller board reads as a board of its own.
pub(super) fn rings_beyond(img: &RgbaImage, located: &Located) -> bool {
    let g = &located.geometry;
    let ts = g.pitch();
    let (w, h) = (img.width() as f64, img.height() as f64);
    let before = |o: f64| (o / ts).floor().max(0.0) as usize;
    let after = |o: f64, n: usize, side: f64| {
        ((side - 1.0 - (o + (n as f64 - 1.0) * ts)) / ts)
            .floor()
            .max(0.0) as usize
    };
    let (lx, ly) = (before(g.origin.x), before(g.origin.y));
    let (rx, ry) = (
        after(g.origin.x, located.cols, w),
        after(g.origin.y, located.rows, h),
    );
    let corner = (
        g.origin.x - (lx + 1) as f64 * ts,
        g.origin.y - (ly + 1) as f64 * ts,
    );
    let (cols, rows) = (located.cols + lx + rx, located.rows + ly + ry);
    sgt_islands(img, corner, ts, cols, rows).iter().any(|c| {
        c.col < lx || c.col >= lx + located.cols || c.row < ly || c.row >= ly + located.rows
    })
}

/// The canvas corner and tile size that best put the measured centres of the rings found on
/// a rough lattice (`corner`, `ts`) on the lattice, by least squares: a lossy copy's canvas
/// edges are a pixel or two off, and a tile size taken from them drifts across the board.
pub(super) fn fit_rings(
    img: &RgbaImage,
    cells: &[Cell],
    corner: (f64, f64),
    ts: f64,
) -> Option<((f64, f64), f64)> {
    // (tile index, measured position) along x, then along y.
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for c in cells {
        let (i, j) = ((c.col + 1) as f64, (c.row + 1) as f64);
        let guess = (corner.0 + i * ts, corner.1 + j * ts);
        // A ring an error highlight or a blot hides is left out.
        let Some((mx, my)) = ring_centre(img, guess, ts)
            .filter(|m| (m.0 - guess.0).abs().max((m.1 - guess.1).abs()) < 0.2 * ts)
        else {
            continue;
        };
        xs.push((i, mx));
        ys.push((j, my));
    }
    if xs.len() < 2 {
        return None;
    }
    let mean = |v: &[(f64, f64)]| {
        let n = v.len() as f64;
        (
            v.iter().map(|p| p.0).sum::<f64>() / n,
            v.iter().map(|p| p.1).sum::<f64>() / n,
        )
    };
    let (mx, my) = (mean(&xs), mean(&ys));
    let moment = |v: &[(f64, f64)], m: (f64, f64)| {
        v.iter().fold((0.0, 0.0), |(sab, saa), &(a, b)| {
            (sab + (a - m.0) * (b - m.1), saa + (a - m.0).powi(2))
        })
    };
    let ((sx, ax), (sy, ay)) = (moment(&xs, mx), moment(&ys, my));
    if ax + ay < 1.0 {
        return None;
    }
    let fitted = (sx + sy) / (ax + ay);
    Some(((mx.1 - fitted * mx.0, my.1 - fitted * my.0), fitted))
}

/// How far, as a share of the tile, a fitted lattice may put a ring from its measured centre
/// when the rings alone must prove it.
const FITTED_DRIFT: f64 = 0.05;

/// Whether the rings found on a fitted lattice prove it: a sparse board (a 25×25 Bridges
/// puzzle can hold 28 islands) has too few rings to pass for a dense lattice, but if nearly
/// every one is measured and sits on its lattice point, no other corner or pitch in the range
/// the ring's line width allows (twice the tile size is outside it) fits them all.
fn rings_prove_lattice(img: &RgbaImage, cells: &[Cell], corner: (f64, f64), ts: f64) -> bool {
    let mut measured = 0;
    let mut worst = 0.0f64;
    for c in cells {
        let at = (
            corner.0 + (c.col + 1) as f64 * ts,
            corner.1 + (c.row + 1) as f64 * ts,
        );
        if let Some(m) = ring_centre(img, at, ts) {
            measured += 1;
            worst = worst.max((m.0 - at.0).abs().max((m.1 - at.1).abs()));
        }
    }
    measured >= 8 && 10 * measured >= 9 * cells.len() && worst <= FITTED_DRIFT * ts
}

/// A ring's centre measured from its outer edge along the four diagonals, which no bridge
/// (always level or upright) and no neighbour's ring crosses that close in. `c` is within a
/// few pixels of it.
fn ring_centre(img: &RgbaImage, c: (f64, f64), ts: f64) -> Option<(f64, f64)> {
    let lum = |x: f64, y: f64| {
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let at = |dx: f64, dy: f64| px(img, x0 + dx, y0 + dy).map_or(255.0, |p| luma(p) as f64);
        (at(0.0, 0.0) * (1.0 - fx) + at(1.0, 0.0) * fx) * (1.0 - fy)
            + (at(0.0, 1.0) * (1.0 - fx) + at(1.0, 1.0) * fx) * fy
    };
    const INK: f64 = 110.0;
    const STEP: f64 = 0.25;
    // The last ink-to-canvas crossing along a diagonal, between the digit and the neighbours.
    let edge = |(dx, dy): (f64, f64)| {
        let (from, to) = (0.45 * ts, 0.78 * ts);
        let mut out = None;
        let mut r = from;
        let mut prev = lum(c.0 + r * dx, c.1 + r * dy);
        while r < to {
            let v = lum(c.0 + (r + STEP) * dx, c.1 + (r + STEP) * dy);
            if prev < INK && v >= INK {
                out = Some(r + STEP * (INK - prev) / (v - prev));
            }
            (prev, r) = (v, r + STEP);
        }
        out
    };
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let along = |d: (f64, f64)| Some((edge(d)? - edge((-d.0, -d.1))?) / 2.0);
    let (a, b) = (along((h, h))?, along((h, -h))?);
    // Offsets along (1,1)/√2 and (1,-1)/√2, back in x and y.
    Some((c.0 + h * (a + b), c.1 + h * (a - b)))
}

pub(super) fn sgt_islands(
    img: &RgbaImage,
    (gx, gy): (f64, f64),
    ts: f64,
    w: usize,
    h: usize,
) -> Vec<Cell> {
    let r = ts * (SGT_RING_OUTER - SGT_LINE / 2.0);
    let mut out = Vec::new();
    for row in 0..h {
        for col in 0..w {
            let c = (gx + ts * (col + 1) as f64, gy + ts * (row + 1) as f64);
            // A ring, not a blot: ink on the ring, little just inside or outside it (the
            // digit is smaller; bridges and neighbours cross the outer circle only briefly).
            if ring_band_at_least(img, c, r, ts * SGT_LINE / 2.0 * 0.8, RING_FILL, sgt_ink)
                && !ring_at_least(img, c, ts * 0.42, RING_CLEAR, sgt_ink)
                && !ring_at_least(img, c, ts * 0.7, RING_CLEAR, sgt_ink)
            {
                out.push(Cell { row, col });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::recognize;
    use std::path::Path;

    /// Rescaled by 1.25×, the canvas edges blur a few pixels in: taken as exact, they put the
    /// outer columns off the lattice and six islands were lost. The lattice fitted to the
    /// rings reads the whole board.
    #[test]
    fn a_capture_rescaled_by_a_quarter_reads_the_whole_board() {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/hashi/bridges_10x10_partial_fullscreen.png");
        let img = image::open(&p).unwrap().to_rgba8();
        let once = recognize(&img).unwrap();
        let big = image::imageops::resize(&img, 2400, 1350, image::imageops::FilterType::Lanczos3);
        let r = recognize(&big).unwrap();
        assert_eq!(r.puzzle, once.puzzle);
        assert_eq!(r.bridges, once.bridges);
    }

    /// A 25×25 board with 28 islands, rescaled by 1.2×: its canvas edges are off, so the
    /// lattice is fitted to the rings, far fewer than a twentieth of its points. The rings
    /// all sitting on their lattice points prove it, and it reads as the capture does.
    #[test]
    fn a_sparse_board_rescaled_reads_on_a_lattice_its_rings_prove() {
        let p = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/hashi/sizes/bridges_25x25_solved_ts20.png");
        let img = image::open(&p).unwrap().to_rgba8();
        let once = recognize(&img).unwrap();
        assert_eq!(once.puzzle.islands.len(), 28);
        let (w, h) = (img.width() * 6 / 5, img.height() * 6 / 5);
        let big = image::imageops::resize(&img, w, h, image::imageops::FilterType::Lanczos3);
        let r = recognize(&big).unwrap();
        assert_eq!(r.puzzle, once.puzzle);
        assert_eq!(r.bridges, once.bridges);
        assert!((r.geometry.pitch() - 24.0).abs() < 0.1);
    }
}
