//! Deterministic synthetic skinning data shared by the benches: a 19-bone palette (random
//! rotations of moderate size, small translations) and meshes with unit normals and four
//! influences per vertex (largest weight about 0.6), in every form the benched kernels take.

use glam::{Mat4, Quat, Vec3, Vec4};
use skin_core::affine::Affine;
use skin_core::dual::Dual;
use skin_core::lane::Lane;
use skin_core::lane::Q14;
use skin_core::num::Fx;
use skin_core::palette::{DualPalette, Palette};
use skin_core::vertex::Influence;

/// Bones of the synthetic skeleton (as RiggedFigure and CesiumMan).
pub const BONES: usize = 19;

/// Mesh sizes: RiggedFigure (370 vertices) and CesiumMan (3273).
pub const SIZES: [usize; 2] = [370, 3273];

/// SplitMix64: a small deterministic generator, so every run benches the same data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A uniformly distributed unit vector.
    pub fn direction(&mut self) -> [f32; 3] {
        loop {
            let v = [0; 3].map(|_| self.range(-1.0, 1.0));
            let len2 = v.iter().map(|c| c * c).sum::<f32>();
            if (0.01..=1.0).contains(&len2) {
                let inv = 1.0 / len2.sqrt();
                return v.map(|c| c * inv);
            }
        }
    }
}

/// Row-major rotation by `angle` radians about the unit `axis` (Rodrigues).
fn rotation(axis: [f32; 3], angle: f32) -> [[f32; 3]; 3] {
    let [x, y, z] = axis;
    let (s, c) = angle.sin_cos();
    let t = 1.0 - c;
    [
        [t * x * x + c, t * x * y - s * z, t * x * z + s * y],
        [t * x * y + s * z, t * y * y + c, t * y * z - s * x],
        [t * x * z - s * y, t * y * z + s * x, t * z * z + c],
    ]
}

/// One skinning pose: each bone rotated up to ±0.6 rad about a random axis and moved up to
/// 0.25 units on each axis (so skinned positions stay inside the fixed lane's [−2, 2)).
pub fn palette_rows(rng: &mut Rng) -> [[[f32; 4]; 3]; BONES] {
    core::array::from_fn(|_| {
        let r = rotation(rng.direction(), rng.range(-0.6, 0.6));
        core::array::from_fn(|i| [r[i][0], r[i][1], r[i][2], rng.range(-0.25, 0.25)])
    })
}

/// Four distinct bones, the first drawn at random and the others near it in index order
/// (neighbouring bones of a chain), with weights largest first: about 0.6, then the rest
/// split unevenly among the other three.
fn influence(rng: &mut Rng) -> ([u8; 4], [f32; 4]) {
    let first = rng.below(BONES);
    let mut bones = [first; 4];
    let mut k = 1;
    while k < 4 {
        let offset = rng.below(7) as isize - 3;
        let b = (first as isize + offset).rem_euclid(BONES as isize) as usize;
        if !bones[..k].contains(&b) {
            bones[k] = b;
            k += 1;
        }
    }
    let w0 = rng.range(0.45, 0.75);
    let a = rng.range(0.5, 0.7) * (1.0 - w0);
    let b = rng.range(0.6, 0.8) * (1.0 - w0 - a);
    let w = [w0, a, b, 1.0 - w0 - a - b];
    (bones.map(|b| b as u8), w)
}

/// A mesh in plain `f32` arrays (the form the comparison loops take).
pub struct Raw {
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub bones: Vec<[u8; 4]>,
    pub weights: Vec<[f32; 4]>,
    pub palette: [[[f32; 4]; 3]; BONES],
}

impl Raw {
    /// `n` vertices with positions in (−1, 1) and unit normals.
    pub fn new(n: usize, seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let palette = palette_rows(&mut rng);
        let mut raw = Raw {
            positions: Vec::with_capacity(n),
            normals: Vec::with_capacity(n),
            bones: Vec::with_capacity(n),
            weights: Vec::with_capacity(n),
            palette,
        };
        for _ in 0..n {
            raw.positions.push([0; 3].map(|_| rng.range(-0.95, 0.95)));
            raw.normals.push(rng.direction());
            let (b, w) = influence(&mut rng);
            raw.bones.push(b);
            raw.weights.push(w);
        }
        raw
    }
}

/// The mesh and palette in one skin-core lane.
pub struct Lanes<L: Lane> {
    pub positions: Vec<[L; 3]>,
    pub normals: Vec<[L; 3]>,
    pub influences: Vec<Influence<L>>,
    /// Each vertex's largest-weight bone (for stitching).
    pub rigid: Vec<u8>,
    pub palette: Palette<L, BONES>,
    /// The palette as unit dual quaternions (DQS).
    pub duals: DualPalette<L, BONES>,
    pub out: Vec<[L::Out; 3]>,
    pub out_normals: Vec<[L; 3]>,
}

impl<L: Lane> Lanes<L> {
    /// Converts `raw`; `palette` narrows one matrix (its `Real` is the lane's palette scalar).
    pub fn new(raw: &Raw, palette: impl Fn(&[[f32; 4]; 3]) -> Affine<L::Real>) -> Self {
        let conv = |v: &[f32; 3]| v.map(|c| L::from_f32(c).expect("coordinate fits the lane"));
        let influences: Vec<Influence<L>> = raw
            .bones
            .iter()
            .zip(&raw.weights)
            .enumerate()
            .map(|(i, (&b, &w))| Influence::from_weights(b, w, i).expect("valid weights"))
            .collect();
        let (mut pal, mut duals) = (Palette::new(), DualPalette::new());
        for rows in &raw.palette {
            let m = palette(rows);
            pal.push(&m).expect("palette matrix fits the lane");
            duals.push(&m).expect("a rotation and translation");
        }
        let n = raw.positions.len();
        Self {
            positions: raw.positions.iter().map(conv).collect(),
            normals: raw.normals.iter().map(conv).collect(),
            rigid: influences.iter().map(|i| i.bones()[0]).collect(),
            influences,
            palette: pal,
            duals,
            out: vec![[L::Out::default(); 3]; n],
            out_normals: vec![[L::default(); 3]; n],
        }
    }
}

/// The `f32` lane of `raw`.
pub fn float(raw: &Raw) -> Lanes<f32> {
    Lanes::new(raw, |rows| Affine { rows: *rows })
}

/// The fixed-point lane of `raw`.
pub fn fixed(raw: &Raw) -> Lanes<Q14> {
    Lanes::new(raw, |rows| {
        Affine::<Fx>::from_f32(*rows).expect("fits I8F24")
    })
}

/// The mesh as a straightforward glam program holds it.
pub struct Glam {
    pub palette: Vec<Mat4>,
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    joints: Vec<[u16; 4]>,
    weights: Vec<Vec4>,
    out: Vec<Vec3>,
    out_normals: Vec<Vec3>,
}

impl Glam {
    pub fn new(raw: &Raw) -> Self {
        let mat = |r: &[[f32; 4]; 3]| {
            Mat4::from_cols_array_2d(&[
                [r[0][0], r[1][0], r[2][0], 0.0],
                [r[0][1], r[1][1], r[2][1], 0.0],
                [r[0][2], r[1][2], r[2][2], 0.0],
                [r[0][3], r[1][3], r[2][3], 1.0],
            ])
        };
        let n = raw.positions.len();
        Self {
            palette: raw.palette.iter().map(mat).collect(),
            positions: raw.positions.iter().map(|&p| Vec3::from(p)).collect(),
            normals: raw.normals.iter().map(|&p| Vec3::from(p)).collect(),
            joints: raw.bones.iter().map(|b| b.map(u16::from)).collect(),
            weights: raw.weights.iter().map(|&w| Vec4::from(w)).collect(),
            out: vec![Vec3::ZERO; n],
            out_normals: vec![Vec3::ZERO; n],
        }
    }

    /// Inlined: left as a call, the loop returns each `Mat4` through the stack, and its
    /// time then varies between runs (2-4x, with the stack's address) on the machine of
    /// docs/BENCHMARKS.md; inlined it is steady, as in the peers bench.
    #[inline(always)]
    fn blend(palette: &[Mat4], j: &[u16; 4], w: Vec4) -> Mat4 {
        palette[usize::from(j[0])] * w.x
            + palette[usize::from(j[1])] * w.y
            + palette[usize::from(j[2])] * w.z
            + palette[usize::from(j[3])] * w.w
    }

    /// LBS-4 positions.
    pub fn skin(&mut self, palette: &[Mat4]) {
        let verts = self.positions.iter().zip(&self.joints).zip(&self.weights);
        for (((&p, j), &w), o) in verts.zip(&mut self.out) {
            *o = Self::blend(palette, j, w).transform_point3(p);
        }
    }

    /// LBS-4 positions and normals.
    pub fn skin_with_normals(&mut self, palette: &[Mat4]) {
        let verts = self.positions.iter().zip(&self.normals);
        let infl = self.joints.iter().zip(&self.weights);
        let outs = self.out.iter_mut().zip(&mut self.out_normals);
        for (((&p, &n), (j, &w)), (o, on)) in verts.zip(infl).zip(outs) {
            let m = Self::blend(palette, j, w);
            *o = m.transform_point3(p);
            *on = m.transform_vector3(n).normalize();
        }
    }
}

/// The mesh as a straightforward glam program skins it by dual quaternions: per bone a
/// `(rotation, dual)` pair of `Quat`s, per vertex the weighted sum with each pair flipped to
/// the first bone's hemisphere, normalised by the rotation's length, the translation
/// `2·d·r*`, then `r·p + t` (and `r·n` for normals, which stay unit).
pub struct GlamDq {
    pub palette: Vec<(Quat, Quat)>,
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    joints: Vec<[u16; 4]>,
    weights: Vec<Vec4>,
    out: Vec<Vec3>,
    out_normals: Vec<Vec3>,
}

impl GlamDq {
    pub fn new(raw: &Raw) -> Self {
        let pair = |rows: &[[f32; 4]; 3]| {
            let d = Dual::from_rigid(&Affine { rows: *rows }).expect("a rotation and translation");
            (Quat::from_array(d.real), Quat::from_array(d.dual))
        };
        let n = raw.positions.len();
        Self {
            palette: raw.palette.iter().map(pair).collect(),
            positions: raw.positions.iter().map(|&p| Vec3::from(p)).collect(),
            normals: raw.normals.iter().map(|&p| Vec3::from(p)).collect(),
            joints: raw.bones.iter().map(|b| b.map(u16::from)).collect(),
            weights: raw.weights.iter().map(|&w| Vec4::from(w)).collect(),
            out: vec![Vec3::ZERO; n],
            out_normals: vec![Vec3::ZERO; n],
        }
    }

    /// The vertex's blended rotation and translation (inlined, as [`Glam::blend`]).
    #[inline(always)]
    fn blend(palette: &[(Quat, Quat)], j: &[u16; 4], w: Vec4) -> (Quat, Vec3) {
        let (r0, d0) = palette[usize::from(j[0])];
        let (mut r, mut d) = (Vec4::from(r0) * w.x, Vec4::from(d0) * w.x);
        for k in 1..4 {
            let (rk, dk) = palette[usize::from(j[k])];
            let wk = if r0.dot(rk) < 0.0 { -w[k] } else { w[k] };
            r += Vec4::from(rk) * wk;
            d += Vec4::from(dk) * wk;
        }
        let inv = r.length_recip();
        let (r, d) = (Quat::from_vec4(r * inv), Quat::from_vec4(d * inv));
        let t = d * r.conjugate();
        (r, 2.0 * Vec3::new(t.x, t.y, t.z))
    }

    /// Panics unless this loop's last positions and normals are within `tolerance` of
    /// `positions` and `normals` (skin-core's on the same data): the peer computes DQS.
    pub fn check(&self, positions: &[[f32; 3]], normals: &[[f32; 3]], tolerance: f32) {
        let pairs = self.out.iter().zip(positions);
        for (k, (a, b)) in pairs
            .chain(self.out_normals.iter().zip(normals))
            .enumerate()
        {
            let d = (*a - Vec3::from(*b)).abs().max_element();
            assert!(d <= tolerance, "output {k}: glam {a} vs skin-core {b:?}");
        }
    }

    /// DQS-4 positions.
    pub fn skin(&mut self, palette: &[(Quat, Quat)]) {
        let verts = self.positions.iter().zip(&self.joints).zip(&self.weights);
        for (((&p, j), &w), o) in verts.zip(&mut self.out) {
            let (r, t) = Self::blend(palette, j, w);
            *o = r * p + t;
        }
    }

    /// DQS-4 positions and normals.
    pub fn skin_with_normals(&mut self, palette: &[(Quat, Quat)]) {
        let verts = self.positions.iter().zip(&self.normals);
        let infl = self.joints.iter().zip(&self.weights);
        let outs = self.out.iter_mut().zip(&mut self.out_normals);
        for (((&p, &n), (j, &w)), (o, on)) in verts.zip(infl).zip(outs) {
            let (r, t) = Self::blend(palette, j, w);
            *o = r * p + t;
            *on = r * n;
        }
    }
}
