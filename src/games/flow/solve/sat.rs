//! A small conflict-driven clause-learning SAT solver: two watched literals with blockers (a
//! two-literal clause is handled from its watch alone), first-UIP learning with recursive
//! minimisation, activity-ordered decisions with saved phases, Luby restarts, and learned
//! clauses thinned by literal-block distance at restarts. Clauses may be added between solves
//! (the Flow encoding adds a clause for each loop it finds); everything learned stays valid
//! because the formula only ever grows.
//!
//! Why learning: the propagation search in `state.rs` has no memory, and on open boards a
//! failure far away from the last decisions sends it back through every combination of
//! unrelated choices; a learned clause records only the decisions that caused the failure.

use std::time::Instant;

/// Variable `v` is literal `2v` (true) or `2v + 1` (false).
pub(super) type Lit = u32;

pub(super) fn pos(v: u32) -> Lit {
    2 * v
}

pub(super) fn neg(v: u32) -> Lit {
    2 * v + 1
}

const NO_REASON: u32 = u32::MAX;
const UNSET: u8 = 2;
/// Tags the watch of a two-literal clause, whose blocker is its other literal: propagation
/// never has to read the clause.
const BINARY: u32 = 1 << 31;
/// Clauses live in one arena as `[length | flags, literal-block distance, literals...]`,
/// named by the index of their first word; one allocation instead of one per clause.
const HEADER: usize = 2;
const LEARNT: u32 = 1 << 31;
const DELETED: u32 = 1 << 30;
const LEN: u32 = DELETED - 1;
/// Learned clauses kept before the first thinning, and the growth after each.
const FIRST_REDUCE: usize = 2000;
const REDUCE_STEP: usize = 500;
/// Conflicts per Luby step between restarts.
const RESTART_UNIT: u64 = 100;
/// Activity decay per conflict: faster than the usual 0.95, since on Flow boards the
/// trouble moves from one corner of the board to another (fewest decisions over five large
/// packs among 0.75 to 0.95).
const DECAY: f64 = 0.85;

pub(super) enum Answer {
    Sat,
    Unsat,
    OutOfTime,
    /// The clauses past the memory allowed, even with the learned ones thinned.
    OutOfMemory,
}

/// Watch lists past which a solver is freed on a thread of its own (a million literals).
const FREED_ASIDE: usize = 1 << 20;

/// Bytes per variable outside the clauses: its value, level, reason, phase, activity, marks,
/// place in the heap, and its two literals' watch lists.
const PER_VAR: usize = 88;

pub(super) struct Sat {
    arena: Vec<u32>,
    /// Watch entries in `watches` (two per clause of two literals or more).
    watched: usize,
    /// The bytes the solver may hold ([`Sat::bytes`]).
    pub memory: usize,
    learnts: Vec<u32>,
    max_learnts: usize,
    /// For each literal, the clauses watching it (it is one of their first two), each with
    /// another of its literals: when that one is true the clause need not be read.
    watches: Vec<Vec<(u32, Lit)>>,
    /// Per variable: 0 false, 1 true, `UNSET`.
    value: Vec<u8>,
    level: Vec<u32>,
    reason: Vec<u32>,
    phase: Vec<bool>,
    activity: Vec<f64>,
    bump: f64,
    heap: Heap,
    trail: Vec<Lit>,
    /// Where each decision level starts on the trail.
    levels: Vec<usize>,
    head: usize,
    seen: Vec<bool>,
    learnt: Vec<Lit>,
    stack: Vec<Lit>,
    to_clear: Vec<Lit>,
    /// Per decision level, the conflict that last counted it (literal-block distance).
    level_stamp: Vec<u64>,
    /// A clause added at level 0 was empty or contradicted: no model exists.
    broken: bool,
    pub decisions: u64,
    pub conflicts: u64,
}

impl Sat {
    pub fn new(vars: usize) -> Sat {
        let mut heap = Heap::default();
        let activity = vec![0.0; vars];
        for v in 0..vars as u32 {
            heap.push(v, &activity);
        }
        Sat {
            arena: Vec::new(),
            watched: 0,
            memory: crate::solving::MEMORY,
            learnts: Vec::new(),
            max_learnts: FIRST_REDUCE,
            watches: vec![Vec::new(); 2 * vars],
            value: vec![UNSET; vars],
            level: vec![0; vars],
            reason: vec![NO_REASON; vars],
            phase: vec![false; vars],
            activity,
            bump: 1.0,
            heap,
            trail: Vec::new(),
            levels: Vec::new(),
            head: 0,
            seen: vec![false; vars],
            learnt: Vec::new(),
            stack: Vec::new(),
            to_clear: Vec::new(),
            level_stamp: vec![0; vars + 1],
            broken: false,
            decisions: 0,
            conflicts: 0,
        }
    }

    /// Truth of `l` under the current assignment: 0 false, 1 true, `UNSET`.
    #[inline]
    fn lit_value(&self, l: Lit) -> u8 {
        let v = self.value[(l >> 1) as usize];
        if v == UNSET {
            UNSET
        } else {
            v ^ (l & 1) as u8
        }
    }

    pub fn model(&self, v: u32) -> bool {
        self.value[v as usize] == 1
    }

    #[inline]
    fn assign(&mut self, l: Lit, reason: u32) {
        let v = (l >> 1) as usize;
        self.value[v] = 1 ^ (l & 1) as u8;
        self.level[v] = self.levels.len() as u32;
        self.reason[v] = reason;
        self.trail.push(l);
    }

    /// Adds a clause; must be called at decision level 0 (before or between solves).
    pub fn add(&mut self, lits: &[Lit]) {
        self.backtrack(0);
        let mut c = std::mem::take(&mut self.learnt);
        c.clear();
        for &l in lits {
            match self.lit_value(l) {
                1 => {
                    self.learnt = c;
                    return;
                }
                0 => continue,
                _ => {
                    if c.contains(&(l ^ 1)) {
                        self.learnt = c;
                        return;
                    }
                    if !c.contains(&l) {
                        c.push(l);
                    }
                }
            }
        }
        match c.len() {
            0 => self.broken = true,
            1 => {
                self.assign(c[0], NO_REASON);
                if self.propagate().is_some() {
                    self.broken = true;
                }
            }
            _ => {
                self.attach(&c, 0);
            }
        }
        self.learnt = c;
    }

    /// Stores a clause whose first two literals are to be watched; `lbd` 0 marks an
    /// original clause.
    fn attach(&mut self, c: &[Lit], lbd: u32) -> u32 {
        let cr = self.arena.len() as u32;
        let flags = if lbd > 0 { LEARNT } else { 0 };
        self.arena.push(c.len() as u32 | flags);
        self.arena.push(lbd);
        self.arena.extend_from_slice(c);
        if lbd > 0 {
            self.learnts.push(cr);
        }
        self.watch(cr);
        cr
    }

    fn watch(&mut self, cr: u32) {
        let c = cr as usize + HEADER;
        let (a, b) = (self.arena[c], self.arena[c + 1]);
        let tag = if self.arena[cr as usize] & LEN == 2 {
            cr | BINARY
        } else {
            cr
        };
        self.watches[a as usize].push((tag, b));
        self.watches[b as usize].push((tag, a));
        self.watched += 2;
    }

    /// What the solver holds, about: the clause arena as allocated, the watch entries (with
    /// their lists' room to grow) and the per-variable arrays.
    pub fn bytes(&self) -> usize {
        self.arena.capacity() * 4 + self.watched * 8 * 2 + self.value.len() * PER_VAR
    }

    /// Whether [`Sat::bytes`] is past [`Sat::memory`].
    pub fn over_memory(&self) -> bool {
        self.bytes() > self.memory
    }

    /// Unit propagation; the conflicting clause, if any.
    fn propagate(&mut self) -> Option<u32> {
        while self.head < self.trail.len() {
            let l = self.trail[self.head];
            self.head += 1;
            let falsified = l ^ 1;
            let mut ws = std::mem::take(&mut self.watches[falsified as usize]);
            let (mut i, mut j) = (0, 0);
            let mut conflict = None;
            while i < ws.len() {
                let (tag, blocker) = ws[i];
                let bv = self.lit_value(blocker);
                if bv == 1 {
                    ws[j] = ws[i];
                    i += 1;
                    j += 1;
                    continue;
                }
                if tag & BINARY != 0 {
                    ws[j] = ws[i];
                    i += 1;
                    j += 1;
                    let cr = tag & !BINARY;
                    if bv == 0 {
                        conflict = Some(cr);
                        break;
                    }
                    self.assign(blocker, cr);
                    continue;
                }
                let cr = tag;
                let c = cr as usize + HEADER;
                let len = (self.arena[cr as usize] & LEN) as usize;
                if self.arena[c] == falsified {
                    self.arena.swap(c, c + 1);
                }
                let first = self.arena[c];
                let fv = self.lit_value(first);
                if fv == 1 {
                    ws[j] = (cr, first);
                    i += 1;
                    j += 1;
                    continue;
                }
                // Look for a new literal to watch.
                let mut moved = false;
                for k in 2..len {
                    let lk = self.arena[c + k];
                    if self.lit_value(lk) != 0 {
                        self.arena.swap(c + 1, c + k);
                        self.watches[lk as usize].push((cr, first));
                        moved = true;
                        break;
                    }
                }
                i += 1;
                if moved {
                    continue;
                }
                ws[j] = (cr, first);
                j += 1;
                if fv == 0 {
                    conflict = Some(cr);
                    break;
                }
                self.assign(first, cr);
            }
            while i < ws.len() {
                ws[j] = ws[i];
                i += 1;
                j += 1;
            }
            ws.truncate(j);
            // Nothing new watches `falsified` meanwhile: a new watch is never a false literal.
            self.watches[falsified as usize] = ws;
            if conflict.is_some() {
                return conflict;
            }
        }
        None
    }

    fn backtrack(&mut self, to: usize) {
        if self.levels.len() <= to {
            return;
        }
        let start = self.levels[to];
        for i in (start..self.trail.len()).rev() {
            let v = self.trail[i] >> 1;
            self.phase[v as usize] = self.value[v as usize] == 1;
            self.value[v as usize] = UNSET;
            self.reason[v as usize] = NO_REASON;
            if !self.heap.contains(v) {
                self.heap.push(v, &self.activity);
            }
        }
        self.trail.truncate(start);
        self.levels.truncate(to);
        self.head = start;
    }

    /// First-UIP clause for the conflict into `self.learnt` (asserting literal first, the
    /// literal of the level to go back to second), and that level.
    fn analyse(&mut self, mut cr: u32) -> usize {
        let current = self.levels.len() as u32;
        let mut learnt = std::mem::take(&mut self.learnt);
        learnt.clear();
        learnt.push(0);
        let mut open = 0;
        let mut i = self.trail.len();
        // The variable whose reason is being read: its own literal is skipped.
        let mut implied = u32::MAX;
        loop {
            let c = cr as usize;
            let len = (self.arena[c] & LEN) as usize;
            for j in 0..len {
                let q = self.arena[c + HEADER + j];
                let v = (q >> 1) as usize;
                if v as u32 == implied || self.seen[v] || self.level[v] == 0 {
                    continue;
                }
                self.seen[v] = true;
                self.bump(v as u32);
                if self.level[v] == current {
                    open += 1;
                } else {
                    learnt.push(q);
                }
            }
            // The next literal of this level on the trail that took part.
            loop {
                i -= 1;
                if self.seen[(self.trail[i] >> 1) as usize] {
                    break;
                }
            }
            let l = self.trail[i];
            let v = l >> 1;
            self.seen[v as usize] = false;
            open -= 1;
            if open == 0 {
                learnt[0] = l ^ 1;
                break;
            }
            implied = v;
            cr = self.reason[v as usize];
        }
        // Drop literals implied by the others (their reasons lead only back into the clause).
        let mut abstract_levels = 0u32;
        for &q in &learnt[1..] {
            abstract_levels |= 1 << (self.level[(q >> 1) as usize] & 31);
        }
        self.to_clear.clear();
        self.to_clear.extend_from_slice(&learnt[1..]);
        let mut k = 1;
        for j in 1..learnt.len() {
            let q = learnt[j];
            if self.reason[(q >> 1) as usize] == NO_REASON || !self.redundant(q, abstract_levels) {
                learnt[k] = q;
                k += 1;
            }
        }
        learnt.truncate(k);
        for idx in 0..self.to_clear.len() {
            let q = self.to_clear[idx];
            self.seen[(q >> 1) as usize] = false;
        }
        // Back to the second-highest level, with that literal watched second.
        let mut back = 0;
        if learnt.len() > 1 {
            let mut best = 1;
            for k in 2..learnt.len() {
                if self.level[(learnt[k] >> 1) as usize] > self.level[(learnt[best] >> 1) as usize]
                {
                    best = k;
                }
            }
            learnt.swap(1, best);
            back = self.level[(learnt[1] >> 1) as usize] as usize;
        }
        self.learnt = learnt;
        self.bump *= 1.0 / DECAY;
        back
    }

    /// Whether `p` (in the learned clause, with a reason) follows from the clause's other
    /// literals. Literals found to follow stay marked in `seen` (and listed in `to_clear`).
    fn redundant(&mut self, p: Lit, abstract_levels: u32) -> bool {
        self.stack.clear();
        self.stack.push(p);
        let top = self.to_clear.len();
        while let Some(q) = self.stack.pop() {
            let cr = self.reason[(q >> 1) as usize] as usize;
            let len = (self.arena[cr] & LEN) as usize;
            for j in 0..len {
                let x = self.arena[cr + HEADER + j];
                let v = (x >> 1) as usize;
                if v == (q >> 1) as usize || self.seen[v] || self.level[v] == 0 {
                    continue;
                }
                if self.reason[v] != NO_REASON && abstract_levels & (1 << (self.level[v] & 31)) != 0
                {
                    self.seen[v] = true;
                    self.stack.push(x);
                    self.to_clear.push(x);
                } else {
                    for idx in top..self.to_clear.len() {
                        let y = self.to_clear[idx];
                        self.seen[(y >> 1) as usize] = false;
                    }
                    self.to_clear.truncate(top);
                    return false;
                }
            }
        }
        true
    }

    /// Distinct decision levels among the learned clause's literals.
    fn lbd(&mut self) -> u32 {
        let stamp = self.conflicts + 1;
        let mut n = 0;
        for idx in 0..self.learnt.len() {
            let lv = self.level[(self.learnt[idx] >> 1) as usize] as usize;
            if self.level_stamp[lv] != stamp {
                self.level_stamp[lv] = stamp;
                n += 1;
            }
        }
        n
    }

    /// At level 0: drops the less useful half of the learned clauses (highest literal-block
    /// distance first), compacts the arena and rebuilds the watches. `glue`: the clauses of
    /// distance 2 or less may go too (when memory, not their count, asks for room).
    fn reduce(&mut self, glue: bool) {
        debug_assert!(self.levels.is_empty());
        let mut order: Vec<u32> = self
            .learnts
            .iter()
            .copied()
            .filter(|&cr| glue || self.arena[cr as usize + 1] > 2)
            .collect();
        order.sort_by_key(|&cr| std::cmp::Reverse(self.arena[cr as usize + 1]));
        // When memory asks, at least one goes (a lone clause too).
        let drop = if glue {
            order.len().div_ceil(2)
        } else {
            order.len() / 2
        };
        for &cr in &order[..drop] {
            self.arena[cr as usize] |= DELETED;
        }
        // Level-0 facts are never explained again.
        for &l in &self.trail {
            self.reason[(l >> 1) as usize] = NO_REASON;
        }
        let mut arena = Vec::new();
        self.learnts.clear();
        let mut cr = 0;
        while cr < self.arena.len() {
            let head = self.arena[cr];
            let size = HEADER + (head & LEN) as usize;
            if head & DELETED == 0 {
                if head & LEARNT != 0 {
                    self.learnts.push(arena.len() as u32);
                }
                arena.extend_from_slice(&self.arena[cr..cr + size]);
            }
            cr += size;
        }
        arena.shrink_to_fit();
        self.arena = arena;
        for w in &mut self.watches {
            w.clear();
        }
        self.watched = 0;
        let mut cr = 0;
        while cr < self.arena.len() {
            self.watch(cr as u32);
            cr += HEADER + (self.arena[cr] & LEN) as usize;
        }
        if !glue {
            self.max_learnts += REDUCE_STEP;
        }
    }

    fn bump(&mut self, v: u32) {
        self.activity[v as usize] += self.bump;
        if self.activity[v as usize] > 1e100 {
            self.activity.iter_mut().for_each(|a| *a *= 1e-100);
            self.bump *= 1e-100;
        }
        self.heap.raise(v, &self.activity);
    }

    fn decide(&mut self) -> Option<Lit> {
        while let Some(v) = self.heap.pop(&self.activity) {
            if self.value[v as usize] == UNSET {
                return Some(if self.phase[v as usize] {
                    pos(v)
                } else {
                    neg(v)
                });
            }
        }
        None
    }

    /// Searches for a model of every clause added so far.
    pub fn solve(&mut self, deadline: Option<Instant>) -> Answer {
        if self.broken {
            return Answer::Unsat;
        }
        let mut conflicts: u64 = 0;
        let mut restart = 1u64;
        let mut budget = RESTART_UNIT * luby(restart);
        loop {
            if let Some(cr) = self.propagate() {
                conflicts += 1;
                self.conflicts += 1;
                if self.levels.is_empty() {
                    self.broken = true;
                    return Answer::Unsat;
                }
                let back = self.analyse(cr);
                self.backtrack(back);
                let learnt = std::mem::take(&mut self.learnt);
                if learnt.len() == 1 {
                    self.assign(learnt[0], NO_REASON);
                } else {
                    let lbd = self.lbd();
                    let cr = self.attach(&learnt, lbd.max(1));
                    self.assign(learnt[0], cr);
                }
                self.learnt = learnt;
                if conflicts.is_multiple_of(256) {
                    if deadline.is_some_and(|d| Instant::now() > d) {
                        return Answer::OutOfTime;
                    }
                    // Learned clauses past the memory allowed: a restart thins them now.
                    if self.over_memory() {
                        self.backtrack(0);
                        while self.over_memory() && !self.learnts.is_empty() {
                            self.reduce(true);
                        }
                        if self.over_memory() {
                            return Answer::OutOfMemory;
                        }
                        restart += 1;
                        budget = conflicts + RESTART_UNIT * luby(restart);
                    }
                }
                continue;
            }
            if conflicts >= budget {
                restart += 1;
                budget = conflicts + RESTART_UNIT * luby(restart);
                self.backtrack(0);
                if self.learnts.len() >= self.max_learnts {
                    self.reduce(false);
                }
            }
            let Some(l) = self.decide() else {
                return Answer::Sat;
            };
            self.decisions += 1;
            if self.decisions.is_multiple_of(1024) && deadline.is_some_and(|d| Instant::now() > d) {
                return Answer::OutOfTime;
            }
            self.levels.push(self.trail.len());
            self.assign(l, NO_REASON);
        }
    }
}

// Freeing a big formula's millions of watch lists takes a tenth of a second and more, past
// the deadline of a solve that just gave up; a thread of its own frees them instead (a process
// that exits next does not wait for it at all).
impl Drop for Sat {
    fn drop(&mut self) {
        if self.watches.len() >= FREED_ASIDE {
            let watches = std::mem::take(&mut self.watches);
            let _ = std::thread::Builder::new().spawn(move || drop(watches));
        }
    }
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, ...
pub(super) fn luby(i: u64) -> u64 {
    let mut i = i;
    loop {
        let mut k = 1;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if i == (1u64 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// A max-heap of variables by activity.
#[derive(Default)]
struct Heap {
    items: Vec<u32>,
    /// Position of each variable in `items`, or `u32::MAX`.
    at: Vec<u32>,
}

impl Heap {
    fn contains(&self, v: u32) -> bool {
        self.at.get(v as usize).is_some_and(|&p| p != u32::MAX)
    }

    fn push(&mut self, v: u32, act: &[f64]) {
        if self.at.len() <= v as usize {
            self.at.resize(v as usize + 1, u32::MAX);
        }
        self.at[v as usize] = self.items.len() as u32;
        self.items.push(v);
        self.up(self.items.len() - 1, act);
    }

    fn raise(&mut self, v: u32, act: &[f64]) {
        if self.contains(v) {
            self.up(self.at[v as usize] as usize, act);
        }
    }

    fn pop(&mut self, act: &[f64]) -> Option<u32> {
        let top = *self.items.first()?;
        let last = self.items.pop().expect("not empty");
        self.at[top as usize] = u32::MAX;
        if !self.items.is_empty() {
            self.items[0] = last;
            self.at[last as usize] = 0;
            self.down(0, act);
        }
        Some(top)
    }

    fn up(&mut self, mut i: usize, act: &[f64]) {
        while i > 0 {
            let p = (i - 1) / 2;
            if act[self.items[p] as usize] >= act[self.items[i] as usize] {
                break;
            }
            self.swap(i, p);
            i = p;
        }
    }

    fn down(&mut self, mut i: usize, act: &[f64]) {
        loop {
            let (l, r) = (2 * i + 1, 2 * i + 2);
            let mut m = i;
            if l < self.items.len() && act[self.items[l] as usize] > act[self.items[m] as usize] {
                m = l;
            }
            if r < self.items.len() && act[self.items[r] as usize] > act[self.items[m] as usize] {
                m = r;
            }
            if m == i {
                break;
            }
            self.swap(i, m);
            i = m;
        }
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.items.swap(i, j);
        self.at[self.items[i] as usize] = i as u32;
        self.at[self.items[j] as usize] = j as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_models_and_refutes() {
        // (a or b) and (not a or b) and (a or not b): a = b = true.
        let mut s = Sat::new(2);
        s.add(&[pos(0), pos(1)]);
        s.add(&[neg(0), pos(1)]);
        s.add(&[pos(0), neg(1)]);
        assert!(matches!(s.solve(None), Answer::Sat));
        assert!(s.model(0) && s.model(1));
        s.add(&[neg(0), neg(1)]);
        assert!(matches!(s.solve(None), Answer::Unsat));
    }

    /// Random 3-literal formulas near the hard ratio, against trying every assignment; small
    /// reduction thresholds make clause thinning run too.
    #[test]
    fn agrees_with_brute_force_on_random_formulas() {
        let mut rng = crate::rng::Rng::new(7);
        let vars = 14u32;
        for _ in 0..300 {
            let clauses: Vec<Vec<Lit>> = (0..60)
                .map(|_| {
                    (0..3)
                        .map(|_| 2 * rng.below(vars as u64) as u32 + rng.below(2) as u32)
                        .collect()
                })
                .collect();
            let holds = |m: u32, c: &[Lit]| c.iter().any(|&l| (m >> (l >> 1) & 1) as Lit != l & 1);
            let any = (0..1u32 << vars).any(|m| clauses.iter().all(|c| holds(m, c)));
            let mut s = Sat::new(vars as usize);
            s.max_learnts = 4;
            for c in &clauses {
                s.add(c);
            }
            match s.solve(None) {
                Answer::Sat => {
                    let m = (0..vars).fold(0, |m, v| m | u32::from(s.model(v)) << v);
                    assert!(clauses.iter().all(|c| holds(m, c)));
                }
                Answer::Unsat => assert!(!any),
                Answer::OutOfTime | Answer::OutOfMemory => unreachable!(),
            }
        }
    }

    #[test]
    fn pigeonhole_seven_into_six_is_unsat() {
        // Hundreds of conflicts: with a low threshold, restarts thin the learned clauses.
        let mut s = pigeonhole(7, 6);
        s.max_learnts = 20;
        assert!(matches!(s.solve(None), Answer::Unsat));
        assert!(s.conflicts > 2 * RESTART_UNIT, "{} conflicts", s.conflicts);
        assert!(s.max_learnts > 20, "no thinning");
    }

    fn pigeonhole(p: u32, h: u32) -> Sat {
        let var = |i: u32, j: u32| i * h + j;
        let mut s = Sat::new((p * h) as usize);
        for i in 0..p {
            let c: Vec<Lit> = (0..h).map(|j| pos(var(i, j))).collect();
            s.add(&c);
        }
        for j in 0..h {
            for a in 0..p {
                for b in a + 1..p {
                    s.add(&[neg(var(a, j)), neg(var(b, j))]);
                }
            }
        }
        s
    }

    /// Memory for the problem and a few learned clauses: thinning keeps the search going to
    /// the right answer; memory short of the problem itself ends it.
    #[test]
    fn learned_clauses_are_thinned_to_the_memory_allowed() {
        let mut s = pigeonhole(7, 6);
        let problem = s.bytes();
        s.memory = problem + 2048;
        assert!(matches!(s.solve(None), Answer::Unsat));
        assert!(s.conflicts > 256, "{} conflicts", s.conflicts);
        assert_eq!(s.max_learnts, FIRST_REDUCE, "thinned by count, not memory");
        let mut short = pigeonhole(7, 6);
        short.memory = problem / 2;
        assert!(matches!(short.solve(None), Answer::OutOfMemory));
        assert!(short.learnts.is_empty());
    }

    #[test]
    fn pigeonhole_three_into_two_is_unsat() {
        // Pigeon p in hole h is variable 2p + h.
        let mut s = Sat::new(6);
        for p in 0..3 {
            s.add(&[pos(2 * p), pos(2 * p + 1)]);
        }
        for h in 0..2 {
            for p in 0..3 {
                for q in p + 1..3 {
                    s.add(&[neg(2 * p + h), neg(2 * q + h)]);
                }
            }
        }
        assert!(matches!(s.solve(None), Answer::Unsat));
    }
}
