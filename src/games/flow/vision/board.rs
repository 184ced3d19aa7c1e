//! Finding the board among everything else on the screen: Flow Free draws its grid as thin
//! lines brighter than the dark cells, in a colour that differs by device and level pack, so
//! the board is the largest web of thin bright lines that makes an evenly spaced lattice of
//! square cells. Headers, buttons and text make thin lines too, but short ones that never
//! join into a lattice; the faint streaks behind some boards are too wide to be lines at all.

use super::confidence::Weakest;
use crate::error::{Error, Region, Result};
use crate::rect::Rect;
use crate::vision::color::{brightness, luma};
use crate::vision::components::Component;
use crate::vision::geometry::Geometry;
use crate::vision::lattice::{axis_from_lines_with_echoes, Axis};
use crate::vision::lines::LineMasks;
use crate::vision::shrink::{shrink, to_full};
use image::RgbaImage;

/// How far either side of a line pixel the cells' dark must show: lines are 1 to 4 pixels
/// wide in every capture seen (up to 1080 px wide phones).
const LINE_REACH: usize = 4;
/// The short side of the largest picture looked at as it is: phones and desktops up to 1080
/// pixels draw their grid lines within [`LINE_REACH`]; a bigger picture (a denser screen, an
/// enlarged copy) draws them wider, so its lines are looked for on a copy shrunk by the least
/// whole factor that brings its short side to this or under.
const LINE_SIDE: u32 = 1100;
/// How much brighter than the cells a line is: the dimmest grid seen (green lines on a
/// phone, about 90 against 15) clears it by far; JPEG ringing beside text stays under it.
const LINE_CONTRAST: i16 = 16;
/// How far from a grid line JPEG ringing can draw a fainter copy of it: within the codec's
/// 8-pixel block; seen 3 to 4 pixels off at quality 20.
const JPEG_ECHO: usize = 6;
/// The smallest board worth a look, in pixels a side.
const MIN_BOARD: usize = 80;
/// Grid sizes the app draws: 5×5 to 15×15, rectangles and jumbo packs a little beyond.
const MIN_CELLS: usize = 2;
const MAX_CELLS: usize = 40;
/// The largest pieces of line web tried as the board, biggest first.
const CANDIDATES: usize = 6;
/// An edge between two cells is drawn when its line covers this share of it (a drawn pipe
/// crossing it hides about a third).
const EDGE_DRAWN: f64 = 0.35;

/// The lattice and which of its cells the board has.
#[derive(Debug, Clone)]
pub struct Board {
    pub geometry: Geometry,
    pub rows: usize,
    pub cols: usize,
    /// Row-major: whether the cell is on the board (false for holes and cut-out corners).
    pub present: Vec<bool>,
}

impl Board {
    pub fn has(&self, row: usize, col: usize) -> bool {
        self.present[row * self.cols + col]
    }

    /// A cell's square as an error region.
    pub fn region(&self, row: usize, col: usize) -> Region {
        self.geometry.cell(row, col).to_pixels()
    }
}

/// The thin bright lines of a picture: across x (vertical lines) and across y (horizontal),
/// found on the picture shrunk by `factor` (1: as it is); the masks are in shrunk pixels.
/// The hex reader uses them too (its slanted edges are steep enough to be vertical lines), on
/// pictures not shrunk.
pub(super) struct Lines {
    pub(super) factor: u32,
    pub(super) masks: LineMasks,
}

impl Lines {
    pub(super) fn of(img: &RgbaImage) -> Lines {
        let factor = img.width().min(img.height()).div_ceil(LINE_SIDE).max(1);
        let shrunk;
        let img = if factor > 1 {
            shrunk = shrink(img, factor);
            &shrunk
        } else {
            img
        };
        let lum: Vec<i16> = img.pixels().map(|&p| brightness(p)).collect();
        Lines {
            factor,
            masks: LineMasks::find(&lum, img.width() as usize, LINE_REACH, LINE_CONTRAST),
        }
    }

    /// A position on the picture as a position on the masks.
    fn to_mask(&self, at: f64) -> f64 {
        let k = f64::from(self.factor);
        (at - (k - 1.0) / 2.0) / k
    }

    /// An axis found on the masks as one on the picture.
    fn axis_to_full(&self, axis: Axis) -> Axis {
        Axis {
            start: to_full(axis.start, self.factor),
            pitch: axis.pitch * f64::from(self.factor),
            cells: axis.cells,
        }
    }

    /// A piece of the masks as a region of the picture.
    fn region_of(&self, c: &Component) -> Region {
        let k = self.factor as i64;
        Rect::from_corners(
            c.x0 as i64 * k,
            c.y0 as i64 * k,
            (c.x1 as i64 + 1) * k - 1,
            (c.y1 as i64 + 1) * k - 1,
        )
    }

    /// The largest pieces of line web that could be a board, biggest first.
    pub(super) fn webs(&self) -> Vec<Component> {
        let mut webs = self.masks.webs(MIN_BOARD);
        webs.truncate(CANDIDATES);
        webs
    }
}

/// The board in the picture, or why there is none.
#[cfg(test)]
pub fn find(img: &RgbaImage, weakest: &mut Weakest) -> Result<Board> {
    find_in(img, &Lines::of(img), weakest)
}

/// The board among the picture's lines, or why there is none.
pub(super) fn find_in(img: &RgbaImage, lines: &Lines, weakest: &mut Weakest) -> Result<Board> {
    let mut why = None;
    for web in &lines.webs() {
        match lattice_of(lines, web) {
            Ok(lattice) => {
                refuse_lines_running_on(img, &lattice)?;
                return cells_of(lines, &lattice, weakest);
            }
            Err(e) => {
                why.get_or_insert(e);
            }
        }
    }
    Err(why.unwrap_or_else(|| {
        Error::vision(
            None,
            format!(
                "no Flow board: no web of thin grid lines at least {} px a side",
                MIN_BOARD * lines.factor as usize
            ),
        )
    }))
}

/// The evenly spaced lines of one web, which must span it and make square cells; found on the
/// masks, returned in picture pixels.
fn lattice_of(lines: &Lines, web: &Component) -> Result<Lattice> {
    let region = lines.region_of(web);
    let w = lines.masks.width;
    let (cols_n, rows_n) = (web.x1 - web.x0 + 1, web.y1 - web.y0 + 1);
    let mut across = vec![0usize; cols_n];
    let mut down = vec![0usize; rows_n];
    for y in web.y0..=web.y1 {
        let row = y * w;
        for x in web.x0..=web.x1 {
            if lines.masks.vertical[row + x] {
                across[x - web.x0] += 1;
            }
            if lines.masks.horizontal[row + x] {
                down[y - web.y0] += 1;
            }
        }
    }
    let fail = |what: &str| {
        Error::vision(
            Some(region),
            format!("no Flow board: the grid lines here {what}"),
        )
    };
    let x = axis_from_lines_with_echoes(&across, web.x0, rows_n, JPEG_ECHO)
        .ok_or_else(|| fail("are not evenly spaced across"))?;
    let y = axis_from_lines_with_echoes(&down, web.y0, cols_n, JPEG_ECHO)
        .ok_or_else(|| fail("are not evenly spaced down"))?;
    let (x, x_outer) = reach_web_ends(x, web.x0, web.x1);
    let (y, y_outer) = reach_web_ends(y, web.y0, web.y1);
    if !(MIN_CELLS..=MAX_CELLS).contains(&x.cells) || !(MIN_CELLS..=MAX_CELLS).contains(&y.cells) {
        return Err(fail(&format!(
            "make {}×{} cells, not a board's {MIN_CELLS} to {MAX_CELLS} a side",
            x.cells, y.cells
        )));
    }
    if (x.pitch - y.pitch).abs() > 0.06 * x.pitch.max(y.pitch) {
        return Err(fail(&format!(
            "make cells {:.1}×{:.1} px, not square",
            x.pitch * f64::from(lines.factor),
            y.pitch * f64::from(lines.factor)
        )));
    }
    // The lattice is the web: lines sticking out past it (a banner glued to the grid) or a
    // lattice in a corner of a bigger web are something else.
    let slack = 0.5 * x.pitch;
    if (x.start - web.x0 as f64).abs() > slack
        || (x.end() - web.x1 as f64).abs() > slack
        || (y.start - web.y0 as f64).abs() > slack
        || (y.end() - web.y1 as f64).abs() > slack
    {
        return Err(fail("do not span the web they belong to"));
    }
    Ok(Lattice {
        x: lines.axis_to_full(x),
        y: lines.axis_to_full(y),
        unseen: [x_outer[0], x_outer[1], y_outer[0], y_outer[1]],
    })
}

/// Grid lines that run on past a side of the lattice mean cells beyond it that the lattice
/// missed (seen on an enlarged copy, whose last column's lines blurred out of the web): a
/// board read short is a wrong reading, so it is refused. Each side is checked on the raw
/// picture: along each line of the lattice that meets the side, the stretch one cell beyond
/// it, for a thin ridge brighter than the pixels a few away on both sides.
fn refuse_lines_running_on(img: &RgbaImage, lattice: &Lattice) -> Result<()> {
    let (x, y) = (&lattice.x, &lattice.y);
    let p = x.pitch;
    let off = (0.04 * p).round().max(3.0) as i64;
    let luma_at = |px: i64, py: i64| -> Option<i64> {
        (px >= 0 && py >= 0 && (px as u32) < img.width() && (py as u32) < img.height())
            .then(|| luma(*img.get_pixel(px as u32, py as u32)) as i64)
    };
    // Share of a stretch along a line (across: x varies at height `at`) that is a ridge.
    let ridge_share = |at: f64, from: f64, to: f64, across: bool| -> Option<f64> {
        let (mut hit, mut seen) = (0, 0);
        let mut t = from;
        while t < to {
            let (px, py) = if across {
                (t.round() as i64, at.round() as i64)
            } else {
                (at.round() as i64, t.round() as i64)
            };
            // The ridge may sit a pixel off the lattice's line: the best of three.
            let best = (-1..=1)
                .filter_map(|d| {
                    let (cx, cy) = if across { (px, py + d) } else { (px + d, py) };
                    let (a, b) = if across {
                        (luma_at(cx, cy - off)?, luma_at(cx, cy + off)?)
                    } else {
                        (luma_at(cx - off, cy)?, luma_at(cx + off, cy)?)
                    };
                    Some(luma_at(cx, cy)? - a.max(b))
                })
                .max();
            if let Some(b) = best {
                seen += 1;
                if b >= 16 {
                    hit += 1;
                }
            }
            t += 1.0;
        }
        (seen as f64 >= 0.5 * (to - from)).then(|| hit as f64 / seen as f64)
    };
    let lines_y = y.lines();
    let lines_x = x.lines();
    let sides = [
        ("left", &lines_y, x.start - 0.8 * p, x.start - 0.2 * p, true),
        (
            "right",
            &lines_y,
            x.end() + 0.2 * p,
            x.end() + 0.8 * p,
            true,
        ),
        ("top", &lines_x, y.start - 0.8 * p, y.start - 0.2 * p, false),
        (
            "bottom",
            &lines_x,
            y.end() + 0.2 * p,
            y.end() + 0.8 * p,
            false,
        ),
    ];
    for (side, lines, from, to, across) in sides {
        let shares: Vec<f64> = lines
            .iter()
            .filter_map(|&at| ridge_share(at, from, to, across))
            .collect();
        let running = shares.iter().filter(|&&s| s >= 0.6).count();
        if !shares.is_empty() && running * 2 > lines.len() {
            return Err(Error::vision(
                Some(Region {
                    x: x.start.round() as i32,
                    y: y.start.round() as i32,
                    w: (x.end() - x.start).round() as i32,
                    h: (y.end() - y.start).round() as i32,
                }),
                format!(
                    "the grid lines run on past the {side} edge of the {}×{} board found: \
                     cells there were not read",
                    x.cells, y.cells
                ),
            ));
        }
    }
    Ok(())
}

/// A lattice, and which of its outer lines (left, right, top, bottom) were not seen but
/// placed where the web ends.
struct Lattice {
    x: Axis,
    y: Axis,
    unseen: [bool; 4],
}

/// On a page brighter than the board the outer lines are no ridges (the page beside them is
/// not dark), but the lines the other way run on to them: where the web reaches about one
/// cell past the lattice, that cell is the board's too.
/// Which outer lines were so added (first, last) is returned too: they are not there to see.
fn reach_web_ends(mut axis: Axis, first: usize, last: usize) -> (Axis, [bool; 2]) {
    let near = |a: f64, b: f64| (a - b).abs() <= 0.25 * axis.pitch;
    let mut added = [false; 2];
    if near(axis.start - axis.pitch, first as f64) {
        axis.start -= axis.pitch;
        axis.cells += 1;
        added[0] = true;
    }
    if near(axis.end() + axis.pitch, last as f64) {
        axis.cells += 1;
        added[1] = true;
    }
    (axis, added)
}

/// How much of the line along one cell edge is drawn, 0..1. `along_x`: a horizontal edge.
/// Positions and pitch are in picture pixels.
fn edge_cover(lines: &Lines, at: f64, from: f64, to: f64, along_x: bool, pitch: f64) -> f64 {
    let (at, from, to) = (lines.to_mask(at), lines.to_mask(from), lines.to_mask(to));
    let pitch = pitch / f64::from(lines.factor);
    let band = (pitch * 0.06).max(2.0);
    let m = &lines.masks;
    let (limit_across, limit_along) = if along_x {
        (m.height(), m.width)
    } else {
        (m.width, m.height())
    };
    let mask = m.mask(!along_x);
    let lo = ((at - band).floor().max(0.0) as usize).min(limit_across - 1);
    let hi = ((at + band).ceil().max(0.0) as usize).min(limit_across - 1);
    // Leave out the corners, where crossing lines of the other way would count.
    let a = ((from + 0.15 * pitch).max(0.0) as usize).min(limit_along - 1);
    let b = ((to - 0.15 * pitch).max(0.0) as usize).min(limit_along - 1);
    if b <= a {
        return 0.0;
    }
    let hit = (a..=b)
        .filter(|&t| {
            (lo..=hi).any(|s| {
                let (x, y) = if along_x { (t, s) } else { (s, t) };
                mask[y * m.width + x]
            })
        })
        .count();
    hit as f64 / (b - a + 1) as f64
}

/// Which cells of the lattice the board has: a cell is on it when all four of its edges are
/// drawn, since the board outlines every cell it has (holes and cut-out corners have no lines
/// of their own). A hole enclosed on all sides by board cells shows all four edges and so
/// cannot be told from a cell here.
fn cells_of(lines: &Lines, lattice: &Lattice, weakest: &mut Weakest) -> Result<Board> {
    let (x, y) = (lattice.x, lattice.y);
    let [left, right, top, bottom] = lattice.unseen;
    let geometry = Geometry::from_axes(x, y);
    let (rows, cols) = (y.cells, x.cells);
    let p = geometry.pitch();
    let vx = |c: usize| x.start + c as f64 * x.pitch;
    let hy = |r: usize| y.start + r as f64 * y.pitch;
    // Each edge once: vertical edges (r, c) left of cell (r, c), horizontal above it.
    let vertical: Vec<f64> = (0..rows)
        .flat_map(|r| (0..=cols).map(move |c| (r, c)))
        .map(|(r, c)| {
            if (c == 0 && left) || (c == cols && right) {
                1.0
            } else {
                edge_cover(lines, vx(c), hy(r), hy(r + 1), false, p)
            }
        })
        .collect();
    let horizontal: Vec<f64> = (0..=rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .map(|(r, c)| {
            if (r == 0 && top) || (r == rows && bottom) {
                1.0
            } else {
                edge_cover(lines, hy(r), vx(c), vx(c + 1), true, p)
            }
        })
        .collect();
    let mut present = vec![false; rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            let sides = [
                vertical[r * (cols + 1) + c],
                vertical[r * (cols + 1) + c + 1],
                horizontal[r * cols + c],
                horizontal[(r + 1) * cols + c],
            ];
            let drawn = sides.iter().all(|&s| s >= EDGE_DRAWN);
            present[r * cols + c] = drawn;
            for s in sides {
                // How far each edge is from the call either way.
                let sure = if s >= EDGE_DRAWN {
                    (s - EDGE_DRAWN) / EDGE_DRAWN
                } else {
                    (EDGE_DRAWN - s) / EDGE_DRAWN
                };
                weakest.note(
                    sure,
                    Some(geometry.cell(r, c).to_pixels()),
                    format!(
                        "cell ({r}, {c}): its grid lines are faint ({:.0}% drawn)",
                        s * 100.0
                    ),
                );
            }
        }
    }
    let board = Board {
        geometry,
        rows,
        cols,
        present,
    };
    // An outer row or column without a cell means the lattice overshot the board.
    let empty_row = (0..rows).find(|&r| (0..cols).all(|c| !board.has(r, c)));
    let empty_col = (0..cols).find(|&c| (0..rows).all(|r| !board.has(r, c)));
    if let Some(r) = empty_row {
        return Err(Error::vision(
            Some(geometry.cell(r, 0).to_pixels()),
            format!("no Flow board: grid row {r} has no cell outlined on all four sides"),
        ));
    }
    if let Some(c) = empty_col {
        return Err(Error::vision(
            Some(geometry.cell(0, c).to_pixels()),
            format!("no Flow board: grid column {c} has no cell outlined on all four sides"),
        ));
    }
    Ok(board)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use image::Rgba;

    /// A black picture with a `rows`×`cols` grid of 1 px lines every `pitch` from (x0, y0);
    /// cells in `holes` (row, col) have no lines of their own.
    pub(crate) fn grid(
        size: (u32, u32),
        at: (u32, u32),
        pitch: u32,
        rows: u32,
        cols: u32,
        holes: &[(u32, u32)],
    ) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(size.0, size.1, Rgba([0, 0, 0, 255]));
        let line = Rgba([120, 110, 70, 255]);
        let present = |r: i64, c: i64| {
            r >= 0
                && c >= 0
                && r < rows as i64
                && c < cols as i64
                && !holes.contains(&(r as u32, c as u32))
        };
        for r in 0..=rows as i64 {
            for c in 0..=cols as i64 {
                // The vertical edge left of (r, c) and the horizontal edge above it.
                if r < rows as i64 && (present(r, c) || present(r, c - 1)) {
                    for t in 0..=pitch {
                        img.put_pixel(at.0 + c as u32 * pitch, at.1 + r as u32 * pitch + t, line);
                    }
                }
                if c < cols as i64 && (present(r, c) || present(r - 1, c)) {
                    for t in 0..=pitch {
                        img.put_pixel(at.0 + c as u32 * pitch + t, at.1 + r as u32 * pitch, line);
                    }
                }
            }
        }
        img
    }

    #[test]
    fn a_grid_among_other_lines_is_the_board() {
        let mut img = grid((400, 500), (40, 120), 50, 6, 5, &[]);
        // A short rule under the header: a line, but no lattice.
        for x in 10..300 {
            img.put_pixel(x, 60, Rgba([200, 200, 200, 255]));
        }
        let mut w = Weakest::new();
        let b = find(&img, &mut w).unwrap();
        assert_eq!((b.rows, b.cols), (6, 5));
        assert!(b.present.iter().all(|&p| p));
        assert!((b.geometry.pitch() - 50.0).abs() < 0.5);
        assert!((b.geometry.origin.x - 65.0).abs() < 1.0);
        assert!((b.geometry.origin.y - 145.0).abs() < 1.0);
        assert!(w.confidence() > 0.9);
    }

    #[test]
    fn a_grid_on_the_picture_edge_and_cut_corners_read() {
        // The clone's board touches the window: lines on the picture's first and last pixel.
        let img = grid((301, 201), (0, 0), 50, 4, 6, &[(0, 0), (3, 5), (3, 4)]);
        let mut w = Weakest::new();
        let b = find(&img, &mut w).unwrap();
        assert_eq!((b.rows, b.cols), (4, 6));
        let holes: Vec<usize> = (0..24).filter(|&k| !b.present[k]).collect();
        assert_eq!(holes, vec![0, 22, 23]);
    }

    /// A dense screen draws the grid 10 px wide, too wide for thin lines at [`LINE_REACH`]:
    /// the picture is looked at shrunk, and the lattice comes back in its own pixels.
    #[test]
    fn wide_lines_on_a_big_picture_are_found_shrunk_and_mapped_back() {
        let (x0, y0, pitch, wide) = (101u32, 301u32, 200u32, 10u32);
        let on_line = |v: u32, v0: u32, cells: u32| {
            v >= v0 && v < v0 + cells * pitch + wide && (v - v0) % pitch < wide
        };
        let img = RgbaImage::from_fn(1300, 1700, |x, y| {
            let inside_x = x >= x0 && x < x0 + 5 * pitch + wide;
            let inside_y = y >= y0 && y < y0 + 6 * pitch + wide;
            if inside_x && inside_y && (on_line(x, x0, 5) || on_line(y, y0, 6)) {
                Rgba([120, 110, 70, 255])
            } else {
                Rgba([0, 0, 0, 255])
            }
        });
        let mut w = Weakest::new();
        let b = find(&img, &mut w).unwrap();
        assert_eq!((b.rows, b.cols), (6, 5));
        assert!(b.present.iter().all(|&p| p));
        assert!((b.geometry.pitch() - 200.0).abs() < 0.5, "{:?}", b.geometry);
        // Cell (0, 0)'s centre: half a pitch past the middle of the first line.
        let centre = b.geometry.centre(0, 0);
        let want = (x0 as f64 + 4.5 + 100.0, y0 as f64 + 4.5 + 100.0);
        assert!((centre.x - want.0).abs() < 1.0, "{centre:?}");
        assert!((centre.y - want.1).abs() < 1.0, "{centre:?}");
        // Looked at as it is, those lines are no thin lines at all.
        let lum: Vec<i16> = img.pixels().map(|&p| brightness(p)).collect();
        let thin = LineMasks::find(&lum, 1300, LINE_REACH, LINE_CONTRAST);
        assert!(!thin.vertical[(y0 as usize + 150) * 1300 + x0 as usize + 5]);
    }

    #[test]
    fn no_grid_is_no_board() {
        let img = RgbaImage::from_pixel(300, 300, Rgba([10, 10, 10, 255]));
        let err = find(&img, &mut Weakest::new()).unwrap_err().to_string();
        assert!(err.contains("no Flow board"), "{err}");
    }
}
