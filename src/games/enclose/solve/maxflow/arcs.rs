//! A flow network in compressed rows, built once from a list of edges: node v's arcs are
//! `start[v]..start[v + 1]`, each edge a forward arc at its tail and a reverse arc at its head.

/// The arrays of a network built by [`Arcs::new`].
pub(super) struct Arcs {
    pub(super) start: Vec<u32>,
    pub(super) to: Vec<u32>,
    /// The arc in the other direction of the same edge.
    pub(super) rev: Vec<u32>,
    /// Whether an arc is its edge's forward one.
    pub(super) fwd: Vec<bool>,
    /// The capacities: the edge's on its forward arc, 0 on its reverse.
    pub(super) cap: Vec<i32>,
    /// The forward arc of each edge, in the order given.
    pub(super) of_edge: Vec<u32>,
}

impl Arcs {
    /// `edges`: (tail, head, capacity) over nodes `0..nodes`.
    pub(super) fn new(nodes: usize, edges: &[(u32, u32, i32)]) -> Arcs {
        let mut start = vec![0u32; nodes + 1];
        for &(u, v, _) in edges {
            start[u as usize + 1] += 1;
            start[v as usize + 1] += 1;
        }
        for i in 0..nodes {
            start[i + 1] += start[i];
        }
        let na = start[nodes] as usize;
        let mut fill: Vec<u32> = start[..nodes].to_vec();
        let mut arcs = Arcs {
            to: vec![0; na],
            rev: vec![0; na],
            fwd: vec![false; na],
            cap: vec![0; na],
            of_edge: Vec::with_capacity(edges.len()),
            start,
        };
        for &(u, v, c) in edges {
            let a = fill[u as usize] as usize;
            fill[u as usize] += 1;
            let b = fill[v as usize] as usize;
            fill[v as usize] += 1;
            arcs.to[a] = v;
            arcs.to[b] = u;
            arcs.rev[a] = b as u32;
            arcs.rev[b] = a as u32;
            arcs.fwd[a] = true;
            arcs.cap[a] = c;
            arcs.of_edge.push(a as u32);
        }
        arcs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_edge_is_a_forward_arc_at_its_tail_and_a_reverse_at_its_head() {
        let arcs = Arcs::new(3, &[(0, 1, 5), (1, 2, 7), (0, 2, 1)]);
        assert_eq!(arcs.start, vec![0, 2, 4, 6]);
        for (e, &(u, v, c)) in [(0u32, 1u32, 5), (1, 2, 7), (0, 2, 1)].iter().enumerate() {
            let a = arcs.of_edge[e] as usize;
            let b = arcs.rev[a] as usize;
            assert!((arcs.start[u as usize]..arcs.start[u as usize + 1]).contains(&(a as u32)));
            assert!((arcs.start[v as usize]..arcs.start[v as usize + 1]).contains(&(b as u32)));
            assert_eq!((arcs.to[a], arcs.to[b], arcs.rev[b] as usize), (v, u, a));
            assert_eq!((arcs.fwd[a], arcs.fwd[b]), (true, false));
            assert_eq!((arcs.cap[a], arcs.cap[b]), (c, 0));
        }
    }
}
