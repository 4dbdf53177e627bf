//! Pictures: an RGB565 frame (what the CPU rasteriser and the firmware draw, and what the
//! GPU picture is read back as), its PNG form, and the difference between two.
//!
//! ```
//! use embedded_graphics::pixelcolor::{Rgb565, RgbColor};
//! use skin_host::picture::Picture;
//! let a = Picture::filled(4, 2, Rgb565::BLACK);
//! let mut b = a.clone();
//! b.pixels[5] = Rgb565::new(1, 0, 0);
//! let d = a.difference(&b).unwrap();
//! assert_eq!((d.differing, d.total), (1, 8));
//! assert_eq!(d.largest, 8); // one red step of 31 is 8 of 255
//! assert_eq!(d.agreement(), 7.0 / 8.0);
//! ```

use std::path::Path;

use embedded_graphics::pixelcolor::{Rgb565, RgbColor};

/// A `width × height` RGB565 picture, row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Pixels, row-major, `width × height`.
    pub pixels: Vec<Rgb565>,
}

/// How two pictures of one size differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Difference {
    /// Pixels whose colours differ.
    pub differing: usize,
    /// Pixels in each picture.
    pub total: usize,
    /// The largest difference of one channel, in 8-bit levels (0..=255).
    pub largest: u8,
}

impl Difference {
    /// The share of pixels that agree, 0..=1 (1 for empty pictures).
    pub fn agreement(&self) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            1.0 - self.differing as f64 / self.total as f64
        }
    }
}

/// A channel of `bits` bits as 8 bits, rounded: the PNG's value.
fn widen(v: u8, max: u8) -> u8 {
    ((u16::from(v) * 255 + u16::from(max) / 2) / u16::from(max)) as u8
}

/// An 8-bit channel as `max` levels, rounded (the inverse of [`widen`] on its values).
fn narrow(v: u8, max: u8) -> u8 {
    ((u16::from(v) * u16::from(max) + 127) / 255) as u8
}

/// A colour as 8-bit RGB.
pub fn rgb8(c: Rgb565) -> [u8; 3] {
    [widen(c.r(), 31), widen(c.g(), 63), widen(c.b(), 31)]
}

/// 8-bit RGB as the nearest RGB565 colour.
pub fn rgb565(c: [u8; 3]) -> Rgb565 {
    Rgb565::new(narrow(c[0], 31), narrow(c[1], 63), narrow(c[2], 31))
}

impl Picture {
    /// A picture of one colour.
    pub fn filled(width: u32, height: u32, colour: Rgb565) -> Self {
        Self {
            width,
            height,
            pixels: vec![colour; (width * height) as usize],
        }
    }

    /// How `self` and `other` differ, or `None` when their sizes differ.
    pub fn difference(&self, other: &Picture) -> Option<Difference> {
        if (self.width, self.height) != (other.width, other.height) {
            return None;
        }
        let mut d = Difference {
            differing: 0,
            total: self.pixels.len(),
            largest: 0,
        };
        for (a, b) in self.pixels.iter().zip(&other.pixels) {
            if a != b {
                d.differing += 1;
                let (a, b) = (rgb8(*a), rgb8(*b));
                for (x, y) in a.iter().zip(&b) {
                    d.largest = d.largest.max(x.abs_diff(*y));
                }
            }
        }
        Some(d)
    }

    /// Where `self` and `other` differ: those pixels red, the others `self`'s at a quarter
    /// of their brightness (pictures of one size; extra pixels of `other` are ignored).
    pub fn marked(&self, other: &Picture) -> Picture {
        let dim = |c: Rgb565| Rgb565::new(c.r() / 4, c.g() / 4, c.b() / 4);
        let mut out = self.clone();
        for (p, q) in out.pixels.iter_mut().zip(&other.pixels) {
            *p = if *p == *q { dim(*p) } else { Rgb565::RED };
        }
        out
    }

    /// Each channel's difference from `other`'s multiplied by `gain` (saturating): black
    /// where the pictures agree, bright where they differ most (pictures of one size;
    /// extra pixels of `other` are ignored).
    ///
    /// ```
    /// use embedded_graphics::pixelcolor::{Rgb565, RgbColor};
    /// use skin_host::picture::Picture;
    /// let a = Picture::filled(1, 1, Rgb565::new(10, 20, 30));
    /// let b = Picture::filled(1, 1, Rgb565::new(11, 20, 0));
    /// assert_eq!(a.amplified(&b, 4).pixels, [Rgb565::new(4, 0, 31)]);
    /// ```
    pub fn amplified(&self, other: &Picture, gain: u8) -> Picture {
        let scale = |a: u8, b: u8, max: u8| a.abs_diff(b).saturating_mul(gain).min(max);
        let mut out = self.clone();
        for (p, q) in out.pixels.iter_mut().zip(&other.pixels) {
            *p = Rgb565::new(
                scale(p.r(), q.r(), 31),
                scale(p.g(), q.g(), 63),
                scale(p.b(), q.b(), 31),
            );
        }
        out
    }

    /// The pixels as 8-bit RGB, row-major.
    pub fn rgb8(&self) -> Vec<u8> {
        self.pixels.iter().flat_map(|&c| rgb8(c)).collect()
    }

    /// `self` and `others` side by side, left to right, `gap` pixels of `background`
    /// between them (heights may differ; the shorter ones are padded below).
    pub fn beside(&self, others: &[&Picture], gap: u32, background: Rgb565) -> Picture {
        let all: Vec<&Picture> = std::iter::once(self)
            .chain(others.iter().copied())
            .collect();
        let width = all.iter().map(|p| p.width).sum::<u32>() + gap * (all.len() as u32 - 1);
        let height = all.iter().map(|p| p.height).max().unwrap_or(0);
        let mut out = Picture::filled(width, height, background);
        let mut x0 = 0;
        for p in all {
            for y in 0..p.height {
                let src = (y * p.width) as usize;
                let dst = (y * width + x0) as usize;
                out.pixels[dst..dst + p.width as usize]
                    .copy_from_slice(&p.pixels[src..src + p.width as usize]);
            }
            x0 += p.width + gap;
        }
        out
    }

    /// Write as an 8-bit RGB PNG.
    pub fn save_png(&self, path: &Path) -> Result<(), image::ImageError> {
        image::save_buffer(
            path,
            &self.rgb8(),
            self.width,
            self.height,
            image::ExtendedColorType::Rgb8,
        )
    }

    /// The picture as 8-bit RGB PNG bytes.
    pub fn png_bytes(&self) -> Result<Vec<u8>, image::ImageError> {
        let mut bytes = Vec::new();
        let encoder = image::codecs::png::PngEncoder::new(&mut bytes);
        image::ImageEncoder::write_image(
            encoder,
            &self.rgb8(),
            self.width,
            self.height,
            image::ExtendedColorType::Rgb8,
        )?;
        Ok(bytes)
    }

    /// Read a PNG (any colour type) as the nearest RGB565 colours.
    pub fn load_png(path: &Path) -> Result<Picture, image::ImageError> {
        let img = image::open(path)?.to_rgb8();
        Ok(Picture {
            width: img.width(),
            height: img.height(),
            pixels: img.pixels().map(|p| rgb565(p.0)).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_round_trip_through_eight_bits() {
        for v in 0..=63u8 {
            assert_eq!(narrow(widen(v, 63), 63), v);
            if v <= 31 {
                assert_eq!(narrow(widen(v, 31), 31), v);
            }
        }
        assert_eq!(rgb8(Rgb565::WHITE), [255; 3]);
        assert_eq!(rgb8(Rgb565::BLACK), [0; 3]);
    }

    #[test]
    fn pictures_of_other_sizes_do_not_compare() {
        let a = Picture::filled(2, 2, Rgb565::RED);
        assert!(a.difference(&Picture::filled(4, 1, Rgb565::RED)).is_none());
        assert_eq!(a.difference(&a).unwrap().agreement(), 1.0);
    }

    #[test]
    fn beside_places_pictures_left_to_right() {
        let a = Picture::filled(2, 2, Rgb565::RED);
        let b = Picture::filled(1, 1, Rgb565::GREEN);
        let s = a.beside(&[&b], 1, Rgb565::BLACK);
        assert_eq!((s.width, s.height), (4, 2));
        assert_eq!(
            s.pixels,
            [
                Rgb565::RED,
                Rgb565::RED,
                Rgb565::BLACK,
                Rgb565::GREEN,
                Rgb565::RED,
                Rgb565::RED,
                Rgb565::BLACK,
                Rgb565::BLACK
            ]
        );
    }

    #[test]
    fn png_round_trips() {
        let dir = std::env::temp_dir().join(format!("skin-picture-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("p.png");
        let mut p = Picture::filled(3, 2, Rgb565::new(3, 8, 8));
        p.pixels[4] = Rgb565::new(29, 52, 22);
        p.save_png(&path).unwrap();
        assert_eq!(Picture::load_png(&path).unwrap(), p);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
