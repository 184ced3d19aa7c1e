//! Flow Free as one cell graph. Square, rectangular, holed, walled, bridged, hex and warped
//! boards differ only in which cells exist and which links join them, so the solver, the
//! validator and the renderers never ask which variant they hold.

use std::collections::BTreeSet;

/// How the board is drawn; the graph alone decides the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    Standard,
    Bridges,
    Hex,
    Warps,
}

impl Variant {
    /// The seed format's header word.
    pub fn keyword(self) -> &'static str {
        match self {
            Variant::Standard => "STANDARD",
            Variant::Bridges => "BRIDGES",
            Variant::Hex => "HEX",
            Variant::Warps => "WARPS",
        }
    }
}

/// Which way a link leaves a cell. A bridge pairs its `Row` links and its `Column` links, so
/// a path crosses it straight through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Axis {
    Row,
    Column,
    Diagonal,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cell {
    pub row: usize,
    pub col: usize,
    /// Crossed twice, once along each axis, and never an endpoint.
    pub bridge: bool,
}

/// Two neighbouring cells a path may step between, `a < b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Link {
    pub a: usize,
    pub b: usize,
    pub axis: Axis,
}

/// One colour: its letter as the puzzle wrote it and its two endpoint cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Flow {
    pub letter: char,
    pub ends: [usize; 2],
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    pub variant: Variant,
    /// Bounding box of the cells' grid positions.
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Cell>,
    /// Sorted, no duplicates.
    pub links: Vec<Link>,
    pub flows: Vec<Flow>,
    /// Grid position → cell index.
    at: Vec<Option<usize>>,
    /// Cell → indices into `links`.
    incident: Vec<Vec<usize>>,
}

/// One path per flow, in `Puzzle::flows` order, as cell indices from `ends[0]` to `ends[1]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    pub paths: Vec<Vec<usize>>,
}

/// Why a board cannot be built; the formats turn it into a positioned parse error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    EndpointOnBridge { letter: char, cell: usize },
    SharedEndpoint { cell: usize },
    SelfLink { cell: usize },
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::EndpointOnBridge { letter, cell } => {
                write!(f, "endpoint {letter} sits on bridge cell {cell}")
            }
            BuildError::SharedEndpoint { cell } => {
                write!(f, "two endpoints on cell {cell}")
            }
            BuildError::SelfLink { cell } => write!(f, "cell {cell} linked to itself"),
        }
    }
}

/// Collects cells, links and flows in any order; `finish` checks and indexes them.
#[derive(Debug, Clone)]
pub struct Builder {
    variant: Variant,
    cells: Vec<Cell>,
    links: BTreeSet<Link>,
    flows: Vec<Flow>,
}

impl Builder {
    pub fn new(variant: Variant) -> Builder {
        Builder {
            variant,
            cells: Vec::new(),
            links: BTreeSet::new(),
            flows: Vec::new(),
        }
    }

    pub fn cell(&mut self, row: usize, col: usize, bridge: bool) -> usize {
        self.cells.push(Cell { row, col, bridge });
        self.cells.len() - 1
    }

    pub fn link(&mut self, p: usize, q: usize, axis: Axis) -> Result<(), BuildError> {
        if p == q {
            return Err(BuildError::SelfLink { cell: p });
        }
        let (a, b) = if p < q { (p, q) } else { (q, p) };
        self.links.insert(Link { a, b, axis });
        Ok(())
    }

    pub fn flow(&mut self, letter: char, ends: [usize; 2]) {
        self.flows.push(Flow { letter, ends });
    }

    pub fn finish(self) -> Result<Puzzle, BuildError> {
        let rows = self.cells.iter().map(|c| c.row + 1).max().unwrap_or(0);
        let cols = self.cells.iter().map(|c| c.col + 1).max().unwrap_or(0);
        let mut at = vec![None; rows * cols];
        for (k, c) in self.cells.iter().enumerate() {
            at[c.row * cols + c.col] = Some(k);
        }
        let mut used = vec![false; self.cells.len()];
        for f in &self.flows {
            for &e in &f.ends {
                if self.cells[e].bridge {
                    return Err(BuildError::EndpointOnBridge {
                        letter: f.letter,
                        cell: e,
                    });
                }
                if std::mem::replace(&mut used[e], true) {
                    return Err(BuildError::SharedEndpoint { cell: e });
                }
            }
        }
        let links: Vec<Link> = self.links.into_iter().collect();
        let mut incident = vec![Vec::new(); self.cells.len()];
        for (k, l) in links.iter().enumerate() {
            incident[l.a].push(k);
            incident[l.b].push(k);
        }
        Ok(Puzzle {
            variant: self.variant,
            rows,
            cols,
            cells: self.cells,
            links,
            flows: self.flows,
            at,
            incident,
        })
    }
}

impl Puzzle {
    /// The cell at a grid position, if the board has one there.
    pub fn cell_at(&self, row: usize, col: usize) -> Option<usize> {
        if row < self.rows && col < self.cols {
            self.at[row * self.cols + col]
        } else {
            None
        }
    }

    /// Indices into `links` of the links at a cell.
    pub fn links_at(&self, cell: usize) -> &[usize] {
        &self.incident[cell]
    }

    /// The link joining two cells, if any.
    pub fn link_between(&self, p: usize, q: usize) -> Option<&Link> {
        self.incident[p]
            .iter()
            .map(|&k| &self.links[k])
            .find(|l| (l.a == p && l.b == q) || (l.a == q && l.b == p))
    }

    /// The flow ending on a cell, if any.
    pub fn flow_at(&self, cell: usize) -> Option<usize> {
        self.flows.iter().position(|f| f.ends.contains(&cell))
    }
}

/// A rectangular board as the app's level packs and mzucker's files describe it.
#[derive(Debug, Clone, Default)]
pub struct GridSpec {
    pub rows: usize,
    pub cols: usize,
    /// Row-major indices `row * cols + col`.
    pub holes: Vec<usize>,
    pub bridges: Vec<usize>,
    /// Pairs of row-major indices with no move between them.
    pub walls: Vec<(usize, usize)>,
    /// Hex: even columns (0-based) also touch the two cells beside them one row down, odd
    /// columns the two one row up.
    pub hex: bool,
    /// Warps: the board wraps around both ways.
    pub torus: bool,
    /// Endpoints as row-major index pairs.
    pub flows: Vec<(char, [usize; 2])>,
}

impl GridSpec {
    pub fn variant(&self) -> Variant {
        if self.hex {
            Variant::Hex
        } else if self.torus {
            Variant::Warps
        } else if !self.bridges.is_empty() {
            Variant::Bridges
        } else {
            Variant::Standard
        }
    }

    /// The cell graph; indices in `holes`, `walls` and `flows` must lie inside the grid.
    pub fn build(&self) -> Result<Puzzle, BuildError> {
        let (h, w) = (self.rows, self.cols);
        let mut b = Builder::new(self.variant());
        let mut index = vec![None; h * w];
        let mut hole = vec![false; h * w];
        for &k in &self.holes {
            hole[k] = true;
        }
        let mut bridge = vec![false; h * w];
        for &k in &self.bridges {
            bridge[k] = true;
        }
        for (k, slot) in index.iter_mut().enumerate() {
            if !hole[k] {
                *slot = Some(b.cell(k / w, k % w, bridge[k]));
            }
        }
        let walls: BTreeSet<(usize, usize)> = self
            .walls
            .iter()
            .map(|&(p, q)| (p.min(q), p.max(q)))
            .collect();
        let join = |b: &mut Builder, p: usize, q: usize, axis: Axis| -> Result<(), BuildError> {
            if walls.contains(&(p.min(q), p.max(q))) {
                return Ok(());
            }
            if let (Some(x), Some(y)) = (index[p], index[q]) {
                if x != y {
                    b.link(x, y, axis)?;
                }
            }
            Ok(())
        };
        for r in 0..h {
            for c in 0..w {
                let k = r * w + c;
                if c + 1 < w {
                    join(&mut b, k, k + 1, Axis::Row)?;
                } else if self.torus && w > 2 {
                    join(&mut b, k, r * w, Axis::Row)?;
                }
                if r + 1 < h {
                    join(&mut b, k, k + w, Axis::Column)?;
                } else if self.torus && h > 2 {
                    join(&mut b, k, c, Axis::Column)?;
                }
                if self.hex {
                    let diag_row = if c % 2 == 0 { r + 1 } else { r.wrapping_sub(1) };
                    if diag_row < h && c + 1 < w {
                        join(&mut b, k, diag_row * w + c + 1, Axis::Diagonal)?;
                    }
                }
            }
        }
        for &(letter, [p, q]) in &self.flows {
            let (Some(x), Some(y)) = (index[p], index[q]) else {
                continue;
            };
            b.flow(letter, [x, y]);
        }
        b.finish()
    }
}

impl GridSpec {
    /// The grid description of a board, the inverse of [`GridSpec::build`]: holes where no
    /// cell sits, walls where the grid would join two cells the board does not. Fails for a
    /// board with a link the grid never makes (a seed-format hex board whose diagonals lean the
    /// other way, a wrap that skips a row's end cells).
    pub fn of(p: &Puzzle) -> Result<GridSpec, String> {
        let w = p.cols;
        let index = |k: usize| p.cells[k].row * w + p.cells[k].col;
        let mut spec = GridSpec {
            rows: p.rows,
            cols: w,
            holes: (0..p.rows * w)
                .filter(|&k| p.cell_at(k / w, k % w).is_none())
                .collect(),
            bridges: (0..p.cells.len())
                .filter(|&k| p.cells[k].bridge)
                .map(index)
                .collect(),
            walls: Vec::new(),
            hex: p.variant == Variant::Hex,
            torus: p.variant == Variant::Warps,
            flows: p
                .flows
                .iter()
                .map(|f| (f.letter, f.ends.map(index)))
                .collect(),
        };
        let full = spec.build().map_err(|e| e.to_string())?;
        // Links by grid position, so the two boards' cell numbers need not agree.
        let placed = |q: &Puzzle| -> BTreeSet<(usize, usize, Axis)> {
            q.links
                .iter()
                .map(|l| {
                    let (a, b) = (l.a, l.b);
                    let (a, b) = (
                        q.cells[a].row * w + q.cells[a].col,
                        q.cells[b].row * w + q.cells[b].col,
                    );
                    (a.min(b), a.max(b), l.axis)
                })
                .collect()
        };
        let (have, grid) = (placed(p), placed(&full));
        if let Some(&(a, b, _)) = have.difference(&grid).next() {
            return Err(format!(
                "the link ({}, {})–({}, {}) is not one the grid makes",
                a / w,
                a % w,
                b / w,
                b % w
            ));
        }
        spec.walls = grid.difference(&have).map(|&(a, b, _)| (a, b)).collect();
        Ok(spec)
    }
}

/// Draws the board on the seed's lattice: `cell` gives each cell's character and `keep` says
/// which links to draw. Fails when a link has no place in the lattice (the seed format holds
/// wraps only between a row's or column's first and last cells).
pub(super) fn lattice(
    p: &Puzzle,
    cell: impl Fn(usize) -> char,
    keep: impl Fn(usize) -> bool,
) -> std::result::Result<Vec<String>, String> {
    let (h, w) = (2 * p.rows.max(1), 2 * p.cols.max(1));
    let mut grid = vec![vec![' '; w]; h];
    for (k, c) in p.cells.iter().enumerate() {
        grid[2 * c.row][2 * c.col] = cell(k);
    }
    let first_last = |k: usize, row: bool| {
        let c = p.cells[k];
        let line = p
            .cells
            .iter()
            .filter(|o| if row { o.row == c.row } else { o.col == c.col });
        let pos = |o: &Cell| if row { o.col } else { o.row };
        let here = pos(&c);
        let lo = line.clone().map(pos).min() == Some(here);
        let hi = line.map(pos).max() == Some(here);
        (lo, hi)
    };
    for (k, l) in p.links.iter().enumerate() {
        if !keep(k) {
            continue;
        }
        let (a, b) = (p.cells[l.a], p.cells[l.b]);
        let (top, bottom) = if (a.row, a.col) <= (b.row, b.col) {
            (a, b)
        } else {
            (b, a)
        };
        let (tk, bk) = if (a.row, a.col) <= (b.row, b.col) {
            (l.a, l.b)
        } else {
            (l.b, l.a)
        };
        let place = if top.row == bottom.row && bottom.col == top.col + 1 {
            Some((2 * top.row, 2 * top.col + 1, '-'))
        } else if top.col == bottom.col && bottom.row == top.row + 1 {
            Some((2 * top.row + 1, 2 * top.col, '|'))
        } else if bottom.row == top.row + 1 && bottom.col == top.col + 1 {
            Some((2 * top.row + 1, 2 * top.col + 1, '\\'))
        } else if bottom.row == top.row + 1 && bottom.col + 1 == top.col {
            Some((2 * top.row + 1, 2 * bottom.col + 1, '/'))
        } else if top.row == bottom.row && first_last(tk, true).0 && first_last(bk, true).1 {
            Some((2 * top.row, 2 * bottom.col + 1, '-'))
        } else if top.col == bottom.col && first_last(tk, false).0 && first_last(bk, false).1 {
            Some((2 * bottom.row + 1, 2 * top.col, '|'))
        } else {
            None
        };
        let Some((r, c, ch)) = place else {
            return Err(format!(
                "the link ({}, {})–({}, {}) has no place in the lattice format",
                a.row, a.col, b.row, b.col
            ));
        };
        if grid.len() <= r {
            grid.resize(r + 1, vec![' '; w]);
        }
        if grid[r].len() <= c {
            grid[r].resize(c + 1, ' ');
        }
        if grid[r][c] != ' ' && grid[r][c] != ch {
            return Err(format!(
                "two links cross at line {} column {}",
                r + 1,
                c + 1
            ));
        }
        grid[r][c] = ch;
    }
    let mut lines: Vec<String> = grid
        .into_iter()
        .map(|l| l.into_iter().collect::<String>().trim_end().to_string())
        .collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    Ok(lines)
}

/// The solved board on the seed's lattice: each cell shows its path's letter (`*` stays on
/// bridges), and only the links a path uses are drawn, so every path reads as a line.
pub fn render(p: &Puzzle, s: &Solution) -> String {
    let mut letter = vec!['.'; p.cells.len()];
    let mut used = vec![false; p.links.len()];
    for (f, path) in p.flows.iter().zip(&s.paths) {
        for &c in path {
            letter[c] = if p.cells[c].bridge { '*' } else { f.letter };
        }
        for w in path.windows(2) {
            if let Some(k) = p.links_at(w[0]).iter().copied().find(|&k| {
                let l = p.links[k];
                (l.a == w[0] && l.b == w[1]) || (l.a == w[1] && l.b == w[0])
            }) {
                used[k] = true;
            }
        }
    }
    match lattice(p, |k| letter[k], |k| used[k]) {
        Ok(lines) => lines.join("\n") + "\n",
        // Only wraps that skip a row's end cells miss the lattice: fall back to one line a path.
        Err(_) => paths_text(p, s),
    }
}

fn paths_text(p: &Puzzle, s: &Solution) -> String {
    let mut out = String::new();
    for (f, path) in p.flows.iter().zip(&s.paths) {
        let cells: Vec<String> = path
            .iter()
            .map(|&c| format!("({},{})", p.cells[c].row, p.cells[c].col))
            .collect();
        out.push_str(&format!("{}: {}\n", f.letter, cells.join(" ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbours(p: &Puzzle, row: usize, col: usize) -> Vec<(usize, usize)> {
        let k = p.cell_at(row, col).unwrap();
        let mut v: Vec<(usize, usize)> = p
            .links_at(k)
            .iter()
            .map(|&l| {
                let l = p.links[l];
                let o = if l.a == k { l.b } else { l.a };
                (p.cells[o].row, p.cells[o].col)
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn square_grid_with_hole_and_wall() {
        let spec = GridSpec {
            rows: 3,
            cols: 3,
            holes: vec![4],
            walls: vec![(0, 1)],
            ..GridSpec::default()
        };
        let p = spec.build().unwrap();
        assert_eq!(p.cells.len(), 8);
        assert_eq!(p.cell_at(1, 1), None);
        assert_eq!(neighbours(&p, 0, 0), vec![(1, 0)]);
        assert_eq!(neighbours(&p, 0, 1), vec![(0, 2)]);
    }

    #[test]
    fn hex_columns_alternate_their_diagonals() {
        let spec = GridSpec {
            rows: 3,
            cols: 3,
            hex: true,
            ..GridSpec::default()
        };
        let p = spec.build().unwrap();
        // Even column: the diagonal neighbours sit one row down.
        assert_eq!(neighbours(&p, 1, 0), vec![(0, 0), (1, 1), (2, 0), (2, 1)]);
        // Odd column: one row up.
        assert_eq!(
            neighbours(&p, 1, 1),
            vec![(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 1)]
        );
    }

    #[test]
    fn torus_wraps_both_ways() {
        let spec = GridSpec {
            rows: 3,
            cols: 4,
            torus: true,
            ..GridSpec::default()
        };
        let p = spec.build().unwrap();
        assert_eq!(neighbours(&p, 0, 0), vec![(0, 1), (0, 3), (1, 0), (2, 0)]);
    }

    #[test]
    fn a_board_gives_back_the_grid_it_was_built_from() {
        let spec = GridSpec {
            rows: 3,
            cols: 4,
            holes: vec![5],
            bridges: vec![6],
            walls: vec![(0, 1), (3, 7)],
            flows: vec![('A', [0, 11]), ('B', [4, 2])],
            ..GridSpec::default()
        };
        let p = spec.build().unwrap();
        let back = GridSpec::of(&p).unwrap();
        assert_eq!(
            (&back.holes, &back.bridges, &back.walls, &back.flows),
            (&spec.holes, &spec.bridges, &spec.walls, &spec.flows)
        );
        assert_eq!(back.build().unwrap(), p);
    }

    #[test]
    fn endpoint_on_a_bridge_is_refused() {
        let spec = GridSpec {
            rows: 3,
            cols: 3,
            bridges: vec![4],
            flows: vec![('A', [4, 0])],
            ..GridSpec::default()
        };
        assert!(matches!(
            spec.build(),
            Err(BuildError::EndpointOnBridge { letter: 'A', .. })
        ));
    }
}
