//! Exact Hashi solver: bounds propagation per candidate edge, connectivity reasoning, then
//! depth-first search that keeps going after the first solution to prove uniqueness.

use super::model::{Bridge, Bridges, Cell, Puzzle};
use crate::solving::{Limits, Outcome};
use std::time::Instant;

/// A solution found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub bridges: Bridges,
    /// True when the search proved no other solution exists.
    pub unique: bool,
}

/// Islands and candidate edges (pairs that see each other) as plain indices.
struct Graph {
    target: Vec<u8>,
    ends: Vec<(usize, usize)>,
    /// Edges at each island (at most four).
    adj: Vec<Vec<usize>>,
    /// For each edge, the edges it would cross.
    crosses: Vec<Vec<usize>>,
    max: u8,
    allow_loops: bool,
}

/// Each edge's count lies in `lo..=hi`; decided when they meet.
#[derive(Clone)]
struct State {
    lo: Vec<u8>,
    hi: Vec<u8>,
}

/// Reusable buffers, so the search allocates only the states it branches into.
struct Scratch {
    queue: Vec<usize>,
    queued: Vec<bool>,
    parent: Vec<usize>,
    cap: Vec<u32>,
    size: Vec<usize>,
    disc: Vec<u32>,
    low: Vec<u32>,
    stack: Vec<(usize, usize, usize)>,
}

struct GaveUp;

impl Graph {
    fn new(p: &Puzzle) -> Graph {
        let index = |c: Cell| {
            p.islands
                .binary_search_by(|i| i.at.cmp(&c))
                .expect("neighbour pairs are islands")
        };
        let pairs = p.neighbour_pairs();
        let ends: Vec<(usize, usize)> = pairs.iter().map(|&(a, b)| (index(a), index(b))).collect();
        let mut adj = vec![Vec::with_capacity(4); p.islands.len()];
        for (e, &(a, b)) in ends.iter().enumerate() {
            adj[a].push(e);
            adj[b].push(e);
        }
        // Candidate vertical edges in one column never overlap, so a cell lies under at most one.
        let mut vertical_at = vec![usize::MAX; p.cols * p.rows];
        for (e, (a, b)) in pairs.iter().enumerate() {
            if a.col == b.col {
                for r in a.row + 1..b.row {
                    vertical_at[r * p.cols + a.col] = e;
                }
            }
        }
        let mut crosses = vec![Vec::new(); pairs.len()];
        for (e, (a, b)) in pairs.iter().enumerate() {
            if a.row == b.row {
                for c in a.col + 1..b.col {
                    let v = vertical_at[a.row * p.cols + c];
                    if v != usize::MAX {
                        crosses[e].push(v);
                        crosses[v].push(e);
                    }
                }
            }
        }
        Graph {
            target: p.islands.iter().map(|i| i.target).collect(),
            ends,
            adj,
            crosses,
            max: p.max_bridges,
            allow_loops: p.allow_loops,
        }
    }

    fn islands(&self) -> usize {
        self.target.len()
    }

    fn scratch(&self) -> Scratch {
        let n = self.islands();
        Scratch {
            queue: Vec::with_capacity(n),
            queued: vec![false; n],
            parent: vec![0; n],
            cap: vec![0; n],
            size: vec![0; n],
            disc: vec![0; n],
            low: vec![0; n],
            stack: Vec::with_capacity(n),
        }
    }

    fn push(&self, s: &mut Scratch, e: usize) {
        let (a, b) = self.ends[e];
        for i in [a, b] {
            if !s.queued[i] {
                s.queued[i] = true;
                s.queue.push(i);
            }
        }
    }

    /// Raises an edge's lower bound; a first bridge rules out every edge it crosses.
    fn raise(&self, st: &mut State, s: &mut Scratch, e: usize, v: u8) -> bool {
        if v > st.hi[e] {
            return false;
        }
        if v <= st.lo[e] {
            return true;
        }
        let was_empty = st.lo[e] == 0;
        st.lo[e] = v;
        self.push(s, e);
        if was_empty {
            for &c in &self.crosses[e] {
                if !self.lower(st, s, c, 0) {
                    return false;
                }
            }
        }
        true
    }

    fn lower(&self, st: &mut State, s: &mut Scratch, e: usize, v: u8) -> bool {
        if v < st.lo[e] {
            return false;
        }
        if v >= st.hi[e] {
            return true;
        }
        st.hi[e] = v;
        self.push(s, e);
        true
    }

    /// Degree bounds at each queued island, to a fixpoint.
    fn local(&self, st: &mut State, s: &mut Scratch) -> bool {
        while let Some(i) = s.queue.pop() {
            s.queued[i] = false;
            let t = self.target[i];
            let (mut sum_lo, mut sum_hi) = (0u32, 0u32);
            for &e in &self.adj[i] {
                sum_lo += st.lo[e] as u32;
                sum_hi += st.hi[e] as u32;
            }
            let t = t as u32;
            if sum_lo > t || sum_hi < t {
                s.queue.clear();
                s.queued.fill(false);
                return false;
            }
            if sum_lo == sum_hi {
                continue;
            }
            for &e in &self.adj[i] {
                let others_hi = sum_hi - st.hi[e] as u32;
                let others_lo = sum_lo - st.lo[e] as u32;
                let ok = (t <= others_hi || self.raise(st, s, e, (t - others_hi) as u8))
                    && self.lower(st, s, e, (t - others_lo).min(255) as u8);
                if !ok {
                    s.queue.clear();
                    s.queued.fill(false);
                    return false;
                }
            }
        }
        true
    }

    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }

    /// The islands must stay connected through possible edges, so an edge whose loss would
    /// split them (a bridge of that graph) must carry at least one bridge. `None`: contradiction.
    fn cut_edges(&self, st: &mut State, s: &mut Scratch) -> Option<bool> {
        let n = self.islands();
        s.disc.fill(u32::MAX);
        s.stack.clear();
        s.disc[0] = 0;
        s.low[0] = 0;
        let mut time = 1u32;
        let mut changed = false;
        s.stack.push((0, usize::MAX, 0));
        while let Some(top) = s.stack.last_mut() {
            let (v, from, k) = *top;
            if k < self.adj[v].len() {
                top.2 += 1;
                let e = self.adj[v][k];
                if e == from || st.hi[e] == 0 {
                    continue;
                }
                let (a, b) = self.ends[e];
                let w = if a == v { b } else { a };
                if s.disc[w] == u32::MAX {
                    s.disc[w] = time;
                    s.low[w] = time;
                    time += 1;
                    s.stack.push((w, e, 0));
                } else {
                    s.low[v] = s.low[v].min(s.disc[w]);
                }
            } else {
                s.stack.pop();
                if let Some(&(p, _, _)) = s.stack.last() {
                    s.low[p] = s.low[p].min(s.low[v]);
                    if s.low[v] > s.disc[p] && st.lo[from] == 0 {
                        if !self.raise(st, s, from, 1) {
                            return None;
                        }
                        changed = true;
                    }
                }
            }
        }
        if (time as usize) < n {
            return None;
        }
        Some(changed)
    }

    /// Groups already joined by bridges: a group with no capacity left must be everything; an
    /// edge that would join two groups into a closed one while others remain cannot take its
    /// top count; without loops, an edge inside a group must stay empty.
    fn closed_groups(&self, st: &mut State, s: &mut Scratch) -> Option<bool> {
        let n = self.islands();
        for i in 0..n {
            s.parent[i] = i;
            s.cap[i] = 0;
            s.size[i] = 0;
        }
        for (e, &(a, b)) in self.ends.iter().enumerate() {
            if st.lo[e] > 0 {
                let (ra, rb) = (Self::find(&mut s.parent, a), Self::find(&mut s.parent, b));
                if ra != rb {
                    s.parent[ra] = rb;
                } else if !self.allow_loops {
                    return None;
                }
            }
        }
        for i in 0..n {
            let r = Self::find(&mut s.parent, i);
            let used: u32 = self.adj[i].iter().map(|&e| st.lo[e] as u32).sum();
            s.cap[r] += self.target[i] as u32 - used;
            s.size[r] += 1;
        }
        for i in 0..n {
            if s.parent[i] == i && s.cap[i] == 0 && s.size[i] < n {
                return None;
            }
        }
        let mut changed = false;
        for (e, &(a, b)) in self.ends.iter().enumerate() {
            if st.lo[e] > 0 || st.hi[e] == 0 {
                continue;
            }
            let (ra, rb) = (Self::find(&mut s.parent, a), Self::find(&mut s.parent, b));
            let limit = if ra == rb {
                if self.allow_loops {
                    continue;
                }
                0
            } else if s.size[ra] + s.size[rb] < n && s.cap[ra] + s.cap[rb] == 2 * st.hi[e] as u32 {
                st.hi[e] - 1
            } else {
                continue;
            };
            if !self.lower(st, s, e, limit) {
                return None;
            }
            changed = true;
        }
        Some(changed)
    }

    /// Everything the rules imply from the queued islands outward. False: no solution here.
    fn propagate(&self, st: &mut State, s: &mut Scratch) -> bool {
        loop {
            if !self.local(st, s) {
                return false;
            }
            match self.cut_edges(st, s) {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.closed_groups(st, s) {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// The open edge with the fewest choices, preferring islands with few open edges.
    fn pick(&self, st: &State) -> Option<usize> {
        let open = |i: usize| self.adj[i].iter().filter(|&&e| st.lo[e] < st.hi[e]).count();
        (0..self.ends.len())
            .filter(|&e| st.lo[e] < st.hi[e])
            .min_by_key(|&e| {
                let (a, b) = self.ends[e];
                (st.hi[e] - st.lo[e], open(a).min(open(b)), open(a) + open(b))
            })
    }
}

struct Search<'a> {
    g: &'a Graph,
    s: Scratch,
    limits: &'a Limits,
    nodes: u64,
    found: Vec<State>,
    /// The states on the path from the root, and as many as `limits.memory` holds (each a
    /// copy of the bounds: a long path over a big board would outgrow it).
    depth: usize,
    max_depth: usize,
}

impl Search<'_> {
    /// Collects up to two solutions below `st` (already propagated).
    fn run(&mut self, st: State) -> Result<(), GaveUp> {
        self.nodes += 1;
        if self.limits.nodes.is_some_and(|m| self.nodes > m)
            || (self.nodes % 64 == 1 && self.limits.deadline.is_some_and(|d| Instant::now() >= d))
        {
            return Err(GaveUp);
        }
        let Some(e) = self.g.pick(&st) else {
            self.found.push(st);
            return Ok(());
        };
        if self.depth + 1 >= self.max_depth {
            return Err(GaveUp);
        }
        for v in (st.lo[e]..=st.hi[e]).rev() {
            let mut child = st.clone();
            let ok = self.g.raise(&mut child, &mut self.s, e, v)
                && self.g.lower(&mut child, &mut self.s, e, v)
                && self.g.propagate(&mut child, &mut self.s);
            if ok {
                self.depth += 1;
                let below = self.run(child);
                self.depth -= 1;
                below?;
                if self.found.len() >= 2 {
                    return Ok(());
                }
            } else {
                self.s.queue.clear();
                self.s.queued.fill(false);
            }
        }
        Ok(())
    }
}

/// Finds a solution and looks for a second one. A limit reached after the first solution
/// still returns it, with `unique: false` since uniqueness was not proven.
pub fn solve(p: &Puzzle, limits: &Limits) -> Outcome<Found> {
    let g = Graph::new(p);
    let n = g.islands();
    if n == 0 {
        return Outcome::Unsolvable;
    }
    let mut st = State {
        lo: vec![0; g.ends.len()],
        hi: vec![g.max; g.ends.len()],
    };
    let mut s = g.scratch();
    for i in 0..n {
        s.queued[i] = true;
        s.queue.push(i);
    }
    if !g.propagate(&mut st, &mut s) {
        return Outcome::Unsolvable;
    }
    // Two bytes per edge per state, and the frame that holds it.
    let state_bytes = 2 * g.ends.len() + 256;
    let mut search = Search {
        g: &g,
        s,
        limits,
        nodes: 0,
        found: Vec::new(),
        depth: 0,
        max_depth: (limits.memory / state_bytes).max(1),
    };
    let finished = search.run(st).is_ok();
    let Some(first) = search.found.first() else {
        return if finished {
            Outcome::Unsolvable
        } else {
            Outcome::GaveUp(None)
        };
    };
    let mut bridges: Bridges = g
        .ends
        .iter()
        .zip(&first.lo)
        .filter(|(_, &c)| c > 0)
        .map(|(&(a, b), &c)| Bridge::new(p.islands[a].at, p.islands[b].at, c))
        .collect();
    bridges.sort();
    Outcome::Solved(Found {
        bridges,
        unique: finished && search.found.len() == 1,
    })
}

/// The bridges a player can deduce on a board that shows `drawn`, by the rules' reasoning
/// alone (bounds at each island, bridges whose loss would cut the islands apart, groups that
/// would close off), without trying anything: each pair whose forced count is more than drawn,
/// with that count. Empty when nothing follows, or when `drawn` breaks the rules.
pub fn deduced(p: &Puzzle, drawn: &[Bridge]) -> Bridges {
    let g = Graph::new(p);
    if g.islands() == 0 {
        return Vec::new();
    }
    let mut st = State {
        lo: vec![0; g.ends.len()],
        hi: vec![g.max; g.ends.len()],
    };
    let mut s = g.scratch();
    let at = |e: usize| (p.islands[g.ends[e].0].at, p.islands[g.ends[e].1].at);
    let mut shown = vec![0u8; g.ends.len()];
    for b in drawn {
        let Some(e) = (0..g.ends.len()).find(|&e| at(e) == (b.a, b.b)) else {
            return Vec::new();
        };
        shown[e] = b.count;
        if !g.raise(&mut st, &mut s, e, b.count) {
            return Vec::new();
        }
    }
    for i in 0..g.islands() {
        if !s.queued[i] {
            s.queued[i] = true;
            s.queue.push(i);
        }
    }
    if !g.propagate(&mut st, &mut s) {
        return Vec::new();
    }
    (0..g.ends.len())
        .filter(|&e| st.lo[e] > shown[e])
        .map(|e| Bridge::new(at(e).0, at(e).1, st.lo[e]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::hashi::check::check;
    use crate::games::hashi::format;

    fn solved(p: &Puzzle) -> (Bridges, bool) {
        match solve(p, &Limits::default()) {
            Outcome::Solved(Found { bridges, unique }) => {
                check(p, &bridges).expect("the solver's answer passes the independent check");
                (bridges, unique)
            }
            other => panic!("expected a solution, got {other:?}"),
        }
    }

    fn bridges_from_xy(v: &serde_json::Value) -> Bridges {
        use crate::games::hashi::format::{bridges_from_json, CellOrder};
        bridges_from_json(v, CellOrder::ColumnFirst, "corpus").unwrap()
    }

    fn corpus_lines(rel: &str) -> Option<Vec<(String, serde_json::Value)>> {
        let path = crate::corpus::path(rel)?;
        let text = std::fs::read_to_string(path).unwrap();
        Some(
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| (l.to_string(), serde_json::from_str(l).unwrap()))
                .collect(),
        )
    }

    fn puzzle(text: &str) -> Puzzle {
        format::parse(text, "test").unwrap()
    }

    #[test]
    fn small_unique_puzzle() {
        // Two doubles would close off pairs, so only the U shape is left.
        let p = puzzle("hashi 3x3\n2.2\n...\n1.1\n");
        let (bridges, unique) = solved(&p);
        assert!(unique);
        let cell = |row, col| Cell { row, col };
        assert_eq!(
            bridges,
            vec![
                Bridge::new(cell(0, 0), cell(0, 2), 1),
                Bridge::new(cell(0, 0), cell(2, 0), 1),
                Bridge::new(cell(0, 2), cell(2, 2), 1),
            ]
        );
    }

    #[test]
    fn two_solutions_are_reported_as_not_unique() {
        // Top and bottom carry x, the sides 3 - x: x = 1 and x = 2 both work.
        let p = puzzle("hashi 3x3\n3.3\n...\n3.3\n");
        let (bridges, unique) = solved(&p);
        assert!(!unique);
        assert_eq!(bridges.len(), 4);
    }

    #[test]
    fn no_loops_rule_picks_the_tree() {
        // With loops this has a ring of singles and a tree of doubles; the L rule leaves the tree.
        let loops = puzzle("hashi 3x3\n2.3\n...\n2.3\n");
        assert!(!solved(&loops).1);
        let tree = puzzle("hashi 3x3 noloops\n2.3\n...\n2.3\n");
        let (bridges, unique) = solved(&tree);
        assert!(unique);
        assert_eq!(bridges.len(), 3);
        assert_eq!(
            check(&tree, &solved(&loops).0).is_ok(),
            bridges == solved(&loops).0
        );
    }

    #[test]
    fn unsolvable_puzzles() {
        // Four ones can only pair up, leaving two groups.
        assert_eq!(
            solve(&puzzle("hashi 3x3\n1.1\n...\n1.1\n"), &Limits::default()),
            Outcome::Unsolvable
        );
        // Too many bridges for one neighbour.
        assert_eq!(
            solve(&puzzle("hashi 3x1\n1.3\n"), &Limits::default()),
            Outcome::Unsolvable
        );
        // A ring is the only answer and loops are forbidden.
        assert_eq!(
            solve(
                &puzzle("hashi 3x3 noloops\n2.2\n...\n2.2\n"),
                &Limits::default()
            ),
            Outcome::Unsolvable
        );
        // The two lines must cross to reach all four islands.
        assert_eq!(
            solve(&puzzle("hashi 3x3\n.1.\n1.1\n.1.\n"), &Limits::default()),
            Outcome::Unsolvable
        );
    }

    /// Memory for two states only: a board that needs branching gives up (its first solution
    /// kept when it had one), never a wrong answer.
    #[test]
    fn memory_cap_gives_up() {
        let p = puzzle("hashi 3x3\n3.3\n...\n3.3\n");
        assert!(matches!(
            solve(&p, &Limits::default()),
            Outcome::Solved(Found { unique: false, .. })
        ));
        let tiny = Limits {
            memory: 1,
            ..Default::default()
        };
        assert_eq!(solve(&p, &tiny), Outcome::GaveUp(None));
    }

    #[test]
    fn node_cap_gives_up() {
        let p = puzzle("hashi 3x3\n3.3\n...\n3.3\n");
        let limits = Limits {
            nodes: Some(1),
            ..Default::default()
        };
        assert_eq!(solve(&p, &limits), Outcome::GaveUp(None));
        let past = Limits {
            deadline: Some(Instant::now()),
            nodes: Some(100),
            ..Default::default()
        };
        assert!(matches!(
            solve(&p, &past),
            Outcome::Solved(_) | Outcome::GaveUp(None)
        ));
    }

    #[test]
    fn check_names_the_broken_rule() {
        let p = puzzle("hashi 3x3\n2.2\n...\n1.1\n");
        let cell = |row, col| Cell { row, col };
        let good = vec![
            Bridge::new(cell(0, 0), cell(0, 2), 1),
            Bridge::new(cell(0, 0), cell(2, 0), 1),
            Bridge::new(cell(0, 2), cell(2, 2), 1),
        ];
        assert!(check(&p, &good).is_ok());
        let split = vec![
            Bridge::new(cell(0, 0), cell(0, 2), 2),
            Bridge::new(cell(2, 0), cell(2, 2), 1),
        ];
        assert!(check(&p, &split).unwrap_err().contains("not connected"));
        let short = good[..2].to_vec();
        assert!(check(&p, &short).unwrap_err().contains("wants"));
        let diagonal = vec![Bridge::new(cell(0, 0), cell(2, 2), 1)];
        assert!(check(&p, &diagonal).unwrap_err().contains("straight"));
        let too_many = vec![Bridge::new(cell(0, 0), cell(0, 2), 3)];
        assert!(check(&p, &too_many).unwrap_err().contains("allowed"));
        let cross = puzzle("hashi 3x3\n.1.\n1.1\n.1.\n");
        let crossing = vec![
            Bridge::new(cell(0, 1), cell(2, 1), 1),
            Bridge::new(cell(1, 0), cell(1, 2), 1),
        ];
        assert!(check(&cross, &crossing).unwrap_err().contains("crosses"));
        let ring = puzzle("hashi 3x3 noloops\n2.2\n...\n2.2\n");
        let loop_ = vec![
            Bridge::new(cell(0, 0), cell(0, 2), 1),
            Bridge::new(cell(0, 0), cell(2, 0), 1),
            Bridge::new(cell(0, 2), cell(2, 2), 1),
            Bridge::new(cell(2, 0), cell(2, 2), 1),
        ];
        assert!(check(&ring, &loop_).unwrap_err().contains("loop"));
        let over = puzzle("hashi 3x1\n111\n");
        let jump = vec![Bridge::new(cell(0, 0), cell(0, 2), 1)];
        assert!(check(&over, &jump).unwrap_err().contains("passes over"));
    }

    #[test]
    fn puzzles_the_app_generates_now_have_one_solution() {
        let app = "/usr/games/sgt-bridges";
        if !std::path::Path::new(app).exists() {
            eprintln!("SKIPPED: {app} not installed");
            return;
        }
        let count = 2;
        for params in [
            "7x7i30e10m4d2",
            "10x10i30e10m3d2",
            "15x15i30e10m2Ld2",
            "25x25i30e10m3d2",
            "40x40i30e10m2d2",
        ] {
            let out = std::process::Command::new(app)
                .args(["--generate", &count.to_string(), params])
                .output()
                .unwrap();
            let ids = String::from_utf8(out.stdout).unwrap();
            assert_eq!(ids.lines().count(), count, "{params}");
            for id in ids.lines() {
                let (_, unique) = solved(&puzzle(id));
                assert!(unique, "{id}");
            }
        }
    }

    #[test]
    fn janko_puzzles_match_their_solutions_and_are_unique() {
        let Some(lines) = corpus_lines("hashi/sets/puzzlekit-janko/hashi.jsonl") else {
            return;
        };
        assert!(lines.len() > 700);
        for (line, v) in &lines {
            let p = format::parse(line, v["name"].as_str().unwrap()).unwrap();
            let (bridges, unique) = solved(&p);
            assert!(unique, "{} is unique", v["name"]);
            assert_eq!(
                bridges,
                bridges_from_xy(&v["solution_bridges"]),
                "{}",
                v["name"]
            );
        }
    }

    #[test]
    fn bridges_app_puzzles_match_the_apps_solution() {
        let Some(lines) = corpus_lines("hashi/bridges.jsonl") else {
            return;
        };
        assert!(lines.len() >= 40);
        for (line, v) in &lines {
            let p = format::parse(line, "bridges.jsonl").unwrap();
            assert_eq!(p, format::parse(v["id"].as_str().unwrap(), "id").unwrap());
            let (bridges, unique) = solved(&p);
            if unique {
                assert_eq!(
                    bridges,
                    bridges_from_xy(&v["solution_bridges"]),
                    "{}",
                    v["id"]
                );
            }
            let app = bridges_from_xy(&v["solution_bridges"]);
            check(&p, &app).expect("the app's own solution passes the check");
        }
    }

    #[test]
    fn deduction_alone_finds_the_forced_bridges_and_follows_what_is_drawn() {
        // A 4 in a corner with two neighbours: two bridges to each, nothing to try.
        let p = puzzle("hashi 3x3 max=2\n4.2\n...\n2..\n");
        let mut found = deduced(&p, &[]);
        found.sort();
        let (truth, _) = solved(&p);
        assert_eq!(found, truth);
        // Nothing more follows once the board shows it all.
        assert!(deduced(&p, &truth).is_empty());
        // A board that breaks the rules gives nothing to deduce from.
        let wrong = [Bridge::new(
            Cell { row: 0, col: 0 },
            Cell { row: 0, col: 2 },
            3,
        )];
        assert!(deduced(&p, &wrong).is_empty());
    }
}
