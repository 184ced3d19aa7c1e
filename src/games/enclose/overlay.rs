//! `scan --overlay`: what was read, drawn over the capture.

use super::check::flood;
use super::model::{Level, Solution};
use super::vision::Reading;
use crate::picture::{shade, stroke};
use crate::rect::Rect;
use crate::screen::PixelPoint;
use image::{Rgba, RgbaImage};

/// Mark each tile's class for `scan --overlay`: a small filled square at the tile centre in a
/// class colour (portals in their pair's colour), the board outlined.
pub fn draw(img: &mut RgbaImage, r: &Reading) {
    use imageproc::drawing::{draw_filled_rect_mut, draw_hollow_rect_mut};
    use imageproc::rect::Rect;
    let crate::rect::Rect {
        x: bx,
        y: by,
        w: bw,
        h: bh,
    } = r.geometry.board;
    let outline = Rgba([255, 0, 255, 255]);
    draw_hollow_rect_mut(
        img,
        Rect::at(bx as i32, by as i32).of_size(bw.max(1.0) as u32, bh.max(1.0) as u32),
        outline,
    );
    let side = (r.geometry.pitch() / 3.0).max(3.0) as u32;
    for (row, line) in r.rows.iter().enumerate() {
        for (col, ch) in line.chars().enumerate() {
            let colour = match ch {
                '.' => Rgba([60, 220, 60, 255]),
                '~' => Rgba([40, 80, 255, 255]),
                'H' => Rgba([255, 255, 255, 255]),
                'C' => Rgba([230, 0, 0, 255]),
                'G' => Rgba([255, 200, 0, 255]),
                'S' => Rgba([0, 0, 0, 255]),
                'U' => Rgba([255, 120, 220, 255]),
                'W' => Rgba([128, 128, 128, 255]),
                p => {
                    let v = p.to_digit(36).unwrap_or(0);
                    Rgba([
                        (v * 67 % 256) as u8,
                        (v * 131 % 256) as u8,
                        (v * 199 % 256) as u8,
                        255,
                    ])
                }
            };
            let c = r.geometry.centre(row, col);
            let rect = Rect::at(c.x as i32 - side as i32 / 2, c.y as i32 - side as i32 / 2)
                .of_size(side, side);
            draw_filled_rect_mut(img, rect, colour);
            draw_hollow_rect_mut(img, rect, Rgba([0, 0, 0, 255]));
        }
    }
}

/// The game's wall block: a light stone face over a darker base, outlined.
const STONE: Rgba<u8> = Rgba([196, 196, 196, 255]);
const STONE_BASE: Rgba<u8> = Rgba([120, 120, 120, 255]);
const STONE_EDGE: Rgba<u8> = Rgba([40, 40, 40, 255]);
/// The pen's wheat, laid over the grass it covers.
const PEN: Rgba<u8> = Rgba([240, 196, 60, 255]);
/// A wall the board shows that the answer takes away.
const REMOVE: Rgba<u8> = Rgba([220, 30, 30, 255]);

/// `play --solution`: the answer's walls as the game's stone blocks, the pen they close shaded
/// in the wheat colour (translucent, so what grazes there still shows), any wall on the board
/// the answer does not keep crossed out, and the score the walls make written in the board's
/// top-left corner. `open` is the level with every wall taken away, as the answer was solved.
pub fn draw_solution(img: &mut RgbaImage, r: &Reading, open: &Level, s: &Solution) {
    let g = &r.geometry;
    let mut wall = vec![false; open.tiles.len()];
    for &[row, col] in &s.walls {
        wall[row * open.cols + col] = true;
    }
    let (pen, escaped) = flood(open, &wall, open.horse());
    if !escaped {
        for &i in &pen {
            shade(img, g.cell(i / open.cols, i % open.cols), PEN, 0.45);
        }
    }
    let inset = (g.pitch() / 16.0).max(1.0);
    for &[row, col] in &s.walls {
        let c = g.cell(row, col);
        let face = Rect::new(
            c.x + inset,
            c.y + inset,
            c.w - 2.0 * inset,
            c.h - 2.0 * inset,
        );
        shade(img, face, STONE_EDGE, 1.0);
        let (x, y, w, h) = (face.x + 1.0, face.y + 1.0, face.w - 2.0, face.h - 2.0);
        shade(img, Rect::new(x, y, w, h * 0.65), STONE, 1.0);
        shade(
            img,
            Rect::new(x, y + h * 0.65, w, h * 0.35),
            STONE_BASE,
            1.0,
        );
    }
    let keep: std::collections::BTreeSet<[usize; 2]> = s.walls.iter().copied().collect();
    for [row, col] in super::play::placed_walls(r).difference(&keep) {
        let c = g.cell(*row, *col);
        let (a, b) = (c.w * 0.25, c.w * 0.75);
        let at = |dx: f64, dy: f64| PixelPoint {
            x: c.x + dx,
            y: c.y + dy,
        };
        let w = (g.pitch() / 8.0).max(1.5);
        stroke(img, at(a, a), at(b, b), w, REMOVE);
        stroke(img, at(b, a), at(a, b), w, REMOVE);
    }
    let size = ((g.pitch() / 9.0).round() as i64).max(1);
    let corner = g.cell(0, 0);
    crate::overlay::draw_number(
        img,
        s.score.max(0) as usize,
        corner.x as i64 + size,
        corner.y as i64 + size,
        size,
    );
}
