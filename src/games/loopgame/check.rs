//! Does a loop answer a puzzle? Independent of the solver, so tests and the bench can trust it.

use super::model::{turn_cells, Cell, Puzzle};

/// Checks the rules: at least 4 cells, every cell inside the grid and visited at most once, each
/// step (including last → first) to an orthogonal neighbour, every cell visited unless
/// `any_loop`, and every hint equal to the turns of the loop in its clipped 3×3 block.
pub fn check(p: &Puzzle, cycle: &[Cell], any_loop: bool) -> Result<(), String> {
    if cycle.len() < 4 {
        return Err(format!(
            "a closed loop needs at least 4 cells, this one has {}",
            cycle.len()
        ));
    }
    let mut seen = vec![false; p.cells()];
    for &[r, c] in cycle {
        if r >= p.rows || c >= p.cols {
            return Err(format!(
                "cell [{r},{c}] lies outside the {}x{} grid",
                p.cols, p.rows
            ));
        }
        if std::mem::replace(&mut seen[r * p.cols + c], true) {
            return Err(format!("cell [{r},{c}] is visited twice"));
        }
    }
    for (k, &[r, c]) in cycle.iter().enumerate() {
        let [nr, nc] = cycle[(k + 1) % cycle.len()];
        if r.abs_diff(nr) + c.abs_diff(nc) != 1 {
            return Err(format!(
                "step from [{r},{c}] to [{nr},{nc}] is not to an orthogonal neighbour"
            ));
        }
    }
    if !any_loop {
        if let Some(k) = seen.iter().position(|s| !s) {
            return Err(format!(
                "cell [{},{}] is not on the loop (a perfect loop visits every cell)",
                k / p.cols,
                k % p.cols
            ));
        }
    }
    let turns = turn_cells(p.cols, p.rows, cycle);
    for r in 0..p.rows {
        for c in 0..p.cols {
            let Some(want) = p.hint(r, c) else { continue };
            let got = p
                .block(r, c)
                .filter(|&[br, bc]| turns[br * p.cols + bc])
                .count();
            if got != want as usize {
                return Err(format!(
                    "hint {want} at [{r},{c}] sees {got} turns in its block"
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring_puzzle() -> Puzzle {
        let mut p = Puzzle::empty(3, 2);
        p.hints[1] = Some(4);
        p
    }

    fn ring() -> Vec<Cell> {
        vec![[0, 0], [0, 1], [0, 2], [1, 2], [1, 1], [1, 0]]
    }

    #[test]
    fn accepts_a_loop_meeting_its_hint() {
        assert_eq!(check(&ring_puzzle(), &ring(), false), Ok(()));
    }

    #[test]
    fn rejects_a_wrong_hint() {
        let mut p = ring_puzzle();
        p.hints[1] = Some(3);
        let err = check(&p, &ring(), false).unwrap_err();
        assert!(err.contains("hint 3 at [0,1] sees 4"), "{err}");
    }

    #[test]
    fn rejects_uncovered_cells_only_in_perfect_mode() {
        let p = Puzzle::empty(3, 2);
        let small = vec![[0, 0], [0, 1], [1, 1], [1, 0]];
        assert!(check(&p, &small, false)
            .unwrap_err()
            .contains("[0,2] is not on the loop"));
        assert_eq!(check(&p, &small, true), Ok(()));
    }

    #[test]
    fn rejects_bad_steps_repeats_and_short_loops() {
        let p = Puzzle::empty(3, 2);
        let diagonal = vec![[0, 0], [0, 1], [1, 2], [1, 1], [1, 0]];
        assert!(check(&p, &diagonal, true)
            .unwrap_err()
            .contains("not to an orthogonal"));
        let twice = vec![[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]];
        assert!(check(&p, &twice, true)
            .unwrap_err()
            .contains("visited twice"));
        let outside = vec![[0, 0], [0, 1], [2, 1], [1, 0]];
        assert!(check(&p, &outside, true).unwrap_err().contains("outside"));
        assert!(check(&p, &[[0, 0], [0, 1]], true)
            .unwrap_err()
            .contains("at least 4"));
    }
}
