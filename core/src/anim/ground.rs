//! Uneven ground for a walk: a height function of position, the same on every target.

/// Rolling ground: ridges across the direction of travel (+Z), `amplitude` high over a
/// `wavelength`, tilted across by a second, slower wave along X, so that the two feet of a
/// walker stand at different heights. Heights come from `libm`'s `sinf` and `cosf`, so the
/// host and a board compute the same bits for the same point (no platform `sin`).
///
/// ```
/// use skin_core::anim::Ground;
/// let g = Ground::new(0.05, 1.0).unwrap();
/// assert_eq!(g.height(0.0, 0.0), 0.0);
/// assert!((g.height(0.0, 0.25) - 0.05).abs() < 1e-6); // a crest
/// assert!(g.height(0.3, 0.25) != g.height(-0.3, 0.25)); // tilted across
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

    /// The ground's height at `(x, z)`, model units: the ridge `amplitude · sin(2π z / λ)`
    /// plus a quarter of it times `sin(2π x / 4λ)` (the tilt across).
    pub fn height(&self, x: f32, z: f32) -> f32 {
        let k = core::f32::consts::TAU / self.wavelength;
        self.amplitude * (libm::sinf(k * z) + 0.25 * libm::sinf(k * x / 4.0))
    }
}
