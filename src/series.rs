//! `play --series`: board after board, as a player goes on. Each board is read, solved,
//! played and verified; then the app's own control for the next puzzle is clicked (the one the
//! game knows, or the `--next-at` point), and a fresh board is waited for. Anything that is not
//! a fresh board stops the series with its reason; the fail-safe stays armed throughout.

use crate::error::{Error, Result};
use crate::games::{Game, Next, Options, Prepared};
use crate::input::Mouse;
use crate::plan::{execute, Action, Pacing, Plan};
use crate::rect::Rect;
use crate::screen::{PixelPoint, Screen};
use crate::session::{play_and_verify, Verification};
use crate::vision::color::luma;
use crate::vision::components::{components, Connectivity};
use crate::vision::runs::runs;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How a series ended without an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// As many boards as asked for were played.
    Done,
    /// The app has no next puzzle.
    NoMore(String),
}

/// One board of a series, once verified.
#[derive(Debug, Clone, serde::Serialize)]
pub struct BoardDone {
    pub board: usize,
    pub game: &'static str,
    /// Columns × rows as the reader saw them.
    pub size: String,
    pub read_ms: f64,
    pub solve_ms: f64,
    pub play_ms: f64,
    pub verified: bool,
    pub moves: usize,
    pub puzzle: String,
}

/// What a series needs from the desktop besides the mouse.
pub struct Desk<'a> {
    /// A capture of what play reads (the window, or the region).
    pub capture: &'a dyn Fn() -> Result<Screen>,
    /// The screen's own pixels over a rectangle in screen points: a window's capture can show
    /// nothing while one of its menus is open, the screen shows the menu.
    pub capture_area: &'a dyn Fn(Rect) -> Result<Screen>,
}

/// A series to play.
pub struct Series<'a> {
    pub game: &'a dyn Game,
    pub opts: &'a Options,
    /// How many boards; `None` for as many as the app gives.
    pub count: Option<usize>,
    /// The control that brings the next puzzle, in the capture's pixels (`--next-at`).
    pub next_at: Option<PixelPoint>,
    pub pacing: Pacing,
    /// Keep each board's capture, puzzle and solution here.
    pub log_dir: Option<PathBuf>,
}

/// How long a fresh board is waited for after each click toward it.
const FRESH_WAIT: Duration = Duration::from_secs(4);
/// How often the screen is looked at while waiting.
const LOOK_GAP: Duration = Duration::from_millis(250);
/// A picture unchanged for this long after a click has settled: the click did all it will.
const SETTLED: Duration = Duration::from_millis(1000);
/// Clicks toward the next puzzle before giving up (a sheet to dismiss, a menu, its item).
const STEPS: usize = 3;
/// How long a menu takes to open.
const MENU_OPENS: Duration = Duration::from_millis(400);

impl Series<'_> {
    /// Plays the series; `each` gets every verified board as it is done.
    pub fn run(
        &self,
        desk: &Desk,
        mouse: &mut dyn Mouse,
        each: &mut dyn FnMut(&BoardDone),
    ) -> Result<End> {
        if let Some(dir) = &self.log_dir {
            std::fs::create_dir_all(dir).map_err(|e| Error::Io {
                path: dir.display().to_string(),
                reason: e,
            })?;
        }
        let mut screen = (desk.capture)()?;
        let mut board = 1;
        loop {
            let done = self
                .one_board(board, &screen, desk, mouse)
                .map_err(|e| e.context(&format!("board {board} of the series")))?;
            each(&done.0);
            if self.count.is_some_and(|n| board >= n) {
                return Ok(End::Done);
            }
            match self
                .next_board(&done.1, &done.0.puzzle, desk, mouse)
                .map_err(|e| e.context(&format!("after board {board} of the series")))?
            {
                Fresh::Board(next) => screen = next,
                Fresh::NoneInApp(why) => return Ok(End::NoMore(why)),
            }
            board += 1;
        }
    }

    /// Reads, solves, plays and verifies one board.
    fn one_board(
        &self,
        board: usize,
        screen: &Screen,
        desk: &Desk,
        mouse: &mut dyn Mouse,
    ) -> Result<(BoardDone, Prepared)> {
        let start = Instant::now();
        let prepared = self.game.prepare(screen, self.opts)?;
        let prepare_ms = ms(start.elapsed());
        let solved = &prepared.solved;
        if solved.status().exit_code() != 0 {
            return Err(Error::Verify(format!(
                "the board has no answer to play ({})",
                solved.status().name()
            )));
        }
        if let Some(dir) = &self.log_dir {
            self.keep(dir, board, screen, &prepared)?;
        }
        let start = Instant::now();
        let recapture = || (desk.capture)();
        match play_and_verify(&prepared, mouse, self.pacing, Some(&recapture))? {
            Verification::Matches => {}
            Verification::Differs(d) => {
                return Err(Error::Verify(format!(
                    "the board differs from the solution after play:\n  {}",
                    d.join("\n  ")
                )))
            }
            Verification::Skipped => unreachable!("a series always verifies"),
        }
        let play_ms = ms(start.elapsed());
        let size = match prepared.scanned.report.detail.grid_size() {
            Some((cols, rows)) => format!("{cols}×{rows}"),
            None => "?".into(),
        };
        let solve_ms = solved.report.elapsed_ms;
        let done = BoardDone {
            board,
            game: self.game.name(),
            size,
            read_ms: (prepare_ms - solve_ms).max(0.0),
            solve_ms,
            play_ms,
            verified: true,
            moves: prepared.plan.actions.len(),
            puzzle: prepared.scanned.puzzle.clone(),
        };
        Ok((done, prepared))
    }

    /// The capture, the puzzle read and the solution of board `board`, in `dir`.
    fn keep(
        &self,
        dir: &std::path::Path,
        board: usize,
        screen: &Screen,
        p: &Prepared,
    ) -> Result<()> {
        let stem = dir.join(format!("board-{board:03}"));
        let io = |path: PathBuf, e: std::io::Error| Error::Io {
            path: path.display().to_string(),
            reason: e,
        };
        let png = stem.with_extension("png");
        screen
            .image
            .save(&png)
            .map_err(|e| Error::Usage(format!("{}: cannot write PNG: {e}", png.display())))?;
        let puzzle = stem.with_extension(self.game.name());
        std::fs::write(&puzzle, &p.scanned.puzzle).map_err(|e| io(puzzle.clone(), e))?;
        let solution = stem.with_extension("solution");
        std::fs::write(&solution, &p.solved.text).map_err(|e| io(solution.clone(), e))
    }

    /// Clicks toward the next puzzle until a fresh board shows, the app says there is none,
    /// or the clicks run out.
    fn next_board(
        &self,
        solved: &Prepared,
        last_puzzle: &str,
        desk: &Desk,
        mouse: &mut dyn Mouse,
    ) -> Result<Fresh> {
        let mut seen = String::from("the board just solved");
        let mut clicks = 0;
        for step in 0..STEPS {
            let now = (desk.capture)()?;
            let next = match self.next_at {
                Some(at) if step == 0 => Next::Click {
                    at,
                    what: "the --next-at point".into(),
                },
                Some(_) => break,
                None => solved.check.next_puzzle(&now.image),
            };
            match next {
                Next::Unknown => {
                    return Err(Error::Usage(format!(
                        "autoplayer does not know where this {} app keeps its next puzzle: \
                         name the control with --next-at X,Y (a point of the captured window, \
                         in its pixels)",
                        self.game.name()
                    )))
                }
                Next::NoneInApp(why) => return Ok(Fresh::NoneInApp(why)),
                Next::Click { at, what } => click(&now, at, &what, mouse, self.pacing)?,
                Next::MenuFirstItem { label, what } => {
                    self.pick_first_item(&now, label, &what, desk, mouse)?
                }
            }
            clicks += 1;
            match self.wait_for_fresh(last_puzzle, desk, mouse)? {
                Ok(board) => return Ok(Fresh::Board(board)),
                Err(what) => seen = what,
            }
        }
        Err(Error::Verify(format!(
            "no new board appeared after {clicks} click(s) toward the next puzzle; the screen \
             shows {seen}"
        )))
    }

    /// Opens the menu at `label`, finds its first item on the screen and clicks it.
    fn pick_first_item(
        &self,
        now: &Screen,
        label: PixelPoint,
        what: &str,
        desk: &Desk,
        mouse: &mut dyn Mouse,
    ) -> Result<()> {
        let area = now.rect_to_screen(Rect::new(
            0.0,
            0.0,
            now.image.width() as f64,
            now.image.height() as f64,
        ));
        let before = (desk.capture_area)(area)?;
        click(now, label, what, mouse, self.pacing)?;
        pause_watching(mouse, MENU_OPENS)?;
        let after = (desk.capture_area)(area)?;
        let item = first_menu_item(&before.image, &after.image, label).ok_or_else(|| {
            Error::vision(
                Some(Rect::new(label.x as i32 - 20, label.y as i32, 40, 40)),
                format!("the menu of {what} did not open where it was clicked"),
            )
        })?;
        click(
            &after,
            item,
            &format!("the first item of {what}"),
            mouse,
            self.pacing,
        )
    }

    /// Looks at the screen until it shows a board other than `last_puzzle`, or settles
    /// without one, or the wait is over; then what the screen last showed.
    fn wait_for_fresh(
        &self,
        last_puzzle: &str,
        desk: &Desk,
        mouse: &mut dyn Mouse,
    ) -> Result<std::result::Result<Screen, String>> {
        let start = Instant::now();
        let mut previous: Option<(RgbaHash, Instant)> = None;
        let mut seen = String::from("nothing new");
        while start.elapsed() < FRESH_WAIT {
            pause_watching(mouse, LOOK_GAP)?;
            let screen = (desk.capture)()?;
            match self.game.scan(&screen, self.opts, None) {
                Ok(scanned) if scanned.puzzle != last_puzzle => return Ok(Ok(screen)),
                Ok(_) => seen = "the board just solved".into(),
                Err(e) => seen = format!("no board ({e})"),
            }
            let hash = hash_of(&screen.image);
            match previous {
                Some((h, since)) if h == hash => {
                    if since.elapsed() >= SETTLED {
                        break;
                    }
                }
                _ => previous = Some((hash, Instant::now())),
            }
        }
        Ok(Err(seen))
    }
}

enum Fresh {
    Board(Screen),
    NoneInApp(String),
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

type RgbaHash = u64;

fn hash_of(img: &image::RgbaImage) -> RgbaHash {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    img.as_raw().hash(&mut h);
    h.finish()
}

/// Waits `d` while watching the stop key.
fn pause_watching(mouse: &mut dyn Mouse, d: Duration) -> Result<()> {
    mouse.pause(d.as_millis() as u64);
    if mouse.stop_pressed()? {
        return Err(Error::FailSafe("Esc pressed".into()));
    }
    Ok(())
}

/// One click at `at` (pixels of `on`), checked inside the capture and under the fail-safe.
fn click(
    on: &Screen,
    at: PixelPoint,
    what: &str,
    mouse: &mut dyn Mouse,
    pacing: Pacing,
) -> Result<()> {
    let inside = at.x >= 0.0
        && at.y >= 0.0
        && at.x < on.image.width() as f64
        && at.y < on.image.height() as f64;
    if !inside {
        return Err(Error::Usage(format!(
            "{what} ({:.0}, {:.0}) lies outside the capture ({}x{})",
            at.x,
            at.y,
            on.image.width(),
            on.image.height()
        )));
    }
    let area = on.rect_to_screen(Rect::new(
        0.0,
        0.0,
        on.image.width() as f64,
        on.image.height() as f64,
    ));
    let mut plan = Plan::new(area);
    plan.push(
        Action::Click {
            at: on.to_screen(at),
        },
        what,
    );
    execute(&plan, mouse, pacing)
}

/// Where the first item of a menu that opened under `label` is, from the screen before and
/// after its label was clicked: the changed block hanging from the label is the menu (the
/// label's own highlight joins it but is narrower), and its first line of dark text below the
/// label is the item.
pub fn first_menu_item(
    before: &image::RgbaImage,
    after: &image::RgbaImage,
    label: PixelPoint,
) -> Option<PixelPoint> {
    if before.dimensions() != after.dimensions() {
        return None;
    }
    let (w, h) = after.dimensions();
    let changed_at = |x: u32, y: u32| {
        let (a, b) = (before.get_pixel(x, y).0, after.get_pixel(x, y).0);
        (0..3).any(|c| a[c].abs_diff(b[c]) > 24)
    };
    let mask: Vec<bool> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| changed_at(x, y))
        .collect();
    let menu = components(&mask, w as usize, Connectivity::Four)
        .into_iter()
        .filter(|c| {
            (c.x0 as f64) <= label.x && label.x <= c.x1 as f64 && (c.y0 as f64) <= label.y + 40.0
        })
        .max_by_key(|c| c.count)?;
    let changed = |x: usize, y: usize| mask[y * w as usize + x];
    // The menu's sides, measured near its bottom, below the label's highlight.
    let probe = menu.y1.saturating_sub(3);
    let left = (menu.x0..=menu.x1).find(|&x| changed(x, probe))?;
    let right = (menu.x0..=menu.x1).rev().find(|&x| changed(x, probe))?;
    if right - left < 60 || menu.y1 - menu.y0 < 50 {
        return None;
    }
    let full =
        |y: usize| (left..=right).filter(|&x| changed(x, y)).count() * 10 >= (right - left + 1) * 9;
    let top = (label.y.max(0.0) as usize..menu.y1).find(|&y| full(y))?;
    let dark = |x: usize, y: usize| luma(*after.get_pixel(x as u32, y as u32)) < 110;
    let inner = left + 2..right.saturating_sub(1);
    let rows = runs((top..=menu.y1).map(|y| inner.clone().any(|x| dark(x, y))));
    let &(start, len) = rows.first()?;
    let y = top + start + len / 2;
    let first = inner.clone().find(|&x| dark(x, y))?;
    let last = inner.clone().rev().find(|&x| dark(x, y))?;
    Some(PixelPoint {
        x: (first + last) as f64 / 2.0,
        y: y as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgba, RgbaImage};

    fn page() -> RgbaImage {
        RgbaImage::from_pixel(300, 200, Rgba([230, 230, 230, 255]))
    }

    fn fill(img: &mut RgbaImage, x0: u32, y0: u32, x1: u32, y1: u32, c: [u8; 3]) {
        for y in y0..y1 {
            for x in x0..x1 {
                img.put_pixel(x, y, Rgba([c[0], c[1], c[2], 255]));
            }
        }
    }

    #[test]
    fn the_first_line_of_a_menu_that_opened_is_its_first_item() {
        let before = page();
        let mut after = page();
        // A label highlighted at (30, 10), a white menu under it, with two lines of text.
        fill(&mut after, 10, 2, 50, 22, [180, 200, 255]);
        fill(&mut after, 20, 10, 40, 16, [20, 20, 20]);
        fill(&mut after, 20, 22, 180, 190, [255, 255, 255]);
        fill(&mut after, 40, 32, 70, 40, [20, 20, 20]);
        fill(&mut after, 40, 57, 90, 65, [20, 20, 20]);
        let item = first_menu_item(&before, &after, PixelPoint { x: 30.0, y: 10.0 }).unwrap();
        assert!((item.x - 55.0).abs() <= 1.0, "{item:?}");
        assert!((item.y - 36.0).abs() <= 1.0, "{item:?}");
    }

    #[test]
    fn no_menu_is_found_when_nothing_opened() {
        let before = page();
        assert_eq!(
            first_menu_item(&before, &before.clone(), PixelPoint { x: 30.0, y: 10.0 }),
            None
        );
        // A change far below the label is not its menu.
        let mut after = page();
        fill(&mut after, 20, 120, 180, 190, [255, 255, 255]);
        assert_eq!(
            first_menu_item(&before, &after, PixelPoint { x: 30.0, y: 10.0 }),
            None
        );
    }
}
