//! Runs the real `autoplayer` binary and reports everything about a failed run: the
//! command line, exit status, stdout and stderr.

use super::desktop::Desktop;
use std::ffi::OsString;
use std::fmt;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub struct TestCommand {
    program: OsString,
    args: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
    stdin: Option<Vec<u8>>,
    timeout: Duration,
}

/// What a finished (or timed-out, then killed) run produced.
pub struct Run {
    pub command: String,
    /// `None` if killed by a signal, the timeout included.
    pub code: Option<i32>,
    pub timed_out: bool,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl TestCommand {
    /// The `autoplayer` binary that cargo built for this test run.
    pub fn autoplayer() -> TestCommand {
        TestCommand::new(env!("CARGO_BIN_EXE_autoplayer"))
    }

    pub fn new(program: impl Into<OsString>) -> TestCommand {
        TestCommand {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            stdin: None,
            timeout: Duration::from_secs(60),
        }
    }

    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.args.push(arg.into());
        self
    }

    pub fn args<I: IntoIterator<Item = S>, S: Into<OsString>>(mut self, args: I) -> Self {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Runs on `desktop` (DISPLAY and friends) instead of the developer's session.
    pub fn on(mut self, desktop: &Desktop) -> Self {
        for (k, v) in desktop.env() {
            self.env.push((k.into(), v.into()));
        }
        self
    }

    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> Self {
        self.stdin = Some(bytes.into());
        self
    }

    /// The run is killed after this long (default 60 s) and reported as timed out.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    pub fn run(&self) -> Run {
        let command = self.to_string();
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let start = Instant::now();
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {command}: {e}"));
        // Pipes are drained and fed on threads: a child blocked on a full pipe would
        // otherwise look like a hang.
        let feeder = child.stdin.take().map(|mut pipe| {
            let bytes = self.stdin.clone().unwrap_or_default();
            std::thread::spawn(move || {
                let _ = pipe.write_all(&bytes);
            })
        });
        let drain = |mut pipe: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut buf = Vec::new();
                let _ = pipe.read_to_end(&mut buf);
                String::from_utf8_lossy(&buf).into_owned()
            })
        };
        let stdout = drain(Box::new(child.stdout.take().expect("piped stdout")));
        let stderr = drain(Box::new(child.stderr.take().expect("piped stderr")));
        let mut timed_out = false;
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait for child") {
                break status;
            }
            if start.elapsed() > self.timeout {
                timed_out = true;
                let _ = child.kill();
                break child.wait().expect("wait for killed child");
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        if let Some(f) = feeder {
            let _ = f.join();
        }
        Run {
            command,
            code: status.code(),
            timed_out,
            stdout: stdout.join().unwrap_or_default(),
            stderr: stderr.join().unwrap_or_default(),
            elapsed: start.elapsed(),
        }
    }
}

impl fmt::Display for TestCommand {
    /// A shell-like line to paste when reproducing a failure by hand.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.env {
            write!(f, "{}={:?} ", k.to_string_lossy(), v.to_string_lossy())?;
        }
        write!(f, "{}", self.program.to_string_lossy())?;
        for a in &self.args {
            write!(f, " {:?}", a.to_string_lossy())?;
        }
        Ok(())
    }
}

/// `play GAME --image PICTURE --dry-run` on a picture the game must refuse: exit 2 and no plan
/// printed.
pub fn play_refuses(game: &str, picture: &std::path::Path) -> Run {
    let args = [
        "play",
        game,
        "--image",
        picture.to_str().unwrap(),
        "--dry-run",
    ];
    let r = run_expecting(&args, "", 2);
    assert!(
        r.stdout.is_empty(),
        "{game}: a plan was printed:\n{}",
        r.stdout
    );
    r
}

/// Runs autoplayer without a desktop, feeding `stdin`, and checks its exit code.
pub fn run_expecting(args: &[&str], stdin: &str, code: i32) -> Run {
    let r = TestCommand::autoplayer().args(args).stdin(stdin).run();
    r.assert_code(code);
    r
}

impl Run {
    pub fn assert_success(&self) -> &Self {
        self.assert_code(0)
    }

    pub fn assert_code(&self, code: i32) -> &Self {
        if self.code != Some(code) {
            self.fail(&format!("expected exit code {code}"));
        }
        self
    }

    pub fn assert_stdout_contains(&self, needle: &str) -> &Self {
        if !self.stdout.contains(needle) {
            self.fail(&format!("expected stdout to contain {needle:?}"));
        }
        self
    }

    /// Standard output as one JSON value, or a failure telling the whole run.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| self.fail(&format!("stdout is not one JSON object: {e}")))
    }

    /// Panics with the whole story of the run, for assertions the helpers above lack.
    pub fn fail(&self, why: &str) -> ! {
        panic!("{why}\n{self}");
    }
}

impl fmt::Display for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = match (self.timed_out, self.code) {
            (true, _) => "killed after timeout".to_string(),
            (false, Some(c)) => format!("exit code {c}"),
            (false, None) => "killed by a signal".to_string(),
        };
        write!(
            f,
            "command: {}\nstatus: {status} after {:?}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.command, self.elapsed, self.stdout, self.stderr
        )
    }
}
