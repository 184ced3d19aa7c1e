//! Exact optimiser with proof.
//!
//! The main, lovebirds and costly-walls rounds are solved by enumerating *important
//! separators*: with non-negative tile values a pen can always be grown, at no more walls, to
//! the pen of an important horse–border vertex separator, so only those need to be searched
//! (see [`sep`]). Bees (negative tiles) are decided lazily, in or out, when a pen would take
//! them in. The quarrel round uses the first solver, escape-path branch and bound ([`legacy`]).

mod dinic;
mod legacy;
mod sep;

use super::check::flood;
use super::model::{Level, Solution, Tile, Variant};
use std::time::Instant;

/// Solves the level to proven optimality, or until `deadline` (then `GaveUp` with the best
/// walls found and a proven bound).
pub fn solve(level: &Level, deadline: Option<Instant>) -> Solution {
    match level.variant {
        Variant::Quarrel => legacy::solve(level, deadline),
        _ => sep::solve(level, deadline),
    }
}

/// The map with `W` on the new walls and `#` on the enclosed grass; other tiles as in the map.
pub fn render_solution(level: &Level, sol: &Solution) -> String {
    let mut wall: Vec<bool> = level.tiles.iter().map(|&t| t == Tile::Wall).collect();
    let mut new = vec![false; level.tiles.len()];
    for &[r, c] in &sol.walls {
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
    out.push_str(&format!(
        "{:?}: score {} (bound {}), {} new walls of {}, {:.1} ms\n",
        sol.status,
        sol.score,
        sol.bound,
        sol.walls.len(),
        level.budget,
        sol.elapsed_ms
    ));
    out
}
