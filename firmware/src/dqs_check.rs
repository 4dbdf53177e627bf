//! The on-device check of the lane's DQS loop (what [`SkinnedMesh::skin_dqs`] runs: the fixed
//! lane's assembly kernels on cores with the DSP extension and on ARMv6-M) against the generic loop
//! ([`SkinnedMesh::skin_dqs_generic`]), bit for bit, on inputs chosen to reach every path,
//! by the LBS check's driver ([`crate::synthetic::check_loops`]): its vertices (weights of
//! exactly one in each slot, a lead weight of 0, positions at both ends of the range, zero,
//! tiny and over-long normals), with palettes of 1 to 70 dual quaternions (64, the most the
//! ARMv6-M kernels' table holds, and 70, which they leave to the generic loop) that hold
//! half-turns, both signs of one rotation (antipodal pairs), random rotations in either hemisphere and
//! translations up to the longest the fixed lane takes; `K` = 1…4, 0 to 48 vertices,
//! positions alone and with normals.
//!
//! This file is shared, word for word, by the firmware and by the host test
//! (`tests/tests/firmware_bench.rs`, which counts the cases it must report).

use skin_core::dual::Dual;
use skin_core::error::{Error, Quantity};
use skin_core::lane::Lane;
use skin_core::skin::SkinnedMesh;
use skin_core::transform::Transform;

use crate::synthetic::{check_loops, CheckEntry, CheckOutputs, Mismatch, Rng, CHECK_ROUNDS};

/// Palette sizes the check tries: one entry, a small rig, the 64 the ARMv6-M kernels' table
/// holds, and more.
pub const DQS_PALETTES: [usize; 4] = [1, 9, 64, DQS_BONES];
/// The largest palette.
pub const DQS_BONES: usize = crate::synthetic::CHECK_BONES;
/// Seed of the check.
pub const DQS_SEED: u32 = 0xD0A1_5EED;

/// The cases the check compares: rounds × palettes × `K` in 1..=4 × four vertex counts ×
/// (with and without normals).
pub const DQS_CASES: u32 = CHECK_ROUNDS * DQS_PALETTES.len() as u32 * 4 * 4 * 2;

/// Runs the check: the number of cases compared, or the first that differs.
pub fn check_dqs_loop<L: Lane>() -> Result<Result<u32, Mismatch>, Error> {
    check_loops::<L, Dual<L>>(DQS_SEED, &DQS_PALETTES)
}

impl<L: Lane> CheckEntry<L> for Dual<L> {
    fn zero() -> Self {
        Dual::default()
    }
    fn fill(rng: &mut Rng, palette: &mut [Self]) -> Result<(), Error> {
        fill_palette(rng, palette)
    }
    fn skin_both<const K: usize>(
        mesh: &SkinnedMesh<'_, L, K>,
        palette: &[Self],
        normals: Option<&[[L; 3]]>,
        out: &mut CheckOutputs<L>,
    ) -> Result<(), Error> {
        let len = mesh.len();
        let (a, b) = (&mut out.a[..len], &mut out.b[..len]);
        match normals {
            Some(n) => {
                mesh.skin_dqs_with_normals(palette, n, a, &mut out.na[..len])?;
                mesh.skin_dqs_with_normals_generic(palette, n, b, &mut out.nb[..len])
            }
            None => {
                mesh.skin_dqs(palette, a)?;
                mesh.skin_dqs_generic(palette, b)
            }
        }
    }
}

/// The palette: entry 1 the identity (the inputs' tiny normals rely on it), entries 2 and
/// 5 (mod 8) one half-turn with the longest translation, in both signs; the rest random
/// rotations, either sign, moved by up to 1.9 on each axis.
fn fill_palette<L: Lane>(rng: &mut Rng, palette: &mut [Dual<L>]) -> Result<(), Error> {
    let half_turn = [rng.signed(), rng.signed(), 0.5, 0.0];
    for (index, entry) in palette.iter_mut().enumerate() {
        let (q, t, negate) = match index % 8 {
            1 => ([0.0, 0.0, 0.0, 1.0], [0.0; 3], false),
            2 | 5 => (half_turn, [1.99, -1.99, 1.99], index % 8 == 5),
            _ => (
                [rng.signed(), rng.signed(), rng.signed(), rng.signed()],
                [rng.signed(), rng.signed(), rng.signed()].map(|v| 1.9 * v),
                rng.next_u32() & 1 == 1,
            ),
        };
        let overflow = Error::Overflow {
            what: Quantity::Palette,
            index,
            format: L::NAME,
        };
        // A random draw too short to normalise: the identity's rotation instead.
        let q = if q.iter().map(|c| c * c).sum::<f32>() < 1.0 / 16.0 {
            [0.0, 0.0, 0.0, 1.0]
        } else {
            q
        };
        let m = Transform::<L::Real>::from_f32(t, q, [1.0; 3])
            .map_err(|_| overflow)?
            .to_affine();
        let mut d = Dual::from_rigid(&m).map_err(|_| overflow)?;
        if negate {
            d = Dual {
                real: d.real.map(|c| -c),
                dual: d.dual.map(|c| -c),
            };
        }
        *entry = L::narrow_dual(&d).ok_or(overflow)?;
    }
    Ok(())
}
