//! Many inputs in one process: `scan` and `solve` given several files (or a list of them)
//! work through them on every core, report each in the order given, go on past a bad one, and
//! end with a summary. One process for a whole puzzle set saves the start-up that, on small
//! boards, costs more than the solve itself.

use crate::report::Status;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// What one input gave: its JSON report, the text a single run would print, and the text to
/// keep in a file of its own (`-o DIR`), with its status; or why it failed.
pub struct Done {
    pub json: Value,
    pub text: String,
    pub file_text: String,
    /// `None` for a scan, which has no solve status.
    pub status: Option<Status>,
}

/// One input's result, named.
pub struct Outcome {
    pub input: String,
    pub result: Result<Done, crate::Error>,
}

/// How a batch went, for its summary line and exit code.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    pub ok: usize,
    /// Solved files without an answer (unsolvable, or the solver gave up).
    pub unanswered: usize,
    pub failed: usize,
}

impl Tally {
    fn add(&mut self, r: &Result<Done, crate::Error>) {
        match r {
            Err(_) => self.failed += 1,
            Ok(d) if d.status.is_some_and(|s| s.exit_code() != 0) => self.unanswered += 1,
            Ok(_) => self.ok += 1,
        }
    }

    /// 2 when any input failed, else 1 when any has no answer, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.failed > 0 {
            2
        } else if self.unanswered > 0 {
            1
        } else {
            0
        }
    }

    pub fn summary(&self, what: &str) -> String {
        let total = self.ok + self.unanswered + self.failed;
        let mut parts = vec![format!("{} {what}", self.ok)];
        if self.unanswered > 0 {
            parts.push(format!("{} without an answer", self.unanswered));
        }
        parts.push(format!("{} failed", self.failed));
        format!("{total} files: {}", parts.join(", "))
    }
}

/// The inputs named on the command line, with each `--list` file's lines (`-` for standard
/// input) added in order; blank lines are skipped.
pub fn inputs(named: &[String], lists: &[String]) -> crate::Result<Vec<String>> {
    let mut all: Vec<String> = named.to_vec();
    for list in lists {
        let text = if list == "-" {
            std::io::read_to_string(std::io::stdin()).map_err(|e| crate::Error::Io {
                path: "<stdin>".into(),
                reason: e,
            })?
        } else {
            std::fs::read_to_string(list).map_err(|e| crate::Error::Io {
                path: list.clone(),
                reason: e,
            })?
        };
        all.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from),
        );
    }
    Ok(all)
}

/// Where `-o DIR` keeps an input's file: its name with the extension replaced.
pub fn output_path(dir: &Path, input: &str, extension: &str) -> PathBuf {
    let stem = Path::new(input)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".into());
    dir.join(format!("{stem}.{extension}"))
}

/// The report with the input's name added as its `file` field.
pub fn named_json(input: &str, json: Value) -> Value {
    let mut out = Map::new();
    out.insert("file".into(), Value::String(input.to_string()));
    match json {
        Value::Object(fields) => out.extend(fields),
        other => {
            out.insert("report".into(), other);
        }
    }
    Value::Object(out)
}

/// The JSON line of a failed input: its name, `"status": "error"` and the reason.
pub fn error_json(input: &str, e: &crate::Error) -> Value {
    let mut out = Map::new();
    out.insert("file".into(), Value::String(input.to_string()));
    out.insert("status".into(), Value::String("error".into()));
    out.insert("error".into(), Value::String(e.to_string()));
    Value::Object(out)
}

/// Runs `work` over `inputs` on `threads` workers and hands each outcome to `emit` in the
/// order of `inputs`, as soon as it and all before it are done. A progress bar shows on a
/// terminal's standard error. Returns the tally.
pub fn run<W, E>(inputs: &[String], threads: usize, work: W, mut emit: E) -> Tally
where
    W: Fn(&str) -> Result<Done, crate::Error> + Sync,
    E: FnMut(&Outcome),
{
    let bar = progress_bar(inputs.len());
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel::<(usize, Outcome)>();
    let mut tally = Tally::default();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, inputs.len().max(1)) {
            let send = send.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(input) = inputs.get(k) else { break };
                let result = work(input);
                let outcome = Outcome {
                    input: input.clone(),
                    result,
                };
                if send.send((k, outcome)).is_err() {
                    break;
                }
            });
        }
        drop(send);
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        for (k, outcome) in receive {
            waiting.insert(k, outcome);
            while let Some(outcome) = waiting.remove(&due) {
                tally.add(&outcome.result);
                if let Some(bar) = &bar {
                    bar.suspend(|| emit(&outcome));
                    bar.inc(1);
                } else {
                    emit(&outcome);
                }
                due += 1;
            }
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    tally
}

/// The workers to use: one per core.
pub fn threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

fn progress_bar(len: usize) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(len as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} left {eta}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;

    fn done(status: Option<Status>) -> Result<Done, Error> {
        Ok(Done {
            json: Value::Null,
            text: String::new(),
            file_text: String::new(),
            status,
        })
    }

    #[test]
    fn outcomes_come_in_input_order_whatever_order_they_finish_in() {
        let inputs: Vec<String> = (0..40).map(|k| k.to_string()).collect();
        let mut seen = Vec::new();
        let tally = run(
            &inputs,
            4,
            |s| {
                let k: u64 = s.parse().unwrap();
                // Early inputs take longest, so later ones finish first.
                std::thread::sleep(Duration::from_millis(40u64.saturating_sub(k)));
                done(None)
            },
            |o| seen.push(o.input.clone()),
        );
        assert_eq!(seen, inputs);
        assert_eq!(tally.ok, 40);
    }

    #[test]
    fn a_bad_input_is_named_and_the_rest_still_run() {
        let inputs: Vec<String> = ["a", "bad", "c", "none"].map(String::from).to_vec();
        let mut failed = Vec::new();
        let tally = run(
            &inputs,
            2,
            |s| match s {
                "bad" => Err(Error::Usage("bad: not a puzzle".into())),
                "none" => done(Some(Status::Unsolvable)),
                _ => done(Some(Status::Solved)),
            },
            |o| {
                if let Err(e) = &o.result {
                    failed.push(format!("{}: {e}", o.input));
                }
            },
        );
        assert_eq!(failed, ["bad: bad: not a puzzle"]);
        assert_eq!(
            tally,
            Tally {
                ok: 2,
                unanswered: 1,
                failed: 1
            }
        );
        assert_eq!(tally.exit_code(), 2);
        assert_eq!(
            tally.summary("solved"),
            "4 files: 2 solved, 1 without an answer, 1 failed"
        );
    }

    #[test]
    fn exit_code_is_one_when_only_answers_are_missing() {
        let t = Tally {
            ok: 3,
            unanswered: 1,
            failed: 0,
        };
        assert_eq!(t.exit_code(), 1);
        assert_eq!(Tally::default().exit_code(), 0);
    }

    #[test]
    fn outputs_are_named_after_their_inputs() {
        assert_eq!(
            output_path(Path::new("out"), "shots/level 3.png", "hashi"),
            Path::new("out/level 3.hashi")
        );
        let v = named_json("a.png", serde_json::json!({"status": "solved"}));
        assert_eq!(v.to_string(), r#"{"file":"a.png","status":"solved"}"#);
    }
}
