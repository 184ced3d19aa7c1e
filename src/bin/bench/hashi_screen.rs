//! Hashi screen bars: recognition time on real captures, and a 30×30 board played and
//! verified in the real Bridges app on a private Xvfb desktop this benchmark starts and stops.

use autoplayer::games::hashi::vision;
use autoplayer::games::{GameKind, Options};
use autoplayer::input::EnigoMouse;
use autoplayer::plan::Pacing;
use autoplayer::screen::{capture, Screen, Target};
use autoplayer::session::{play_and_verify, Verification};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Median and max milliseconds of `recognize` over every 1920×1080 picture found, plus the
/// project's own full-screen fixture.
fn recognition_rows(corpus: &Path) -> anyhow::Result<String> {
    let mut files = vec![Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/hashi/bridges_10x10_partial_fullscreen.png")];
    for dir in ["hashi/app-screens", "hashi/screenshots"] {
        if let Ok(entries) = std::fs::read_dir(corpus.join(dir)) {
            files.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "png")),
            );
        }
    }
    files.sort();
    let (mut full, mut other) = (Vec::new(), Vec::new());
    for f in &files {
        let img = image::open(f)?.to_rgba8();
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            let read = vision::recognize(&img);
            best = best.min(t.elapsed().as_secs_f64() * 1000.0);
            if read.is_err()
                && f.file_name()
                    .is_some_and(|n| n != "xcap_enigo_drag_proof.png")
            {
                anyhow::bail!("{}: not read", f.display());
            }
        }
        if img.width() == 1920 && img.height() == 1080 {
            full.push(best);
        } else {
            other.push(best);
        }
    }
    let stat = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        if v.is_empty() {
            (0.0, 0.0)
        } else {
            (v[v.len() / 2], v[v.len() - 1])
        }
    };
    let (fm, fx) = stat(&mut full);
    let (om, ox) = stat(&mut other);
    Ok(format!(
        "| recognition, 1920×1080 captures ({} files, best of 5 each) | median {fm:.1} ms, max {fx:.1} ms | ≤ 30 ms |\n\
         | recognition, window captures ({} files) | median {om:.1} ms, max {ox:.1} ms | |\n",
        full.len(),
        other.len()
    ))
}

/// A process this benchmark started, killed when dropped.
struct Started(Child);

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn spawn(cmd: &mut Command) -> anyhow::Result<Started> {
    Ok(Started(
        cmd.stdout(Stdio::null()).stderr(Stdio::null()).spawn()?,
    ))
}

fn wait_until(what: &str, mut ok: impl FnMut() -> bool) -> anyhow::Result<()> {
    let until = Instant::now() + Duration::from_secs(15);
    while Instant::now() < until {
        if ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    anyhow::bail!("timed out waiting for {what}")
}

/// Plays the first 30×30 corpus puzzle at tile size 24 and times capture → verified.
fn play_row(corpus: &Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(corpus.join("hashi/bridges.jsonl"))?;
    let id = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["w"] == 30 && v["h"] == 30)
        .and_then(|v| v["id"].as_str().map(String::from))
        .ok_or_else(|| anyhow::anyhow!("no 30x30 puzzle in bridges.jsonl"))?;
    // A display nobody holds: no lock file and no socket.
    let n = (140..200)
        .find(|n| {
            !Path::new(&format!("/tmp/.X{n}-lock")).exists()
                && !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
        })
        .ok_or_else(|| anyhow::anyhow!("no free X display"))?;
    let display = format!(":{n}");
    let _xvfb = spawn(Command::new("Xvfb").args([
        display.as_str(),
        "-screen",
        "0",
        "1920x1080x24",
        "-nolisten",
        "tcp",
        "-noreset",
    ]))?;
    wait_until("Xvfb", || {
        Path::new(&format!("/tmp/.X11-unix/X{n}")).exists()
    })?;
    // The capture and input backends read DISPLAY; this process is single-threaded here.
    std::env::set_var("DISPLAY", &display);
    std::env::set_var("XDG_SESSION_TYPE", "x11");
    std::env::remove_var("WAYLAND_DISPLAY");
    let _wm = spawn(Command::new("openbox").env("DISPLAY", &display))?;
    wait_until("openbox", || xcap::Window::all().is_ok())?;
    let _app = spawn(
        Command::new("/usr/games/sgt-bridges")
            .arg(&id)
            .env("DISPLAY", &display)
            .env("BRIDGES_TILESIZE", "24"),
    )?;
    let target = Target::Window("Bridges".into());
    wait_until("the Bridges window", || {
        capture(&target).is_ok_and(|s| vision::recognize(&s.image).is_ok())
    })?;
    let start = Instant::now();
    let grab = || capture(&target);
    let screen: Screen = grab()?;
    let prepared = GameKind::named("hashi")
        .expect("hashi is built")
        .game()?
        .prepare(&screen, &Options::default())?;
    let gestures = prepared.plan.actions.len();
    let mut mouse = EnigoMouse::new()?;
    let pacing = Pacing {
        pause_ms: 10,
        ..Pacing::default()
    };
    let outcome = play_and_verify(&prepared, &mut mouse, pacing, Some(&grab))?;
    let secs = start.elapsed().as_secs_f64();
    if outcome != Verification::Matches {
        anyhow::bail!("30x30 play not verified: {outcome:?}");
    }
    Ok(format!(
        "| 30×30 board played and verified in the real app (tile 24, {gestures} drags, pause 10 ms) | {secs:.2} s | ≤ 10 s |\n"
    ))
}

pub fn run(corpus: &Path) -> anyhow::Result<String> {
    let mut out = String::from("## Hashi on screen\n\n| what | measured | bar |\n|---|---|---|\n");
    out.push_str(&recognition_rows(corpus)?);
    out.push_str(&play_row(corpus)?);
    Ok(out)
}
