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

/// The machine (its cores and processor model, as "2 cores (AMD EPYC)") and its one-minute load
/// average now. Sessions run on machines of different speeds, so each figure names its own.
pub fn machine_and_load() -> (String, String) {
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown processor".into());
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into());
    (format!("{cores} cores ({cpu})"), load)
}

/// The "met" column.
pub fn met(ok: bool) -> &'static str {
    if ok {
        "yes"
    } else {
        "no"
    }
}

/// The characters `renamed` picks, renamed in reading order (the k-th new one becomes
/// `name(k)`), so two readings that name the same pairs differently compare equal: which digit
/// a map gives a portal pair, or which letter a list gives a flow, is arbitrary.
pub fn in_reading_order(
    rows: &[String],
    renamed: impl Fn(char) -> bool,
    name: impl Fn(usize) -> char,
) -> Vec<String> {
    let mut seen: Vec<char> = Vec::new();
    rows.iter()
        .map(|row| {
            row.chars()
                .map(|ch| {
                    if !renamed(ch) {
                        return ch;
                    }
                    let k = seen.iter().position(|&n| n == ch).unwrap_or_else(|| {
                        seen.push(ch);
                        seen.len() - 1
                    });
                    name(k)
                })
                .collect()
        })
        .collect()
}

/// enclose.horse portals (lower-case letters and digits) renamed in reading order.
pub fn portal_pairs(rows: &[String]) -> Vec<String> {
    in_reading_order(
        rows,
        |ch| ch.is_ascii_alphanumeric() && !ch.is_ascii_uppercase(),
        |k| char::from_digit(k as u32, 36).unwrap_or('?'),
    )
}

/// Flow endpoints (letters) renamed A, B, … in reading order, as the Flow reader names them.
pub fn flow_letters(rows: &[String]) -> Vec<String> {
    in_reading_order(
        rows,
        |ch| ch.is_ascii_alphabetic(),
        |k| (b'A' + k as u8) as char,
    )
}
