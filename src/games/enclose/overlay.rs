//! `scan --overlay`: what was read, drawn over the capture.

use super::vision::Reading;
use image::{Rgba, RgbaImage};

/// Mark each tile's class for `scan --overlay`: a small filled square at the tile centre in a
/// class colour (portals in their pair's colour), the board outlined.
pub fn draw_overlay(img: &mut RgbaImage, r: &Reading) {
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
