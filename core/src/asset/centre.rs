//! The centre section (`docs/FORMAT.md`, *Centre*): the point, in asset units, that the
//! asset's positions and skinning matrices are taken relative to
//! ([`crate::bind::BindPose::with_centre`]), so that a model far from its origin keeps a unit
//! as fine as its size allows. Three `f32`s after everything else, flag
//! [`super::FLAG_CENTRE`].

use super::{AssetError, Field};

/// Bytes of the section: three `f32`s.
pub(crate) const CENTRE_LEN: usize = 12;

/// The largest |coordinate| of a centre, in asset units: half of the `I8F24` palette
/// maths' checked range (±64), so that a skinning matrix less the centre stays inside the
/// format.
pub const MAX_CENTRE: f32 = 32.0;

/// The grid a centre's coordinates lie on: 2⁻¹⁶ asset units, the fixed lane's output step,
/// so that adding it back to a skinned position is exact.
pub const CENTRE_STEP: f32 = 1.0 / 65536.0;

/// The flag bit for `centre`: set unless it is zero (then no section is written).
pub(crate) fn flag(centre: [f32; 3]) -> u16 {
    if centre == [0.0; 3] {
        0
    } else {
        super::header::FLAG_CENTRE
    }
}

/// `Ok` for a centre the player can add back exactly, or the first coordinate that is not
/// finite, beyond [`MAX_CENTRE`] or off the [`CENTRE_STEP`] grid, named by axis.
pub(crate) fn check(centre: [f32; 3]) -> Result<(), AssetError> {
    let bad = |c: f32| {
        let steps = c / CENTRE_STEP;
        !c.is_finite() || c.abs() > MAX_CENTRE || steps != libm::truncf(steps)
    };
    match centre.iter().position(|&c| bad(c)) {
        Some(index) => Err(AssetError::Invalid {
            what: Field::Centre,
            index,
        }),
        None => Ok(()),
    }
}

/// The centre stored at `at`, checked ([`check`]), or [`AssetError::Truncated`].
pub(crate) fn read(bytes: &[u8], at: usize) -> Result<[f32; 3], AssetError> {
    let end = at + CENTRE_LEN;
    let b = bytes.get(at..end).ok_or(AssetError::Truncated {
        needed: end,
        len: bytes.len(),
    })?;
    let centre: [f32; 3] = core::array::from_fn(|i| {
        f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
    });
    check(centre)?;
    Ok(centre)
}

/// Write `centre` at `out[at..at + CENTRE_LEN]`.
pub(crate) fn write(centre: [f32; 3], out: &mut [u8], at: usize) {
    for (i, c) in centre.iter().enumerate() {
        out[at + 4 * i..at + 4 * i + 4].copy_from_slice(&c.to_le_bytes());
    }
}
