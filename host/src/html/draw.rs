//! Drawings of a posed model for the report: its triangles seen by the firmware's camera
//! ([`Camera::frame`] on the drawn positions' box), each vertex a colour of its own (an
//! error on a colour scale, or its palette part), blended across the triangle and lit by
//! how squarely the triangle faces the camera, nearest surface in front.
//!
//! ```
//! use skin_host::html::draw::{heat_colour, Drawing};
//! let triangle = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
//! let d = Drawing::new(&[triangle], (32, 32), |_, _| heat_colour(1.0)).unwrap();
//! assert!(d.covered() > 0); // the triangle shows
//! assert_eq!(&d.png().unwrap()[1..4], b"PNG");
//! ```

use skin_core::raster::{Bounds, Camera, SUBPIXEL};

/// The page's background behind a drawing.
pub const BACKGROUND: [u8; 3] = [246, 246, 246];

/// A drawing: 8-bit RGB pixels, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    width: u32,
    height: u32,
    rgb: Vec<[u8; 3]>,
    depth: Vec<f32>,
}

impl Drawing {
    /// Draw `triangles` (model units) on a `width × height` picture, vertex `v` of
    /// triangle `t` coloured `colour(t, v)`; `None` when there is nothing to frame.
    pub fn new(
        triangles: &[[[f32; 3]; 3]],
        (width, height): (u16, u16),
        colour: impl Fn(usize, usize) -> [u8; 3],
    ) -> Option<Drawing> {
        let bounds = Bounds::of(triangles.iter().flatten().copied())?;
        let cam = Camera::frame(&bounds, width, height)?;
        let m = cam.matrix();
        let back = normalise([m[2][0], m[2][1], m[2][2]]);
        let (w, h) = (u32::from(width), u32::from(height));
        let mut d = Drawing {
            width: w,
            height: h,
            rgb: vec![BACKGROUND; (w * h) as usize],
            depth: vec![f32::INFINITY; (w * h) as usize],
        };
        let sub = SUBPIXEL as f32;
        for (t, tri) in triangles.iter().enumerate() {
            let facing = dot(normalise(normal(tri)), back).abs();
            let light = 0.45 + 0.55 * facing;
            let screen = tri.map(|p| {
                let s = cam.project_f32(p);
                [s[0] / sub, s[1] / sub, s[2]]
            });
            let colours: [[f32; 3]; 3] =
                core::array::from_fn(|v| colour(t, v).map(|c| f32::from(c) * light));
            d.fill(&screen, &colours);
        }
        Some(d)
    }

    /// Pixels the model covers.
    pub fn covered(&self) -> usize {
        self.depth.iter().filter(|z| z.is_finite()).count()
    }

    /// The drawing as PNG bytes.
    pub fn png(&self) -> Result<Vec<u8>, image::ImageError> {
        let mut bytes = Vec::new();
        let encoder = image::codecs::png::PngEncoder::new(&mut bytes);
        image::ImageEncoder::write_image(
            encoder,
            self.rgb.as_flattened(),
            self.width,
            self.height,
            image::ExtendedColorType::Rgb8,
        )?;
        Ok(bytes)
    }

    /// Fill the triangle `s` (pixels, depth) at pixel centres inside it, blending
    /// `colours` across it; nearer (smaller depth) wins.
    fn fill(&mut self, s: &[[f32; 3]; 3], colours: &[[f32; 3]; 3]) {
        let area = edge(s[0], s[1], s[2]);
        if !area.is_finite() || area.abs() < 1e-6 {
            return;
        }
        let clampx = |v: f32| v.clamp(0.0, self.width as f32 - 1.0) as u32;
        let clampy = |v: f32| v.clamp(0.0, self.height as f32 - 1.0) as u32;
        let lo = |i: usize| s.iter().map(|p| p[i]).fold(f32::INFINITY, f32::min);
        let hi = |i: usize| s.iter().map(|p| p[i]).fold(f32::NEG_INFINITY, f32::max);
        for y in clampy(lo(1).floor())..=clampy(hi(1).ceil()) {
            for x in clampx(lo(0).floor())..=clampx(hi(0).ceil()) {
                let p = [x as f32 + 0.5, y as f32 + 0.5, 0.0];
                let b = [
                    edge(s[1], s[2], p) / area,
                    edge(s[2], s[0], p) / area,
                    edge(s[0], s[1], p) / area,
                ];
                if b.iter().any(|&v| v < 0.0) {
                    continue;
                }
                let z = b[0] * s[0][2] + b[1] * s[1][2] + b[2] * s[2][2];
                let i = (y * self.width + x) as usize;
                if z < self.depth[i] {
                    self.depth[i] = z;
                    self.rgb[i] = core::array::from_fn(|c| {
                        let v = b[0] * colours[0][c] + b[1] * colours[1][c] + b[2] * colours[2][c];
                        v.round().clamp(0.0, 255.0) as u8
                    });
                }
            }
        }
    }
}

/// Twice the signed area of `a b p` (screen x, y).
fn edge(a: [f32; 3], b: [f32; 3], p: [f32; 3]) -> f32 {
    (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
}

fn normal(t: &[[f32; 3]; 3]) -> [f32; 3] {
    let u: [f32; 3] = core::array::from_fn(|i| t[1][i] - t[0][i]);
    let v: [f32; 3] = core::array::from_fn(|i| t[2][i] - t[0][i]);
    [
        u[1] * v[2] - u[2] * v[1],
        u[2] * v[0] - u[0] * v[2],
        u[0] * v[1] - u[1] * v[0],
    ]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn normalise(a: [f32; 3]) -> [f32; 3] {
    let n = dot(a, a).sqrt();
    if n > 0.0 && n.is_finite() {
        a.map(|v| v / n)
    } else {
        [0.0; 3]
    }
}

/// The heat scale's stops, cool to hot (0 to 1).
const HEAT: [[u8; 3]; 5] = [
    [48, 18, 120],
    [33, 110, 190],
    [40, 180, 120],
    [240, 200, 40],
    [220, 40, 30],
];

/// The colour of `v` on the heat scale (0: cool, 1: hot; clamped).
pub fn heat_colour(v: f64) -> [u8; 3] {
    let x = if v.is_nan() { 1.0 } else { v.clamp(0.0, 1.0) } * (HEAT.len() - 1) as f64;
    let i = (x.floor() as usize).min(HEAT.len() - 2);
    let f = x - i as f64;
    core::array::from_fn(|c| {
        let (a, b) = (f64::from(HEAT[i][c]), f64::from(HEAT[i + 1][c]));
        (a + (b - a) * f).round() as u8
    })
}

/// The heat scale as a CSS gradient (for the legend beside a heat map).
pub fn heat_gradient() -> String {
    let stops: Vec<String> = HEAT
        .iter()
        .map(|c| format!("rgb({},{},{})", c[0], c[1], c[2]))
        .collect();
    format!("linear-gradient(to right, {})", stops.join(", "))
}

/// Distinct colours for palette parts, repeating after twelve.
pub fn part_colour(part: usize) -> [u8; 3] {
    const PARTS: [[u8; 3]; 12] = [
        [31, 119, 180],
        [255, 127, 14],
        [44, 160, 44],
        [214, 39, 40],
        [148, 103, 189],
        [140, 86, 75],
        [227, 119, 194],
        [127, 127, 127],
        [188, 189, 34],
        [23, 190, 207],
        [57, 59, 121],
        [173, 73, 74],
    ];
    PARTS[part % PARTS.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearer_triangle_hides_the_farther() {
        // Two triangles over the same area, one nearer the camera (which looks from +z,
        // turned 30 degrees about y), coloured differently.
        let near = [[0.0, 0.0, 1.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0]];
        let far = near.map(|p| [p[0], p[1], -1.0]);
        for order in [[near, far], [far, near]] {
            let d = Drawing::new(&order, (64, 64), |t, _| {
                if order[t] == near {
                    [200, 0, 0]
                } else {
                    [0, 0, 200]
                }
            })
            .unwrap();
            let red = d.rgb.iter().filter(|c| c[0] > 0 && c[2] == 0).count();
            let blue = d.rgb.iter().filter(|c| c[0] == 0 && c[2] > 0).count();
            assert!(red > 100, "{red}");
            assert!(blue < red, "{blue} {red}");
        }
    }

    #[test]
    fn heat_runs_from_cool_to_hot() {
        assert_eq!(heat_colour(0.0), HEAT[0]);
        assert_eq!(heat_colour(1.0), HEAT[4]);
        assert_eq!(heat_colour(7.0), HEAT[4]);
        assert_eq!(heat_colour(f64::NAN), HEAT[4]);
        assert_eq!(heat_colour(0.25), HEAT[1]);
    }
}
