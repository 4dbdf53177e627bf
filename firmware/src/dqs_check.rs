//! The on-device check of the lane's DQS loop (what [`SkinnedMesh::skin_dqs`] runs: the fixed
//! lane's assembly kernels on cores with the DSP extension) against the generic loop
//! ([`SkinnedMesh::skin_dqs_generic`]), bit for bit, on inputs chosen to reach every path:
//! the vertices of [`synthetic::check_inputs`] (weights of exactly one in each slot, a lead
//! weight of 0, positions at both ends of the range, zero, tiny and over-long normals), with
//! palettes of 1 to 70 dual quaternions, word-aligned or 2 bytes off, that hold half-turns,
//! both signs of one rotation (antipodal pairs), random rotations in either hemisphere and
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

use crate::synthetic::{
    check_influences, check_inputs, CheckInputs, CheckOutputs, Mismatch, Rng, CHECK_ROUNDS,
    CHECK_VERTICES,
};

/// Palette sizes the check tries: one entry, a small rig, and more than the 64 a bone byte's
/// table would hold.
pub const DQS_PALETTES: [usize; 3] = [1, 9, DQS_BONES];
/// The largest palette.
pub const DQS_BONES: usize = 70;
/// Seed of the check.
pub const DQS_SEED: u32 = 0xD0A1_5EED;

/// The cases the check compares: rounds × palettes × `K` in 1..=4 × four vertex counts ×
/// (with and without normals).
pub const DQS_CASES: u32 = CHECK_ROUNDS * DQS_PALETTES.len() as u32 * 4 * 4 * 2;

/// Runs the check: the number of cases compared, or the first that differs.
pub fn check_dqs_loop<L: Lane>() -> Result<Result<u32, Mismatch>, Error> {
    let mut rng = Rng::new(DQS_SEED);
    let mut cases = 0;
    for round in 0..CHECK_ROUNDS {
        for bones in DQS_PALETTES {
            let case = Mismatch {
                round,
                bones,
                influences: 0,
                len: 0,
                normals: false,
            };
            // Word-aligned in even rounds, 2 bytes off in odd ones (in the fixed lane, whose
            // entries need only 2-byte alignment).
            let checked = if round % 2 == 1 {
                shifted::<L>(&mut rng, case, &mut cases)?
            } else {
                aligned::<L>(&mut rng, case, &mut cases)?
            };
            if let Err(m) = checked {
                return Ok(Err(m));
            }
        }
    }
    Ok(Ok(cases))
}

/// A word-aligned palette.
#[repr(C, align(4))]
struct Aligned<L: Lane> {
    duals: [Dual<L>; DQS_BONES],
}

/// A palette that starts 2 bytes into a word-aligned `repr(C)` struct.
#[repr(C, align(4))]
struct Shifted<L: Lane> {
    _pad: u16,
    duals: [Dual<L>; DQS_BONES],
}

/// `case` with a word-aligned palette (its own frame, as the LBS check's).
#[inline(never)]
fn aligned<L: Lane>(
    rng: &mut Rng,
    case: Mismatch,
    cases: &mut u32,
) -> Result<Result<(), Mismatch>, Error> {
    let mut palette = Aligned {
        duals: [Dual::<L>::default(); DQS_BONES],
    };
    let palette = &mut palette.duals[..case.bones];
    fill_palette(rng, palette)?;
    check_with(rng, palette, case, cases)
}

/// `case` with a palette 2 bytes off a word boundary.
#[inline(never)]
fn shifted<L: Lane>(
    rng: &mut Rng,
    case: Mismatch,
    cases: &mut u32,
) -> Result<Result<(), Mismatch>, Error> {
    let mut palette = Shifted {
        _pad: 0,
        duals: [Dual::<L>::default(); DQS_BONES],
    };
    let palette = &mut palette.duals[..case.bones];
    fill_palette(rng, palette)?;
    check_with(rng, palette, case, cases)
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

/// `case` on `palette`: new inputs, both loops with 1 to 4 influences.
#[inline(never)]
fn check_with<L: Lane>(
    rng: &mut Rng,
    palette: &[Dual<L>],
    mut case: Mismatch,
    cases: &mut u32,
) -> Result<Result<(), Mismatch>, Error> {
    let mut inputs = CheckInputs::<L>::default();
    check_inputs(rng, palette.len(), &mut inputs)?;
    let mut outputs = CheckOutputs::<L>::default();
    let (p, i, o, c) = (palette, &inputs, &mut outputs, &mut case);
    let same = compare::<L, 1>(p, i, o, c, cases)?
        && compare::<L, 2>(p, i, o, c, cases)?
        && compare::<L, 3>(p, i, o, c, cases)?
        && compare::<L, 4>(p, i, o, c, cases)?;
    Ok(if same { Ok(()) } else { Err(case) })
}

/// Skins the first `len` vertices of `inputs` with `K` influences by both loops, for every
/// `len` of a few and with and without normals; `Ok(false)` (with `case` set) at the first
/// difference.
#[inline(never)]
fn compare<L: Lane, const K: usize>(
    palette: &[Dual<L>],
    inputs: &CheckInputs<L>,
    out: &mut CheckOutputs<L>,
    case: &mut Mismatch,
    cases: &mut u32,
) -> Result<bool, Error> {
    let influences = check_influences::<L, K>(inputs)?;
    case.influences = K;
    for len in [0, 1, 7, CHECK_VERTICES] {
        case.len = len;
        let mesh = SkinnedMesh::<L, K>::new(&inputs.positions[..len], &influences[..len])?;
        let normals = &inputs.normals[..len];
        case.normals = true;
        mesh.skin_dqs_with_normals(palette, normals, &mut out.a[..len], &mut out.na[..len])?;
        mesh.skin_dqs_with_normals_generic(
            palette,
            normals,
            &mut out.b[..len],
            &mut out.nb[..len],
        )?;
        *cases += 1;
        if out.a != out.b || out.na != out.nb {
            return Ok(false);
        }
        case.normals = false;
        mesh.skin_dqs(palette, &mut out.a[..len])?;
        mesh.skin_dqs_generic(palette, &mut out.b[..len])?;
        *cases += 1;
        if out.a != out.b {
            return Ok(false);
        }
    }
    Ok(true)
}
