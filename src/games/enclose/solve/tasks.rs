//! One search shared by several threads: parts of its tree become tasks, each a node named by
//! the decisions that lead to it from the root, and the threads take them from one stack
//! while sharing the best answer found.
//!
//! A task holds its decisions rather than the node's state, so a thread rebuilds the node from
//! the root's state: the flows start from scratch there (a valid start, since every decision
//! only raises capacities), which costs little beside the subtree below.

use std::sync::atomic::{AtomicI32, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// Threads beyond this would mostly wait for work on maps of this size.
const MAX_THREADS: usize = 4;

/// The threads a search shares its tree among: the cores, up to [`MAX_THREADS`].
pub(super) fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
}

/// A node to be rebuilt from the root (by its `steps`) and searched by whichever thread
/// takes it.
#[derive(Clone, Debug)]
pub(super) struct Task<S> {
    pub(super) steps: Vec<S>,
    /// The wall price its parent ended with (a good start for its own).
    pub(super) mu: i64,
    /// Its parent's Lagrangian bound (scaled), also valid for it.
    pub(super) up: i64,
}

/// A thread hands out work only after this many nodes of its own: most levels are done
/// sooner, and a task rebuilt from the root costs a few nodes' flows.
pub(super) const HANDOFF_AFTER: u64 = 64;

struct Stack<T> {
    tasks: Vec<T>,
    /// Tasks taken and not yet done (each may still push more).
    busy: usize,
}

/// What the threads share: the stack of tasks `T`, the best answer, claims on one-off jobs.
pub(super) struct Shared<T> {
    stack: Mutex<Stack<T>>,
    changed: Condvar,
    /// Threads waiting for a task.
    waiting: AtomicUsize,
    best_score: AtomicI32,
    best: Mutex<Option<(i32, Vec<u32>)>>,
    claimed: AtomicU32,
}

impl<T> Shared<T> {
    pub(super) fn new(root: T) -> Shared<T> {
        Shared {
            stack: Mutex::new(Stack {
                tasks: vec![root],
                busy: 0,
            }),
            changed: Condvar::new(),
            waiting: AtomicUsize::new(0),
            best_score: AtomicI32::new(i32::MIN),
            best: Mutex::new(None),
            claimed: AtomicU32::new(0),
        }
    }

    /// Whether a thread waits for work (then a search hands out part of its own).
    pub(super) fn hungry(&self) -> bool {
        self.waiting.load(Ordering::Relaxed) > 0
    }

    /// Adds tasks; the last one is taken first.
    pub(super) fn push(&self, tasks: impl IntoIterator<Item = T>) {
        let mut s = self.stack.lock().expect("task stack");
        s.tasks.extend(tasks);
        self.changed.notify_all();
    }

    /// The next task, waiting while other threads may still push some; `None` once the stack
    /// is empty and no task is under way.
    pub(super) fn take(&self) -> Option<T> {
        let mut s = self.stack.lock().expect("task stack");
        loop {
            if let Some(t) = s.tasks.pop() {
                s.busy += 1;
                return Some(t);
            }
            if s.busy == 0 {
                return None;
            }
            self.waiting.fetch_add(1, Ordering::Relaxed);
            s = self.changed.wait(s).expect("task stack");
            self.waiting.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Marks a task taken with [`Shared::take`] as done.
    pub(super) fn done(&self) {
        let mut s = self.stack.lock().expect("task stack");
        s.busy -= 1;
        if s.busy == 0 {
            self.changed.notify_all();
        }
    }

    /// Publishes `best` if it beats the shared answer, or takes the shared one if that is
    /// better.
    pub(super) fn sync(&self, best: &mut Option<(i32, Vec<u32>)>) {
        let shared = self.best_score.load(Ordering::Relaxed);
        let mine = best.as_ref().map_or(i32::MIN, |b| b.0);
        if mine > shared {
            let mut b = self.best.lock().expect("shared best");
            if b.as_ref().is_none_or(|s| mine > s.0) {
                *b = best.clone();
                self.best_score.store(mine, Ordering::Relaxed);
            }
        } else if shared > mine {
            *best = self.best.lock().expect("shared best").clone();
        }
    }

    /// The best answer of all threads.
    pub(super) fn best(&self) -> Option<(i32, Vec<u32>)> {
        self.best.lock().expect("shared best").clone()
    }

    /// True for the first caller with this `job` (0-31) only.
    pub(super) fn claim(&self, job: u32) -> bool {
        self.claimed.fetch_or(1 << job, Ordering::Relaxed) & (1 << job) == 0
    }
}

/// Marks a taken task done when dropped.
struct Done<'s, T>(&'s Shared<T>);

impl<T> Drop for Done<'_, T> {
    fn drop(&mut self) {
        self.0.done();
    }
}

/// Where a search keeps its best answer (shared with the others between tasks).
pub(super) type BestOf<S> = fn(&mut S) -> &mut Option<(i32, Vec<u32>)>;

/// Makes a search per thread with `make` and lets each take tasks from `shared` until none is
/// left, searching each with `search` (on this thread alone when `threads` is 1) and sharing
/// its `best` answer after each; returns the searches.
pub(super) fn run<S: Send, T: Send>(
    threads: usize,
    shared: &Shared<T>,
    make: impl Fn() -> S + Sync,
    search: impl Fn(&mut S, T) + Sync,
    best: BestOf<S>,
) -> Vec<S> {
    let work = || {
        let mut s = make();
        while let Some(task) = shared.take() {
            // Done even when the search panics: the other threads then end instead of waiting
            // for it, and the panic reaches the caller through `join`.
            let _done = Done(shared);
            search(&mut s, task);
            shared.sync(best(&mut s));
        }
        s
    };
    if threads <= 1 {
        return vec![work()];
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("search thread"))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_task_pushed_is_taken_first_and_the_stack_ends_when_idle() {
        let s = Shared::new(0);
        assert_eq!(s.take(), Some(0));
        s.push([1, 2]);
        s.done();
        assert_eq!(s.take(), Some(2));
        s.done();
        assert_eq!(s.take(), Some(1));
        s.done();
        assert_eq!(s.take(), None);
        assert!(!s.hungry());
    }

    #[test]
    fn a_waiting_thread_is_hungry_until_fed() {
        let s = Shared::new(0);
        assert_eq!(s.take(), Some(0));
        std::thread::scope(|scope| {
            let h = scope.spawn(|| s.take());
            while !s.hungry() {
                std::thread::yield_now();
            }
            s.push([7]);
            assert_eq!(h.join().unwrap(), Some(7));
        });
        s.done();
        s.done();
        assert_eq!(s.take(), None);
    }

    struct Counter(Option<(i32, Vec<u32>)>);

    #[test]
    fn threads_share_every_task_and_the_best_answer() {
        // Task n pushes n - 1 and n - 2 (a Fibonacci tree); the answer is the largest task.
        let shared = Shared::new(12u32);
        let searches = run(
            2,
            &shared,
            || Counter(None),
            |c, n| {
                if c.0.as_ref().is_none_or(|b| n as i32 > b.0) {
                    c.0 = Some((n as i32, Vec::new()));
                }
                if n >= 2 {
                    shared.push([n - 1, n - 2]);
                }
            },
            |c| &mut c.0,
        );
        assert_eq!(searches.len(), 2);
        assert_eq!(shared.best(), Some((12, Vec::new())));
        assert_eq!(shared.take(), None);
    }

    #[test]
    fn a_panicking_search_ends_the_others_and_reaches_the_caller() {
        let shared = Shared::new(0u32);
        shared.push([1, 2, 3]);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run(
                2,
                &shared,
                || Counter(None),
                |_, n| assert_ne!(n, 2, "task two"),
                |c| &mut c.0,
            )
        }));
        assert!(result.is_err());
    }

    #[test]
    fn the_better_answer_wins_both_ways() {
        let s = Shared::new(0);
        let mut a = Some((5, vec![1]));
        s.sync(&mut a);
        let mut b = Some((3, vec![2]));
        s.sync(&mut b);
        assert_eq!(b, Some((5, vec![1])));
        let mut c = Some((9, vec![3]));
        s.sync(&mut c);
        assert_eq!(s.best(), Some((9, vec![3])));
        assert!(s.claim(0));
        assert!(!s.claim(0));
        assert!(s.claim(1));
    }
}
