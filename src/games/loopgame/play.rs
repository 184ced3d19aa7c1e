//! The gestures that draw a loop: taps clearing the path already drawn, then the loop as one
//! drag.

use super::model::Cycle;
use super::vision::Reading;
use crate::games::Next;
use crate::plan::{Action, Plan, FRAME_MS};
use crate::screen::{PixelPoint, Screen};
use crate::vision::color::luma;
use crate::vision::components::{components, Connectivity};
use crate::vision::probe::words;
use image::RgbaImage;

/// A tap on every cell of a path already drawn, then one drag through every cell centre of the
/// loop and back into the first cell, which is how the app closes a loop. The app takes a tap
/// (press and release in one cell) on a drawn cell as "remove this cell and its links", and
/// drops whatever is left without links; a tap on an empty cell adds nothing.
pub fn plan(reading: &Reading, cycle: &Cycle, closed: bool, screen: &Screen, plan: &mut Plan) {
    // Seen on the real app: with 2 ms between moves an 8×8 board (50 px cells) lost cells, a
    // 4×4 (100 px) did not. One move per 60 Hz frame keeps every cell.
    plan.min_step_ms = FRAME_MS;
    let centre = |[r, c]: [usize; 2]| screen.to_screen(reading.geometry.centre(r, c));
    for &cell in &reading.path {
        plan.push(
            Action::Click { at: centre(cell) },
            format!("clear the drawn path: tap ({}, {})", cell[0], cell[1]),
        );
    }
    if !closed {
        let path = cycle.iter().map(|&c| centre(c)).collect();
        plan.push(
            Action::Drag { path },
            format!(
                "a stretch of the loop: {} cells from ({}, {})",
                cycle.len(),
                cycle[0][0],
                cycle[0][1]
            ),
        );
        return;
    }
    let path = cycle
        .iter()
        .chain(cycle.first())
        .map(|&c| centre(c))
        .collect();
    plan.push(
        Action::Drag { path },
        format!(
            "the loop: {} cells, back into ({}, {})",
            cycle.len(),
            cycle[0][0],
            cycle[0][1]
        ),
    );
}

/// A hint: `links` steps of the loop in one drag, through the corner cell (0, 0), which every
/// loop through all cells turns in, from its neighbour below to its neighbour across and on
/// along the answer. Returns the cells in order and a line per link saying why it is forced.
pub fn hint(cycle: &Cycle, unique: bool, links: usize) -> (Cycle, Vec<String>) {
    let n = cycle.len();
    let link = |a: [usize; 2], b: [usize; 2]| format!("({}, {})-({}, {})", a[0], a[1], b[0], b[1]);
    let Some(corner) = cycle.iter().position(|&c| c == [0, 0]) else {
        // A loop that need not pass every cell (`--any-loop`) may miss the corner.
        let cells: Cycle = cycle.iter().take(links + 1).copied().collect();
        let lines = cells
            .windows(2)
            .map(|w| format!("{}: along the loop found", link(w[0], w[1])))
            .collect();
        return (cells, lines);
    };
    // Walk from (1, 0) through the corner to (0, 1), whichever way round the answer runs.
    let forward = cycle[(corner + n - 1) % n] == [1, 0];
    let at = |k: usize| {
        if forward {
            cycle[(corner + n - 1 + k) % n]
        } else {
            cycle[(corner + 1 + n - k % n) % n]
        }
    };
    let cells: Cycle = (0..=links.min(n - 1)).map(at).collect();
    let rest = if unique {
        "the only loop"
    } else {
        "the loop found"
    };
    let lines = cells
        .windows(2)
        .enumerate()
        .map(|(k, w)| match k {
            0 | 1 => format!("{}: the corner (0, 0) forces it", link(w[0], w[1])),
            _ => format!("{}: along {rest}", link(w[0], w[1])),
        })
        .collect();
    (cells, lines)
}
/// The Loop app's way on after a win: the win sheet's button when the sheet is up (it dismisses
/// the sheet, or goes on to the next daily level), else the New puzzle control of unlimited
/// play, the first of the three icons at the top right.
pub fn next_puzzle(r: &Reading, after: &RgbaImage) -> Next {
    if let Some(at) = sheet_button(after) {
        return Next::Click {
            at,
            what: "the win sheet's button".into(),
        };
    }
    let band = (r.geometry.board.y - TITLE_ABOVE_BOARD).clamp(0.0, TOOLBAR) as u32;
    if band < 16 || band > after.height() {
        return Next::Unknown;
    }
    let mut lumas: Vec<u8> = (0..after.width())
        .map(|x| luma(*after.get_pixel(x, band / 2)))
        .collect();
    lumas.sort_unstable();
    let background = lumas[lumas.len() / 2];
    let ink = |p: image::Rgba<u8>| (luma(p) as i32 - background as i32).abs() > 60;
    // Rows mostly of ink are a title bar above the page, not its toolbar.
    let rows: Vec<u32> = (0..band)
        .filter(|&y| {
            (0..after.width())
                .filter(|&x| ink(*after.get_pixel(x, y)))
                .count()
                * 10
                < after.width() as usize * 3
        })
        .collect();
    let half = after.width() / 2;
    let icons: Vec<(u32, u32)> = words(after, &rows, ink, ICON_GAP)
        .into_iter()
        .filter(|&(x0, _)| x0 > half)
        .collect();
    match icons.len() {
        n if n >= 3 => {
            let (x0, x1) = icons[n - 3];
            Next::Click {
                at: PixelPoint {
                    x: (x0 + x1) as f64 / 2.0,
                    y: band as f64 / 2.0,
                },
                what: "the New puzzle control".into(),
            }
        }
        _ => Next::NoneInApp(
            "no win sheet and no New puzzle control: the daily levels are done (the app's \
             unlimited play has a New puzzle control)"
                .into(),
        ),
    }
}

/// The day's title and timer sit this far above the board; the toolbar is above them.
const TITLE_ABOVE_BOARD: f64 = 50.0;
/// The toolbar's height at most, in pixels.
const TOOLBAR: f64 = 70.0;
/// An icon's strokes lie closer than this; icons lie further apart.
const ICON_GAP: usize = 8;

/// The centre of the win sheet's wide blue button, if one is on the screen.
fn sheet_button(img: &RgbaImage) -> Option<PixelPoint> {
    let w = img.width();
    let blue = |p: image::Rgba<u8>| {
        let [r, g, b, _] = p.0;
        b > 190 && r < 110 && (100..=175).contains(&g)
    };
    let mask: Vec<bool> = img.pixels().map(|p| blue(*p)).collect();
    let best = components(&mask, w as usize, Connectivity::Four)
        .into_iter()
        .filter(|c| c.x1 - c.x0 >= 80 && (20..=120).contains(&(c.y1 - c.y0)))
        .filter(|c| c.count * 10 >= (c.x1 - c.x0 + 1) * (c.y1 - c.y0 + 1) * 7)
        .max_by_key(|c| c.count)?;
    Some(PixelPoint {
        x: (best.x0 + best.x1) as f64 / 2.0,
        y: (best.y0 + best.y1) as f64 / 2.0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hint_runs_through_the_corner_whichever_way_the_loop_turns() {
        let one_way = vec![[0, 0], [0, 1], [1, 1], [1, 0]];
        let other_way = vec![[0, 0], [1, 0], [1, 1], [0, 1]];
        for cycle in [one_way, other_way] {
            let (cells, lines) = hint(&cycle, true, 2);
            assert_eq!(cells, vec![[1, 0], [0, 0], [0, 1]]);
            assert_eq!(lines.len(), 2);
            assert!(lines.iter().all(|l| l.contains("corner")), "{lines:?}");
        }
        let (cells, lines) = hint(&vec![[0, 0], [0, 1], [1, 1], [1, 0]], false, 3);
        assert_eq!(cells.len(), 4);
        assert!(lines[2].contains("the loop found"), "{lines:?}");
    }
}
