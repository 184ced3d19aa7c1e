//! Test support: a private X desktop per test, the apps that run on it, and the CLI runner.
//!
//! Every helper that starts a process owns it through a [`process::Process`] guard, so a
//! failing (panicking) test still stops what it started. Things started on a desktop borrow
//! it, so the borrow checker makes them stop before their X server does.
//!
//! A typical test:
//! ```ignore
//! if !installed(desktop::TOOLS) || !installed(bridges_app::TOOLS) {
//!     return; // printed "SKIPPED: ..."
//! }
//! let desktop = Desktop::start()?;
//! let app = BridgesApp::launch(&desktop, "7x7m2:4e4a1a5a4zb23b5a4a", 40)?;
//! TestCommand::autoplayer()
//!     .on(&desktop)
//!     .args(["play", "hashi", "--window", "Bridges"])
//!     .run()
//!     .assert_success();
//! assert_eq!(app.copy_text()?.trim_end(), SOLVED_TEXT); // Game ▸ Copy, as in the corpus README
//! ```
//! Never set DISPLAY in the test process itself: tests run on parallel threads, each with
//! its own desktop, so only subprocesses get it (`Desktop::command`, `TestCommand::on`).

pub mod bridges_app;
pub mod command;
pub mod desktop;
pub mod process;
pub mod stage;

use std::io::Write;
use std::path::Path;
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub type Result<T> = anyhow::Result<T>;

/// True if every program is on PATH (or is an existing path). Otherwise prints one
/// `SKIPPED: <test>: ...` line, so a dev machine without the desktop tools shows the skip
/// instead of passing silently. `.ci/run` installs them all and sets
/// `AUTOPLAYER_REQUIRE_TOOLS`: there a missing program fails the test.
pub fn installed(programs: &[&str]) -> bool {
    let missing: Vec<&str> = programs
        .iter()
        .copied()
        .filter(|p| find_program(p).is_none())
        .collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var_os("AUTOPLAYER_REQUIRE_TOOLS").is_none(),
        "not installed: {} (scripts/install-deps.sh installs it)",
        missing.join(", ")
    );
    let test = std::thread::current()
        .name()
        .unwrap_or("<unnamed test>")
        .to_string();
    // Written to the stderr handle, not with eprintln!, which libtest captures and hides
    // for passing tests.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {test}: not installed: {}",
        missing.join(", ")
    );
    false
}

fn find_program(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return p.is_file().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Polls `probe` until it yields a value or `timeout` passes. The error names `what` so a
/// timed-out wait says which step of a test's setup hung.
pub fn wait_for<T>(
    what: &str,
    timeout: Duration,
    mut probe: impl FnMut() -> Result<Option<T>>,
) -> Result<T> {
    let start = Instant::now();
    loop {
        if let Some(v) = probe()? {
            return Ok(v);
        }
        if start.elapsed() > timeout {
            anyhow::bail!("timed out after {timeout:?} waiting for {what}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A file the project keeps under `fixtures/GAME/`.
pub fn fixture(game: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(game)
        .join(name)
}
