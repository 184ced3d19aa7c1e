//! Seeded puzzles the way the Loopy app makes them: a Hamiltonian cycle by Warnsdorff's rule
//! (random start, random tie-breaks, a number of attempts), then hint cells chosen from the
//! same random stream. With the app's seed and placement this reproduces its dailies (see the
//! corpus test); other sizes, rectangles and "hints on a fraction of cells" use the same steps.

use super::format::HintSet;
use super::model::{hint_values, Cycle, Puzzle};
use crate::error::{Error, Result};

/// Mulberry32, the app's seeded generator: the same seed gives the same stream of numbers.
#[derive(Debug, Clone)]
pub struct Mulberry32(u32);

impl Mulberry32 {
    pub fn new(seed: u32) -> Mulberry32 {
        Mulberry32(seed)
    }

    /// A number in [0, 1).
    pub fn next_unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x6d2b_79f5);
        let mut t = self.0;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        (t ^ (t >> 14)) as f64 / 4_294_967_296.0
    }

    /// `floor(next_unit() * n)`, the app's way of picking an index.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_unit() * n as f64) as usize).min(n.saturating_sub(1))
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Where the hints go.
#[derive(Debug, Clone, PartialEq)]
pub enum Hints {
    /// The app's control placement: shuffle every cell, take those at Chebyshev distance at
    /// least `min_distance` from every hint taken so far, until `count`.
    Spaced { count: usize, min_distance: usize },
    /// The app's dense placement: greedy cover of the grid by hint blocks, random fill up to
    /// `count`, then swaps for up to `anchors` hints reading at most `anchor_max`, keeping the
    /// cover.
    Covering {
        count: usize,
        anchors: usize,
        anchor_max: u8,
    },
    /// Hints on this fraction of the cells (rounded), chosen uniformly.
    Fraction(f64),
}

impl Hints {
    /// The app's settings for a hint set, by grid size (4: easy, 6: medium, 8 and up: hard).
    pub fn app(size: usize, set: HintSet) -> Hints {
        let level = match size {
            0..=4 => 0,
            5..=6 => 1,
            _ => 2,
        };
        match set {
            HintSet::Control => {
                let (count, min_distance) = [(2, 3), (5, 2), (16, 0)][level];
                Hints::Spaced {
                    count,
                    min_distance,
                }
            }
            HintSet::Dense => {
                let (count, anchors, anchor_max) = [(4, 0, 1), (8, 2, 2), (16, 2, 1)][level];
                Hints::Covering {
                    count,
                    anchors,
                    anchor_max,
                }
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct Generated {
    pub puzzle: Puzzle,
    /// The cycle the hints were read from: always an answer to the puzzle.
    pub solution: Cycle,
    /// True when every Warnsdorff attempt failed and the cycle came from the fallback.
    pub fallback: bool,
}

/// Makes a puzzle; the same arguments always give the same puzzle. The app seeds its daily
/// with `YYYYMMDD * 10 + {easy 0, medium 1, hard 2}`.
pub fn generate(width: usize, height: usize, hints: &Hints, seed: u32) -> Result<Generated> {
    if width < 2 || height < 2 || !(width * height).is_multiple_of(2) {
        return Err(Error::Usage(format!(
            "a {width}x{height} grid has no loop through every cell (it needs both sides at \
             least 2 and an even number of cells)"
        )));
    }
    let mut rng = Mulberry32::new(seed);
    let (solution, fallback) = match warnsdorff_cycle(width, height, &mut rng) {
        Some(c) => (c, false),
        // A copy of the stream, so hint cells are drawn from where the app would draw them.
        None => (fallback_cycle(width, height, &mut rng.clone()), true),
    };
    let values = hint_values(width, height, &solution);
    let cells = match hints {
        Hints::Spaced {
            count,
            min_distance,
        } => spaced(width, height, *count, *min_distance, &mut rng),
        Hints::Covering {
            count,
            anchors,
            anchor_max,
        } => covering(
            width,
            height,
            *count,
            *anchors,
            *anchor_max,
            &values,
            &mut rng,
        ),
        Hints::Fraction(f) => {
            let mut all: Vec<usize> = (0..width * height).collect();
            rng.shuffle(&mut all);
            let count = (f.clamp(0.0, 1.0) * all.len() as f64).round() as usize;
            all.truncate(count);
            all
        }
    };
    let mut puzzle = Puzzle::empty(width, height);
    for k in cells {
        puzzle.hints[k] = Some(values[k]);
    }
    Ok(Generated {
        puzzle,
        solution,
        fallback,
    })
}

/// Attempts by size as the app tunes them (its 4×4, 6×6 and 8×8 counts; larger grids as 8×8).
fn attempts(width: usize, height: usize) -> usize {
    match width.max(height) {
        0..=4 => 20,
        5..=6 => 50,
        _ => 100,
    }
}

fn warnsdorff_cycle(width: usize, height: usize, rng: &mut Mulberry32) -> Option<Cycle> {
    for _ in 0..attempts(width, height) {
        let start_row = rng.below(height);
        let start_col = rng.below(width);
        if let Some(c) = warnsdorff_attempt(width, height, [start_row, start_col], rng) {
            return Some(c);
        }
    }
    None
}

/// Orthogonal neighbours in the app's order: up, down, left, right.
fn neighbours(width: usize, height: usize, [r, c]: [usize; 2]) -> impl Iterator<Item = [usize; 2]> {
    [(-1i64, 0i64), (1, 0), (0, -1), (0, 1)]
        .into_iter()
        .map(move |(dr, dc)| (r as i64 + dr, c as i64 + dc))
        .filter(move |&(nr, nc)| nr >= 0 && nc >= 0 && nr < height as i64 && nc < width as i64)
        .map(|(nr, nc)| [nr as usize, nc as usize])
}

/// One greedy walk: always step to an unvisited neighbour with the fewest unvisited
/// neighbours (ties at random), and succeed if the walk covers the grid next to its start.
fn warnsdorff_attempt(
    width: usize,
    height: usize,
    start: [usize; 2],
    rng: &mut Mulberry32,
) -> Option<Cycle> {
    let total = width * height;
    let mut visited = vec![false; total];
    let mut path = Vec::with_capacity(total);
    let mut at = start;
    loop {
        visited[at[0] * width + at[1]] = true;
        path.push(at);
        if path.len() == total {
            let adjacent = at[0].abs_diff(start[0]) + at[1].abs_diff(start[1]) == 1;
            return adjacent.then_some(path);
        }
        let options: Vec<([usize; 2], usize)> = neighbours(width, height, at)
            .filter(|&[r, c]| !visited[r * width + c])
            .map(|n| {
                let free = neighbours(width, height, n)
                    .filter(|&[r, c]| !visited[r * width + c])
                    .count();
                (n, free)
            })
            .collect();
        let least = options.iter().map(|o| o.1).min()?;
        let ties: Vec<[usize; 2]> = options
            .iter()
            .filter(|o| o.1 == least)
            .map(|o| o.0)
            .collect();
        at = ties[rng.below(ties.len())];
    }
}

/// A random Hamiltonian cycle when Warnsdorff fails: with both sides even, the outline of a
/// random spanning tree of the 2×2 blocks; otherwise a fixed comb.
fn fallback_cycle(width: usize, height: usize, rng: &mut Mulberry32) -> Cycle {
    if width.is_multiple_of(2) && height.is_multiple_of(2) {
        tree_outline(width, height, rng)
    } else if height.is_multiple_of(2) {
        comb(width, height)
    } else {
        comb(height, width)
            .into_iter()
            .map(|[r, c]| [c, r])
            .collect()
    }
}

/// Row 0 left to right, the other rows snaking back over columns 1.., home up column 0.
/// Needs an even `height`.
fn comb(width: usize, height: usize) -> Cycle {
    let mut cycle: Cycle = (0..width).map(|c| [0, c]).collect();
    for r in 1..height {
        if r % 2 == 1 {
            cycle.extend((1..width).rev().map(|c| [r, c]));
        } else {
            cycle.extend((1..width).map(|c| [r, c]));
        }
    }
    cycle.extend((1..height).rev().map(|r| [r, 0]));
    cycle
}

/// Each 2×2 block starts as its own little ring; joining two neighbouring blocks of the tree
/// replaces the two facing sides with two links across, merging the rings into one.
fn tree_outline(width: usize, height: usize, rng: &mut Mulberry32) -> Cycle {
    let (bw, bh) = (width / 2, height / 2);
    let mut joins: Vec<(usize, usize)> = Vec::new();
    for b in 0..bw * bh {
        if b % bw + 1 < bw {
            joins.push((b, b + 1));
        }
        if b / bw + 1 < bh {
            joins.push((b, b + bw));
        }
    }
    rng.shuffle(&mut joins);
    let mut parent: Vec<usize> = (0..bw * bh).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    let cell = |r: usize, c: usize| r * width + c;
    let mut link = vec![[false; 2]; width * height]; // [right, down] per cell
    for b in 0..bw * bh {
        let (r, c) = (2 * (b / bw), 2 * (b % bw));
        link[cell(r, c)] = [true, true];
        link[cell(r, c + 1)][1] = true;
        link[cell(r + 1, c)][0] = true;
    }
    for (a, b) in joins {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra == rb {
            continue;
        }
        parent[ra] = rb;
        let (r, c) = (2 * (a / bw), 2 * (a % bw));
        if b == a + 1 {
            link[cell(r, c + 1)][1] = false;
            link[cell(r, c + 2)][1] = false;
            link[cell(r, c + 1)][0] = true;
            link[cell(r + 1, c + 1)][0] = true;
        } else {
            link[cell(r + 1, c)][0] = false;
            link[cell(r + 2, c)][0] = false;
            link[cell(r + 1, c)][1] = true;
            link[cell(r + 1, c + 1)][1] = true;
        }
    }
    let linked = |[r, c]: [usize; 2], [nr, nc]: [usize; 2]| -> bool {
        let (a, b) = if (nr, nc) > (r, c) {
            ([r, c], [nr, nc])
        } else {
            ([nr, nc], [r, c])
        };
        link[cell(a[0], a[1])][usize::from(b[0] > a[0])]
    };
    let mut cycle = vec![[0, 0]];
    let mut prev = [usize::MAX, usize::MAX];
    let mut at = [0, 0];
    loop {
        let next = neighbours(width, height, at)
            .find(|&n| n != prev && linked(at, n))
            .expect("every cell has two links");
        if next == [0, 0] {
            return cycle;
        }
        cycle.push(next);
        (prev, at) = (at, next);
    }
}

fn spaced(
    width: usize,
    height: usize,
    count: usize,
    min_distance: usize,
    rng: &mut Mulberry32,
) -> Vec<usize> {
    let mut all: Vec<usize> = (0..width * height).collect();
    rng.shuffle(&mut all);
    let mut taken: Vec<usize> = Vec::new();
    for k in all {
        if taken.len() >= count {
            break;
        }
        let far = taken.iter().all(|&t| {
            let d = (t / width)
                .abs_diff(k / width)
                .max((t % width).abs_diff(k % width));
            d >= min_distance
        });
        if far {
            taken.push(k);
        }
    }
    taken
}

/// The clipped 3×3 block of a cell, as indices.
fn area(width: usize, height: usize, k: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (k / width, k % width);
    (r.saturating_sub(1)..(r + 2).min(height)).flat_map(move |br| {
        (c.saturating_sub(1)..(c + 2).min(width)).map(move |bc| br * width + bc)
    })
}

fn covers(width: usize, height: usize, hints: &[usize]) -> bool {
    let mut covered = vec![false; width * height];
    for &h in hints {
        for k in area(width, height, h) {
            covered[k] = true;
        }
    }
    covered.iter().all(|&c| c)
}

/// The dense placement, step for step (hint order matters: it decides which hint a swap
/// gives up, so the hints are kept in insertion order like the app's set).
fn covering(
    width: usize,
    height: usize,
    count: usize,
    anchors: usize,
    anchor_max: u8,
    values: &[u8],
    rng: &mut Mulberry32,
) -> Vec<usize> {
    let n = width * height;
    let mut hints: Vec<usize> = Vec::new();
    let mut uncovered = vec![true; n];
    let mut left = n;
    let mut candidates: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut candidates);
    while left > 0 && hints.len() < count {
        let mut best = None;
        let mut best_gain = 0;
        for &cand in &candidates {
            if hints.contains(&cand) {
                continue;
            }
            let gain = area(width, height, cand).filter(|&k| uncovered[k]).count();
            if gain > best_gain {
                best_gain = gain;
                best = Some(cand);
            }
        }
        let Some(best) = best else { break };
        hints.push(best);
        for k in area(width, height, best) {
            if std::mem::replace(&mut uncovered[k], false) {
                left -= 1;
            }
        }
    }
    let mut pool: Vec<usize> = (0..n).filter(|k| !hints.contains(k)).collect();
    rng.shuffle(&mut pool);
    for &k in &pool {
        if hints.len() >= count {
            break;
        }
        hints.push(k);
    }
    if anchors > 0 {
        let is_anchor = |k: usize| values[k] <= anchor_max;
        let mut anchored = hints.iter().filter(|&&k| is_anchor(k)).count();
        let mut candidates: Vec<usize> = pool
            .iter()
            .copied()
            .filter(|&k| !hints.contains(&k) && is_anchor(k))
            .collect();
        while anchored < anchors {
            let Some(candidate) = candidates.pop() else {
                break;
            };
            let removable: Vec<usize> = hints
                .iter()
                .rev()
                .copied()
                .filter(|&k| !is_anchor(k))
                .collect();
            for victim in removable {
                hints.retain(|&k| k != victim);
                hints.push(candidate);
                if covers(width, height, &hints) {
                    anchored += 1;
                    break;
                }
                hints.retain(|&k| k != candidate);
                hints.push(victim);
            }
        }
    }
    hints
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::loopgame::check::check;
    use crate::games::loopgame::format::{parse_record, HintSet};

    #[test]
    fn mulberry32_matches_the_reference_stream() {
        // First outputs for seed 1 of the app's JavaScript formula, run under Node.
        let mut r = Mulberry32::new(1);
        let first: Vec<u32> = (0..3)
            .map(|_| (r.next_unit() * 4_294_967_296.0) as u32)
            .collect();
        assert_eq!(first, vec![2_693_262_067, 11_749_833, 2_265_367_787]);
    }

    #[test]
    fn generated_puzzles_are_answered_by_their_own_cycle() {
        for (w, h, hints) in [
            (4, 4, Hints::app(4, HintSet::Control)),
            (6, 6, Hints::app(6, HintSet::Dense)),
            (8, 8, Hints::app(8, HintSet::Dense)),
            (7, 4, Hints::Fraction(0.3)),
            (3, 6, Hints::Fraction(0.5)),
            (20, 20, Hints::Fraction(0.3)),
        ] {
            for seed in 0..5 {
                let g = generate(w, h, &hints, seed).unwrap();
                assert_eq!((g.puzzle.cols, g.puzzle.rows), (w, h));
                check(&g.puzzle, &g.solution, false)
                    .unwrap_or_else(|e| panic!("{w}x{h} seed {seed}: {e}"));
                let again = generate(w, h, &hints, seed).unwrap();
                assert_eq!(again.puzzle, g.puzzle, "same seed, same puzzle");
            }
        }
    }

    #[test]
    fn fraction_places_that_many_hints() {
        let g = generate(20, 20, &Hints::Fraction(0.3), 7).unwrap();
        assert_eq!(g.puzzle.hint_count(), 120);
    }

    #[test]
    fn fallback_cycles_are_hamiltonian() {
        let mut rng = Mulberry32::new(3);
        for (w, h) in [(2, 2), (4, 6), (10, 8), (5, 4), (4, 5), (3, 2)] {
            let cycle = fallback_cycle(w, h, &mut rng);
            check(&Puzzle::empty(w, h), &cycle, false).unwrap_or_else(|e| panic!("{w}x{h}: {e}"));
        }
    }

    #[test]
    fn odd_grids_are_refused() {
        assert!(generate(5, 5, &Hints::Fraction(0.3), 1).is_err());
        assert!(generate(1, 4, &Hints::Fraction(0.3), 1).is_err());
    }

    /// With the app's seed and placement, the generator reproduces the corpus dailies: the
    /// same loop (unless the app used its own fallback cycle) and the same hints.
    #[test]
    fn reproduces_the_app_dailies() {
        let Some(path) = crate::corpus::path("loop/daily.jsonl") else {
            return;
        };
        let text = std::fs::read_to_string(path).unwrap();
        let (mut loops, mut sets) = (0, 0);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let size = v["size"].as_u64().unwrap() as usize;
            let seed = v["seed"].as_u64().unwrap() as u32;
            let fallback = v["fallback_cycle"].as_bool().unwrap();
            for set in [HintSet::Control, HintSet::Dense] {
                let g = generate(size, size, &Hints::app(size, set), seed).unwrap();
                assert_eq!(g.fallback, fallback, "seed {seed}");
                if fallback {
                    continue;
                }
                let want: Cycle = serde_json::from_value(v["solution"].clone()).unwrap();
                assert_eq!(g.solution, want, "seed {seed}");
                let p = parse_record(line, "daily.jsonl", set).unwrap();
                assert_eq!(g.puzzle, p, "seed {seed} {set:?}");
                loops += 1;
                sets += 1;
            }
        }
        assert!(loops > 800, "only {loops} dailies compared");
        assert_eq!(loops, sets);
    }
}
