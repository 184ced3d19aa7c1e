//! Drawing what was read over the capture, for `scan --overlay`: the lattice (holes crossed
//! out), each endpoint ringed in its flow's colour with a line to its partner, and each drawn
//! pipe as a white line through its cells, so a misreading shows at a glance.

use super::model::{Puzzle, Solution, Variant};
use super::vision::Reading;
use crate::picture::{disc, paint_over, shade, stroke};
use crate::screen::PixelPoint;
use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_hollow_circle_mut, draw_line_segment_mut};

const LATTICE: Rgba<u8> = Rgba([255, 140, 0, 255]);
const PIPE: Rgba<u8> = Rgba([255, 255, 255, 255]);

pub fn draw(img: &mut RgbaImage, reading: &Reading) {
    let g = &reading.geometry;
    let p = &reading.puzzle;
    if p.variant == Variant::Hex {
        draw_hex_cells(img, reading);
    } else {
        draw_square_lattice(img, reading);
    }
    let radius = (g.pitch() * 0.42) as i32;
    for (f, flow) in p.flows.iter().enumerate() {
        let [r, gr, b] = reading.colours[f].map(|v| v.round().clamp(0.0, 255.0) as u8);
        let colour = Rgba([r, gr, b, 255]);
        let [a, z] = flow.ends.map(|e| reading.centres[e]);
        for e in [a, z] {
            for k in 0..3 {
                draw_hollow_circle_mut(img, (e.x as i32, e.y as i32), radius + k, colour);
            }
        }
        // The pairing: a thin line of the pair's colour from one end to the other.
        draw_line_segment_mut(
            img,
            (a.x as f32, a.y as f32),
            (z.x as f32, z.y as f32),
            colour,
        );
    }
    for pipe in &reading.drawn {
        for w in pipe.cells.windows(2) {
            let (a, b) = (reading.centres[w[0]], reading.centres[w[1]]);
            for off in [-1.0, 0.0, 1.0] {
                draw_line_segment_mut(
                    img,
                    (a.x as f32 + off, a.y as f32 + off),
                    (b.x as f32 + off, b.y as f32 + off),
                    PIPE,
                );
            }
        }
    }
}

/// The lattice, each cell outlined and each hole crossed out.
fn draw_square_lattice(img: &mut RgbaImage, reading: &Reading) {
    let g = &reading.geometry;
    let p = &reading.puzzle;
    for r in 0..p.rows {
        for c in 0..p.cols {
            let cell = g.cell(r, c);
            let (x0, y0) = (cell.x as f32, cell.y as f32);
            let (x1, y1) = ((cell.x + cell.w) as f32, (cell.y + cell.h) as f32);
            if p.cell_at(r, c).is_some() {
                for (a, b) in [
                    ((x0, y0), (x1, y0)),
                    ((x1, y0), (x1, y1)),
                    ((x1, y1), (x0, y1)),
                    ((x0, y1), (x0, y0)),
                ] {
                    draw_line_segment_mut(img, a, b, LATTICE);
                }
            } else {
                draw_line_segment_mut(img, (x0, y0), (x1, y1), LATTICE);
                draw_line_segment_mut(img, (x1, y0), (x0, y1), LATTICE);
            }
        }
    }
}

/// Each cell's hexagon; holes have no place of their own to cross out.
fn draw_hex_cells(img: &mut RgbaImage, reading: &Reading) {
    let side = reading.geometry.pitch_x / 1.5;
    for &centre in &reading.centres {
        let h = super::vision::hex::corners(centre, side);
        for e in 0..6 {
            let (a, b) = (h[e], h[(e + 1) % 6]);
            draw_line_segment_mut(
                img,
                (a.x as f32, a.y as f32),
                (b.x as f32, b.y as f32),
                LATTICE,
            );
        }
    }
}

/// `play --solution`: each flow's pipe in its own colour (as read from its end discs), about a
/// third of a cell thick, from cell centre to cell centre with round joints, over each end
/// disc's centre; the cells a pipe fills tinted with its colour, as the app does.
pub fn draw_solution(img: &mut RgbaImage, reading: &Reading, p: &Puzzle, s: &Solution) {
    let centres = &reading.centres;
    let dist = |a: usize, b: usize| {
        let (u, v) = (centres[a], centres[b]);
        ((u.x - v.x).powi(2) + (u.y - v.y).powi(2)).sqrt()
    };
    // The step between neighbours, from the board's own links: a hex board's centres are
    // closer across than its square `pitch`, and a warp's link spans the board.
    let step = p
        .links
        .iter()
        .map(|l| dist(l.a, l.b))
        .filter(|d| *d >= 1.0)
        .fold(f64::INFINITY, f64::min);
    let step = if step.is_finite() {
        step
    } else {
        reading.geometry.pitch()
    };
    // The pipes the capture shows, painted over with the cells beside them first, so a wrong
    // or half-drawn pipe does not show through the answer.
    for pipe in &reading.drawn {
        for w in pipe.cells.windows(2) {
            if dist(w[0], w[1]) <= 1.5 * step {
                let ends = (centres[w[0]], centres[w[1]]);
                paint_over(img, ends, step * 0.3, step, |_| true);
            }
        }
    }
    if p.variant != Variant::Hex {
        for (f, path) in s.paths.iter().enumerate() {
            for &k in path.iter().filter(|&&k| !p.cells[k].bridge) {
                let cell = reading.geometry.cell(p.cells[k].row, p.cells[k].col);
                shade(img, cell, colour_of(reading, f), 0.22);
            }
        }
    }
    for (f, path) in s.paths.iter().enumerate() {
        let colour = colour_of(reading, f);
        for w in path.windows(2) {
            let (a, b) = (centres[w[0]], centres[w[1]]);
            if dist(w[0], w[1]) > 1.5 * step {
                // A warp: the pipe leaves each cell away from the other, to the board's edge.
                let (dx, dy) = (
                    (b.x - a.x) / dist(w[0], w[1]),
                    (b.y - a.y) / dist(w[0], w[1]),
                );
                let half = step * 0.55;
                let out = |c: PixelPoint, sign: f64| PixelPoint {
                    x: c.x + sign * dx * half,
                    y: c.y + sign * dy * half,
                };
                stroke(img, a, out(a, -1.0), step * 0.34, colour);
                stroke(img, b, out(b, 1.0), step * 0.34, colour);
            } else {
                stroke(img, a, b, step * 0.34, colour);
            }
        }
        // The end discs the app shows, drawn again so a pipe through a faint disc reads.
        for &e in [path.first(), path.last()].iter().flatten() {
            disc(img, centres[*e], step * 0.3, colour);
        }
    }
}

fn colour_of(reading: &Reading, f: usize) -> Rgba<u8> {
    let [r, g, b] = reading.colours[f].map(|v| v.round().clamp(0.0, 255.0) as u8);
    Rgba([r, g, b, 255])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flow::format::parse;
    use crate::solving::Limits;
    use crate::vision::geometry::Geometry;

    #[test]
    fn each_pipe_runs_through_its_cell_centres_in_its_colour() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/flow/standard_5x5.flow"
        ))
        .unwrap();
        let puzzle = parse(&text, "t").unwrap();
        let s = crate::games::flow::solve::solve(&puzzle, &Limits::within(None))
            .into_solution()
            .unwrap();
        let geometry = Geometry::square(
            PixelPoint { x: 20.0, y: 20.0 },
            40.0,
            crate::rect::Rect::new(0.0, 0.0, 200.0, 200.0),
        );
        let centres = puzzle
            .cells
            .iter()
            .map(|c| geometry.centre(c.row, c.col))
            .collect();
        let colours = (0..puzzle.flows.len())
            .map(|f| [50.0 * f as f64, 255.0 - 40.0 * f as f64, 120.0])
            .collect();
        let reading = Reading {
            puzzle: puzzle.clone(),
            geometry,
            centres,
            colours,
            drawn: Vec::new(),
            confidence: 1.0,
        };
        let black = Rgba([0, 0, 0, 255]);
        let mut img = RgbaImage::from_pixel(200, 200, black);
        draw_solution(&mut img, &reading, &puzzle, &s);
        for (f, path) in s.paths.iter().enumerate() {
            for w in path.windows(2) {
                let (a, b) = (reading.centres[w[0]], reading.centres[w[1]]);
                let mid = ((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
                assert_eq!(
                    *img.get_pixel(mid.0 as u32, mid.1 as u32),
                    colour_of(&reading, f)
                );
            }
        }
        // A third of a cell thick: the cell's corner keeps the board, only tinted.
        let corner = *img.get_pixel(2, 2);
        assert!(corner.0[..3].iter().all(|&v| v < 100), "{corner:?}");
    }
}
