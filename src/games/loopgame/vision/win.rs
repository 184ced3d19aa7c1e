//! The win as a picture shows it: the sheet that dims a solved board (and hides its hints),
//! and a loop drawn in the win green.

use super::look::{path_ink, DARK, LIGHT};
use super::{pixel, Theme};
use crate::error::{Error, Result};
use crate::games::loopgame::model::Cell;
use crate::vision::color::{euclidean, near, rgb};
use crate::vision::geometry::Geometry;
use image::{Rgba, RgbaImage};

/// Which theme's win sheet dims the page, if one does: the sheet's card covers the middle of
/// the board and the hints with it, so nothing can be read exactly under it.
pub fn win_sheet(img: &RgbaImage) -> Option<Theme> {
    let (w, h) = (img.width(), img.height());
    if w < 8 || h < 8 {
        return None;
    }
    // The page's outer frame: a tenth in from each edge, clear of the centred board.
    let mut samples = Vec::new();
    for k in 0..64 {
        let t = k as f64 / 64.0;
        let (x, y) = ((t * w as f64) as u32, (t * h as f64) as u32);
        samples.push(*img.get_pixel(x, h / 10));
        samples.push(*img.get_pixel(x, h - 1 - h / 10));
        samples.push(*img.get_pixel(w / 10, y));
        samples.push(*img.get_pixel(w - 1 - w / 10, y));
    }
    [LIGHT, DARK].into_iter().find_map(|look| {
        let dim = samples
            .iter()
            .filter(|&&p| near(p, look.dimmed_page, 3))
            .count();
        (dim * 10 >= samples.len() * 8).then_some(look.theme)
    })
}

/// Whether the board shows `cycle` won: the app draws a won loop in the satisfied green and a
/// loop not yet won in black (light theme) or white (dark). In a narrow window the win sheet
/// rises from the bottom without dimming the page and covers the lower board, so a quarter of
/// the loop's links showing green is enough, as long as none shows the unwon ink.
pub fn shows_loop_won(img: &RgbaImage, geometry: &Geometry, theme: Theme, cycle: &[Cell]) -> bool {
    let look = match theme {
        Theme::Light => LIGHT,
        Theme::Dark => DARK,
    };
    let (mut green, mut unwon) = (0, 0);
    for (a, b) in cycle.iter().zip(cycle.iter().cycle().skip(1)) {
        let (pa, pb) = (geometry.centre(a[0], a[1]), geometry.centre(b[0], b[1]));
        let (mx, my) = ((pa.x + pb.x) / 2.0, (pa.y + pb.y) / 2.0);
        // Across the 4-px line, in case the lattice is a pixel off.
        let across = if pa.x == pb.x { (1.5, 0.0) } else { (0.0, 1.5) };
        let seen: Vec<Rgba<u8>> = [-1.0, 0.0, 1.0]
            .iter()
            .filter_map(|&k| pixel(img, mx + k * across.0, my + k * across.1))
            .collect();
        if seen
            .iter()
            .any(|&p| euclidean(rgb(p), look.numbers[0]) < 40.0)
        {
            green += 1;
        } else if seen.iter().any(|&p| path_ink(p, &look)) {
            unwon += 1;
        }
    }
    !cycle.is_empty() && unwon == 0 && green * 4 >= cycle.len()
}

pub(super) fn refuse_win_sheet(img: &RgbaImage) -> Result<()> {
    if img.width() < 8 || img.height() < 8 {
        return Err(Error::vision(
            None,
            "picture too small to hold a Loop board",
        ));
    }
    match win_sheet(img) {
        None => Ok(()),
        Some(theme) => Err(Error::vision(
            None,
            format!(
                "the win sheet (\"Perfect loop!\") dims the page and covers the board: the \
                 puzzle is solved, and its numbers are hidden ({} theme)",
                match theme {
                    Theme::Light => "light",
                    Theme::Dark => "dark",
                }
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::super::recognize;
    use super::super::truth::shots;
    use super::*;

    /// A loop drawn in the win green reads as won, also with the lower half of the board
    /// covered (the narrow window's bottom sheet); the same loop in the path's own ink does not.
    #[test]
    fn a_green_loop_is_won_and_a_black_one_is_not() {
        let Some(all) = shots() else { return };
        let s = all
            .iter()
            .find(|s| s.state == "fresh" && s.theme == "light")
            .unwrap();
        let r = recognize(&s.img).unwrap();
        let opts = crate::games::loopgame::solve::Options::default();
        let crate::solving::Outcome::Solved(crate::games::loopgame::solve::Found { cycle, .. }) =
            crate::games::loopgame::solve::solve(&r.puzzle, &opts, &Default::default())
        else {
            panic!("{}: not solved", s.file)
        };
        let draw = |ink: [u8; 3], cover: bool| {
            let mut img = s.img.clone();
            for (a, b) in cycle.iter().zip(cycle.iter().cycle().skip(1)) {
                let (pa, pb) = (r.geometry.centre(a[0], a[1]), r.geometry.centre(b[0], b[1]));
                for k in 0..=20 {
                    let t = k as f64 / 20.0;
                    let (x, y) = (pa.x + t * (pb.x - pa.x), pa.y + t * (pb.y - pa.y));
                    for d in -2..=2 {
                        let (dx, dy) = if pa.x == pb.x { (d, 0) } else { (0, d) };
                        let (px, py) = (
                            (x.round() as i32 + dx) as u32,
                            (y.round() as i32 + dy) as u32,
                        );
                        img.put_pixel(px, py, Rgba([ink[0], ink[1], ink[2], 255]));
                    }
                }
            }
            if cover {
                let b = r.geometry.board;
                let top = (b.y + b.h / 2.0) as u32;
                for y in top..img.height() {
                    for x in 0..img.width() {
                        img.put_pixel(x, y, Rgba([255, 255, 255, 255]));
                    }
                }
            }
            shows_loop_won(&img, &r.geometry, r.theme, &cycle)
        };
        assert!(draw(LIGHT.numbers[0], false));
        assert!(draw(LIGHT.numbers[0], true));
        assert!(!draw([20, 20, 20], false));
        assert!(!shows_loop_won(&s.img, &r.geometry, r.theme, &cycle));
    }
}
