//! What both binaries' commands use: the options every game gets, a PNG written, the exit
//! code.

use super::args::GameOptions;
use autoplayer::games::Options;
use autoplayer::Error;
use std::path::Path;
use std::time::Duration;

/// The options every game gets, from the command line's; `--timeout` must be a positive
/// number of seconds.
pub fn options(g: &GameOptions, timeout: Option<f64>) -> anyhow::Result<Options> {
    let timeout = match timeout {
        Some(t) if !(t > 0.0 && t.is_finite()) => {
            return Err(Error::Usage(format!(
                "--timeout {t}: must be a positive number of seconds"
            ))
            .into())
        }
        t => t.map(Duration::from_secs_f64),
    };
    Ok(Options {
        timeout,
        enclose: g.enclose.clone(),
        hashi: g.hashi.clone(),
        loopgame: g.loopgame.clone(),
        calibration: None,
        moves: None,
    })
}

/// Writes `img` as a PNG at `path`.
pub fn save_png(img: &image::RgbaImage, path: &Path) -> anyhow::Result<()> {
    img.save(path)
        .map_err(|e| Error::Usage(format!("{}: cannot write PNG: {e}", path.display())).into())
}

/// The process's exit code for a command's outcome, printing its error first.
pub fn exit_code(outcome: anyhow::Result<u8>) -> u8 {
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("autoplayer: {e:#}");
            e.downcast_ref::<Error>().map(Error::exit_code).unwrap_or(2) as u8
        }
    }
}
