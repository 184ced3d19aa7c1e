//! A small conflict-driven clause-learning SAT solver: two watched literals, first-UIP
//! learning, activity-ordered decisions with saved phases, Luby restarts. Clauses may be
//! added between solves (the Flow encoding adds a clause for each loop it finds), and
//! everything learned stays valid because clauses are only ever added.
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

pub(super) enum Answer {
    Sat,
    Unsat,
    OutOfTime,
}

pub(super) struct Sat {
    clauses: Vec<Vec<Lit>>,
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
    /// A clause added at level 0 was empty or contradicted: no model exists.
    broken: bool,
    pub decisions: u64,
}

impl Sat {
    pub fn new(vars: usize) -> Sat {
        let mut heap = Heap::default();
        let activity = vec![0.0; vars];
        for v in 0..vars as u32 {
            heap.push(v, &activity);
        }
        Sat {
            clauses: Vec::new(),
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
            broken: false,
            decisions: 0,
        }
    }

    /// Truth of `l` under the current assignment: 0 false, 1 true, `UNSET`.
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
        let mut c: Vec<Lit> = Vec::with_capacity(lits.len());
        for &l in lits {
            match self.lit_value(l) {
                1 => return,
                0 => continue,
                _ => {
                    if c.contains(&(l ^ 1)) {
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
                self.attach(c);
            }
        }
    }

    fn attach(&mut self, c: Vec<Lit>) -> u32 {
        let id = self.clauses.len() as u32;
        self.watches[c[0] as usize].push((id, c[1]));
        self.watches[c[1] as usize].push((id, c[0]));
        self.clauses.push(c);
        id
    }

    /// Unit propagation; the conflicting clause, if any.
    fn propagate(&mut self) -> Option<u32> {
        while self.head < self.trail.len() {
            let l = self.trail[self.head];
            self.head += 1;
            let falsified = l ^ 1;
            let mut ws = std::mem::take(&mut self.watches[falsified as usize]);
            let mut i = 0;
            let mut conflict = None;
            while i < ws.len() {
                let (ci, blocker) = ws[i];
                if self.lit_value(blocker) == 1 {
                    i += 1;
                    continue;
                }
                let c = &mut self.clauses[ci as usize];
                if c[0] == falsified {
                    c.swap(0, 1);
                }
                let first = c[0];
                let fv = {
                    let v = self.value[(first >> 1) as usize];
                    if v == UNSET {
                        UNSET
                    } else {
                        v ^ (first & 1) as u8
                    }
                };
                if fv == 1 {
                    ws[i].1 = first;
                    i += 1;
                    continue;
                }
                // Look for a new literal to watch.
                let mut moved = false;
                for k in 2..c.len() {
                    let lk = c[k];
                    let v = self.value[(lk >> 1) as usize];
                    if v == UNSET || v ^ (lk & 1) as u8 == 1 {
                        c.swap(1, k);
                        self.watches[lk as usize].push((ci, first));
                        ws.swap_remove(i);
                        moved = true;
                        break;
                    }
                }
                if moved {
                    continue;
                }
                if fv == 0 {
                    conflict = Some(ci);
                    break;
                }
                self.assign(first, ci);
                i += 1;
            }
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

    /// First-UIP clause for the conflict, and the level to go back to.
    fn analyse(&mut self, mut ci: u32) -> (Vec<Lit>, usize) {
        let current = self.levels.len() as u32;
        let mut learnt = vec![0];
        let mut open = 0;
        let mut i = self.trail.len();
        let mut p: Option<Lit> = None;
        loop {
            let skip = usize::from(p.is_some());
            for j in skip..self.clauses[ci as usize].len() {
                let q = self.clauses[ci as usize][j];
                let v = (q >> 1) as usize;
                if self.seen[v] || self.level[v] == 0 {
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
            let v = (l >> 1) as usize;
            self.seen[v] = false;
            open -= 1;
            if open == 0 {
                learnt[0] = l ^ 1;
                break;
            }
            p = Some(l);
            ci = self.reason[v];
        }
        // Drop a literal whose reason holds only literals already in the clause (or fixed).
        let keep: Vec<bool> = learnt
            .iter()
            .enumerate()
            .map(|(j, &q)| {
                let r = self.reason[(q >> 1) as usize];
                j == 0
                    || r == NO_REASON
                    || !self.clauses[r as usize][1..].iter().all(|&x| {
                        let v = (x >> 1) as usize;
                        self.seen[v] || self.level[v] == 0
                    })
            })
            .collect();
        for &q in &learnt[1..] {
            self.seen[(q >> 1) as usize] = false;
        }
        let mut j = 0;
        learnt.retain(|_| {
            j += 1;
            keep[j - 1]
        });
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
        self.bump *= 1.0 / 0.95;
        (learnt, back)
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
        let mut budget = 100 * luby(restart);
        loop {
            if let Some(ci) = self.propagate() {
                conflicts += 1;
                if self.levels.is_empty() {
                    self.broken = true;
                    return Answer::Unsat;
                }
                let (learnt, back) = self.analyse(ci);
                self.backtrack(back);
                if learnt.len() == 1 {
                    self.assign(learnt[0], NO_REASON);
                } else {
                    let first = learnt[0];
                    let id = self.attach(learnt);
                    self.assign(first, id);
                }
                if conflicts.is_multiple_of(256) && deadline.is_some_and(|d| Instant::now() > d) {
                    return Answer::OutOfTime;
                }
                continue;
            }
            if conflicts >= budget {
                restart += 1;
                budget = conflicts + 100 * luby(restart);
                self.backtrack(0);
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
