//! Dinic's max-flow on a graph rebuilt per use; the buffers are kept between uses.

pub(super) const INF: i64 = 1 << 40;
const NIL: u32 = u32::MAX;

#[derive(Default)]
pub(super) struct Dinic {
    head: Vec<u32>,
    next: Vec<u32>,
    to: Vec<u32>,
    cap: Vec<i64>,
    level: Vec<i32>,
    iter: Vec<u32>,
    queue: Vec<u32>,
}

impl Dinic {
    pub(super) fn reset(&mut self, n: usize) {
        self.head.clear();
        self.head.resize(n, NIL);
        self.level.resize(n, 0);
        self.iter.resize(n, 0);
        self.next.clear();
        self.to.clear();
        self.cap.clear();
    }

    pub(super) fn edge(&mut self, u: usize, v: usize, c: i64) {
        for (a, b, cc) in [(u, v, c), (v, u, 0)] {
            self.to.push(b as u32);
            self.cap.push(cc);
            self.next.push(self.head[a]);
            self.head[a] = (self.to.len() - 1) as u32;
        }
    }

    fn bfs(&mut self, s: usize, t: usize) -> bool {
        self.level.iter_mut().for_each(|l| *l = -1);
        self.level[s] = 0;
        self.queue.clear();
        self.queue.push(s as u32);
        let mut qi = 0;
        while qi < self.queue.len() {
            let u = self.queue[qi] as usize;
            qi += 1;
            let mut e = self.head[u];
            while e != NIL {
                let v = self.to[e as usize] as usize;
                if self.cap[e as usize] > 0 && self.level[v] < 0 {
                    self.level[v] = self.level[u] + 1;
                    if v == t {
                        // Nodes at t's level or beyond lie on no shortest path.
                        return true;
                    }
                    self.queue.push(v as u32);
                }
                e = self.next[e as usize];
            }
        }
        self.level[t] >= 0
    }

    /// Pushes up to `f` from `u` along the level graph; returns what it pushed.
    fn dfs(&mut self, u: usize, t: usize, f: i64) -> i64 {
        if u == t {
            return f;
        }
        let mut pushed = 0;
        while self.iter[u] != NIL {
            let e = self.iter[u] as usize;
            let v = self.to[e] as usize;
            if self.cap[e] > 0 && self.level[v] == self.level[u] + 1 {
                let d = self.dfs(v, t, (f - pushed).min(self.cap[e]));
                if d > 0 {
                    self.cap[e] -= d;
                    self.cap[e ^ 1] += d;
                    pushed += d;
                    if pushed == f {
                        return pushed;
                    }
                }
            }
            self.iter[u] = self.next[e];
        }
        self.level[u] = -1;
        pushed
    }

    /// After a `run` that was not cut short: `v` is on the source side of the min cut.
    pub(super) fn source_side(&self, v: usize) -> bool {
        self.level[v] >= 0
    }

    /// Max flow from `s` to `t`, stopping once it reaches `limit`.
    pub(super) fn run(&mut self, s: usize, t: usize, limit: i64) -> i64 {
        let mut flow = 0;
        while flow < limit && self.bfs(s, t) {
            self.iter.copy_from_slice(&self.head);
            flow += self.dfs(s, t, limit - flow);
        }
        flow
    }
}
