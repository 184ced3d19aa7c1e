//! Drawing what was read over the capture, for `scan --overlay`: the board outline, a circle
//! and the read number at each island, and each bridge as one coloured line per bridge, so a
//! misreading shows at a glance.

use super::model::{Bridge, Puzzle};
use super::solve::Found;
use super::vision::{Reading, Style};
use crate::overlay::draw_number;
use crate::picture::{median_luminance, paint_over, stroke};
use crate::screen::PixelPoint;
use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_hollow_circle_mut, draw_hollow_rect_mut, draw_line_segment_mut};
use imageproc::rect::Rect;

const BOARD: Rgba<u8> = Rgba([255, 140, 0, 255]);
const ISLAND: Rgba<u8> = Rgba([0, 170, 255, 255]);
/// Single, double, triple… bridges in distinct colours.
const BRIDGE: [Rgba<u8>; 3] = [
    Rgba([0, 200, 80, 255]),
    Rgba([230, 40, 160, 255]),
    Rgba([240, 200, 0, 255]),
];

pub fn draw(img: &mut RgbaImage, reading: &Reading) {
    let g = &reading.geometry;
    let crate::rect::Rect {
        x: bx,
        y: by,
        w: bw,
        h: bh,
    } = g.board;
    if bw >= 1.0 && bh >= 1.0 {
        let rect = Rect::at(bx.round() as i32, by.round() as i32).of_size(bw as u32, bh as u32);
        draw_hollow_rect_mut(img, rect, BOARD);
    }
    let r = (g.pitch() * 0.45).max(3.0) as i32;
    let label = ((g.pitch() / 24.0).round() as i64).max(1);
    for island in &reading.puzzle.islands {
        let c = g.centre(island.at.row, island.at.col);
        let (x, y) = (c.x.round() as i32, c.y.round() as i32);
        for k in 0..2 {
            draw_hollow_circle_mut(img, (x, y), r + k, ISLAND);
        }
        draw_number(
            img,
            island.target as usize,
            x as i64 + r as i64 / 2,
            y as i64 + r as i64 / 2,
            label,
        );
    }
    let gap = (g.pitch() / 8.0).max(2.0) as f32;
    // Thick enough to see over the app's own lines, thin enough to keep doubles apart.
    let thick = ((g.pitch() / 24.0).round() as i32).clamp(1, 4);
    for b in &reading.bridges {
        let (p, q) = (g.centre(b.a.row, b.a.col), g.centre(b.b.row, b.b.col));
        let colour = BRIDGE[(b.count as usize).saturating_sub(1).min(BRIDGE.len() - 1)];
        for k in 0..b.count {
            // Lines side by side across the bridge, centred on it.
            let centre = (k as f32 - (b.count as f32 - 1.0) / 2.0) * gap;
            for t in 0..thick {
                let off = centre + (t - thick / 2) as f32;
                let (dx, dy) = if b.is_horizontal() {
                    (0.0, off)
                } else {
                    (off, 0.0)
                };
                draw_line_segment_mut(
                    img,
                    (p.x as f32 + dx, p.y as f32 + dy),
                    (q.x as f32 + dx, q.y as f32 + dy),
                    colour,
                );
            }
        }
    }
}

/// `play --solution`: every bridge of the answer, single or double (two parallel strokes), from
/// island to island, in the ink the app draws bridges with for that background (black on a
/// light board, near-white on a dark one), stopping at each island's rim so no number is
/// covered. A bridge the capture already shows as the answer has it is left as the app drew
/// it; one it shows otherwise is painted over with the board's background first, so the
/// picture shows the answer alone.
pub fn draw_solution(img: &mut RgbaImage, reading: &Reading, p: &Puzzle, s: &Found) {
    let g = &reading.geometry;
    let pitch = g.pitch();
    // The island's outer rim: Bridges draws islands nearly a cell wide, the web game smaller.
    let rim = match reading.style {
        Style::Sgt => 0.5,
        Style::Web => 0.38,
    } * pitch;
    let island = |row, col| p.island_at(super::model::Cell { row, col }).is_some();
    let empty = (0..p.rows)
        .flat_map(|r| (0..p.cols).map(move |c| (r, c)))
        .filter(|&(r, c)| !island(r, c))
        .map(|(r, c)| g.centre(r, c));
    let ink = if median_luminance(img, empty) >= 110.0 {
        Rgba([20, 20, 20, 255])
    } else {
        Rgba([240, 240, 240, 255])
    };
    let width = (pitch / 10.0).max(1.5);
    let gap = (pitch / 4.0).max(2.2 * width);
    let count = |bridges: &[Bridge], b: &Bridge| {
        bridges
            .iter()
            .find(|x| x.a == b.a && x.b == b.b)
            .map_or(0, |x| x.count)
    };
    for shown in &reading.bridges {
        if count(&s.bridges, shown) != shown.count {
            let (pa, pb) = (
                g.centre(shown.a.row, shown.a.col),
                g.centre(shown.b.row, shown.b.col),
            );
            erase(img, pa, pb, rim - 1.0, pitch * 0.3, pitch);
        }
    }
    for b in &s.bridges {
        if count(&reading.bridges, b) == b.count {
            continue;
        }
        let (pa, pb) = (g.centre(b.a.row, b.a.col), g.centre(b.b.row, b.b.col));
        let Some((ux, uy, _)) = direction(pa, pb, rim) else {
            continue;
        };
        for k in 0..b.count {
            // Strokes side by side across the bridge, centred on the line between centres.
            let off = (k as f64 - (b.count as f64 - 1.0) / 2.0) * gap;
            let at = |c: PixelPoint, along: f64| PixelPoint {
                x: c.x + ux * along - uy * off,
                y: c.y + uy * along + ux * off,
            };
            // Round caps reach half a width past each end: stop that much short of the rim.
            let inset = rim + width / 2.0;
            stroke(img, at(pa, inset), at(pb, -inset), width, ink);
        }
    }
}

/// The unit vector from `a` to `b` and their distance, when they are farther apart than two
/// rims.
fn direction(a: PixelPoint, b: PixelPoint, rim: f64) -> Option<(f64, f64, f64)> {
    let len = ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt();
    (len > 2.0 * rim).then(|| ((b.x - a.x) / len, (b.y - a.y) / len, len))
}

/// Paints over the bridge between two islands' rims, `across` wide, with the board as it looks
/// one cell to either side: the lattice repeats every `pitch`, so a grid line under the bridge
/// comes back with it.
fn erase(img: &mut RgbaImage, a: PixelPoint, b: PixelPoint, rim: f64, across: f64, pitch: f64) {
    let Some((ux, uy, _)) = direction(a, b, rim) else {
        return;
    };
    let from = PixelPoint {
        x: a.x + ux * rim,
        y: a.y + uy * rim,
    };
    let to = PixelPoint {
        x: b.x - ux * rim,
        y: b.y - uy * rim,
    };
    paint_over(img, (from, to), across, pitch, |_| true);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hashi::model::{small_board, Bridge, Cell};
    use crate::games::hashi::vision::Style;
    use crate::screen::PixelPoint;
    use crate::vision::geometry::Geometry;

    #[test]
    fn marks_islands_and_one_line_per_bridge() {
        let cell = |row, col| Cell { row, col };
        let reading = Reading {
            puzzle: small_board(&[(0, 0, 3), (0, 2, 2), (2, 0, 1)]),
            bridges: vec![
                Bridge::new(cell(0, 0), cell(0, 2), 2),
                Bridge::new(cell(0, 0), cell(2, 0), 1),
            ],
            geometry: Geometry::square(
                PixelPoint { x: 20.0, y: 20.0 },
                40.0,
                crate::rect::Rect::new(0.0, 0.0, 120.0, 120.0),
            ),
            style: Style::Sgt,
            confidence: 1.0,
        };
        let mut img = RgbaImage::from_pixel(120, 120, Rgba([255, 255, 255, 255]));
        draw(&mut img, &reading);
        // Double bridge: two lines either side of the row through the island centres.
        let gap = 40.0f32 / 8.0;
        assert_eq!(*img.get_pixel(60, (20.0 - gap / 2.0) as u32), BRIDGE[1]);
        assert_eq!(*img.get_pixel(60, (20.0 + gap / 2.0) as u32), BRIDGE[1]);
        // Single bridge on the column through the centres.
        assert_eq!(*img.get_pixel(20, 60), BRIDGE[0]);
        // Island outline at its radius; nothing where there is no island.
        assert_eq!(*img.get_pixel(20 + 18, 100), ISLAND);
        assert_eq!(*img.get_pixel(100 + 18, 100), Rgba([255, 255, 255, 255]));
        assert_eq!(*img.get_pixel(0, 60), BOARD);
    }

    #[test]
    fn the_answer_is_drawn_between_rims_and_a_wrong_bridge_is_painted_over() {
        let cell = |row, col| Cell { row, col };
        let puzzle = small_board(&[(0, 0, 3), (0, 2, 2), (2, 0, 1)]);
        let g = Geometry::square(
            PixelPoint { x: 20.0, y: 20.0 },
            40.0,
            crate::rect::Rect::new(0.0, 0.0, 120.0, 120.0),
        );
        // The capture shows a wrong single bridge down the left column.
        let white = Rgba([255, 255, 255, 255]);
        let mut img = RgbaImage::from_pixel(120, 120, white);
        for y in 40..80 {
            for x in 19..22 {
                img.put_pixel(x, y, Rgba([0, 0, 0, 255]));
            }
        }
        let reading = Reading {
            puzzle: puzzle.clone(),
            bridges: vec![Bridge::new(cell(0, 0), cell(2, 0), 2)],
            geometry: g,
            style: Style::Sgt,
            confidence: 1.0,
        };
        let answer = Found {
            bridges: vec![
                Bridge::new(cell(0, 0), cell(0, 2), 2),
                Bridge::new(cell(0, 0), cell(2, 0), 1),
            ],
            unique: true,
        };
        draw_solution(&mut img, &reading, &puzzle, &answer);
        let ink = Rgba([20, 20, 20, 255]);
        // The double: two strokes either side of the row through the centres, gap apart.
        assert_eq!(*img.get_pixel(60, 15), ink);
        assert_eq!(*img.get_pixel(60, 25), ink);
        assert_eq!(*img.get_pixel(60, 20), white);
        // The single down the column is the answer's, the shown double painted over.
        assert_eq!(*img.get_pixel(20, 60), ink);
        assert_eq!(*img.get_pixel(17, 60), white);
        // Nothing over the islands' numbers.
        assert_eq!(*img.get_pixel(20, 20), white);
        assert_eq!(*img.get_pixel(100, 20), white);
    }
}
