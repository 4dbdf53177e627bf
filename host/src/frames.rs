//! The firmware's frame dump as pictures: `frame-000.rgb565`, `frame-001.rgb565`, … (each
//! `width × height` RGB565 pixels, little-endian, row-major, no header) in one directory,
//! beside `asset.bin`, the asset the firmware played. `skin frames DIR -o clip.gif` turns
//! them into the animation the display showed.
//!
//! The firmware spreads its frames evenly over one loop of the asset's first clip, so with
//! `asset.bin` present the frames play at their real rate: `frames / duration` a second.
//!
//! ```
//! use embedded_graphics::pixelcolor::Rgb565;
//! let dir = std::env::temp_dir().join(format!("skin-frames-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! // Two 2×1 frames: a red and a blue pixel, then two white ones.
//! std::fs::write(dir.join("frame-000.rgb565"), [0x00, 0xf8, 0x1f, 0x00])?;
//! std::fs::write(dir.join("frame-001.rgb565"), [0xff; 4])?;
//! let dump = skin_host::frames::Dump::read(&dir, (2, 1))?;
//! assert_eq!(dump.pictures.len(), 2);
//! assert_eq!(dump.pictures[0].pixels, [Rgb565::new(31, 0, 0), Rgb565::new(0, 0, 31)]);
//! assert_eq!(dump.duration, None); // no asset.bin
//! std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::{Path, PathBuf};

use embedded_graphics::pixelcolor::raw::RawU16;
use embedded_graphics::pixelcolor::Rgb565;
use skin_core::asset::Asset;
use skin_core::lane::Q14;

use crate::picture::Picture;

/// The most frames a dump is read with (the firmware writes a handful).
pub const MAX_FRAMES: usize = 1000;

/// Why a frame dump could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FramesError {
    /// The directory could not be listed.
    #[error("cannot read frame directory {0}: {1}")]
    Dir(PathBuf, std::io::Error),
    /// No `frame-NNN.rgb565` in it.
    #[error("{0}: no frame-NNN.rgb565 files")]
    Empty(PathBuf),
    /// The frames are not numbered 0, 1, 2, … without a gap.
    #[error("{dir}: frame-{missing:03}.rgb565 is missing ({count} frames numbered up to {last})")]
    Gap {
        /// The directory.
        dir: PathBuf,
        /// The first number missing.
        missing: usize,
        /// Frames found.
        count: usize,
        /// The highest number found.
        last: usize,
    },
    /// More frames than [`MAX_FRAMES`].
    #[error("{0}: {1} frames, more than {MAX_FRAMES}")]
    TooMany(PathBuf, usize),
    /// A frame file could not be read.
    #[error("cannot read {0}: {1}")]
    Read(PathBuf, std::io::Error),
    /// A frame file's length is not the picture's.
    #[error("{path}: {bytes} bytes, but a {width}x{height} RGB565 frame is {want}")]
    Length {
        /// The frame.
        path: PathBuf,
        /// Its length.
        bytes: usize,
        /// Width expected.
        width: u16,
        /// Height expected.
        height: u16,
        /// Bytes expected.
        want: usize,
    },
}

/// A frame dump.
#[derive(Clone, Debug, PartialEq)]
pub struct Dump {
    /// The frames in order.
    pub pictures: Vec<Picture>,
    /// The played clip's duration (seconds) from `asset.bin`, when it is there and has a
    /// clip.
    pub duration: Option<f32>,
}

impl Dump {
    /// Read the dump in `dir`, frames of `width × height` pixels.
    pub fn read(dir: &Path, (width, height): (u16, u16)) -> Result<Dump, FramesError> {
        let mut numbers: Vec<usize> = std::fs::read_dir(dir)
            .map_err(|e| FramesError::Dir(dir.to_owned(), e))?
            .filter_map(|e| {
                let name = e.ok()?.file_name();
                let n = name.to_str()?.strip_prefix("frame-")?;
                n.strip_suffix(".rgb565")?.parse::<usize>().ok()
            })
            .collect();
        numbers.sort_unstable();
        let Some(&last) = numbers.last() else {
            return Err(FramesError::Empty(dir.to_owned()));
        };
        if numbers.len() > MAX_FRAMES {
            return Err(FramesError::TooMany(dir.to_owned(), numbers.len()));
        }
        if let Some(missing) = (0..numbers.len()).find(|&k| numbers[k] != k) {
            return Err(FramesError::Gap {
                dir: dir.to_owned(),
                missing,
                count: numbers.len(),
                last,
            });
        }
        let want = usize::from(width) * usize::from(height) * 2;
        let pictures = numbers
            .iter()
            .map(|k| {
                let path = dir.join(format!("frame-{k:03}.rgb565"));
                let bytes = std::fs::read(&path).map_err(|e| FramesError::Read(path.clone(), e))?;
                if bytes.len() != want {
                    return Err(FramesError::Length {
                        path,
                        bytes: bytes.len(),
                        width,
                        height,
                        want,
                    });
                }
                Ok(Picture {
                    width: u32::from(width),
                    height: u32::from(height),
                    pixels: bytes
                        .chunks_exact(2)
                        .map(|p| Rgb565::from(RawU16::new(u16::from_le_bytes([p[0], p[1]]))))
                        .collect(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let duration = std::fs::read(dir.join("asset.bin"))
            .ok()
            .and_then(|b| clip_duration(&b));
        Ok(Dump { pictures, duration })
    }

    /// The rate the firmware's frames stand for: frames over the clip's duration.
    pub fn fps(&self) -> Option<f32> {
        self.duration
            .filter(|d| *d > 0.0)
            .map(|d| self.pictures.len() as f32 / d)
    }
}

/// The duration of the first clip of an asset in either lane, if it reads and has one.
pub fn clip_duration(bytes: &[u8]) -> Option<f32> {
    match Asset::<f32>::read(bytes) {
        Ok(a) => a.clips().next().map(|c| c.duration()),
        Err(_) => Asset::<Q14>::read(bytes)
            .ok()
            .and_then(|a| a.clips().next().map(|c| c.duration())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("skin-frames-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_gap_and_a_short_frame_are_named() {
        let dir = scratch("gap");
        std::fs::write(dir.join("frame-000.rgb565"), [0; 8]).unwrap();
        std::fs::write(dir.join("frame-002.rgb565"), [0; 8]).unwrap();
        let err = Dump::read(&dir, (2, 2)).unwrap_err().to_string();
        assert!(
            err.ends_with("frame-001.rgb565 is missing (2 frames numbered up to 2)"),
            "{err}"
        );
        std::fs::rename(dir.join("frame-002.rgb565"), dir.join("frame-001.rgb565")).unwrap();
        std::fs::write(dir.join("frame-001.rgb565"), [0; 6]).unwrap();
        let err = Dump::read(&dir, (2, 2)).unwrap_err().to_string();
        assert!(
            err.ends_with("6 bytes, but a 2x2 RGB565 frame is 8"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        let err = Dump::read(&dir, (2, 2)).unwrap_err().to_string();
        assert!(err.starts_with("cannot read frame directory"), "{err}");
    }
}
