//! What `scan --overlay` draws over a capture, so a misreading shows at a glance.

use super::model::Puzzle;
use super::solve::Found;
use super::vision::{Reading, Theme};
use crate::picture::{is_grey, paint_over, stroke};
use crate::screen::PixelPoint;
use image::{Rgba, RgbaImage};

/// `play --solution`: the answer's loop through every cell centre, closed, in the app's ink for
/// the theme (near-black on light, near-white on dark), thicker than the app's own line so it
/// reads as the answer, with round corners, under the hints.
pub fn draw_solution(img: &mut RgbaImage, reading: &Reading, p: &Puzzle, s: &Found) {
    let g = &reading.geometry;
    let capture = img.clone();
    let ink = match reading.theme {
        Theme::Light => Rgba([25, 25, 25, 255]),
        Theme::Dark => Rgba([235, 235, 235, 255]),
    };
    let pitch = g.pitch();
    // The app's own partial path first, painted over with the cell beside it (clear of the
    // grid lines at the cell borders), its rounded corners too: the picture shows the answer
    // alone.
    let drawn = reading.path.len();
    let steps = if reading.closed {
        drawn
    } else {
        drawn.saturating_sub(1)
    };
    for k in 0..steps {
        let (a, b) = (reading.path[k], reading.path[(k + 1) % drawn]);
        let (p, q) = (g.centre(a[0], a[1]), g.centre(b[0], b[1]));
        let len = ((q.x - p.x).powi(2) + (q.y - p.y).powi(2)).sqrt().max(1.0);
        let (ux, uy) = ((q.x - p.x) / len, (q.y - p.y) / len);
        let past = 0.2 * pitch;
        let from = PixelPoint {
            x: p.x - ux * past,
            y: p.y - uy * past,
        };
        let to = PixelPoint {
            x: q.x + ux * past,
            y: q.y + uy * past,
        };
        // The hints are coloured: only the grey of the app's line is painted over.
        paint_over(img, (from, to), 0.2 * pitch, 0.3 * pitch, is_grey);
    }
    let width = (pitch * 0.12).max(2.0);
    let n = s.cycle.len();
    let links = if s.closed { n } else { n.saturating_sub(1) };
    for k in 0..links {
        let (a, b) = (s.cycle[k], s.cycle[(k + 1) % n]);
        stroke(img, g.centre(a[0], a[1]), g.centre(b[0], b[1]), width, ink);
    }
    // The hints back on top of the line: their coloured pixels as the capture shows them.
    for r in 0..p.rows {
        for c in 0..p.cols {
            if p.hint(r, c).is_none() {
                continue;
            }
            let cell = g.cell(r, c);
            let x0 = cell.x.max(0.0) as u32;
            let y0 = cell.y.max(0.0) as u32;
            let x1 = ((cell.x + cell.w) as u32).min(img.width());
            let y1 = ((cell.y + cell.h) as u32).min(img.height());
            for y in y0..y1 {
                for x in x0..x1 {
                    let was = *capture.get_pixel(x, y);
                    if !is_grey(was) {
                        img.put_pixel(x, y, was);
                    }
                }
            }
        }
    }
}

/// Outline, drawn path and recovered hints over the capture, for `scan --overlay`: each hint
/// as read (after adding back the drawn turns) in a small box at its cell's top-left corner,
/// the path as a line through the cell centres, so a misreading shows at a glance.
pub fn draw(img: &mut RgbaImage, reading: &Reading) {
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
    for r in 0..reading.puzzle.rows {
        for c in 0..reading.puzzle.cols {
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
mod tests {
    use super::super::vision::recognize;
    use super::super::vision::truth::shots;
    use super::*;

    #[test]
    fn the_overlay_marks_the_board_and_the_path() {
        let Some(all) = shots() else { return };
        let s = all.iter().find(|s| !s.path.is_empty()).unwrap();
        let r = recognize(&s.img).unwrap();
        let mut img = s.img.clone();
        draw(&mut img, &r);
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

    #[test]
    fn the_loop_is_drawn_through_the_centres_under_the_hints() {
        let Some(all) = shots() else { return };
        let s = all.iter().find(|s| !s.path.is_empty()).unwrap();
        let r = recognize(&s.img).unwrap();
        let found = crate::games::loopgame::solve::solve(
            &r.puzzle,
            &Default::default(),
            &crate::solving::Limits::within(None),
        )
        .into_solution()
        .unwrap();
        let mut img = s.img.clone();
        draw_solution(&mut img, &r, &r.puzzle, &found);
        let ink = match r.theme {
            Theme::Light => Rgba([25, 25, 25, 255]),
            Theme::Dark => Rgba([235, 235, 235, 255]),
        };
        let g = &r.geometry;
        let n = found.cycle.len();
        for k in 0..n {
            let (a, b) = (found.cycle[k], found.cycle[(k + 1) % n]);
            let (p, q) = (g.centre(a[0], a[1]), g.centre(b[0], b[1]));
            let mid = ((p.x + q.x) / 2.0, (p.y + q.y) / 2.0);
            assert_eq!(*img.get_pixel(mid.0 as u32, mid.1 as u32), ink);
        }
        // Every coloured pixel of a hint is as the capture shows it.
        for row in 0..r.puzzle.rows {
            for col in 0..r.puzzle.cols {
                if r.puzzle.hint(row, col).is_some() {
                    let c = g.centre(row, col);
                    for (x, y) in [(c.x, c.y), (c.x - 3.0, c.y), (c.x, c.y - 5.0)] {
                        let was = *s.img.get_pixel(x as u32, y as u32);
                        if !is_grey(was) {
                            assert_eq!(*img.get_pixel(x as u32, y as u32), was);
                        }
                    }
                }
            }
        }
    }
}
