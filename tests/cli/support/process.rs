//! A child process that runs in its own process group and is stopped, group and all, when the
//! guard drops. Browsers and wrapper scripts fork helpers; signalling only the direct child
//! would leave them behind.

use super::{wait_for, Result};
use anyhow::Context;
use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::Duration;

pub struct Process {
    name: String,
    child: Child,
    log: PathBuf,
}

impl Process {
    /// Starts `cmd` with stdin closed and stdout+stderr appended to `log`, which the error
    /// messages of the helpers quote when the program misbehaves.
    pub fn spawn(name: &str, mut cmd: Command, log: &Path) -> Result<Process> {
        let out = File::options()
            .create(true)
            .append(true)
            .open(log)
            .with_context(|| format!("cannot open log {}", log.display()))?;
        cmd.stdin(Stdio::null())
            .stdout(out.try_clone()?)
            .stderr(out)
            .process_group(0);
        let child = cmd
            .spawn()
            .with_context(|| format!("cannot start {name} ({cmd:?})"))?;
        Ok(Process {
            name: name.to_string(),
            child,
            log: log.to_path_buf(),
        })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `Some(status)` once the process has exited.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// The end of the log, for error messages.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let tail = &lines[lines.len().saturating_sub(15)..];
        format!(
            "--- {} log {} ---\n{}",
            self.name,
            self.log.display(),
            tail.join("\n")
        )
    }

    /// SIGTERM to the group (Xvfb removes its lock file only then), SIGKILL to whatever is
    /// left after a grace period, then waits until no live member remains.
    pub fn stop(&mut self) {
        let pgid = self.child.id();
        signal_group(pgid, "TERM");
        let gone = wait_for("group exit", Duration::from_secs(3), || {
            let _ = self.child.try_wait();
            Ok((!group_alive(pgid)).then_some(()))
        });
        if gone.is_err() {
            signal_group(pgid, "KILL");
            let _ = self.child.wait();
            let _ = wait_for("group exit after SIGKILL", Duration::from_secs(3), || {
                Ok((!group_alive(pgid)).then_some(()))
            });
        }
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Goes through the `kill` program because std has no way to signal a process group and
/// the test binary has no libc binding.
fn signal_group(pgid: u32, signal: &str) {
    if group_alive(pgid) {
        let _ = Command::new("kill")
            .args([&format!("-{signal}"), "--", &format!("-{pgid}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// Whether any non-zombie process is in group `pgid`. Zombies do not count: PID 1 in some
/// containers never reaps orphans, so helpers reparented to it may linger as zombies.
pub fn group_alive(pgid: u32) -> bool {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return false;
    };
    dir.flatten().any(|entry| {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            return false;
        };
        // The command name is parenthesised and may hold spaces, so fields start after ')'.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            return false;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        fields.len() > 2 && fields[0] != "Z" && fields[2] == pgid.to_string()
    })
}
