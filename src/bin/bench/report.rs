//! Where the corpus is (the library's lookup, the one the tests use), and how a section of
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
