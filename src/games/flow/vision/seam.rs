//! A rounding seam across a pipe: at a page zoom such as 90 % the web clone's pipes, drawn
//! cell by cell, leave a pixel of the grid line showing between two cells' halves of one
//! pipe. That line must not count as a break: the pipe's paint runs on both sides of it, and
//! a pipe that stops does so at a cell's middle, never at its edge, so paint up to both sides
//! of the edge with only the grid line between is one pipe.

use crate::screen::PixelPoint;
use crate::vision::color::{euclidean, Colour};
use crate::vision::sample::{block_side, mean};

/// How far either side of the edge the bar is followed pixel by pixel, as shares of the way
/// between the centres: to where the reader's own samples (at 0.4 and 0.6) found paint.
const REACH: f64 = 0.1;
/// The widest seam, in pitches, and at least [`SEAM_PX`] pixels: a grid line's width at most.
const SEAM_PITCH: f64 = 0.02;
const SEAM_PX: f64 = 2.0;
/// Where the grid line is read beside the bar, in pitches off its axis: past the widest bar's
/// half width (0.15) and short of a hex edge's end (0.29).
const BESIDE: f64 = 0.22;

/// Whether the only break in the paint between the centres `a` and `b` is a seam: one run of
/// at most a grid line's width at the edge, coloured like the grid line beside the bar at the
/// same place, that line unlike the cells' ground. `same` is how near a colour is to count as
/// the paint (or the line), `ground` the cells' background.
pub fn only_a_seam(
    img: &image::RgbaImage,
    a: PixelPoint,
    b: PixelPoint,
    pitch: f64,
    paint: Colour,
    ground: Colour,
    same: f64,
) -> bool {
    let len = (b.x - a.x).hypot(b.y - a.y);
    if len < 1.0 {
        return false;
    }
    let (ux, uy) = ((b.x - a.x) / len, (b.y - a.y) / len);
    let (nx, ny) = (-uy, ux);
    let (mx, my) = ((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
    let across = block_side(pitch) as i64;
    // One pixel along the axis, a block's width across it: a seam is a pixel thin.
    let strip = |s: f64, off: f64, width: i64| -> Colour {
        let samples: Vec<Colour> = (0..width)
            .map(|k| {
                let o = off + (k - (width - 1) / 2) as f64;
                mean(img, mx + ux * s + nx * o, my + uy * s + ny * o, 1)
            })
            .collect();
        std::array::from_fn(|ch| samples.iter().map(|c| c[ch]).sum::<f64>() / width as f64)
    };
    let reach = (REACH * len).floor() as i64;
    let off: Vec<i64> = (-reach..=reach)
        .filter(|&s| euclidean(strip(s as f64, 0.0, across), paint) > same)
        .collect();
    let widest = (SEAM_PITCH * pitch).max(SEAM_PX);
    let (Some(&first), Some(&last)) = (off.first(), off.last()) else {
        return false;
    };
    let run = (last - first + 1) as f64;
    // At the edge: the lattice puts it within a pixel or two of halfway.
    if run != off.len() as f64 || run > widest || ((first + last) as f64 / 2.0).abs() > widest {
        return false;
    }
    let mean_of = |off: f64| -> Colour {
        let cs: Vec<Colour> = (first..=last)
            .map(|s| strip(s as f64, off, across))
            .collect();
        std::array::from_fn(|ch| cs.iter().map(|c| c[ch]).sum::<f64>() / cs.len() as f64)
    };
    let seam = mean_of(0.0);
    [-BESIDE * pitch, BESIDE * pitch].iter().all(|&o| {
        let line = mean_of(o);
        euclidean(line, seam) <= same && euclidean(line, ground) > same
    })
}

#[cfg(test)]
mod tests {
    use super::super::truth::{clone_fixtures, differences, sizes_fixtures, Known};
    use super::super::{read, Reading};
    use image::{Rgba, RgbaImage};

    /// The clone's grid line colour, as its captures show it at every zoom.
    const GRID: Rgba<u8> = Rgba([0x7f, 0x70, 0x42, 255]);

    /// Each link of a drawn pipe: the centres of its two cells.
    fn links(r: &Reading) -> Vec<((f64, f64), (f64, f64))> {
        r.drawn
            .iter()
            .flat_map(|d| d.cells.windows(2))
            .map(|w| {
                let (a, b) = (r.centres[w[0]], r.centres[w[1]]);
                ((a.x, a.y), (b.x, b.y))
            })
            .collect()
    }

    /// Pixels about the edge between two centres on a square lattice, by the offset along the
    /// way from one to the other and the offset across it.
    fn at_edge(a: (f64, f64), b: (f64, f64)) -> impl Fn(i64, i64) -> (u32, u32) {
        // Neighbours share a row or a column; `signum` would make 0 a 1.
        let sign = |d: f64| (d > 0.5) as i64 as f64 - (d < -0.5) as i64 as f64;
        let (ux, uy) = (sign(b.0 - a.0), sign(b.1 - a.1));
        let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        move |s, o| {
            let (s, o) = (s as f64, o as f64);
            ((mx + ux * s - uy * o) as u32, (my + uy * s + ux * o) as u32)
        }
    }

    /// The picture with a 1-px line of the grid colour across every drawn pipe at each cell
    /// edge it crosses, on the grid line's pixel further along the pipe, as Chromium draws
    /// the clone at 90 %; and how many were drawn.
    fn seamed(img: &RgbaImage, r: &Reading) -> (RgbaImage, usize) {
        let mut out = img.clone();
        let p = r.geometry.pitch();
        let beside = (0.3 * p) as i64;
        let mut drawn = 0;
        for (a, b) in links(r) {
            let px = at_edge(a, b);
            let Some(line) = (-3..=3)
                .rev()
                .find(|&s| *img.get_pixel(px(s, beside).0, px(s, beside).1) == GRID)
            else {
                continue;
            };
            for o in -beside..=beside {
                let (x, y) = px(line, o);
                out.put_pixel(x, y, GRID);
            }
            drawn += 1;
        }
        (out, drawn)
    }

    fn with_pipes() -> Vec<Known> {
        clone_fixtures()
            .into_iter()
            .chain(sizes_fixtures())
            .filter(|k| !k.drawn.is_empty())
            .collect()
    }

    /// Every capture with pipes, seamed at every link, reads as it reads unseamed; among them
    /// cells of 36 to 70 px, where a seam is a third or half of the reader's sample block.
    #[test]
    fn a_grid_line_seam_across_every_pipe_reads_as_the_unseamed_capture() {
        let known = with_pipes();
        assert!(known.len() >= 7, "{} captures with pipes", known.len());
        let mut small = 0;
        for k in &known {
            let img = crate::screen::read_picture(&k.path).unwrap();
            let plain = read(&img).unwrap();
            let (copy, seams) = seamed(&img, &plain);
            assert!(seams >= 2, "{}: {seams} seams drawn", k.path.display());
            small += (plain.geometry.pitch() < 80.0) as usize;
            let r = read(&copy).unwrap_or_else(|e| panic!("{}: {e}", k.path.display()));
            assert!(differences(&r, k).is_empty(), "{}", k.path.display());
            assert_eq!(r.drawn, plain.drawn, "{}", k.path.display());
        }
        assert!(small >= 4, "{small} captures with small cells");
    }

    /// A pipe cut at a cell edge between two of its middle cells, its paint stopping a
    /// twentieth of a pitch short of it on both sides (the ground and grid line show through,
    /// as where two pipes' heads would meet if they reached that far), is no seam: refused as
    /// a head whose paint goes on.
    #[test]
    fn a_real_gap_at_a_cell_edge_is_still_refused() {
        let mut cut = 0;
        for k in with_pipes() {
            let img = crate::screen::read_picture(&k.path).unwrap();
            let plain = read(&img).unwrap();
            let p = plain.geometry.pitch();
            let (beside, gap) = ((0.3 * p) as i64, (0.05 * p).round() as i64);
            for pipe in plain.drawn.iter().filter(|d| d.cells.len() >= 4) {
                let (a, b) = (plain.centres[pipe.cells[1]], plain.centres[pipe.cells[2]]);
                let px = at_edge((a.x, a.y), (b.x, b.y));
                let mut copy = img.clone();
                for s in -gap..=gap {
                    let (x, y) = px(s, beside);
                    let ground = *img.get_pixel(x, y);
                    for o in -beside..=beside {
                        let (x, y) = px(s, o);
                        copy.put_pixel(x, y, ground);
                    }
                }
                let err = match read(&copy) {
                    Ok(r) => panic!("{}: a cut pipe read as {:?}", k.path.display(), r.drawn),
                    Err(e) => e.to_string(),
                };
                assert!(
                    err.contains("goes on towards it"),
                    "{}: {err}",
                    k.path.display()
                );
                cut += 1;
            }
        }
        assert!(cut >= 5, "{cut} pipes cut");
    }
}
