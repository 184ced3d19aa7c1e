//! Links GCC's unwinder into the `autoplayer` binary statically instead of loading
//! `libgcc_s.so` at every start: a short `solve` process spends a measurable share of its
//! time mapping and relocating that library (docs/start-up.md). rustc asks the linker for
//! `-lgcc_s`; a directory searched first that holds a `libgcc_s.a` naming `libgcc_eh` (the same
//! unwinder as an archive, shipped with GCC) answers that request with the archive. Only the
//! front binary takes it: `autoplayer-desktop` and the bench run for seconds, not
//! milliseconds, and keep the system's shared unwinder.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let target = std::env::var("TARGET").unwrap_or_default();
    if !target.ends_with("-linux-gnu") {
        return;
    }
    let dir =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("unwind");
    std::fs::create_dir_all(&dir).expect("creating the unwinder's link directory");
    // A linker script in place of the archive: GNU ld reads any input it cannot take as an
    // object or archive as a script.
    std::fs::write(dir.join("libgcc_s.a"), "INPUT(-lgcc_eh)\n")
        .expect("writing the unwinder's link script");
    println!("cargo:rustc-link-arg-bin=autoplayer=-L{}", dir.display());
}
