//! Drawing what was read over the capture (placeholder until the reader's own lands).

use super::vision::Reading;
use image::RgbaImage;

pub fn draw(_img: &mut RgbaImage, _reading: &Reading) {}
