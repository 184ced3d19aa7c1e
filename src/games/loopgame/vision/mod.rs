//! Reading a Loop board off a picture: the app's canvas anywhere in a full-page capture, light
//! or dark theme, at any cell size.
//!
//! The steps, in order: refuse a capture the win sheet dims (its hints are hidden); find the
//! board by its flat colour; fix the lattice from its grid lines (`lattice::axis_from_lines`);
//! read the drawn path from the ink crossing each edge between neighbouring cells; read each
//! number by shape against templates cut from the corpus (`calibration/loop/digits.json`),
//! checked against its colour; and recover each hint from what the number displays, since
//! the app counts numbers down as the path is drawn (hint = displayed + path turns in its block).

use super::model::{Cell, Puzzle};
use crate::calibration::{Profile, Samples};
use crate::error::{Error, Region, Result};
use crate::vision::color::{blend_position, dominant, euclidean, luma, near, rgb, saturation};
use crate::vision::components::{components, Component, Connectivity};
use crate::vision::geometry::Geometry;
use crate::vision::glyph::{best_match_seen, Glyph, Ink, Match, TemplateSet};
use crate::vision::lattice::{axis_from_lines, axis_from_lines_at_pitch, Axis};
use image::{Rgba, RgbaImage};
use std::sync::OnceLock;

/// The app follows the system's colour scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    Light,
    Dark,
}

#[derive(Debug, Clone)]
pub struct Reading {
    /// The hints, recovered from the displayed numbers and the drawn path.
    pub puzzle: Puzzle,
    pub geometry: Geometry,
    pub theme: Theme,
    /// The drawn path's cells in order along it, empty when nothing is drawn. A picture does
    /// not show where the stroke began: an open path starts at its end that comes first in
    /// row-major order, a closed one at its first cell in row-major order, heading to the
    /// smaller of its two neighbours.
    pub path: Vec<Cell>,
    /// Whether the path is a closed loop.
    pub closed: bool,
    /// Whether the board shows the win. A capture under the win sheet is refused (the sheet
    /// hides the hints), so a reading is only solved when the sheet was dismissed and the path
    /// shows green; that look is not in the corpus, so this stays false until it is calibrated.
    pub solved: bool,
    /// 0..1: the least sure number reading; below `MIN_CONFIDENCE` a reading is refused.
    pub confidence: f64,
}

/// Below this confidence a reading is refused.
pub const MIN_CONFIDENCE: f64 = 0.3;

/// The app's colours per theme (its stylesheet, as measured in the corpus captures).
#[derive(Debug, Clone, Copy)]
struct Look {
    theme: Theme,
    board: [u8; 3],
    grid: [u8; 3],
    /// The page under the win sheet's dimming layer.
    dimmed_page: [u8; 3],
    /// Number colours: index 0 is the satisfied green, 1..=9 the palette by |value|.
    numbers: [[u8; 3]; 10],
}

const LIGHT: Look = Look {
    theme: Theme::Light,
    board: [0xff, 0xff, 0xff],
    grid: [0xe0, 0xe0, 0xe0],
    dimmed_page: [0x79, 0x7a, 0x7b],
    numbers: [
        [0xac, 0xf3, 0x9d],
        [0xff, 0xb0, 0x4a],
        [0xff, 0x8c, 0x42],
        [0xff, 0x63, 0x47],
        [0xff, 0x41, 0x69],
        [0xf0, 0x3a, 0x7c],
        [0xd4, 0x35, 0x7f],
        [0xb0, 0x2d, 0x8a],
        [0x8c, 0x1f, 0x7d],
        [0x66, 0x15, 0x65],
    ],
};

const DARK: Look = Look {
    theme: Theme::Dark,
    board: [0x2e, 0x2e, 0x2e],
    grid: [0x3a, 0x3a, 0x3a],
    dimmed_page: [0x12, 0x12, 0x12],
    numbers: [
        [0x86, 0xef, 0xac],
        [0xff, 0xd5, 0x80],
        [0xff, 0xad, 0x66],
        [0xff, 0x8a, 0x6b],
        [0xff, 0x6b, 0x8a],
        [0xff, 0x5e, 0x9d],
        [0xe8, 0x57, 0xa6],
        [0xd1, 0x4d, 0xb3],
        [0xb8, 0x45, 0xa0],
        [0x8a, 0x3a, 0x86],
    ],
};

/// Coarse sampling step for finding the board's flat colour: far below the smallest board.
const COARSE: usize = 4;
/// The smallest board-coloured area worth a look, in pixels a side: the app's smallest board is
/// 200 (4 cells of 50), and a drawn path cuts its colour into pieces smaller than the board.
const MIN_BOARD: usize = 120;
/// How far the board's flat colour may drift in a lossy or rescaled copy: JPEG rings a few
/// levels, the light page (#F3F4F6 and its shadow) stays further off the white board.
const BOARD_TOLERANCE: u8 = 5;
/// How wide a grid line may show: 1 px drawn between pixels, up to 4 once rescaled 2×.
const LINE_REACH: usize = 4;
/// Grid sizes the app can show (dailies are 4, 6 and 8).
const MIN_CELLS: usize = 2;
const MAX_CELLS: usize = 30;
/// Saturation that marks a number's ink: greys (board, grid, path) have none, the palette's
/// palest colours well over 100; anti-aliased rims down to about 40 still belong to the glyph.
const NUMBER_SATURATION: i32 = 40;
/// The brightness step from the board that number ink also shows. The palest number (green on
/// white) steps 43 levels at full cover; a JPEG q20 copy's colour smear around the strokes
/// stays within about 12 of the board, so 25 cuts the smear and keeps the strokes (measured on
/// the corpus: fewer refusals at 25 than at 12 or 40).
const NUMBER_CONTRAST: u8 = 25;
/// A cell holds a number when this share of its inner square is number ink (a "1" at the
/// smallest cell covers about 6%).
const NUMBER_SHARE: f64 = 0.02;
/// A glyph less alike than this to its best template is unreadable, whatever the margin.
const MIN_GLYPH_SCORE: f64 = 0.8;
/// The lead over the runner-up template that counts as full confidence, and the likeness
/// that counts as none, with the span above it to full confidence.
const FULL_MARGIN: f64 = 0.08;
const ZERO_SCORE: f64 = 0.82;
const SCORE_SPAN: f64 = 0.1;
/// How much further from a number's fill than the read digit's palette colour another digit's
/// must be for the colour to rule that digit out: twice the largest step between neighbouring
/// palette colours (38 levels), so only the satisfied green against the rest, and digits
/// three or more apart, can rule each other out.
const COLOUR_APART: i32 = 80;
/// How close two digits' shapes must score for a crossed number's colour to choose between
/// them: an eighth of the lead that counts as full confidence.
const SHAPE_TIE: f64 = 0.01;
/// In a JPEG copy (`InkRule::Matched`), a number whose colour is a palette step from its shape's
/// is read when its colour lies within this many levels a channel of the shape's colour (the
/// corpus's 7s in q20 copies: up to 25; a hue turned 30° moves a number a step
/// over by 42 or more)...
const LOSSY_COLOUR_SLACK: u8 = 28;
/// ...and its shape leads every other digit's template by this much (the 7s: 0.2; twice the
/// lead that counts as full confidence).
const LOSSY_SHAPE_MARGIN: f64 = 0.16;

pub fn recognize(img: &RgbaImage) -> Result<Reading> {
    recognize_with(img, None)
}

/// As [`recognize`], with the numbers matched against a learned profile instead of the
/// embedded templates.
pub fn recognize_with(img: &RgbaImage, profile: Option<&Profile>) -> Result<Reading> {
    refuse_win_sheet(img)?;
    let located = locate(img)?;
    match profile {
        None => read(img, &located, templates()),
        Some(p) => {
            p.check_for("loop", "app")?;
            read(img, &located, &p.glyphs())
        }
    }
}

/// Learns a digit profile from pictures whose puzzles are known. Each number is labelled with
/// what the app shows there: its hint less the path's turns already drawn in its block. A
/// number the path crosses is left out (the path hides some of its strokes).
pub fn learn(samples: &[(String, RgbaImage, Puzzle)]) -> Result<Profile> {
    let mut out = Samples::default();
    for (name, img, truth) in samples {
        let named = |e: Error| Error::Usage(format!("{name}: {e}"));
        refuse_win_sheet(img).map_err(named)?;
        let l = locate(img).map_err(named)?;
        let n = l.size;
        if truth.width != n || truth.height != n {
            return Err(Error::Usage(format!(
                "{name}: the picture shows a {n}x{n} board, the puzzle is {}x{}",
                truth.width, truth.height
            )));
        }
        let (path, closed) = read_path(img, &l).map_err(named)?;
        let turns = path_turns(n, &path, closed);
        let mut took = false;
        for f in numbers(img, &l) {
            let [r, c] = f.at;
            let Some(hint) = truth.hints[r * n + c] else {
                return Err(Error::Usage(format!(
                    "{name}: a number at row {r} col {c}, where the puzzle has no hint"
                )));
            };
            if f.crossed || f.glyphs.len() != 1 {
                continue;
            }
            let drawn = truth.block(r, c).filter(|&[a, b]| turns[a * n + b]).count() as i32;
            out.add(&(hint as i32 - drawn).to_string(), f.glyphs[0].clone());
            took = true;
        }
        if took {
            out.used(name);
        }
    }
    out.into_profile("loop", "app")
}

/// The board found, its lattice fixed, nothing read yet.
#[derive(Debug, Clone)]
pub(crate) struct Located {
    look: Look,
    pub geometry: Geometry,
    pub size: usize,
}

fn region_of(r: crate::rect::Rect<f64>) -> Region {
    Region {
        x: r.x.round() as i32,
        y: r.y.round() as i32,
        w: r.w.round().max(1.0) as i32,
        h: r.h.round().max(1.0) as i32,
    }
}

/// Which theme's win sheet dims the page, if one does: the sheet's card covers the middle of
/// the board and the hints with it, so nothing can be read exactly under it.
pub fn win_sheet(img: &RgbaImage) -> Option<Theme> {
    let (w, h) = (img.width(), img.height());
    if w < 8 || h < 8 {
        return None;
    }
    // The page's outer frame: a tenth in from each edge, clear of the centred board.
    let mut samples = Vec::new();
    for k in 0..64 {
        let t = k as f64 / 64.0;
        let (x, y) = ((t * w as f64) as u32, (t * h as f64) as u32);
        samples.push(*img.get_pixel(x, h / 10));
        samples.push(*img.get_pixel(x, h - 1 - h / 10));
        samples.push(*img.get_pixel(w / 10, y));
        samples.push(*img.get_pixel(w - 1 - w / 10, y));
    }
    [LIGHT, DARK].into_iter().find_map(|look| {
        let dim = samples
            .iter()
            .filter(|&&p| near(p, look.dimmed_page, 3))
            .count();
        (dim * 10 >= samples.len() * 8).then_some(look.theme)
    })
}

/// Whether the board shows `cycle` won: the app draws a won loop in the satisfied green and a
/// loop not yet won in black (light theme) or white (dark). In a narrow window the win sheet
/// rises from the bottom without dimming the page and covers the lower board, so a quarter of
/// the loop's links showing green is enough, as long as none shows the unwon ink.
pub fn shows_loop_won(img: &RgbaImage, geometry: &Geometry, theme: Theme, cycle: &[Cell]) -> bool {
    let look = match theme {
        Theme::Light => LIGHT,
        Theme::Dark => DARK,
    };
    let (mut green, mut unwon) = (0, 0);
    for (a, b) in cycle.iter().zip(cycle.iter().cycle().skip(1)) {
        let (pa, pb) = (geometry.centre(a[0], a[1]), geometry.centre(b[0], b[1]));
        let (mx, my) = ((pa.x + pb.x) / 2.0, (pa.y + pb.y) / 2.0);
        // Across the 4-px line, in case the lattice is a pixel off.
        let across = if pa.x == pb.x { (1.5, 0.0) } else { (0.0, 1.5) };
        let seen: Vec<Rgba<u8>> = [-1.0, 0.0, 1.0]
            .iter()
            .filter_map(|&k| pixel(img, mx + k * across.0, my + k * across.1))
            .collect();
        if seen
            .iter()
            .any(|&p| euclidean(rgb(p), look.numbers[0]) < 40.0)
        {
            green += 1;
        } else if seen.iter().any(|&p| path_ink(p, &look)) {
            unwon += 1;
        }
    }
    !cycle.is_empty() && unwon == 0 && green * 4 >= cycle.len()
}

fn refuse_win_sheet(img: &RgbaImage) -> Result<()> {
    if img.width() < 8 || img.height() < 8 {
        return Err(Error::vision(
            None,
            "picture too small to hold a Loop board",
        ));
    }
    match win_sheet(img) {
        None => Ok(()),
        Some(theme) => Err(Error::vision(
            None,
            format!(
                "the win sheet (\"Perfect loop!\") dims the page and covers the board: the \
                 puzzle is solved, and its numbers are hidden ({} theme)",
                match theme {
                    Theme::Light => "light",
                    Theme::Dark => "dark",
                }
            ),
        )),
    }
}

/// A grid line pixel: the 1-px line falls between pixels and shows as two half-blends of the
/// line and board colours, so any grey on the mix from a third of the way counts.
fn grid_like(p: Rgba<u8>, look: &Look) -> bool {
    !near(p, look.board, 1) && grid_mix(p, look, 0.3)
}

/// A grey on the mix from the board colour (0) to the grid's (1) and a little past it, from
/// `from` on.
fn grid_mix(p: Rgba<u8>, look: &Look, from: f32) -> bool {
    saturation(rgb(p)) <= 1
        && blend_position(p, look.board, look.grid, 1.5).is_some_and(|t| (from..=1.3).contains(&t))
}

/// The board's flat colour, give or take the noise of a lossy copy (JPEG rings a few levels
/// around every edge) or a rescaled one; the pages around both themes' boards are further off.
fn board_colour(p: Rgba<u8>, look: &Look) -> bool {
    near(p, look.board, BOARD_TOLERANCE)
}

/// Whether the pixel at (x, y) has board colour (`is_board`) within `LINE_REACH` pixels on
/// both sides across x (or across y), as a pixel of a thin grid line has. A lossy copy turns
/// the light theme's page into the same grey as a line, but the page is no thin line.
fn flanked(x: i64, y: i64, across_x: bool, is_board: impl Fn(i64, i64) -> bool) -> bool {
    let side = |sign: i64| {
        (1..=LINE_REACH as i64).any(|d| {
            if across_x {
                is_board(x + sign * d, y)
            } else {
                is_board(x, y + sign * d)
            }
        })
    };
    side(-1) && side(1)
}

/// Board colour, or a thin grid line with its blurred rim (a rescaled copy rings beside it).
fn board_or_grid(img: &RgbaImage, x: usize, y: usize, look: &Look) -> bool {
    let p = *img.get_pixel(x as u32, y as u32);
    let is_board = |a: i64, b: i64| {
        a >= 0
            && b >= 0
            && a < img.width() as i64
            && b < img.height() as i64
            && board_colour(*img.get_pixel(a as u32, b as u32), look)
    };
    let (x, y) = (x as i64, y as i64);
    board_colour(p, look)
        || grid_mix(p, look, 0.0)
            && (flanked(x, y, true, is_board) || flanked(x, y, false, is_board))
}

/// The 4-connected areas of pixels passing `test(x, y)`, sampled every `COARSE` pixels; boxes
/// in image pixels, accurate to `COARSE`.
fn areas(img: &RgbaImage, test: impl Fn(usize, usize) -> bool) -> Vec<Component> {
    let (w, h) = (
        img.width() as usize / COARSE,
        img.height() as usize / COARSE,
    );
    let mask: Vec<bool> = (0..w * h)
        .map(|i| test((i % w) * COARSE, (i / w) * COARSE))
        .collect();
    components(&mask, w, Connectivity::Four)
        .into_iter()
        .map(|c| Component {
            count: c.count,
            x0: c.x0 * COARSE,
            y0: c.y0 * COARSE,
            x1: c.x1 * COARSE,
            y1: c.y1 * COARSE,
        })
        .collect()
}

/// Finds the board: the largest flat area of the board colour in either theme whose grid
/// lines make an N×N lattice; when no area's lines do, the area whose edges and numbers give
/// one lattice (`lattice_by_edges`). The lines' reason is the one given when both fail: it is
/// the one that describes an ordinary capture.
pub(crate) fn locate(img: &RgbaImage) -> Result<Located> {
    let mut tried = Vec::new();
    let mut looked = Vec::new();
    for look in [LIGHT, DARK] {
        let mut cands = areas(img, |x, y| board_or_grid(img, x, y, &look));
        cands.retain(|c| c.x1 - c.x0 >= MIN_BOARD && c.y1 - c.y0 >= MIN_BOARD);
        cands.sort_by_key(|c| std::cmp::Reverse(c.count));
        for c in cands.into_iter().take(3) {
            match lattice(img, &look, &c) {
                Ok(l) => return Ok(l),
                Err(e) => tried.push(e),
            }
            looked.push((look, c));
        }
    }
    if let Some(l) = looked
        .iter()
        .find_map(|(look, c)| lattice_by_edges(img, look, c).ok())
    {
        return Ok(l);
    }
    Err(tried.into_iter().next().unwrap_or_else(|| {
        Error::vision(
            None,
            "no Loop board: no flat area of the board colour (light #FFFFFF or dark #2E2E2E) \
             large enough",
        )
    }))
}

/// The lattice inside a board-coloured area, from its grid lines.
fn lattice(img: &RgbaImage, look: &Look, area: &Component) -> Result<Located> {
    let region = Region {
        x: area.x0 as i32,
        y: area.y0 as i32,
        w: (area.x1 - area.x0) as i32,
        h: (area.y1 - area.y0) as i32,
    };
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
    for y in y0..=y1 {
        for x in x0..=x1 {
            let (x, y) = (x as i64, y as i64);
            if window.at(x, y) != Class::Grid {
                continue;
            }
            let across = [true, false].map(|a| flanked(x, y, a, is_board));
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
    // there is still board.
    let outside = beyond_edges(img, look, b, 3.0);
    let inside = beyond_edges(img, look, b, -3.0);
    let inside_short = (0..4).any(|k| grown[k] && inside[k] < 16);
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

/// Of 32 samples along each edge (left, right, top, bottom), `off` pixels outside it
/// (inside when negative), how many are the board colour.
fn beyond_edges(img: &RgbaImage, look: &Look, b: crate::rect::Rect<f64>, off: f64) -> [usize; 4] {
    let board = |x: f64, y: f64| pixel(img, x, y).is_some_and(|p| near(p, look.board, 6)) as usize;
    (0..32)
        .map(|k| (k as f64 + 0.5) / 32.0)
        .fold([0usize; 4], |mut n, t| {
            n[0] += board(b.x - off, b.y + t * b.h);
            n[1] += board(b.x + b.w + off, b.y + t * b.h);
            n[2] += board(b.x + t * b.w, b.y - off);
            n[3] += board(b.x + t * b.w, b.y + b.h + off);
            n
        })
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
                    pixel(img, x, y).is_some_and(|p| near(p, look.board, 6))
                })
            })
            .count();
        if flanked * 2 < POINTS {
            profile[s..s + n].iter_mut().for_each(|c| *c = 0);
        }
    }
}

fn lerp(a: usize, b: usize, t: f64) -> f64 {
    a as f64 + t * (b as f64 - a as f64)
}

/// A number's height over its cell's pitch: 0.51–0.54 in every corpus capture, 0.48–0.56 in
/// their JPEG q20 copies. The band is wide of those and narrower than the step to a
/// neighbouring cell count (a 400-px board's 8 cells read 0.52; as 7 or 9 cells, 0.46 or 0.59).
const FONT_SHARE: std::ops::RangeInclusive<f64> = 0.48..=0.60;
/// How far a whole number's box centre may sit from its cell's centre, in pitches: up to 0.14
/// in the corpus and its copies (a "1" sits left of the middle); a wrong cell count puts some
/// number 0.25 or more off.
const CENTRE_SLACK: f64 = 0.2;

/// The lattice of a board whose grid lines are gone (a JPEG copy of the dark theme, 12 levels
/// between line and board, keeps two of seven): the board's rectangle from where its colour
/// meets the page, and the cell count from the numbers, which the app draws at a fixed share
/// of the cell, centred in it. Exactly one count must fit every whole number's height and
/// centre; none or several is a refusal.
fn lattice_by_edges(img: &RgbaImage, look: &Look, area: &Component) -> Result<Located> {
    let region = Region {
        x: area.x0 as i32,
        y: area.y0 as i32,
        w: (area.x1 - area.x0) as i32,
        h: (area.y1 - area.y0) as i32,
    };
    let refuse = |why: String| Err(Error::vision(Some(region), why));
    let Some(b) = board_by_edges(img, look, area) else {
        return refuse("no grid lines, and the board colour has no sharp edge to the page".into());
    };
    if (b.w - b.h).abs() > 2.0f64.max(0.01 * b.w) {
        return refuse(format!(
            "no grid lines, and the board colour spans {:.0}×{:.0} px: not square",
            b.w, b.h
        ));
    }
    let side = (b.w + b.h) / 2.0;
    let boxes = glyph_boxes(img, look, b);
    let height = |c: &Component| (c.y1 + 1 - c.y0) as f64;
    // The path hides part of a number it crosses, leaving shorter pieces, never taller ones.
    let tallest = boxes.iter().map(height).fold(0.0, f64::max);
    let whole: Vec<&Component> = boxes
        .iter()
        .filter(|c| height(c) >= 0.85 * tallest)
        .collect();
    if whole.is_empty() {
        return refuse("no grid lines, and no numbers to size the cells by".into());
    }
    let mut heights: Vec<f64> = whole.iter().map(|c| height(c)).collect();
    heights.sort_by(f64::total_cmp);
    let font = heights[heights.len() / 2];
    let centred = |p: f64, at: f64, from: f64| {
        let f = (at - from) / p;
        (f - f.floor() - 0.5).abs() <= CENTRE_SLACK
    };
    let fits: Vec<usize> = (MIN_CELLS..=MAX_CELLS)
        .filter(|&n| {
            let p = side / n as f64;
            FONT_SHARE.contains(&(font / p))
                && whole.iter().all(|c| {
                    centred(p, (c.x0 + c.x1) as f64 / 2.0 + 0.5, b.x)
                        && centred(p, (c.y0 + c.y1) as f64 / 2.0 + 0.5, b.y)
                })
        })
        .collect();
    let &[n] = &fits[..] else {
        return refuse(format!(
            "no grid lines, and the numbers fit {} cell counts ({fits:?}): the lattice is unsure",
            fits.len()
        ));
    };
    let pitch = side / n as f64;
    let axis = |start: f64| Axis {
        start,
        pitch,
        cells: n,
    };
    let geometry = Geometry::from_axes(axis(b.x), axis(b.y));
    if beyond_edges(img, look, geometry.board, 3.0)
        .iter()
        .any(|&k| k > EDGE_LEAK)
    {
        return refuse("the board colour goes on past the edges found".into());
    }
    Ok(Located {
        look: *look,
        geometry,
        size: n,
    })
}
/// Where the board colour starts, coming in from `outside` towards `inside`: `share(pos)` is
/// how many of 32 probes along the edge at `pos` show it. The edge is the first position where
/// half do, and it must be sharp: a quarter at most 3 px further out, three quarters 2 px in.
fn sharp_edge(share: impl Fn(i64) -> usize, outside: i64, inside: i64) -> Option<i64> {
    let dir = (inside - outside).signum();
    let mut pos = outside;
    while pos != inside {
        if share(pos) >= 16 {
            return (share(pos - 3 * dir) <= 8 && share(pos + 2 * dir) >= 24).then_some(pos);
        }
        pos += dir;
    }
    None
}

/// The board's rectangle from where its colour meets the page, near the edges of the coarse
/// `area`; probed over the middle of each side, clear of the rounded corners.
fn board_by_edges(
    img: &RgbaImage,
    look: &Look,
    area: &Component,
) -> Option<crate::rect::Rect<f64>> {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let is_board = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && x < w
            && y < h
            && near(*img.get_pixel(x as u32, y as u32), look.board, 6)
    };
    let probe = |k: usize| 0.2 + 0.6 * (k as f64 + 0.5) / 32.0;
    let down = |x: i64| {
        (0..32)
            .filter(|&k| is_board(x, lerp(area.y0, area.y1, probe(k)).round() as i64))
            .count()
    };
    let along = |y: i64| {
        (0..32)
            .filter(|&k| is_board(lerp(area.x0, area.x1, probe(k)).round() as i64, y))
            .count()
    };
    let reach = (2 * COARSE + 3) as i64;
    let (x0, x1, y0, y1) = (
        area.x0 as i64,
        area.x1 as i64,
        area.y0 as i64,
        area.y1 as i64,
    );
    let left = sharp_edge(down, x0 - reach, x0 + reach)?;
    let right = sharp_edge(down, x1 + reach, x1 - reach)?;
    let top = sharp_edge(along, y0 - reach, y0 + reach)?;
    let bottom = sharp_edge(along, y1 + reach, y1 - reach)?;
    Some(crate::rect::Rect::new(
        left as f64 - 0.5,
        top as f64 - 0.5,
        (right - left + 1) as f64,
        (bottom - top + 1) as f64,
    ))
}

/// The number glyphs' boxes inside `b` (image pixels), found without a lattice: 8-connected
/// pieces of contrasted number ink, specks left out.
fn glyph_boxes(img: &RgbaImage, look: &Look, b: crate::rect::Rect<f64>) -> Vec<Component> {
    let x0 = b.x.max(0.0).ceil() as usize;
    let y0 = b.y.max(0.0).ceil() as usize;
    let x1 = ((b.x + b.w).floor() as usize).min(img.width() as usize);
    let y1 = ((b.y + b.h).floor() as usize).min(img.height() as usize);
    if x1 <= x0 || y1 <= y0 {
        return Vec::new();
    }
    let w = x1 - x0;
    let mask: Vec<bool> = (0..w * (y1 - y0))
        .map(|k| {
            let p = *img.get_pixel((x0 + k % w) as u32, (y0 + k / w) as u32);
            number_ink(p, look, InkRule::Contrasted)
        })
        .collect();
    components(&mask, w, Connectivity::Eight)
        .into_iter()
        .filter(|c| c.count >= 6 && c.y1 - c.y0 >= 4)
        .map(|c| Component {
            count: c.count,
            x0: c.x0 + x0,
            y0: c.y0 + y0,
            x1: c.x1 + x0,
            y1: c.y1 + y0,
        })
        .collect()
}

/// Past a board's edge, more than this many of 32 samples of the board colour mean the board
/// goes on (its rounded corners and shadow account for a few).
const EDGE_LEAK: usize = 8;

/// What the lattice scan needs to know of a pixel, decided once per pixel of its window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Other,
    Board,
    Grid,
    Path,
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
        let class = (0..width * height)
            .map(|k| {
                let p = *img.get_pixel((x0 + k % width) as u32, (y0 + k / width) as u32);
                if grid_like(p, look) {
                    Class::Grid
                } else if board_colour(p, look) {
                    Class::Board
                } else if path_ink(p, look) {
                    Class::Path
                } else {
                    Class::Other
                }
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

/// The player's path: near black on the light board, near white on the dark one.
fn path_ink(p: Rgba<u8>, look: &Look) -> bool {
    let [r, g, b] = rgb(p);
    let grey = saturation([r, g, b]) <= 24;
    match look.theme {
        Theme::Light => grey && r.max(g).max(b) < 90,
        Theme::Dark => grey && r.min(g).min(b) > 190,
    }
}

/// How a number's ink is told from the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InkRule {
    /// Saturated: greys (board, grid, path) have none. The rule the templates are learned with.
    Saturated,
    /// Saturated and also a brightness step from the board. A JPEG copy keeps brightness at
    /// full resolution but halves the colour's, which spreads saturation about 2 px around
    /// each stroke onto pixels as bright as the board; this cuts that smear off again.
    Contrasted,
    /// Saturated and, by brightness, as much of the number's own colour as the saturation
    /// rule keeps in a lossless capture (`matched_ink`).
    Matched,
}

fn number_ink(p: Rgba<u8>, look: &Look, rule: InkRule) -> bool {
    if saturation(rgb(p)) < NUMBER_SATURATION {
        return false;
    }
    match rule {
        InkRule::Saturated => true,
        InkRule::Contrasted => {
            let board = luma(Rgba([look.board[0], look.board[1], look.board[2], 255]));
            luma(p).abs_diff(board) >= NUMBER_CONTRAST
        }
        // Needs the number's colour: `matched_ink`.
        InkRule::Matched => false,
    }
}

/// The palette entry nearest `colour` (by the largest channel difference): 0 the satisfied
/// green, 1..=9 the values.
fn palette_value(look: &Look, colour: [u8; 3]) -> usize {
    (0..look.numbers.len())
        .min_by_key(|&k| {
            (0..3)
                .map(|i| look.numbers[k][i].abs_diff(colour[i]))
                .max()
                .unwrap()
        })
        .unwrap()
}

/// Number ink as the saturation rule cuts it from a lossless capture, told by brightness: a
/// pixel blending the number's `colour` into the board shows saturation in proportion to the
/// colour's share, so that rule keeps shares of at least `NUMBER_SATURATION` over the colour's
/// own saturation; brightness, which a JPEG copy keeps at full resolution, still gives the
/// share where the halved colour resolution no longer does. A fixed brightness step
/// (`Contrasted`) cuts pale numbers thinner and bright ones on the dark board fatter than the
/// templates were learned.
fn matched_ink(p: Rgba<u8>, look: &Look, colour: [u8; 3]) -> bool {
    if saturation(rgb(p)) < NUMBER_SATURATION {
        return false;
    }
    let board = luma(Rgba([look.board[0], look.board[1], look.board[2], 255])) as f64;
    let full = luma(Rgba([colour[0], colour[1], colour[2], 255])) as f64 - board;
    if full.abs() < 1.0 {
        return false;
    }
    let share = (luma(p) as f64 - board) / full;
    // Well past the colour itself is the path's ink (black on white, white on the dark
    // board) smeared with a neighbour's colour.
    share >= NUMBER_SATURATION as f64 / saturation(colour) as f64 && share <= 1.5
}

fn pixel(img: &RgbaImage, x: f64, y: f64) -> Option<Rgba<u8>> {
    let (x, y) = (x.round(), y.round());
    (x >= 0.0 && y >= 0.0 && x < img.width() as f64 && y < img.height() as f64)
        .then(|| *img.get_pixel(x as u32, y as u32))
}

/// Whether the path crosses the edge between two neighbouring cells: the 4-px line runs
/// straight through the middle 30% between their centres (corners round off within 0.35 of
/// a cell from a centre), so ink must cross the segment at each of three points there.
fn linked(img: &RgbaImage, l: &Located, a: Cell, b: Cell) -> bool {
    let g = &l.geometry;
    let (pa, pb) = (g.centre(a[0], a[1]), g.centre(b[0], b[1]));
    let (dx, dy) = (pb.x - pa.x, pb.y - pa.y);
    let len = (dx * dx + dy * dy).sqrt();
    let (nx, ny) = (-dy / len, dx / len);
    let half = (0.08 * g.pitch()).max(4.0);
    [0.4, 0.5, 0.6].iter().all(|&t| {
        let (cx, cy) = (pa.x + t * dx, pa.y + t * dy);
        let steps = (2.0 * half).ceil() as i64;
        (0..=steps).any(|k| {
            let o = -half + k as f64;
            pixel(img, cx + o * nx, cy + o * ny).is_some_and(|p| path_ink(p, &l.look))
        })
    })
}

/// The drawn path from the links between cells; several strokes or a branch are refused.
fn read_path(img: &RgbaImage, l: &Located) -> Result<(Vec<Cell>, bool)> {
    let n = l.size;
    let mut links: Vec<Vec<Cell>> = vec![Vec::new(); n * n];
    for r in 0..n {
        for c in 0..n {
            for b in [[r, c + 1], [r + 1, c]] {
                if b[0] < n && b[1] < n && linked(img, l, [r, c], b) {
                    links[r * n + c].push(b);
                    links[b[0] * n + b[1]].push([r, c]);
                }
            }
        }
    }
    let board = region_of(l.geometry.board);
    if let Some(k) = (0..n * n).find(|&k| links[k].len() > 2) {
        return Err(Error::vision(
            Some(region_of(l.geometry.cell(k / n, k % n))),
            format!(
                "the path branches at row {} col {}: {} links",
                k / n,
                k % n,
                links[k].len()
            ),
        ));
    }
    let on: Vec<usize> = (0..n * n).filter(|&k| !links[k].is_empty()).collect();
    let Some(&first) = on.first() else {
        return Ok((Vec::new(), false));
    };
    let ends: Vec<usize> = on
        .iter()
        .copied()
        .filter(|&k| links[k].len() == 1)
        .collect();
    let closed = ends.is_empty();
    let start = if closed { first } else { ends[0] };
    let mut path = vec![[start / n, start % n]];
    let mut prev: Option<Cell> = None;
    loop {
        let cur = *path.last().unwrap();
        let mut next: Vec<Cell> = links[cur[0] * n + cur[1]]
            .iter()
            .copied()
            .filter(|&c| Some(c) != prev)
            .collect();
        next.sort();
        let Some(&step) = next.first() else { break };
        if step == path[0] {
            break;
        }
        prev = Some(cur);
        path.push(step);
        if path.len() > n * n {
            break;
        }
    }
    if path.len() != on.len() {
        return Err(Error::vision(
            Some(board),
            format!(
                "the drawn lines are not one path: {} cells linked, {} of them on one stroke",
                on.len(),
                path.len()
            ),
        ));
    }
    Ok((path, closed))
}

/// Whether the path turns in each cell (row-major): a cell with two links at right angles.
/// Open ends and straight runs do not count, as in the app.
fn path_turns(n: usize, path: &[Cell], closed: bool) -> Vec<bool> {
    let mut turns = vec![false; n * n];
    let m = path.len();
    if m < 3 {
        return turns;
    }
    for k in 0..m {
        if !closed && (k == 0 || k == m - 1) {
            continue;
        }
        let (p, c, q) = (path[(k + m - 1) % m], path[k], path[(k + 1) % m]);
        turns[c[0] * n + c[1]] = p[0] != q[0] && p[1] != q[1];
    }
    turns
}

/// A number's ink cut out of its cell, not yet read.
#[derive(Debug, Clone)]
pub(crate) struct Number {
    pub at: Cell,
    pub glyphs: Vec<Glyph>,
    /// Per glyph, the share of each of its cells on the path or its rim (`PATH_RING`).
    pub unseen: Vec<Glyph>,
    /// Whether the path crosses the number (its strokes there are hidden).
    pub crossed: bool,
    /// Per glyph, each cell's share hidden by the path.
    hidden: Vec<Glyph>,
    /// The most common saturated colour of its ink.
    colour: [u8; 3],
    region: Region,
}

/// Cuts the number out of every cell that has one, as the templates were learned.
pub(crate) fn numbers(img: &RgbaImage, l: &Located) -> Vec<Number> {
    numbers_by(img, l, InkRule::Saturated)
}

fn numbers_by(img: &RgbaImage, l: &Located, rule: InkRule) -> Vec<Number> {
    let g = &l.geometry;
    let mut out = Vec::new();
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
            for j in 0..side {
                for i in 0..side {
                    let Some(p) = at(i, j) else {
                        continue;
                    };
                    let ink = match matched {
                        Some(colour) => matched_ink(p, &l.look, colour),
                        None => number_ink(p, &l.look, rule),
                    };
                    if ink {
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
                continue;
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
                on: widened(&path, side, PATH_RING),
            };
            let hidden = Ink {
                width: side,
                height: side,
                on: path,
            };
            let colour = fill_colour(&colours);
            out.push(Number {
                at: [r, c],
                glyphs: merged.iter().map(|&b| patch.normalize(b)).collect(),
                hidden: merged.iter().map(|&b| hidden.normalize(b)).collect(),
                unseen: merged.iter().map(|&b| near_path.normalize(b)).collect(),
                crossed,
                colour,
                region: region_of(cell),
            });
        }
    }
    out
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
    let mut seen = vec![false; on.len()];
    for start in 0..on.len() {
        if !on[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut piece = vec![start];
        let mut k = 0;
        while k < piece.len() {
            let (x, y) = (piece[k] % side, piece[k] / side);
            k += 1;
            for yy in y.saturating_sub(1)..(y + 2).min(side) {
                for xx in x.saturating_sub(1)..(x + 2).min(side) {
                    let i = yy * side + xx;
                    if on[i] && !seen[i] {
                        seen[i] = true;
                        piece.push(i);
                    }
                }
            }
        }
        if piece.len() < area {
            piece.into_iter().for_each(|i| on[i] = false);
        }
    }
}

/// How far around the path's ink a number's pixels count as unseen: its anti-aliased rim, 1 px.
/// (3 px, to leave out a JPEG copy's ringing beside it too, left too little of crossed 0s to
/// read: 27 of 34 q20 copies read instead of 31.)
const PATH_RING: usize = 1;
/// Under this share of a glyph's cells seen, a crossed number is not read by what is left.
const MIN_SEEN: f32 = 0.5;

/// `mask` grown by `reach` pixels each way (a square), a `side`-wide square patch.
fn widened(mask: &[bool], side: usize, reach: usize) -> Vec<bool> {
    (0..mask.len())
        .map(|k| {
            let (x, y) = (k % side, k / side);
            (y.saturating_sub(reach)..(y + reach + 1).min(side)).any(|yy| {
                (x.saturating_sub(reach)..(x + reach + 1).min(side)).any(|xx| mask[yy * side + xx])
            })
        })
        .collect()
}

/// The template most like `g` by coverage over the cells `unseen` leaves (weighted by how
/// much of each is seen), with its lead over the best other digit; `None` when too little of
/// the glyph is seen.
fn seen_match(g: &Glyph, unseen: &Glyph, templates: &[(String, Glyph)]) -> Option<Match> {
    let seen: Vec<f32> = unseen.cells.iter().map(|u| 1.0 - u).collect();
    let total: f32 = seen.iter().sum();
    if total < MIN_SEEN * seen.len() as f32 {
        return None;
    }
    let mut scored: Vec<(f64, &str)> = templates
        .iter()
        .map(|(label, t)| {
            let diff: f32 = (0..seen.len())
                .map(|k| seen[k] * (g.cells[k] - t.cells[k]).abs())
                .sum();
            ((1.0 - diff / total) as f64, label.as_str())
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (score, label) = *scored.first()?;
    let rival = scored.iter().find(|s| s.1 != label).map_or(0.0, |s| s.0);
    Some(Match {
        label: label.to_string(),
        score,
        margin: score - rival,
    })
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

fn templates() -> &'static [(String, Glyph)] {
    static SET: OnceLock<Vec<(String, Glyph)>> = OnceLock::new();
    SET.get_or_init(|| {
        // The corpus's digits and the same digits in this system's sans face (DejaVu Sans).
        [
            include_str!("../../../../calibration/loop/digits.json"),
            include_str!("../../../../calibration/loop/dejavu_digits.json"),
        ]
        .iter()
        .flat_map(|text| {
            TemplateSet::from_json(text)
                .expect("calibration JSON is embedded at build time")
                .glyphs()
        })
        .collect()
    })
}

/// Reads a number's displayed value and how sure the reading is.
fn read_number(
    look: &Look,
    f: &Number,
    templates: &[(String, Glyph)],
    rule: InkRule,
) -> Result<(i32, f64)> {
    let [r, c] = f.at;
    let ([g], [hidden]) = (&f.glyphs[..], &f.hidden[..]) else {
        return Err(Error::vision(
            Some(f.region),
            format!(
                "row {r} col {c}: {} glyphs where a one-digit number should be (a count below \
                 zero has no template)",
                f.glyphs.len()
            ),
        ));
    };
    // Under the path the glyph is unknown, not blank. In a JPEG copy the path's rim rings too,
    // so a crossed number is also compared off that rim, and both views must name the digit.
    let whole = best_match_seen(g, hidden, templates);
    let sure_of = |m: &Match| (m.margin / FULL_MARGIN).min((m.score - ZERO_SCORE) / SCORE_SPAN);
    let matched = if rule == InkRule::Matched && f.crossed {
        // The surer view counts.
        match (whole, seen_match(g, &f.unseen[0], templates)) {
            (Some(a), Some(b)) if a.label == b.label => {
                Some(if sure_of(&b) > sure_of(&a) { b } else { a })
            }
            (a, None) => a,
            _ => None,
        }
    } else {
        whole
    };
    let m = matched
        .filter(|m| m.score >= MIN_GLYPH_SCORE)
        .ok_or_else(|| {
            Error::vision(
                Some(f.region),
                format!(
                    "row {r} col {c}: number unreadable (no template matches{})",
                    if f.crossed {
                        "; the path crosses it"
                    } else {
                        ""
                    }
                ),
            )
        })?;
    // The app colours a number by its value: the colour must agree with the shape.
    let off = |n: [u8; 3]| {
        (0..3)
            .map(|i| n[i].abs_diff(f.colour[i]) as i32)
            .max()
            .unwrap()
    };
    let by_colour = palette_value(look, f.colour) as i32;
    let m = colour_settles_a_tie(look, f, hidden, templates, m, by_colour);
    let value: i32 = m.label.parse().map_err(|_| {
        Error::vision(
            Some(f.region),
            format!("row {r} col {c}: read {:?}, not a digit", m.label),
        )
    })?;
    let palette = value.abs().min(9);
    // A JPEG copy shifts a thin stroke's colour by up to a palette step (its brightness rings,
    // its colour resolution is halved); there, a neighbouring step passes when the colour is
    // still close to the shape's own and the shape is plainly no other digit.
    let lossy_step = rule == InkRule::Matched
        && (by_colour - palette).abs() == 1
        && m.margin >= LOSSY_SHAPE_MARGIN
        && (0..3)
            .all(|i| look.numbers[palette as usize][i].abs_diff(f.colour[i]) <= LOSSY_COLOUR_SLACK);
    if by_colour != palette && !lossy_step {
        return Err(Error::vision(
            Some(f.region),
            format!(
                "row {r} col {c}: the shape reads {value} but the colour #{:02X}{:02X}{:02X} \
                 is the colour of {by_colour}",
                f.colour[0], f.colour[1], f.colour[2]
            ),
        ));
    }
    // The margin that guards against a misread is the lead over the digits the number could
    // be, and the colour already rules some out: were the truth a digit whose palette colour
    // lies `COLOUR_APART` further from the fill than the read one's, the copy would have
    // moved its fill most of the way to another digit's colour. A crossed 0 shows too little
    // to tell it from a 9 by shape, but green is far from any 9. By the triangle inequality
    // only digits whose colours lie `COLOUR_APART` or more from the read one's can drop out,
    // so neighbours in the palette, which a lossy copy's colour drifts between, always count.
    let own = off(look.numbers[value.unsigned_abs().min(9) as usize]);
    let rivals: Vec<(String, Glyph)> = templates
        .iter()
        .filter(|(label, _)| {
            label.parse::<i32>().map_or(true, |v| {
                off(look.numbers[v.unsigned_abs().min(9) as usize]) < own + COLOUR_APART
            })
        })
        .cloned()
        .collect();
    let margin = best_match_seen(g, hidden, &rivals).map_or(m.margin, |r| r.margin);
    let sure = (margin / FULL_MARGIN).min((m.score - ZERO_SCORE) / SCORE_SPAN);
    Ok((value, sure.clamp(0.0, 1.0)))
}

/// A crossed number whose seen strokes fit two digits alike (a 0 and a 9 cut across the middle
/// by the path) is read as the one its colour names, when the colour rules the other out as
/// `read_number`'s margin does (its palette colour `COLOUR_APART` further from the fill) and
/// the shapes score within `SHAPE_TIE`. Palette neighbours never rule each other out, so a
/// colour a hue turn or a lossy copy moved a step still meets the shape check.
fn colour_settles_a_tie(
    look: &Look,
    f: &Number,
    hidden: &Glyph,
    templates: &[(String, Glyph)],
    m: Match,
    by_colour: i32,
) -> Match {
    let off = |v: i32| {
        let n = look.numbers[v.unsigned_abs().min(9) as usize];
        (0..3)
            .map(|i| n[i].abs_diff(f.colour[i]) as i32)
            .max()
            .unwrap()
    };
    let Ok(shape) = m.label.parse::<i32>() else {
        return m;
    };
    if !f.crossed || shape.abs().min(9) == by_colour || off(shape) < off(by_colour) + COLOUR_APART {
        return m;
    }
    let named = by_colour.to_string();
    let own: Vec<(String, Glyph)> = templates
        .iter()
        .filter(|(label, _)| *label == named)
        .cloned()
        .collect();
    // Both scores in the view that hides only the path, whichever view `m` came from.
    let g = f.glyphs.first().unwrap_or(hidden);
    let best = best_match_seen(g, hidden, templates).map_or(m.score, |w| w.score);
    match best_match_seen(g, hidden, &own) {
        Some(alt) if alt.score >= MIN_GLYPH_SCORE && best - alt.score <= SHAPE_TIE => Match {
            margin: m.margin,
            ..alt
        },
        _ => m,
    }
}

/// Reads the board with the numbers cut as the templates were learned; when that is refused,
/// again with the smear-cutting ink rules of a JPEG copy (a fixed brightness step, then the
/// brightness share matched to each number's colour), each reading passing the same checks
/// (template score, margin, colour agreeing with shape). The first refusal's reason is kept
/// when all fail: it is the one that describes an ordinary capture.
fn read(img: &RgbaImage, l: &Located, templates: &[(String, Glyph)]) -> Result<Reading> {
    read_by(img, l, templates, InkRule::Saturated).or_else(|first| {
        read_by(img, l, templates, InkRule::Contrasted)
            .or_else(|_| read_by(img, l, templates, InkRule::Matched))
            .map_err(|_| first)
    })
}

fn read_by(
    img: &RgbaImage,
    l: &Located,
    templates: &[(String, Glyph)],
    rule: InkRule,
) -> Result<Reading> {
    let n = l.size;
    let (path, closed) = read_path(img, l)?;
    let turns = path_turns(n, &path, closed);
    let mut puzzle = Puzzle::empty(n, n);
    let mut confidence = 1.0f64;
    let numbers = numbers_by(img, l, rule);
    if rule != InkRule::Saturated {
        // A stricter rule can leave too little of a faint number (a pale one in a shrunk copy)
        // to count: its cell would read as blank, a hint lost. Every number the learned rule
        // sees must still be there.
        let lost = numbers_by(img, l, InkRule::Saturated)
            .into_iter()
            .find(|f| !numbers.iter().any(|g| g.at == f.at));
        if let Some(f) = lost {
            let [r, c] = f.at;
            return Err(Error::vision(
                Some(f.region),
                format!("row {r} col {c}: a number too faint to cut by brightness"),
            ));
        }
    }
    for f in numbers {
        let (shown, sure) = read_number(&l.look, &f, templates, rule)?;
        let [r, c] = f.at;
        // The app counts a number down by the path's turns in its block.
        let drawn = puzzle
            .block(r, c)
            .filter(|&[a, b]| turns[a * n + b])
            .count() as i32;
        let hint = shown + drawn;
        if hint < 0 || hint as usize > puzzle.block_size(r, c) {
            return Err(Error::vision(
                Some(f.region),
                format!(
                    "row {r} col {c}: shows {shown} with {drawn} drawn turns around it, so its \
                     hint would be {hint}, which its block cannot hold"
                ),
            ));
        }
        if sure < MIN_CONFIDENCE {
            return Err(Error::vision(
                Some(f.region),
                format!("row {r} col {c}: number uncertain (read {shown}, confidence {sure:.2})"),
            ));
        }
        confidence = confidence.min(sure);
        puzzle.hints[r * n + c] = Some(hint as u8);
    }
    if puzzle.hint_count() == 0 {
        return Err(Error::vision(
            Some(region_of(l.geometry.board)),
            "a grid with no numbers: every Loop daily shows at least one",
        ));
    }
    Ok(Reading {
        puzzle,
        geometry: l.geometry,
        theme: l.look.theme,
        path,
        closed,
        solved: false,
        confidence,
    })
}

/// Outline, drawn path and recovered hints over the capture, for `scan --overlay`: each hint
/// as read (after adding back the drawn turns) in a small box at its cell's top-left corner,
/// the path as a line through the cell centres, so a misreading shows at a glance.
pub fn draw_overlay(img: &mut RgbaImage, reading: &Reading) {
    use imageproc::drawing::{draw_hollow_rect_mut, draw_line_segment_mut};
    const BOARD: Rgba<u8> = Rgba([255, 140, 0, 255]);
    const PATH: Rgba<u8> = Rgba([0, 170, 255, 255]);
    let g = &reading.geometry;
    let b = g.board;
    if b.w >= 1.0 && b.h >= 1.0 {
        let rect = imageproc::rect::Rect::at(b.x.round() as i32, b.y.round() as i32)
            .of_size(b.w as u32, b.h as u32);
        draw_hollow_rect_mut(img, rect, BOARD);
    }
    let n = reading.path.len();
    let steps = if reading.closed {
        n
    } else {
        n.saturating_sub(1)
    };
    // Off the app's own line by a few pixels, so both stay visible.
    let shift = (g.pitch() / 10.0) as f32;
    for k in 0..steps {
        let (a, c) = (reading.path[k], reading.path[(k + 1) % n]);
        let (p, q) = (g.centre(a[0], a[1]), g.centre(c[0], c[1]));
        for t in 0..2 {
            let o = shift + t as f32;
            draw_line_segment_mut(
                img,
                (p.x as f32 + o, p.y as f32 + o),
                (q.x as f32 + o, q.y as f32 + o),
                PATH,
            );
        }
    }
    let size = ((g.pitch() / 25.0).round() as i64).max(1);
    for r in 0..reading.puzzle.height {
        for c in 0..reading.puzzle.width {
            if let Some(h) = reading.puzzle.hint(r, c) {
                let cell = g.cell(r, c);
                crate::overlay::draw_number(
                    img,
                    h as usize,
                    cell.x as i64 + 2,
                    cell.y as i64 + 2,
                    size,
                );
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::Value;
    use std::path::PathBuf;

    /// One corpus screenshot and what it shows, from `loop/screenshots/index.jsonl`.
    pub(crate) struct Shot {
        pub file: String,
        pub img: RgbaImage,
        pub state: String,
        pub theme: String,
        pub size: usize,
        pub hints: Vec<String>,
        pub path: Vec<Cell>,
        pub board: [f64; 4],
    }

    pub(crate) fn shots() -> Option<Vec<Shot>> {
        let index = crate::corpus::path("loop/screenshots/index.jsonl")?;
        let dir: PathBuf = index.parent().unwrap().parent().unwrap().to_path_buf();
        let mut out = Vec::new();
        for line in std::fs::read_to_string(&index).unwrap().lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            let file = v["file"].as_str().unwrap().to_string();
            let r = &v["board_css_rect"];
            out.push(Shot {
                img: image::open(dir.join(&file)).unwrap().to_rgba8(),
                file,
                state: v["state"].as_str().unwrap().to_string(),
                theme: v["theme"].as_str().unwrap().to_string(),
                size: v["size"].as_u64().unwrap() as usize,
                hints: v["hints"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| s.as_str().unwrap().to_string())
                    .collect(),
                path: v["drawn_path"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| {
                        [
                            c[0].as_u64().unwrap() as usize,
                            c[1].as_u64().unwrap() as usize,
                        ]
                    })
                    .collect(),
                board: ["x", "y", "w", "h"].map(|k| r[k].as_f64().unwrap()),
            });
        }
        Some(out)
    }

    /// The same open path, or the same closed one, whatever its start and direction: a
    /// picture does not show where the stroke began.
    fn same_path(read: &[Cell], truth: &[Cell], closed: bool) -> bool {
        if read.len() != truth.len() {
            return false;
        }
        let rev: Vec<Cell> = truth.iter().rev().copied().collect();
        if !closed {
            return read == truth || read == rev.as_slice();
        }
        (0..truth.len()).any(|s| {
            [truth, rev.as_slice()]
                .iter()
                .any(|t| (0..t.len()).all(|k| read[k] == t[(s + k) % t.len()]))
        })
    }

    #[test]
    fn reads_every_corpus_screenshot_exactly() {
        let Some(all) = shots() else { return };
        let mut read_ok = 0;
        let mut refused_solved = 0;
        for s in &all {
            let got = recognize(&s.img);
            if s.state == "solved" {
                match got {
                    Err(Error::Vision { message, .. }) if message.contains("win sheet") => {
                        refused_solved += 1
                    }
                    other => panic!("{}: expected the win sheet refused, got {other:?}", s.file),
                }
                continue;
            }
            let r = got.unwrap_or_else(|e| panic!("{}: {e}", s.file));
            assert_eq!(r.puzzle.width, s.size, "{}", s.file);
            assert_eq!(r.puzzle.rows(), s.hints, "{}", s.file);
            assert!(
                same_path(&r.path, &s.path, false),
                "{}: path {:?}, drawn {:?}",
                s.file,
                r.path,
                s.path
            );
            assert!(!r.closed && !r.solved, "{}", s.file);
            let theme = match r.theme {
                Theme::Light => "light",
                Theme::Dark => "dark",
            };
            assert_eq!(theme, s.theme, "{}", s.file);
            let b = r.geometry.board;
            for (got, want) in [b.x, b.y, b.w, b.h].iter().zip(s.board) {
                assert!((got - want).abs() <= 1.5, "{}: board {b:?}", s.file);
            }
            assert!(r.confidence >= MIN_CONFIDENCE, "{}", s.file);
            read_ok += 1;
        }
        eprintln!("read {read_ok}, solved refused {refused_solved}");
        assert_eq!(read_ok + refused_solved, all.len());
    }

    #[test]
    fn pictures_of_other_games_and_blank_ones_are_refused() {
        let mut others = crate::corpus::pictures("hashi/screenshots");
        others.extend(crate::corpus::pictures("enclose/screenshots"));
        others.extend(crate::corpus::pictures("flow/screenshots"));
        for (p, img) in &others {
            match recognize(img) {
                Err(Error::Vision { .. }) => {}
                other => panic!("{}: expected a vision error, got {other:?}", p.display()),
            }
        }
        for colour in [
            [0, 0, 0, 255],
            [255, 255, 255, 255],
            [0x2e, 0x2e, 0x2e, 255],
            [0xf3, 0xf4, 0xf6, 255],
        ] {
            let blank = RgbaImage::from_pixel(640, 480, Rgba(colour));
            assert!(
                matches!(recognize(&blank), Err(Error::Vision { .. })),
                "{colour:?}"
            );
        }
    }

    /// A capture rescaled (another device scale, a shrunk copy) blurs the 1-px grid lines:
    /// it must read as the original did or be refused, never read otherwise.
    #[test]
    fn a_rescaled_capture_reads_the_same_or_is_refused() {
        let Some(all) = shots() else { return };
        let (mut same, mut refused) = (0, 0);
        for s in all.iter().filter(|s| s.state != "solved") {
            for f in [1.25f32, 0.8] {
                let (w, h) = (
                    (s.img.width() as f32 * f) as u32,
                    (s.img.height() as f32 * f) as u32,
                );
                let img =
                    image::imageops::resize(&s.img, w, h, image::imageops::FilterType::Triangle);
                match recognize(&img) {
                    Ok(r) => {
                        assert_eq!(r.puzzle.rows(), s.hints, "{} at {f}", s.file);
                        assert!(same_path(&r.path, &s.path, false), "{} at {f}", s.file);
                        same += 1;
                    }
                    Err(Error::Vision { .. }) => refused += 1,
                    Err(e) => panic!("{} at {f}: {e}", s.file),
                }
            }
        }
        eprintln!("rescaled: {same} read the same, {refused} refused");
    }

    /// A lossy copy (JPEG quality 20) of a capture, and a capture enlarged 1.5× or 2×, still
    /// show their board where it is with its lattice; what they read is the truth or refused.
    /// (A dark-theme JPEG at quality 20 loses most grid lines, 12 levels over the board; its
    /// lattice comes from the board's edges and the numbers.)
    #[test]
    fn a_lossy_or_enlarged_copy_still_shows_its_board() {
        let Some(all) = shots() else { return };
        let mut read_same = 0;
        for s in all.iter().filter(|s| s.state != "solved") {
            let copies = [
                (1.5, scaled(&s.img, 1.5)),
                (2.0, scaled(&s.img, 2.0)),
                (1.0, crate::vision::test_pictures::jpeg_copy(&s.img, 20)),
            ];
            for (f, img) in &copies {
                let l = locate(img).unwrap_or_else(|e| panic!("{} at {f}: {e}", s.file));
                assert_eq!(l.size, s.size, "{} at {f}", s.file);
                let b = l.geometry.board;
                for (got, want) in [b.x, b.y, b.w, b.h].iter().zip(s.board) {
                    assert!((got - want * f).abs() <= 2.0, "{} at {f}: {b:?}", s.file);
                }
                match recognize(img) {
                    Ok(r) => {
                        assert_eq!(r.puzzle.rows(), s.hints, "{} at {f}", s.file);
                        assert!(same_path(&r.path, &s.path, false), "{} at {f}", s.file);
                        read_same += 1;
                    }
                    Err(Error::Vision { .. }) => {}
                    Err(e) => panic!("{} at {f}: {e}", s.file),
                }
            }
        }
        eprintln!("lossy or enlarged copies: {read_same} read the same");
    }

    fn scaled(img: &RgbaImage, f: f64) -> RgbaImage {
        let (w, h) = (
            (img.width() as f64 * f).round() as u32,
            (img.height() as f64 * f).round() as u32,
        );
        image::imageops::resize(img, w, h, image::imageops::FilterType::Lanczos3)
    }

    /// Issue 32's bar at 0.75x (cells of 37.5 px, digits about 14 px tall), and two scales
    /// between the bench's: at least 33 of the 34 copies read as the originals, none
    /// otherwise. The ones that used to be refused are numbers the path crosses: a 0 or 1
    /// whose strokes under the path counted as blank, a crossed 0 whose shape came out as
    /// near a 9 as a 0, a digit cut in two by the path's rim, a 1 whose colour came out as
    /// its blend with the path.
    #[test]
    fn a_rescaled_copy_reads_the_same_crossed_numbers_included() {
        let Some(all) = shots() else { return };
        for f in [0.75, 0.8, 1.33] {
            let mut refused = Vec::new();
            for s in all.iter().filter(|s| s.state != "solved") {
                match recognize(&scaled(&s.img, f)) {
                    Ok(r) => {
                        assert_eq!(r.puzzle.rows(), s.hints, "{} at {f}", s.file);
                        assert!(same_path(&r.path, &s.path, false), "{} at {f}", s.file);
                        assert!(r.confidence >= MIN_CONFIDENCE, "{} at {f}", s.file);
                    }
                    Err(Error::Vision { message, .. }) => {
                        refused.push(format!("{}: {message}", s.file))
                    }
                    Err(e) => panic!("{} at {f}: {e}", s.file),
                }
            }
            assert!(refused.len() <= 1, "refused at {f}: {refused:#?}");
        }
    }

    /// A capture of the board alone, or with a little page around it, reads as the full page.
    #[test]
    fn a_crop_around_the_board_reads_the_same() {
        let Some(all) = shots() else { return };
        for s in all.iter().filter(|s| s.state != "solved") {
            for m in [30u32, 2] {
                let [x, y, w, h] = s.board.map(|v| v as u32);
                let img = image::imageops::crop_imm(&s.img, x - m, y - m, w + 2 * m, h + 2 * m)
                    .to_image();
                let r = recognize(&img).unwrap_or_else(|e| panic!("{} margin {m}: {e}", s.file));
                assert_eq!(r.puzzle.rows(), s.hints, "{} margin {m}", s.file);
                assert!(same_path(&r.path, &s.path, false), "{} margin {m}", s.file);
            }
        }
    }

    /// A loop drawn in the win green reads as won, also with the lower half of the board
    /// covered (the narrow window's bottom sheet); the same loop in the path's own ink does not.
    #[test]
    fn a_green_loop_is_won_and_a_black_one_is_not() {
        let Some(all) = shots() else { return };
        let s = all
            .iter()
            .find(|s| s.state == "fresh" && s.theme == "light")
            .unwrap();
        let r = recognize(&s.img).unwrap();
        let opts = crate::games::loopgame::solve::Options::default();
        let crate::games::loopgame::solve::Outcome::Solved { cycle, .. } =
            crate::games::loopgame::solve::solve(&r.puzzle, &opts)
        else {
            panic!("{}: not solved", s.file)
        };
        let draw = |ink: [u8; 3], cover: bool| {
            let mut img = s.img.clone();
            for (a, b) in cycle.iter().zip(cycle.iter().cycle().skip(1)) {
                let (pa, pb) = (r.geometry.centre(a[0], a[1]), r.geometry.centre(b[0], b[1]));
                for k in 0..=20 {
                    let t = k as f64 / 20.0;
                    let (x, y) = (pa.x + t * (pb.x - pa.x), pa.y + t * (pb.y - pa.y));
                    for d in -2..=2 {
                        let (dx, dy) = if pa.x == pb.x { (d, 0) } else { (0, d) };
                        let (px, py) = (
                            (x.round() as i32 + dx) as u32,
                            (y.round() as i32 + dy) as u32,
                        );
                        img.put_pixel(px, py, Rgba([ink[0], ink[1], ink[2], 255]));
                    }
                }
            }
            if cover {
                let b = r.geometry.board;
                let top = (b.y + b.h / 2.0) as u32;
                for y in top..img.height() {
                    for x in 0..img.width() {
                        img.put_pixel(x, y, Rgba([255, 255, 255, 255]));
                    }
                }
            }
            shows_loop_won(&img, &r.geometry, r.theme, &cycle)
        };
        assert!(draw(LIGHT.numbers[0], false));
        assert!(draw(LIGHT.numbers[0], true));
        assert!(!draw([20, 20, 20], false));
        assert!(!shows_loop_won(&s.img, &r.geometry, r.theme, &cycle));
    }

    /// A grey line across the page a whole number of cells above the board (a browser bar's
    /// border over a short window) is the grid lines' grey, but not a grid line.
    #[test]
    fn a_grey_page_line_in_step_with_the_grid_is_not_a_grid_line() {
        let Some(all) = shots() else { return };
        for s in all.iter().filter(|s| s.state != "solved") {
            let look = if s.theme == "dark" { DARK } else { LIGHT };
            let [_, y, _, h] = s.board;
            let pitch = h / s.size as f64;
            let mut img = s.img.clone();
            let line = (y - pitch).round() as u32;
            for x in 0..img.width() {
                let [r, g, b] = look.grid;
                img.put_pixel(x, line, Rgba([r, g, b, 255]));
            }
            let r = recognize(&img).unwrap_or_else(|e| panic!("{}: {e}", s.file));
            assert_eq!(r.puzzle.rows(), s.hints, "{}", s.file);
            assert!(same_path(&r.path, &s.path, false), "{}", s.file);
        }
    }

    /// A lossy copy (JPEG) smears the flat colours: it reads as the PNG does or is refused.
    #[test]
    fn a_jpeg_copy_reads_the_same_or_is_refused() {
        let Some(all) = shots() else { return };
        let (mut same, mut refused) = (0, 0);
        for s in all.iter().filter(|s| s.state != "solved") {
            let img = crate::vision::test_pictures::jpeg_copy(&s.img, 90);
            match recognize(&img) {
                Ok(r) => {
                    assert_eq!(r.puzzle.rows(), s.hints, "{}", s.file);
                    assert!(same_path(&r.path, &s.path, false), "{}", s.file);
                    same += 1;
                }
                Err(Error::Vision { .. }) => refused += 1,
                Err(e) => panic!("{}: {e}", s.file),
            }
        }
        eprintln!("JPEG copies: {same} read the same, {refused} refused");
    }

    /// At JPEG q20 the halved colour resolution smears the numbers' saturation: a copy reads
    /// as the PNG does or is refused, and cutting the smear by brightness reads copies the
    /// saturation rule alone refuses.
    #[test]
    fn a_jpeg_q20_copy_reads_the_same_or_is_refused() {
        let Some(all) = shots() else { return };
        let (mut same, mut saturated_only) = (0, 0);
        for s in all.iter().filter(|s| s.state != "solved") {
            let img = crate::vision::test_pictures::jpeg_copy(&s.img, 20);
            let Ok(located) = locate(&img) else { continue };
            if read_by(&img, &located, templates(), InkRule::Saturated).is_ok() {
                saturated_only += 1;
            }
            match recognize(&img) {
                Ok(r) => {
                    assert_eq!(r.puzzle.rows(), s.hints, "{}", s.file);
                    assert!(same_path(&r.path, &s.path, false), "{}", s.file);
                    same += 1;
                }
                Err(Error::Vision { .. }) => {}
                Err(e) => panic!("{}: {e}", s.file),
            }
        }
        eprintln!("JPEG q20: {same} read the same ({saturated_only} by saturation alone)");
        assert!(
            same > saturated_only,
            "{same} read, {saturated_only} without the fallback"
        );
        // 33 of 34 with the dark theme's lattice from its edges, the numbers cut by matched
        // brightness and a crossed 0's tie with 9 settled by its green; the one left has two
        // crossed pale 0s read with too little confidence.
        assert!(same >= 33, "{same} of the JPEG q20 copies read");
    }

    /// A pale, board-bright pixel (a JPEG colour smear beside a stroke) is saturated enough
    /// for the learned rule but not number ink once brightness must step from the board.
    #[test]
    fn a_board_bright_smear_is_not_contrasted_ink() {
        let smear = Rgba([255, 235, 200, 255]);
        assert!(number_ink(smear, &LIGHT, InkRule::Saturated));
        assert!(!number_ink(smear, &LIGHT, InkRule::Contrasted));
        let stroke = Rgba([0xff, 0xb0, 0x4a, 255]);
        assert!(number_ink(stroke, &LIGHT, InkRule::Contrasted));
        let dark_stroke = Rgba([0x8a, 0x3a, 0x86, 255]);
        assert!(number_ink(dark_stroke, &DARK, InkRule::Contrasted));
    }

    /// Matched ink keeps the blends the saturation rule keeps at the number's own colour
    /// (half of a 7 over white; a fifth is under its 0.31), whatever their brightness step,
    /// and leaves out the black path smeared with a neighbour's colour.
    #[test]
    fn matched_ink_is_the_saturation_rules_share_of_the_colour() {
        let blend = |c: [u8; 3], over: [u8; 3], share: f64| {
            let m = |i: usize| (over[i] as f64 + share * (c[i] as f64 - over[i] as f64)).round();
            Rgba([m(0) as u8, m(1) as u8, m(2) as u8, 255])
        };
        let seven = LIGHT.numbers[7];
        assert!(matched_ink(blend(seven, LIGHT.board, 0.5), &LIGHT, seven));
        assert!(!matched_ink(blend(seven, LIGHT.board, 0.2), &LIGHT, seven));
        // A JPEG smear as saturated as the rule asks, 25 levels under white: 0.16 of a 7's
        // step, which the fixed step keeps (a 7 cut too fat).
        let smear = Rgba([255, 215, 240, 255]);
        assert!(number_ink(smear, &LIGHT, InkRule::Contrasted));
        assert!(!matched_ink(smear, &LIGHT, seven));
        let green = LIGHT.numbers[0];
        assert!(matched_ink(blend(green, LIGHT.board, 0.6), &LIGHT, green));
        assert!(!number_ink(
            blend(green, LIGHT.board, 0.5),
            &LIGHT,
            InkRule::Contrasted
        ));
        let one = LIGHT.numbers[1];
        assert!(!matched_ink(Rgba([90, 40, 0, 255]), &LIGHT, one));
        let dark_one = DARK.numbers[1];
        assert!(matched_ink(
            blend(dark_one, DARK.board, 0.5),
            &DARK,
            dark_one
        ));
        assert!(!matched_ink(
            blend(dark_one, DARK.board, 0.2),
            &DARK,
            dark_one
        ));
        assert_eq!(palette_value(&LIGHT, [0x97, 0x18, 0x77]), 8);
        assert_eq!(palette_value(&DARK, DARK.numbers[4]), 4);
    }

    /// A plain 7 whose colour a JPEG copy moved a palette step (to the 8's side) reads as 7
    /// only under the JPEG rule; colour further off, or a step on a shape that is not plainly
    /// one digit, stays refused.
    #[test]
    fn a_lossy_colour_a_step_off_passes_only_with_a_plain_shape() {
        let seven = templates()
            .iter()
            .find(|(l, _)| l == "7")
            .map(|(_, g)| g.clone())
            .unwrap();
        let number = |glyph: Glyph, colour: [u8; 3]| Number {
            at: [0, 0],
            glyphs: vec![glyph],
            hidden: vec![Glyph::from_mask(16, 16, &[false; 256])],
            unseen: vec![Glyph::from_mask(16, 16, &[false; 256])],
            crossed: false,
            colour,
            region: Region {
                x: 0,
                y: 0,
                w: 50,
                h: 50,
            },
        };
        let shifted = number(seven.clone(), [0x97, 0x18, 0x77]);
        let read = |f: &Number, rule| read_number(&LIGHT, f, templates(), rule);
        assert_eq!(read(&shifted, InkRule::Matched).unwrap().0, 7);
        assert!(read(&shifted, InkRule::Saturated).is_err());
        assert!(read(&shifted, InkRule::Contrasted).is_err());
        // The 8's own colour is 36 levels of red from the 7's.
        assert!(read(&number(seven.clone(), LIGHT.numbers[8]), InkRule::Matched).is_err());
        // Half a 7 and half an 8: no plain shape.
        let eight = templates()
            .iter()
            .find(|(l, _)| l == "8")
            .unwrap()
            .1
            .clone();
        let blend = Glyph::mean(&[seven, eight]).unwrap();
        assert!(read(&number(blend, [0x97, 0x18, 0x77]), InkRule::Matched).is_err());
    }

    /// A copy shrunk to half blurs a pale 5 so that its colour reads as the green 0's, and
    /// brightness matched to that colour can leave too little of it to count as a number (with
    /// specks of 8 px dropped at every cell size, four hard boards read with a hint gone).
    /// Every brightness reading of a half-size copy is the truth or refused.
    #[test]
    fn a_stricter_ink_rule_never_loses_a_number() {
        let Some(all) = shots() else { return };
        let mut refused_faint = 0;
        for s in all.iter().filter(|s| s.state != "solved") {
            let img = scaled(&s.img, 0.5);
            let Ok(l) = locate(&img) else { continue };
            for rule in [InkRule::Contrasted, InkRule::Matched] {
                match read_by(&img, &l, templates(), rule) {
                    Ok(r) => assert_eq!(r.puzzle.rows(), s.hints, "{} {rule:?}", s.file),
                    Err(e) => refused_faint += e.to_string().contains("too faint") as usize,
                }
            }
        }
        eprintln!("half-size copies: {refused_faint} brightness readings lost a faint number");
    }

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

    /// With the cells the path covers left out, a template compared with itself scores 1
    /// however much is unseen, as long as enough is seen; a glyph blotted where it is unseen
    /// still matches its own template best.
    /// A crossed glyph a little nearer a 9 than a 0 is read as the digit its colour names when
    /// the colour rules the other out; a plain 9, or a glyph the path does not cross, keeps
    /// its shape's reading (and meets the colour check after).
    #[test]
    fn a_crossed_tie_is_settled_by_colour_and_nothing_else_is() {
        let set = templates();
        let first = |d: &str| set.iter().find(|(l, _)| l == d).unwrap().1.clone();
        let (zero, nine) = (first("0"), first("9"));
        let mut between = zero.clone();
        for (k, c) in between.cells.iter_mut().enumerate() {
            *c = 0.49 * zero.cells[k] + 0.51 * nine.cells[k];
        }
        let none = Glyph::from_mask(16, 16, &[false; 256]);
        let number = |glyph: &Glyph, crossed: bool| Number {
            at: [0, 0],
            glyphs: vec![glyph.clone()],
            hidden: vec![none.clone()],
            unseen: vec![none.clone()],
            crossed,
            colour: LIGHT.numbers[0],
            region: Region {
                x: 0,
                y: 0,
                w: 50,
                h: 50,
            },
        };
        let settle = |glyph: &Glyph, crossed: bool| {
            let m = best_match_seen(glyph, &none, set).unwrap();
            colour_settles_a_tie(&LIGHT, &number(glyph, crossed), &none, set, m, 0).label
        };
        assert_eq!(settle(&between, true), "0");
        assert_eq!(settle(&between, false), "9");
        assert_eq!(settle(&nine, true), "9");
    }

    #[test]
    fn a_crossed_glyph_is_compared_where_it_is_seen() {
        let set = templates();
        let (label, two) = set.iter().find(|(l, _)| l == "2").unwrap();
        let band = |rows: std::ops::Range<usize>| {
            let on: Vec<bool> = (0..256).map(|k| rows.contains(&(k / 16))).collect();
            Glyph::from_mask(16, 16, &on)
        };
        let mut blotted = two.clone();
        for k in 7 * 16..11 * 16 {
            blotted.cells[k] = 1.0;
        }
        let m = seen_match(&blotted, &band(7..11), set).unwrap();
        assert_eq!(&m.label, label);
        assert!((m.score - 1.0).abs() < 1e-6, "{}", m.score);
        assert!(seen_match(two, &band(2..11), set).is_none());
        let mut dot = vec![false; 25];
        dot[6] = true;
        let w = widened(&dot, 5, 1);
        let grown: Vec<usize> = (0..25).filter(|&k| w[k]).collect();
        assert_eq!(grown, [0, 1, 2, 5, 6, 7, 10, 11, 12]);
    }

    #[test]
    fn a_blotted_number_is_an_error_naming_its_cell() {
        let Some(all) = shots() else { return };
        let s = all.iter().find(|s| s.state == "fresh").unwrap();
        let r = recognize(&s.img).unwrap();
        let k = r.puzzle.hints.iter().position(|h| h.is_some()).unwrap();
        let (row, col) = (k / r.puzzle.width, k % r.puzzle.width);
        let c = r.geometry.centre(row, col);
        let mut img = s.img.clone();
        // A saturated block over the number: ink, but no digit's shape.
        let half = (r.geometry.pitch() * 0.25) as i64;
        for y in c.y as i64 - half..=c.y as i64 + half {
            for x in c.x as i64 - half..=c.x as i64 + half {
                img.put_pixel(x as u32, y as u32, Rgba([0xff, 0x8c, 0x42, 255]));
            }
        }
        match recognize(&img) {
            Err(Error::Vision {
                region: Some(reg),
                message,
            }) => {
                assert!(reg.contains(c.x as i32, c.y as i32), "{reg:?}");
                assert!(
                    message.contains(&format!("row {row} col {col}")),
                    "{message}"
                );
            }
            other => panic!("expected an error at row {row} col {col}, got {other:?}"),
        }
    }

    #[test]
    fn the_overlay_marks_the_board_and_the_path() {
        let Some(all) = shots() else { return };
        let s = all.iter().find(|s| !s.path.is_empty()).unwrap();
        let r = recognize(&s.img).unwrap();
        let mut img = s.img.clone();
        draw_overlay(&mut img, &r);
        let b = r.geometry.board;
        assert_eq!(
            *img.get_pixel(b.x.round() as u32, (b.y + b.h / 2.0) as u32),
            Rgba([255, 140, 0, 255])
        );
        // The drawn path's first step carries the overlay's line beside the app's.
        let (p, q) = (
            r.geometry.centre(r.path[0][0], r.path[0][1]),
            r.geometry.centre(r.path[1][0], r.path[1][1]),
        );
        let o = r.geometry.pitch() / 10.0;
        let mid = ((p.x + q.x) / 2.0 + o, (p.y + q.y) / 2.0 + o);
        assert_eq!(
            *img.get_pixel(mid.0 as u32, mid.1 as u32),
            Rgba([0, 170, 255, 255])
        );
    }

    /// `autoplayer calibrate loop` over the corpus makes exactly the embedded corpus digits
    /// (`calibration/make.sh` runs it so); each number is labelled with what it displays.
    #[test]
    fn the_shipped_digits_are_what_calibrate_learns_from_the_corpus() {
        let Some(all) = shots() else { return };
        let known: Vec<(String, RgbaImage, Puzzle)> = all
            .into_iter()
            .filter(|s| s.state != "solved")
            .map(|s| {
                let puzzle = super::super::format::parse(&s.hints.join("\n"), &s.file).unwrap();
                (s.file, s.img, puzzle)
            })
            .collect();
        let learned = learn(&known).unwrap();
        let shipped =
            TemplateSet::from_json(include_str!("../../../../calibration/loop/digits.json")).unwrap();
        assert_eq!(learned.glyphs(), shipped.glyphs());
        assert_eq!(learned.made_from.len(), 34);
    }

    /// The first position with half its probes on the board, if the page lies 3 px out and
    /// the board 2 px in; a soft ramp or a board going on outside is no edge.
    #[test]
    fn a_board_edge_must_be_sharp() {
        let step = |at: i64| move |x: i64| if x >= at { 32 } else { 0 };
        assert_eq!(sharp_edge(step(10), 0, 20), Some(10));
        assert_eq!(sharp_edge(step(10), 20, 0), None);
        assert_eq!(sharp_edge(|x: i64| 32 - step(10)(x), 20, 0), Some(9));
        let ramp = |x: i64| (x.clamp(0, 16) * 2) as usize;
        assert_eq!(sharp_edge(ramp, 0, 20), None);
        assert_eq!(sharp_edge(|_| 32, 0, 20), None);
    }

    /// A dark page with a board of `side` px at (100, 100) and number-coloured boxes 25 px
    /// tall centred at `centres`: no grid lines at all.
    fn bare_board(side: u32, centres: &[(u32, u32)]) -> RgbaImage {
        let [r, g, b] = DARK.board;
        let mut img = RgbaImage::from_pixel(side + 200, side + 200, Rgba([0x23, 0x23, 0x23, 255]));
        for y in 100..100 + side {
            for x in 100..100 + side {
                img.put_pixel(x, y, Rgba([r, g, b, 255]));
            }
        }
        let [r, g, b] = DARK.numbers[2];
        for &(cx, cy) in centres {
            for y in cy - 12..=cy + 12 {
                for x in cx - 7..=cx + 7 {
                    img.put_pixel(100 + x, 100 + y, Rgba([r, g, b, 255]));
                }
            }
        }
        img
    }

    /// With no grid lines the numbers must fit one cell count alone: one number in a corner
    /// cell fits 8 and 9 cells of a 400-px board (25 px tall is 0.50 and 0.56 of their
    /// pitches), which is refused; a second one in the middle of an 8-cell board's sixth
    /// column settles it. No numbers at all is refused too.
    #[test]
    fn a_board_without_lines_takes_its_cell_count_from_the_numbers_or_refuses() {
        let try_board = |centres: &[(u32, u32)]| {
            let img = bare_board(400, centres);
            let area = areas(&img, |x, y| board_or_grid(&img, x, y, &DARK))
                .into_iter()
                .max_by_key(|c| c.count)
                .unwrap();
            assert!(lattice(&img, &DARK, &area).is_err(), "no lines to find");
            lattice_by_edges(&img, &DARK, &area)
        };
        assert!(try_board(&[]).is_err());
        assert!(try_board(&[(24, 24)]).is_err());
        let l = try_board(&[(24, 24), (275, 175)]).unwrap();
        assert_eq!(l.size, 8);
        let b = l.geometry.board;
        assert_eq!([b.x, b.y, b.w, b.h], [99.5, 99.5, 400.0, 400.0]);
    }

    /// Where the grid lines give the lattice, the edges and numbers give the same one; in a
    /// JPEG q20 copy of the dark theme, which keeps too few lines, they still do.
    #[test]
    fn the_board_by_edges_and_numbers_is_the_lattice_the_lines_give() {
        let Some(all) = shots() else { return };
        for s in all.iter().filter(|s| s.state != "solved") {
            let look = if s.theme == "dark" { DARK } else { LIGHT };
            let mut pictures = vec![("as captured", s.img.clone())];
            if s.theme == "dark" {
                let q20 = crate::vision::test_pictures::jpeg_copy(&s.img, 20);
                pictures.push(("JPEG q20", q20));
            }
            for (what, img) in &pictures {
                let area = areas(img, |x, y| board_or_grid(img, x, y, &look))
                    .into_iter()
                    .max_by_key(|c| c.count)
                    .unwrap();
                let l = lattice_by_edges(img, &look, &area)
                    .unwrap_or_else(|e| panic!("{} {what}: {e}", s.file));
                assert_eq!(l.size, s.size, "{} {what}", s.file);
                let b = l.geometry.board;
                for (got, want) in [b.x, b.y, b.w, b.h].iter().zip(s.board) {
                    assert!((got - want).abs() <= 4.0, "{} {what}: {b:?}", s.file);
                }
            }
        }
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

    #[test]
    fn turns_count_only_corners_inside_the_path() {
        // An L of three cells turns once, in its middle; an open end never turns.
        let t = path_turns(3, &[[0, 0], [1, 0], [1, 1]], false);
        assert_eq!(t.iter().filter(|&&v| v).count(), 1);
        assert!(t[3]);
        // The 2×2 ring turns in all four cells.
        let ring = [[0, 0], [0, 1], [1, 1], [1, 0]];
        assert_eq!(path_turns(2, &ring, true), vec![true; 4]);
    }
}

/// Builds `calibration/loop/digits.json` from the corpus screenshots, whose numbers are known:
/// run `cargo test --lib build_loop_digit_templates -- --ignored`.
#[cfg(test)]
mod calibrate {
    use super::*;
    use crate::vision::glyph::{self, Template};

    /// The app draws its numbers in the browser's `bold sans-serif`, which is whatever sans face
    /// the system has: the corpus shows one face, Debian's and Ubuntu's default (DejaVu Sans)
    /// draws a 4 with a closed top that the corpus's templates score too low. Its digits are
    /// rendered here from the font file at the app's sizes (0.75 of the 50, 66.7 and 100 px
    /// cells), cut with the reader's own rule (ink where the colour's coverage makes it
    /// saturated enough, about a quarter) and averaged into one more template per digit.
    fn rendered_templates() -> Vec<Template> {
        const FONT: &str = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
        let data = std::fs::read(FONT)
            .unwrap_or_else(|e| panic!("{FONT} (Debian package fonts-dejavu-core): {e}"));
        let font = ab_glyph::FontRef::try_from_slice(&data).expect("a TrueType font");
        let sizes = [37.0f32, 50.0, 75.0];
        (0..=9)
            .map(|d| {
                let glyphs: Vec<Glyph> = sizes
                    .iter()
                    .map(|&px| {
                        let side = (px * 1.5) as u32;
                        let mut img = image::GrayImage::new(side, side);
                        let text = d.to_string();
                        imageproc::drawing::draw_text_mut(
                            &mut img,
                            image::Luma([255]),
                            (px * 0.25) as i32,
                            (px * 0.1) as i32,
                            px,
                            &font,
                            &text,
                        );
                        let ink = Ink {
                            width: side as usize,
                            height: side as usize,
                            on: img.pixels().map(|p| p.0[0] >= 64).collect(),
                        };
                        let parts = ink.split();
                        assert_eq!(parts.len(), 1, "{d} at {px} px is one glyph");
                        ink.normalize(parts[0])
                    })
                    .collect();
                let mut t = Template::from_glyph(
                    &d.to_string(),
                    sizes.len(),
                    &Glyph::mean(&glyphs).unwrap(),
                );
                t.source = Some(
                    "DejaVu Sans Bold (fonts-dejavu-core), rendered at 37, 50 and 75 px".into(),
                );
                t
            })
            .collect()
    }

    /// Writes `calibration/loop/dejavu_digits.json`; the corpus's own digits are learned by
    /// `autoplayer calibrate loop` (see `calibration/make.sh`).
    #[test]
    #[ignore]
    fn build_loop_font_templates() {
        let set = TemplateSet {
            width: glyph::SIZE,
            height: glyph::SIZE,
            templates: rendered_templates(),
        };
        let path = format!(
            "{}/calibration/loop/dejavu_digits.json",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::write(&path, set.to_json()).unwrap();
        eprintln!("{path}: {} templates", set.templates.len());
    }
}
