//! The drags that draw a solution: one per colour, from one endpoint to the other, pressed on
//! the endpoint and released on the other, through the corners of the path only (the plan
//! executor adds the moves in between).
//!
//! Flow Free, and the web clone played here, start a colour afresh when a drag begins on one of
//! its endpoints: whatever that colour had drawn goes. So a colour whose drawn pipe is not
//! exactly its solution path is simply drawn again, and one that already is, is left alone. A
//! redrawn colour may cut through another colour's wrong pipe; that colour is wrong too, so it
//! is redrawn in its turn, and a right pipe never lies in another solution path's way.

use super::model::{Puzzle, Solution};

/// One drag: the cells it presses, turns and releases on, and a line for the plan's notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stroke {
    pub flow: usize,
    /// Cell indices: the first endpoint, every corner, the last endpoint.
    pub cells: Vec<usize>,
    pub note: String,
}

/// The strokes that turn the drawn pipes into the solution. `drawn[f]` is colour `f`'s pipe on
/// the board, cell by cell from one of its endpoints (empty when none); `at` places a cell on
/// the picture, so corners are where the drawn line turns, on square and hex boards alike.
pub fn strokes(
    p: &Puzzle,
    s: &Solution,
    drawn: &[Vec<usize>],
    at: impl Fn(usize) -> (f64, f64),
) -> Vec<Stroke> {
    let mut out = Vec::new();
    for (f, path) in s.paths.iter().enumerate() {
        let mine = drawn.get(f).map(Vec::as_slice).unwrap_or(&[]);
        if same_path(mine, path) {
            continue;
        }
        // Start where the drawn pipe starts: pressing the endpoint a pipe grew from takes the
        // whole colour back in every version of the game.
        let from_end = mine.first().is_some_and(|&c| Some(&c) == path.last());
        let path: Vec<usize> = if from_end {
            path.iter().rev().copied().collect()
        } else {
            path.clone()
        };
        let path = &path;
        let cells = corners(path, &at);
        let cell = |k: usize| format!("({}, {})", p.cells[k].row, p.cells[k].col);
        let note = format!(
            "{} {}: {} from {} to {}, {} turns{}",
            if mine.is_empty() { "draw" } else { "redraw" },
            p.flows[f].letter,
            cells_word(path.len()),
            cell(path[0]),
            cell(path[path.len() - 1]),
            cells.len().saturating_sub(2),
            if mine.is_empty() {
                String::new()
            } else {
                format!(" (the board shows {} that differ)", cells_word(mine.len()))
            }
        );
        out.push(Stroke {
            flow: f,
            cells,
            note,
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
fn same_path(drawn: &[usize], path: &[usize]) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::flow::format::parse;
    use crate::games::flow::solve::{solve, Limits, Outcome};

    fn solved(text: &str) -> (Puzzle, Solution) {
        let p = parse(text, "test").unwrap();
        match solve(&p, &Limits { deadline: None }) {
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
    fn a_right_pipe_is_left_alone_and_a_wrong_one_redrawn() {
        let (p, s) = solved("A.A\nB.B\n");
        let reversed: Vec<usize> = s.paths[0].iter().rev().copied().collect();
        let wrong = vec![s.paths[1][0]];
        let st = strokes(&p, &s, &[reversed, wrong], square(&p));
        assert_eq!(st.len(), 1);
        assert_eq!(st[0].flow, 1);
        assert!(st[0].note.starts_with("redraw B"), "{}", st[0].note);
    }

    #[test]
    fn a_redraw_starts_at_the_endpoint_the_drawn_pipe_grew_from() {
        let (p, s) = solved("A.A\nB.B\n");
        let last = *s.paths[1].last().unwrap();
        let st = strokes(&p, &s, &[vec![], vec![last]], square(&p));
        assert_eq!(st.len(), 2);
        assert_eq!(st[1].cells.first(), Some(&last));
        assert_eq!(st[1].cells.last(), s.paths[1].first());
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
