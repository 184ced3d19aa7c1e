//! The island as a vertex-capacity flow network, shared by the single-pen and quarrel searches.
//!
//! One node pair (in, out) per passable tile, joined by an arc of capacity 1 when the tile takes
//! a wall and ∞ otherwise; ∞ arcs from each out to the neighbours' ins (portals included) and
//! from border tiles to the sink T. Bees get a closed arc to T that a search opens when it
//! keeps the bee out of the pen.

use crate::games::enclose::model::{Level, Tile};

pub(super) const INF: i32 = 1 << 24;
pub(super) const NIL: u32 = u32::MAX;

/// The static flow network of the island.
pub(super) struct Net {
    pub(super) m: usize,
    /// Grid index of each cell.
    pub(super) grid: Vec<usize>,
    pub(super) value: Vec<i32>,
    pub(super) wallable: Vec<bool>,
    pub(super) border: Vec<bool>,
    pub(super) bee: Vec<bool>,
    pub(super) nbr_start: Vec<u32>,
    pub(super) nbr: Vec<u32>,
    /// CSR arcs per node: in = 2c, out = 2c + 1, T = 2m.
    pub(super) start: Vec<u32>,
    pub(super) to: Vec<u32>,
    pub(super) rev: Vec<u32>,
    pub(super) fwd: Vec<bool>,
    pub(super) cap0: Vec<i32>,
    /// The (initially closed) arc out → T of each bee, NIL for other cells.
    pub(super) bee_arc: Vec<u32>,
    /// The in → out arc of each cell.
    pub(super) through: Vec<u32>,
}

impl Net {
    pub(super) fn new(level: &Level, cells: &[usize]) -> Net {
        let n = level.tiles.len();
        let mut id = vec![NIL; n];
        for (c, &g) in cells.iter().enumerate() {
            id[g] = c as u32;
        }
        let adj = level.adjacency();
        let m = cells.len();
        let t = 2 * m as u32;
        let mut edges: Vec<(u32, u32, i32)> = Vec::new();
        let mut nbr_start = vec![0u32];
        let mut nbr = Vec::new();
        let mut bee_edge = vec![NIL; m];
        let mut through_edge = vec![0u32; m];
        for (c, &g) in cells.iter().enumerate() {
            let c32 = c as u32;
            let tile = level.tiles[g];
            through_edge[c] = edges.len() as u32;
            edges.push((2 * c32, 2 * c32 + 1, if tile.wallable() { 1 } else { INF }));
            for &j in &adj[g] {
                let d = id[j as usize];
                if d != NIL {
                    nbr.push(d);
                    edges.push((2 * c32 + 1, 2 * d, INF));
                }
            }
            nbr_start.push(nbr.len() as u32);
            if level.is_border(g) {
                edges.push((2 * c32 + 1, t, INF));
            } else if tile == Tile::Bees {
                bee_edge[c] = edges.len() as u32;
                edges.push((2 * c32 + 1, t, 0));
            }
        }
        let nn = 2 * m + 1;
        let mut start = vec![0u32; nn + 1];
        for &(u, v, _) in &edges {
            start[u as usize + 1] += 1;
            start[v as usize + 1] += 1;
        }
        for i in 0..nn {
            start[i + 1] += start[i];
        }
        let na = start[nn] as usize;
        let mut fill: Vec<u32> = start[..nn].to_vec();
        let (mut to, mut rev, mut fwd, mut cap0) = (
            vec![0u32; na],
            vec![0u32; na],
            vec![false; na],
            vec![0i32; na],
        );
        let mut arc_of_edge = Vec::with_capacity(edges.len());
        for &(u, v, c) in &edges {
            let a = fill[u as usize] as usize;
            fill[u as usize] += 1;
            let b = fill[v as usize] as usize;
            fill[v as usize] += 1;
            to[a] = v;
            to[b] = u;
            rev[a] = b as u32;
            rev[b] = a as u32;
            fwd[a] = true;
            cap0[a] = c;
            arc_of_edge.push(a as u32);
        }
        let bee_arc = bee_edge
            .iter()
            .map(|&e| {
                if e == NIL {
                    NIL
                } else {
                    arc_of_edge[e as usize]
                }
            })
            .collect();
        let through = through_edge
            .iter()
            .map(|&e| arc_of_edge[e as usize])
            .collect();
        Net {
            m,
            grid: cells.to_vec(),
            value: cells.iter().map(|&g| level.tiles[g].value()).collect(),
            wallable: cells.iter().map(|&g| level.tiles[g].wallable()).collect(),
            border: cells.iter().map(|&g| level.is_border(g)).collect(),
            bee: cells
                .iter()
                .map(|&g| level.tiles[g] == Tile::Bees)
                .collect(),
            nbr_start,
            nbr,
            start,
            to,
            rev,
            fwd,
            cap0,
            bee_arc,
            through,
        }
    }

    pub(super) fn nbrs(&self, c: usize) -> &[u32] {
        &self.nbr[self.nbr_start[c] as usize..self.nbr_start[c + 1] as usize]
    }

    pub(super) fn t(&self) -> usize {
        2 * self.m
    }
}
