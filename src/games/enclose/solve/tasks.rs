//! One search shared by several threads: the top of its tree is cut into tasks, each a node
//! named by the decisions that lead to it from the root, and the threads take them from one
//! stack while sharing the best answer found.
//!
//! A task holds its decisions rather than the node's state, so a thread rebuilds the node from
//! the root's state: the flows start from scratch there (a valid start, since every decision
//! only raises capacities), which costs little beside the subtree below.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Condvar, Mutex};

/// One step down the separation phase: the walls forbidden to the node's earlier children,
/// then the wall of the child taken (cells of the search's net).
#[derive(Clone, Debug)]
pub(super) struct Step {
    pub(super) forbid: Vec<u32>,
    pub(super) wall: u32,
}

/// A node of the search, to be rebuilt and searched by whichever thread takes it.
#[derive(Clone, Debug)]
pub(super) struct Task {
    pub(super) steps: Vec<Step>,
    /// The wall price its parent ended with (a good start for its own).
    pub(super) mu: i64,
}

struct Stack {
    tasks: Vec<Task>,
    /// Tasks taken and not yet done (each may still push more).
    busy: usize,
}

/// What the threads share: the stack of tasks, the best answer, the claim on the one-off
/// look for pairs of pens.
pub(super) struct Shared {
    stack: Mutex<Stack>,
    changed: Condvar,
    best_score: AtomicI32,
    best: Mutex<Option<(i32, Vec<u32>)>>,
    split_claimed: AtomicBool,
}

impl Shared {
    pub(super) fn new(root: Task) -> Shared {
        Shared {
            stack: Mutex::new(Stack {
                tasks: vec![root],
                busy: 0,
            }),
            changed: Condvar::new(),
            best_score: AtomicI32::new(i32::MIN),
            best: Mutex::new(None),
            split_claimed: AtomicBool::new(false),
        }
    }

    /// Adds tasks; the last one is taken first.
    pub(super) fn push(&self, tasks: impl IntoIterator<Item = Task>) {
        let mut s = self.stack.lock().expect("task stack");
        s.tasks.extend(tasks);
        self.changed.notify_all();
    }

    /// The next task, waiting while other threads may still push some; `None` once the stack
    /// is empty and no task is under way.
    pub(super) fn take(&self) -> Option<Task> {
        let mut s = self.stack.lock().expect("task stack");
        loop {
            if let Some(t) = s.tasks.pop() {
                s.busy += 1;
                return Some(t);
            }
            if s.busy == 0 {
                return None;
            }
            s = self.changed.wait(s).expect("task stack");
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

    /// True for the first caller only.
    pub(super) fn claim_split(&self) -> bool {
        !self.split_claimed.swap(true, Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(wall: u32) -> Task {
        Task {
            steps: vec![Step {
                forbid: Vec::new(),
                wall,
            }],
            mu: 0,
        }
    }

    #[test]
    fn the_last_task_pushed_is_taken_first_and_the_stack_ends_when_idle() {
        let s = Shared::new(task(0));
        let root = s.take().unwrap();
        assert_eq!(root.steps[0].wall, 0);
        s.push([task(1), task(2)]);
        s.done();
        assert_eq!(s.take().unwrap().steps[0].wall, 2);
        s.done();
        assert_eq!(s.take().unwrap().steps[0].wall, 1);
        s.done();
        assert!(s.take().is_none());
    }

    #[test]
    fn the_better_answer_wins_both_ways() {
        let s = Shared::new(task(0));
        let mut a = Some((5, vec![1]));
        s.sync(&mut a);
        let mut b = Some((3, vec![2]));
        s.sync(&mut b);
        assert_eq!(b, Some((5, vec![1])));
        let mut c = Some((9, vec![3]));
        s.sync(&mut c);
        assert_eq!(s.best(), Some((9, vec![3])));
        assert!(s.claim_split());
        assert!(!s.claim_split());
    }
}
