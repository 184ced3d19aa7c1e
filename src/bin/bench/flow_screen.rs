//! Flow Free screen bars: every corpus screenshot and clone fixture read exactly (size, holes,
//! endpoints and their pairing up to renaming, drawn pipes) or refused, and the time one
//! reading takes.

use autoplayer::games::flow::vision::read;
use autoplayer::games::flow::vision::truth::{
    clone_fixtures, corpus_app_screens, corpus_screenshots, Known,
};
use std::path::Path;
use std::time::Instant;

/// One row per capture: exact, differs or refused, and the fastest of five readings.
fn measure(known: &[Known], lines: &mut Vec<String>, times: &mut Vec<f64>) -> (usize, usize) {
    let mut exact = 0;
    for k in known {
        let name = k
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let img = match autoplayer::screen::read_picture(&k.path) {
            Ok(i) => i,
            Err(e) => {
                lines.push(format!("| {name} | not decoded: {e} | |"));
                continue;
            }
        };
        let mut best = f64::MAX;
        let mut reading = None;
        for _ in 0..5 {
            let t = Instant::now();
            let r = read(&img);
            best = best.min(t.elapsed().as_secs_f64() * 1000.0);
            reading = Some(r);
        }
        times.push(best);
        let verdict = match reading.expect("read five times") {
            Err(e) => format!("refused: {e}"),
            Ok(r) => {
                let d = autoplayer::games::flow::vision::truth::differences(&r, k);
                if d.is_empty() {
                    exact += 1;
                    format!("exact (confidence {:.2})", r.confidence)
                } else {
                    format!("differs: {}", d.join("; "))
                }
            }
        };
        lines.push(format!(
            "| {name} ({}×{}) | {} | {best:.1} |",
            img.width(),
            img.height(),
            verdict.replace('|', "/")
        ));
    }
    (exact, known.len())
}

pub fn run(_corpus: &Path) -> anyhow::Result<String> {
    let shots = corpus_screenshots();
    if shots.is_empty() {
        anyhow::bail!("the corpus's flow/screenshots/index.jsonl was not found");
    }
    let clones = clone_fixtures();
    let others = corpus_app_screens();
    let mut lines = Vec::new();
    let mut times = Vec::new();
    let known = shots
        .iter()
        .filter(|k| k.rows.is_some() || k.puzzle_file.is_some())
        .count();
    let (shots_ok, shots_n) = measure(&shots, &mut lines, &mut times);
    let (clones_ok, clones_n) = measure(&clones, &mut lines, &mut times);
    let (others_ok, others_n) = measure(&others, &mut lines, &mut times);
    let t = crate::report::stats(&times);
    let (machine, load) = crate::report::machine_and_load();
    let mut s = String::from("## Flow Free on screen\n\n");
    s.push_str(&format!(
        "Machine: {machine}, load average {load} at the start; release build; each capture read 5 times, the fastest counts.\n\n"
    ));
    s.push_str("| what | measured | bar | met |\n|---|---|---|---|\n");
    s.push_str(&format!(
        "| corpus screenshots read exactly (size, holes, endpoints and pairing up to renaming) | {shots_ok}/{shots_n} | the {known} with a known puzzle (a grid, or a file for the hex board) | {} |\n",
        crate::report::met(shots_ok == known)
    ));
    s.push_str(&format!(
        "| clone fixtures read exactly, drawn pipes too | {clones_ok}/{clones_n} | all | {} |\n",
        crate::report::met(clones_ok == clones_n)
    ));
    s.push_str(&format!(
        "| the other web clone (FeygelsonE, corpus app-screens) read exactly, its drawn pipe too | {others_ok}/{others_n} | nice to have | {} |\n",
        crate::report::met(others_ok == others_n)
    ));
    s.push_str(&format!(
        "| time per reading, every capture | median {:.1} ms, max {:.1} ms | ≤ 50 ms | {} |\n",
        t.median,
        t.max,
        crate::report::met(t.max <= 50.0)
    ));
    s.push_str("\n| capture | reading | ms |\n|---|---|---|\n");
    for l in &lines {
        s.push_str(l);
        s.push('\n');
    }
    print!("{s}");
    Ok(s)
}
