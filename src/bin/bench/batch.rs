//! A puzzle set in one process, and the start-up a single process costs: every Big Duck pack
//! level that a plain letter grid can hold (square or rectangular, no holes, walls, bridges,
//! warps or hexagons, at most 16 colours, as mzucker's C solver reads) is written as such a
//! grid and solved by one `autoplayer solve flow --list` process; with
//! `MZUCKER_FLOW_SOLVER=<path to flow_solver built with -O3>` the same files are solved by the
//! C solver at one process per file, as its README runs it. (What one small `solve` process
//! costs is the `startup` bench.)

use super::report::{machine_and_load, met};
use autoplayer::games::flow::format::{self, PackLevel};
use autoplayer::games::flow::model::{Puzzle, Variant};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// mzucker's colour letters, in the order of its table.
const MZUCKER_COLOURS: &[u8] = b"RBYGOCMmPAWgTbcp";

/// The puzzle as mzucker's letter grid, when it is a full rectangle of plain cells.
fn mzucker_rows(p: &Puzzle) -> Option<String> {
    let full_links = p.rows * (p.cols - 1) + p.cols * (p.rows - 1);
    let plain = p.variant == Variant::Standard
        && p.cells.len() == p.rows * p.cols
        && p.links.len() == full_links
        && p.cells.iter().all(|c| !c.bridge)
        && p.flows.len() <= MZUCKER_COLOURS.len();
    if !plain {
        return None;
    }
    let mut grid = vec![vec![b'.'; p.cols]; p.rows];
    for (k, f) in p.flows.iter().enumerate() {
        for &e in &f.ends {
            let c = p.cells[e];
            grid[c.row][c.col] = MZUCKER_COLOURS[k];
        }
    }
    Some(
        grid.into_iter()
            .map(|r| String::from_utf8(r).expect("ASCII") + "\n")
            .collect(),
    )
}

pub fn run(corpus: &Path) -> anyhow::Result<String> {
    let (machine, load) = machine_and_load();
    let autoplayer = super::startup::sibling_autoplayer()?;
    let packs = corpus.join("flow/puzzles/bigduck_levelpacks_via_nubango");
    let dir = std::env::temp_dir().join(format!("autoplayer-bench-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut files = Vec::new();
    let mut all = 0;
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&packs)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    entries.sort();
    for f in entries {
        let stem = f
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let text = std::fs::read_to_string(&f)?;
        let levels: Vec<PackLevel> = format::parse_pack(&text, &f.display().to_string())?;
        for lvl in levels {
            all += 1;
            if let Some(grid) = mzucker_rows(&lvl.puzzle) {
                let path = dir.join(format!("{stem}_{:03}.txt", lvl.level));
                std::fs::write(&path, grid)?;
                files.push(path);
            }
        }
    }
    let list = dir.join("list.txt");
    let names: String = files.iter().map(|p| format!("{}\n", p.display())).collect();
    std::fs::write(&list, names)?;

    let start = Instant::now();
    let out = Command::new(&autoplayer)
        .args(["solve", "flow", "--json", "--list"])
        .arg(&list)
        .stderr(Stdio::null())
        .output()?;
    let ours_s = start.elapsed().as_secs_f64();
    let mut statuses: BTreeMap<String, usize> = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: serde_json::Value = serde_json::from_str(line)?;
        *statuses
            .entry(v["status"].as_str().unwrap_or("?").to_string())
            .or_default() += 1;
    }
    let solved = statuses.get("solved").copied().unwrap_or(0);

    let theirs = match std::env::var_os("MZUCKER_FLOW_SOLVER") {
        Some(c_solver) => {
            let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
            let start = Instant::now();
            for f in &files {
                let out = Command::new(&c_solver).arg("-q").arg(f).output()?;
                // `-q` prints "FILE STATUS SECONDS NODES": `s` solved, `u` unsolvable, `f`
                // out of storage; a file it cannot load prints its complaint instead.
                let text = String::from_utf8_lossy(&out.stdout);
                let kind = match text.split_whitespace().nth(1) {
                    Some("s") => "solved",
                    Some("u") => "called unsolvable",
                    Some("f") => "out of storage",
                    _ if !out.status.success() => "crashed",
                    _ => "could not load",
                };
                *kinds.entry(kind.to_string()).or_default() += 1;
            }
            Some((start.elapsed().as_secs_f64(), kinds))
        }
        None => None,
    };
    std::fs::remove_dir_all(&dir).ok();

    let mut s = String::from("## A puzzle set in one process\n\n");
    writeln!(
        s,
        "Machine: {machine}, load average {load} at the start; release build. {} of the {all} \
         Big Duck pack levels are plain letter grids (no holes, walls, bridges, warps or \
         hexagons; at most 16 colours), written as mzucker's grid files.\n",
        files.len()
    )?;
    writeln!(s, "| measure | autoplayer | anchor | bar | met |")?;
    writeln!(s, "|---|---|---|---|---|")?;
    let statuses_text = statuses
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect::<Vec<_>>()
        .join(", ");
    let (anchor, beaten) = match &theirs {
        Some((secs, kinds)) => {
            let kinds = kinds
                .iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect::<Vec<_>>()
                .join(", ");
            (
                format!("mzucker C (-O3), one process per file: {secs:.1} s ({kinds})"),
                Some(ours_s < *secs),
            )
        }
        None => (
            "mzucker C not run (set MZUCKER_FLOW_SOLVER to its flow_solver)".to_string(),
            None,
        ),
    };
    writeln!(
        s,
        "| {} files, one `solve flow --list` process | {ours_s:.2} s ({statuses_text}; each answer passed the independent checker) | {anchor} | all solved, less total time | {} |",
        files.len(),
        match beaten {
            Some(b) => met(b && solved == files.len()),
            None => "not measured",
        }
    )?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_level_becomes_mzucker_letters_and_a_bridged_one_does_not() {
        let plain = format::parse("A.B\n...\nA.B\n", "t").unwrap();
        assert_eq!(mzucker_rows(&plain).unwrap(), "R.B\n...\nR.B\n");
        let bridged = format::parse("BRIDGES\nA-.-B\n| | |\n.-*-.\n| | |\nB-.-A\n", "t").unwrap();
        assert_eq!(mzucker_rows(&bridged), None);
    }
}
