//! The Hashi puzzle as data: islands on a grid, bridges between them.

use serde::Serialize;

/// A grid cell, 0-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Cell {
    pub row: usize,
    pub col: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Island {
    pub at: Cell,
    /// How many bridges end here (1..=4*max_bridges).
    pub target: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Puzzle {
    pub rows: usize,
    pub cols: usize,
    /// Most bridges allowed between one pair of islands (2 in the classic game).
    pub max_bridges: u8,
    /// False when the `L` rule forbids any cycle of bridges.
    pub allow_loops: bool,
    /// Row-major order (by row, then column).
    pub islands: Vec<Island>,
}

/// `count` bridges between two islands in one row or column; `a` < `b` in row-major order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bridge {
    pub a: Cell,
    pub b: Cell,
    pub count: u8,
}

impl Bridge {
    /// Builds a bridge with its ends in row-major order.
    pub fn new(p: Cell, q: Cell, count: u8) -> Bridge {
        let (a, b) = if p <= q { (p, q) } else { (q, p) };
        Bridge { a, b, count }
    }

    pub fn is_horizontal(&self) -> bool {
        self.a.row == self.b.row
    }

    /// `[r1, c1, r2, c2, count]`, the JSON form used by `scan` and `solve`.
    pub fn to_array(&self) -> [usize; 5] {
        [
            self.a.row,
            self.a.col,
            self.b.row,
            self.b.col,
            self.count as usize,
        ]
    }
}

/// A full assignment: every bridge with count > 0, sorted.
pub type Bridges = Vec<Bridge>;

impl Puzzle {
    pub fn island_at(&self, c: Cell) -> Option<&Island> {
        self.islands
            .binary_search_by(|i| i.at.cmp(&c))
            .ok()
            .map(|k| &self.islands[k])
    }

    /// Plain text rows: a digit (or letter above 9) per island, `.` elsewhere.
    pub fn rows(&self) -> Vec<String> {
        let mut grid = vec![vec!['.'; self.cols]; self.rows];
        for i in &self.islands {
            grid[i.at.row][i.at.col] = target_char(i.target);
        }
        grid.into_iter().map(|r| r.into_iter().collect()).collect()
    }
}

/// `1`..`9`, then `A` for 10, `B` for 11 … (only with large maxima).
pub fn target_char(t: u8) -> char {
    if t < 10 {
        (b'0' + t) as char
    } else {
        (b'A' + (t - 10)) as char
    }
}

/// Draws bridges into text rows the way the Bridges app's Game ▸ Copy does:
/// `-` `=` single/double horizontal, `|` `"` single/double vertical (3+ as `#` and `H`).
pub fn render(p: &Puzzle, bridges: &[Bridge]) -> Vec<String> {
    let mut grid: Vec<Vec<char>> = p.rows().into_iter().map(|r| r.chars().collect()).collect();
    for b in bridges {
        let ch = match (b.is_horizontal(), b.count) {
            (_, 0) => continue,
            (true, 1) => '-',
            (true, 2) => '=',
            (true, _) => '#',
            (false, 1) => '|',
            (false, 2) => '"',
            (false, _) => 'H',
        };
        if b.is_horizontal() {
            grid[b.a.row][b.a.col + 1..b.b.col].fill(ch);
        } else {
            for row in &mut grid[b.a.row + 1..b.b.row] {
                row[b.a.col] = ch;
            }
        }
    }
    grid.into_iter().map(|r| r.into_iter().collect()).collect()
}

impl Puzzle {
    /// Every pair of islands that see each other (same row or column, nothing between),
    /// each once, `(a, b)` in row-major order: the places a bridge may go.
    pub fn neighbour_pairs(&self) -> Vec<(Cell, Cell)> {
        let mut pairs = Vec::new();
        let mut below: Vec<Option<Cell>> = vec![None; self.cols];
        // Islands are row-major, so walking backwards meets each island's right and lower
        // neighbours before the island itself.
        let mut right: Option<Cell> = None;
        for isl in self.islands.iter().rev() {
            let c = isl.at;
            if right.is_some_and(|r| r.row != c.row) {
                right = None;
            }
            if let Some(r) = right {
                pairs.push((c, r));
            }
            if let Some(b) = below[c.col] {
                pairs.push((c, b));
            }
            right = Some(c);
            below[c.col] = Some(c);
        }
        pairs.sort();
        pairs
    }
}

/// A 3×3 test board, up to two bridges a pair, with islands `(row, col, target)`.
#[cfg(test)]
pub fn small_board(islands: &[(usize, usize, u8)]) -> Puzzle {
    let mut islands: Vec<Island> = islands
        .iter()
        .map(|&(row, col, target)| Island {
            at: Cell { row, col },
            target,
        })
        .collect();
    islands.sort_by_key(|i| i.at);
    Puzzle {
        cols: 3,
        rows: 3,
        max_bridges: 2,
        allow_loops: true,
        islands,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(row: usize, col: usize) -> Cell {
        Cell { row, col }
    }

    #[test]
    fn neighbour_pairs_skip_blocked_lines() {
        // 1 . 2
        // . . .
        // 3 . 4   plus an island between (0,0) and (2,0)? none: (1,0) empty.
        let p = small_board(&[(0, 0, 1), (0, 2, 2), (2, 0, 3), (2, 2, 4), (2, 1, 1)]);
        assert_eq!(
            p.neighbour_pairs(),
            vec![
                (cell(0, 0), cell(0, 2)),
                (cell(0, 0), cell(2, 0)),
                (cell(0, 2), cell(2, 2)),
                (cell(2, 0), cell(2, 1)),
                (cell(2, 1), cell(2, 2)),
            ]
        );
    }

    #[test]
    fn renders_bridges_like_the_apps_copy_text() {
        let p = small_board(&[(0, 0, 3), (0, 2, 2), (2, 0, 1)]);
        let rows = render(
            &p,
            &[
                Bridge::new(cell(0, 2), cell(0, 0), 2),
                Bridge::new(cell(0, 0), cell(2, 0), 1),
            ],
        );
        assert_eq!(rows, vec!["3=2", "|..", "1.."]);
    }
}
