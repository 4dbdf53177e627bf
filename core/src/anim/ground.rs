//! Uneven ground for a walk: a height function of position, the same on every target.

/// Rolling ground: smooth ridges across the direction of travel (+Z), `amplitude` high
/// every `wavelength`, on a slope across (X) that rises by a quarter of the amplitude a
/// wavelength, so that the two feet of a walker stand at different heights. Each ridge is
/// the bump `16 s² (1 − s)²` of the fraction `s` of its wavelength (smooth where ridges
/// meet); heights take `libm::floorf` and arithmetic only, so the host and a board compute
/// the same bits for the same point, and a Cortex-M0 without a floating-point unit no
/// sine (a software one costs thousands of instructions there).
///
/// ```
/// use skin_core::anim::Ground;
/// let g = Ground::new(0.05, 1.0).unwrap();
/// assert_eq!(g.height(0.0, 0.0), 0.0);
/// assert!((g.height(0.0, 0.5) - 0.05).abs() < 1e-7); // a crest
/// assert_eq!(g.height(0.0, 1.5), g.height(0.0, 0.5)); // a ridge a wavelength
/// assert!(g.height(0.3, 0.5) > g.height(-0.3, 0.5)); // sloping across
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ground {
    amplitude: f32,
    wavelength: f32,
}

impl Ground {
    /// Ridges `amplitude` high (≥ 0, model units) every `wavelength` (> 0).
    ///
    /// Errors: [`AnimError::Gait`](super::AnimError::Gait) naming `ground amplitude` or
    /// `ground wavelength` for a value that is not finite or out of range.
    pub fn new(amplitude: f32, wavelength: f32) -> Result<Self, super::AnimError> {
        if !(amplitude.is_finite() && amplitude >= 0.0) {
            return Err(super::AnimError::Gait {
                what: "ground amplitude",
                value: amplitude,
            });
        }
        if !(wavelength.is_finite() && wavelength > 0.0) {
            return Err(super::AnimError::Gait {
                what: "ground wavelength",
                value: wavelength,
            });
        }
        Ok(Self {
            amplitude,
            wavelength,
        })
    }

    /// The ground's height at `(x, z)`, model units: `amplitude · (16 s² (1 − s)² + x / 4λ)`,
    /// `s` the fraction of `z / λ`.
    pub fn height(&self, x: f32, z: f32) -> f32 {
        let u = z / self.wavelength;
        let s = u - libm::floorf(u);
        let bump = 4.0 * s * (1.0 - s);
        self.amplitude * (bump * bump + 0.25 * x / self.wavelength)
    }
}
