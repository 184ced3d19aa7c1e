//! The tools every game's reader is built from: small pure functions over `image` buffers,
//! each tested on hand-made pictures.
//!
//! - `color`: colour distances, hue, the dominant colour of a sample, clamped pixel reads;
//! - `components`: connected regions of a mask, with their boxes;
//! - `runs`: runs of `true` along a scanline or profile;
//! - `lattice`: pitch and origin of an evenly spaced grid, from lines or from ridges;
//! - `lines`: masks of thin lines both ways, and the webs they draw;
//! - `probe`: ink along a ray and across a profile, for checks that a place is empty;
//! - `geometry`: `Geometry`, cell ↔ image pixel, one formula for every game;
//! - `shrink`: a big picture as block means, and positions on it mapped back;
//! - `glyph`: glyphs and sprites as small masks, one template format, one matcher.

pub mod color;
pub mod components;
pub mod fit;
pub mod geometry;
pub mod glyph;
pub mod lattice;
pub mod lines;
pub mod probe;
pub mod runs;
pub mod sample;
pub mod shrink;

/// Pictures made for tests: the same capture as another format would store it.
#[cfg(test)]
pub(crate) mod test_pictures {
    use image::RgbaImage;

    /// The picture after a round trip through JPEG at `quality` (1-100).
    pub fn jpeg_copy(img: &RgbaImage, quality: u8) -> RgbaImage {
        let mut bytes = Vec::new();
        let rgb = image::DynamicImage::ImageRgba8(img.clone()).to_rgb8();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
            .encode_image(&rgb)
            .expect("JPEG encoding in memory");
        image::load_from_memory_with_format(&bytes, image::ImageFormat::Jpeg)
            .expect("JPEG decoding what was just encoded")
            .to_rgba8()
    }

    /// A shared copy of a shared copy: shrunk by Lanczos to `shrink` of the picture's size,
    /// then enlarged `grow` times by `filter`.
    pub fn resampled_twice(
        img: &RgbaImage,
        shrink: f64,
        grow: f64,
        filter: image::imageops::FilterType,
    ) -> RgbaImage {
        let size = |v: u32, f: f64| (v as f64 * f).round() as u32;
        let small = image::imageops::resize(
            img,
            size(img.width(), shrink),
            size(img.height(), shrink),
            image::imageops::FilterType::Lanczos3,
        );
        image::imageops::resize(
            &small,
            size(small.width(), grow),
            size(small.height(), grow),
            filter,
        )
    }
}
