//! The web board in a heavily compressed copy (JPEG quality 20), found on brightness alone.
//!
//! Such a copy keeps brightness but not colour: the codec rounds each 16×16 block's tint to a
//! coarse step, so the light surface (#e5e7eb) comes back grey (#e9e9e9) and the dark one loses
//! a third of its blue, past what the colour tests of the other readers allow. The 1-px grid
//! lines survive as a ridge about half their contrast, with a fainter echo a few pixels to
//! each side. So here the grid is the largest web of thin ridges (darker than their sides on
//! the light theme, brighter on the dark one), its lines give the lattice, and where they stop
//! (the grid draws them from edge to edge) gives the board's size. Nothing here trusts the
//! panel around the board, whose dark colour is a level and a half of brightness off the
//! surface's.

use super::sample::{px, ring_directions, RING_SAMPLES};
use super::web::web_board;
use super::web_theme::{WebTheme, WEB_DARK, WEB_LIGHT};
use super::Located;
use crate::vision::color::{brightness, near};
use crate::vision::components::{webs_of, Component};
use crate::vision::lattice::{axis_from_sparse_lines, Axis};
use crate::vision::lines::LineMasks;
use image::{Rgba, RgbaImage};

/// How far a ridge's sides are looked for: the line is one pixel, smeared to two.
const REACH: usize = 3;
/// The smallest web taken for a grid, in pixels each way.
const MIN_SIDE: usize = 60;
/// How far in from the web's box the lines are counted.
const EDGE_MARGIN: usize = 10;
/// How far from a whole number of cells the board, as the lines' ends place it, may span: the
/// copy blurs where lines end by a few pixels.
const SPAN_SLACK: f64 = 0.25;
/// Of the lines meeting a side, the share of pixels that must be ridge just inside the side
/// (the outer row or column is there) and may be just outside it (the lines stop there).
const INSIDE_SHARE: f64 = 0.2;
const OUTSIDE_SHARE: f64 = 0.1;
/// The longest break in a line that is still the same line, in cells: a double bridge across
/// it with its ringing.
const BRIDGE_GAP: f64 = 0.3;
/// How far each island's disc centre, as its rim places it, may be from its lattice point.
const CENTRE_SLACK: f64 = 0.12;
/// How far off a theme fill an island's ring sample may be (the exact reader's 24, and the
/// codec's tint step).
const FILL_SLACK: u8 = 30;
/// Where an island's fill is sampled, in cells from its centre.
const FILL_RADII: [f64; 2] = [0.25, 0.18];

/// The board on a lossy copy, or `None` (also when any check fails: a refusal, not a guess).
pub(super) fn locate(img: &RgbaImage) -> Option<Located> {
    let lum: Vec<i16> = img.pixels().map(|&p| brightness(p)).collect();
    [WEB_LIGHT, WEB_DARK]
        .into_iter()
        .find_map(|theme| on_theme(img, &lum, theme))
}

/// Thin ridges of a theme's grid polarity, across x (vertical lines) and across y.
fn grid_ridges(lum: &[i16], width: usize, theme: &WebTheme) -> LineMasks {
    let (s, g) = (bright(theme.surface), bright(theme.grid));
    // Lines darker than the surface are ridges of the inverted picture.
    let ink: Vec<i16> = if g < s {
        lum.iter().map(|&v| 255 - v).collect()
    } else {
        lum.to_vec()
    };
    // A third of the line's contrast: the copy keeps about half of it.
    let contrast = ((g - s).abs() / 3).max(4);
    let mut ridges = LineMasks::find(&ink, width, REACH, contrast);
    // Bridges, island rims and digits make thin ridges too, but stand far further off the
    // surface than a grid line ever does; a long bridge would pass for a line between two.
    let cap = 2 * (g - s).abs() + 8;
    let surface = if g < s { 255 - s } else { s };
    ridges.retain(|i| ink[i] - surface <= cap);
    ridges
}

fn bright(c: [u8; 3]) -> i16 {
    brightness(Rgba([c[0], c[1], c[2], 255]))
}

fn on_theme(img: &RgbaImage, lum: &[i16], theme: WebTheme) -> Option<Located> {
    let width = img.width() as usize;
    let ridges = grid_ridges(lum, width, &theme);
    let web = webs_of(&ridges.vertical, &ridges.horizontal, width)
        .into_iter()
        .max_by_key(|c| c.count)?;
    if web.x1 - web.x0 < MIN_SIDE || web.y1 - web.y0 < MIN_SIDE {
        return None;
    }
    let (inner, cols, rows) = profiles(&ridges, &web);
    // Either axis can keep too few lines to show the pitch by itself; the other's then seeds it.
    let along = |hint| {
        (
            axis_from_sparse_lines(&cols, inner.x0, rows.len(), hint),
            axis_from_sparse_lines(&rows, inner.y0, cols.len(), hint),
        )
    };
    let (x, y) = match along(None) {
        (Some(x), Some(y)) => (x, y),
        (Some(x), None) => (x, along(Some(x.pitch)).1?),
        (None, Some(y)) => (along(Some(y.pitch)).0?, y),
        (None, None) => return None,
    };
    // A third of the pitch can take in as many runs as the pitch (stray runs fill the lines
    // between); cells are square, so the narrower axis is tried again at the wider's pitch.
    let (x, y) = if x.pitch > 1.5 * y.pitch {
        (x, along(Some(x.pitch)).1?)
    } else if y.pitch > 1.5 * x.pitch {
        (along(Some(y.pitch)).0?, y)
    } else {
        (x, y)
    };
    // Cells are square.
    if (x.pitch - y.pitch).abs() > 0.03 * x.pitch.max(y.pitch) {
        return None;
    }
    let pitch = (x.pitch + y.pitch) / 2.0;
    // Where the lines stop is the board's edge. The web's box need not be: a bridge along an
    // outer row cuts the ends of the lines crossing it off the web.
    let xs = x.lines();
    let ys = y.lines();
    let gap = (BRIDGE_GAP * pitch) as i64;
    let board = Component {
        count: 0,
        x0: line_end(&ridges, false, &ys, x.start, -1, gap)?,
        x1: line_end(&ridges, false, &ys, x.end(), 1, gap)?,
        y0: line_end(&ridges, true, &xs, y.start, -1, gap)?,
        y1: line_end(&ridges, true, &xs, y.end(), 1, gap)?,
    };
    let (kx, width_cells) = cells_along(&x, board.x0, board.x1, pitch)?;
    let (ky, height_cells) = cells_along(&y, board.y0, board.y1, pitch)?;
    if width_cells < 2 || height_cells < 2 {
        return None;
    }
    // Lines sit at the left/top edge of each cell, as in the exact reader.
    let ox = x.start - kx * pitch + pitch / 2.0 - 0.5;
    let oy = y.start - ky * pitch + pitch / 2.0 - 0.5;
    let lines_x: Vec<f64> = (1..width_cells)
        .map(|k| ox - pitch / 2.0 + 0.5 + k as f64 * pitch)
        .collect();
    let lines_y: Vec<f64> = (1..height_cells)
        .map(|k| oy - pitch / 2.0 + 0.5 + k as f64 * pitch)
        .collect();
    if !edges_hold(&ridges, &board, &lines_x, &lines_y, pitch) {
        return None;
    }
    let surface = surface_colour(img, (ox, oy), pitch, (width_cells, height_cells))?;
    // The copy's surface must still be this theme's, give or take the codec's tint step: a
    // recoloured picture is not read here.
    if !near(
        Rgba([surface[0], surface[1], surface[2], 255]),
        theme.surface,
        12,
    ) {
        return None;
    }
    let surface_like = |p: Rgba<u8>| near(p, surface, 16) || near(p, theme.grid, 20);
    let located = web_board(
        img,
        theme,
        surface_like,
        (ox, oy),
        pitch,
        (width_cells, height_cells),
    )?;
    let centred = located.islands.iter().all(|f| {
        let c = located.geometry.centre(f.at.row, f.at.col);
        let on_lattice =
            disc_centre(img, (c.x, c.y), pitch, surface_like).is_some_and(|(dx, dy)| {
                (dx - c.x).abs() <= CENTRE_SLACK * pitch && (dy - c.y).abs() <= CENTRE_SLACK * pitch
            });
        on_lattice && fill_in_theme(img, (c.x, c.y), pitch, &theme)
    });
    centred.then_some(located)
}

/// How far the lines at `across` (vertical lines when `vertical`, at those x) run on from
/// `from` in direction `step`, over breaks of up to `gap` pixels (a bridge crossing): the
/// median of where each that runs on at all stops; none when fewer than a third run on.
fn line_end(
    ridges: &LineMasks,
    vertical: bool,
    across: &[f64],
    from: f64,
    step: i64,
    gap: i64,
) -> Option<usize> {
    let at = |a: i64, t: i64| {
        (-1..=1).any(|d| {
            if vertical {
                ridges.at(true, a + d, t)
            } else {
                ridges.at(false, t, a + d)
            }
        })
    };
    let len = if vertical {
        ridges.height() as i64
    } else {
        ridges.width as i64
    };
    let origin = from.round() as i64;
    let mut ends: Vec<i64> = across
        .iter()
        .map(|&a| {
            let a = a.round() as i64;
            let mut t = from.round() as i64;
            let mut last = t;
            while t >= 0 && t < len && (t - last).abs() <= gap {
                if at(a, t) {
                    last = t;
                }
                t += step;
            }
            last
        })
        // A line the copy lost (too faint to count) shows nothing to follow.
        .filter(|&end| end != origin)
        .collect();
    if ends.len() * 3 < across.len() {
        return None;
    }
    ends.sort_unstable();
    usize::try_from(ends[ends.len() / 2]).ok()
}

/// Per column, the vertical ridge pixels inside the web's box; per row, the horizontal ones.
/// The box's own edges are left out: the board's outline (dark theme) and the codec's ringing
/// along it draw ridges there that are no grid line.
fn profiles(ridges: &LineMasks, web: &Component) -> (Component, Vec<usize>, Vec<usize>) {
    let inner = Component {
        count: 0,
        x0: web.x0 + EDGE_MARGIN,
        y0: web.y0 + EDGE_MARGIN,
        x1: web.x1 - EDGE_MARGIN,
        y1: web.y1 - EDGE_MARGIN,
    };
    let mut cols = vec![0; inner.x1 + 1 - inner.x0];
    let mut rows = vec![0; inner.y1 + 1 - inner.y0];
    for y in inner.y0..=inner.y1 {
        for x in inner.x0..=inner.x1 {
            let i = y * ridges.width + x;
            if ridges.vertical[i] {
                cols[x - inner.x0] += 1;
            }
            if ridges.horizontal[i] {
                rows[y - inner.y0] += 1;
            }
        }
    }
    (inner, cols, rows)
}

/// How many cells lie before the axis's first line and how many the box spans, when the box
/// spans a whole number of them and the lines sit on whole cells from its edge.
fn cells_along(axis: &Axis, lo: usize, hi: usize, pitch: f64) -> Option<(f64, usize)> {
    let whole = |v: f64| (v - v.round()).abs() <= SPAN_SLACK;
    let span = (hi + 1 - lo) as f64 / pitch;
    let before = (axis.start - lo as f64) / pitch;
    (whole(span) && whole(before)).then(|| (before.round(), span.round() as usize))
}

/// Whether the lines meeting each side of the box run up to it and stop there. A copy can
/// break off the ends of the lines in an outer row; the box then ends on a grid line a cell
/// short, and spans whole cells all the same. Past a real edge no line runs on.
fn edges_hold(
    ridges: &LineMasks,
    web: &Component,
    lines_x: &[f64],
    lines_y: &[f64],
    pitch: f64,
) -> bool {
    let near_strip = |from: f64, to: f64| {
        let (a, b) = (from.min(to).round() as i64, from.max(to).round() as i64);
        a..=b
    };
    let (x0, x1, y0, y1) = (web.x0 as f64, web.x1 as f64, web.y0 as f64, web.y1 as f64);
    let depth = 0.4 * pitch;
    // Share of (line, position) pairs whose pixel, or one beside it across the line, is ridge.
    let share_h = |xs: std::ops::RangeInclusive<i64>| {
        let (mut on, mut all) = (0, 0);
        for &ly in lines_y {
            let ly = ly.round() as i64;
            for x in xs.clone() {
                all += 1;
                on += (-1..=1).any(|d| ridges.at(false, x, ly + d)) as usize;
            }
        }
        on as f64 / all.max(1) as f64
    };
    let share_v = |ys: std::ops::RangeInclusive<i64>| {
        let (mut on, mut all) = (0, 0);
        for &lx in lines_x {
            let lx = lx.round() as i64;
            for y in ys.clone() {
                all += 1;
                on += (-1..=1).any(|d| ridges.at(true, lx + d, y)) as usize;
            }
        }
        on as f64 / all.max(1) as f64
    };
    let inside = [
        share_h(near_strip(x0 + 2.0, x0 + depth)),
        share_h(near_strip(x1 - depth, x1 - 2.0)),
        share_v(near_strip(y0 + 2.0, y0 + depth)),
        share_v(near_strip(y1 - depth, y1 - 2.0)),
    ];
    let outside = [
        share_h(near_strip(x0 - depth, x0 - 6.0)),
        share_h(near_strip(x1 + 6.0, x1 + depth)),
        share_v(near_strip(y0 - depth, y0 - 6.0)),
        share_v(near_strip(y1 + 6.0, y1 + depth)),
    ];
    inside.iter().all(|&s| s >= INSIDE_SHARE) && outside.iter().all(|&s| s <= OUTSIDE_SHARE)
}

/// Whether an island's fill is one of the theme's fills. Bridges are told by colour
/// and a hovered one's count by the fills: a copy whose colours moved (a hue turn) keeps the
/// dark surface close enough to pass, but not the tinted fills, and is refused here.
fn fill_in_theme(img: &RgbaImage, (cx, cy): (f64, f64), pitch: f64, theme: &WebTheme) -> bool {
    let fills = [theme.island, theme.satisfied, theme.over];
    // On a small island the codec smears the rim over the outer ring; the inner one passes
    // beside the digit.
    FILL_RADII.iter().any(|&r| {
        let r = r * pitch;
        let alike = ring_directions()
            .iter()
            .filter(|&&(dx, dy)| {
                px(img, cx + r * dx, cy + r * dy)
                    .is_some_and(|p| fills.iter().any(|&f| near(p, f, FILL_SLACK)))
            })
            .count();
        // A quarter: the ring can cross the digit. A turned fill keeps none.
        alike * 4 >= RING_SAMPLES
    })
}

/// The board's surface colour in this picture: per channel, the median of samples in each
/// cell's corner, past any island (a disc reaches 0.3 of a cell from its centre) and clear of
/// the grid lines and of bridges (along the centre lines).
fn surface_colour(
    img: &RgbaImage,
    (ox, oy): (f64, f64),
    pitch: f64,
    (w, h): (usize, usize),
) -> Option<[u8; 3]> {
    let mut samples: [Vec<u8>; 3] = Default::default();
    for row in 0..h {
        for col in 0..w {
            let (x, y) = (
                (ox + col as f64 * pitch + 0.33 * pitch).round(),
                (oy + row as f64 * pitch - 0.33 * pitch).round(),
            );
            if x < 0.0 || y < 0.0 || x >= img.width() as f64 || y >= img.height() as f64 {
                continue;
            }
            let p = img.get_pixel(x as u32, y as u32);
            for (s, &v) in samples.iter_mut().zip(&p.0[..3]) {
                s.push(v);
            }
        }
    }
    if samples[0].is_empty() {
        return None;
    }
    Some(samples.map(|mut s| {
        s.sort_unstable();
        s[s.len() / 2]
    }))
}

/// Where a disc's centre is by its rim: walked in from 0.55 of a cell along each diagonal (no
/// bridge runs there, and digits inside the disc can look like the surface) to the first two
/// pixels in a row that are not surface; the mean of the four rim points.
fn disc_centre(
    img: &RgbaImage,
    (cx, cy): (f64, f64),
    pitch: f64,
    surface_like: impl Fn(Rgba<u8>) -> bool,
) -> Option<(f64, f64)> {
    let diagonals = ring_directions()
        .iter()
        .skip(RING_SAMPLES / 8)
        .step_by(RING_SAMPLES / 4);
    let (mut sx, mut sy, mut n) = (0.0, 0.0, 0.0);
    for &(dx, dy) in diagonals {
        let mut r = 0.55 * pitch;
        let mut run = 0;
        let on_disc = |r: f64| px(img, cx + r * dx, cy + r * dy).is_some_and(|p| !surface_like(p));
        while r > 0.1 * pitch {
            if on_disc(r) {
                run += 1;
                if run == 2 {
                    break;
                }
            } else {
                run = 0;
            }
            r -= 1.0;
        }
        if run < 2 {
            return None;
        }
        // The rim's outer edge is the first of the two.
        let r = r + 1.0;
        sx += cx + r * dx;
        sy += cy + r * dy;
        n += 1.0;
    }
    Some((sx / n, sy / n))
}

#[cfg(test)]
mod tests {
    use super::super::web::locate_web;
    use super::*;
    use crate::vision::test_pictures::jpeg_copy;

    fn page(name: &str) -> Option<RgbaImage> {
        let p = crate::corpus::path(&format!("hashi/app-screens/{name}"))?;
        Some(image::open(p).unwrap().to_rgba8())
    }

    /// At JPEG quality 20 the light surface comes back grey and no colour test finds the board;
    /// on brightness alone every web page of the corpus is found, with the lattice where the
    /// PNG's is, and reads as the PNG does.
    #[test]
    fn every_web_page_at_jpeg_quality_20_reads_as_the_png_does() {
        let pages: Vec<_> = crate::corpus::pictures("hashi/app-screens")
            .into_iter()
            .filter(|(p, _)| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("hashi_"))
            })
            .collect();
        if pages.is_empty() {
            return;
        }
        assert_eq!(pages.len(), 8);
        for (path, img) in &pages {
            let name = path.display();
            let copy = jpeg_copy(img, 20);
            assert!(locate_web::<0>(&copy).is_none(), "{name}");
            let png = super::super::recognize(img).unwrap();
            let located = locate(&copy).unwrap_or_else(|| panic!("{name}: not found"));
            let (a, b) = (png.geometry, located.geometry);
            let cells = png.puzzle.cols.max(png.puzzle.rows) as f64;
            let origin_off = (a.origin.x - b.origin.x)
                .abs()
                .max((a.origin.y - b.origin.y).abs());
            // A smeared line's run can take in part of its echo: up to 1.1 px off (M0140).
            assert!(origin_off <= 1.5, "{name}: {a:?} {b:?}");
            // M0001's board is 708 px for 12 cells, 59 each: the copy's lattice has that, the
            // PNG's grid-line fit 58.83 (2.4 px short across 14 cells, still on every island).
            assert!(
                (a.pitch() - b.pitch()).abs() * cells <= 3.0,
                "{name}: {a:?} {b:?}"
            );
            let r = super::super::recognize(&copy).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(r.puzzle, png.puzzle, "{name}");
            assert_eq!(r.bridges, png.bridges, "{name}");
        }
    }

    /// A box one cell short (the ends of an outer row's lines broken off) still spans whole
    /// cells; the lines running on past its side give it away.
    #[test]
    fn lines_running_on_past_the_box_are_refused() {
        let Some(img) = page("hashi_E0001_light_1280x900_fresh.png") else {
            return;
        };
        let copy = jpeg_copy(&img, 20);
        let lum: Vec<i16> = copy.pixels().map(|&p| brightness(p)).collect();
        let ridges = grid_ridges(&lum, copy.width() as usize, &WEB_LIGHT);
        let located = locate(&copy).unwrap();
        let (g, pitch) = (located.geometry, located.geometry.pitch());
        let line = |o: f64, k: usize| o - pitch / 2.0 + 0.5 + k as f64 * pitch;
        let lines_x: Vec<f64> = (1..10).map(|k| line(g.origin.x, k)).collect();
        let lines_y: Vec<f64> = (1..10).map(|k| line(g.origin.y, k)).collect();
        let board = Component {
            count: 0,
            x0: g.board.x.round() as usize,
            y0: g.board.y.round() as usize,
            x1: (g.board.x + g.board.w).round() as usize - 1,
            y1: (g.board.y + g.board.h).round() as usize - 1,
        };
        assert!(edges_hold(&ridges, &board, &lines_x, &lines_y, pitch));
        let short = Component {
            x1: board.x1 - pitch as usize,
            ..board
        };
        assert!(!edges_hold(&ridges, &short, &lines_x[..8], &lines_y, pitch));
    }

    /// A hue turn keeps the dark surface close to its colour, but not the islands' tinted
    /// fills: islands whose fill is no theme's make the copy a refusal here (its bridges and
    /// their counts are told by colour).
    #[test]
    fn islands_in_a_fill_no_theme_has_are_refused() {
        let Some(img) = page("hashi_E0042_dark_1920x1080_partial.png") else {
            return;
        };
        let copy = jpeg_copy(&img, 20);
        let located = locate(&copy).unwrap();
        let (g, pitch) = (located.geometry, located.geometry.pitch());
        let fills = [WEB_DARK.island, WEB_DARK.satisfied, WEB_DARK.over];
        let mut recoloured = copy.clone();
        for p in recoloured.pixels_mut() {
            if fills.iter().any(|&f| near(*p, f, FILL_SLACK)) {
                *p = Rgba([200, 120, 60, 255]);
            }
        }
        for f in &located.islands {
            let c = g.centre(f.at.row, f.at.col);
            assert!(
                fill_in_theme(&copy, (c.x, c.y), pitch, &WEB_DARK),
                "{:?}",
                f.at
            );
            assert!(!fill_in_theme(&recoloured, (c.x, c.y), pitch, &WEB_DARK));
        }
        assert!(locate(&recoloured).is_none());
    }
}
