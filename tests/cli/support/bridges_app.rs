//! Simon Tatham's Bridges (`sgt-bridges` from Debian's sgt-puzzles) on a test desktop.

use super::desktop::{Desktop, Geometry};
use super::process::Process;
use super::{wait_for, Result};
use anyhow::Context;
use std::time::Duration;

pub const PROGRAM: &str = "/usr/games/sgt-bridges";

/// What this module needs besides `desktop::TOOLS`.
pub const TOOLS: &[&str] = &[PROGRAM, "xclip"];

/// The GTK menu bar above the board, in pixels.
const MENU_BAR: i32 = 25;

pub struct BridgesApp<'d> {
    desktop: &'d Desktop,
    process: Process,
    window: String,
    tile_size: u32,
    board: (u32, u32),
}

impl<'d> BridgesApp<'d> {
    /// Opens `game_id` (e.g. `7x7m2:4e4a1a5a4zb23b5a4a`) with tiles of `tile_size` px and
    /// returns once its "Bridges" window is mapped.
    pub fn launch(desktop: &'d Desktop, game_id: &str, tile_size: u32) -> Result<BridgesApp<'d>> {
        let board = board_size(game_id)?;
        let mut cmd = desktop.command(PROGRAM);
        cmd.arg(game_id)
            .env("BRIDGES_TILESIZE", tile_size.to_string());
        let mut process = desktop.spawn("sgt-bridges", cmd)?;
        let pid = process.pid().to_string();
        // --pid keeps the 10x10 "sgt-bridges" leader window and other apps out.
        let window =
            desktop.wait_for_window(&mut process, &["--pid", &pid, "--name", "^Bridges$"])?;
        let app = BridgesApp {
            desktop,
            process,
            window,
            tile_size,
            board,
        };
        app.wait_drawn()?;
        Ok(app)
    }

    /// Waits until the board is painted, so a capture taken right after `launch` cannot
    /// catch an empty window: island outlines are the only near-black pixels below the menu.
    fn wait_drawn(&self) -> Result<()> {
        let shot = self
            .desktop
            .temp_path(&format!("bridges-{}.png", self.pid()));
        let shot_arg = shot.to_str().context("temp path is not UTF-8")?;
        wait_for(
            "the Bridges board to be drawn",
            Duration::from_secs(10),
            || {
                self.desktop
                    .run("import", &["-window", &self.window, shot_arg])?;
                let image = image::open(&shot)?.to_rgb8();
                let (w, h) = self.expected_size();
                let drawn = image.dimensions() == (w, h)
                    && image
                        .enumerate_pixels()
                        .any(|(_, y, p)| y > MENU_BAR as u32 && p.0.iter().all(|&c| c < 40));
                Ok(drawn.then_some(()))
            },
        )
    }

    pub fn pid(&self) -> u32 {
        self.process.pid()
    }

    /// The X window id, as xdotool prints it (decimal).
    pub fn window_id(&self) -> &str {
        &self.window
    }

    pub fn geometry(&self) -> Result<Geometry> {
        self.desktop.window_geometry(&self.window)
    }

    /// The client size Bridges should have: ((W+1)·ts) × ((H+1)·ts + 25).
    pub fn expected_size(&self) -> (u32, u32) {
        let ts = self.tile_size;
        let (w, h) = self.board;
        ((w + 1) * ts, (h + 1) * ts + MENU_BAR as u32)
    }

    /// Screen position of the centre of cell (col, row): the border is ts/2, so the centre
    /// is one tile in from the client origin, plus the menu bar.
    pub fn cell_centre(&self, col: u32, row: u32) -> Result<(i32, i32)> {
        let g = self.geometry()?;
        let ts = self.tile_size as i32;
        Ok((
            g.x + ts + col as i32 * ts,
            g.y + MENU_BAR + ts + row as i32 * ts,
        ))
    }

    /// Game ▸ Copy, read back from the CLIPBOARD. A sentinel is put on the clipboard first
    /// so that text left there by an earlier copy cannot pass for this one.
    pub fn copy_text(&self) -> Result<String> {
        let sentinel = format!("autoplayer-harness-sentinel-{}", self.pid());
        let file = self.desktop.temp_path("clipboard-sentinel.txt");
        std::fs::write(&file, &sentinel)?;
        let mut owner = self.desktop.command("xclip");
        // -quiet keeps xclip in the foreground, so it stays our child and is stopped
        // with the guard instead of forking a daemon that outlives the test.
        owner
            .args(["-selection", "clipboard", "-quiet", "-i"])
            .arg(&file);
        let _owner = self.desktop.spawn("xclip", owner)?;
        wait_for(
            "the sentinel on the clipboard",
            Duration::from_secs(5),
            || Ok((self.clipboard()? == sentinel).then_some(())),
        )?;
        // `key --window` would use XSendEvent, whose synthetic events GTK ignores, so the
        // window is activated and the keys go through XTEST like real typing. The Game menu
        // wraps: from its first item, Up goes to Exit, then Solve, then Copy.
        self.desktop.run(
            "xdotool",
            &[
                "windowactivate",
                "--sync",
                &self.window,
                "key",
                "--clearmodifiers",
                "--delay",
                "30",
                "F10",
                "Up",
                "Up",
                "Up",
                "Return",
            ],
        )?;
        wait_for(
            "Game ▸ Copy to fill the clipboard",
            Duration::from_secs(5),
            || {
                let text = self.clipboard()?;
                Ok((text != sentinel && !text.is_empty()).then_some(text))
            },
        )
    }

    fn clipboard(&self) -> Result<String> {
        let out = self
            .desktop
            .command("xclip")
            .args(["-selection", "clipboard", "-o"])
            .output()?;
        // xclip fails while nobody owns the selection; that is just "empty" here.
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// (W, H) from the `WxH` at the start of a game ID or of a `params#seed` string.
fn board_size(game_id: &str) -> Result<(u32, u32)> {
    let parse = || -> Option<(u32, u32)> {
        let (w, rest) = game_id.split_once('x')?;
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        Some((w.parse().ok()?, digits.parse().ok()?))
    };
    parse().with_context(|| format!("game ID {game_id:?} does not start with WxH"))
}
