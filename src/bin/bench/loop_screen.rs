//! Loop screen bars: every real screenshot read exactly (size, every hint, the drawn path) and
//! the time one reading takes; a capture under the win sheet is refused as won, since the sheet
//! hides the hints.

use autoplayer::games::loopgame::model::Cell;
use autoplayer::games::loopgame::vision::{recognize, win_sheet};
use serde_json::Value;
use std::path::Path;
use std::time::Instant;

/// The same open path whichever end it is read from: a picture does not show where the
/// stroke began.
fn same_path(read: &[Cell], drawn: &[Cell]) -> bool {
    read == drawn || read.iter().eq(drawn.iter().rev())
}

fn cells(v: &Value) -> Vec<Cell> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|c| [0, 1].map(|k| c[k].as_u64().unwrap_or(0) as usize))
                .collect()
        })
        .unwrap_or_default()
}

pub fn run(corpus: &Path) -> anyhow::Result<String> {
    let dir = corpus.join("loop");
    let index = std::fs::read_to_string(dir.join("screenshots/index.jsonl"))?;
    let (mut read_ok, mut readable, mut won_ok, mut won) = (0, 0, 0, 0);
    let mut times = Vec::new();
    let mut slowest = (0.0f64, String::new());
    let mut wrong = Vec::new();
    for line in index.lines() {
        let v: Value = serde_json::from_str(line)?;
        let file = v["file"].as_str().unwrap_or_default();
        let img = image::open(dir.join(file))?.to_rgba8();
        let mut best = f64::MAX;
        let mut reading = None;
        for _ in 0..5 {
            let t = Instant::now();
            let r = recognize(&img);
            best = best.min(t.elapsed().as_secs_f64() * 1000.0);
            reading = Some(r);
        }
        times.push(best);
        if best > slowest.0 {
            slowest = (best, file.to_string());
        }
        let reading = reading.expect("read five times");
        if v["state"] == "solved" {
            won += 1;
            if reading.is_err() && win_sheet(&img).is_some() {
                won_ok += 1;
            } else {
                wrong.push(format!("{file}: the win sheet was not recognised"));
            }
            continue;
        }
        readable += 1;
        let hints: Vec<String> = v["hints"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        match reading {
            Err(e) => wrong.push(format!("{file}: not read: {e}")),
            Ok(r) if r.puzzle.rows() != hints => wrong.push(format!("{file}: hints differ")),
            Ok(r) if !same_path(&r.path, &cells(&v["drawn_path"])) => {
                wrong.push(format!("{file}: drawn path differs"))
            }
            Ok(_) => read_ok += 1,
        }
    }
    let t = crate::report::stats(&times);
    let (machine, load) = crate::report::machine_and_load();
    let mut s = String::from("## Loop on screen\n\n");
    s.push_str(&format!(
        "Machine: {machine}, load average {load} at the start; release build; each capture read 5 times, the fastest counts.\n\n"
    ));
    s.push_str("| what | measured | bar | met |\n|---|---|---|---|\n");
    s.push_str(&format!(
        "| fresh and partly drawn screenshots read exactly (size, every hint, the drawn path) | {read_ok}/{readable} | all | {} |\n",
        crate::report::met(read_ok == readable)
    ));
    s.push_str(&format!(
        "| solved screenshots (the win sheet over the board hides the hints): refused as won | {won_ok}/{won} | all | {} |\n",
        crate::report::met(won_ok == won)
    ));
    s.push_str(&format!(
        "| time per reading, every screenshot (1280×900 and 1920×1080) | median {:.1} ms, max {:.1} ms ({}) | ≤ 30 ms | {} |\n",
        t.median,
        t.max,
        slowest.1,
        crate::report::met(t.max <= 30.0)
    ));
    for w in &wrong {
        s.push_str(&format!("\n* {w}"));
    }
    print!("{s}");
    Ok(s)
}
