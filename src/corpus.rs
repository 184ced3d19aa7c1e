//! Where the shared corpus of real levels and screenshots lives, for tests and benchmarks.
//! It is never copied into the project: it sits beside the checkout (`../shared/corpus`) or
//! wherever `AUTOPLAYER_CORPUS` points.

use std::io::Write;
use std::path::PathBuf;

/// Where the corpus is looked for, present or not: `AUTOPLAYER_CORPUS`, else
/// `../shared/corpus` beside the checkout. The bench takes it as is: a missing corpus fails
/// its run rather than passing empty.
pub fn root() -> PathBuf {
    std::env::var_os("AUTOPLAYER_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"))
}

/// The corpus folder, or `None` when it is absent.
pub fn dir() -> Option<PathBuf> {
    let p = root();
    p.is_dir().then_some(p)
}

/// A file or folder inside the corpus. When the corpus (or that part of it) is absent it
/// returns `None` after a plain `SKIPPED:` line naming the test, so a test can return early
/// without passing silently; under `AUTOPLAYER_REQUIRE_TOOLS` (as CI runs, with the corpus
/// beside the checkout) it panics instead, so a test that lost its data fails.
pub fn path(rel: &str) -> Option<PathBuf> {
    match dir().map(|d| d.join(rel)) {
        Some(p) if p.exists() => Some(p),
        _ => {
            let missing = format!(
                "corpus file {rel} not found; set AUTOPLAYER_CORPUS to the corpus folder \
                 (../shared/corpus beside the checkout)"
            );
            assert!(
                std::env::var_os("AUTOPLAYER_REQUIRE_TOOLS").is_none(),
                "{missing}"
            );
            let test = std::thread::current()
                .name()
                .unwrap_or("<unnamed>")
                .to_string();
            // To the stderr handle, not with eprintln!, which libtest captures and hides for
            // passing tests.
            let _ = writeln!(std::io::stderr(), "SKIPPED: {test}: {missing}");
            None
        }
    }
}

/// Every picture in a corpus folder, read by content (some carry a `.png` name over a JPEG),
/// sorted by file name; empty (after the SKIPPED line) when the folder is absent.
pub fn pictures(rel: &str) -> Vec<(PathBuf, image::RgbaImage)> {
    let Some(dir) = path(rel) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    files
        .into_iter()
        .filter_map(|p| crate::screen::read_picture(&p).ok().map(|img| (p, img)))
        .collect()
}
