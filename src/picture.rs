//! `play --solution`: the answer drawn over the capture it was read from, in the game's own
//! look. Each game draws its answer (`Rules::draw_solution`); what every game shares is here:
//! the picture kept to the board the play report names (nothing outside it changes), the check
//! of that, and the drawing tools the games' looks are made of (round-capped thick strokes,
//! discs, translucent shading), anti-aliased so pipes and bridges look drawn, not plotted.

use crate::rect::Rect;
use crate::screen::{PixelPoint, Screen};
use image::{Rgba, RgbaImage};

/// The image pixels under a rectangle of screen points (the play report's board), clipped to
/// the image.
pub fn board_pixels(screen: &Screen, board: Rect<i32>) -> Rect<i32> {
    let to_px = |v: i32, o: i32| (v - o) as f64 * screen.scale;
    let x0 = to_px(board.x, screen.origin.x).round().max(0.0);
    let y0 = to_px(board.y, screen.origin.y).round().max(0.0);
    let x1 = to_px(board.x + board.w, screen.origin.x)
        .round()
        .min(screen.image.width() as f64);
    let y1 = to_px(board.y + board.h, screen.origin.y)
        .round()
        .min(screen.image.height() as f64);
    Rect {
        x: x0 as i32,
        y: y0 as i32,
        w: (x1 - x0).max(0.0) as i32,
        h: (y1 - y0).max(0.0) as i32,
    }
}

/// The first pixel outside `board` where two pictures differ, or where their sizes differ
/// (`(width, height)` of the first); `None` when they agree everywhere outside it.
pub fn changed_outside(a: &RgbaImage, b: &RgbaImage, board: Rect<i32>) -> Option<(u32, u32)> {
    if a.dimensions() != b.dimensions() {
        return Some(a.dimensions());
    }
    a.enumerate_pixels()
        .find(|&(x, y, p)| !board.contains(x as i32, y as i32) && p != b.get_pixel(x, y))
        .map(|(x, y, _)| (x, y))
}

/// `drawn`, an answer drawn over the capture in `screen`, with every pixel outside `board` (a
/// rectangle of screen points: the play report's board) put back from the capture, so the
/// picture differs from its capture only on the board whatever a game's drawing reached.
pub fn kept_to_board(screen: &Screen, mut drawn: RgbaImage, board: Rect<i32>) -> RgbaImage {
    let board = board_pixels(screen, board);
    for (x, y, p) in drawn.enumerate_pixels_mut() {
        if !board.contains(x as i32, y as i32) {
            *p = *screen.image.get_pixel(x, y);
        }
    }
    debug_assert!(changed_outside(&screen.image, &drawn, board).is_none());
    drawn
}

/// `colour` laid over the pixel at `(x, y)` with opacity `alpha` (0..1); off the picture is
/// nothing.
pub fn blend(img: &mut RgbaImage, x: i64, y: i64, colour: Rgba<u8>, alpha: f64) {
    if x < 0 || y < 0 || x >= img.width() as i64 || y >= img.height() as i64 || alpha <= 0.0 {
        return;
    }
    let a = alpha.min(1.0);
    let p = img.get_pixel_mut(x as u32, y as u32);
    for k in 0..3 {
        p.0[k] = (p.0[k] as f64 * (1.0 - a) + colour.0[k] as f64 * a).round() as u8;
    }
}

/// How much of the pixel centred `d` from a shape's edge (negative inside) the shape covers.
fn coverage(d: f64) -> f64 {
    (0.5 - d).clamp(0.0, 1.0)
}

/// A stroke `width` wide from `a` to `b` with round ends, so strokes meeting at a point join
/// round (a Flow pipe's bend, a loop's corner).
pub fn stroke(img: &mut RgbaImage, a: PixelPoint, b: PixelPoint, width: f64, colour: Rgba<u8>) {
    let r = width / 2.0;
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len2 = dx * dx + dy * dy;
    let x0 = (a.x.min(b.x) - r - 1.0).floor() as i64;
    let x1 = (a.x.max(b.x) + r + 1.0).ceil() as i64;
    let y0 = (a.y.min(b.y) - r - 1.0).floor() as i64;
    let y1 = (a.y.max(b.y) + r + 1.0).ceil() as i64;
    for y in y0.max(0)..=y1.min(img.height() as i64 - 1) {
        for x in x0.max(0)..=x1.min(img.width() as i64 - 1) {
            let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
            let t = if len2 > 0.0 {
                (((px - a.x) * dx + (py - a.y) * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let (qx, qy) = (a.x + t * dx - px, a.y + t * dy - py);
            let d = (qx * qx + qy * qy).sqrt() - r;
            blend(img, x, y, colour, coverage(d));
        }
    }
}

/// A filled disc.
pub fn disc(img: &mut RgbaImage, c: PixelPoint, radius: f64, colour: Rgba<u8>) {
    stroke(img, c, c, 2.0 * radius, colour);
}

/// A rectangle of image pixels laid over with `colour` at opacity `alpha`.
pub fn shade(img: &mut RgbaImage, r: Rect<f64>, colour: Rgba<u8>, alpha: f64) {
    let x0 = r.x.round() as i64;
    let y0 = r.y.round() as i64;
    let x1 = (r.x + r.w).round() as i64;
    let y1 = (r.y + r.h).round() as i64;
    for y in y0..y1 {
        for x in x0..x1 {
            blend(img, x, y, colour, alpha);
        }
    }
}

/// Paints over the strip from `a` to `b`, `across` wide (square ends), with the picture as it
/// is `shift` to either side of it, pixel by pixel: of the two, the one nearer the background
/// beside the strip (the median at a few points `shift` off its line). A board repeats every
/// cell, so with `shift` a cell's pitch a grid line under the strip comes back with it; and a
/// mark beside the strip on one side is not copied when the other side is clear. Only pixels
/// `mark` accepts are painted over (the app's ink, not a number drawn under it).
pub fn paint_over(
    img: &mut RgbaImage,
    (a, b): (PixelPoint, PixelPoint),
    across: f64,
    shift: f64,
    mark: impl Fn(Rgba<u8>) -> bool,
) {
    let len = ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt();
    if len < 0.5 {
        return;
    }
    let (ux, uy) = ((b.x - a.x) / len, (b.y - a.y) / len);
    let (nx, ny) = (-uy, ux);
    let at = |img: &RgbaImage, x: f64, y: f64| {
        (x >= 0.0 && y >= 0.0 && (x as u32) < img.width() && (y as u32) < img.height())
            .then(|| *img.get_pixel(x as u32, y as u32))
    };
    let mut beside: Vec<f64> = [0.25, 0.5, 0.75]
        .iter()
        .flat_map(|t| [-1.0, 1.0].map(|side| (t, side * shift)))
        .filter_map(|(t, off)| {
            at(
                img,
                a.x + ux * len * t + nx * off,
                a.y + uy * len * t + ny * off,
            )
        })
        .map(luminance)
        .collect();
    if beside.is_empty() {
        return;
    }
    beside.sort_by(f64::total_cmp);
    let background = beside[beside.len() / 2];
    let source = img.clone();
    // Half-pixel steps, so no pixel of a slanted strip is skipped.
    for i in 0..=((len * 2.0).ceil() as i64) {
        for k in 0..=((across * 2.0).ceil() as i64) {
            let (along, off) = (i as f64 / 2.0, k as f64 / 2.0 - across / 2.0);
            let (x, y) = (a.x + ux * along + nx * off, a.y + uy * along + ny * off);
            if !at(img, x, y).is_some_and(&mark) {
                continue;
            }
            let best = [-1.0, 1.0]
                .iter()
                .filter_map(|side| at(&source, x + nx * side * shift, y + ny * side * shift))
                .min_by(|p, q| {
                    (luminance(*p) - background)
                        .abs()
                        .total_cmp(&(luminance(*q) - background).abs())
                });
            if let Some(p) = best {
                img.put_pixel(x as u32, y as u32, p);
            }
        }
    }
}

/// Whether a colour is grey (black, white or between): a line's ink, not a coloured mark.
pub fn is_grey(p: Rgba<u8>) -> bool {
    let [r, g, b, _] = p.0;
    r.max(g).max(b) - r.min(g).min(b) < 50
}

/// The relative luminance (0..255) of a colour, to pick ink that stands out on it.
pub fn luminance(p: Rgba<u8>) -> f64 {
    0.2126 * p.0[0] as f64 + 0.7152 * p.0[1] as f64 + 0.0722 * p.0[2] as f64
}

/// The median luminance of the pixels at the given points: the board's background where the
/// points are cells the answer leaves empty.
pub fn median_luminance(img: &RgbaImage, at: impl IntoIterator<Item = PixelPoint>) -> f64 {
    let mut l: Vec<f64> = at
        .into_iter()
        .filter(|p| p.x >= 0.0 && p.y >= 0.0)
        .filter(|p| (p.x as u32) < img.width() && (p.y as u32) < img.height())
        .map(|p| luminance(*img.get_pixel(p.x as u32, p.y as u32)))
        .collect();
    if l.is_empty() {
        return 128.0;
    }
    l.sort_by(f64::total_cmp);
    l[l.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::screen::ScreenPoint;

    const BLACK: Rgba<u8> = Rgba([0, 0, 0, 255]);
    const WHITE: Rgba<u8> = Rgba([255, 255, 255, 255]);

    #[test]
    fn a_stroke_covers_its_width_with_round_ends_and_nothing_beyond() {
        let mut img = RgbaImage::from_pixel(60, 40, WHITE);
        let (a, b) = (
            PixelPoint { x: 10.0, y: 20.0 },
            PixelPoint { x: 50.0, y: 20.0 },
        );
        stroke(&mut img, a, b, 10.0, BLACK);
        // Solid along the middle and across its width, blank past the width.
        assert_eq!(*img.get_pixel(30, 20), BLACK);
        assert_eq!(*img.get_pixel(30, 16), BLACK);
        assert_eq!(*img.get_pixel(30, 23), BLACK);
        assert_eq!(*img.get_pixel(30, 27), WHITE);
        // Round caps: past the end on the axis, not at the corner of a square cap.
        assert_eq!(*img.get_pixel(6, 20), BLACK);
        assert_eq!(*img.get_pixel(5, 15), WHITE);
        assert_eq!(*img.get_pixel(2, 20), WHITE);
    }

    #[test]
    fn painting_over_a_line_brings_back_the_lattice_beside_it() {
        // A white board with a grey grid line every 10 pixels across, and a black bar along
        // row 15 crossing them.
        let mut img = RgbaImage::from_fn(40, 30, |x, _| {
            if x % 10 == 0 {
                Rgba([128, 128, 128, 255])
            } else {
                WHITE
            }
        });
        for x in 2..38 {
            for y in 14..17 {
                img.put_pixel(x, y, BLACK);
            }
        }
        let ends = (
            PixelPoint { x: 2.0, y: 15.5 },
            PixelPoint { x: 38.0, y: 15.5 },
        );
        paint_over(&mut img, ends, 4.0, 10.0, |_| true);
        assert!(img.pixels().all(|p| *p != BLACK));
        assert_eq!(img.get_pixel(20, 15).0, [128, 128, 128, 255]);
        assert_eq!(*img.get_pixel(25, 15), WHITE);
    }

    #[test]
    fn shading_keeps_what_is_under_it_visible() {
        let mut img = RgbaImage::from_pixel(10, 10, BLACK);
        shade(&mut img, Rect::new(2.0, 2.0, 4.0, 4.0), WHITE, 0.5);
        assert_eq!(img.get_pixel(3, 3).0, [128, 128, 128, 255]);
        assert_eq!(*img.get_pixel(7, 7), BLACK);
    }

    #[test]
    fn the_board_in_pixels_follows_the_screen_mapping_and_the_picture_edge() {
        let screen = Screen {
            image: RgbaImage::new(200, 100),
            origin: ScreenPoint { x: 100, y: 50 },
            scale: 2.0,
            label: "t".into(),
        };
        let r = board_pixels(
            &screen,
            Rect {
                x: 110,
                y: 60,
                w: 40,
                h: 100,
            },
        );
        assert_eq!(r, Rect::new(20, 20, 80, 80));
    }

    #[test]
    fn drawing_past_the_board_is_put_back_and_found_by_the_check() {
        let capture = RgbaImage::from_pixel(30, 30, WHITE);
        let board = Rect::new(10, 10, 10, 10);
        let mut drawn = capture.clone();
        stroke(
            &mut drawn,
            PixelPoint { x: 0.0, y: 15.0 },
            PixelPoint { x: 30.0, y: 15.0 },
            4.0,
            BLACK,
        );
        assert!(changed_outside(&capture, &drawn, board).is_some());
        // A capture at two image pixels a point whose top-left pixel is screen point (100, 50).
        let screen = Screen {
            image: capture.clone(),
            origin: ScreenPoint { x: 100, y: 50 },
            scale: 2.0,
            label: "test".into(),
        };
        let drawn = kept_to_board(&screen, drawn, Rect::new(105, 55, 5, 5));
        assert_eq!(changed_outside(&capture, &drawn, board), None);
        assert_eq!(*drawn.get_pixel(15, 15), BLACK);
        assert_eq!(
            changed_outside(&capture, &RgbaImage::new(3, 3), board),
            Some((30, 30))
        );
    }
}
