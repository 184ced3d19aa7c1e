//! The per-colour rule. Colour `k`'s path is a simple path between its endpoints `s` and `t`
//! in the graph of nodes that still allow `k`, joined by edges not off. One depth-first walk
//! from `s` (Tarjan's low points) gives, exactly:
//!
//! * the nodes on some simple `s`–`t` path: those in a biconnected block on the block tree's
//!   path from `s` to `t` (in a 2-connected block any three nodes lie on one simple path).
//!   Every other node loses `k`: this covers "not reachable from both ends" and also pockets
//!   hanging off a single cell, which a path would have to enter and leave by that cell;
//! * the cut nodes between `s` and `t`: every path passes them, so they take `k`;
//! * the bridges between `s` and `t`: every path uses them, so they are on.
//!
//! The walk expands `t` like any other node. That only adds paths through `t`, which a real
//! path never takes, so it can hide a cut but never invent one (the first version of this
//! rule skipped `t` and declared false cuts: see docs/flow-solver.md).

use super::scratch::{Scratch, NONE};
use super::state::{Conflict, State, Step, OFF};

impl State<'_> {
    /// Applies the rule for colour `k` (see the module note).
    pub(super) fn colour_rule(&mut self, k: usize) -> Step {
        let mut w = std::mem::take(&mut self.scratch);
        let r = self.colour_rule_with(k, &mut w);
        self.scratch = w;
        r
    }

    fn colour_rule_with(&mut self, k: usize, w: &mut Scratch) -> Step {
        let g = self.g;
        let n = g.nodes();
        let bit = 1u64 << k;
        let (s, t) = g.terminals[k];
        let (s, t) = (s as usize, t as usize);
        if w.clock > u32::MAX - 2 * n as u32 - 2 {
            w.disc.iter_mut().for_each(|d| *d = 0);
            w.on_path.iter_mut().for_each(|d| *d = 0);
            w.clock = 0;
            w.walks = 0;
        }
        let base = w.clock;
        w.walks += 1;
        let walk = w.walks;

        // Tarjan's walk from `s`, without recursion.
        w.order.clear();
        w.clock += 1;
        w.disc[s] = w.clock;
        w.low[s] = w.clock;
        w.parent[s] = NONE;
        w.parent_edge[s] = NONE;
        w.order.push(s as u32);
        w.stack.clear();
        w.stack.push((s as u32, 0));
        while let Some(top) = w.stack.last_mut() {
            let x = top.0 as usize;
            let adj = g.adj(x);
            if (top.1 as usize) < adj.len() {
                let (e, y) = adj[top.1 as usize];
                top.1 += 1;
                let y = y as usize;
                if self.edge[e as usize] == OFF
                    || self.colours[y] & bit == 0
                    || e == w.parent_edge[x]
                {
                    continue;
                }
                if w.disc[y] > base {
                    w.low[x] = w.low[x].min(w.disc[y]);
                } else {
                    w.clock += 1;
                    w.disc[y] = w.clock;
                    w.low[y] = w.clock;
                    w.parent[y] = x as u32;
                    w.parent_edge[y] = e;
                    w.order.push(y as u32);
                    w.stack.push((y as u32, 0));
                }
            } else {
                w.stack.pop();
                if let Some(&(p, _)) = w.stack.last() {
                    let p = p as usize;
                    w.low[p] = w.low[p].min(w.low[x]);
                }
            }
        }
        if w.disc[t] <= base {
            return Err(Conflict);
        }

        // Each node's block opener, in discovery order so a parent comes first.
        w.opener[s] = s as u32;
        for &x in &w.order[1..] {
            let x = x as usize;
            let p = w.parent[x] as usize;
            w.opener[x] = if w.low[x] >= w.disc[p] {
                x as u32
            } else {
                w.opener[p]
            };
        }

        // The tree path from `t` up to `s`: its cut nodes and bridges are forced.
        let mut forced_nodes = Vec::new();
        let mut forced_edges = Vec::new();
        let mut c = t;
        w.on_path[t] = walk;
        while c != s {
            let v = w.parent[c] as usize;
            w.on_path[v] = walk;
            if w.low[c] > w.disc[v] {
                forced_edges.push(w.parent_edge[c] as usize);
            }
            if v != s && w.low[c] >= w.disc[v] && self.colours[v] != bit {
                forced_nodes.push(v);
            }
            c = v;
        }

        for x in 0..n {
            if self.colours[x] & bit == 0 {
                continue;
            }
            let usable = w.disc[x] > base
                && (w.on_path[x] == walk || w.on_path[w.opener[x] as usize] == walk);
            if !usable {
                self.set_colours(x, self.colours[x] & !bit)?;
            }
        }
        for v in forced_nodes {
            self.set_colours(v, self.colours[v] & bit)?;
        }
        for e in forced_edges {
            self.set_on(e)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::graph::Graph;
    use super::super::state::{State, ON, UNKNOWN};
    use crate::games::flow::format::parse;

    /// Colour sets after the rule for colour 0 alone (no other rule runs).
    fn after_rule(text: &str) -> (Vec<u64>, Vec<u8>, Vec<(u32, u32)>) {
        let p = parse(text, "t").unwrap();
        let g = Graph::new(&p).ok().unwrap();
        let mut st = State::new(&g);
        st.colour_rule(0).unwrap();
        (st.colours.clone(), st.edge.clone(), g.ends.clone())
    }

    #[test]
    fn forces_cuts_and_drops_pockets() {
        // A's ends are joined only through the top middle cell (a cut, with two bridges);
        // the bottom middle cell hangs off it, a pocket A could enter but never leave.
        let (colours, edge, ends) = after_rule("A.A\nB.B\n");
        let (a, b) = (1u64, 2u64);
        assert_eq!(colours[1], a);
        assert_eq!(colours[4], b);
        for (e, &(x, y)) in ends.iter().enumerate() {
            let want = if (x.min(y), x.max(y)) == (0, 1) || (x.min(y), x.max(y)) == (1, 2) {
                ON
            } else {
                UNKNOWN
            };
            assert_eq!(edge[e], want, "edge {x}-{y}");
        }
    }

    #[test]
    fn a_cycle_through_the_far_end_is_no_cut() {
        // Two ways from A to A around the 2x3 block, one of them only seen by walking on
        // past the far end: no cell is forced and none loses A.
        let (colours, edge, _) = after_rule("A..B\n..AB\n");
        for x in [1, 2, 4, 5] {
            assert_eq!(colours[x], 3, "node {x}");
        }
        assert!(edge.iter().all(|&e| e == UNKNOWN));
    }
}
