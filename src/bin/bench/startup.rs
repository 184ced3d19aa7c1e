//! What one short `solve` costs as a whole process: a 5×5 Flow board solved by a fresh
//! `autoplayer` process, beside `autoplayer --version` (start-up and argument parsing only) and
//! `/bin/true` (the machine's own cost of starting any process). The three are run in turn,
//! round after round, so a change in the machine's speed during the run moves all three alike.

use super::report::{machine_and_load, met, stats};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Rounds of the three commands; the figures are medians over them.
const ROUNDS: usize = 500;

/// The release `autoplayer` beside this bench binary.
pub fn sibling_autoplayer() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let path = exe.with_file_name("autoplayer");
    anyhow::ensure!(
        path.exists(),
        "{} is missing: build it first (cargo build --release)",
        path.display()
    );
    Ok(path)
}

/// Wall time of one run of a command, in milliseconds; a failed run is an error.
fn once_ms(program: &Path, args: &[&str]) -> anyhow::Result<f64> {
    let start = Instant::now();
    let status = Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()?;
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    anyhow::ensure!(status.success(), "{} {args:?} failed", program.display());
    Ok(ms)
}

pub fn run(_corpus: &Path) -> anyhow::Result<String> {
    let (machine, load) = machine_and_load();
    let autoplayer = sibling_autoplayer()?;
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/flow/standard_5x5.flow");
    let fixture = fixture.display().to_string();
    let commands: [(&Path, Vec<&str>); 3] = [
        (&autoplayer, vec!["solve", "flow", &fixture]),
        (&autoplayer, vec!["--version"]),
        (Path::new("/bin/true"), vec![]),
    ];
    let mut times = [
        Vec::with_capacity(ROUNDS),
        Vec::with_capacity(ROUNDS),
        Vec::with_capacity(ROUNDS),
    ];
    for round in 0..ROUNDS + 10 {
        for ((program, args), t) in commands.iter().zip(times.iter_mut()) {
            let ms = once_ms(program, args)?;
            // The first rounds warm the page cache and are not counted.
            if round >= 10 {
                t.push(ms);
            }
        }
    }
    let [solve, version, truth] = times.map(|t| {
        let min = t.iter().copied().fold(f64::INFINITY, f64::min);
        (stats(&t).median, min)
    });

    let mut s = String::from("## Start-up\n\n");
    writeln!(
        s,
        "Machine: {machine}, load average {load} at the start; release build. The three \
         commands run in turn, {ROUNDS} rounds; each figure is the median wall time (the \
         fastest in brackets).\n"
    )?;
    writeln!(s, "| measure | autoplayer | anchor | bar | met |")?;
    writeln!(s, "|---|---|---|---|---|")?;
    writeln!(
        s,
        "| 5×5 `solve flow` as a whole process | {:.2} ms ({:.2}); `--version` {:.2} ms ({:.2}) | `/bin/true` {:.2} ms ({:.2}) | ≤ 1.5 ms | {} |",
        solve.0,
        solve.1,
        version.0,
        version.1,
        truth.0,
        truth.1,
        met(solve.0 <= 1.5)
    )?;
    Ok(s)
}
