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
use crate::vision::lattice::axis_from_lines;
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
    let (xl, yl) = (x_lines.start, y_lines.start);
    // Lines sit at the left/top edge of each cell; the outer edge has none.
    let pitch = (x_lines.pitch + y_lines.pitch) / 2.0;
    let area = surface.grown(img, pitch);
    let (span_x, span_y) = (
        (area.x1 + 1 - area.x0) as f64 / pitch,
        (area.y1 + 1 - area.y0) as f64 / pitch,
    );
    // Exact captures span whole cells give or take a third (the panel's rounded corners); a
    // rescaled copy blurs where the surface ends, and a span near a half cell could be either
    // size. A lossy copy's surface, found on block means, ends on a block, not a pixel.
    let whole = |span: f64| !(0.45..0.85).contains(&(span - span.floor()));
    if SLACK == 0 && (!whole(span_x) || !whole(span_y)) {
        return None;
    }
    let width = span_x.round() as usize;
    let height = span_y.round() as usize;
    let kx = ((xl - area.x0 as f64) / pitch).round();
    let ky = ((yl - area.y0 as f64) / pitch).round();
    let ox = xl - kx * pitch + pitch / 2.0 - 0.5;
    let oy = yl - ky * pitch + pitch / 2.0 - 0.5;
    if width < 2 || height < 2 {
        return None;
    }
    let surface_like = |p: Rgba<u8>| near(p, theme.surface, 16) || near(p, theme.grid, 16);
    web_board(img, theme, surface_like, (ox, oy), pitch, (width, height))
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
            if !ring_at_least(img, c, 0.24 * pitch, RING_FILL, |p| !surface_like(p)) {
                continue;
            }
            let fill = web_fill(img, c, pitch, &theme);
            let glyphs = glyphs_in_disc(img, c, 0.235 * pitch, |p| luma(p) < 110);
            islands.push(Found {
                at: Cell { row, col },
                glyphs,
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
        width,
        height,
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
