//! The web Hashi game's board: the grid lines that fix the lattice, and the islands on it
//! with their fills, which tell whether each island's bridges meet its number.

use super::digits::glyphs_in_disc;
use super::sample::{px, region_around, ring_at_least, RING_FILL, RING_SAMPLES};
use super::web_surface::WebSurface;
use super::web_theme::{grid_like, WebTheme};
use super::{Found, Located, Style};
use crate::games::hashi::model::Cell;
use crate::rect::Rect;
use crate::screen::PixelPoint;
use crate::vision::color::{distance, luma, near};
use crate::vision::components::Component;
use crate::vision::geometry::Geometry;
use crate::vision::lattice::{axis_from_lines, cells_while_drawn, drawn_share, Axis, STRIP_INSIDE};
use image::{Rgba, RgbaImage};

/// What the web game says about an island by its fill: whether its bridges equal its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fill {
    Plain,
    Satisfied,
    Over,
}

pub(super) fn locate_web<const SLACK: u8>(img: &RgbaImage) -> Option<Located> {
    let surface = if SLACK == 0 {
        WebSurface::exact(img)?
    } else {
        WebSurface::lossy(img)?
    };
    let (theme, core) = (surface.theme, surface.core);
    if core.count < 400 {
        return None;
    }
    let (cols, rows) = grid_profiles::<SLACK>(img, &theme, &core);
    let (Some(x_lines), Some(y_lines)) = (
        axis_from_lines(&cols, core.x0, rows.len() / 2),
        axis_from_lines(&rows, core.y0, cols.len() / 2),
    ) else {
        return None;
    };
    let pitch = (x_lines.pitch + y_lines.pitch) / 2.0;
    let ((kx, width), (ky, height)) = (
        board_cells::<SLACK>(img, &theme, &x_lines, &y_lines, pitch, false)?,
        board_cells::<SLACK>(img, &theme, &y_lines, &x_lines, pitch, true)?,
    );
    // Lines sit at the left/top edge of each cell.
    let ox = x_lines.start - kx as f64 * pitch + pitch / 2.0 - 0.5;
    let oy = y_lines.start - ky as f64 * pitch + pitch / 2.0 - 0.5;
    if width < 2 || height < 2 {
        return None;
    }
    let surface_like = |p: Rgba<u8>| near(p, theme.surface, 16) || near(p, theme.grid, 16);
    web_board(img, theme, surface_like, (ox, oy), pitch, (width, height))
}

/// Where the board ends along one axis (vertical lines `lines` when `!horizontal`; `others` are
/// the lines the other way): the cells before the first line found and the cells in all. The
/// grid draws its lines from edge to edge, so the board reaches past its outermost lines found
/// for as long as the lines the other way run on, and ends where they stop. The surface's
/// extent cannot tell it: a rescaled copy blurs the page's frame lines, 0.26 of a cell off the
/// board, into surface-and-grid mixes that took in a row beyond it, and a lossy copy's surface
/// can fall apart short of it.
fn board_cells<const SLACK: u8>(
    img: &RgbaImage,
    theme: &WebTheme,
    lines: &Axis,
    others: &Axis,
    pitch: f64,
    horizontal: bool,
) -> Option<(usize, usize)> {
    let across: Vec<f64> = (0..=others.cells)
        .map(|k| others.start + k as f64 * others.pitch)
        .collect();
    let grid = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && (x as u32) < img.width()
            && (y as u32) < img.height()
            && grid_like::<SLACK>(*img.get_pixel(x as u32, y as u32), theme)
    };
    // A line, not an area of grid-like colour: a lossy copy tints the dark theme's page
    // panel into the grid's range over whole areas (a JPEG q90 copy grew a row into it).
    let side = (0.1 * pitch).round().max(3.0) as i64;
    let on = |x: i64, y: i64| {
        grid(x, y)
            && if horizontal {
                !grid(x - side, y) && !grid(x + side, y)
            } else {
                !grid(x, y - side) && !grid(x, y + side)
            }
    };
    let reach = (0.04 * pitch).round().max(1.0) as i64;
    let share = |lo: f64, hi: f64| drawn_share(on, &across, (lo, hi), !horizontal, reach);
    // The cell inside the first line found is the board's, or that line is no grid line.
    let margin = 0.15 * pitch;
    if share(lines.start + margin, lines.start + pitch - margin) < STRIP_INSIDE {
        return None;
    }
    let most = 64;
    let before = cells_while_drawn(lines.start, -pitch, most, share)?;
    let after = cells_while_drawn(lines.end(), pitch, most, share)?;
    Some((before, before + lines.cells + after))
}

/// The islands on a located web lattice (`(ox, oy)`: the centre of cell (0, 0)); `surface_like`
/// tells the board's empty surface and grid lines from an island's disc.
pub(super) fn web_board(
    img: &RgbaImage,
    theme: WebTheme,
    surface_like: impl Fn(Rgba<u8>) -> bool,
    (ox, oy): (f64, f64),
    pitch: f64,
    (width, height): (usize, usize),
) -> Option<Located> {
    let mut islands = Vec::new();
    for row in 0..height {
        for col in 0..width {
            let c = (ox + col as f64 * pitch, oy + row as f64 * pitch);
            // A small island's digit, blurred into the white fill, passes for a grid colour
            // at 0.24 of a cell (an island lost at 0.7×, 20 px cells); nearer its rim the fill
            // is clear of the digit.
            if ![0.24, 0.28]
                .iter()
                .any(|&r| ring_at_least(img, c, r * pitch, RING_FILL, |p| !surface_like(p)))
            {
                continue;
            }
            let fill = web_fill(img, c, pitch, &theme);
            let glyphs = glyphs_in_disc(img, c, 0.235 * pitch, |p| luma(p) < 110);
            // The numbers are dark slate (luma 23) on a disc of luma 218 to 255.
            let faint = glyphs_in_disc(img, c, 0.235 * pitch, |p| luma(p) < 160);
            islands.push(Found {
                at: Cell { row, col },
                glyphs,
                faint,
                region: region_around(c, pitch * 0.4),
                fill,
            });
        }
    }
    if islands.len() < 2 {
        return None;
    }
    let geometry = Geometry::square(
        PixelPoint { x: ox, y: oy },
        pitch,
        Rect::new(
            ox - pitch / 2.0,
            oy - pitch / 2.0,
            width as f64 * pitch,
            height as f64 * pitch,
        ),
    );
    Some(Located {
        style: Style::Web,
        geometry,
        cols: width,
        rows: height,
        islands,
        web: Some(theme),
    })
}

/// How many grid-coloured pixels each column and each row of the box holds, every other
/// pixel along the count (one row-major pass: column-wise walks are cache-hostile).
fn grid_profiles<const SLACK: u8>(
    img: &RgbaImage,
    theme: &WebTheme,
    area: &Component,
) -> (Vec<usize>, Vec<usize>) {
    let x1 = area.x1.min(img.width() as usize - 1);
    let y1 = area.y1.min(img.height() as usize - 1);
    let mut cols = vec![0; x1 + 1 - area.x0];
    let mut rows = vec![0; y1 + 1 - area.y0];
    for y in area.y0..=y1 {
        for x in area.x0..=x1 {
            if grid_like::<SLACK>(*img.get_pixel(x as u32, y as u32), theme) {
                if y % 2 == 0 {
                    cols[x - area.x0] += 1;
                }
                if x % 2 == 0 {
                    rows[y - area.y0] += 1;
                }
            }
        }
    }
    (cols, rows)
}

fn web_fill(img: &RgbaImage, c: (f64, f64), pitch: f64, theme: &WebTheme) -> Fill {
    let mut votes = [0usize; 3];
    for k in 0..RING_SAMPLES {
        let a = k as f64 * std::f64::consts::TAU / RING_SAMPLES as f64;
        let r = 0.25 * pitch;
        let Some(p) = px(img, c.0 + r * a.cos(), c.1 + r * a.sin()) else {
            continue;
        };
        let d = [
            distance(p, theme.island),
            distance(p, theme.satisfied),
            distance(p, theme.over),
        ];
        let (i, &m) = d
            .iter()
            .enumerate()
            .min_by_key(|(_, &v)| v)
            .unwrap_or((0, &255));
        if m < 24 {
            votes[i] += 1;
        }
    }
    match votes
        .iter()
        .enumerate()
        .max_by_key(|(_, &v)| v)
        .map(|(i, _)| i)
    {
        Some(1) => Fill::Satisfied,
        Some(2) => Fill::Over,
        _ => Fill::Plain,
    }
}
