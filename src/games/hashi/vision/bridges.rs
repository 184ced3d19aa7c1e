//! Bridges already drawn: the lines counted across the gap between each pair of islands that
//! see each other. The web game hides a hovered bridge's count, which the islands' fills then
//! tell.

use super::sample::px;
use super::sgt_canvas::{sgt_ink, SGT_LINE, SGT_RING_OUTER};

use super::web::Fill;
use super::{Located, Style};
use crate::error::{Error, Region, Result};
use crate::games::hashi::model::{Bridge, Cell, Puzzle};
use crate::vision::color::near;
use crate::vision::runs::runs;
use image::{Rgba, RgbaImage};

/// What the lines across one gap show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Seen {
    Lines(u8),
    /// The web game's hover preview: at least one bridge, count hidden.
    Preview,
    /// Lines cross the gap in a colour no bridge has (a recoloured copy): unreadable.
    Foreign,
    /// One line across the gap, too wide for one bridge: a double bridge whose gap a
    /// resampled copy blurred shut. Its count cannot be told.
    Merged,
}

/// How wide one Bridges line may look, in pixels at `pitch`: twice its drawn width. A double
/// bridge blurred into one line is three widths wide (two lines and the gap between them, each
/// a line's width), and the ink test trims its blurred edges: 4 px at 14 px tiles, where a
/// single line shows 1 or 2.
fn widest_single_line(pitch: f64) -> f64 {
    2.0 * SGT_LINE * pitch
}

/// Counts the lines crossing the gap between two islands: perpendicular profiles at several
/// points along the gap, the fewest runs wins, since a bridge is continuous while stray marks
/// (Bridges' `x` non-bridge markers) cover only part of the gap.
pub(super) fn seen_between(img: &RgbaImage, located: &Located, a: Cell, b: Cell) -> Seen {
    let g = &located.geometry;
    let (pa, pb) = (g.centre(a.row, a.col), g.centre(b.row, b.col));
    let horizontal = a.row == b.row;
    let (along0, along1, across) = if horizontal {
        (pa.x, pb.x, pa.y)
    } else {
        (pa.y, pb.y, pa.x)
    };
    let (clear, half) = match located.style {
        Style::Sgt => (SGT_RING_OUTER * g.pitch() + 2.0, 0.45 * g.pitch()),
        Style::Web => (0.45 * g.pitch(), 0.3 * g.pitch()),
    };
    let (s0, s1) = (along0 + clear, along1 - clear);
    let positions: Vec<f64> = if s1 - s0 < 4.0 {
        vec![(along0 + along1) / 2.0]
    } else {
        (0..5)
            .map(|k| s0 + (s1 - s0) * (k as f64 + 0.5) / 5.0)
            .collect()
    };
    let profile = |at: f64, test: &dyn Fn(Rgba<u8>) -> bool| {
        let n = (2.0 * half).round() as i64;
        let v = (0..=n).map(|k| {
            let off = across - half + k as f64;
            let p = if horizontal {
                px(img, at, off)
            } else {
                px(img, off, at)
            };
            p.is_some_and(test)
        });
        // A bridge stays well inside the profile; ink at its ends is a diagonal neighbour's
        // ring reaching towards the gap.
        runs(v)
            .into_iter()
            .filter(|&(s, len)| s > 0 && s + len < n as usize + 1)
            .map(|(_, len)| len)
            .collect::<Vec<usize>>()
    };
    match located.web {
        None => {
            let lines: Vec<Vec<usize>> =
                positions.iter().map(|&at| profile(at, &sgt_ink)).collect();
            // One line too wide for a bridge is a double bridge blurred shut, or a mark over
            // the line: it tells no count, the other places along the gap do.
            let widest = widest_single_line(g.pitch());
            let telling: Vec<usize> = lines
                .iter()
                .filter(|runs| !matches!(runs[..], [len] if len as f64 > widest))
                .map(Vec::len)
                .collect();
            match telling.iter().min() {
                Some(&count) => Seen::Lines(count as u8),
                None => Seen::Merged,
            }
        }
        Some(theme) => {
            let preview = |p: Rgba<u8>| near(p, theme.preview, 60);
            if positions
                .iter()
                .all(|&at| !profile(at, &preview).is_empty())
            {
                return Seen::Preview;
            }
            let strong = |p: Rgba<u8>| near(p, theme.bridge, 60);
            let lines = positions
                .iter()
                .map(|&at| profile(at, &strong).len())
                .min()
                .unwrap_or(0);
            // Every line across the gap, whatever its colour: one that is neither surface nor
            // grid all along the gap and yet not a bridge's colour cannot be counted.
            let marked = |p: Rgba<u8>| !near(p, theme.surface, 40) && !near(p, theme.grid, 40);
            let any = positions
                .iter()
                .map(|&at| profile(at, &marked).len())
                .min()
                .unwrap_or(0);
            if any > lines {
                Seen::Foreign
            } else {
                Seen::Lines(lines as u8)
            }
        }
    }
}

/// The web game hides a hovered bridge's count; its two islands' fills (satisfied or not)
/// tell it, given every other bridge.
pub(super) fn resolve_preview(
    located: &Located,
    puzzle: &Puzzle,
    bridges: &[Bridge],
    a: Cell,
    b: Cell,
) -> Result<u8> {
    let total = |c: Cell| -> u32 {
        bridges
            .iter()
            .filter(|x| x.a == c || x.b == c)
            .map(|x| x.count as u32)
            .sum()
    };
    let fits = |c: Cell, n: u8| {
        let k = located.islands.iter().position(|f| f.at == c);
        let Some(k) = k else { return false };
        let t = total(c) + n as u32;
        let target = puzzle.islands[k].target as u32;
        match located.islands[k].fill {
            Fill::Satisfied => t == target,
            Fill::Over => t > target,
            Fill::Plain => t < target,
        }
    };
    let ok: Vec<u8> = (1..=2).filter(|&n| fits(a, n) && fits(b, n)).collect();
    match ok[..] {
        [n] => Ok(n),
        _ => {
            let g = &located.geometry;
            let (pa, pb) = (g.centre(a.row, a.col), g.centre(b.row, b.col));
            Err(Error::vision(
                Some(Region {
                    x: pa.x.min(pb.x).round() as i32,
                    y: pa.y.min(pb.y).round() as i32,
                    w: (pa.x - pb.x).abs().round().max(1.0) as i32,
                    h: (pa.y - pb.y).abs().round().max(1.0) as i32,
                }),
                "a bridge under the mouse hides its count and the islands do not tell it",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::sample::region_around;
    use super::super::truth::corpus;
    use super::super::web_theme::WEB_LIGHT;
    use super::super::{recognize, Found};
    use super::*;
    use crate::games::hashi::model::Island;
    use crate::screen::PixelPoint;
    use crate::vision::geometry::Geometry;

    #[test]
    fn a_hovered_web_bridge_takes_the_count_the_island_fills_allow() {
        let c = |row, col| Cell { row, col };
        let found = |at, fill| Found {
            at,
            glyphs: Vec::new(),
            faint: Vec::new(),
            region: region_around((0.0, 0.0), 1.0),
            fill,
        };
        let located = |fa, fb| Located {
            style: Style::Web,
            geometry: Geometry::square(
                PixelPoint { x: 10.0, y: 10.0 },
                20.0,
                crate::rect::Rect::new(0.0, 0.0, 60.0, 20.0),
            ),
            cols: 3,
            rows: 1,
            islands: vec![found(c(0, 0), fa), found(c(0, 2), fb)],
            web: Some(WEB_LIGHT),
        };
        let puzzle = Puzzle {
            cols: 3,
            rows: 1,
            max_bridges: 2,
            allow_loops: true,
            islands: vec![
                Island {
                    at: c(0, 0),
                    target: 2,
                },
                Island {
                    at: c(0, 2),
                    target: 1,
                },
            ],
        };
        let (a, b) = (c(0, 0), c(0, 2));
        // 2 is short of its number with one bridge, 1 is met: one bridge.
        let l = located(Fill::Plain, Fill::Satisfied);
        assert_eq!(resolve_preview(&l, &puzzle, &[], a, b).unwrap(), 1);
        // 2 met and 1 over: two bridges.
        let l = located(Fill::Satisfied, Fill::Over);
        assert_eq!(resolve_preview(&l, &puzzle, &[], a, b).unwrap(), 2);
        // Fills no count explains: an error, not a guess.
        let l = located(Fill::Satisfied, Fill::Satisfied);
        assert!(matches!(
            resolve_preview(&l, &puzzle, &[], a, b),
            Err(Error::Vision {
                region: Some(_),
                ..
            })
        ));
    }

    /// A web page whose bridges are drawn in a colour no theme has (a recoloured copy) is
    /// refused naming the gap, not read as a board without those bridges.
    #[test]
    fn bridges_in_a_foreign_colour_are_refused() {
        let Some(all) = corpus() else { return };
        let name = "hashi_E0150_light_1920x1080_partial.png";
        let (_, img, _) = all.iter().find(|(n, _, _)| n == name).unwrap();
        assert!(!recognize(img).unwrap().bridges.is_empty());
        let mut recoloured = img.clone();
        for p in recoloured.pixels_mut() {
            if near(*p, WEB_LIGHT.bridge, 60) {
                *p = Rgba([0x7a, 0x2b, 0x9a, 255]);
            }
        }
        let err = recognize(&recoloured).unwrap_err().to_string();
        assert!(err.contains("in a colour no bridge"), "{err}");
    }
}
