//! The island as a vertex-capacity flow network, shared by the single-pen and quarrel searches.
//!
//! One node pair (in, out) per passable tile, joined by an arc of capacity 1 when the tile takes
//! a wall and ∞ otherwise; ∞ arcs from each out to the neighbours' ins (portals included) and
//! from border tiles to the sink T. Bees get a closed arc to T that a search opens when it
//! keeps the bee out of the pen.

use super::arcs::Arcs;
use crate::games::enclose::check::flood;
use crate::games::enclose::model::{Level, Tile};

pub(crate) const INF: i32 = 1 << 24;
pub(crate) const NIL: u32 = u32::MAX;
/// Cell flags both searches share: forced into a pen, walled, bee kept out of the pens, no
/// wall allowed (the quarrel search's earlier siblings left it unwalled).
pub(crate) const IN_X: u8 = 1;
pub(crate) const DEAD: u8 = 2;
pub(crate) const OUT: u8 = 4;
pub(crate) const FORBID: u8 = 8;

/// Scratch of the residual search from T: `vis[n] == stamp` marks the nodes reached, `par`
/// the arc each was reached by.
pub(crate) struct Residual {
    pub(crate) vis: Vec<u32>,
    pub(crate) par: Vec<u32>,
    pub(crate) stamp: u32,
    pub(crate) queue: Vec<u32>,
}

/// The cells of the networks: the horse's island without its placed walls, sorted by grid
/// index (so a cell's index is found by binary search).
pub(crate) fn island_cells(level: &Level) -> Vec<usize> {
    let (island, _) = flood(level, &vec![false; level.tiles.len()], level.horse());
    let mut cells: Vec<usize> = island
        .into_iter()
        .filter(|&g| level.tiles[g] != Tile::Wall)
        .collect();
    cells.sort_unstable();
    cells
}

/// The static flow network of the island.
pub(crate) struct Net {
    pub(crate) m: usize,
    /// Grid index of each cell.
    pub(crate) grid: Vec<usize>,
    pub(crate) value: Vec<i32>,
    pub(crate) wallable: Vec<bool>,
    pub(crate) border: Vec<bool>,
    pub(crate) bee: Vec<bool>,
    pub(crate) nbr_start: Vec<u32>,
    pub(crate) nbr: Vec<u32>,
    /// CSR arcs per node: in = 2c, out = 2c + 1, T = 2m.
    pub(crate) start: Vec<u32>,
    pub(crate) to: Vec<u32>,
    pub(crate) rev: Vec<u32>,
    pub(crate) fwd: Vec<bool>,
    pub(crate) cap0: Vec<i32>,
    /// The (initially closed) arc out → T of each bee, NIL for other cells.
    pub(crate) bee_arc: Vec<u32>,
    /// The in → out arc of each cell.
    pub(crate) through: Vec<u32>,
}

impl Net {
    pub(crate) fn new(level: &Level, cells: &[usize]) -> Net {
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
        let Arcs {
            start,
            to,
            rev,
            fwd,
            cap: cap0,
            of_edge: arc_of_edge,
        } = Arcs::new(2 * m + 1, &edges);
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

    pub(crate) fn nbrs(&self, c: usize) -> &[u32] {
        &self.nbr[self.nbr_start[c] as usize..self.nbr_start[c + 1] as usize]
    }

    pub(crate) fn t(&self) -> usize {
        2 * self.m
    }

    /// One augmenting path from the cells flagged `IN_X` to T (searched backwards from T),
    /// pushed into `cap`; or, when there is none, `false` with `r.vis == r.stamp` on exactly
    /// the nodes that reach T.
    pub(crate) fn augment(&self, cap: &mut [i32], flags: &[u8], r: &mut Residual) -> bool {
        r.stamp += 1;
        let stamp = r.stamp;
        let t = self.t();
        r.queue.clear();
        r.queue.push(t as u32);
        r.vis[t] = stamp;
        let mut qi = 0;
        while qi < r.queue.len() {
            let w = r.queue[qi] as usize;
            qi += 1;
            for a in self.start[w] as usize..self.start[w + 1] as usize {
                let y = self.to[a] as usize;
                let back = self.rev[a] as usize;
                if cap[back] <= 0 || r.vis[y] == stamp {
                    continue;
                }
                let f = flags[y / 2];
                if f & DEAD != 0 {
                    continue;
                }
                r.vis[y] = stamp;
                r.par[y] = back as u32;
                if f & IN_X != 0 {
                    self.push_back_to_t(cap, r, y);
                    return true;
                }
                // An out-node with no flow through its tile is reached backwards only through
                // its in-node (nothing leaves it), so the search steps straight there.
                if y & 1 == 1 {
                    let th = self.through[y / 2] as usize;
                    if cap[th] == self.cap0[th] && r.vis[y - 1] != stamp {
                        r.vis[y - 1] = stamp;
                        r.par[y - 1] = th as u32;
                        r.queue.push(y as u32 - 1);
                        continue;
                    }
                }
                r.queue.push(y as u32);
            }
        }
        false
    }

    /// Pushes one unit from node `x` to T along the tree of the last search (`r.par`).
    pub(crate) fn push_back_to_t(&self, cap: &mut [i32], r: &Residual, mut x: usize) {
        let t = self.t();
        while x != t {
            let e = r.par[x] as usize;
            cap[e] -= 1;
            cap[self.rev[e] as usize] += 1;
            x = self.to[e] as usize;
        }
    }

    /// Removes the unit of flow through cell `v` (a cut cell: v's in-node is on the source side
    /// of a min cut, its out-node on the sink side; or any cell whose unit arc carries flow).
    /// Returns `false` when that unit went round a cycle back to `v` (the flow value stays).
    pub(crate) fn cancel_through(&self, cap: &mut [i32], flags: &[u8], v: usize) -> bool {
        let t = self.t();
        let inner = self.start[2 * v] as usize;
        // The in → out arc of v is its in-node's only forward arc.
        let a = (inner..self.start[2 * v + 1] as usize)
            .find(|&a| self.fwd[a])
            .expect("in → out arc");
        cap[a] += 1;
        cap[self.rev[a] as usize] -= 1;
        let mut x = 2 * v + 1;
        while x != t {
            if x == 2 * v {
                return false;
            }
            let a = (self.start[x] as usize..self.start[x + 1] as usize)
                .find(|&a| self.fwd[a] && cap[self.rev[a] as usize] > 0)
                .expect("flow leaves a sink-side node");
            cap[a] += 1;
            cap[self.rev[a] as usize] -= 1;
            x = self.to[a] as usize;
        }
        let mut x = 2 * v;
        while flags[x / 2] & IN_X == 0 {
            let b = (self.start[x] as usize..self.start[x + 1] as usize)
                .find(|&b| !self.fwd[b] && cap[b] > 0)
                .expect("flow enters a source-side node");
            cap[b] -= 1;
            cap[self.rev[b] as usize] += 1;
            x = self.to[b] as usize;
        }
        true
    }
}
