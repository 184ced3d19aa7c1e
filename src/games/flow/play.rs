//! The gestures that draw a solution: one drag per colour, from one endpoint to the other,
//! pressed on the endpoint and released on the other, through the corners of the path only
//! (the plan executor adds the moves in between).
//!
//! A tap on the endpoint a pipe grew from takes that pipe away, in Flow Free and in the web
//! clone played here. So every pipe that is not exactly its colour's solution path is tapped
//! away first, and only then are the colours drawn: a drag never has to cross a pipe that is
//! still on the board (the clone does not cut a pipe it crosses, and a pipe cleared after a
//! drag crossed it took the drag's cells with it). A pipe already right is left alone; no
//! solution path crosses it.

use super::model::{Puzzle, Solution};
use super::solve::forced;
use crate::solving::Limits;

/// One gesture: the cells it presses, turns and releases on (one cell: a tap), and a line for
/// the plan's notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stroke {
    pub flow: usize,
    /// Cell indices: the first endpoint, every corner, the last endpoint; or the one endpoint
    /// a tap clears.
    pub cells: Vec<usize>,
    pub note: String,
}

/// The strokes that turn the drawn pipes into the solution: the taps that clear wrong pipes,
/// then the drags. `drawn[f]` is colour `f`'s pipe on the board, cell by cell from the endpoint
/// it grew from (empty when none); `at` places a cell on the picture, so corners are where the
/// drawn line turns, on square and hex boards alike.
pub fn strokes(
    p: &Puzzle,
    s: &Solution,
    drawn: &[Vec<usize>],
    at: impl Fn(usize) -> (f64, f64),
) -> Vec<Stroke> {
    let cell = |k: usize| format!("({}, {})", p.cells[k].row, p.cells[k].col);
    let mine = |f: usize| drawn.get(f).map(Vec::as_slice).unwrap_or(&[]);
    let todo: Vec<usize> = (0..s.paths.len())
        .filter(|&f| !same_path(mine(f), &s.paths[f]))
        .collect();
    let mut out = Vec::new();
    for &f in &todo {
        if let Some(&start) = mine(f).first() {
            out.push(Stroke {
                flow: f,
                cells: vec![start],
                note: format!(
                    "clear {}: tap {}, where its {} of pipe begin",
                    p.flows[f].letter,
                    cell(start),
                    cells_word(mine(f).len())
                ),
            });
        }
    }
    for &f in &todo {
        let path = &s.paths[f];
        let cells = corners(path, &at);
        out.push(Stroke {
            flow: f,
            note: format!(
                "draw {}: {} from {} to {}, {} turns",
                p.flows[f].letter,
                cells_word(path.len()),
                cell(path[0]),
                cell(path[path.len() - 1]),
                cells.len().saturating_sub(2)
            ),
            cells,
        });
    }
    out
}

fn cells_word(n: usize) -> String {
    if n == 1 {
        "1 cell".into()
    } else {
        format!("{n} cells")
    }
}

/// A pipe is right when it runs through the same cells in the same order, from either end.
pub(super) fn same_path(drawn: &[usize], path: &[usize]) -> bool {
    drawn == path || drawn.iter().rev().eq(path.iter())
}

/// The path's first and last cells and every cell where it changes direction on the picture.
fn corners(path: &[usize], at: &impl Fn(usize) -> (f64, f64)) -> Vec<usize> {
    let mut out = vec![path[0]];
    for w in path.windows(3) {
        let (a, b, c) = (at(w[0]), at(w[1]), at(w[2]));
        let (u, v) = ((b.0 - a.0, b.1 - a.1), (c.0 - b.0, c.1 - b.1));
        let cross = u.0 * v.1 - u.1 * v.0;
        let dot = u.0 * v.0 + u.1 * v.1;
        let scale = (u.0.hypot(u.1) * v.0.hypot(v.1)).max(f64::MIN_POSITIVE);
        // Straight on means parallel and the same way; anything else is a turn.
        if cross.abs() > 1e-6 * scale || dot <= 0.0 {
            out.push(w[1]);
        }
    }
    if path.len() > 1 {
        out.push(path[path.len() - 1]);
    }
    out
}

/// A hint: the first `k` pipes of the answer to draw, one drag each, each drawn the same way
/// by every solution (a pipe a player could deduce; [`forced`] proves it within `limits`):
/// colours with nothing drawn yet first (so no tap to clear comes before), the shortest first
/// (the ones a player sees soonest). A pipe another solution draws differently is never
/// offered; one whose proof ran out of time only after the proven ones, and its line says so.
/// Returns what the board must then show (those pipes, every other colour as drawn) and a line
/// per pipe.
pub fn hint(
    p: &Puzzle,
    s: &Solution,
    drawn: &[Vec<usize>],
    k: usize,
    limits: &Limits,
) -> (Solution, Vec<String>) {
    let mine = |f: usize| drawn.get(f).map(Vec::as_slice).unwrap_or(&[]);
    let mut todo: Vec<usize> = (0..s.paths.len())
        .filter(|&f| !same_path(mine(f), &s.paths[f]))
        .collect();
    todo.sort_by_key(|&f| (!mine(f).is_empty(), s.paths[f].len(), f));
    let mut proven = Vec::new();
    let mut unsettled = Vec::new();
    for f in todo {
        if proven.len() == k {
            break;
        }
        match forced(p, &s.paths[f], limits) {
            Some(true) => proven.push(f),
            Some(false) => {}
            None => unsettled.push(f),
        }
    }
    let left = k - proven.len();
    let chosen = proven
        .into_iter()
        .map(|f| (f, true))
        .chain(unsettled.into_iter().take(left).map(|f| (f, false)));
    let mut partial = Solution {
        paths: (0..s.paths.len()).map(|f| mine(f).to_vec()).collect(),
    };
    let cell = |k: usize| format!("({}, {})", p.cells[k].row, p.cells[k].col);
    let lines = chosen
        .map(|(f, sure)| {
            let path = &s.paths[f];
            partial.paths[f] = path.clone();
            format!(
                "pipe {}: {} cells from {} to {}, {}",
                p.flows[f].letter,
                path.len(),
                cell(path[0]),
                cell(path[path.len() - 1]),
                if sure {
                    "the only way"
                } else {
                    "not proven the only way (out of time)"
                }
            )
        })
        .collect();
    (partial, lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flow::format::parse;
    use crate::games::flow::solve::solve;
    use crate::solving::{Limits, Outcome};

    fn solved(text: &str) -> (Puzzle, Solution) {
        let p = parse(text, "test").unwrap();
        match solve(&p, &Limits::default()) {
            Outcome::Solved(s) => (p, s),
            other => panic!("not solved: {other:?}"),
        }
    }

    fn square(p: &Puzzle) -> impl Fn(usize) -> (f64, f64) + '_ {
        |k| (p.cells[k].col as f64 * 50.0, p.cells[k].row as f64 * 50.0)
    }

    fn rc(p: &Puzzle, cells: &[usize]) -> Vec<(usize, usize)> {
        cells
            .iter()
            .map(|&k| (p.cells[k].row, p.cells[k].col))
            .collect()
    }

    #[test]
    fn one_stroke_per_colour_through_its_corners_only() {
        let (p, s) = solved("A..\n...\n..A\n");
        let st = strokes(&p, &s, &[], square(&p));
        assert_eq!(st.len(), 1);
        let path = &s.paths[0];
        let cells = &st[0].cells;
        assert_eq!(cells.first(), path.first());
        assert_eq!(cells.last(), path.last());
        // A 3×3 board covered by one path from corner to corner: every kept cell is an end or
        // a turn, and consecutive kept cells share a row or a column.
        for w in rc(&p, cells).windows(2) {
            assert!(w[0].0 == w[1].0 || w[0].1 == w[1].1, "{w:?}");
        }
        assert!(cells.len() < path.len());
        assert!(st[0]
            .note
            .starts_with("draw A: 9 cells from (0, 0) to (2, 2)"));
    }

    #[test]
    fn a_straight_path_is_pressed_and_released_only() {
        let (p, s) = solved("A.A\nB.B\n");
        let st = strokes(&p, &s, &[], square(&p));
        assert_eq!(st.len(), 2);
        for x in &st {
            assert_eq!(x.cells.len(), 2, "{:?}", rc(&p, &x.cells));
        }
    }

    #[test]
    fn a_right_pipe_is_left_alone_and_a_wrong_one_tapped_away_before_any_drag() {
        let (p, s) = solved("A.A\nB.B\nC.C\n");
        let reversed: Vec<usize> = s.paths[0].iter().rev().copied().collect();
        let last = *s.paths[1].last().unwrap();
        let st = strokes(&p, &s, &[reversed, vec![last], vec![]], square(&p));
        let kinds: Vec<(usize, usize)> = st.iter().map(|x| (x.flow, x.cells.len())).collect();
        // B's pipe grew from its far end: tapped there first; then B and C are drawn.
        assert_eq!(kinds, vec![(1, 1), (1, 2), (2, 2)]);
        assert_eq!(st[0].cells, vec![last]);
        assert!(st[0].note.starts_with("clear B: tap"), "{}", st[0].note);
        assert!(st[1].note.starts_with("draw B"), "{}", st[1].note);
    }

    #[test]
    fn a_hint_offers_no_pipe_another_solution_draws_differently() {
        // One colour across an open 3×3 board: many paths, none of them the only way.
        let (p, s) = solved("A..\n...\n..A\n");
        assert_eq!(forced(&p, &s.paths[0], &Limits::default()), Some(false));
        let (partial, lines) = hint(&p, &s, &[], 1, &Limits::default());
        assert!(lines.is_empty(), "{lines:?}");
        assert!(partial.paths[0].is_empty());
    }

    #[test]
    fn a_hint_draws_pipes_that_are_the_only_way_first_colours_first() {
        let (p, s) = solved("A.A\nB.B\nC.C\n");
        let (partial, lines) = hint(&p, &s, &[], 2, &Limits::default());
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines.iter().all(|l| l.ends_with("the only way")),
            "{lines:?}"
        );
        assert!(lines[0].starts_with("pipe A: 3 cells"), "{}", lines[0]);
        assert!(lines[1].starts_with("pipe B: 3 cells"), "{}", lines[1]);
        assert_eq!(partial.paths[0], s.paths[0]);
        assert!(partial.paths[2].is_empty());
    }

    #[test]
    fn turns_are_found_on_the_picture_so_hex_rows_count_too() {
        // Three cells on one slanted line are straight; a bend is a corner.
        let at = |k: usize| [(0.0, 0.0), (1.0, 0.5), (2.0, 1.0), (2.0, 2.0)][k];
        assert_eq!(corners(&[0, 1, 2, 3], &at), vec![0, 2, 3]);
        // Going back on itself is a turn, never a straight run.
        let back = |k: usize| [(0.0, 0.0), (1.0, 0.0), (0.0, 0.0)][k];
        assert_eq!(corners(&[0, 1, 2], &back), vec![0, 1, 2]);
    }
}
