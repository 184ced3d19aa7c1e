//! Turning a solution into gestures for the app that drew the board, and checking the result.
//!
//! A bridge is a drag. The Bridges app (GTK) was seen to drop about half the drags whose first
//! move came 10 ms after the press, and none at 18 ms: the shared pacing's pause after a press
//! (a frame and a half, `Pacing::press_ms`) is what keeps them.

use super::model::{Bridge, Cell, Puzzle};
use super::solve::{self, Found};
use super::vision::{Reading, Style};
use crate::error::{Error, Result};
use crate::games::Next;
use crate::plan::{Action, Plan};
use crate::screen::{PixelPoint, Screen, ScreenPoint};
use crate::vision::probe::words;
use std::collections::BTreeMap;

/// One pair of islands whose bridge count must change, and how many app steps that takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Change {
    a: Cell,
    b: Cell,
    from: u8,
    to: u8,
    /// Both apps cycle 0 → 1 → … → max → 0, one step per gesture.
    steps: u8,
}

/// The pairs to change, removals first: a bridge that is on the board but not in the
/// solution may block (cross) one that must be added.
fn changes(puzzle: &Puzzle, drawn: &[Bridge], target: &[Bridge]) -> Vec<Change> {
    let mut counts: BTreeMap<(Cell, Cell), (u8, u8)> = BTreeMap::new();
    for b in drawn {
        counts.entry((b.a, b.b)).or_default().0 = b.count;
    }
    for b in target {
        counts.entry((b.a, b.b)).or_default().1 = b.count;
    }
    let cycle = puzzle.max_bridges + 1;
    let mut out: Vec<Change> = counts
        .into_iter()
        .filter(|(_, (from, to))| from != to)
        .map(|((a, b), (from, to))| Change {
            a,
            b,
            from,
            to,
            steps: (to + cycle - from) % cycle,
        })
        .collect();
    out.sort_by_key(|c| (c.to >= c.from, c.a, c.b));
    out
}

fn describe(c: &Change) -> String {
    format!(
        "bridge ({},{})-({},{}) {}→{}",
        c.a.row, c.a.col, c.b.row, c.b.col, c.from, c.to
    )
}

/// Plans the moves that take the board from what `reading` shows to `target`, for `puzzle`
/// (the one read, with the bridge limit it was solved with).
pub fn plan(
    reading: &Reading,
    puzzle: &Puzzle,
    target: &[Bridge],
    screen: &Screen,
) -> Result<Plan> {
    let g = &reading.geometry;
    let mut plan = Plan::new(screen.rect_to_screen(g.board));
    let at = |c: Cell| screen.to_screen(g.centre(c.row, c.col));
    let todo = changes(puzzle, &reading.bridges, target);
    match reading.style {
        Style::Sgt => {
            // A press and release on one island toggles its "done" mark, so every gesture is
            // a drag from one island centre to the other.
            for c in &todo {
                for k in 0..c.steps {
                    plan.push(
                        Action::Drag {
                            path: vec![at(c.a), at(c.b)],
                        },
                        format!("{} (drag {} of {})", describe(c), k + 1, c.steps),
                    );
                }
            }
        }
        Style::Web => plan_web_clicks(reading, &todo, &at, screen, &mut plan)?,
    }
    Ok(plan)
}

/// The web game keeps the last clicked island selected, and a click on an island that sees
/// the selected one cycles their edge. So a pair of clicks is only safe when the selection is
/// known: we track it, and clear it with a click on a cell no edge passes over when needed.
fn plan_web_clicks(
    reading: &Reading,
    todo: &[Change],
    at: &dyn Fn(Cell) -> ScreenPoint,
    screen: &Screen,
    plan: &mut Plan,
) -> Result<()> {
    let pairs = reading.puzzle.neighbour_pairs();
    let sees = |x: Cell, y: Cell| {
        let key = if x < y { (x, y) } else { (y, x) };
        pairs.binary_search(&key).is_ok()
    };
    let mut selected: Option<Cell> = None;
    for c in todo {
        let (first, second) = match selected {
            None => (c.a, c.b),
            Some(s) if s == c.a => (c.a, c.b),
            Some(s) if s == c.b => (c.b, c.a),
            Some(s) if !sees(s, c.a) => (c.a, c.b),
            Some(s) if !sees(s, c.b) => (c.b, c.a),
            Some(_) => {
                let free = clear_point(reading).ok_or_else(|| {
                    Error::Guard(
                        "no empty cell off every bridge line to clear the selection on".into(),
                    )
                })?;
                plan.push(
                    Action::Click {
                        at: screen.to_screen(free),
                    },
                    "clear the selection",
                );
                (c.a, c.b)
            }
        };
        // Clicking the already selected island again would only re-select it.
        if selected != Some(first) {
            plan.push(
                Action::Click { at: at(first) },
                format!("{}: select", describe(c)),
            );
        }
        let mut from = first;
        let mut to = second;
        for k in 0..c.steps {
            plan.push(
                Action::Click { at: at(to) },
                format!("{} (step {} of {})", describe(c), k + 1, c.steps),
            );
            std::mem::swap(&mut from, &mut to);
        }
        selected = Some(from);
    }
    Ok(())
}

/// The centre of an empty cell that lies on no line between two islands that see each other:
/// a click there clears the web game's selection and changes nothing else.
fn clear_point(reading: &Reading) -> Option<PixelPoint> {
    let p = &reading.puzzle;
    let pairs = p.neighbour_pairs();
    let on_a_line = |r: usize, col: usize| {
        pairs.iter().any(|(a, b)| {
            (a.row == b.row && a.row == r && a.col < col && col < b.col)
                || (a.col == b.col && a.col == col && a.row < r && r < b.row)
        })
    };
    (0..p.rows)
        .flat_map(|r| (0..p.cols).map(move |c| (r, c)))
        .find(|&(r, c)| p.island_at(Cell { row: r, col: c }).is_none() && !on_a_line(r, c))
        .map(|(r, c)| reading.geometry.centre(r, c))
}

/// Differences between a board read after play and the solution, one line each.
pub fn differences(after: &Reading, puzzle: &Puzzle, target: &[Bridge]) -> Vec<String> {
    let mut out = Vec::new();
    if after.puzzle.islands != puzzle.islands {
        out.push("the islands read after play differ from those read before".to_string());
        return out;
    }
    for c in changes(puzzle, &after.bridges, target) {
        out.push(format!(
            "bridge ({},{})-({},{}): board shows {}, solution has {}",
            c.a.row, c.a.col, c.b.row, c.b.col, c.from, c.to
        ));
    }
    out
}

/// A hint: the first `k` bridges a player could deduce from the board, one bridge each, found
/// by the rules' reasoning alone on the board as drawn and again after each (`solve::deduced`).
/// Returns the bridges the board must then show, and a line per bridge; fewer than `k` when
/// reasoning alone stops there, none when the board already shows the answer.
pub fn hint(p: &Puzzle, drawn: &[Bridge], s: &Found, k: usize) -> Result<(Found, Vec<String>)> {
    let mut board: BTreeMap<(Cell, Cell), u8> =
        drawn.iter().map(|b| ((b.a, b.b), b.count)).collect();
    let answer: BTreeMap<(Cell, Cell), u8> =
        s.bridges.iter().map(|b| ((b.a, b.b), b.count)).collect();
    let mut lines = Vec::new();
    while lines.len() < k && board != answer {
        let now: Vec<Bridge> = board
            .iter()
            .map(|(&(a, b), &c)| Bridge::new(a, b, c))
            .collect();
        let Some(next) = solve::deduced(p, &now).into_iter().next() else {
            break;
        };
        let count = board.entry((next.a, next.b)).or_default();
        *count += 1;
        if answer.get(&(next.a, next.b)).copied().unwrap_or(0) < *count {
            return Err(Error::Verify(format!(
                "--moves: the bridges drawn contradict the answer near ({},{})-({},{}): take \
                 them away, or play the whole answer",
                next.a.row, next.a.col, next.b.row, next.b.col
            )));
        }
        lines.push(format!(
            "bridge ({},{})-({},{}): number {} of the {} the rules force there",
            next.a.row, next.a.col, next.b.row, next.b.col, *count, next.count
        ));
    }
    if lines.is_empty() && board != answer {
        return Err(Error::Verify(
            "--moves: no bridge follows from this board by the rules alone; it needs a trial \
             (play the whole answer, or add a bridge yourself)"
                .into(),
        ));
    }
    let bridges = board
        .into_iter()
        .filter(|&(_, c)| c > 0)
        .map(|((a, b), c)| Bridge::new(a, b, c))
        .collect();
    Ok((
        Found {
            bridges,
            unique: s.unique,
        },
        lines,
    ))
}

/// The Bridges app's next puzzle is Game ▸ New game: the first word of the menu bar above the
/// board, and the first item of its menu. A web page's look has no known control.
pub fn next_puzzle(r: &Reading, after: &image::RgbaImage) -> Next {
    if r.style != Style::Sgt {
        return Next::Unknown;
    }
    let bar_bottom = (r.geometry.board.y - 1.0).floor().max(0.0) as u32;
    if bar_bottom < 8 || bar_bottom > after.height() {
        return Next::Unknown;
    }
    let dark = |p: image::Rgba<u8>| crate::vision::color::luma(p) < 100;
    match words(
        after,
        &(0..bar_bottom).collect::<Vec<_>>(),
        dark,
        MENU_LETTER_GAP,
    )
    .first()
    {
        Some(&(x0, x1)) => Next::MenuFirstItem {
            label: PixelPoint {
                x: (x0 + x1) as f64 / 2.0,
                y: bar_bottom as f64 / 2.0,
            },
            what: "the Game menu".into(),
        },
        None => Next::Unknown,
    }
}

/// Letters of one menu word lie closer than this (pixels); words lie further apart.
const MENU_LETTER_GAP: usize = 5;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hashi::model::small_board;
    use crate::input::{Event, Recorder};
    use crate::plan::{execute, Pacing};
    use crate::vision::geometry::Geometry;

    fn cell(row: usize, col: usize) -> Cell {
        Cell { row, col }
    }

    /// 2 . 2
    /// . . .
    /// 1 . 1   solved by a U: (0,0)-(0,2), (0,0)-(2,0), (0,2)-(2,2), one bridge each.
    fn reading(style: Style, drawn: Vec<Bridge>) -> Reading {
        Reading {
            puzzle: small_board(&[(0, 0, 2), (0, 2, 2), (2, 0, 1), (2, 2, 1)]),
            bridges: drawn,
            geometry: Geometry::square(
                PixelPoint { x: 50.0, y: 50.0 },
                40.0,
                crate::rect::Rect::new(20.0, 20.0, 140.0, 140.0),
            ),
            style,
            confidence: 1.0,
        }
    }

    fn solution() -> Vec<Bridge> {
        vec![
            Bridge::new(cell(0, 0), cell(0, 2), 1),
            Bridge::new(cell(0, 0), cell(2, 0), 1),
            Bridge::new(cell(0, 2), cell(2, 2), 1),
        ]
    }

    fn screen() -> Screen {
        Screen {
            image: image::RgbaImage::new(200, 200),
            origin: ScreenPoint { x: 1000, y: 500 },
            scale: 1.0,
            label: "test".into(),
        }
    }

    /// Replays recorded web clicks with the web game's selection rules.
    fn simulate_web(r: &Reading, events: &[Event]) -> BTreeMap<(Cell, Cell), u8> {
        let pairs = r.puzzle.neighbour_pairs();
        let mut counts = BTreeMap::new();
        for b in &r.bridges {
            counts.insert((b.a, b.b), b.count);
        }
        let mut selected: Option<Cell> = None;
        for e in events {
            let Event::Press { x, y } = e else { continue };
            let col = ((*x - 1000) as f64 - 50.0) / 40.0;
            let row = ((*y - 500) as f64 - 50.0) / 40.0;
            let c = cell(row.round() as usize, col.round() as usize);
            if r.puzzle.island_at(c).is_none() {
                selected = None;
                continue;
            }
            if let Some(s) = selected {
                let key = if s < c { (s, c) } else { (c, s) };
                if pairs.contains(&key) {
                    let n = counts.entry(key).or_insert(0);
                    *n = (*n + 1) % 3;
                }
            }
            selected = Some(c);
        }
        counts.retain(|_, n| *n > 0);
        counts
    }

    #[test]
    fn sgt_plan_is_drags_only_removing_wrong_bridges_first() {
        let drawn = vec![Bridge::new(cell(2, 0), cell(2, 2), 1)];
        let r = reading(Style::Sgt, drawn);
        let p = plan(&r, &r.puzzle, &solution(), &screen()).unwrap();
        assert!(p.actions.iter().all(|a| matches!(a, Action::Drag { .. })));
        // (2,0)-(2,2) from 1 to 0 takes two steps round the cycle, then three additions.
        assert_eq!(p.actions.len(), 5);
        assert_eq!(
            p.actions[0],
            Action::Drag {
                path: vec![
                    ScreenPoint { x: 1050, y: 630 },
                    ScreenPoint { x: 1130, y: 630 }
                ]
            }
        );
        p.check_inside_board().unwrap();
    }

    #[test]
    fn web_clicks_replayed_by_the_games_rules_give_the_solution() {
        let drawn = vec![
            Bridge::new(cell(0, 0), cell(0, 2), 2),
            Bridge::new(cell(2, 0), cell(2, 2), 1),
        ];
        let r = reading(Style::Web, drawn);
        let p = plan(&r, &r.puzzle, &solution(), &screen()).unwrap();
        assert!(p.actions.iter().all(|a| matches!(a, Action::Click { .. })));
        let mut rec = Recorder::new(ScreenPoint { x: 900, y: 900 }, (1920, 1080));
        execute(&p, &mut rec, Pacing::default()).unwrap();
        let want: BTreeMap<_, _> = solution().iter().map(|b| ((b.a, b.b), b.count)).collect();
        assert_eq!(simulate_web(&r, &rec.events), want);
    }

    #[test]
    fn a_solved_board_needs_nothing_and_verifies_clean() {
        let r = reading(Style::Sgt, solution());
        assert!(plan(&r, &r.puzzle, &solution(), &screen())
            .unwrap()
            .actions
            .is_empty());
        assert!(differences(&r, &r.puzzle, &solution()).is_empty());
        let r2 = reading(Style::Sgt, vec![]);
        assert_eq!(differences(&r2, &r.puzzle, &solution()).len(), 3);
    }
}
