//! The level: a grid of tiles, a wall budget and the round kind.

use std::collections::VecDeque;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tile {
    Grass,
    Water,
    Horse,
    Cherry,
    Golden,
    Bees,
    Unicorn,
    /// A wall already on the map: it blocks like water and counts against the budget.
    Wall,
    /// A portal channel, 0-35 for `0-9a-z`.
    Portal(u8),
}

impl Tile {
    pub fn from_char(c: char) -> Option<Tile> {
        Some(match c {
            '.' => Tile::Grass,
            '~' => Tile::Water,
            'H' => Tile::Horse,
            'C' => Tile::Cherry,
            'G' => Tile::Golden,
            'S' => Tile::Bees,
            'U' => Tile::Unicorn,
            'W' => Tile::Wall,
            '0'..='9' => Tile::Portal(c as u8 - b'0'),
            'a'..='z' => Tile::Portal(c as u8 - b'a' + 10),
            _ => return None,
        })
    }

    pub fn to_char(self) -> char {
        match self {
            Tile::Grass => '.',
            Tile::Water => '~',
            Tile::Horse => 'H',
            Tile::Cherry => 'C',
            Tile::Golden => 'G',
            Tile::Bees => 'S',
            Tile::Unicorn => 'U',
            Tile::Wall => 'W',
            Tile::Portal(p) if p < 10 => (b'0' + p) as char,
            Tile::Portal(p) => (b'a' + p - 10) as char,
        }
    }

    /// What the tile adds to the score when it is inside the pen (the tile itself included).
    pub fn value(self) -> i32 {
        match self {
            Tile::Water | Tile::Wall => 0,
            Tile::Cherry => 4,
            Tile::Golden => 11,
            Tile::Bees => -4,
            _ => 1,
        }
    }

    /// The horse (and the unicorn) can stand here.
    pub fn passable(self) -> bool {
        !matches!(self, Tile::Water | Tile::Wall)
    }

    /// A new wall may go here: plain grass only (the game refuses fruit, bees, portals, animals).
    pub fn wallable(self) -> bool {
        self == Tile::Grass
    }
}

/// The round kind: the daily main level or one of the bonus rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    #[default]
    Main,
    /// Horse and unicorn in one pen.
    Lovebirds,
    /// Every wall placed costs [`WALL_COST`] points.
    CostlyWalls,
    /// Horse and unicorn both enclosed, in separate pens; both pens score.
    Quarrel,
}

/// Points a placed wall costs in a `costlywalls` round.
pub const WALL_COST: i32 = 6;

impl Variant {
    /// Reads the names the game's API and our header use; `None` for an unknown name.
    pub fn from_name(s: &str) -> Option<Variant> {
        Some(match s {
            "" | "main" | "null" => Variant::Main,
            "lovebirds" => Variant::Lovebirds,
            "costlywalls" => Variant::CostlyWalls,
            "quarrel" | "lovers_quarrel" => Variant::Quarrel,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Variant::Main => "main",
            Variant::Lovebirds => "lovebirds",
            Variant::CostlyWalls => "costlywalls",
            Variant::Quarrel => "quarrel",
        }
    }

    pub fn has_unicorn(self) -> bool {
        matches!(self, Variant::Lovebirds | Variant::Quarrel)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    pub rows: usize,
    pub cols: usize,
    /// Row-major.
    pub tiles: Vec<Tile>,
    pub budget: u32,
    pub variant: Variant,
}

impl Level {
    pub fn tile(&self, r: usize, c: usize) -> Tile {
        self.tiles[r * self.cols + c]
    }

    pub fn find(&self, t: Tile) -> Option<usize> {
        self.tiles.iter().position(|&x| x == t)
    }

    pub fn horse(&self) -> usize {
        self.find(Tile::Horse).expect("a parsed level has a horse")
    }

    pub fn unicorn(&self) -> Option<usize> {
        self.find(Tile::Unicorn)
    }

    pub fn is_border(&self, i: usize) -> bool {
        let (r, c) = (i / self.cols, i % self.cols);
        r == 0 || c == 0 || r + 1 == self.rows || c + 1 == self.cols
    }

    /// Walls already on the map; they use up part of the budget.
    pub fn preplaced_walls(&self) -> u32 {
        self.tiles.iter().filter(|&&t| t == Tile::Wall).count() as u32
    }

    /// Passable neighbours of every cell: 4 directions plus the other portal of the same channel.
    pub fn adjacency(&self) -> Vec<Vec<u32>> {
        let n = self.tiles.len();
        let mut adj = vec![Vec::new(); n];
        let mut portals: Vec<Vec<usize>> = vec![Vec::new(); 36];
        for i in 0..n {
            if let Tile::Portal(p) = self.tiles[i] {
                portals[p as usize].push(i);
            }
        }
        for (i, a) in adj.iter_mut().enumerate() {
            if !self.tiles[i].passable() {
                continue;
            }
            let (r, c) = (i / self.cols, i % self.cols);
            let mut push = |j: usize| {
                if self.tiles[j].passable() {
                    a.push(j as u32);
                }
            };
            if r > 0 {
                push(i - self.cols);
            }
            if r + 1 < self.rows {
                push(i + self.cols);
            }
            if c > 0 {
                push(i - 1);
            }
            if c + 1 < self.cols {
                push(i + 1);
            }
            if let Tile::Portal(p) = self.tiles[i] {
                for &j in &portals[p as usize] {
                    if j != i && !a.contains(&(j as u32)) {
                        a.push(j as u32);
                    }
                }
            }
        }
        adj
    }
}

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Solution {
    /// Score of `walls` as the game counts it (0 when the search gave up with no pen).
    pub score: i32,
    /// Proven upper bound on the optimum (equals `score` when optimal).
    pub bound: i32,
    /// New walls only, `[row, col]`, sorted.
    pub walls: Vec<[usize; 2]>,
    pub elapsed_ms: f64,
    /// Search nodes explored.
    pub nodes: u64,
}

/// The game's flood fill: the tiles the animal at `start` reaches, and whether it escapes.
/// Portals lead to every other tile of their channel.
pub fn flood(level: &Level, walls: &[bool], start: usize) -> (Vec<usize>, bool) {
    let (rows, cols) = (level.rows, level.cols);
    let mut visited = vec![false; level.tiles.len()];
    let mut queue = VecDeque::from([start]);
    let mut order = vec![start];
    visited[start] = true;
    let mut escaped = false;
    let blocked = |i: usize| walls[i] || level.tiles[i] == Tile::Water;
    while let Some(cur) = queue.pop_front() {
        let (r, c) = (cur / cols, cur % cols);
        if r == 0 || c == 0 || r == rows - 1 || c == cols - 1 {
            escaped = true;
        }
        let mut next = Vec::with_capacity(6);
        if r > 0 {
            next.push(cur - cols);
        }
        if r + 1 < rows {
            next.push(cur + cols);
        }
        if c > 0 {
            next.push(cur - 1);
        }
        if c + 1 < cols {
            next.push(cur + 1);
        }
        if let Tile::Portal(p) = level.tiles[cur] {
            next.extend(
                (0..level.tiles.len()).filter(|&j| j != cur && level.tiles[j] == Tile::Portal(p)),
            );
        }
        for j in next {
            if !visited[j] && !blocked(j) {
                visited[j] = true;
                order.push(j);
                queue.push_back(j);
            }
        }
    }
    (order, escaped)
}

/// The map with `W` on the new walls and `#` on the enclosed grass; other tiles as in the map.
pub fn render(level: &Level, walls: &[[usize; 2]]) -> String {
    let mut wall: Vec<bool> = level.tiles.iter().map(|&t| t == Tile::Wall).collect();
    let mut new = vec![false; level.tiles.len()];
    for &[r, c] in walls {
        wall[r * level.cols + c] = true;
        new[r * level.cols + c] = true;
    }
    let mut inside = vec![false; level.tiles.len()];
    for start in [Some(level.horse()), level.unicorn()].into_iter().flatten() {
        let (cells, escaped) = flood(level, &wall, start);
        if !escaped {
            for i in cells {
                inside[i] = true;
            }
        }
    }
    let mut out = String::new();
    for r in 0..level.rows {
        for c in 0..level.cols {
            let i = r * level.cols + c;
            let t = level.tiles[i];
            out.push(if new[i] {
                'W'
            } else if inside[i] && t == Tile::Grass {
                '#'
            } else {
                t.to_char()
            });
        }
        out.push('\n');
    }
    out
}

/// The score, the proven bound and the walls used, in a line.
pub fn summary(level: &Level, sol: &Solution) -> String {
    format!(
        "score {} (bound {}), {} new walls of {}",
        sol.score,
        sol.bound,
        sol.walls.len(),
        level.budget
    )
}
