//! `--timeout` and memory on inputs far beyond the games' own: each solve runs in a child
//! process (this bench run again as `bench timeouts-one GAME FILE SECS`), so its wall time is
//! what a user waits, parsing and start-up included, and its peak memory is its own.

use super::report::{machine_and_load, met};
use anyhow::Context;
use autoplayer::games::{GameKind, Options};
use autoplayer::rng::Rng;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A generated input: a name for the table, its game and text.
struct Case {
    name: String,
    game: &'static str,
    text: String,
}

fn enclose_map(rng: &mut Rng, w: usize, h: usize) -> Case {
    let mut rows: Vec<Vec<char>> = (0..h)
        .map(|_| {
            (0..w)
                .map(|_| if rng.below(100) < 12 { '~' } else { '.' })
                .collect()
        })
        .collect();
    rows[h / 2][w / 2] = 'H';
    let body: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    Case {
        name: format!("{w}×{h} random grass and water, horse in the middle"),
        game: "enclose",
        text: format!("budget: 40\n{}\n", body.join("\n")),
    }
}

/// A map as a new user might draw one: water, a cherry in fifty tiles and bees in four
/// hundred. Its search goes deep (one copy of the flows per level) and grew past 650 MB in
/// 10 s before the memory limit.
fn enclose_fruit_map(rng: &mut Rng, n: usize, budget: u32) -> Case {
    let mut cells: Vec<char> = (0..n * n)
        .map(|_| if rng.below(100) < 30 { '~' } else { '.' })
        .collect();
    for _ in 0..n * n / 50 {
        cells[rng.below((n * n) as u64) as usize] = 'C';
    }
    for _ in 0..n * n / 400 {
        cells[rng.below((n * n) as u64) as usize] = 'S';
    }
    cells[n / 2 * n + n / 2] = 'H';
    let body: Vec<String> = cells.chunks(n).map(|r| r.iter().collect()).collect();
    Case {
        name: format!("{n}×{n} with cherries and bees, budget {budget}"),
        game: "enclose",
        text: format!("budget: {budget}\n{}\n", body.join("\n")),
    }
}

fn sparse_grid(rng: &mut Rng, w: usize, h: usize, per_mille: u64, header: &str) -> String {
    let digits: &[u8] = if header == "loop" { b"0123" } else { b"1234" };
    let mut out = if header == "loop" {
        format!("loop {w}x{h}\n")
    } else {
        format!("hashi {w}x{h} max=2\n")
    };
    for _ in 0..h {
        for _ in 0..w {
            out.push(if rng.below(1000) < per_mille {
                digits[rng.below(digits.len() as u64) as usize] as char
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}

fn cases() -> Vec<Case> {
    let mut rng = Rng::new(2026);
    let mut out = vec![
        enclose_map(&mut rng, 120, 120),
        enclose_map(&mut rng, 250, 250),
        enclose_fruit_map(&mut rng, 250, 40),
        enclose_fruit_map(&mut rng, 250, 500),
        enclose_map(&mut rng, 3000, 3000),
    ];
    for (w, h, pm) in [
        (256, 256, 0),
        (256, 256, 1),
        (256, 256, 10),
        (1024, 64, 2),
        (500, 500, 10),
    ] {
        out.push(Case {
            name: format!("{w}×{h}, {pm}‰ cells hinted"),
            game: "loop",
            text: sparse_grid(&mut rng, w, h, pm, "loop"),
        });
    }
    for (w, h, pm) in [(256, 256, 100), (1000, 1000, 100)] {
        out.push(Case {
            name: format!("{w}×{h}, {pm}‰ cells islands"),
            game: "hashi",
            text: sparse_grid(&mut rng, w, h, pm, "hashi"),
        });
    }
    for (n, pairs) in [(40, 3), (256, 2), (256, 20), (1000, 2)] {
        out.push(Case {
            name: format!("{n}×{n}, {pairs} pairs on an open board"),
            game: "flow",
            text: open_flow_board(&mut rng, n, pairs),
        });
    }
    out
}

/// An open square board in mzucker's rows, `pairs` endpoint pairs at random cells.
fn open_flow_board(rng: &mut Rng, n: usize, pairs: usize) -> String {
    let mut cells = vec![b'.'; n * n];
    for k in 0..2 * pairs {
        loop {
            let at = rng.below((n * n) as u64) as usize;
            if cells[at] == b'.' {
                cells[at] = b'A' + (k / 2) as u8;
                break;
            }
        }
    }
    cells
        .chunks(n)
        .map(|r| String::from_utf8_lossy(r).into_owned() + "\n")
        .collect()
}

/// What the child reports: the outcome and its peak resident memory.
struct Outcome {
    status: String,
    wall: f64,
    peak_mb: Option<f64>,
}

fn run_case(dir: &Path, k: usize, c: &Case, secs: f64) -> anyhow::Result<Outcome> {
    let file = dir.join(format!("case{k}.txt"));
    std::fs::write(&file, &c.text)?;
    let exe = std::env::current_exe()?;
    let start = Instant::now();
    let out = Command::new(exe)
        .args([
            "timeouts-one",
            c.game,
            file.to_str().unwrap(),
            &secs.to_string(),
        ])
        .output()
        .context("running a child solve")?;
    let wall = start.elapsed().as_secs_f64();
    let text = String::from_utf8_lossy(&out.stdout);
    let mut status = String::from("crashed");
    let mut peak_mb = None;
    for line in text.lines() {
        if let Some(s) = line.strip_prefix("status ") {
            status = s.to_string();
        }
        if let Some(m) = line.strip_prefix("peak_kb ") {
            peak_mb = m.trim().parse::<f64>().ok().map(|kb| kb / 1024.0);
        }
    }
    Ok(Outcome {
        status,
        wall,
        peak_mb,
    })
}

/// The child: one solve, then its status and peak memory on standard output.
pub fn one(args: &[String]) -> anyhow::Result<()> {
    let [game, file, secs] = args else {
        anyhow::bail!("usage: bench timeouts-one GAME FILE SECS");
    };
    let Some(kind) = GameKind::named(game) else {
        anyhow::bail!("unknown game {game}");
    };
    let text = std::fs::read_to_string(file)?;
    let opts = Options {
        timeout: Some(Duration::from_secs_f64(secs.parse()?)),
        ..Options::default()
    };
    match kind.game()?.solve(&text, file, &opts) {
        Ok(s) => println!(
            "status {}",
            serde_json::to_value(s.status())?.as_str().unwrap()
        ),
        // The message without the file's temporary name and position.
        Err(e) => {
            let text = e.to_string().replace('\n', " ");
            let reason = text
                .splitn(4, ':')
                .nth(3)
                .unwrap_or(&text)
                .trim()
                .to_string();
            println!("status refused: {reason}");
        }
    }
    let status = std::fs::read_to_string("/proc/self/status")?;
    if let Some(l) = status.lines().find(|l| l.starts_with("VmHWM:")) {
        println!(
            "peak_kb {}",
            l.trim_start_matches("VmHWM:")
                .trim()
                .trim_end_matches(" kB")
        );
    }
    Ok(())
}

pub fn run(_corpus: &Path) -> anyhow::Result<String> {
    let dir = std::env::temp_dir().join(format!("autoplayer-timeouts-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let section = measure(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    section
}

fn measure(dir: &Path) -> anyhow::Result<String> {
    let (machine, load) = machine_and_load();
    let mut rows = Vec::new();
    let (mut worst, mut heaviest) = (0.0f64, 0.0f64);
    for (k, c) in cases().iter().enumerate() {
        for secs in [1.0, 3.0] {
            let o = run_case(dir, k, c, secs)?;
            let bound = 1.1 * secs + 0.1;
            let refused = o.status.starts_with("refused");
            if !refused {
                worst = worst.max(o.wall / bound);
            }
            let peak = o.peak_mb.unwrap_or(f64::NAN);
            heaviest = heaviest.max(peak);
            rows.push(format!(
                "| {} | {} | {secs} | {} | {:.2} | {bound:.2} | {} | {peak:.0} |",
                c.game,
                c.name,
                o.status.chars().take(90).collect::<String>(),
                o.wall,
                met(refused || o.wall <= bound)
            ));
            if refused {
                break;
            }
        }
    }
    Ok(format!(
        "Machine: {machine}, load average {load} at the start; release build. Each solve \
         runs in its own process (parsing and start-up included in the wall time); peak is \
         that process's resident high-water mark. The inputs are generated with a fixed seed.\n\n\
         | game | input | --timeout s | outcome | wall s | bar 1.1 T + 0.1 s | met | peak MB |\n\
         |---|---|---|---|---|---|---|---|\n{}\n\n\
         Worst wall time against its bar: {:.0}% of it; heaviest process: {heaviest:.0} MB \
         (bar 1024 MB). An input past a solver's size limit is refused before any work.\n",
        rows.join("\n"),
        worst * 100.0
    ))
}
