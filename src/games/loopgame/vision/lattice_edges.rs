//! The lattice when the grid lines are gone (a JPEG copy of the dark theme): the board's
//! rectangle from its sharp edges, the cell count from the numbers' size and placement.

use super::board::{beyond_edges, lerp, on_board, COARSE, EDGE_LEAK, MAX_CELLS, MIN_CELLS};
use super::ink::{number_ink, InkRule};
use super::look::Look;
use super::Located;
use crate::error::{Error, Result};
use crate::vision::components::{components, Component, Connectivity};
use crate::vision::geometry::Geometry;
use crate::vision::lattice::Axis;
use image::RgbaImage;

/// A number's height over its cell's pitch: 0.51–0.54 in every corpus capture, 0.48–0.56 in
/// their JPEG q20 copies. The band is wide of those and narrower than the step to a
/// neighbouring cell count (a 400-px board's 8 cells read 0.52; as 7 or 9 cells, 0.46 or 0.59).
const FONT_SHARE: std::ops::RangeInclusive<f64> = 0.48..=0.60;
/// How far a whole number's box centre may sit from its cell's centre, in pitches: up to 0.14
/// in the corpus and its copies (a "1" sits left of the middle); a wrong cell count puts some
/// number 0.25 or more off.
const CENTRE_SLACK: f64 = 0.2;

/// The lattice of a board whose grid lines are gone (a JPEG copy of the dark theme, 12 levels
/// between line and board, keeps two of seven): the board's rectangle from where its colour
/// meets the page, and the cell count from the numbers, which the app draws at a fixed share
/// of the cell, centred in it. Exactly one count must fit every whole number's height and
/// centre; none or several is a refusal.
pub(super) fn lattice_by_edges(img: &RgbaImage, look: &Look, area: &Component) -> Result<Located> {
    let region = area.rect();
    let refuse = |why: String| Err(Error::vision(Some(region), why));
    let Some(b) = board_by_edges(img, look, area) else {
        return refuse("no grid lines, and the board colour has no sharp edge to the page".into());
    };
    if (b.w - b.h).abs() > 2.0f64.max(0.01 * b.w) {
        return refuse(format!(
            "no grid lines, and the board colour spans {:.0}×{:.0} px: not square",
            b.w, b.h
        ));
    }
    let side = (b.w + b.h) / 2.0;
    let boxes = glyph_boxes(img, look, b);
    let height = |c: &Component| (c.y1 + 1 - c.y0) as f64;
    // The path hides part of a number it crosses, leaving shorter pieces, never taller ones.
    let tallest = boxes.iter().map(height).fold(0.0, f64::max);
    let whole: Vec<&Component> = boxes
        .iter()
        .filter(|c| height(c) >= 0.85 * tallest)
        .collect();
    if whole.is_empty() {
        return refuse("no grid lines, and no numbers to size the cells by".into());
    }
    let mut heights: Vec<f64> = whole.iter().map(|c| height(c)).collect();
    heights.sort_by(f64::total_cmp);
    let font = heights[heights.len() / 2];
    let centred = |p: f64, at: f64, from: f64| {
        let f = (at - from) / p;
        (f - f.floor() - 0.5).abs() <= CENTRE_SLACK
    };
    let fits: Vec<usize> = (MIN_CELLS..=MAX_CELLS)
        .filter(|&n| {
            let p = side / n as f64;
            FONT_SHARE.contains(&(font / p))
                && whole.iter().all(|c| {
                    centred(p, (c.x0 + c.x1) as f64 / 2.0 + 0.5, b.x)
                        && centred(p, (c.y0 + c.y1) as f64 / 2.0 + 0.5, b.y)
                })
        })
        .collect();
    let &[n] = &fits[..] else {
        return refuse(format!(
            "no grid lines, and the numbers fit {} cell counts ({fits:?}): the lattice is unsure",
            fits.len()
        ));
    };
    let pitch = side / n as f64;
    let axis = |start: f64| Axis {
        start,
        pitch,
        cells: n,
    };
    let geometry = Geometry::from_axes(axis(b.x), axis(b.y));
    if beyond_edges(img, look, geometry.board, 3.0)
        .iter()
        .any(|&k| k > EDGE_LEAK)
    {
        return refuse("the board colour goes on past the edges found".into());
    }
    Ok(Located {
        look: *look,
        geometry,
        size: n,
    })
}

/// Where the board colour starts, coming in from `outside` towards `inside`: `share(pos)` is
/// how many of 32 probes along the edge at `pos` show it. The edge is the first position where
/// half do, and it must be sharp: a quarter at most 3 px further out, three quarters 2 px in.
fn sharp_edge(share: impl Fn(i64) -> usize, outside: i64, inside: i64) -> Option<i64> {
    let dir = (inside - outside).signum();
    let mut pos = outside;
    while pos != inside {
        if share(pos) >= 16 {
            return (share(pos - 3 * dir) <= 8 && share(pos + 2 * dir) >= 24).then_some(pos);
        }
        pos += dir;
    }
    None
}

/// The board's rectangle from where its colour meets the page, near the edges of the coarse
/// `area`; probed over the middle of each side, clear of the rounded corners.
fn board_by_edges(
    img: &RgbaImage,
    look: &Look,
    area: &Component,
) -> Option<crate::rect::Rect<f64>> {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let is_board = |x: i64, y: i64| {
        x >= 0 && y >= 0 && x < w && y < h && on_board(*img.get_pixel(x as u32, y as u32), look, 1)
    };
    let probe = |k: usize| 0.2 + 0.6 * (k as f64 + 0.5) / 32.0;
    let down = |x: i64| {
        (0..32)
            .filter(|&k| is_board(x, lerp(area.y0, area.y1, probe(k)).round() as i64))
            .count()
    };
    let along = |y: i64| {
        (0..32)
            .filter(|&k| is_board(lerp(area.x0, area.x1, probe(k)).round() as i64, y))
            .count()
    };
    let reach = (2 * COARSE + 3) as i64;
    let (x0, x1, y0, y1) = (
        area.x0 as i64,
        area.x1 as i64,
        area.y0 as i64,
        area.y1 as i64,
    );
    let left = sharp_edge(down, x0 - reach, x0 + reach)?;
    let right = sharp_edge(down, x1 + reach, x1 - reach)?;
    let top = sharp_edge(along, y0 - reach, y0 + reach)?;
    let bottom = sharp_edge(along, y1 + reach, y1 - reach)?;
    // The page must be seen past each edge: the picture's own edge says nothing of where the
    // board ends (a page taken for a tinted board runs to it).
    let seen = |pos: i64, size: i64| (3..size - 3).contains(&pos);
    if !(seen(left, w) && seen(right, w) && seen(top, h) && seen(bottom, h)) {
        return None;
    }
    Some(crate::rect::Rect::new(
        left as f64 - 0.5,
        top as f64 - 0.5,
        (right - left + 1) as f64,
        (bottom - top + 1) as f64,
    ))
}

/// The number glyphs' boxes inside `b` (image pixels), found without a lattice: 8-connected
/// pieces of contrasted number ink, specks left out.
fn glyph_boxes(img: &RgbaImage, look: &Look, b: crate::rect::Rect<f64>) -> Vec<Component> {
    let x0 = b.x.max(0.0).ceil() as usize;
    let y0 = b.y.max(0.0).ceil() as usize;
    let x1 = ((b.x + b.w).floor() as usize).min(img.width() as usize);
    let y1 = ((b.y + b.h).floor() as usize).min(img.height() as usize);
    if x1 <= x0 || y1 <= y0 {
        return Vec::new();
    }
    let w = x1 - x0;
    let mask: Vec<bool> = (0..w * (y1 - y0))
        .map(|k| {
            let p = *img.get_pixel((x0 + k % w) as u32, (y0 + k / w) as u32);
            number_ink(p, look, InkRule::Contrasted)
        })
        .collect();
    components(&mask, w, Connectivity::Eight)
        .into_iter()
        .filter(|c| c.count >= 6 && c.y1 - c.y0 >= 4)
        .map(|c| Component {
            count: c.count,
            x0: c.x0 + x0,
            y0: c.y0 + y0,
            x1: c.x1 + x0,
            y1: c.y1 + y0,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::board::{board_or_grid, board_tone};
    use super::super::lattice_lines::lattice;
    use super::super::look::{DARK, LIGHT};
    use super::super::truth::shots;
    use super::*;
    use crate::vision::components::sampled_areas;
    use image::Rgba;

    /// The first position with half its probes on the board, if the page lies 3 px out and
    /// the board 2 px in; a soft ramp or a board going on outside is no edge.
    #[test]
    fn a_board_edge_must_be_sharp() {
        let step = |at: i64| move |x: i64| if x >= at { 32 } else { 0 };
        assert_eq!(sharp_edge(step(10), 0, 20), Some(10));
        assert_eq!(sharp_edge(step(10), 20, 0), None);
        assert_eq!(sharp_edge(|x: i64| 32 - step(10)(x), 20, 0), Some(9));
        let ramp = |x: i64| (x.clamp(0, 16) * 2) as usize;
        assert_eq!(sharp_edge(ramp, 0, 20), None);
        assert_eq!(sharp_edge(|_| 32, 0, 20), None);
    }

    /// A dark page with a board of `side` px at (100, 100) and number-coloured boxes 25 px
    /// tall centred at `centres`: no grid lines at all.
    fn bare_board(side: u32, centres: &[(u32, u32)]) -> RgbaImage {
        let [r, g, b] = DARK.board;
        let mut img = RgbaImage::from_pixel(side + 200, side + 200, Rgba([0x23, 0x23, 0x23, 255]));
        for y in 100..100 + side {
            for x in 100..100 + side {
                img.put_pixel(x, y, Rgba([r, g, b, 255]));
            }
        }
        let [r, g, b] = DARK.numbers[2];
        for &(cx, cy) in centres {
            for y in cy - 12..=cy + 12 {
                for x in cx - 7..=cx + 7 {
                    img.put_pixel(100 + x, 100 + y, Rgba([r, g, b, 255]));
                }
            }
        }
        img
    }

    /// With no grid lines the numbers must fit one cell count alone: one number in a corner
    /// cell fits 8 and 9 cells of a 400-px board (25 px tall is 0.50 and 0.56 of their
    /// pitches), which is refused; a second one in the middle of an 8-cell board's sixth
    /// column settles it. No numbers at all is refused too.
    #[test]
    fn a_board_without_lines_takes_its_cell_count_from_the_numbers_or_refuses() {
        let try_board = |centres: &[(u32, u32)]| {
            let img = bare_board(400, centres);
            let area = sampled_areas(img.dimensions(), COARSE, |x, y| {
                board_or_grid(&img, x, y, &DARK, |p| board_tone(p, &DARK))
            })
            .into_iter()
            .max_by_key(|c| c.count)
            .unwrap();
            assert!(lattice(&img, &DARK, &area).is_err(), "no lines to find");
            lattice_by_edges(&img, &DARK, &area)
        };
        assert!(try_board(&[]).is_err());
        assert!(try_board(&[(24, 24)]).is_err());
        let l = try_board(&[(24, 24), (275, 175)]).unwrap();
        assert_eq!(l.size, 8);
        let b = l.geometry.board;
        assert_eq!([b.x, b.y, b.w, b.h], [99.5, 99.5, 400.0, 400.0]);
    }

    /// The page must be seen past an edge: a board colour running to the picture's own edge
    /// (a page taken for a tinted board does) has no edge there, though it shows board on one
    /// side and nothing on the other. With 100 px of page around, the same board has one.
    #[test]
    fn the_pictures_own_edge_is_no_board_edge() {
        let framed = bare_board(400, &[(24, 24), (275, 175)]);
        let area = Component {
            count: 0,
            x0: 104,
            y0: 104,
            x1: 496,
            y1: 496,
        };
        assert!(board_by_edges(&framed, &DARK, &area).is_some());
        let flush = image::imageops::crop_imm(&framed, 100, 100, 400, 400).to_image();
        let area = Component {
            count: 0,
            x0: 4,
            y0: 4,
            x1: 396,
            y1: 396,
        };
        assert_eq!(board_by_edges(&flush, &DARK, &area), None);
    }

    /// Where the grid lines give the lattice, the edges and numbers give the same one; in a
    /// JPEG q20 copy of the dark theme, which keeps too few lines, they still do.
    #[test]
    fn the_board_by_edges_and_numbers_is_the_lattice_the_lines_give() {
        let Some(all) = shots() else { return };
        for s in all.iter().filter(|s| s.state != "solved") {
            let look = if s.theme == "dark" { DARK } else { LIGHT };
            let mut pictures = vec![("as captured", s.img.clone())];
            if s.theme == "dark" {
                let q20 = crate::vision::test_pictures::jpeg_copy(&s.img, 20);
                pictures.push(("JPEG q20", q20));
            }
            for (what, img) in &pictures {
                let area = sampled_areas(img.dimensions(), COARSE, |x, y| {
                    board_or_grid(img, x, y, &look, |p| board_tone(p, &look))
                })
                .into_iter()
                .max_by_key(|c| c.count)
                .unwrap();
                let l = lattice_by_edges(img, &look, &area)
                    .unwrap_or_else(|e| panic!("{} {what}: {e}", s.file));
                assert_eq!(l.size, s.size, "{} {what}", s.file);
                let b = l.geometry.board;
                for (got, want) in [b.x, b.y, b.w, b.h].iter().zip(s.board) {
                    assert!((got - want).abs() <= 4.0, "{} {what}: {b:?}", s.file);
                }
            }
        }
    }
}
