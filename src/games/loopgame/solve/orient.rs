//! The four rotations of a grid. A hint counts turns in a square block, and rotating a loop
//! keeps its turns, so a rotated puzzle has the rotated loops as its answers.

use crate::games::loopgame::model::{Cell, Puzzle};

/// Quarter turns clockwise, 0..4.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Rotation(pub u8);

impl Rotation {
    /// Where cell `[r, c]` of a `width`×`height` grid lands.
    fn apply(self, [r, c]: Cell, width: usize, height: usize) -> Cell {
        match self.0 % 4 {
            0 => [r, c],
            1 => [c, height - 1 - r],
            2 => [height - 1 - r, width - 1 - c],
            _ => [width - 1 - c, r],
        }
    }

    fn inverse(self) -> Rotation {
        Rotation((4 - self.0 % 4) % 4)
    }

    /// The rotated puzzle (width and height swap on odd turns).
    pub(super) fn puzzle(self, p: &Puzzle) -> Puzzle {
        let (w, h) = if self.0 % 2 == 1 {
            (p.rows, p.cols)
        } else {
            (p.cols, p.rows)
        };
        let mut q = Puzzle::empty(w, h);
        for r in 0..p.rows {
            for c in 0..p.cols {
                let [nr, nc] = self.apply([r, c], p.cols, p.rows);
                q.hints[nr * w + nc] = p.hints[r * p.cols + c];
            }
        }
        q
    }

    /// A cell of the rotated puzzle back in the original `p`.
    pub(super) fn back(self, cell: Cell, p: &Puzzle) -> Cell {
        let (w, h) = if self.0 % 2 == 1 {
            (p.rows, p.cols)
        } else {
            (p.cols, p.rows)
        };
        self.inverse().apply(cell, w, h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::loopgame::check::check;
    use crate::games::loopgame::generate::{generate, Hints};

    #[test]
    fn rotating_there_and_back_is_the_identity() {
        let g = generate(6, 4, &Hints::Fraction(0.5), 3).unwrap();
        for turns in 0..4 {
            let rot = Rotation(turns);
            let q = rot.puzzle(&g.puzzle);
            assert_eq!(q.cells(), g.puzzle.cells());
            for r in 0..4 {
                for c in 0..6 {
                    let there = rot.apply([r, c], 6, 4);
                    assert_eq!(rot.back(there, &g.puzzle), [r, c], "{turns} turns");
                }
            }
        }
    }

    #[test]
    fn a_rotated_answer_answers_the_rotated_puzzle() {
        let g = generate(8, 6, &Hints::Fraction(0.4), 11).unwrap();
        for turns in 0..4 {
            let rot = Rotation(turns);
            let q = rot.puzzle(&g.puzzle);
            let cycle: Vec<Cell> = g
                .solution
                .iter()
                .map(|&cell| rot.apply(cell, 8, 6))
                .collect();
            check(&q, &cycle, false).unwrap_or_else(|e| panic!("{turns} turns: {e}"));
        }
        assert_eq!(Rotation(1).puzzle(&g.puzzle).cols, 6);
    }
}
