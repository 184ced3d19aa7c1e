//! A private X desktop for one test: Xvfb 1920x1080x24 on a display nobody else uses, with
//! openbox on it (xcap lists windows only under an EWMH window manager).

use super::process::Process;
use super::{wait_for, Result};
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// The displays this harness may take. Other people's servers on this machine use numbers
/// like :71 or :99; Xvfb's own lock file decides who wins a number, we only skip the ones
/// visibly taken and retry on "already active".
const DISPLAYS: std::ops::RangeInclusive<u32> = 60..=99;

/// The programs a desktop and its helpers run; pass to `support::installed`.
pub const TOOLS: &[&str] = &[
    "Xvfb", "openbox", "xdpyinfo", "xprop", "xdotool", "xwininfo", "import",
];

static NEXT: AtomicU32 = AtomicU32::new(0);

/// A window's client area in screen coordinates (what xcap reports too; no WM frame).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

pub struct Desktop {
    number: u32,
    // Field order is drop order: the window manager goes before its X server.
    openbox: Process,
    xvfb: Process,
    dir: tempfile::TempDir,
}

impl Desktop {
    /// Starts Xvfb and openbox and returns once both are ready. Check
    /// `support::installed(desktop::TOOLS)` first to skip on machines without them.
    pub fn start() -> Result<Desktop> {
        Desktop::start_sized(1920, 1080)
    }

    /// A desktop of another size: the browser stage needs room for a 1920x1080 screenshot
    /// plus the window frame.
    pub fn start_sized(width: u32, height: u32) -> Result<Desktop> {
        let dir = tempfile::Builder::new().prefix("desktop-").tempdir()?;
        let (number, xvfb) = start_xvfb(dir.path(), &format!("{width}x{height}x24"))?;
        let display = format!(":{number}");
        let mut cmd = Command::new("openbox");
        cmd.arg("--sm-disable").envs(env(&display));
        // A developer's own ~/.config/openbox/rc.xml could change window placement.
        let system_config = Path::new("/etc/xdg/openbox/rc.xml");
        if system_config.exists() {
            cmd.arg("--config-file").arg(system_config);
        }
        let mut openbox = Process::spawn("openbox", cmd, &dir.path().join("openbox.log"))?;
        wait_for(
            "openbox to manage the screen",
            Duration::from_secs(10),
            || {
                if openbox.exited().is_some() {
                    bail!("openbox exited\n{}", openbox.log_tail());
                }
                let out = Command::new("xprop")
                    .args(["-display", &display, "-root", "_NET_SUPPORTING_WM_CHECK"])
                    .output()?;
                Ok(String::from_utf8_lossy(&out.stdout)
                    .contains("window id")
                    .then_some(()))
            },
        )?;
        Ok(Desktop {
            number,
            openbox,
            xvfb,
            dir,
        })
    }

    /// The value for DISPLAY, e.g. ":63".
    pub fn display(&self) -> String {
        format!(":{}", self.number)
    }

    /// The environment a program needs to run on this desktop and nowhere else. xcap and
    /// enigo prefer Wayland when they see it, so a developer's session must not leak in.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        env(&self.display())
    }

    /// A command that runs on this desktop.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.envs(self.env());
        cmd
    }

    /// Starts a long-running program on this desktop, logging to the desktop's temp dir.
    pub fn spawn(&self, name: &str, cmd: Command) -> Result<Process> {
        Process::spawn(name, cmd, &self.dir.path().join(format!("{name}.log")))
    }

    /// A fresh path in the desktop's temp dir (removed with the desktop).
    pub fn temp_path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Runs `program args` on this desktop and returns its stdout; fails with its stderr.
    pub fn run(&self, program: &str, args: &[&str]) -> Result<String> {
        let out = self.command(program).args(args).output()?;
        check(program, args, out)
    }

    /// Saves the whole screen as PNG.
    pub fn screenshot(&self, path: &Path) -> Result<()> {
        let path = path.to_str().context("screenshot path is not UTF-8")?;
        self.run("import", &["-window", "root", path]).map(drop)
    }

    /// A left-button drag through screen points with xdotool (XTEST, the same path the real
    /// mouse takes), with pauses so apps that sample motion see every step.
    pub fn drag(&self, points: &[(i32, i32)]) -> Result<()> {
        let (first, rest) = points.split_first().context("a drag needs points")?;
        let mut args = vec![
            "mousemove".to_string(),
            first.0.to_string(),
            first.1.to_string(),
        ];
        args.extend(["sleep", "0.05", "mousedown", "1"].map(String::from));
        for p in rest {
            args.extend(["sleep".into(), "0.03".into(), "mousemove".into()]);
            args.extend([p.0.to_string(), p.1.to_string()]);
        }
        args.extend(["sleep", "0.05", "mouseup", "1", "sleep", "0.05"].map(String::from));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        self.run("xdotool", &args).map(drop)
    }

    /// Waits until `xdotool search --onlyvisible <criteria>` finds a window and returns its
    /// id (decimal), failing early with the program's log if `process` exits meanwhile.
    pub fn wait_for_window(&self, process: &mut Process, criteria: &[&str]) -> Result<String> {
        let what = format!("a window matching {criteria:?}");
        wait_for(&what, Duration::from_secs(30), || {
            if process.exited().is_some() {
                bail!(
                    "the program exited before showing {what}\n{}",
                    process.log_tail()
                );
            }
            let out = self
                .command("xdotool")
                .args(["search", "--onlyvisible"])
                .args(criteria)
                .output()?;
            Ok(String::from_utf8_lossy(&out.stdout)
                .lines()
                .next()
                .map(str::to_string))
        })
    }

    /// The client area of window `id` from xwininfo. (`xdotool getwindowgeometry` adds the
    /// frame offset under openbox, so it is not used.)
    pub fn window_geometry(&self, id: &str) -> Result<Geometry> {
        let info = self.run("xwininfo", &["-id", id])?;
        let field = |name: &str| -> Result<i64> {
            info.lines()
                .find_map(|l| l.trim().strip_prefix(name))
                .and_then(|v| v.trim().parse().ok())
                .with_context(|| format!("no {name:?} in xwininfo output:\n{info}"))
        };
        Ok(Geometry {
            x: field("Absolute upper-left X:")? as i32,
            y: field("Absolute upper-left Y:")? as i32,
            width: field("Width:")? as u32,
            height: field("Height:")? as u32,
        })
    }

    /// PIDs of Xvfb and openbox, to check that they are gone after drop.
    pub fn pids(&self) -> Vec<u32> {
        vec![self.xvfb.pid(), self.openbox.pid()]
    }

    pub fn lock_file(&self) -> PathBuf {
        lock_file(self.number)
    }
}

fn env(display: &str) -> Vec<(&'static str, String)> {
    vec![
        ("DISPLAY", display.to_string()),
        ("XDG_SESSION_TYPE", "x11".to_string()),
        ("WAYLAND_DISPLAY", String::new()),
    ]
}

fn lock_file(n: u32) -> PathBuf {
    PathBuf::from(format!("/tmp/.X{n}-lock"))
}

fn check(program: &str, args: &[&str], out: Output) -> Result<String> {
    if !out.status.success() {
        bail!(
            "`{program} {}` failed ({}): {}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Tries the displays in turn, starting at a place that differs per process and per call
/// so parallel tests rarely race for the same number. Xvfb's lock file is what makes the
/// choice atomic: a loser exits with "Server is already active". (`-displayfd` would avoid
/// polling, but in that mode Xvfb writes no lock file, so other users could not see the
/// display as taken.)
fn start_xvfb(dir: &Path, screen: &str) -> Result<(u32, Process)> {
    let count = DISPLAYS.end() - DISPLAYS.start() + 1;
    let first = std::process::id().wrapping_add(NEXT.fetch_add(7, Ordering::Relaxed));
    let mut failures = Vec::new();
    for i in 0..count {
        let n = DISPLAYS.start() + (first.wrapping_add(i)) % count;
        if lock_file(n).exists() || Path::new(&format!("/tmp/.X11-unix/X{n}")).exists() {
            continue;
        }
        let mut cmd = Command::new("Xvfb");
        cmd.arg(format!(":{n}"))
            .args(["-screen", "0", screen, "-nolisten", "tcp"])
            // Without -noreset the server resets whenever its last client leaves, e.g.
            // the xdpyinfo readiness probe, and refuses connections while it does.
            .arg("-noreset");
        let mut xvfb = Process::spawn("Xvfb", cmd, &dir.join(format!("xvfb-{n}.log")))?;
        let pid = xvfb.pid().to_string();
        let started = wait_for(
            "Xvfb to accept connections",
            Duration::from_secs(10),
            || {
                if xvfb.exited().is_some() {
                    return Ok(Some(false));
                }
                // The lock must name our server, or xdpyinfo might be talking to someone else's.
                let ours = std::fs::read_to_string(lock_file(n)).is_ok_and(|l| l.trim() == pid);
                let up = ours
                    && Command::new("xdpyinfo")
                        .args(["-display", &format!(":{n}")])
                        .stdout(std::process::Stdio::null())
                        .stderr(std::process::Stdio::null())
                        .status()?
                        .success();
                Ok(up.then_some(true))
            },
        )?;
        if started {
            return Ok((n, xvfb));
        }
        failures.push(format!(":{n}: {}", xvfb.log_tail()));
    }
    bail!("no free display in {DISPLAYS:?}:\n{}", failures.join("\n"))
}
