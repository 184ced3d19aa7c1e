//! The Loop puzzle as data: a W×H grid with turn-count hints, and the closed loop that answers it.

/// A cell as `[row, col]`, 0-based: the JSON form of `solve --json`'s `cycle`.
pub type Cell = [usize; 2];

/// A closed loop as its cells in order; the last cell steps back to the first.
pub type Cycle = Vec<Cell>;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Puzzle {
    pub rows: usize,
    pub cols: usize,
    /// Row-major; `Some(n)`: the loop turns in exactly `n` cells of the 3×3 block centred here.
    pub hints: Vec<Option<u8>>,
}

impl Puzzle {
    /// A grid without hints.
    pub fn empty(width: usize, height: usize) -> Puzzle {
        Puzzle {
            cols: width,
            rows: height,
            hints: vec![None; width * height],
        }
    }

    pub fn cells(&self) -> usize {
        self.cols * self.rows
    }

    pub fn hint(&self, row: usize, col: usize) -> Option<u8> {
        self.hints[row * self.cols + col]
    }

    /// The cells of the 3×3 block centred on `(row, col)`, clipped at the edges, row-major.
    pub fn block(&self, row: usize, col: usize) -> impl Iterator<Item = Cell> + '_ {
        let rows = row.saturating_sub(1)..(row + 2).min(self.rows);
        rows.flat_map(move |r| {
            (col.saturating_sub(1)..(col + 2).min(self.cols)).map(move |c| [r, c])
        })
    }

    /// How many cells the clipped block holds: the largest hint that can ever be met there.
    pub fn block_size(&self, row: usize, col: usize) -> usize {
        self.block(row, col).count()
    }

    /// Plain text rows: the hint digit, `.` elsewhere.
    pub fn rows(&self) -> Vec<String> {
        self.hints
            .chunks(self.cols)
            .map(|row| row.iter().map(|h| hint_char(*h)).collect())
            .collect()
    }

    /// How many hints the grid shows.
    pub fn hint_count(&self) -> usize {
        self.hints.iter().filter(|h| h.is_some()).count()
    }
}

fn hint_char(h: Option<u8>) -> char {
    match h {
        Some(v) => char::from_digit(v as u32, 10).unwrap_or('?'),
        None => '.',
    }
}

/// Whether the loop turns in each cell (row-major); cells off the loop do not turn.
/// Expects orthogonal steps; the checker tests that first.
pub fn turn_cells(width: usize, height: usize, cycle: &[Cell]) -> Vec<bool> {
    let mut turns = vec![false; width * height];
    let n = cycle.len();
    for (k, &[r, c]) in cycle.iter().enumerate() {
        let prev = cycle[(k + n - 1) % n];
        let next = cycle[(k + 1) % n];
        let straight = (prev[0] == r && next[0] == r) || (prev[1] == c && next[1] == c);
        turns[r * width + c] = !straight;
    }
    turns
}

/// The hints a loop would show on every cell: the turn count of each clipped 3×3 block.
pub fn hint_values(width: usize, height: usize, cycle: &[Cell]) -> Vec<u8> {
    let turns = turn_cells(width, height, cycle);
    let grid = Puzzle::empty(width, height);
    (0..width * height)
        .map(|k| {
            grid.block(k / width, k % width)
                .filter(|&[r, c]| turns[r * width + c])
                .count() as u8
        })
        .collect()
}

/// Draws the loop with one box-drawing character per cell (`─│┌┐└┘`), a space off the loop.
/// Hint digits are not drawn: every cell shows the loop's shape there.
pub fn render(width: usize, height: usize, cycle: &[Cell]) -> Vec<String> {
    let mut links = vec![0u8; width * height];
    let n = cycle.len();
    for k in 0..n {
        let [r, c] = cycle[k];
        for other in [cycle[(k + n - 1) % n], cycle[(k + 1) % n]] {
            links[r * width + c] |= match (other[0] as i64 - r as i64, other[1] as i64 - c as i64) {
                (-1, 0) => UP,
                (1, 0) => DOWN,
                (0, -1) => LEFT,
                (0, 1) => RIGHT,
                _ => 0,
            };
        }
    }
    links
        .chunks(width.max(1))
        .take(height)
        .map(|row| row.iter().map(|&l| link_char(l)).collect())
        .collect()
}

const UP: u8 = 1;
const RIGHT: u8 = 2;
const DOWN: u8 = 4;
const LEFT: u8 = 8;

fn link_char(links: u8) -> char {
    match links {
        0 => ' ',
        x if x == UP | DOWN => '│',
        x if x == LEFT | RIGHT => '─',
        x if x == DOWN | RIGHT => '┌',
        x if x == DOWN | LEFT => '┐',
        x if x == UP | RIGHT => '└',
        x if x == UP | LEFT => '┘',
        _ => '?',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 2×3 ring: every corner turns, the two middle cells run straight.
    fn ring() -> Cycle {
        vec![[0, 0], [0, 1], [0, 2], [1, 2], [1, 1], [1, 0]]
    }

    #[test]
    fn blocks_are_clipped_at_the_edges() {
        let p = Puzzle::empty(4, 3);
        assert_eq!(p.block_size(0, 0), 4);
        assert_eq!(p.block_size(0, 1), 6);
        assert_eq!(p.block_size(1, 1), 9);
        assert_eq!(p.block_size(2, 3), 4);
        assert_eq!(
            p.block(0, 3).collect::<Vec<_>>(),
            vec![[0, 2], [0, 3], [1, 2], [1, 3]]
        );
    }

    #[test]
    fn turns_and_hint_values_of_a_ring() {
        let turns = turn_cells(3, 2, &ring());
        assert_eq!(turns, vec![true, false, true, true, false, true]);
        assert_eq!(hint_values(3, 2, &ring()), vec![2, 4, 2, 2, 4, 2]);
    }

    #[test]
    fn renders_box_drawing() {
        assert_eq!(render(3, 2, &ring()), vec!["┌─┐", "└─┘"]);
        let small = vec![[0, 1], [0, 2], [1, 2], [1, 1]];
        assert_eq!(render(3, 2, &small), vec![" ┌┐", " └┘"]);
    }

    #[test]
    fn rows_show_digits_and_dots() {
        let mut p = Puzzle::empty(3, 2);
        p.hints[1] = Some(4);
        p.hints[3] = Some(0);
        assert_eq!(p.rows(), vec![".4.", "0.."]);
        assert_eq!(p.hint_count(), 2);
    }
}
