//! Where Bridges' canvas is. The tile size is the canvas side over a whole number of tiles,
//! so the canvas edges must be found to the pixel: exactly on a lossless capture, and on a
//! lossy copy, where the canvas and the window around it blur together, by how far the band
//! along each edge falls short of the canvas colour.

use super::sample::{widest_area, COARSE};
use crate::vision::color::{is_red, luma, near};
use crate::vision::components::Component;
use crate::vision::runs::runs;
use image::{Rgba, RgbaImage};

/// Bridges' canvas colour under this machine's GTK theme (the window chrome around it is one
/// level darker, #D4D4D4, so an exact match separates the two).
pub(super) const SGT_BACKGROUND: [u8; 3] = [213, 213, 213];

/// Bridges' drawing proportions, as fractions of the tile size: island ring outer radius and
/// line width (measured on the corpus captures at tile sizes 24–80).
pub(super) const SGT_RING_OUTER: f64 = 0.6;
pub(super) const SGT_LINE: f64 = 0.125;

/// Bridges' ink: its lines, rings and digits (near black), and the red of an island or bridge
/// it marks as wrong.
pub(super) fn sgt_ink(p: Rgba<u8>) -> bool {
    p.0[..3].iter().all(|&c| c < 110) || is_red(p)
}

/// Fainter ink, for the second cut of a number (`digits::faint_text`): over a third of the
/// way from the canvas to black (`sgt_ink` asks for half), and red.
pub(super) fn sgt_faint_ink(p: Rgba<u8>) -> bool {
    p.0[..3].iter().all(|&c| c < 135) || is_red(p)
}

/// How far a board pixel may stray from its colour in a lossy copy of a capture. Bridges' menu
/// bar is one level darker than its canvas, but a 22-level darker line separates them.
pub(super) const LOSSY_CANVAS_TOLERANCE: u8 = 6;

fn sgt_background(p: Rgba<u8>, tolerance: u8) -> bool {
    near(p, SGT_BACKGROUND, tolerance)
}

/// The canvas rectangle `(x, y, w, h)`: the widest patch of the canvas colour, its edges
/// found exactly along the border band that no island reaches.
pub(super) fn sgt_canvas(img: &RgbaImage, tolerance: u8) -> Option<(i64, i64, i64, i64)> {
    let sgt_background = |p: Rgba<u8>| sgt_background(p, tolerance);
    let area = widest_area(img, sgt_background)?;
    // A 7x7 board at the smallest tile size covers ~160 px square.
    if area.count < 200 {
        return None;
    }
    longest_runs(img, &area, sgt_background)
}

/// The canvas as the longest runs of its colour: across, among the rows of the area's box,
/// then down, among the columns that run spans, then across again among the rows that one
/// spans. A rescaled copy's filter rings a few pixels out from every ring and line, so a
/// single probe row through the border band (as this was once found) met a ring's halo and
/// stopped short; the band still holds a row and a column clear from edge to edge, and the
/// window's colour, a level off, ends every exact run at the canvas edge. In a lossy copy,
/// whose coarse area can join the menu bar across a separator line thinner than the
/// sampling step, the longest run down still stops at that line.
fn longest_runs(
    img: &RgbaImage,
    area: &Component,
    test: impl Fn(Rgba<u8>) -> bool,
) -> Option<(i64, i64, i64, i64)> {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let pixel = |x: usize, y: usize| *img.get_pixel(x as u32, y as u32);
    // The longest run along lines `lines` (each `len` long; `at(line, k)`) that overlaps
    // `within`: a run elsewhere in a full-screen capture is no part of this canvas.
    let longest = |lines: (usize, usize),
                   len: usize,
                   within: (usize, usize),
                   at: &dyn Fn(usize, usize) -> Rgba<u8>| {
        let all: Vec<(usize, usize)> = (lines.0..=lines.1)
            .flat_map(|l| runs((0..len).map(|k| test(at(l, k)))))
            .filter(|&(s, n)| s <= within.1 && s + n > within.0)
            .collect();
        // Among the runs about as long as the longest, the middle start and end: a lossy
        // copy tints a stray pixel of window to the canvas colour here and there, which
        // lengthens one row's run by a pixel but not most.
        let most = all.iter().map(|r| r.1).max()?;
        let median = |mut v: Vec<usize>| {
            v.sort_unstable();
            v[v.len() / 2]
        };
        let long = all.iter().filter(|r| r.1 + LONG_RUN_SLACK >= most);
        let start = median(long.clone().map(|r| r.0).collect());
        let end = median(long.map(|r| r.0 + r.1).collect());
        (end > start).then_some((start, end - start))
    };
    let widen =
        |lo: usize, hi: usize, end: usize| (lo.saturating_sub(COARSE), (hi + COARSE).min(end - 1));
    let (xs, ys) = ((area.x0, area.x1), (area.y0, area.y1));
    let (x0, nx) = longest(widen(area.y0, area.y1, h), w, xs, &|y, x| pixel(x, y))?;
    let (y0, ny) = longest((x0, x0 + nx - 1), h, ys, &|x, y| pixel(x, y))?;
    let (x0, nx) = longest((y0, y0 + ny - 1), w, xs, &|y, x| pixel(x, y))?;
    Some((x0 as i64, y0 as i64, nx as i64, ny as i64))
}

/// How many pixels shorter than the longest a run of canvas colour may be and still place the
/// canvas edges: a run that meets a ring's halo stops several pixels short.
const LONG_RUN_SLACK: usize = 2;

/// How much darker than the canvas a line along its edge must be to be a separator.
const SEPARATOR_DROP: i64 = 12;

/// How far a lossy copy's canvas edge may be from the true one, in pixels: the copy keeps a
/// block's mean colour only to about a fifth of a level, which over a block straddling the
/// edge moves it by up to a pixel and a half.
pub(super) const LOSSY_EDGE_ERROR: f64 = 2.0;

/// How far a rescaled copy's canvas edge may be from the true one: the resampling filter
/// rings a few pixels into the canvas colour.
pub(super) const RESCALED_EDGE_ERROR: f64 = 3.0;

/// The canvas of a lossy copy. The canvas and the window around it, one level apart, blur
/// into one area there; each edge of the canvas is then placed by how far the flat band
/// between that area's edge and the ink falls short of the canvas colour: a line of window
/// colour is one level short, a line of canvas none, and the sum over the band counts the
/// window's lines however the copy spread them.
pub(super) fn sgt_canvas_lossy(img: &RgbaImage) -> Option<(i64, i64, i64, i64)> {
    let (x0, y0, w, h) = sgt_canvas(img, LOSSY_CANVAS_TOLERANCE)?;
    let (x1, y1) = (x0 + w, y0 + h);
    let ink = |x: i64, y: i64| sgt_ink(*img.get_pixel(x as u32, y as u32));
    let ink_cols: Vec<i64> = (x0..x1).filter(|&x| (y0..y1).any(|y| ink(x, y))).collect();
    let ink_rows: Vec<i64> = (y0..y1).filter(|&y| (x0..x1).any(|x| ink(x, y))).collect();
    let (&ix0, &ix1) = (ink_cols.first()?, ink_cols.last()?);
    let (&iy0, &iy1) = (ink_rows.first()?, ink_rows.last()?);
    // Anti-aliased ring edges are lighter than ink but not canvas.
    const AA: i64 = 3;
    let short = |xs: std::ops::Range<i64>, ys: std::ops::Range<i64>, per: i64| {
        let canvas = SGT_BACKGROUND[0] as i64;
        let sum: i64 = ys
            .flat_map(|y| xs.clone().map(move |x| (x, y)))
            .map(|(x, y)| {
                let p = img.get_pixel(x as u32, y as u32).0;
                3 * canvas - (p[0] as i64 + p[1] as i64 + p[2] as i64)
            })
            .sum();
        // A band brighter than the canvas (a rescaled copy rings at edges) is no window: the
        // edge stays where the area ends, never outside the picture.
        ((sum as f64 / (3 * per) as f64).round() as i64).max(0)
    };
    let (rows, cols) = (iy0..iy1 + 1, ix0..ix1 + 1);
    let (n_rows, n_cols) = (rows.end - rows.start, cols.end - cols.start);
    // A dark separator line (Bridges' menu bar has one) just outside an edge marks the canvas
    // edge itself: a heavily compressed copy shifts the band's mean colour a level or two,
    // which the sum above would take for several lines of window.
    let (w, h) = (img.width() as i64, img.height() as i64);
    let line_mean = |xs: std::ops::Range<i64>, ys: std::ops::Range<i64>| {
        let n = ((xs.end - xs.start) * (ys.end - ys.start)).max(1);
        let sum: i64 = ys
            .flat_map(|y| xs.clone().map(move |x| (x, y)))
            .map(|(x, y)| luma(*img.get_pixel(x as u32, y as u32)) as i64)
            .sum();
        sum / n
    };
    let dark = |m: i64| m <= SGT_BACKGROUND[0] as i64 - SEPARATOR_DROP;
    let separated = |lines: std::ops::Range<i64>, end: i64, mean: &dyn Fn(i64) -> i64| {
        lines.filter(|&k| k >= 0 && k < end).any(|k| dark(mean(k)))
    };
    let above = separated(y0 - 3..y0, h, &|y| line_mean(cols.clone(), y..y + 1));
    let below = separated(y1..y1 + 3, h, &|y| line_mean(cols.clone(), y..y + 1));
    let before = separated(x0 - 3..x0, w, &|x| line_mean(x..x + 1, rows.clone()));
    let after = separated(x1..x1 + 3, w, &|x| line_mean(x..x + 1, rows.clone()));
    let unless = |sep: bool, v: i64| if sep { 0 } else { v };
    let left = x0 + unless(before, short(x0..(ix0 - AA).max(x0), rows.clone(), n_rows));
    let right = x1
        - unless(
            after,
            short((ix1 + 1 + AA).min(x1)..x1, rows.clone(), n_rows),
        );
    let top = y0 + unless(above, short(cols.clone(), y0..(iy0 - AA).max(y0), n_cols));
    let bottom = y1 - unless(below, short(cols, (iy1 + 1 + AA).min(y1)..y1, n_cols));
    (right > left && bottom > top).then_some((left, top, right - left, bottom - top))
}

#[cfg(test)]
mod tests {
    use super::super::recognize;
    use super::super::truth::{corpus, in_frame, index, load, seen};

    #[test]
    fn finds_a_bridges_window_anywhere_in_a_full_screen_frame() {
        let Some((dir, shots)) = index("hashi/screenshots/index.jsonl") else {
            return;
        };
        let shot = &shots[2];
        let window = load(&dir, shot["file"].as_str().unwrap());
        let ts = shot["tilesize"].as_f64().unwrap();
        let alone = recognize(&window).unwrap();
        let at = (733, 291);
        let r = recognize(&in_frame(&window, at)).unwrap();
        // Island (0,0) sits one tile in from the canvas, which starts below the 25 px menu bar.
        assert_eq!(r.geometry.origin.x, at.0 as f64 + ts);
        assert_eq!(r.geometry.origin.y, at.1 as f64 + 25.0 + ts);
        assert_eq!(r.geometry.pitch(), ts);
        assert_eq!(r.puzzle, alone.puzzle);
        assert_eq!(r.bridges, alone.bridges);
    }

    /// Saved at JPEG quality 20, a small Bridges window's canvas is a level or two off its
    /// colour in whole blocks; the menu bar's separator line still marks the canvas's top.
    #[test]
    fn a_heavily_compressed_bridges_window_reads_as_the_png_does() {
        use crate::vision::test_pictures::jpeg_copy;
        let Some(all) = corpus() else { return };
        for name in [
            "bridges_01_7x7_fresh_ts24.png",
            "bridges_05_10x10_fresh_ts32.png",
        ] {
            let (_, img, truth) = all.iter().find(|(n, _, _)| n == name).unwrap();
            let r = recognize(&jpeg_copy(img, 20)).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(seen(&r), *truth, "{name}");
        }
    }
}
