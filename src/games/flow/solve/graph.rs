//! The puzzle's cell graph as the search sees it: plain indices in flat arrays. A bridge cell
//! becomes two nodes, one for its `Row` links and one for its `Column` links, so that "crossed
//! once each way, straight through" is just "each node has degree two".

use super::super::model::{Axis, Puzzle};

pub(super) struct Graph {
    /// Links each node needs: 1 at an endpoint, 2 elsewhere.
    pub need: Vec<u8>,
    pub cell_of: Vec<usize>,
    /// Both nodes of each edge.
    pub ends: Vec<(u32, u32)>,
    /// `adj[start[x]..start[x + 1]]` holds `(edge, other node)` for node `x`.
    start: Vec<u32>,
    adj: Vec<(u32, u32)>,
    /// Each colour's endpoint nodes.
    pub terminals: Vec<(u32, u32)>,
    /// The colours a node may take before any reasoning.
    pub initial: Vec<u64>,
}

/// More colours than fit one machine word.
pub(super) struct TooManyColours;

impl Graph {
    pub fn new(p: &Puzzle) -> Result<Graph, TooManyColours> {
        if p.flows.len() > 64 {
            return Err(TooManyColours);
        }
        let mut first = Vec::with_capacity(p.cells.len());
        let mut cell_of = Vec::new();
        for (k, c) in p.cells.iter().enumerate() {
            first.push(cell_of.len());
            cell_of.push(k);
            if c.bridge {
                cell_of.push(k);
            }
        }
        // A bridge's second node carries its column links; a diagonal link cannot pass
        // straight through a bridge, so it is left out there.
        let node = |cell: usize, axis: Axis| -> Option<usize> {
            if !p.cells[cell].bridge {
                return Some(first[cell]);
            }
            match axis {
                Axis::Row => Some(first[cell]),
                Axis::Column => Some(first[cell] + 1),
                Axis::Diagonal => None,
            }
        };
        let n = cell_of.len();
        let mut ends = Vec::with_capacity(p.links.len());
        for l in &p.links {
            if let (Some(a), Some(b)) = (node(l.a, l.axis), node(l.b, l.axis)) {
                ends.push((a as u32, b as u32));
            }
        }
        let mut degree = vec![0u32; n + 1];
        for &(a, b) in &ends {
            degree[a as usize] += 1;
            degree[b as usize] += 1;
        }
        let mut start = vec![0u32; n + 1];
        for x in 0..n {
            start[x + 1] = start[x] + degree[x];
        }
        let mut fill = start.clone();
        let mut adj = vec![(0, 0); start[n] as usize];
        for (e, &(a, b)) in ends.iter().enumerate() {
            adj[fill[a as usize] as usize] = (e as u32, b);
            fill[a as usize] += 1;
            adj[fill[b as usize] as usize] = (e as u32, a);
            fill[b as usize] += 1;
        }
        let all = if p.flows.len() == 64 {
            u64::MAX
        } else {
            (1u64 << p.flows.len()) - 1
        };
        let mut need = vec![2u8; n];
        let mut initial = vec![all; n];
        let mut terminals = Vec::with_capacity(p.flows.len());
        for (k, f) in p.flows.iter().enumerate() {
            let (s, t) = (first[f.ends[0]], first[f.ends[1]]);
            for x in [s, t] {
                need[x] = 1;
                initial[x] = 1 << k;
            }
            terminals.push((s as u32, t as u32));
        }
        Ok(Graph {
            need,
            cell_of,
            ends,
            start,
            adj,
            terminals,
            initial,
        })
    }

    pub fn nodes(&self) -> usize {
        self.need.len()
    }

    /// `(edge, other node)` for each edge at `x`.
    #[inline]
    pub fn adj(&self, x: usize) -> &[(u32, u32)] {
        &self.adj[self.start[x] as usize..self.start[x + 1] as usize]
    }
}
