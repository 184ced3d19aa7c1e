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
/// the loop's links showing green is enough, as long as none the board still shows is in the
/// unwon ink. The sheet is the board's own colour in both themes and its text is the path's
/// ink, so a link counts as shown only where the grid line it crosses is in view.
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
        } else if seen.iter().any(|&p| path_ink(p, &look))
            && grid_line_in_view(img, &look, (mx, my), across, geometry.pitch())
        {
            unwon += 1;
        }
    }
    !cycle.is_empty() && unwon == 0 && green * 4 >= cycle.len()
}

/// Whether the grid line a link crosses at `at` shows on both sides of the path, a third of a
/// cell away (clear of the 4-px path, of the numbers centred in their cells and of the path's
/// rounded corners): where the sheet covers the board its flat colour has no line.
fn grid_line_in_view(
    img: &RgbaImage,
    look: &super::look::Look,
    (x, y): (f64, f64),
    across: (f64, f64),
    pitch: f64,
) -> bool {
    // The line runs along the link's "across" direction; it is 1 px wide (2 px at a
    // fractional place, each a blend towards the board), so 3 px across it are looked at.
    let (along_x, along_y) = (across.0 / 1.5, across.1 / 1.5);
    let (step_x, step_y) = (along_y, along_x);
    let board = look.board.iter().map(|&v| v as f64).sum::<f64>() / 3.0;
    let grid = look.grid.iter().map(|&v| v as f64).sum::<f64>() / 3.0;
    let line_like = |p: Rgba<u8>| {
        let [r, g, b] = rgb(p);
        let t = ((r as f64 + g as f64 + b as f64) / 3.0 - board) / (grid - board);
        crate::vision::color::saturation([r, g, b]) <= 24 && (0.25..=1.5).contains(&t)
    };
    [-1.0, 1.0].iter().all(|&side| {
        let (cx, cy) = (
            x + side * along_x * pitch / 3.0,
            y + side * along_y * pitch / 3.0,
        );
        [-1.0, 0.0, 1.0]
            .iter()
            .any(|&k| pixel(img, cx + k * step_x, cy + k * step_y).is_some_and(line_like))
    })
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
    /// covered by the narrow window's bottom sheet (the board's colour, its text in the path's
    /// ink over links); the same loop in the path's own ink does not, covered or not.
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
                // The sheet's text, in the path's ink, where links under it would be.
                for (a, b) in cycle.iter().zip(cycle.iter().cycle().skip(1)) {
                    let (pa, pb) = (r.geometry.centre(a[0], a[1]), r.geometry.centre(b[0], b[1]));
                    let (mx, my) = ((pa.x + pb.x) / 2.0, (pa.y + pb.y) / 2.0);
                    if my as u32 > top + 2 {
                        for d in 0..9 {
                            let (x, y) = (mx as u32 + d % 3 - 1, my as u32 + d / 3 - 1);
                            img.put_pixel(x, y, Rgba([20, 20, 20, 255]));
                        }
                    }
                }
            }
            shows_loop_won(&img, &r.geometry, r.theme, &cycle)
        };
        assert!(draw(LIGHT.numbers[0], false));
        assert!(draw(LIGHT.numbers[0], true));
        assert!(!draw([20, 20, 20], false));
        assert!(!draw([20, 20, 20], true));
        assert!(!shows_loop_won(&s.img, &r.geometry, r.theme, &cycle));
    }

    /// The app's own win in a narrow window (captures): the sheet risen from the bottom, a
    /// streak line in white over links of the lower board, the loop green above it.
    #[test]
    fn the_apps_narrow_window_win_is_won() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/loop/won");
        let open = |f: &str| image::open(dir.join(f)).unwrap().to_rgba8();
        let fresh = open("loop_2026-11-28_hard_dense_dark_320x568_fresh.png");
        let won = open("loop_2026-11-28_hard_dense_dark_320x568_won.png");
        let r = recognize(&fresh).unwrap();
        let opts = crate::games::loopgame::solve::Options::default();
        let crate::solving::Outcome::Solved(crate::games::loopgame::solve::Found { cycle, .. }) =
            crate::games::loopgame::solve::solve(&r.puzzle, &opts, &Default::default())
        else {
            panic!("not solved")
        };
        assert!(win_sheet(&won).is_none());
        assert!(shows_loop_won(&won, &r.geometry, r.theme, &cycle));
        assert!(!shows_loop_won(&fresh, &r.geometry, r.theme, &cycle));
    }
}
