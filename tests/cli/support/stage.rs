//! The test stage for browser games: a local web page that shows a picture at 1:1 in the
//! top-left corner of a Chromium window and records every pointer event the page receives.
//!
//! Coordinates: under Xvfb the device pixel ratio is 1 (forced with
//! `--force-device-scale-factor=1` and checked), so one CSS px is one screen px. The image
//! sits at the viewport's origin, hence image pixel (px, py) = (floor(clientX),
//! floor(clientY)) of an event, and a screen point (sx, sy) lands on image pixel
//! (sx - origin.0, sy - origin.1) where `origin` = [`Stage::image_origin`] (the window's
//! client origin; Chromium's `--app` window has no toolbar inside it).

use super::desktop::{Desktop, Geometry};
use super::process::Process;
use super::{wait_for, Result};
use anyhow::{bail, Context};
use serde::Deserialize;
use std::io::{BufRead, BufReader, Read, Write};
use std::marker::PhantomData;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// What this module needs besides `desktop::TOOLS` (Debian's package is `chromium`).
pub const TOOLS: &[&str] = &["chromium"];

/// One pointer event as the page saw it. `kind` is the DOM event type: `pointerdown`,
/// `pointermove` (only while a button is held; each move the browser merged into one event on
/// a busy page is its own), `pointerup`, `click` or `pointercancel` (the browser took the
/// gesture over; a test should treat that as a failure).
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct StageEvent {
    pub kind: String,
    pub x: f64,
    pub y: f64,
    /// The button that changed (0 left, 1 middle, 2 right; -1 for moves).
    pub button: i32,
    /// The buttons held after the event, as a bit mask (1 left, 2 right, 4 middle).
    pub buttons: u32,
    /// The page's timestamp in ms.
    pub t: f64,
}

impl StageEvent {
    /// The image pixel under the event.
    pub fn pixel(&self) -> (i64, i64) {
        (self.x.floor() as i64, self.y.floor() as i64)
    }
}

/// What the page reported once the image was decoded and painted.
#[derive(Debug, Clone, Deserialize)]
struct Ready {
    dpr: f64,
    width: f64,
    height: f64,
    natural_width: u32,
    natural_height: u32,
}

#[derive(Default)]
struct Shared {
    events: Mutex<Vec<StageEvent>>,
    ready: Mutex<Option<Ready>>,
}

pub struct Stage<'d> {
    title: String,
    url: String,
    origin: (i32, i32),
    shared: Arc<Shared>,
    // Field order is drop order: the browser goes before its server and its profile.
    chromium: Process,
    _server: Server,
    _profile: tempfile::TempDir,
    _desktop: PhantomData<&'d Desktop>,
}

impl<'d> Stage<'d> {
    /// Serves `image` on 127.0.0.1, opens it in Chromium on `desktop` under the window
    /// title `title`, and returns once a screenshot shows the image pixel for pixel.
    pub fn start(desktop: &'d Desktop, image: &Path, title: &str) -> Result<Stage<'d>> {
        // Re-encoding drops alpha and colour chunks (gAMA, cHRM, iCCP): Chromium colour-
        // manages a PNG that carries them, and the screen pixels would then differ from the
        // file's (seen: #3366cc shown as #2f66cd).
        // Read by content, as the binary reads it: shared screenshots are often JPEG under
        // any name.
        let picture = image::DynamicImage::ImageRgba8(
            autoplayer::screen::read_picture(image)
                .with_context(|| format!("cannot read {}", image.display()))?,
        )
        .to_rgb8();
        let mut png = Vec::new();
        picture.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)?;
        let (w, h) = picture.dimensions();

        let shared = Arc::new(Shared::default());
        let page = page(title, w, h);
        let server = Server::start(shared.clone(), page, png)?;
        let url = format!("http://{}/", server.addr);

        let profile = tempfile::Builder::new()
            .prefix("stage-chromium-")
            .tempdir()?;
        let mut cmd = desktop.command(TOOLS[0]);
        cmd.args([
            // Tests run as root in a container, where Chromium's sandbox cannot start.
            "--no-sandbox",
            // Hides the "unsupported command-line flag" bar that --no-sandbox brings; it
            // would push the page down by 57 px.
            "--test-type",
            "--disable-gpu",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-features=Translate,MediaRouter",
            "--password-store=basic",
            "--force-device-scale-factor=1",
            "--force-color-profile=srgb",
            "--window-position=0,0",
        ])
        .arg(format!("--window-size={w},{h}"))
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--app={url}"));
        let mut chromium = desktop.spawn("chromium", cmd)?;

        let ready = wait_for("the stage page to load", Duration::from_secs(30), || {
            if chromium.exited().is_some() {
                bail!("chromium exited\n{}", chromium.log_tail());
            }
            Ok(shared.ready.lock().unwrap().clone())
        })?;
        if ready.dpr != 1.0 || (ready.natural_width, ready.natural_height) != (w, h) {
            bail!("the page is not at 1:1: {ready:?}, image {w}x{h}");
        }
        if ready.width < w as f64 || ready.height < h as f64 {
            bail!("the viewport is smaller than the image: {ready:?}, image {w}x{h}");
        }
        let window = desktop.wait_for_window(
            &mut chromium,
            &["--name", &format!("^{}$", regex_escape(title))],
        )?;
        let origin = wait_for(
            "the image on screen at 1:1",
            Duration::from_secs(10),
            || {
                let g = desktop.window_geometry(&window)?;
                Ok(shown_at(desktop, &picture, g)?.then_some((g.x, g.y)))
            },
        )
        .with_context(|| {
            // Outside the desktop's temp dir, which goes away with the failed test.
            let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
                "stage-failed-{}.png",
                desktop.display().trim_start_matches(':')
            ));
            let _ = desktop.screenshot(&shot);
            format!("screenshot kept at {}", shot.display())
        })?;
        Ok(Stage {
            title: title.to_string(),
            url,
            origin,
            shared,
            chromium,
            _server: server,
            _profile: profile,
            _desktop: PhantomData,
        })
    }

    /// The title to pass to `autoplayer play GAME --window TITLE`.
    pub fn window_title(&self) -> &str {
        &self.title
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// The screen position of image pixel (0, 0).
    pub fn image_origin(&self) -> (i32, i32) {
        self.origin
    }

    /// The screen position of image pixel (px, py).
    pub fn to_screen(&self, px: i32, py: i32) -> (i32, i32) {
        (self.origin.0 + px, self.origin.1 + py)
    }

    pub fn chromium_pid(&self) -> u32 {
        self.chromium.pid()
    }

    /// The events received so far, in the order the page saw them.
    pub fn events(&self) -> Vec<StageEvent> {
        self.shared.events.lock().unwrap().clone()
    }

    /// Waits until the recorded events satisfy `done`, e.g. until a `click` arrived. The
    /// page sends its batches one at a time, so once an event is here, all earlier ones are.
    pub fn wait_for_events(
        &self,
        timeout: Duration,
        done: impl Fn(&[StageEvent]) -> bool,
    ) -> Result<Vec<StageEvent>> {
        wait_for("the expected pointer events", timeout, || {
            let events = self.events();
            Ok(done(&events).then_some(events))
        })
        .with_context(|| format!("events so far: {:#?}", self.events()))
    }
}

/// Whether the screen shows `picture` exactly at the client origin of window `g`.
fn shown_at(desktop: &Desktop, picture: &image::RgbImage, g: Geometry) -> Result<bool> {
    if g.width < picture.width() || g.height < picture.height() {
        return Ok(false);
    }
    let shot_path = desktop.temp_path("stage-check.png");
    desktop.screenshot(&shot_path)?;
    let shot = image::open(&shot_path)?.to_rgb8();
    let (x0, y0) = (g.x.max(0) as u32, g.y.max(0) as u32);
    if x0 + picture.width() > shot.width() || y0 + picture.height() > shot.height() {
        return Ok(false);
    }
    Ok(picture
        .enumerate_pixels()
        .all(|(x, y, p)| shot.get_pixel(x0 + x, y0 + y) == p))
}

/// xdotool matches names with POSIX extended regular expressions.
fn regex_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let special = "\\^$.|?*+()[]{}".contains(c);
            special.then_some('\\').into_iter().chain([c])
        })
        .collect()
}

fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The page. The image must not be draggable and the page must not scroll or select,
/// or Chromium turns a mouse drag into a native drag-and-drop and sends `pointercancel`.
fn page(title: &str, w: u32, h: u32) -> String {
    format!(
        r#"<!doctype html>
<html><head><meta charset="utf-8"><title>{title}</title>
<style>
html, body {{ margin: 0; padding: 0; overflow: hidden; background: #fff; }}
img {{ display: block; image-rendering: pixelated; user-select: none; -webkit-user-drag: none; touch-action: none; }}
</style></head>
<body><img id="stage" src="/image.png" width="{w}" height="{h}" draggable="false" alt="">
<script>
const queue = [];
let sending = false;
function flush() {{
  if (sending || queue.length === 0) return;
  sending = true;
  const batch = queue.splice(0);
  fetch('/events', {{ method: 'POST', body: JSON.stringify(batch) }})
    .catch(() => {{}})
    .finally(() => {{ sending = false; flush(); }});
}}
function record(e) {{
  if (e.type === 'pointermove' && e.buttons === 0) return;
  // A busy page gets one move a frame; the moves merged into it are the pointer's real path.
  const merged = e.type === 'pointermove' && e.getCoalescedEvents ? e.getCoalescedEvents() : [];
  for (const p of (merged.length > 0 ? merged : [e])) {{
    queue.push({{ kind: e.type, x: p.clientX, y: p.clientY, button: e.button, buttons: e.buttons, t: p.timeStamp }});
  }}
  flush();
}}
for (const kind of ['pointerdown', 'pointermove', 'pointerup', 'click', 'pointercancel']) {{
  window.addEventListener(kind, record, true);
}}
window.addEventListener('contextmenu', e => e.preventDefault(), true);
const img = document.getElementById('stage');
img.decode()
  .then(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))))
  .then(() => fetch('/ready', {{ method: 'POST', body: JSON.stringify({{
    dpr: devicePixelRatio, width: innerWidth, height: innerHeight,
    natural_width: img.naturalWidth, natural_height: img.naturalHeight }}) }}));
</script></body></html>
"#,
        title = html_escape(title)
    )
}

/// A minimal HTTP/1.1 server: one thread per connection, one request per connection.
/// Threads matter: Chromium opens speculative connections that may never send a request.
struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    fn start(shared: Arc<Shared>, page: String, png: Vec<u8>) -> Result<Server> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let content = Arc::new((page, png));
        let stopping = stop.clone();
        let thread = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let (shared, content) = (shared.clone(), content.clone());
                std::thread::spawn(move || {
                    let _ = serve(conn, &shared, &content.0, &content.1);
                });
            }
        });
        Ok(Server {
            addr,
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // accept() blocks; a connection of our own wakes it to see the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn serve(conn: TcpStream, shared: &Shared, page: &str, png: &[u8]) -> Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    let mut length = 0;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse()?;
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let mut parts = request_line.split_whitespace();
    let (status, kind, content): (&str, &str, &[u8]) =
        match (parts.next().unwrap_or(""), parts.next().unwrap_or("")) {
            ("GET", "/") => ("200 OK", "text/html; charset=utf-8", page.as_bytes()),
            ("GET", "/image.png") => ("200 OK", "image/png", png),
            ("POST", "/events") => {
                let batch: Vec<StageEvent> = serde_json::from_slice(&body)?;
                shared.events.lock().unwrap().extend(batch);
                ("204 No Content", "text/plain", b"")
            }
            ("POST", "/ready") => {
                *shared.ready.lock().unwrap() = Some(serde_json::from_slice(&body)?);
                ("204 No Content", "text/plain", b"")
            }
            _ => ("404 Not Found", "text/plain", b"not found"),
        };
    let mut conn = conn;
    write!(
        conn,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
        content.len()
    )?;
    conn.write_all(content)?;
    Ok(())
}
