//! Finding a hex board, tried when no square lattice is found. The app draws hex levels as
//! flat-topped hexagons in columns, every other column half a cell lower, outlined by the
//! same thin bright lines as square boards. Their only horizontal lines are the hexagons'
//! flat tops and bottoms: runs about one side long, centred on the columns (evenly spaced by
//! 1.5 sides) and at heights evenly spaced by half a cell (√3/2 sides). A lattice that fits
//! those runs in both ways, alternating by column, is the board; a cell is on it when all six
//! of its edges are drawn (the slanted ones are steep enough to be vertical lines).
//!
//! Rows follow the app's level packs (`GridSpec::hex`): an even column sits half a cell
//! lower than the odd columns beside it on the same row, so a board whose first column is the
//! higher one starts its odd columns on row 1.

use super::board::Lines;
use super::confidence::Weakest;
use crate::error::{Error, Region, Result};
use crate::rect::Rect;
use crate::screen::PixelPoint;
use crate::vision::components::Component;
use crate::vision::fit;
use crate::vision::geometry::Geometry;

/// A flat edge is drawn when its line covers this share of it, as for square boards.
const EDGE_DRAWN: f64 = 0.35;
/// The shortest run of a horizontal line worth a look, in pixels.
const MIN_RUN: usize = 8;
/// Columns a hex board has: the app's hex packs run 4 to 15 a side.
const MIN_COLUMNS: usize = 3;
const MAX_COLUMNS: usize = 40;
/// How far, as a share of the lattice's spacing, a run may sit off it and still be a line of it.
const FIT: f64 = 0.12;
/// Runs that must fit the lattice: a stray stroke over the board (a drawn pipe's rim, an
/// annotation) may make a few more.
const FIT_SHARE: f64 = 0.8;
/// Beyond the web, a hexagon with this many of its six edges drawn is taken for a cell of the
/// board (whose weak edges then count), and one with fewer for no cell.
const MOST_SIDES: usize = 4;

/// A hex board: which cells it has and where their centres are.
#[derive(Debug, Clone)]
pub struct HexBoard {
    pub rows: usize,
    pub cols: usize,
    /// Row-major: whether the cell is on the board.
    pub present: Vec<bool>,
    /// Row-major: each grid position's centre in image pixels.
    pub centres: Vec<PixelPoint>,
    /// Distance between neighbouring centres (√3 sides), and the side.
    pub pitch: f64,
    pub side: f64,
    /// The board's lattice: `origin` is cell (0, 0)'s centre, `pitch_x` the column spacing,
    /// `pitch_y` the row spacing; even columns sit `pitch_y / 2` lower than `centre` says.
    pub geometry: Geometry,
}

impl HexBoard {
    pub fn has(&self, row: usize, col: usize) -> bool {
        self.present[row * self.cols + col]
    }

    pub fn centre(&self, row: usize, col: usize) -> PixelPoint {
        self.centres[row * self.cols + col]
    }

    /// A cell's bounding box as an error region.
    pub fn region(&self, row: usize, col: usize) -> Region {
        hexagon_box(self.centre(row, col), self.side, self.pitch).to_pixels()
    }
}

fn hexagon_box(c: PixelPoint, side: f64, pitch: f64) -> Rect<f64> {
    Rect::new(c.x - side, c.y - pitch / 2.0, 2.0 * side, pitch)
}

/// The corners of a flat-topped hexagon, clockwise from the right one.
pub fn corners(c: PixelPoint, side: f64) -> [PixelPoint; 6] {
    std::array::from_fn(|k| {
        let a = k as f64 * std::f64::consts::FRAC_PI_3;
        PixelPoint {
            x: c.x + side * a.cos(),
            y: c.y + side * a.sin(),
        }
    })
}

/// One horizontal stroke: a run of horizontal-line pixels, joined over the rows it spans.
#[derive(Debug, Clone, Copy)]
struct Stroke {
    x0: f64,
    x1: f64,
    y: f64,
}

impl Stroke {
    fn mid(&self) -> f64 {
        (self.x0 + self.x1) / 2.0
    }
    fn len(&self) -> f64 {
        self.x1 - self.x0 + 1.0
    }
}

/// The hex board in the picture's line webs: `Ok(None)` when no web is a hex lattice, an
/// error when one is but its board cannot be read. Hex cells are measured on masks in picture
/// pixels, so lines found on a shrunk copy (a picture over 1100 px on its short side) are not
/// looked at: such a picture is refused with the square reader's reason, never read wrong.
pub(super) fn find_in(lines: &Lines, weakest: &mut Weakest) -> Result<Option<HexBoard>> {
    if lines.factor != 1 {
        return Ok(None);
    }
    for web in &lines.webs() {
        if let Some(lattice) = lattice_of(lines, web) {
            return cells_of(lines, web, &lattice, weakest).map(Some);
        }
    }
    Ok(None)
}

/// The lattice's numbers: column `c` is at `x0 + c·dx`; half-row `k` at `y0 + k·dy/2`, and a
/// cell of column `c` is centred on a half-row `k` where `k + c + parity` is even.
#[derive(Debug, Clone, Copy)]
struct HexLattice {
    x0: f64,
    dx: f64,
    columns: usize,
    y0: f64,
    dy: f64,
    parity: usize,
}

/// The horizontal strokes inside a web: runs on neighbouring rows that overlap are one.
fn strokes(lines: &Lines, web: &Component) -> Vec<Stroke> {
    let w = lines.masks.width;
    let mut open: Vec<(Stroke, usize, usize)> = Vec::new(); // stroke, rows, last row
    let mut done = Vec::new();
    for y in web.y0..=web.y1 {
        let row = &lines.masks.horizontal[y * w..(y + 1) * w];
        let mut x = web.x0;
        let mut runs = Vec::new();
        while x <= web.x1 {
            if row[x] {
                let start = x;
                while x <= web.x1 && row[x] {
                    x += 1;
                }
                if x - start >= MIN_RUN {
                    runs.push((start as f64, (x - 1) as f64));
                }
            } else {
                x += 1;
            }
        }
        let mut next = Vec::new();
        for (x0, x1) in runs {
            let joined = open
                .iter()
                .position(|(s, _, last)| *last + 1 == y && x0 <= s.x1 && x1 >= s.x0);
            match joined {
                Some(i) => {
                    let (mut s, n, _) = open.swap_remove(i);
                    s.x0 = s.x0.min(x0);
                    s.x1 = s.x1.max(x1);
                    s.y = (s.y * n as f64 + y as f64) / (n + 1) as f64;
                    next.push((s, n + 1, y));
                }
                None => next.push((
                    Stroke {
                        x0,
                        x1,
                        y: y as f64,
                    },
                    1,
                    y,
                )),
            }
        }
        done.extend(open.drain(..).map(|(s, _, _)| s));
        open = next;
    }
    done.extend(open.into_iter().map(|(s, _, _)| s));
    done
}

/// The hex lattice the web's strokes fit, if they fit one.
fn lattice_of(lines: &Lines, web: &Component) -> Option<HexLattice> {
    let all = strokes(lines, web);
    if all.len() < 6 {
        return None;
    }
    // The side: the length most strokes share (within 8%), as their median.
    let lengths: Vec<f64> = all.iter().map(Stroke::len).collect();
    let near = |l: f64| -> Vec<f64> {
        lengths
            .iter()
            .copied()
            .filter(|&m| (m - l).abs() <= 0.08 * l)
            .collect()
    };
    let mode = lengths
        .iter()
        .copied()
        .max_by_key(|&l| near(l).len())
        .filter(|&l| l >= 2.0 * MIN_RUN as f64)?;
    let mut alike = near(mode);
    alike.sort_by(f64::total_cmp);
    let side = alike[alike.len() / 2];
    let flats: Vec<Stroke> = all
        .into_iter()
        .filter(|s| (s.len() - side).abs() <= 0.15 * side)
        .collect();
    // Columns: stroke middles in clusters, on a chain evenly spaced by about 1.5 sides; a
    // cluster off the chain is a stray stroke's.
    let mut mids: Vec<f64> = flats.iter().map(Stroke::mid).collect();
    mids.sort_by(f64::total_cmp);
    let mut clusters: Vec<Vec<f64>> = Vec::new();
    for m in mids {
        match clusters.last_mut() {
            Some(c) if m - c[c.len() - 1] <= 0.2 * side => c.push(m),
            _ => clusters.push(vec![m]),
        }
    }
    let dx_guess = 1.5 * side;
    let biggest = clusters.iter().max_by_key(|c| c.len())?;
    let anchor = biggest[biggest.len() / 2];
    let mut chain: Vec<(i64, f64, usize)> = clusters
        .iter()
        .filter(|c| c.len() >= 2)
        .filter_map(|c| {
            let x = c[c.len() / 2];
            let k = ((x - anchor) / dx_guess).round();
            ((x - anchor - k * dx_guess).abs() <= FIT * dx_guess).then_some((k as i64, x, c.len()))
        })
        .collect();
    chain.sort_by_key(|&(k, _, _)| k);
    let on_chain: usize = chain.iter().map(|&(_, _, n)| n).sum();
    if chain.windows(2).any(|w| w[1].0 != w[0].0 + 1)
        || (on_chain as f64) < FIT_SHARE * flats.len() as f64
    {
        return None;
    }
    let columns: Vec<f64> = chain.iter().map(|&(_, x, _)| x).collect();
    if !(MIN_COLUMNS..=MAX_COLUMNS).contains(&columns.len()) {
        return None;
    }
    let across = fit::line(columns.iter().enumerate().map(|(k, &x)| (k as f64, x)))?;
    let (x0, dx) = (across.intercept, across.slope);
    // Heights: half-rows √3/2 sides apart, from the column spacing (1.5 sides).
    let half_guess = dx / 3.0_f64.sqrt();
    let column_of = |s: &Stroke| {
        let c = ((s.mid() - x0) / dx).round();
        (c >= 0.0 && (c as usize) < columns.len() && (s.mid() - x0 - c * dx).abs() <= FIT * dx)
            .then_some(c as usize)
    };
    let on_columns: Vec<(usize, f64)> = flats
        .iter()
        .filter_map(|s| column_of(s).map(|c| (c, s.y)))
        .collect();
    let half_of = |y: f64, y0: f64, half: f64| (y - y0) / half;
    let fits = |y: f64, y0: f64, half: f64| {
        let k = half_of(y, y0, half);
        (k - k.round()).abs() <= FIT * 2.0
    };
    // The phase: the stroke that most others fit, so a stray stroke cannot set it.
    let anchor = on_columns.iter().map(|&(_, y)| y).max_by_key(|&a| {
        on_columns
            .iter()
            .filter(|&&(_, y)| fits(y, a, half_guess))
            .count()
    })?;
    let down = fit::line(
        on_columns
            .iter()
            .filter(|&&(_, y)| fits(y, anchor, half_guess))
            .map(|&(_, y)| (half_of(y, anchor, half_guess).round(), y)),
    )?;
    let (y0, half) = (down.intercept, down.slope);
    if (half - half_guess).abs() > 0.08 * half_guess {
        return None;
    }
    // Every fitting stroke's half-row and column must agree on one parity.
    let mut votes = [0usize; 2];
    let mut fitting = 0;
    for &(c, y) in &on_columns {
        if fits(y, y0, half) {
            fitting += 1;
            // A flat edge lies between cells, so its half-row has the other parity.
            let k = half_of(y, y0, half).round() as i64;
            votes[(k + c as i64 + 1).rem_euclid(2) as usize] += 1;
        }
    }
    let parity = if votes[0] >= votes[1] { 0 } else { 1 };
    if (fitting as f64) < FIT_SHARE * on_columns.len() as f64
        || (votes[parity] as f64) < FIT_SHARE * fitting as f64
    {
        return None;
    }
    Some(HexLattice {
        x0,
        dx,
        columns: columns.len(),
        y0,
        dy: 2.0 * half,
        parity,
    })
}

/// How much of the line from `a` to `b` is drawn, 0..1: flat edges on the horizontal lines,
/// slanted ones on the vertical lines (they are steep). Only the two stretches between the
/// ends (where the other edges meet) and the middle are looked at: a hex edge is short, and
/// a drawn pipe crossing it hides its middle 45%.
fn edge_cover(lines: &Lines, a: PixelPoint, b: PixelPoint, pitch: f64) -> f64 {
    let flat = (a.y - b.y).abs() < 1.0;
    let mask = lines.masks.mask(!flat);
    let (w, h) = (lines.masks.width as i64, lines.masks.height() as i64);
    let band = (pitch * 0.04).max(2.0).round() as i64;
    let len = ((b.x - a.x).hypot(b.y - a.y)).max(1.0);
    let steps = len.round() as usize;
    let (mut hit, mut seen) = (0, 0);
    for i in 0..=steps {
        let t = i as f64 / steps.max(1) as f64;
        if !((0.1..=0.27).contains(&t) || (0.73..=0.9).contains(&t)) {
            continue;
        }
        let x = (a.x + (b.x - a.x) * t).round() as i64;
        let y = (a.y + (b.y - a.y) * t).round() as i64;
        seen += 1;
        let on = (-band..=band).any(|d| {
            let (px, py) = if flat { (x, y + d) } else { (x + d, y) };
            px >= 0 && py >= 0 && px < w && py < h && mask[(py * w + px) as usize]
        });
        if on {
            hit += 1;
        }
    }
    if seen == 0 {
        0.0
    } else {
        hit as f64 / seen as f64
    }
}

/// Which cells of the lattice inside the web the board has, as rows in the level packs' way.
fn cells_of(
    lines: &Lines,
    web: &Component,
    lattice: &HexLattice,
    weakest: &mut Weakest,
) -> Result<HexBoard> {
    let HexLattice {
        x0,
        dx,
        columns,
        y0,
        dy,
        parity,
    } = *lattice;
    let side = dx / 1.5;
    let pitch = dy;
    let half = dy / 2.0;
    // Candidate cells: (column, half-row) near the web. The web may have missed a part of the
    // board whose lines it does not join (a thick outline breaks them up), so two rows beyond
    // it either way are looked at too, and a column either side, where a cell means the
    // lattice itself was missed.
    let k_lo = ((web.y0 as f64 - y0) / half).floor() as i64 - 4;
    let k_hi = ((web.y1 as f64 - y0) / half).ceil() as i64 + 4;
    let mut cells: Vec<(usize, i64, PixelPoint)> = Vec::new();
    for c in -1..=columns as i64 {
        for k in k_lo..=k_hi {
            if (k + c + parity as i64).rem_euclid(2) != 0 {
                continue;
            }
            let centre = PixelPoint {
                x: x0 + c as f64 * dx,
                y: y0 + k as f64 * half,
            };
            let hexagon = corners(centre, side);
            let sides: Vec<f64> = (0..6)
                .map(|e| edge_cover(lines, hexagon[e], hexagon[(e + 1) % 6], pitch))
                .collect();
            let drawn_sides = sides.iter().filter(|&&s| s >= EDGE_DRAWN).count();
            let drawn = drawn_sides == 6;
            let region = Some(hexagon_box(centre, side, pitch).to_pixels());
            let in_web = (0..columns as i64).contains(&c)
                && centre.y + half >= web.y0 as f64
                && centre.y - half <= web.y1 as f64;
            // Beyond the web only what looks like a cell counts: text and buttons there
            // draw a line or two in any hexagon's place.
            if !in_web && drawn_sides < MOST_SIDES {
                continue;
            }
            for s in &sides {
                let sure = if *s >= EDGE_DRAWN {
                    (s - EDGE_DRAWN) / EDGE_DRAWN
                } else {
                    (EDGE_DRAWN - s) / EDGE_DRAWN
                };
                weakest.note(
                    sure,
                    region,
                    format!(
                        "hex cell at column {c}, {:.0} px down: its grid lines are faint ({:.0}% drawn)",
                        centre.y,
                        s * 100.0
                    ),
                );
            }
            if drawn && !(0..columns as i64).contains(&c) {
                return Err(Error::vision(
                    region,
                    format!(
                        "hex board: a cell outlined beside the {columns} columns found, at {:.0}, \
                         {:.0}: the board runs on past them",
                        centre.x, centre.y
                    ),
                ));
            }
            if drawn {
                cells.push((c as usize, k, centre));
            }
        }
    }
    let web_region = Rect::from_corners(web.x0 as i64, web.y0 as i64, web.x1 as i64, web.y1 as i64);
    if let Some(c) = (0..columns).find(|&c| cells.iter().all(|&(cc, _, _)| cc != c)) {
        return Err(Error::vision(
            Some(web_region),
            format!("hex board: column {c} has no cell outlined on all six sides"),
        ));
    }
    // Rows: half-row k of column c is row (k − top − (c even)) / 2, `top` the highest
    // half-row an odd column could start on.
    let odd_parity = (1 + parity as i64).rem_euclid(2);
    let lowest = |even: bool| {
        cells
            .iter()
            .filter(|&&(c, _, _)| c.is_multiple_of(2) == even)
            .map(|&(_, k, _)| k)
            .min()
    };
    let first = [lowest(false), lowest(true).map(|k| k - 1)]
        .into_iter()
        .flatten()
        .min()
        .expect("a board has cells");
    let top = if (first - odd_parity).rem_euclid(2) == 0 {
        first
    } else {
        first - 1
    };
    let row_of = |c: usize, k: i64| ((k - top - i64::from(c.is_multiple_of(2))) / 2) as usize;
    let rows = cells
        .iter()
        .map(|&(c, k, _)| row_of(c, k) + 1)
        .max()
        .unwrap_or(0);
    let mut present = vec![false; rows * columns];
    let mut centres: Vec<PixelPoint> = (0..rows * columns)
        .map(|i| {
            let (r, c) = (i / columns, i % columns);
            let k = top + 2 * r as i64 + i64::from(c.is_multiple_of(2));
            PixelPoint {
                x: x0 + c as f64 * dx,
                y: y0 + k as f64 * half,
            }
        })
        .collect();
    for &(c, k, centre) in &cells {
        let r = row_of(c, k);
        present[r * columns + c] = true;
        centres[r * columns + c] = centre;
    }
    let boxes: Vec<Rect<f64>> = cells
        .iter()
        .map(|&(_, _, centre)| hexagon_box(centre, side, pitch))
        .collect();
    let (bx0, by0) = boxes
        .iter()
        .fold((f64::MAX, f64::MAX), |(x, y), b| (x.min(b.x), y.min(b.y)));
    let (bx1, by1) = boxes.iter().fold((f64::MIN, f64::MIN), |(x, y), b| {
        (x.max(b.x + b.w), y.max(b.y + b.h))
    });
    let geometry = Geometry {
        origin: PixelPoint {
            x: x0,
            y: y0 + top as f64 * half,
        },
        pitch_x: dx,
        pitch_y: dy,
        board: Rect::new(bx0, by0, bx1 - bx0, by1 - by0),
    };
    Ok(HexBoard {
        rows,
        cols: columns,
        present,
        centres,
        pitch,
        side,
        geometry,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use image::{Rgba, RgbaImage};
    use imageproc::drawing::draw_line_segment_mut;

    /// A black picture with flat-topped hexagons of `side` px outlined in 1 px lines: `cells`
    /// as (column, half-row) from the centre of (0, 0) at `at`.
    pub(crate) fn hexes(
        size: (u32, u32),
        at: (f64, f64),
        side: f64,
        cells: &[(usize, i64)],
    ) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(size.0, size.1, Rgba([0, 0, 0, 255]));
        let line = Rgba([120, 110, 70, 255]);
        let half = side * 3.0_f64.sqrt() / 2.0;
        for &(c, k) in cells {
            let centre = PixelPoint {
                x: at.0 + c as f64 * 1.5 * side,
                y: at.1 + k as f64 * half,
            };
            let h = corners(centre, side);
            for e in 0..6 {
                let (a, b) = (h[e], h[(e + 1) % 6]);
                draw_line_segment_mut(
                    &mut img,
                    (a.x as f32, a.y as f32),
                    (b.x as f32, b.y as f32),
                    line,
                );
            }
        }
        img
    }

    fn layout(b: &HexBoard) -> Vec<String> {
        (0..b.rows)
            .map(|r| {
                (0..b.cols)
                    .map(|c| if b.has(r, c) { 'o' } else { '#' })
                    .collect()
            })
            .collect()
    }

    /// Five columns of hexagons, those of parity `long` a cell longer and half a cell higher.
    fn five_columns(long: usize) -> Vec<(usize, i64)> {
        let mut cells = Vec::new();
        for c in 0..5usize {
            let ks: Vec<i64> = if c % 2 == long {
                vec![0, 2, 4, 6, 8]
            } else {
                vec![1, 3, 5, 7]
            };
            cells.extend(ks.into_iter().map(|k| (c, k)));
        }
        cells
    }

    /// The board found in a drawing of `five_columns(long)`, and the evidence behind it.
    fn five_column_board(long: usize) -> (HexBoard, Weakest) {
        let img = hexes((500, 600), (80.0, 100.0), 40.0, &five_columns(long));
        let mut w = Weakest::new();
        let b = find_in(&Lines::of(&img), &mut w)
            .unwrap()
            .expect("a hex board");
        (b, w)
    }

    #[test]
    fn a_hex_board_with_higher_odd_columns_reads_row_by_row() {
        // As in the app's first hex pack: even columns sit lower, as the level packs count.
        let (b, w) = five_column_board(1);
        assert_eq!(
            layout(&b),
            vec!["ooooo", "ooooo", "ooooo", "ooooo", "#o#o#"]
        );
        let c = b.centre(1, 1);
        let half = 20.0 * 3.0_f64.sqrt();
        assert!(
            (c.x - 140.0).abs() < 1.5 && (c.y - 100.0 - 2.0 * half).abs() < 1.5,
            "{c:?}"
        );
        let e = b.centre(1, 2);
        assert!((e.y - 100.0 - 3.0 * half).abs() < 1.5, "{e:?}");
        assert!(w.confidence() > 0.5, "{}", w.confidence());
        let g = b.geometry.board;
        assert!(
            (g.x - 40.0).abs() < 1.5 && (g.y - 100.0 + half).abs() < 1.5,
            "{g:?}"
        );
    }

    #[test]
    fn a_hex_board_with_higher_even_columns_starts_odd_ones_a_row_down() {
        let (b, _) = five_column_board(0);
        assert_eq!(
            layout(&b),
            vec!["o#o#o", "ooooo", "ooooo", "ooooo", "ooooo"]
        );
    }

    #[test]
    fn a_square_grid_is_no_hex_board() {
        let img = super::super::board::tests::grid((400, 500), (40, 120), 50, 6, 5, &[]);
        assert!(find_in(&Lines::of(&img), &mut Weakest::new())
            .unwrap()
            .is_none());
    }
}
