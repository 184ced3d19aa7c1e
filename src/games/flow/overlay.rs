//! Drawing what was read over the capture, for `scan --overlay`: the lattice (holes crossed
//! out), each endpoint ringed in its flow's colour with a line to its partner, and each drawn
//! pipe as a white line through its cells, so a misreading shows at a glance.

use super::model::Variant;
use super::vision::FlowReading;
use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_hollow_circle_mut, draw_line_segment_mut};

const LATTICE: Rgba<u8> = Rgba([255, 140, 0, 255]);
const PIPE: Rgba<u8> = Rgba([255, 255, 255, 255]);

pub fn draw(img: &mut RgbaImage, reading: &FlowReading) {
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
fn draw_square_lattice(img: &mut RgbaImage, reading: &FlowReading) {
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
fn draw_hex_cells(img: &mut RgbaImage, reading: &FlowReading) {
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
