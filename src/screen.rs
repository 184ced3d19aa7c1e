//! A captured picture and where it sits on the desktop, so that image pixels map back to the
//! screen points the mouse is driven in.

use crate::error::{Error, Result};
use image::RgbaImage;

/// A point in screen coordinates (the input backend's units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ScreenPoint {
    pub x: i32,
    pub y: i32,
}

/// A point in image pixels, sub-pixel so geometry can stay exact until the last step.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct PixelPoint {
    pub x: f64,
    pub y: f64,
}

/// A capture: the picture, the screen point of its top-left pixel, and how many image pixels
/// make one screen point (2.0 on a HiDPI display that reports logical points).
#[derive(Debug, Clone)]
pub struct Screen {
    pub image: RgbaImage,
    pub origin: ScreenPoint,
    pub scale: f64,
    /// What was captured, for messages ("window 'Bridges'", "monitor 0", a file name).
    pub label: String,
}

/// What to capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Monitor(usize),
    Window(String),
}

pub use crate::rect::Rect;

impl Rect {
    /// Parses `X,Y,W,H` (screen points).
    pub fn parse(text: &str) -> Result<Rect> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let bad = || {
            Error::Usage(format!(
                "--region {text:?}: expected X,Y,W,H (e.g. 100,50,640,480)"
            ))
        };
        if parts.len() != 4 {
            return Err(bad());
        }
        let x = parts[0].parse().map_err(|_| bad())?;
        let y = parts[1].parse().map_err(|_| bad())?;
        let w: i32 = parts[2].parse().map_err(|_| bad())?;
        let h: i32 = parts[3].parse().map_err(|_| bad())?;
        if w <= 0 || h <= 0 {
            return Err(bad());
        }
        Ok(Rect { x, y, w, h })
    }
}

/// Reads a picture file, its format told by its content (PNG, JPEG or WebP), not its name:
/// shared screenshots are often JPEG under a `.png` name.
pub fn read_picture(path: &std::path::Path) -> Result<RgbaImage> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::Usage(format!("{}: cannot read image: {e}", path.display())))?;
    decode_picture(&bytes, &path.display().to_string())
}

/// Decodes a picture held in memory, its format told by its content; `name` labels errors.
/// The decoder's default limits refuse pictures too large to hold in memory.
pub fn decode_picture(bytes: &[u8], name: &str) -> Result<RgbaImage> {
    let cannot =
        |e: &dyn std::fmt::Display| Error::Usage(format!("{name}: cannot read image: {e}"));
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| cannot(&e))?;
    Ok(reader.decode().map_err(|e| cannot(&e))?.to_rgba8())
}

impl Screen {
    /// A picture read from a file: origin (0,0), scale 1 unless the caller says otherwise.
    pub fn from_file(path: &std::path::Path) -> Result<Screen> {
        let image = read_picture(path)?;
        Ok(Screen {
            image,
            origin: ScreenPoint { x: 0, y: 0 },
            scale: 1.0,
            label: path.display().to_string(),
        })
    }

    /// A picture already in memory, at origin (0,0) and scale 1.
    pub fn from_image(image: RgbaImage) -> Screen {
        Screen {
            image,
            origin: ScreenPoint { x: 0, y: 0 },
            scale: 1.0,
            label: "picture".to_string(),
        }
    }

    /// A picture decoded from memory, as [`Screen::from_file`] reads one from a file.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Screen> {
        Ok(Screen {
            image: decode_picture(bytes, name)?,
            origin: ScreenPoint { x: 0, y: 0 },
            scale: 1.0,
            label: name.to_string(),
        })
    }

    /// Maps an image pixel to the screen point under it.
    pub fn to_screen(&self, p: PixelPoint) -> ScreenPoint {
        ScreenPoint {
            x: self.origin.x + (p.x / self.scale).round() as i32,
            y: self.origin.y + (p.y / self.scale).round() as i32,
        }
    }

    /// The screen rectangle covered by an image-pixel rectangle.
    pub fn rect_to_screen(&self, r: Rect<f64>) -> Rect {
        let a = self.to_screen(PixelPoint { x: r.x, y: r.y });
        let b = self.to_screen(PixelPoint {
            x: r.x + r.w,
            y: r.y + r.h,
        });
        Rect {
            x: a.x,
            y: a.y,
            w: (b.x - a.x).max(1),
            h: (b.y - a.y).max(1),
        }
    }

    /// Cuts a sub-rectangle given in screen points, keeping the mapping right.
    pub fn crop(&self, r: Rect) -> Result<Screen> {
        let px = ((r.x - self.origin.x) as f64 * self.scale).round();
        let py = ((r.y - self.origin.y) as f64 * self.scale).round();
        let pw = (r.w as f64 * self.scale).round();
        let ph = (r.h as f64 * self.scale).round();
        if px < 0.0
            || py < 0.0
            || px + pw > self.image.width() as f64
            || py + ph > self.image.height() as f64
        {
            return Err(Error::Usage(format!(
                "--region {},{},{},{} lies outside {} ({}x{} at {},{})",
                r.x,
                r.y,
                r.w,
                r.h,
                self.label,
                self.image.width(),
                self.image.height(),
                self.origin.x,
                self.origin.y
            )));
        }
        let image =
            image::imageops::crop_imm(&self.image, px as u32, py as u32, pw as u32, ph as u32)
                .to_image();
        Ok(Screen {
            image,
            origin: ScreenPoint { x: r.x, y: r.y },
            scale: self.scale,
            label: format!("{} region {},{},{},{}", self.label, r.x, r.y, r.w, r.h),
        })
    }
}

/// Captures a monitor or a window through xcap.
pub fn capture(target: &Target) -> Result<Screen> {
    let desk = |e: xcap::XCapError| Error::Desktop(e.to_string());
    match target {
        Target::Monitor(n) => {
            let monitors = xcap::Monitor::all().map_err(desk)?;
            let m = monitors.get(*n).ok_or_else(|| {
                Error::Usage(format!(
                    "--monitor {n}: there are {} monitor(s), numbered from 0",
                    monitors.len()
                ))
            })?;
            placed(
                m.capture_image().map_err(desk)?,
                m.width().map_err(desk)?,
                (m.x().map_err(desk)?, m.y().map_err(desk)?),
                format!("monitor {n}"),
            )
        }
        Target::Window(title) => {
            let w = find_window(title)?;
            placed(
                w.capture_image().map_err(desk)?,
                w.width().map_err(desk)?,
                (w.x().map_err(desk)?, w.y().map_err(desk)?),
                format!("window {title:?}"),
            )
        }
    }
}

/// A capture `width` screen points wide whose top-left sits at `at`: the scale is the
/// picture's pixels per point.
fn placed(image: RgbaImage, width: u32, at: (i32, i32), label: String) -> Result<Screen> {
    Ok(Screen {
        scale: image.width() as f64 / width.max(1) as f64,
        origin: ScreenPoint { x: at.0, y: at.1 },
        image,
        label,
    })
}

/// The window whose title equals `title`, else the only one whose title contains it.
fn find_window(title: &str) -> Result<xcap::Window> {
    let windows = xcap::Window::all().map_err(|e| {
        Error::Desktop(format!(
            "cannot list windows ({e}); a window manager with EWMH support must be running"
        ))
    })?;
    let mut exact = Vec::new();
    let mut partial = Vec::new();
    for w in windows {
        let Ok(t) = w.title() else { continue };
        if w.is_minimized().unwrap_or(false) || w.width().unwrap_or(0) < 16 {
            continue;
        }
        if t == title {
            exact.push(w);
        } else if t.contains(title) {
            partial.push(w);
        }
    }
    let pick = if !exact.is_empty() { exact } else { partial };
    match pick.len() {
        0 => Err(Error::Usage(format!("no window titled {title:?} is open"))),
        1 => Ok(pick.into_iter().next().unwrap()),
        n => Err(Error::Usage(format!(
            "{n} windows match {title:?}; give a more exact --window title"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(scale: f64) -> Screen {
        Screen {
            image: RgbaImage::new(200, 100),
            origin: ScreenPoint { x: 300, y: 40 },
            scale,
            label: "test".into(),
        }
    }

    #[test]
    fn maps_pixels_to_points_at_scale_one_and_two() {
        let p = PixelPoint { x: 100.0, y: 50.0 };
        assert_eq!(screen(1.0).to_screen(p), ScreenPoint { x: 400, y: 90 });
        assert_eq!(screen(2.0).to_screen(p), ScreenPoint { x: 350, y: 65 });
    }

    #[test]
    fn region_parses_and_rejects() {
        assert_eq!(
            Rect::parse("1, 2,30,40").unwrap(),
            Rect {
                x: 1,
                y: 2,
                w: 30,
                h: 40
            }
        );
        assert!(Rect::parse("1,2,3").is_err());
        assert!(Rect::parse("1,2,0,4").is_err());
        assert!(Rect::parse("a,2,3,4").is_err());
    }

    #[test]
    fn pictures_are_decoded_by_content_not_name() {
        let dir = tempfile::tempdir().unwrap();
        let img = RgbaImage::from_fn(40, 30, |x, y| {
            image::Rgba([(x * 6) as u8, (y * 8) as u8, 90, 255])
        });
        let as_jpeg = dir.path().join("looks_like.png");
        image::DynamicImage::ImageRgba8(img.clone())
            .to_rgb8()
            .save_with_format(&as_jpeg, image::ImageFormat::Jpeg)
            .unwrap();
        let read = read_picture(&as_jpeg).unwrap();
        assert_eq!(read.dimensions(), (40, 30));
        // JPEG is lossy: close, not equal.
        let p = read.get_pixel(20, 15);
        assert!(
            p.0[0].abs_diff(120) < 12 && p.0[1].abs_diff(120) < 12,
            "{p:?}"
        );
        let bad = dir.path().join("not_a_picture.png");
        std::fs::write(&bad, b"hello").unwrap();
        let err = read_picture(&bad).unwrap_err().to_string();
        assert!(
            err.contains("not_a_picture.png: cannot read image"),
            "{err}"
        );
    }

    #[test]
    fn crop_keeps_the_mapping_on_a_scaled_capture() {
        let s = screen(2.0);
        let c = s
            .crop(Rect {
                x: 310,
                y: 50,
                w: 20,
                h: 10,
            })
            .unwrap();
        assert_eq!((c.image.width(), c.image.height()), (40, 20));
        assert_eq!(
            c.to_screen(PixelPoint { x: 4.0, y: 2.0 }),
            ScreenPoint { x: 312, y: 51 }
        );
        assert!(s
            .crop(Rect {
                x: 0,
                y: 0,
                w: 10,
                h: 10
            })
            .is_err());
    }
}
