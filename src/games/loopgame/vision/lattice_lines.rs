//! The lattice from the grid lines: the usual way, exact wherever the lines survive, and
//! checked against where the board colour ends.

use super::board::{
    beyond_edges, board_colour, could_step, flank_like, flanked, grid_like, lerp, on_board,
    steps_from_flanks, ColourMemo, COARSE, EDGE_LEAK, FLANK_SLACK, MAX_CELLS, MIN_CELLS,
};
use super::look::{path_ink, Look};
use super::{pixel, region_of, Located};
use crate::error::{Error, Result};
use crate::vision::components::Component;
use crate::vision::geometry::Geometry;
use crate::vision::lattice::{axis_from_lines, axis_from_lines_at_pitch, Axis};
use image::{Rgba, RgbaImage};

/// The lattice inside a board-coloured area, from its grid lines.
pub(super) fn lattice(img: &RgbaImage, look: &Look, area: &Component) -> Result<Located> {
    let region = area.rect();
    // The coarse box is short of the outer lines by up to a sampling step, and a drawn path
    // can cut the board's colour into pieces, the largest of them short of the board: look
    // for lines half the box's size around it (outside the board nothing is on the grid mix).
    let pad = (area.x1 - area.x0).max(area.y1 - area.y0) / 2 + COARSE + 2;
    let x0 = area.x0.saturating_sub(pad);
    let y0 = area.y0.saturating_sub(pad);
    let x1 = (area.x1 + pad).min(img.width() as usize - 1);
    let y1 = (area.y1 + pad).min(img.height() as usize - 1);
    let window = Window::of(img, look, x0, y0, x1, y1);
    let mut cols = vec![0usize; x1 + 1 - x0];
    let mut rows = vec![0usize; y1 + 1 - y0];
    let is_board = |x: i64, y: i64| window.at(x, y) == Class::Board;
    let flank_memo = std::cell::RefCell::new(ColourMemo::new());
    let flank = |p| {
        flank_memo
            .borrow_mut()
            .get(p, |p| flank_like(p, look, FLANK_SLACK))
    };
    for y in y0..=y1 {
        for x in x0..=x1 {
            let (x, y) = (x as i64, y as i64);
            let class = window.at(x, y);
            let mut across = match class {
                Class::Grid => [true, false].map(|a| flanked(x, y, a, is_board)),
                _ => [false; 2],
            };
            // A tinted picture's video colour rings beside the lines between a tinted cell and
            // a plain one, casting them and their sides in neither colour: such a line is told
            // by its even step from what lies beside it.
            if across == [false; 2]
                && look.tint.is_some()
                && matches!(class, Class::Grid | Class::MaybeLine)
            {
                across = [true, false].map(|a| steps_from_flanks(img, look, x, y, a, &flank));
            }
            // The path's anti-aliased rim is the same grey mix as a grid line when it runs
            // over the board colour: grey next to path ink is not grid.
            if across == [false, false] || window.near_path(x, y) {
                continue;
            }
            cols[x as usize - x0] += across[0] as usize;
            rows[y as usize - y0] += across[1] as usize;
        }
    }
    let no_grid = || {
        Error::vision(
            Some(region),
            "a flat area of the board colour, but no evenly spaced grid lines in it",
        )
    };
    // A line runs the whole board, at least the area's side.
    let (aw, ah) = (area.x1 - area.x0, area.y1 - area.y0);
    keep_flanked(
        &mut cols,
        x0,
        ah,
        |x, k| (x, lerp(area.y0, area.y1, k)),
        img,
        look,
    );
    keep_flanked(
        &mut rows,
        y0,
        aw,
        |y, k| (lerp(area.x0, area.x1, k), y),
        img,
        look,
    );
    let (mut ax, mut ay) = square_axes(&cols, x0, ah, &rows, y0, aw).ok_or_else(no_grid)?;
    // A blurred outer line (a rescaled capture) can vanish into the page's shadow, and a lossy
    // copy can smear out whole lines, leaving the lattice cells short on a side; the board
    // colour going on past it tells. Such a side gains cells while it does, and each new edge
    // must then be where the board colour ends.
    let mut grown = [false; 4];
    for _ in 0..MAX_CELLS {
        // Also probed a JPEG block out, clear of a line a lossy copy smeared over its block.
        let board = Geometry::from_axes(ax, ay).board;
        let (near, far) = (
            beyond_edges(img, look, board, 3.0),
            beyond_edges(img, look, board, 8.0),
        );
        let leaks: [bool; 4] = std::array::from_fn(|k| near[k].max(far[k]) > EDGE_LEAK);
        if leaks == [false; 4] || ax.cells.max(ay.cells) > MAX_CELLS {
            break;
        }
        if leaks[0] {
            ax.start -= ax.pitch;
        }
        if leaks[2] {
            ay.start -= ay.pitch;
        }
        ax.cells += leaks[0] as usize + leaks[1] as usize;
        ay.cells += leaks[2] as usize + leaks[3] as usize;
        for k in 0..4 {
            grown[k] |= leaks[k];
        }
    }
    if ax.cells != ay.cells
        || !(MIN_CELLS..=MAX_CELLS).contains(&ax.cells)
        || (ax.pitch - ay.pitch).abs() > 0.05 * ax.pitch
    {
        return Err(Error::vision(
            Some(region),
            format!(
                "grid lines make {}×{} cells of {:.1}×{:.1} px: not a square Loop board",
                ax.cells, ay.cells, ax.pitch, ay.pitch
            ),
        ));
    }
    let geometry = Geometry::from_axes(ax, ay);
    let b = geometry.board;
    // Just outside a true board's edges there is page, not board; just inside a grown edge
    // there is still board. A grown edge lies a whole pitch from a found line, and the outer
    // cells of a video frame are a little narrower than the inner ones (166 px against 168 in
    // a tutorial's frame), so at large cells the probe keeps a fiftieth of a pitch clear: a
    // wrong lattice is a whole cell off.
    let clear = 3.0f64.max(ax.pitch / 50.0);
    let outside = beyond_edges(img, look, b, clear);
    let inside = beyond_edges(img, look, b, -clear);
    // A grown side must end inside the picture: past its edge nothing says where the board
    // colour ends (a page taken for a tinted board runs to it, and the lattice grows whole
    // cells into it).
    let (w, h) = (img.width() as f64, img.height() as f64);
    let seen = [
        b.x >= -1.0,
        b.x + b.w <= w + 1.0,
        b.y >= -1.0,
        b.y + b.h <= h + 1.0,
    ];
    let inside_short = (0..4).any(|k| grown[k] && (inside[k] < 16 || !seen[k]));
    if outside.iter().any(|&n| n > EDGE_LEAK) || inside_short {
        return Err(Error::vision(
            Some(region_of(b)),
            "the grid lines found do not end at the board's edge: the lattice is not the board",
        ));
    }
    Ok(Located {
        look: *look,
        geometry,
        size: ax.cells,
    })
}

/// The two axes of the grid lines, cells square: when one axis's lines are too few for their
/// own typical gap to be the pitch (a lossy copy smears some out), the other axis's finer
/// pitch is tried on them, as long as every gap is a whole number of it.
fn square_axes(
    cols: &[usize],
    x0: usize,
    ah: usize,
    rows: &[usize],
    y0: usize,
    aw: usize,
) -> Option<(Axis, Axis)> {
    let ax = axis_from_lines(cols, x0, ah);
    let ay = axis_from_lines(rows, y0, aw);
    let agree = |a: &Axis, b: &Axis| (a.pitch - b.pitch).abs() <= 0.05 * a.pitch;
    match (ax, ay) {
        (Some(a), Some(b)) if agree(&a, &b) => Some((a, b)),
        (Some(a), b) if b.is_none_or(|b| b.pitch > a.pitch) => {
            Some((a, axis_from_lines_at_pitch(rows, y0, aw, a.pitch)?))
        }
        (a, Some(b)) if a.is_none_or(|a| a.pitch > b.pitch) => {
            Some((axis_from_lines_at_pitch(cols, x0, ah, b.pitch)?, b))
        }
        _ => None,
    }
}

/// Clears the runs of a grid-line profile (entries each counted `samples` pixels, a line at
/// least a quarter of them) that do not have the board colour on both sides: a page element's
/// edge can be the same grey as a grid line (a browser bar's border above a short window's
/// board), but only a grid line lies inside the board. `at(pos, k)` is the point at fraction
/// `k` along the line at `pos`.
fn keep_flanked(
    profile: &mut [usize],
    start: usize,
    samples: usize,
    at: impl Fn(f64, f64) -> (f64, f64),
    img: &RgbaImage,
    look: &Look,
) {
    const FLANK: f64 = 3.0;
    const POINTS: usize = 16;
    for (s, n) in crate::vision::runs::runs(profile.iter().map(|&c| c * 4 >= samples)) {
        let sides = [
            (start + s) as f64 - FLANK,
            (start + s + n - 1) as f64 + FLANK,
        ];
        // Paths cross a line here and there; most of it must still be flanked.
        let flanked = (0..POINTS)
            .filter(|&k| {
                let t = (k as f64 + 0.5) / POINTS as f64;
                sides.iter().all(|&side| {
                    let (x, y) = at(side, t);
                    pixel(img, x, y).is_some_and(|p| {
                        on_board(p, look, 1)
                            || (look.tint.is_some() && flank_like(p, look, FLANK_SLACK))
                    })
                })
            })
            .count();
        if flanked * 2 < POINTS {
            profile[s..s + n].iter_mut().for_each(|c| *c = 0);
        }
    }
}

/// What the lattice scan needs to know of a pixel, decided once per pixel of its window.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Class {
    #[default]
    Other,
    Board,
    Grid,
    Path,
    /// Other, but a tinted picture's line might show so (`could_step`).
    MaybeLine,
}

impl Class {
    fn of(p: Rgba<u8>, look: &Look) -> Class {
        if grid_like(p, look) {
            Class::Grid
        } else if board_colour(p, look) {
            Class::Board
        } else if path_ink(p, look) {
            Class::Path
        } else if could_step(p, look) {
            Class::MaybeLine
        } else {
            Class::Other
        }
    }
}

/// The pixels from (x0, y0) to (x1, y1) inclusive, classified; outside it everything is
/// `Other`.
struct Window {
    x0: i64,
    y0: i64,
    width: i64,
    height: i64,
    class: Vec<Class>,
}

impl Window {
    fn of(img: &RgbaImage, look: &Look, x0: usize, y0: usize, x1: usize, y1: usize) -> Window {
        let (width, height) = (x1 + 1 - x0, y1 + 1 - y0);
        let mut memo = ColourMemo::new();
        let class = (0..width * height)
            .map(|k| {
                let p = *img.get_pixel((x0 + k % width) as u32, (y0 + k / width) as u32);
                memo.get(p, |p| Class::of(p, look))
            })
            .collect();
        Window {
            x0: x0 as i64,
            y0: y0 as i64,
            width: width as i64,
            height: height as i64,
            class,
        }
    }

    fn at(&self, x: i64, y: i64) -> Class {
        let (i, j) = (x - self.x0, y - self.y0);
        if i < 0 || j < 0 || i >= self.width || j >= self.height {
            return Class::Other;
        }
        self.class[(j * self.width + i) as usize]
    }

    /// Whether path ink lies within nine pixels across or along: the path's own anti-aliased
    /// rim lies within three, and a lossy copy (JPEG) rings grey out to the end of its 8-px
    /// block. Grid lines run half a cell from the path's centre, further than that at any
    /// cell size read.
    fn near_path(&self, x: i64, y: i64) -> bool {
        [2, 3, 5, 7, 9, -2, -3, -5, -7, -9]
            .iter()
            .any(|&d| self.at(x + d, y) == Class::Path || self.at(x, y + d) == Class::Path)
    }
}

#[cfg(test)]
mod tests {
    use super::super::look::LIGHT;
    use super::*;

    /// A light 4×4 board of 60-px cells with 1-px lines of the grid colour (its outer lines
    /// too), on a page of `page` 30 px wide.
    fn light_board(page: [u8; 3]) -> RgbaImage {
        let (m, p, n) = (30u32, 60u32, 4u32);
        let side = 2 * m + n * p + 1;
        let mut img = RgbaImage::from_pixel(side, side, Rgba([page[0], page[1], page[2], 255]));
        let [r, g, b] = LIGHT.board;
        let [gr, gg, gb] = LIGHT.grid;
        for y in m..=m + n * p {
            for x in m..=m + n * p {
                let line = (x - m) % p == 0 || (y - m) % p == 0;
                let c = if line { [gr, gg, gb] } else { [r, g, b] };
                img.put_pixel(x, y, Rgba([c[0], c[1], c[2], 255]));
            }
        }
        img
    }

    /// The page taken for a tint (it is as far off white as a tutorial's highlighted cells):
    /// the board colour then goes on past every edge, so the lattice grows cell by cell until
    /// it runs past the picture, where nothing says the board ends. Refused; the plain look
    /// reads the board.
    #[test]
    fn a_lattice_grown_to_the_pictures_edge_is_refused() {
        let page = [0xf3, 0xf3, 0xf3];
        let img = light_board(page);
        let area = Component {
            count: 0,
            x0: 34,
            y0: 34,
            x1: 266,
            y1: 266,
        };
        let plain = lattice(&img, &LIGHT, &area).unwrap();
        assert_eq!(plain.size, 4);
        let paged = Look {
            tint: Some(page),
            ..LIGHT
        };
        let read = lattice(&img, &paged, &area);
        assert!(read.is_err(), "{:?}", read.map(|l| l.size));
    }
}
