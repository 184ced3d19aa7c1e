//! The propagating search behind [`super::solve`]: each cell's shape (which two of its four
//! sides the loop crosses, or none off the loop) as a small domain, propagation to a fixpoint,
//! then depth-first search with a trail for undo. The search is resumable: [`Solver::step`]
//! runs a given number of nodes and returns, so several searches can take turns.
//!
//! Propagation, and why each rule is there:
//! - a side is a link between two cells, so both cells agree on it (arc consistency);
//! - a hint is a count of turn cells in its block: when the known turns reach it the other
//!   cells go straight (or empty), when the unknowns are all needed they all turn;
//! - a link never closes a fragment into a loop unless that loop is the whole answer (every
//!   cell in perfect mode, every link so far in any-loop mode), tracked with fragment ends
//!   so the test is O(1);
//! - every line between two rows or columns is crossed an even number of times, and at
//!   least twice when the loop visits every cell;
//! - every cell that must be on the loop is reachable from every other through links not
//!   ruled out; a cell that cannot be reached from the loop is off it.
//!
//! Search branches on the first undecided cell in reading order, after probing the branches
//! of the cells just ahead (see `Solver::probe`); docs/loop-solver.md has the measurements
//! behind both choices and what was tried and dropped.

use super::{Options, DEFAULT_PROOF_NODES};
use crate::games::loopgame::model::{Cycle, Puzzle};
use crate::solving::Limits;
use std::time::Instant;

// Sides of a cell as bits; a shape is the set of sides the loop crosses (0 = off the loop).
const UP: u8 = 1;
const RIGHT: u8 = 2;
const DOWN: u8 = 4;
const LEFT: u8 = 8;
const SIDES: [u8; 4] = [UP, RIGHT, DOWN, LEFT];

const fn shape(links: u8) -> u16 {
    1 << links
}

const EMPTY: u16 = shape(0);
const TURNS: u16 = shape(UP | RIGHT) | shape(RIGHT | DOWN) | shape(DOWN | LEFT) | shape(LEFT | UP);
const ON_LOOP: u16 = TURNS | shape(UP | DOWN) | shape(LEFT | RIGHT);

/// Shapes that cross side `side`.
const fn crossing(side: u8) -> u16 {
    let mut m = 0;
    let mut s = 0;
    while s < 16 {
        if s & side != 0 {
            m |= 1 << s;
        }
        s += 1;
    }
    m & (ON_LOOP | EMPTY)
}

const CROSSING: [u16; 4] = [
    crossing(UP),
    crossing(RIGHT),
    crossing(DOWN),
    crossing(LEFT),
];

const NONE: u32 = u32::MAX;
/// Boards of at most this many cells are probed whole at every node.
const SMALL_BOARD: usize = 64;
const UNKNOWN: u8 = 0;
const ON: u8 = 1;
const OFF: u8 = 2;

enum Undo {
    Domain(u32, u16),
    Edge(u32),
    End { cell: u32, end: u32, len: u32 },
}

/// Why a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// The tree was exhausted, or a second loop was found.
    Done,
    Deadline,
    ProofBudget,
}

struct Hint {
    value: u8,
    cells: Vec<u32>,
    /// Cells of the block that surely turn, and cells that still may or may not: kept up to
    /// date as domains change, so a woken hint costs O(1) unless it forces its block.
    turns: u8,
    open: u8,
}

/// One depth-first search over one puzzle.
pub(super) struct Solver {
    w: usize,
    n: usize,
    any_loop: bool,
    deadline: Option<Instant>,
    /// Nodes between two looks at the clock, less one (a power of two less one): a node's
    /// cost grows with the grid, so large grids look every node and keep the time limit.
    clock_mask: u64,
    proof_nodes: u64,
    /// Undecided cells probed ahead of the scan at each node: four rows, or the whole board
    /// on boards of up to 64 cells, where probing everything cut the slowest 8×8 daily from
    /// 5.3 to 2.1 ms (docs/loop-solver.md).
    probe_ahead: usize,
    /// Per cell and side (index into `SIDES`): the neighbour and the edge between them.
    neighbour: Vec<[u32; 4]>,
    edge_at: Vec<[u32; 4]>,
    hints: Vec<Hint>,
    hints_of: Vec<Vec<u32>>,
    /// Edge → the row or column line it crosses; line → its edges.
    line_of: Vec<u32>,
    line_edges: Vec<Vec<u32>>,

    domain: Vec<u16>,
    /// Edge `2*cell` is the cell's right side, `2*cell + 1` its bottom side.
    edge: Vec<u8>,
    /// For a cell that ends a fragment of links (or stands alone): the fragment's other end
    /// and its cell count. Stale for cells inside a fragment, which are never asked.
    end: Vec<u32>,
    len: Vec<u32>,
    on_links: u32,
    line_on: Vec<u16>,
    line_unknown: Vec<u16>,
    trail: Vec<Undo>,

    cell_queue: Vec<u32>,
    cell_queued: Vec<bool>,
    hint_queue: Vec<u32>,
    hint_queued: Vec<bool>,
    line_queue: Vec<u32>,
    line_queued: Vec<bool>,
    seen: Vec<bool>,
    stack: Vec<u32>,

    /// Open branch points, innermost last; empty before the root and after the end.
    frames: Vec<Frame>,
    started: bool,
    stopped: Option<Stop>,

    pub(super) nodes: u64,
    pub(super) nodes_to_first: Option<u64>,
    pub(super) found: Vec<Cycle>,
}

/// A cell being branched on: the trail length before the branch and the branches left.
struct Frame {
    mark: usize,
    cell: u32,
    branches: Branches,
    next: u8,
}

impl Solver {
    pub(super) fn new(p: &Puzzle, opts: &Options, limits: &Limits) -> Solver {
        let (w, h, n) = (p.cols, p.rows, p.cells());
        let mut neighbour = vec![[NONE; 4]; n];
        let mut edge_at = vec![[NONE; 4]; n];
        let mut domain = vec![0u16; n];
        for cell in 0..n {
            let (r, c) = (cell / w, cell % w);
            let mut dom = ON_LOOP | if opts.any_loop { EMPTY } else { 0 };
            let sides = [
                (r > 0).then(|| (cell - w, 2 * (cell - w) + 1)),
                (c + 1 < w).then(|| (cell + 1, 2 * cell)),
                (r + 1 < h).then(|| (cell + w, 2 * cell + 1)),
                (c > 0).then(|| (cell - 1, 2 * (cell - 1))),
            ];
            for (k, side) in sides.iter().enumerate() {
                match side {
                    Some((nb, e)) => {
                        neighbour[cell][k] = *nb as u32;
                        edge_at[cell][k] = *e as u32;
                    }
                    None => dom &= !CROSSING[k],
                }
            }
            domain[cell] = dom;
        }
        let mut hints = Vec::new();
        let mut hints_of = vec![Vec::new(); n];
        for cell in 0..n {
            if let Some(value) = p.hints[cell] {
                let cells: Vec<u32> = p
                    .block(cell / w, cell % w)
                    .map(|[r, c]| (r * w + c) as u32)
                    .collect();
                for &c in &cells {
                    hints_of[c as usize].push(hints.len() as u32);
                }
                let status = |c: &&u32| turn_status(domain[**c as usize]);
                let turns = cells.iter().filter(|c| status(c) == (true, false)).count() as u8;
                let open = cells.iter().filter(|c| status(c) == (true, true)).count() as u8;
                hints.push(Hint {
                    value,
                    cells,
                    turns,
                    open,
                });
            }
        }
        // Lines 0..w-1 lie between columns c and c+1; lines w-1.. between rows.
        let lines = (w - 1) + (h - 1);
        let mut line_of = vec![NONE; 2 * n];
        let mut line_edges = vec![Vec::new(); lines];
        for cell in 0..n {
            let (r, c) = (cell / w, cell % w);
            if c + 1 < w {
                line_of[2 * cell] = c as u32;
                line_edges[c].push(2 * cell as u32);
            }
            if r + 1 < h {
                line_of[2 * cell + 1] = (w - 1 + r) as u32;
                line_edges[w - 1 + r].push(2 * cell as u32 + 1);
            }
        }
        let line_unknown = line_edges.iter().map(|l| l.len() as u16).collect();
        let hint_count = hints.len();
        Solver {
            w,
            n,
            any_loop: opts.any_loop,
            deadline: limits.deadline,
            clock_mask: if n >= 4096 { 0 } else { 127 },
            proof_nodes: opts.proof_nodes.unwrap_or(DEFAULT_PROOF_NODES),
            probe_ahead: if n <= SMALL_BOARD { n } else { 4 * w },
            neighbour,
            edge_at,
            hints,
            hints_of,
            line_of,
            line_edges,
            domain,
            edge: vec![UNKNOWN; 2 * n],
            end: (0..n as u32).collect(),
            len: vec![1; n],
            on_links: 0,
            line_on: vec![0; lines],
            line_unknown,
            trail: Vec::with_capacity(8 * n),
            cell_queue: (0..n as u32).collect(),
            cell_queued: vec![true; n],
            hint_queue: (0..hint_count as u32).collect(),
            hint_queued: vec![true; hint_count],
            line_queue: (0..lines as u32).collect(),
            line_queued: vec![true; lines],
            seen: vec![false; n],
            stack: Vec::with_capacity(n),
            frames: Vec::new(),
            started: false,
            stopped: None,
            nodes: 0,
            nodes_to_first: None,
            found: Vec::new(),
        }
    }

    /// Searches for up to `budget` more nodes: `Some` once the search has ended (and on
    /// every call after), `None` when it paused and can go on where it stopped.
    pub(super) fn step(&mut self, budget: u64) -> Option<Stop> {
        if self.stopped.is_some() {
            return self.stopped;
        }
        let limit = self.nodes.saturating_add(budget);
        if !self.started {
            self.started = true;
            if let Err(stop) = self.enter() {
                return self.stop(stop);
            }
        }
        loop {
            let Some(frame) = self.frames.last_mut() else {
                return self.stop(Stop::Done);
            };
            let (mark, cell) = (frame.mark, frame.cell);
            let Some(part) = frame.branches.get(frame.next) else {
                self.frames.pop();
                self.undo(mark);
                continue;
            };
            if self.nodes >= limit {
                return None;
            }
            frame.next += 1;
            self.undo(mark);
            if self.restrict(cell, part) {
                if let Err(stop) = self.enter() {
                    return self.stop(stop);
                }
            }
        }
    }

    fn stop(&mut self, stop: Stop) -> Option<Stop> {
        self.stopped = Some(stop);
        self.stopped
    }

    /// One search node at the current state: propagate, then record a loop, or open a
    /// branch point on the first undecided cell; `Err` ends the whole search.
    fn enter(&mut self) -> Result<(), Stop> {
        loop {
            self.nodes += 1;
            // Node 1 checks too, so a deadline already past gives up before any work.
            if (self.nodes - 1) & self.clock_mask == 0
                && self.deadline.is_some_and(|d| Instant::now() >= d)
            {
                return Err(Stop::Deadline);
            }
            if let Some(first) = self.nodes_to_first {
                if self.nodes - first > self.proof_nodes {
                    return Err(Stop::ProofBudget);
                }
            }
            if !self.settle() {
                return Ok(());
            }
            let Some(cell) = self.branch_cell() else {
                if self.on_links > 0 {
                    let cycle = self.cycle();
                    self.found.push(cycle);
                    self.nodes_to_first.get_or_insert(self.nodes);
                    if self.found.len() >= 2 {
                        return Err(Stop::Done);
                    }
                }
                return Ok(());
            };
            match self.probe(cell, self.probe_ahead) {
                Probe::Fail => return Ok(()),
                // Ruled-out branches may wake more rules and move the first undecided cell;
                // the narrowing stays on the trail until the enclosing branch is undone.
                Probe::Narrowed => continue,
                Probe::Same => {}
            }
            self.frames.push(Frame {
                mark: self.trail.len(),
                cell: cell as u32,
                branches: Branches::of(self.domain[cell], !self.hints_of[cell].is_empty()),
                next: 0,
            });
            return Ok(());
        }
    }

    /// Failed-branch probing just ahead of the scan: each branch of the next `ahead`
    /// undecided cells after `cursor` is propagated on its own, and a branch that fails at
    /// once is ruled out here, so the search does not discover it rows later under every
    /// choice made in between. Probing one row ahead cut 20×20 search trees about tenfold;
    /// four rows is the best measured trade-off between fewer nodes and dearer nodes on
    /// 20×20 and 30×30 (see docs/loop-solver.md). Narrowings stay on the trail for the caller.
    fn probe(&mut self, cursor: usize, ahead: usize) -> Probe {
        let mut narrowed = false;
        let mut seen = 0;
        let mut cell = cursor;
        while seen < ahead && cell < self.n {
            let dom = self.domain[cell];
            if dom.count_ones() > 1 {
                seen += 1;
                let mut keep = 0u16;
                for part in Branches::of(dom, !self.hints_of[cell].is_empty()).iter() {
                    let mark = self.trail.len();
                    if self.restrict(cell as u32, part) && self.propagate() {
                        keep |= part;
                    }
                    self.undo(mark);
                }
                if keep == 0 {
                    return Probe::Fail;
                }
                if keep != dom {
                    if !self.restrict(cell as u32, keep) || !self.propagate() {
                        return Probe::Fail;
                    }
                    narrowed = true;
                }
            }
            cell += 1;
        }
        if narrowed {
            Probe::Narrowed
        } else {
            Probe::Same
        }
    }

    /// Propagates to a fixpoint, including the reachability rule; false on a contradiction.
    fn settle(&mut self) -> bool {
        loop {
            if !self.propagate() {
                return false;
            }
            match self.reach() {
                Reach::Fail => {
                    self.clear_queues();
                    return false;
                }
                Reach::Changed => continue,
                Reach::Stable => return true,
            }
        }
    }

    /// The first undecided cell in reading order. Branching in scan order keeps the decided
    /// part compact, so every fragment ends on its frontier: a wrong choice shows up as a
    /// broken hint, a closed sub-loop or an unreachable cell within a row or two, not far away
    /// (choosing the cell with the fewest shapes anywhere was 10-100× slower on 20×20).
    fn branch_cell(&self) -> Option<usize> {
        (0..self.n).find(|&cell| self.domain[cell].count_ones() > 1)
    }

    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            match self.trail.pop().expect("above mark") {
                Undo::Domain(cell, old) => {
                    let now = self.domain[cell as usize];
                    self.domain[cell as usize] = old;
                    if turn_status(now) != turn_status(old) {
                        self.recount(cell as usize, now, old);
                    }
                }
                Undo::Edge(e) => {
                    let line = self.line_of[e as usize] as usize;
                    self.line_unknown[line] += 1;
                    if self.edge[e as usize] == ON {
                        self.line_on[line] -= 1;
                        self.on_links -= 1;
                    }
                    self.edge[e as usize] = UNKNOWN;
                }
                Undo::End { cell, end, len } => {
                    self.end[cell as usize] = end;
                    self.len[cell as usize] = len;
                }
            }
        }
    }

    fn clear_queues(&mut self) {
        for c in self.cell_queue.drain(..) {
            self.cell_queued[c as usize] = false;
        }
        for h in self.hint_queue.drain(..) {
            self.hint_queued[h as usize] = false;
        }
        for l in self.line_queue.drain(..) {
            self.line_queued[l as usize] = false;
        }
    }

    fn propagate(&mut self) -> bool {
        let ok = loop {
            if let Some(c) = self.cell_queue.pop() {
                self.cell_queued[c as usize] = false;
                if !self.on_cell(c as usize) {
                    break false;
                }
            } else if let Some(l) = self.line_queue.pop() {
                self.line_queued[l as usize] = false;
                if !self.on_line(l as usize) {
                    break false;
                }
            } else if let Some(h) = self.hint_queue.pop() {
                self.hint_queued[h as usize] = false;
                if !self.on_hint(h as usize) {
                    break false;
                }
            } else {
                break true;
            }
        };
        if !ok {
            self.clear_queues();
        }
        ok
    }

    fn restrict(&mut self, cell: u32, mask: u16) -> bool {
        let old = self.domain[cell as usize];
        let new = old & mask;
        if new == old {
            return true;
        }
        if new == 0 {
            return false;
        }
        self.trail.push(Undo::Domain(cell, old));
        self.domain[cell as usize] = new;
        if !self.cell_queued[cell as usize] {
            self.cell_queued[cell as usize] = true;
            self.cell_queue.push(cell);
        }
        // A hint only counts sure turns and open cells, so it wakes only when this cell
        // becomes one or the other; waking it on every change was a third of the run time.
        if turn_status(old) != turn_status(new) {
            self.recount(cell as usize, old, new);
            for i in 0..self.hints_of[cell as usize].len() {
                let h = self.hints_of[cell as usize][i];
                if !self.hint_queued[h as usize] {
                    self.hint_queued[h as usize] = true;
                    self.hint_queue.push(h);
                }
            }
        }
        true
    }

    /// Moves `cell` from the count of its old turn status to its new one in its hints.
    fn recount(&mut self, cell: usize, old: u16, new: u16) {
        for &h in &self.hints_of[cell] {
            let hint = &mut self.hints[h as usize];
            match turn_status(old) {
                (true, false) => hint.turns -= 1,
                (true, true) => hint.open -= 1,
                _ => {}
            }
            match turn_status(new) {
                (true, false) => hint.turns += 1,
                (true, true) => hint.open += 1,
                _ => {}
            }
        }
    }

    /// A cell's domain changed: decide the sides it now forces.
    fn on_cell(&mut self, cell: usize) -> bool {
        for (k, crossing) in CROSSING.iter().enumerate() {
            let e = self.edge_at[cell][k];
            if e == NONE || self.edge[e as usize] != UNKNOWN {
                continue;
            }
            let dom = self.domain[cell];
            if dom & crossing == 0 {
                if !self.set_edge(e, false) {
                    return false;
                }
            } else if dom & !crossing == 0 && !self.set_edge(e, true) {
                return false;
            }
        }
        true
    }

    fn set_edge(&mut self, e: u32, on: bool) -> bool {
        let want = if on { ON } else { OFF };
        let now = self.edge[e as usize];
        if now != UNKNOWN {
            return now == want;
        }
        self.trail.push(Undo::Edge(e));
        self.edge[e as usize] = want;
        let line = self.line_of[e as usize] as usize;
        self.line_unknown[line] -= 1;
        if on {
            self.line_on[line] += 1;
            self.on_links += 1;
        }
        if self.line_unknown[line] <= 2 && !self.line_queued[line] {
            self.line_queued[line] = true;
            self.line_queue.push(line as u32);
        }
        let a = (e / 2) as usize;
        let (k, b) = if e.is_multiple_of(2) {
            (1, a + 1)
        } else {
            (2, a + self.w)
        };
        let (ma, mb) = (CROSSING[k], CROSSING[(k + 2) % 4]);
        let (ma, mb) = if on { (ma, mb) } else { (!ma, !mb) };
        if !self.restrict(a as u32, ma) || !self.restrict(b as u32, mb) {
            return false;
        }
        !on || self.link(a, b)
    }

    /// Joins the fragments ending at `a` and `b`, or closes one into the loop.
    fn link(&mut self, a: usize, b: usize) -> bool {
        let (ea, eb) = (self.end[a] as usize, self.end[b] as usize);
        if ea == b {
            let cells = self.len[a];
            if !self.any_loop {
                return cells as usize == self.n;
            }
            // The loop is the answer only if it holds every link: the rest goes off.
            if self.on_links != cells {
                return false;
            }
            for e in 0..self.edge.len() as u32 {
                if self.line_of[e as usize] != NONE
                    && self.edge[e as usize] == UNKNOWN
                    && !self.set_edge(e, false)
                {
                    return false;
                }
            }
            return true;
        }
        let total = self.len[a] + self.len[b];
        for (cell, other) in [(ea, eb), (eb, ea)] {
            self.trail.push(Undo::End {
                cell: cell as u32,
                end: self.end[cell],
                len: self.len[cell],
            });
            self.end[cell] = other as u32;
            self.len[cell] = total;
        }
        if let Some(k) = self.side_towards(ea, eb) {
            let closing_is_wrong = if self.any_loop {
                self.on_links > total - 1
            } else {
                (total as usize) < self.n
            };
            // Two lone cells just joined face each other across the link itself.
            let e = self.edge_at[ea][k];
            if closing_is_wrong && self.edge[e as usize] == UNKNOWN && !self.set_edge(e, false) {
                return false;
            }
        }
        true
    }

    fn side_towards(&self, a: usize, b: usize) -> Option<usize> {
        (0..4).find(|&k| self.neighbour[a][k] == b as u32)
    }

    /// A hint's block: count sure turns and undecided cells, force the rest when tight.
    fn on_hint(&mut self, h: usize) -> bool {
        let hint = &self.hints[h];
        let (value, turns, open) = (hint.value, hint.turns, hint.open);
        if turns > value || turns + open < value {
            return false;
        }
        if open == 0 {
            return true;
        }
        let mask = if turns == value {
            !TURNS
        } else if turns + open == value {
            TURNS
        } else {
            return true;
        };
        for i in 0..self.hints[h].cells.len() {
            let c = self.hints[h].cells[i];
            let d = self.domain[c as usize];
            let open = d & TURNS != 0 && d & !TURNS != 0;
            if open && !self.restrict(c, mask) {
                return false;
            }
        }
        true
    }

    /// A line between two rows (or columns) is crossed an even number of times, and at least
    /// twice when every cell lies on the loop.
    fn on_line(&mut self, line: usize) -> bool {
        let (on, unknown) = (self.line_on[line], self.line_unknown[line]);
        let least = if self.any_loop { 0 } else { 2 };
        if on + unknown < least {
            return false;
        }
        match unknown {
            0 => on.is_multiple_of(2),
            1 => {
                let e = self.line_edges[line]
                    .iter()
                    .copied()
                    .find(|&e| self.edge[e as usize] == UNKNOWN)
                    .expect("one unknown edge");
                self.set_edge(e, !on.is_multiple_of(2))
            }
            2 if on == 0 && least == 2 => {
                for i in 0..self.line_edges[line].len() {
                    let e = self.line_edges[line][i];
                    if self.edge[e as usize] == UNKNOWN && !self.set_edge(e, true) {
                        return false;
                    }
                }
                true
            }
            _ => true,
        }
    }

    /// Every cell that must be on the loop reaches the others through links not ruled out;
    /// cells the loop cannot reach go off it.
    fn reach(&mut self) -> Reach {
        let Some(start) = (0..self.n).find(|&c| self.domain[c] & EMPTY == 0) else {
            return Reach::Stable;
        };
        self.seen.fill(false);
        self.seen[start] = true;
        self.stack.clear();
        self.stack.push(start as u32);
        let mut reached = 1;
        while let Some(c) = self.stack.pop() {
            let c = c as usize;
            for k in 0..4 {
                let e = self.edge_at[c][k];
                if e == NONE || self.edge[e as usize] == OFF {
                    continue;
                }
                let nb = self.neighbour[c][k] as usize;
                if !self.seen[nb] {
                    self.seen[nb] = true;
                    reached += 1;
                    self.stack.push(nb as u32);
                }
            }
        }
        if reached == self.n {
            return Reach::Stable;
        }
        let mut changed = false;
        for c in 0..self.n {
            if !self.seen[c] && self.domain[c] != EMPTY {
                if !self.restrict(c as u32, EMPTY) {
                    return Reach::Fail;
                }
                changed = true;
            }
        }
        if changed {
            Reach::Changed
        } else {
            Reach::Stable
        }
    }

    /// The decided loop, cell by cell from the first cell on it.
    fn cycle(&self) -> Cycle {
        let w = self.w;
        let start = (0..self.n)
            .find(|&c| self.domain[c] != EMPTY)
            .expect("a loop was found");
        let mut cycle = Vec::new();
        let (mut prev, mut cur) = (NONE as usize, start);
        loop {
            cycle.push([cur / w, cur % w]);
            let links = self.domain[cur].trailing_zeros() as u8;
            let next = (0..4)
                .filter(|&k| links & SIDES[k] != 0)
                .map(|k| self.neighbour[cur][k] as usize)
                .find(|&nb| nb != prev)
                .expect("two links per loop cell");
            (prev, cur) = (cur, next);
            if cur == start {
                return cycle;
            }
        }
    }
}

enum Probe {
    Fail,
    Narrowed,
    Same,
}

enum Reach {
    Fail,
    Changed,
    Stable,
}

/// Whether a domain still allows a turn, and whether it still allows anything else.
fn turn_status(dom: u16) -> (bool, bool) {
    (dom & TURNS != 0, dom & !TURNS != 0)
}

/// The branches for a cell: turn or not when a hint watches it, else one shape each (at
/// most seven: six on the loop and off it). A fixed array, so branching never allocates.
struct Branches {
    parts: [u16; 7],
    len: u8,
}

impl Branches {
    fn of(dom: u16, hinted: bool) -> Branches {
        let mut b = Branches {
            parts: [0; 7],
            len: 0,
        };
        let (t, rest) = (dom & TURNS, dom & !TURNS);
        if hinted && t != 0 && rest != 0 {
            b.parts[..2].copy_from_slice(&[t, rest]);
            b.len = 2;
            return b;
        }
        let mut left = dom;
        while left != 0 {
            let bit = left & left.wrapping_neg();
            b.parts[b.len as usize] = bit;
            b.len += 1;
            left &= !bit;
        }
        b
    }

    fn get(&self, i: u8) -> Option<u16> {
        (i < self.len).then(|| self.parts[i as usize])
    }

    fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.parts[..self.len as usize].iter().copied()
    }
}
