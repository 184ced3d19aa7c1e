//! The rules of Hashi checked on a full answer, independently of the solver.

use super::model::{Bridges, Cell, Puzzle};
use std::collections::VecDeque;

/// Independent check of a full assignment against every rule; `Err` says which rule fails.
pub fn check(p: &Puzzle, bridges: &Bridges) -> Result<(), String> {
    let (w, h) = (p.cols, p.rows);
    let id = |c: Cell| p.islands.iter().position(|i| i.at == c);
    let mut degree = vec![0u32; p.islands.len()];
    // Each cell a bridge passes over, marked with the bridge that uses it.
    let mut over: Vec<Option<usize>> = vec![None; w * h];
    let mut seen_pairs = std::collections::HashSet::new();
    let mut links = vec![Vec::new(); p.islands.len()];
    for (k, b) in bridges.iter().enumerate() {
        let name = format!("({},{})-({},{})", b.a.row, b.a.col, b.b.row, b.b.col);
        let (Some(ia), Some(ib)) = (id(b.a), id(b.b)) else {
            return Err(format!("bridge {name} does not end on two islands"));
        };
        if b.count == 0 || b.count > p.max_bridges {
            return Err(format!(
                "bridge {name} has {} bridges, allowed 1..={}",
                b.count, p.max_bridges
            ));
        }
        if ia == ib || (b.a.row != b.b.row && b.a.col != b.b.col) {
            return Err(format!(
                "bridge {name} is not a straight line between two islands"
            ));
        }
        if !seen_pairs.insert((ia.min(ib), ia.max(ib))) {
            return Err(format!("bridge {name} is listed twice"));
        }
        let (r0, r1) = (b.a.row.min(b.b.row), b.a.row.max(b.b.row));
        let (c0, c1) = (b.a.col.min(b.b.col), b.a.col.max(b.b.col));
        for r in r0..=r1 {
            for c in c0..=c1 {
                let cell = Cell { row: r, col: c };
                if cell == b.a || cell == b.b {
                    continue;
                }
                if id(cell).is_some() {
                    return Err(format!("bridge {name} passes over an island at ({r},{c})"));
                }
                if let Some(other) = over[r * w + c].replace(k) {
                    let o = &bridges[other];
                    return Err(format!(
                        "bridge {name} crosses ({},{})-({},{}) at ({r},{c})",
                        o.a.row, o.a.col, o.b.row, o.b.col
                    ));
                }
            }
        }
        degree[ia] += b.count as u32;
        degree[ib] += b.count as u32;
        links[ia].push(ib);
        links[ib].push(ia);
    }
    for (i, isl) in p.islands.iter().enumerate() {
        if degree[i] != isl.target as u32 {
            return Err(format!(
                "island ({},{}) wants {} bridges, has {}",
                isl.at.row, isl.at.col, isl.target, degree[i]
            ));
        }
    }
    if p.islands.is_empty() {
        return Err("there are no islands".into());
    }
    let mut reached = vec![false; p.islands.len()];
    let mut todo = VecDeque::from([0usize]);
    reached[0] = true;
    while let Some(i) = todo.pop_front() {
        for &j in &links[i] {
            if !std::mem::replace(&mut reached[j], true) {
                todo.push_back(j);
            }
        }
    }
    if let Some(i) = reached.iter().position(|r| !r) {
        let c = p.islands[i].at;
        return Err(format!(
            "island ({},{}) is not connected to island ({},{})",
            c.row, c.col, p.islands[0].at.row, p.islands[0].at.col
        ));
    }
    if !p.allow_loops && seen_pairs.len() != p.islands.len() - 1 {
        return Err("the bridges form a loop, and this puzzle forbids loops".into());
    }
    Ok(())
}
