//! A spinner on standard error for work that outlasts a second (a solve, a bench), shown only
//! when standard error is a terminal, so scripts and logs never see it.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long work runs before the spinner shows: quick work stays silent.
const SHOW_AFTER: Duration = Duration::from_secs(1);

/// Shows `what` with a spinner and the time so far from a second in, until dropped.
pub struct Spinner {
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Spinner {
    pub fn start(what: &str) -> Spinner {
        let done = Arc::new(AtomicBool::new(false));
        let thread = std::io::stderr().is_terminal().then(|| {
            let (done, what) = (done.clone(), what.to_string());
            std::thread::spawn(move || {
                let start = Instant::now();
                while start.elapsed() < SHOW_AFTER {
                    if done.load(Ordering::Relaxed) {
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                let bar = ProgressBar::new_spinner()
                    .with_message(what)
                    .with_elapsed(start.elapsed());
                if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} {elapsed}") {
                    bar.set_style(style);
                }
                bar.enable_steady_tick(Duration::from_millis(100));
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(20));
                }
                bar.finish_and_clear();
            })
        });
        Spinner { done, thread }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Off a terminal (as under the test harness) nothing is started and dropping is instant.
    #[test]
    fn off_a_terminal_no_thread_is_started() {
        if std::io::stderr().is_terminal() {
            return;
        }
        let t = Instant::now();
        let s = Spinner::start("work");
        assert!(s.thread.is_none());
        drop(s);
        assert!(t.elapsed() < Duration::from_millis(50));
    }
}
