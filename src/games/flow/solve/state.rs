//! The root state and its propagation. Every edge is unknown, on or off; every node holds
//! the set of colours it may still take. (It once kept a trail of changes to undo a search's
//! failed branches; clause learning took the search's place, `docs/flow-solver.md`.)
//!
//! Rules, applied to a fixpoint:
//! * degree: a node has exactly `need` edges on (1 at an endpoint, 2 elsewhere);
//! * an edge on joins two nodes of one colour, an edge between disjoint colour sets is off;
//! * support: a non-endpoint node keeps a colour only while two usable edges lead to nodes that
//!   may take it (one for an endpoint);
//! * no loops: each chain of edges on knows its other end, and an edge closing a chain on
//!   itself is off;
//! * per colour (`colour.rs`): a node keeps the colour only on some simple path between its
//!   endpoints; cut nodes and bridges between them are forced. Only colours whose graph lost a
//!   node or an edge since their last check are looked at again.

use super::graph::Graph;
use super::scratch::{Regions, Scratch};

pub(super) const UNKNOWN: u8 = 0;
pub(super) const ON: u8 = 1;
pub(super) const OFF: u8 = 2;

/// The branch is dead.
#[derive(Debug)]
pub(super) struct Conflict;

pub(super) type Step = Result<(), Conflict>;

pub(super) struct State<'g> {
    pub g: &'g Graph,
    pub edge: Vec<u8>,
    pub on: Vec<u8>,
    pub unknown: Vec<u8>,
    pub colours: Vec<u64>,
    /// For a node at the end of a chain of edges on, the chain's other end (itself when alone).
    pub end: Vec<u32>,
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// Colours whose graph shrank since the colour rule last looked at them.
    dirty: u64,
    pub(super) scratch: Scratch,
    pub(super) regions: Regions,
}

impl<'g> State<'g> {
    pub fn new(g: &'g Graph) -> State<'g> {
        let n = g.nodes();
        let unknown = (0..n).map(|x| g.adj(x).len() as u8).collect();
        State {
            g,
            edge: vec![UNKNOWN; g.ends.len()],
            on: vec![0; n],
            unknown,
            colours: g.initial.clone(),
            end: (0..n as u32).collect(),
            queue: (0..n as u32).collect(),
            queued: vec![true; n],
            dirty: (0..g.terminals.len()).fold(0, |m, k| m | (1 << k)),
            scratch: Scratch::new(n),
            regions: Regions::new(n),
        }
    }

    fn enqueue(&mut self, x: usize) {
        if !self.queued[x] {
            self.queued[x] = true;
            self.queue.push(x as u32);
        }
    }

    fn clear_queue(&mut self) {
        for &x in &self.queue {
            self.queued[x as usize] = false;
        }
        self.queue.clear();
        self.dirty = 0;
    }

    pub fn set_colours(&mut self, x: usize, c: u64) -> Step {
        let old = self.colours[x];
        if c == old {
            return Ok(());
        }
        if c == 0 {
            return Err(Conflict);
        }
        self.colours[x] = c;
        self.dirty |= old & !c;
        self.enqueue(x);
        let g = self.g;
        for &(_, y) in g.adj(x) {
            self.enqueue(y as usize);
        }
        Ok(())
    }

    fn set_end(&mut self, x: u32, to: u32) {
        self.end[x as usize] = to;
    }

    pub fn set_on(&mut self, e: usize) -> Step {
        match self.edge[e] {
            ON => return Ok(()),
            OFF => return Err(Conflict),
            _ => {}
        }
        let g = self.g;
        let (u, v) = g.ends[e];
        let (ui, vi) = (u as usize, v as usize);
        if self.on[ui] >= g.need[ui] || self.on[vi] >= g.need[vi] {
            return Err(Conflict);
        }
        let (eu, ev) = (self.end[ui], self.end[vi]);
        if eu == v {
            return Err(Conflict);
        }
        self.edge[e] = ON;
        self.on[ui] += 1;
        self.on[vi] += 1;
        self.unknown[ui] -= 1;
        self.unknown[vi] -= 1;
        self.set_end(eu, ev);
        self.set_end(ev, eu);
        self.enqueue(ui);
        self.enqueue(vi);
        let joined = self.colours[ui] & self.colours[vi];
        self.set_colours(ui, joined)?;
        self.set_colours(vi, joined)?;
        // An edge between the new chain's two ends would close it into a loop.
        for &(f, y) in g.adj(eu as usize) {
            if y == ev && self.edge[f as usize] == UNKNOWN {
                self.set_off(f as usize)?;
            }
        }
        Ok(())
    }

    pub fn set_off(&mut self, e: usize) -> Step {
        match self.edge[e] {
            OFF => return Ok(()),
            ON => return Err(Conflict),
            _ => {}
        }
        let (u, v) = self.g.ends[e];
        self.dirty |= self.colours[u as usize] & self.colours[v as usize];
        self.edge[e] = OFF;
        self.unknown[u as usize] -= 1;
        self.unknown[v as usize] -= 1;
        self.enqueue(u as usize);
        self.enqueue(v as usize);
        Ok(())
    }

    /// Applies every rule until nothing changes. On a conflict the state is left half-way: the
    /// board has no solution.
    pub fn propagate(&mut self) -> Step {
        let r = self.fixpoint();
        if r.is_err() {
            self.clear_queue();
        }
        r
    }

    fn fixpoint(&mut self) -> Step {
        loop {
            while let Some(x) = self.queue.pop() {
                self.queued[x as usize] = false;
                self.local(x as usize)?;
            }
            // One colour at a time, so the cheap local rules see its result first.
            if self.dirty == 0 {
                self.region_rule()?;
                if self.queue.is_empty() && self.dirty == 0 {
                    return Ok(());
                }
                continue;
            }
            let k = self.dirty.trailing_zeros() as usize;
            self.dirty &= !(1u64 << k);
            self.colour_rule(k)?;
        }
    }

    /// Degree, colour agreement and support at one node.
    fn local(&mut self, x: usize) -> Step {
        let g = self.g;
        let need = g.need[x];
        let (on, unknown) = (self.on[x], self.unknown[x]);
        if on > need || on + unknown < need {
            return Err(Conflict);
        }
        if unknown > 0 && (on == need || on + unknown == need) {
            let fill = on < need;
            for &(e, _) in g.adj(x) {
                if self.edge[e as usize] == UNKNOWN {
                    if fill {
                        self.set_on(e as usize)?;
                    } else {
                        self.set_off(e as usize)?;
                    }
                }
            }
        }
        let (mut seen, mut twice) = (0u64, 0u64);
        for &(e, y) in g.adj(x) {
            let y = y as usize;
            match self.edge[e as usize] {
                OFF => continue,
                ON => {
                    let joined = self.colours[x] & self.colours[y];
                    self.set_colours(x, joined)?;
                    self.set_colours(y, joined)?;
                }
                _ => {
                    if self.colours[x] & self.colours[y] == 0 {
                        self.set_off(e as usize)?;
                        continue;
                    }
                }
            }
            let c = self.colours[y];
            twice |= seen & c;
            seen |= c;
        }
        let support = if need == 2 { twice } else { seen };
        self.set_colours(x, self.colours[x] & support)
    }
}
