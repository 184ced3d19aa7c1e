//! `bench solution-pictures`: `play --solution` on every corpus screenshot of every game. Each
//! picture the reader reads is solved and its answer drawn; the picture must have the
//! capture's size and differ from it only inside the board the play report names. Counts made
//! / refused by the reader / without an answer / failed per game; the pictures are written to
//! `SOLUTION_DIR` (default `/tmp/solution-pictures/<game>/`) to be looked at.

use autoplayer::games::{GameKind, Options};
use autoplayer::picture::{board_pixels, changed_outside};
use autoplayer::screen::{read_picture, Screen};
use autoplayer::Error;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The corpus folders each game's screenshots are in.
const FOLDERS: &[(&str, &str)] = &[
    ("hashi", "hashi/screenshots"),
    ("hashi", "hashi/app-screens"),
    ("enclose", "enclose/screenshots"),
    ("enclose", "enclose/app-screens"),
    ("loop", "loop/screenshots"),
    ("flow", "flow/screenshots"),
    ("flow", "flow/app-screens"),
];

/// A budget for enclose.horse captures that show none and whose index names none: the
/// picture is then the answer for that budget, and counted apart.
const ASSUMED_BUDGET: u32 = 12;

#[derive(Default)]
struct Counts {
    made: usize,
    assumed_budget: usize,
    refused: usize,
    no_answer: usize,
    failed: usize,
}

/// enclose.horse budgets the corpus indexes give, by file name.
fn known_budgets(corpus: &Path) -> BTreeMap<String, u32> {
    let mut out = BTreeMap::new();
    let lines = |rel: &str| {
        std::fs::read_to_string(corpus.join(rel))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .collect::<Vec<_>>()
    };
    let levels = lines("enclose/levels.jsonl");
    for v in lines("enclose/screenshots/index.jsonl") {
        let by_id = || {
            levels
                .iter()
                .find(|l| l["game_id"] == v["game_id"] && !v["game_id"].is_null())
                .and_then(|l| l["budget"].as_u64())
        };
        if let Some(b) = v["budget"].as_u64().or_else(by_id) {
            out.insert(v["file"].as_str().unwrap_or_default().to_string(), b as u32);
        }
    }
    for v in lines("enclose/app-screens/index.jsonl") {
        if let Some(b) = v["level"]["budget"].as_u64() {
            out.insert(v["file"].as_str().unwrap_or_default().to_string(), b as u32);
        }
    }
    out
}

pub fn run(corpus: &Path) -> anyhow::Result<String> {
    let out_dir = std::env::var_os("SOLUTION_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/tmp/solution-pictures"));
    let budgets = known_budgets(corpus);
    let mut counts: BTreeMap<&str, Counts> = BTreeMap::new();
    let mut notes = Vec::new();
    for &(game_name, folder) in FOLDERS {
        let Some(kind) = GameKind::named(game_name) else {
            continue;
        };
        let game = kind.game()?;
        let dir = corpus.join(folder);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        files.sort();
        std::fs::create_dir_all(out_dir.join(game_name))?;
        let c = counts.entry(game_name).or_default();
        for file in files {
            let Ok(image) = read_picture(&file) else {
                continue;
            };
            let name = file.file_name().unwrap_or_default().to_string_lossy();
            let screen = Screen::from_image(image);
            let mut opts = Options {
                timeout: Some(Duration::from_secs(20)),
                ..Options::default()
            };
            if game_name == "enclose" {
                opts.enclose.budget = budgets.get(name.as_ref()).copied();
            }
            let mut first = game.prepare(&screen, &opts);
            let mut assumed = false;
            // A capture without its budget is refused for play, not by the reader: draw the
            // answer for a stated budget rather than leave the picture out.
            if game_name == "enclose" && matches!(first, Err(Error::Usage(_))) {
                opts.enclose.budget = Some(ASSUMED_BUDGET);
                first = game.prepare(&screen, &opts);
                assumed = true;
            }
            let prepared = match first {
                Ok(p) => p,
                Err(e @ Error::Vision { .. }) => {
                    c.refused += 1;
                    notes.push(format!("{game_name} {name}: refused by the reader: {e}"));
                    continue;
                }
                Err(e) => {
                    c.no_answer += 1;
                    notes.push(format!("{game_name} {name}: not prepared: {e}"));
                    continue;
                }
            };
            if prepared.solved.status().exit_code() != 0 {
                c.no_answer += 1;
                notes.push(format!(
                    "{game_name} {name}: no answer ({:?})",
                    prepared.solved.status()
                ));
                continue;
            }
            let picture = match prepared.solution_picture(&screen) {
                Ok(p) => p,
                Err(e) => {
                    c.failed += 1;
                    notes.push(format!("{game_name} {name}: FAILED: {e}"));
                    continue;
                }
            };
            let board = board_pixels(&screen, prepared.plan.board);
            if let Some((x, y)) = changed_outside(&screen.image, &picture, board) {
                c.failed += 1;
                notes.push(format!(
                    "{game_name} {name}: FAILED: changed outside the board at ({x}, {y})"
                ));
                continue;
            }
            // A board that already shows its answer (no gesture planned) may be left as it is.
            if picture == screen.image && !prepared.plan.actions.is_empty() {
                c.failed += 1;
                notes.push(format!("{game_name} {name}: FAILED: nothing drawn"));
                continue;
            }
            let stem = Path::new(name.as_ref())
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string();
            picture.save(out_dir.join(game_name).join(format!("{stem}.solved.png")))?;
            c.made += 1;
            if assumed {
                c.assumed_budget += 1;
            }
        }
    }
    let mut s = String::from(
        "## Solution pictures (`play --solution` on every corpus screenshot)\n\n\
         Each picture the reader reads is solved and drawn; made means it has the capture's \
         size, differs from it inside the board only, and shows something unless the board already \
         showed the answer.\n\n\
         | game | made | of them with an assumed budget | refused by the reader | no answer | failed |\n\
         |---|---|---|---|---|---|\n",
    );
    for (game, c) in &counts {
        s.push_str(&format!(
            "| {game} | {} | {} | {} | {} | {} |\n",
            c.made, c.assumed_budget, c.refused, c.no_answer, c.failed
        ));
    }
    s.push_str(&format!(
        "\nAn enclose.horse capture that shows no budget and whose index names none is solved \
         with budget {ASSUMED_BUDGET}. Pictures in {}.\n",
        out_dir.display()
    ));
    for n in &notes {
        println!("{n}");
    }
    if !notes.is_empty() {
        s.push_str("\n```\n");
        for n in &notes {
            s.push_str(n);
            s.push('\n');
        }
        s.push_str("```\n");
    }
    print!("{s}");
    Ok(s)
}
