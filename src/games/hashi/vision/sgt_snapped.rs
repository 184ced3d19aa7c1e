//! The last resort for a heavily compressed Bridges screen (JPEG quality 20), where the
//! window has blended into the canvas colour on every side and no canvas edge is left to
//! find: the canvas is snapped to the lattice the rings fit instead.

use super::sgt_canvas::SGT_RING_OUTER;
use super::sgt_canvas::{sgt_canvas, LOSSY_CANVAS_TOLERANCE, LOSSY_EDGE_ERROR};
use super::sgt_lattice::{fit_rings, locate_sgt, sgt_islands, sgt_top_ring, tile_sizes};
use super::Located;
use crate::games::hashi::model::Cell;
use image::RgbaImage;

/// The board of a lossy copy whose window has blended into the canvas colour all round (JPEG
/// q20 erases the one-level step to a status bar or to the window's sides). The canvas edges
/// are then the outermost lattice lines, as the rings place them, inside the blended area:
/// right when the window shows less than a tile beyond the canvas on each side. A wider band
/// of window would read as an empty outer row or column, so a board whose outer rows and
/// columns do not all hold an island is refused here.
pub(super) fn locate_sgt_snapped(img: &RgbaImage) -> Option<Located> {
    let area = sgt_canvas(img, LOSSY_CANVAS_TOLERANCE)?;
    let canvas = sgt_canvas_snapped(img, area)?;
    let located = locate_sgt(img, canvas, LOSSY_EDGE_ERROR)?;
    outer_lines_hold_islands(&located).then_some(located)
}

/// As [`locate_sgt_snapped`], with the blended area found on the picture's 3×3 block means: at
/// 14 px tiles a canvas-only picture's border band is narrower than a JPEG block and the
/// codec's ringing from the rings swings it past the canvas test at every coarse sample, but
/// it swings both ways, and a block's mean lands back near the canvas colour.
pub(super) fn locate_sgt_smoothed(img: &RgbaImage) -> Option<Located> {
    let smooth = crate::vision::sample::box_mean(img, 3);
    let area = sgt_canvas(&smooth, LOSSY_CANVAS_TOLERANCE)?;
    let canvas = sgt_canvas_snapped(img, area)?;
    let located = locate_sgt(img, canvas, LOSSY_EDGE_ERROR)?;
    outer_lines_hold_islands(&located).then_some(located)
}

/// Whether the first and last row and column of a located board each hold an island.
fn outer_lines_hold_islands(located: &Located) -> bool {
    let (w, h) = (located.cols, located.rows);
    let any = |f: &dyn Fn(Cell) -> bool| located.islands.iter().any(|i| f(i.at));
    any(&|c| c.row == 0)
        && any(&|c| c.row + 1 == h)
        && any(&|c| c.col == 0)
        && any(&|c| c.col + 1 == w)
}

/// The canvas inside the blended area of a lossy copy, its edges on the lattice the rings
/// fit: for each tile size the area's width allows, the lattice through the top ring is
/// fitted to the rings it finds, and the outermost lattice lines within the area (give or take
/// a lossy edge's error) bound the canvas. The lattice carrying the most rings wins.
fn sgt_canvas_snapped(
    img: &RgbaImage,
    (gx, gy, gw, gh): (i64, i64, i64, i64),
) -> Option<(i64, i64, i64, i64)> {
    let ((top_x, top_y), thick) = sgt_top_ring(img, (gx, gy, gw, gh))?;
    let ts_range = tile_sizes(thick);
    let err = LOSSY_EDGE_ERROR;
    let mut best: Option<(usize, (f64, f64, f64, f64))> = None;
    for nx in 3..=(gw / 10).max(3) as usize {
        let ts = gw as f64 / nx as f64;
        if !ts_range.contains(&ts) {
            continue;
        }
        let on_lattice = |v: f64, edge: i64| v - ((v - edge as f64) / ts).round() * ts;
        let corner = (
            on_lattice(top_x, gx),
            on_lattice(top_y + SGT_RING_OUTER * ts, gy),
        );
        let tiles = |side: i64| ((side as f64 / ts).round() as usize).max(1) - 1;
        let rough = sgt_islands(img, corner, ts, tiles(gw), tiles(gh));
        let Some((corner, ts)) = fit_rings(img, &rough, corner, ts) else {
            continue;
        };
        // The first lattice line at or after `lo`, and the last at or before `hi`.
        let first = |c: f64, lo: f64| c + ((lo - err - c) / ts).ceil() * ts;
        let last = |c: f64, hi: f64| c + ((hi + err - c) / ts).floor() * ts;
        let (left, right) = (first(corner.0, gx as f64), last(corner.0, (gx + gw) as f64));
        let (top, bottom) = (first(corner.1, gy as f64), last(corner.1, (gy + gh) as f64));
        let (cols, rows) = (
            ((right - left) / ts).round() as usize,
            ((bottom - top) / ts).round() as usize,
        );
        if cols < 4 || rows < 4 {
            continue;
        }
        let found = sgt_islands(img, (left, top), ts, cols - 1, rows - 1).len();
        if best.as_ref().is_none_or(|b| found > b.0) {
            best = Some((found, (left, top, right, bottom)));
        }
    }
    let (_, (left, top, right, bottom)) = best?;
    let r = |v: f64| v.round() as i64;
    Some((r(left), r(top), r(right) - r(left), r(bottom) - r(top)))
}

#[cfg(test)]
mod tests {
    use super::super::recognize;
    use super::super::sgt_canvas::sgt_canvas_lossy;
    use super::super::truth::{corpus, seen};
    use super::*;

    /// Saved at JPEG quality 20, a Bridges app screen's status bar and window sides (one level
    /// darker than the canvas, no separator line) blend into the canvas; the canvas is then
    /// bounded by the lattice lines the rings fit, and each copy reads as the PNG does.
    #[test]
    fn a_heavily_compressed_bridges_screen_with_no_edge_left_reads_as_the_png_does() {
        use crate::vision::test_pictures::jpeg_copy;
        let Some(all) = corpus() else { return };
        let screens: Vec<_> = all
            .iter()
            .filter(|(n, _, _)| n.starts_with("sgt-bridges_"))
            .collect();
        assert!(!screens.is_empty());
        for (name, img, truth) in screens {
            let copy = jpeg_copy(img, 20);
            // The canvas colour's area runs past the canvas: the edge search alone misses it.
            assert!(
                sgt_canvas_lossy(&copy)
                    .and_then(|c| locate_sgt(&copy, c, LOSSY_EDGE_ERROR))
                    .is_none(),
                "{name}"
            );
            let r = recognize(&copy).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(seen(&r), *truth, "{name}");
        }
    }

    /// The snapped canvas refuses a board with an outer row of no island: there the band of
    /// window beyond the canvas could be taken for that row.
    #[test]
    fn a_snapped_board_must_have_islands_on_every_outer_line() {
        let Some(all) = corpus() else { return };
        let (_, img, _) = all
            .iter()
            .find(|(n, _, _)| n.starts_with("sgt-bridges_7x7"))
            .unwrap();
        let copy = crate::vision::test_pictures::jpeg_copy(img, 20);
        let mut located = locate_sgt_snapped(&copy).expect("reads");
        assert!(outer_lines_hold_islands(&located));
        located.islands.retain(|i| i.at.row + 1 != located.rows);
        assert!(!outer_lines_hold_islands(&located));
    }
}
