//! What every bench shares: where the corpus is (the library's lookup, the one the tests
//! use), the summary of a list of times, the machine line, and how a section of
//! BENCHMARKS.md is replaced in place.

use std::path::Path;

pub use autoplayer::corpus::root as corpus_dir;

/// Replaces the text between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`, appending the
/// section when it is not there yet, so each game's run leaves the others' figures alone.
pub fn write_section(path: &Path, name: &str, body: &str) -> anyhow::Result<()> {
    let old = std::fs::read_to_string(path).unwrap_or_else(|_| {
        "# Benchmarks\n\nRelease build on this 2-core machine; written by \
         `cargo run --release --bin bench -- all`.\n"
            .to_string()
    });
    let open = format!("<!-- bench:{name} -->");
    let close = format!("<!-- /bench:{name} -->");
    let block = format!("{open}\n{}\n{close}", body.trim_end());
    let new = match (old.find(&open), old.find(&close)) {
        (Some(a), Some(b)) if b > a => format!("{}{}{}", &old[..a], block, &old[b + close.len()..]),
        _ => format!("{}\n{}\n", old.trim_end(), block),
    };
    std::fs::write(path, new)?;
    Ok(())
}

/// A list of times in milliseconds, summed up.
pub struct Stats {
    pub count: usize,
    pub mean: f64,
    pub median: f64,
    pub p99: f64,
    pub max: f64,
    pub total_s: f64,
}

pub fn stats(times: &[f64]) -> Stats {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let total: f64 = sorted.iter().sum();
    let p99 = ((sorted.len() as f64 * 0.99).ceil() as usize).saturating_sub(1);
    Stats {
        count: sorted.len(),
        mean: total / sorted.len().max(1) as f64,
        median: sorted.get(sorted.len() / 2).copied().unwrap_or(0.0),
        p99: sorted.get(p99).copied().unwrap_or(0.0),
        max: sorted.last().copied().unwrap_or(0.0),
        total_s: total / 1000.0,
    }
}

/// The machine's cores and its one-minute load average now.
pub fn cores_and_load() -> (usize, String) {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into());
    (cores, load)
}

/// The "met" column.
pub fn met(ok: bool) -> &'static str {
    if ok {
        "yes"
    } else {
        "no"
    }
}
