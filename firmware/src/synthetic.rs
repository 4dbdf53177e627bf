//! The benchmark's synthetic rig: a deterministic 19-bone palette and a 370-vertex mesh with
//! four influences per vertex, made from a tiny PRNG, plus a checksum of skinned output.
//!
//! This file is shared, word for word, by the firmware and by the host test
//! (`tests/tests/firmware_bench.rs` includes it with `#[path]`), so both skin the same mesh
//! with the same skin-core code and their checksums must agree bit for bit.
//!
//! The mesh is made and skinned in [`CHUNK`]-vertex pieces so that it fits the 16 KiB of a
//! Cortex-M0 micro:bit in every lane (inputs and outputs of one chunk live in RAM).

use skin_core::affine::Affine;
use skin_core::error::{Error, Quantity};
use skin_core::lane::Lane;
use skin_core::palette::{DualPalette, Palette};
use skin_core::skin::{RigidMesh, SkinnedMesh, Tabled};
use skin_core::transform::Transform;
use skin_core::vertex::Influence;

/// Bones in the rig (and matrices in the palette).
pub const BONES: usize = 19;
/// Vertices in the mesh.
pub const VERTICES: usize = 370;
/// Vertices made and skinned at a time.
pub const CHUNK: usize = 74;
/// Chunks in the mesh.
pub const CHUNKS: usize = VERTICES / CHUNK;
const _: () = assert!(CHUNKS * CHUNK == VERTICES);

/// Seed of the pose (palette).
pub const POSE_SEED: u32 = 0x1234_5678;
/// Seed of the mesh.
pub const MESH_SEED: u32 = 0x9E37_79B9;

/// A kernel the benchmark measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Stitching (one bone per vertex), positions.
    Stitch,
    /// Stitching, positions and normals.
    StitchNormals,
    /// Linear blend skinning with four influences, positions.
    Lbs4,
    /// Linear blend skinning with four influences, positions and normals.
    Lbs4Normals,
    /// Dual quaternion skinning with four influences, positions.
    Dqs4,
    /// Dual quaternion skinning with four influences, positions and normals.
    Dqs4Normals,
}

impl Kernel {
    /// Every kernel, in report order.
    pub const ALL: [Kernel; 6] = [
        Kernel::Stitch,
        Kernel::StitchNormals,
        Kernel::Lbs4,
        Kernel::Lbs4Normals,
        Kernel::Dqs4,
        Kernel::Dqs4Normals,
    ];

    /// The name the firmware logs and the tests parse.
    pub const fn name(self) -> &'static str {
        match self {
            Kernel::Stitch => "stitch-pos",
            Kernel::StitchNormals => "stitch-pos-nrm",
            Kernel::Lbs4 => "lbs4-pos",
            Kernel::Lbs4Normals => "lbs4-pos-nrm",
            Kernel::Dqs4 => "dqs4-pos",
            Kernel::Dqs4Normals => "dqs4-pos-nrm",
        }
    }

    /// `true` when the kernel also transforms normals.
    pub const fn normals(self) -> bool {
        matches!(
            self,
            Kernel::StitchNormals | Kernel::Lbs4Normals | Kernel::Dqs4Normals
        )
    }
}

/// xorshift32: small, fast and the same on every target.
pub struct Rng(u32);

impl Rng {
    /// A generator; a zero seed is replaced (xorshift never leaves zero).
    pub const fn new(seed: u32) -> Self {
        Self(if seed == 0 { 1 } else { seed })
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }

    /// Uniform in [−1, 1) in steps of 2⁻¹⁵ (exact in `f32`).
    pub fn signed(&mut self) -> f32 {
        ((self.next_u32() >> 16) as i32 - 32768) as f32 / 32768.0
    }

    /// Uniform in [0, 1) in steps of 2⁻¹⁵.
    pub fn unit(&mut self) -> f32 {
        (self.next_u32() >> 17) as f32 / 32768.0
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u32) -> u32 {
        self.next_u32() % n
    }
}

/// A random pose: each bone rotated at random and moved by up to 0.25 asset units. Rotation
/// rows have an L1 norm of at most √3, so every matrix fits the fixed lane.
pub fn palette<L: Lane>(rng: &mut Rng) -> Result<Pose<L>, Error> {
    let mut pose = Pose::default();
    for index in 0..BONES {
        let q = [rng.signed(), rng.signed(), rng.signed(), 0.5 + rng.unit()];
        let t = [rng.signed(), rng.signed(), rng.signed()].map(|v| v * 0.25);
        let bone = Transform::<L::Real>::from_f32(t, q, [1.0; 3]).map_err(|_| Error::Overflow {
            what: Quantity::LocalTransform,
            index,
            format: L::NAME,
        })?;
        pose.push(&bone.to_affine())?;
    }
    Ok(pose)
}

/// The bind pose: every palette entry the identity.
pub fn rest<L: Lane>() -> Result<Pose<L>, Error> {
    let mut pose = Pose::default();
    for _ in 0..BONES {
        pose.push(&Affine::IDENTITY)?;
    }
    Ok(pose)
}

/// A pose of the rig as each method's palette: the rigid bone matrices (stitching, LBS) and
/// the same transforms as unit dual quaternions (DQS).
#[derive(Default)]
pub struct Pose<L: Lane> {
    /// The matrices.
    pub matrices: Palette<L, BONES>,
    /// The unit dual quaternions.
    pub duals: DualPalette<L, BONES>,
}

impl<L: Lane> Pose<L> {
    /// Appends bone matrix `m` to both palettes.
    fn push(&mut self, m: &Affine<L::Real>) -> Result<(), Error> {
        self.matrices.push(m)?;
        self.duals.push(m)
    }
}

/// One chunk of the mesh: inputs and outputs.
pub struct Chunk<L: Lane> {
    /// Bind positions, in (−0.875, 0.875) asset units.
    pub positions: [[L; 3]; CHUNK],
    /// Unit normals.
    pub normals: [[L; 3]; CHUNK],
    /// Four influences per vertex.
    pub influences: [Influence<L>; CHUNK],
    /// The bone of each vertex for stitching (its most influential bone).
    pub bones: [u8; CHUNK],
    /// Skinned positions.
    pub out: [[L::Out; 3]; CHUNK],
    /// Skinned normals.
    pub out_normals: [[L; 3]; CHUNK],
}

/// Times a piece of work (the firmware's SysTick stopwatch; `()` on the host does nothing).
pub trait Stopwatch {
    /// Runs `f`, timing it.
    fn time<R>(&mut self, f: impl FnOnce() -> R) -> R;
}

impl Stopwatch for () {
    fn time<R>(&mut self, f: impl FnOnce() -> R) -> R {
        f()
    }
}

impl<L: Lane> Default for Chunk<L> {
    fn default() -> Self {
        Self {
            positions: [[L::default(); 3]; CHUNK],
            normals: [[L::default(); 3]; CHUNK],
            influences: [Influence::default(); CHUNK],
            bones: [0; CHUNK],
            out: [[L::Out::default(); 3]; CHUNK],
            out_normals: [[L::default(); 3]; CHUNK],
        }
    }
}

impl<L: Lane> Chunk<L> {
    /// Fills the inputs with the next [`CHUNK`] vertices of the mesh `rng` makes; `first` is
    /// the index of the first vertex (for errors).
    pub fn fill(&mut self, rng: &mut Rng, first: usize) -> Result<(), Error> {
        for v in 0..CHUNK {
            let vertex = first + v;
            let conv = |p: [f32; 3], what| {
                let mut out = [L::default(); 3];
                for (o, c) in out.iter_mut().zip(p) {
                    *o = L::from_f32(c).map_err(|_| Error::Overflow {
                        what,
                        index: vertex,
                        format: L::NAME,
                    })?;
                }
                Ok(out)
            };
            let p = [rng.signed(), rng.signed(), rng.signed()].map(|c| c * 0.875);
            self.positions[v] = conv(p, Quantity::Position)?;
            self.normals[v] = conv(unit_vector(rng), Quantity::Normal)?;
            let bones = [0; 4].map(|_| rng.below(BONES as u32) as u8);
            let w = [0; 4].map(|_| rng.unit() + 1.0 / 64.0);
            let sum = w[0] + w[1] + w[2] + w[3];
            let inf = Influence::from_weights(bones, w.map(|w| w / sum), vertex)?;
            self.influences[v] = inf;
            self.bones[v] = inf.bones()[0];
        }
        Ok(())
    }

    /// Runs `kernel` over the chunk `reps` times with `pose`'s palette of its method,
    /// timing only the kernel calls.
    pub fn skin(
        &mut self,
        kernel: Kernel,
        pose: &Pose<L>,
        reps: u32,
        watch: &mut impl Stopwatch,
    ) -> Result<(), Error> {
        let (out, out_normals) = (&mut self.out, &mut self.out_normals);
        let palette = pose.matrices.as_slice();
        match kernel {
            Kernel::Stitch | Kernel::StitchNormals => {
                let mesh = RigidMesh::new(&self.positions, &self.bones)?;
                watch.time(|| {
                    for _ in 0..reps {
                        if kernel.normals() {
                            mesh.skin_with_normals(palette, &self.normals, out, out_normals)?;
                        } else {
                            mesh.skin(palette, out)?;
                        }
                    }
                    Ok(())
                })
            }
            Kernel::Lbs4 | Kernel::Lbs4Normals => {
                let mesh = SkinnedMesh::<L, 4>::new(&self.positions, &self.influences)?;
                watch.time(|| {
                    for _ in 0..reps {
                        if kernel.normals() {
                            mesh.skin_with_normals(palette, &self.normals, out, out_normals)?;
                        } else {
                            mesh.skin(palette, out)?;
                        }
                    }
                    Ok(())
                })
            }
            Kernel::Dqs4 | Kernel::Dqs4Normals => {
                let mesh = SkinnedMesh::<L, 4>::new(&self.positions, &self.influences)?;
                let duals = &pose.duals;
                watch.time(|| {
                    for _ in 0..reps {
                        if kernel.normals() {
                            mesh.skin_dqs_with_normals(duals, &self.normals, out, out_normals)?;
                        } else {
                            mesh.skin_dqs(duals, out)?;
                        }
                    }
                    Ok(())
                })
            }
        }
    }

    /// Adds the kernel's outputs to `sum`.
    pub fn hash(&self, kernel: Kernel, sum: &mut Checksum) {
        for o in self.out.iter().flatten() {
            sum.add(L::out_to_f32(*o).to_bits());
        }
        if kernel.normals() {
            for n in self.out_normals.iter().flatten() {
                sum.add(n.to_f32().to_bits());
            }
        }
    }
}

/// A random unit vector (rejecting near-zero draws).
fn unit_vector(rng: &mut Rng) -> [f32; 3] {
    loop {
        let v = [rng.signed(), rng.signed(), rng.signed()];
        let len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        if len2 > 1.0 / 16.0 {
            let len = <f32 as skin_core::num::Real>::sqrt(len2);
            return v.map(|c| c / len);
        }
    }
}

/// FNV-1a over 32-bit words: the fingerprint of a kernel's output over the whole mesh.
/// Outputs are hashed as the bits of their `f32` values, which are exact for the fixed
/// lane's formats (at most 19 significant bits here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checksum(pub u32);

impl Default for Checksum {
    fn default() -> Self {
        Self(0x811C_9DC5)
    }
}

impl Checksum {
    /// Mixes in one word.
    pub fn add(&mut self, word: u32) {
        for b in word.to_le_bytes() {
            self.0 = (self.0 ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
    }
}

/// Skins the whole mesh with `kernel` on the host or the device; returns the checksum.
pub fn run<L: Lane>(
    kernel: Kernel,
    pose: &Pose<L>,
    chunk: &mut Chunk<L>,
    reps: u32,
    watch: &mut impl Stopwatch,
) -> Result<Checksum, Error> {
    let mut rng = Rng::new(MESH_SEED);
    let mut sum = Checksum::default();
    for c in 0..CHUNKS {
        chunk.fill(&mut rng, c * CHUNK)?;
        chunk.skin(kernel, pose, reps, watch)?;
        chunk.hash(kernel, &mut sum);
    }
    Ok(sum)
}

/// Vertices of one case of [`check_lane_loop`].
pub const CHECK_VERTICES: usize = 48;
/// The largest palette [`check_lane_loop`] uses.
pub const CHECK_BONES: usize = 70;
/// Palette sizes [`check_lane_loop`] tries: one matrix, a small rig, a full 64-slot table
/// and one past it.
pub const CHECK_PALETTES: [usize; 4] = [1, 9, 64, CHECK_BONES];
/// Rounds of [`check_lane_loop`], each with new random inputs.
pub const CHECK_ROUNDS: u32 = 3;
/// Seed of [`check_lane_loop`].
pub const CHECK_SEED: u32 = 0x0BAD_5EED;

/// A case where the lane's own LBS loop (the one skin-core's dispatch point picks, e.g. the
/// fixed lane's assembly on Cortex-M) and the generic loop disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The round (random inputs).
    pub round: u32,
    /// Matrices in the palette.
    pub bones: usize,
    /// Influences per vertex (`K`).
    pub influences: usize,
    /// Vertices skinned.
    pub len: usize,
    /// Whether normals were skinned too.
    pub normals: bool,
}

/// Rows of `I2F14` bits (as `f32`, exact) at the edge of what the fixed lane accepts: linear
/// parts of L1 norm up to 2 − 3·2⁻¹⁴, translations at both ends of the range.
const EXTREME: [[[f32; 4]; 3]; 2] = {
    const fn q(bits: i32) -> f32 {
        bits as f32 / 16384.0
    }
    [
        [
            [q(16381), q(-16383), q(0), q(32767)],
            [q(0), q(-16381), q(16383), q(-32768)],
            [q(-16000), q(16000), q(-1), q(-1)],
        ],
        [
            [q(-16383), q(-16383), q(0), q(-32768)],
            [q(16383), q(0), q(16383), q(32767)],
            [q(10922), q(10922), q(-10921), q(1)],
        ],
    ]
};

/// The inputs of [`check_lane_loop`] (and of the DQS loop's check, `crate::dqs_check`).
pub struct CheckInputs<L: Lane> {
    /// Bind positions.
    pub positions: [[L; 3]; CHECK_VERTICES],
    /// Normals.
    pub normals: [[L; 3]; CHECK_VERTICES],
    /// Bones of each vertex.
    pub bones: [[u8; 4]; CHECK_VERTICES],
    /// Stored weights as `U1F15` bits.
    pub weights: [[u16; 3]; CHECK_VERTICES],
}

/// The outputs of a lane's loop (`a`) and of the generic loop (`b`), kept equal between
/// cases so that a write past a case's vertices shows as a difference too.
pub struct CheckOutputs<L: Lane> {
    /// The lane's loop's positions.
    pub a: [[L::Out; 3]; CHECK_VERTICES],
    /// The generic loop's positions.
    pub b: [[L::Out; 3]; CHECK_VERTICES],
    /// The lane's loop's normals.
    pub na: [[L; 3]; CHECK_VERTICES],
    /// The generic loop's normals.
    pub nb: [[L; 3]; CHECK_VERTICES],
}

impl<L: Lane> Default for CheckOutputs<L> {
    fn default() -> Self {
        Self {
            a: [[L::Out::default(); 3]; CHECK_VERTICES],
            b: [[L::Out::default(); 3]; CHECK_VERTICES],
            na: [[L::default(); 3]; CHECK_VERTICES],
            nb: [[L::default(); 3]; CHECK_VERTICES],
        }
    }
}

/// Checks that the lane's own LBS loop (what [`SkinnedMesh::skin`] and
/// [`SkinnedMesh::skin_with_normals`] run) gives the generic loop's bits
/// ([`SkinnedMesh::skin_generic`]) on inputs chosen to reach every path of the fixed lane's
/// kernels: weights of exactly 1 in each slot, a lead weight of 0 and near 0, the largest
/// stored weights, vertices of one to four bones with zeros after and between the non-zero
/// stored weights, palettes of 1 to 70 matrices (past a 64-slot table) with entries at the
/// lane's limits, positions at both ends of the range, zero, tiny (collapsing), diagonal and
/// over-long (length overflow) normals, 1 to 4 influences, 0 to 48 vertices, positions alone
/// and with normals, besides random values; each case both over the palette and over its
/// table built beforehand ([`Tabled`], as the frames skin). Returns the number of cases
/// compared, or the first that differs.
pub fn check_lane_loop<L: Lane>() -> Result<Result<u32, Mismatch>, Error> {
    check_loops::<L, Affine<L>>(CHECK_SEED, &CHECK_PALETTES)
}

/// A palette entry of a lane-loop check: a matrix (LBS, [`check_lane_loop`]) or a unit dual
/// quaternion (DQS, `crate::dqs_check`).
pub trait CheckEntry<L: Lane>: Copy {
    /// Storage before a palette is made.
    fn zero() -> Self;
    /// Makes `palette` (as many entries as it holds) for the check.
    fn fill(rng: &mut Rng, palette: &mut [Self]) -> Result<(), Error>;
    /// Skins `mesh` with `palette` by the lane's loop into `out.a` (and `out.na`) and by the
    /// generic loop into `out.b` (and `out.nb`), with `normals` when given.
    fn skin_both<const K: usize>(
        mesh: &SkinnedMesh<'_, L, K>,
        palette: &[Self],
        normals: Option<&[[L; 3]]>,
        out: &mut CheckOutputs<L>,
    ) -> Result<(), Error>;
}

/// Compares the lane's loop with the generic loop for palettes of entries `E` of each size
/// in `palettes` (at most [`CHECK_BONES`]) over [`CHECK_ROUNDS`] rounds of inputs drawn
/// from `seed`: the number of cases compared, or the first that differs.
pub fn check_loops<L: Lane, E: CheckEntry<L>>(
    seed: u32,
    palettes: &[usize],
) -> Result<Result<u32, Mismatch>, Error> {
    let mut rng = Rng::new(seed);
    let mut cases = 0;
    for round in 0..CHECK_ROUNDS {
        for &bones in palettes {
            let case = Mismatch {
                round,
                bones,
                influences: 0,
                len: 0,
                normals: false,
            };
            // Word-aligned, as every `Affine` and `Dual` is (the kernels' `LDRD` and word
            // copies need it: the types guarantee it, so no palette is checked off a word).
            if let Err(m) = check_case::<L, E>(&mut rng, case, &mut cases)? {
                return Ok(Err(m));
            }
        }
    }
    Ok(Ok(cases))
}

/// [`check_loops`]'s `case` with a palette of its own (its own frame, not the caller's:
/// a micro:bit's 16 KiB of stack is short).
#[inline(never)]
fn check_case<L: Lane, E: CheckEntry<L>>(
    rng: &mut Rng,
    case: Mismatch,
    cases: &mut u32,
) -> Result<Result<(), Mismatch>, Error> {
    let mut entries = [E::zero(); CHECK_BONES];
    let palette = &mut entries[..case.bones];
    E::fill(rng, palette)?;
    check_with(rng, palette, case, cases)
}

/// [`check_loops`]'s `case` on `palette`: new inputs, both loops with 1 to 4 influences.
#[inline(never)]
fn check_with<L: Lane, E: CheckEntry<L>>(
    rng: &mut Rng,
    palette: &[E],
    mut case: Mismatch,
    cases: &mut u32,
) -> Result<Result<(), Mismatch>, Error> {
    let mut inputs = CheckInputs::<L>::default();
    check_inputs(rng, palette.len(), &mut inputs)?;
    let mut outputs = CheckOutputs::<L>::default();
    let (p, i, o, c) = (palette, &inputs, &mut outputs, &mut case);
    let same = compare::<L, E, 1>(p, i, o, c, cases)?
        && compare::<L, E, 2>(p, i, o, c, cases)?
        && compare::<L, E, 3>(p, i, o, c, cases)?
        && compare::<L, E, 4>(p, i, o, c, cases)?;
    Ok(if same { Ok(()) } else { Err(case) })
}

impl<L: Lane> CheckEntry<L> for Affine<L> {
    fn zero() -> Self {
        Affine {
            rows: [[L::default(); 4]; 3],
        }
    }
    fn fill(rng: &mut Rng, palette: &mut [Self]) -> Result<(), Error> {
        check_palette(rng, palette)
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
                mesh.skin_with_normals(palette, n, a, &mut out.na[..len])?;
                mesh.skin_with_normals_generic(palette, n, b, &mut out.nb[..len])?;
            }
            None => {
                mesh.skin(palette, a)?;
                mesh.skin_generic(palette, b)?;
            }
        }
        // The lane's loop agreed: then the same over the palette's table (each case both
        // ways: a difference now is the table's), for four influences, the only loop that
        // reads one (not the others' code twice: the micro:bit's flash is short).
        if K == 4 && out.a == out.b && out.na == out.nb {
            skin_tabled(mesh, palette, normals, out)?;
        }
        Ok(())
    }
}

/// The largest palette the lane-loop check builds a table of ([`Tabled`]: the frames' way,
/// once for many calls): up to the ARMv6-M kernel's 64-matrix stack table, so that the
/// check's 70 matrices take the route a palette past a table takes.
const CHECK_TABLED: usize = 64;

/// The lane's loop over `palette`'s [`Tabled`] form into `out.a` (and `out.na`). Its own
/// frame: the table (48 bytes a matrix on ARMv6-M) is not on the stack beside the other
/// loops'.
#[inline(never)]
fn skin_tabled<L: Lane, const K: usize>(
    mesh: &SkinnedMesh<'_, L, K>,
    palette: &[Affine<L>],
    normals: Option<&[[L; 3]]>,
    out: &mut CheckOutputs<L>,
) -> Result<(), Error> {
    let tabled = Tabled::<L, CHECK_TABLED>::new(palette);
    let len = mesh.len();
    match normals {
        Some(n) => mesh.skin_with_normals_tabled(&tabled, n, &mut out.a[..len], &mut out.na[..len]),
        None => mesh.skin_tabled(&tabled, &mut out.a[..len]),
    }
}

/// A palette for [`check_lane_loop`] (as many matrices as `palette` holds): identities, the
/// [`EXTREME`] ones and random ones (linear entries in [−0.6, 0.6), translations in
/// [−1.9, 1.9)); each must [fit](Lane::fits) the lane.
fn check_palette<L: Lane>(rng: &mut Rng, palette: &mut [Affine<L>]) -> Result<(), Error> {
    for (index, m) in palette.iter_mut().enumerate() {
        let rows = match index % 8 {
            1 => Affine::<f32>::IDENTITY.rows,
            2 | 5 => EXTREME[index % 2],
            _ => [0; 3].map(|_| {
                let t = 1.9 * rng.signed();
                [
                    0.6 * rng.signed(),
                    0.6 * rng.signed(),
                    0.6 * rng.signed(),
                    t,
                ]
            }),
        };
        let overflow = Error::Overflow {
            what: Quantity::Palette,
            index,
            format: L::NAME,
        };
        for (o, r) in m.rows.iter_mut().flatten().zip(rows.iter().flatten()) {
            *o = L::from_f32(*r).map_err(|_| overflow)?;
        }
        if !L::fits(m) {
            return Err(overflow);
        }
    }
    Ok(())
}

impl<L: Lane> Default for CheckInputs<L> {
    fn default() -> Self {
        Self {
            positions: [[L::default(); 3]; CHECK_VERTICES],
            normals: [[L::default(); 3]; CHECK_VERTICES],
            bones: [[0; 4]; CHECK_VERTICES],
            weights: [[0; 3]; CHECK_VERTICES],
        }
    }
}

/// Positions, normals, bones and weights for [`check_lane_loop`] over a palette of `bones`
/// (entry 1 the identity).
pub fn check_inputs<L: Lane>(
    rng: &mut Rng,
    bones: usize,
    inputs: &mut CheckInputs<L>,
) -> Result<(), Error> {
    const Q: f32 = 1.0 / 16384.0;
    const MAX: f32 = 32767.0 * Q;
    for v in 0..CHECK_VERTICES {
        let position = match v % 11 {
            0 => [-2.0, MAX, -2.0],
            1 => [MAX, -2.0, MAX],
            _ => [rng.signed(), rng.signed(), rng.signed()],
        };
        let normal = match v % 13 {
            3 => [0.0; 3],
            4 => [9459.0 * Q, -9459.0 * Q, 9459.0 * Q],
            5 => [-2.0; 3],
            6 => [Q, 0.0, -Q],
            7 => [MAX; 3],
            8 => [-2.0, MAX, 0.0],
            // Under the identity (below): squared lengths of 256 (the smallest kept) and 225
            // in the fixed lane, and in `f32` exactly `f32::MIN_POSITIVE` (2⁻⁶³ squared, the
            // largest collapsed; 0 in the fixed lane).
            9 => [16.0 * Q, 0.0, 0.0],
            10 => [0.0, 0.0, -15.0 * Q],
            11 => [1.0 / (1u64 << 63) as f32, 0.0, 0.0],
            // Under the identity too: squared lengths of 2²⁰ and 8191² (just under 2²⁶) in
            // the fixed lane, the ends of the range whose normalisation the M0 kernel reads
            // from its table by len2 >> 20.
            12 => [0.0, 1024.0 * Q, 0.0],
            2 => [-8191.0 * Q, 0.0, 0.0],
            _ => unit_vector(rng),
        };
        let conv = |p: [f32; 3], what| {
            let mut out = [L::default(); 3];
            for (o, c) in out.iter_mut().zip(p) {
                *o = L::from_f32(c).map_err(|_| Error::Overflow {
                    what,
                    index: v,
                    format: L::NAME,
                })?;
            }
            Ok(out)
        };
        inputs.positions[v] = conv(position, Quantity::Position)?;
        inputs.normals[v] = conv(normal, Quantity::Normal)?;
        let top = bones as u32 - 1;
        inputs.bones[v] = match (v % 13, v % 5) {
            // Matrix 1 is the identity.
            (2 | 9..=12, _) if bones > 1 => [1; 4],
            (_, 0) => [top, 0, top, 0].map(|b| b as u8),
            _ => [0; 4].map(|_| rng.below(bones as u32) as u8),
        };
        // A random stored weight that is not 0.
        let some = |rng: &mut Rng| 1 + (rng.next_u32() % 10922) as u16;
        inputs.weights[v] = match v % 16 {
            // A weight of exactly 1 in each slot (the others 0).
            0 => [0; 3],
            1 => [0x8000, 0, 0],
            2 => [0, 0x8000, 0],
            3 => [0, 0, 0x8000],
            // The largest stored weights below 1, a lead weight of 0, w0 near 0.
            4 => [0x7fff, 1, 0],
            5 => [0x4000, 0x4000, 0],
            6 => [0x2aaa, 0x2aaa, 0x2aab],
            7 => [0x2000, 0x2000, 0x3fff],
            // Two and three bones (the zeros trailing, as the importer sorts them), and
            // zeros before the last non-zero weight: the ARMv6-M kernel blends a vertex's
            // bones up to its last non-zero weight.
            8 => [some(rng), 0, 0],
            9 => [some(rng), some(rng), 0],
            10 => [0, some(rng), 0],
            11 => [some(rng), 0, some(rng)],
            12 => [0, some(rng), some(rng)],
            _ => [0; 3].map(|_| (rng.next_u32() % 10923) as u16),
        };
    }
    Ok(())
}

/// The influences of `inputs` with `K` bones each: the weights of slots `K` and beyond are
/// dropped (the mesh accepts none there).
pub fn check_influences<L: Lane, const K: usize>(
    inputs: &CheckInputs<L>,
) -> Result<[Influence<L>; CHECK_VERTICES], Error> {
    let mut influences = [Influence::<L>::default(); CHECK_VERTICES];
    for (v, inf) in influences.iter_mut().enumerate() {
        let mut w = [L::Weight::default(); 3];
        for (k, (w, &bits)) in w.iter_mut().zip(&inputs.weights[v]).enumerate() {
            if k + 1 < K {
                *w =
                    L::weight_from_f32(f32::from(bits) / 32768.0).map_err(|_| Error::Overflow {
                        what: Quantity::Weight,
                        index: v,
                        format: L::NAME,
                    })?;
            }
        }
        *inf = Influence::from_stored(inputs.bones[v], w).ok_or(Error::WeightSum {
            vertex: v,
            sum: 2.0,
        })?;
    }
    Ok(influences)
}

/// Skins the first `len` vertices of `inputs` with `K` influences by both loops, for every
/// `len` of a few and with and without normals; `Ok(false)` (with `case` set) at the first
/// difference.
#[inline(never)]
fn compare<L: Lane, E: CheckEntry<L>, const K: usize>(
    palette: &[E],
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
        for normals in [true, false] {
            case.normals = normals;
            E::skin_both(
                &mesh,
                palette,
                normals.then_some(&inputs.normals[..len]),
                out,
            )?;
            *cases += 1;
            if out.a != out.b || out.na != out.nb {
                return Ok(false);
            }
        }
    }
    Ok(true)
}
