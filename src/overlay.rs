//! Drawing a plan over the capture it was made from: each gesture numbered in order, so a
//! dry run can be checked by eye before the mouse is trusted with it.

use crate::plan::{Action, Plan};
use crate::screen::{Screen, ScreenPoint};
use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_hollow_circle_mut, draw_line_segment_mut};

const DRAG: Rgba<u8> = Rgba([230, 40, 160, 255]);
const CLICK: Rgba<u8> = Rgba([20, 120, 240, 255]);
const LABEL_BG: Rgba<u8> = Rgba([255, 255, 255, 255]);
const LABEL_FG: Rgba<u8> = Rgba([0, 0, 0, 255]);

/// 3×5 digit shapes, one row per 3 bits; enough to number gestures without shipping a font.
const DIGITS: [[u8; 5]; 10] = [
    [7, 5, 5, 5, 7],
    [2, 6, 2, 2, 7],
    [7, 1, 7, 4, 7],
    [7, 1, 7, 1, 7],
    [5, 5, 7, 1, 1],
    [7, 4, 7, 1, 7],
    [7, 4, 7, 5, 7],
    [7, 1, 2, 2, 2],
    [7, 5, 7, 5, 7],
    [7, 5, 7, 1, 7],
];

fn to_pixel(screen: &Screen, p: ScreenPoint) -> (f32, f32) {
    (
        ((p.x - screen.origin.x) as f64 * screen.scale) as f32,
        ((p.y - screen.origin.y) as f64 * screen.scale) as f32,
    )
}

/// Draws `n` with its top-left at (x, y), each font pixel `size` image pixels wide, on a
/// white box so it reads on any background.
pub fn draw_number(img: &mut RgbaImage, n: usize, x: i64, y: i64, size: i64) {
    let text = n.to_string();
    let w = (text.len() as i64 * 4 + 1) * size;
    let h = 7 * size;
    fill(img, x, y, w, h, LABEL_BG);
    for (i, ch) in text.bytes().enumerate() {
        let glyph = DIGITS[(ch - b'0') as usize];
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..3 {
                if bits & (4 >> col) != 0 {
                    let px = x + size + (i as i64 * 4 + col) * size;
                    let py = y + size + row as i64 * size;
                    fill(img, px, py, size, size, LABEL_FG);
                }
            }
        }
    }
}

fn fill(img: &mut RgbaImage, x: i64, y: i64, w: i64, h: i64, c: Rgba<u8>) {
    for yy in y.max(0)..(y + h).min(img.height() as i64) {
        for xx in x.max(0)..(x + w).min(img.width() as i64) {
            img.put_pixel(xx as u32, yy as u32, c);
        }
    }
}

/// Draws every gesture of `plan` over a copy of the capture.
pub fn draw_plan(screen: &Screen, plan: &Plan) -> RgbaImage {
    let mut img = screen.image.clone();
    let size = ((img.width().min(img.height()) / 300).max(1) + 1) as i64;
    for (i, action) in plan.actions.iter().enumerate() {
        match action {
            Action::Drag { path } => {
                for pair in path.windows(2) {
                    let a = to_pixel(screen, pair[0]);
                    let b = to_pixel(screen, pair[1]);
                    for d in -1..=1 {
                        let o = d as f32;
                        draw_line_segment_mut(
                            &mut img,
                            (a.0 + o, a.1 + o),
                            (b.0 + o, b.1 + o),
                            DRAG,
                        );
                    }
                }
                let (x, y) = to_pixel(screen, path[0]);
                draw_hollow_circle_mut(&mut img, (x as i32, y as i32), 4 * size as i32, DRAG);
            }
            Action::Click { at } => {
                let (x, y) = to_pixel(screen, *at);
                draw_hollow_circle_mut(&mut img, (x as i32, y as i32), 3 * size as i32, CLICK);
                draw_hollow_circle_mut(&mut img, (x as i32, y as i32), 3 * size as i32 + 1, CLICK);
            }
        }
        let first = action.points()[0];
        let (x, y) = to_pixel(screen, first);
        // Offset labels a little per gesture so repeated gestures on one spot stay readable.
        let shift = (i % 4) as i64 * 2 * size;
        draw_number(
            &mut img,
            i + 1,
            x as i64 + 2 * size + shift,
            y as i64 - 8 * size,
            size,
        );
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screen::Rect;

    #[test]
    fn numbers_are_drawn_dark_on_light() {
        let mut img = RgbaImage::from_pixel(40, 20, Rgba([50, 50, 50, 255]));
        draw_number(&mut img, 10, 1, 1, 2);
        let dark = img.pixels().filter(|p| p.0 == LABEL_FG.0).count();
        let light = img.pixels().filter(|p| p.0 == LABEL_BG.0).count();
        // "1" has 8 lit font pixels, "0" has 12; each is 2×2 image pixels.
        assert_eq!(dark, (8 + 12) * 4);
        assert!(light > dark);
    }

    #[test]
    fn a_drag_is_drawn_where_its_points_map_in_the_image() {
        let screen = Screen {
            image: RgbaImage::from_pixel(200, 200, Rgba([0, 0, 0, 255])),
            origin: ScreenPoint { x: 100, y: 100 },
            scale: 2.0,
            label: "t".into(),
        };
        let mut plan = Plan::new(Rect {
            x: 100,
            y: 100,
            w: 100,
            h: 100,
        });
        let path = vec![
            ScreenPoint { x: 110, y: 150 },
            ScreenPoint { x: 180, y: 150 },
        ];
        plan.push(Action::Drag { path }, "d");
        let img = draw_plan(&screen, &plan);
        assert_eq!(img.get_pixel(100, 100).0, DRAG.0);
        assert_eq!(img.get_pixel(100, 20).0, [0, 0, 0, 255]);
    }
}
