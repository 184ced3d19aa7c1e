//! The real Bridges app drawing puzzles the project has never seen, at every tile size from
//! 12 to 64 px: `sgt-bridges --generate` makes the puzzles (fixed seeds, so a rerun draws the
//! same ones) and `BRIDGES_TILESIZE=t sgt-bridges --screenshot` draws each at each size, with
//! no display needed. Each picture is read and judged against the game ID it was drawn from.
//! Bars (issue 39): every board read right at tiles of 16–64 px, none read wrong at 12–14 px.
//! Numbers of 10 or more (three or four bridges a side) are counted apart: the app draws them
//! in a smaller font, and at 16–17 px tiles their 0 is as like a 6, 8 or 9 as a 0, so those
//! are refused; the bar asks of them that none is read wrong.

use super::report::{machine_and_load, met};
use autoplayer::games::hashi;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The app's parameters of the puzzles drawn: square and oblong, small to the largest the
/// corpus plays, two bridges and four; each is generated twice, from two seeds.
const PARAMS: [&str; 7] = [
    "7x7m2", "10x10m2", "12x8m2", "15x15m2", "20x15m3", "25x25m2", "30x30m4",
];
const SEEDS: [&str; 2] = ["autoplayer-tiles-1", "autoplayer-tiles-2"];
const TILES: std::ops::RangeInclusive<u32> = 12..=64;
/// Below this tile size the bar asks only that nothing is read wrong.
const FULL_FROM: u32 = 16;

const APP: &str = "/usr/games/sgt-bridges";

#[derive(Clone, Copy, Default)]
struct Count {
    right: usize,
    refused: usize,
    wrong: usize,
}

/// The game IDs of the puzzles, as the app generates them.
fn puzzles(app: &Path) -> anyhow::Result<Vec<String>> {
    let mut ids = Vec::new();
    for params in PARAMS {
        for seed in SEEDS {
            let out = Command::new(app)
                .args(["--generate", "1", &format!("{params}#{seed}")])
                .stderr(Stdio::null())
                .output()?;
            anyhow::ensure!(
                out.status.success(),
                "{app:?} --generate {params}#{seed} failed"
            );
            let id = String::from_utf8(out.stdout)?.trim().to_string();
            anyhow::ensure!(id.contains(':'), "{app:?} generated no game ID: {id:?}");
            ids.push(id);
        }
    }
    Ok(ids)
}

/// The app's picture of `id` at tile size `tile`.
fn drawn(app: &Path, id: &str, tile: u32, file: &Path) -> anyhow::Result<image::RgbaImage> {
    let status = Command::new(app)
        .env("BRIDGES_TILESIZE", tile.to_string())
        .arg("--screenshot")
        .arg(file)
        .arg(id)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()?;
    anyhow::ensure!(
        status.success(),
        "{app:?} --screenshot {id} at {tile} px failed"
    );
    Ok(image::open(file)?.to_rgba8())
}

pub fn run(_corpus: &Path) -> anyhow::Result<String> {
    let app = PathBuf::from(APP);
    anyhow::ensure!(
        app.exists(),
        "{APP} is missing: install the sgt-puzzles package (scripts/install-deps.sh)"
    );
    let (machine, load) = machine_and_load();
    let start = Instant::now();
    let ids = puzzles(&app)?;
    let file = std::env::temp_dir().join(format!(
        "autoplayer-bridges-tiles-{}.png",
        std::process::id()
    ));
    // The app squeezes a number of 10 or more into the ring in a smaller face: at 16 px tiles
    // its 0 is 3 px wide, so those puzzles are counted apart.
    let truths = ids
        .iter()
        .map(|id| hashi::format::parse(id, "the app's game ID"))
        .collect::<Result<Vec<_>, _>>()?;
    let two_digits: Vec<bool> = truths
        .iter()
        .map(|p| p.islands.iter().any(|i| i.target >= 10))
        .collect();
    let mut per_tile: Vec<(u32, [Count; 2])> = Vec::new();
    let mut wrong = Vec::new();
    let mut refused = Vec::new();
    for tile in TILES {
        let mut counts = [Count::default(); 2];
        for ((id, truth), &two) in ids.iter().zip(&truths).zip(&two_digits) {
            let c = &mut counts[two as usize];
            let img = drawn(&app, id, tile, &file)?;
            match hashi::vision::recognize(&img) {
                Ok(r) if r.puzzle.rows() == truth.rows() => c.right += 1,
                Ok(_) => {
                    c.wrong += 1;
                    wrong.push(format!("{id} at {tile} px"));
                }
                Err(e) => {
                    c.refused += 1;
                    if tile >= FULL_FROM {
                        refused.push(format!("{id} at {tile} px: {e}"));
                    }
                }
            }
        }
        per_tile.push((tile, counts));
    }
    let _ = std::fs::remove_file(&file);

    let sum = |from: u32, to: u32, two: bool| {
        per_tile
            .iter()
            .filter(|(t, _)| (from..=to).contains(t))
            .map(|(_, c)| c[two as usize])
            .fold(Count::default(), |a, c| Count {
                right: a.right + c.right,
                refused: a.refused + c.refused,
                wrong: a.wrong + c.wrong,
            })
    };
    let full = sum(FULL_FROM, *TILES.end(), false);
    let full_two = sum(FULL_FROM, *TILES.end(), true);
    let small = sum(*TILES.start(), FULL_FROM - 1, false);
    let small_two = sum(*TILES.start(), FULL_FROM - 1, true);
    let singles = two_digits.iter().filter(|&&t| !t).count();
    let mut s = String::from("## The Bridges app at every tile size\n\n");
    writeln!(
        s,
        "Machine: {machine}, load average {load} at the start; release build; {} puzzles the \
         app generated ({}; seeds {}), each drawn by the app itself at every tile size from \
         {} to {} px (`BRIDGES_TILESIZE`, `--screenshot`) and read: {} pictures in {:.0} s. \
         Each cell is **right / refused / wrong** against the game ID.\n",
        ids.len(),
        PARAMS.join(", "),
        SEEDS.join(", "),
        TILES.start(),
        TILES.end(),
        per_tile.len() * ids.len(),
        start.elapsed().as_secs_f64()
    )?;
    writeln!(
        s,
        "| puzzles | tiles | right | refused | wrong | bar | met |"
    )?;
    writeln!(s, "|---|---|---|---|---|---|---|")?;
    let (end, small_to) = (*TILES.end(), FULL_FROM - 1);
    let rows = [
        ("numbers 1–9", FULL_FROM, end, full, "all right"),
        (
            "a number of 10 or more",
            FULL_FROM,
            end,
            full_two,
            "all right",
        ),
        ("numbers 1–9", *TILES.start(), small_to, small, "none wrong"),
        (
            "a number of 10 or more",
            *TILES.start(),
            small_to,
            small_two,
            "none wrong",
        ),
    ];
    for (which, from, to, c, bar) in rows {
        let ok = c.wrong == 0 && (bar == "none wrong" || c.refused == 0);
        writeln!(
            s,
            "| {which} | {from}–{to} px | {} | {} | {} | {bar} | {} |",
            c.right,
            c.refused,
            c.wrong,
            met(ok)
        )?;
    }
    writeln!(
        s,
        "\n{singles} of the {} puzzles have numbers 1–9 only.\n",
        ids.len()
    )?;
    writeln!(s, "| tile px | numbers 1–9 | a number of 10 or more |")?;
    writeln!(s, "|---|---|---|")?;
    for (tile, [one, two]) in &per_tile {
        writeln!(
            s,
            "| {tile} | {}/{}/{} | {}/{}/{} |",
            one.right, one.refused, one.wrong, two.right, two.refused, two.wrong
        )?;
    }
    for (title, list) in [("Read wrong", &wrong), ("Refused from 16 px", &refused)] {
        writeln!(s, "\n{title}:\n")?;
        if list.is_empty() {
            writeln!(s, "* none")?;
        }
        for item in list {
            writeln!(s, "* {item}")?;
        }
    }
    Ok(s)
}
