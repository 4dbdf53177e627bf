//! Random rigs for the core property tests, built from a seed, and the two ways of skinning
//! them: skin-core (generic over the scalar and the lane) and the f64 oracle.
//!
//! A rig is what a baked asset holds: a skeleton whose bone heads, in the rest pose and in
//! the animated pose, lie inside a ball of radius `0.9·scale` around the origin, and a mesh
//! whose bind positions lie inside the cube `(−scale, scale)³`. With `scale = 1` (asset
//! units) every palette matrix `W·B⁻¹` is a rotation (rows of L1 norm ≤ √3 < 2) with a
//! translation below `0.9 + 0.9 < 2`, so it fits the fixed lane's formats by construction.
#![allow(dead_code)] // each test binary uses part of it

use skin_core::prelude::*;
use skin_tests::oracle::{self, M34, V3};

/// Palette capacity used throughout: vs_2_0 with 3×4 matrices (85 bones).
pub const CAP: usize = Budget::VS_2_0.capacity(Layout::Affine3x4);

/// A local transform as the asset stores it, in `f32`.
#[derive(Clone, Copy, Debug)]
pub struct Trs {
    pub t: [f32; 3],
    pub q: [f32; 4],
    pub s: [f32; 3],
}

impl Trs {
    pub fn to_core<R: Real>(self) -> Transform<R> {
        Transform::from_f32(self.t, self.q, self.s).expect("generated transforms are in range")
    }
    pub fn to_oracle(self) -> M34 {
        oracle::trs(
            self.t.map(f64::from),
            self.q.map(f64::from),
            self.s.map(f64::from),
        )
    }
}

/// A vertex's influences: palette indices and weights (summing to one).
#[derive(Clone, Copy, Debug)]
pub struct Inf {
    pub bones: [u8; 4],
    pub weights: [f32; 4],
}

#[derive(Clone, Debug)]
pub struct Rig {
    pub parents: Vec<Option<usize>>,
    pub rest: Vec<Trs>,
    pub pose: Vec<Trs>,
    /// Bone index of each palette entry.
    pub joints: Vec<usize>,
    pub positions: Vec<[f32; 3]>,
    pub normals: Vec<[f32; 3]>,
    pub influences: Vec<Inf>,
}

/// splitmix64: a tiny, well-mixed generator so one proptest seed reproduces a whole rig.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    /// A uniformly distributed unit quaternion (any rotation, either hemisphere).
    pub fn quat(&mut self) -> [f64; 4] {
        loop {
            let q = [0; 4].map(|_| self.range(-1.0, 1.0));
            let n2: f64 = q.iter().map(|v| v * v).sum();
            if (0.01..=1.0).contains(&n2) {
                return oracle::normalize_quat(q);
            }
        }
    }
    /// Uniform in the ball of radius `r`.
    pub fn in_ball(&mut self, r: f64) -> V3 {
        loop {
            let p = [0; 3].map(|_| self.range(-1.0, 1.0));
            if oracle::norm(p) <= 1.0 {
                return p.map(|v| v * r);
            }
        }
    }
}

/// Local transforms (scale 1) that put the bones at world frames `(q, o)`.
fn locals_from_world(parents: &[Option<usize>], frames: &[([f64; 4], V3)]) -> Vec<Trs> {
    frames
        .iter()
        .zip(parents)
        .map(|(&(q, o), parent)| {
            let (q, t) = match *parent {
                None => (q, o),
                Some(p) => {
                    let (qp, op) = frames[p];
                    let rp = oracle::quat_to_matrix(qp);
                    let d = [o[0] - op[0], o[1] - op[1], o[2] - op[2]];
                    (
                        oracle::quat_mul(oracle::quat_conj(qp), q),
                        oracle::transpose_apply(&rp, d),
                    )
                }
            };
            Trs {
                t: t.map(|v| v as f32),
                q: q.map(|v| v as f32),
                s: [1.0; 3],
            }
        })
        .collect()
}

impl Rig {
    /// A rig of `bones` bones and `vertices` vertices at `scale` (1 = asset units).
    pub fn random(seed: u64, bones: usize, vertices: usize, scale: f64) -> Rig {
        assert!((1..=CAP).contains(&bones));
        let mut rng = Rng::new(seed);
        let parents: Vec<Option<usize>> = (0..bones)
            .map(|i| {
                // Mostly one tree, sometimes a forest.
                (i > 0 && rng.below(12) != 0).then(|| rng.below(i))
            })
            .collect();
        let frames = |rng: &mut Rng| -> Vec<([f64; 4], V3)> {
            (0..bones)
                .map(|_| (rng.quat(), rng.in_ball(0.9 * scale)))
                .collect()
        };
        let rest_frames = frames(&mut rng);
        let pose_frames = frames(&mut rng);
        let rest = locals_from_world(&parents, &rest_frames);
        let pose = locals_from_world(&parents, &pose_frames);
        // Palette order is a rotation of the bone order: joint j drives bone (j + k) mod n.
        let k = rng.below(bones);
        let joints = (0..bones).map(|j| (j + k) % bones).collect();
        let positions = (0..vertices)
            .map(|_| [0; 3].map(|_| (rng.range(-0.99, 0.99) * scale) as f32))
            .collect();
        let normals = (0..vertices)
            .map(|_| {
                let n = rng.in_ball(1.0);
                let l = oracle::norm(n).max(1e-3);
                n.map(|v| (v / l) as f32)
            })
            .collect();
        let influences = (0..vertices)
            .map(|_| {
                let count = 1 + rng.below(4);
                let mut bones_v = [0u8; 4];
                let mut raw = [0.0f64; 4];
                for (b, w) in bones_v.iter_mut().zip(&mut raw).take(count) {
                    *b = rng.below(bones) as u8;
                    *w = rng.range(0.05, 1.0);
                }
                let sum: f64 = raw.iter().sum();
                let mut weights = raw.map(|w| (w / sum) as f32);
                // Make the f32 weights sum to one as closely as f32 allows.
                weights[0] = 1.0 - weights[1..].iter().sum::<f32>();
                Inf {
                    bones: bones_v,
                    weights,
                }
            })
            .collect();
        Rig {
            parents,
            rest,
            pose,
            joints,
            positions,
            normals,
            influences,
        }
    }

    pub fn parents_u16(&self) -> Vec<Option<u16>> {
        self.parents.iter().map(|p| p.map(|p| p as u16)).collect()
    }

    pub fn joints_u16(&self) -> Vec<u16> {
        self.joints.iter().map(|&j| j as u16).collect()
    }

    /// The bind mesh's extent (bounding-box diagonal), in the rig's units.
    pub fn extent(&self) -> f64 {
        let pts: Vec<V3> = self.positions.iter().map(|p| p.map(f64::from)).collect();
        oracle::extent(&pts)
    }

    /// The oracle's palette, `W·B⁻¹` with `B` the rest-pose world matrices.
    pub fn oracle_palette(&self) -> Vec<M34> {
        self.oracle_palette_under(&oracle::IDENTITY)
    }

    /// The oracle's palette with the animated skeleton placed under `root`.
    pub fn oracle_palette_under(&self, root: &M34) -> Vec<M34> {
        let rest: Vec<M34> = self.rest.iter().map(|t| t.to_oracle()).collect();
        let pose: Vec<M34> = self.pose.iter().map(|t| t.to_oracle()).collect();
        let bind_world = oracle::forward_kinematics(&self.parents, &rest, &oracle::IDENTITY);
        let world = oracle::forward_kinematics(&self.parents, &pose, root);
        let inverse_binds: Vec<M34> = self
            .joints
            .iter()
            .map(|&b| oracle::inverse(&bind_world[b]).expect("rotations are invertible"))
            .collect();
        oracle::palette(&world, &self.joints, &inverse_binds)
    }

    /// The core's palette in lane `L`, with the animated skeleton under `root`.
    pub fn core_palette<L: Lane>(&self, root: Affine<L::Real>) -> Result<Palette<L, CAP>, Error> {
        let rest: Vec<Transform<L::Real>> = self.rest.iter().map(|t| t.to_core()).collect();
        let pose: Vec<Transform<L::Real>> = self.pose.iter().map(|t| t.to_core()).collect();
        let skeleton = Skeleton::<L::Real, CAP>::new(&self.parents_u16(), &rest)?;
        let mut world = vec![Affine::IDENTITY; self.parents.len()];
        skeleton.world(&rest, &mut world)?;
        let bind = BindPose::<L::Real, CAP>::from_bind_world(&self.joints_u16(), &world)?;
        bind.check_budget(&Budget::VS_2_0, Layout::Affine3x4)?;
        let skeleton = skeleton.with_root(root);
        skeleton.world(&pose, &mut world)?;
        let mut palette = Palette::new();
        bind.palette(&world, &mut palette)?;
        Ok(palette)
    }

    /// Positions in lane `L` (rounded as a baker would store them).
    pub fn core_positions<L: Lane>(&self) -> Vec<[L; 3]> {
        self.positions
            .iter()
            .map(|p| p.map(|v| L::from_f32(v).expect("positions are in range")))
            .collect()
    }

    pub fn core_normals<L: Lane>(&self) -> Vec<[L; 3]> {
        self.normals
            .iter()
            .map(|n| n.map(|v| L::from_f32(v).expect("unit normals are in range")))
            .collect()
    }

    pub fn core_influences<L: Lane>(&self) -> Vec<Influence<L>> {
        self.influences
            .iter()
            .enumerate()
            .map(|(v, i)| Influence::from_weights(i.bones, i.weights, v).expect("valid weights"))
            .collect()
    }

    /// Skin with the core's 4-influence kernel: positions and normals as `f64`.
    pub fn core_skin<L: Lane>(&self, palette: &Palette<L, CAP>) -> (Vec<V3>, Vec<V3>) {
        let positions = self.core_positions::<L>();
        let normals = self.core_normals::<L>();
        let influences = self.core_influences::<L>();
        let mesh = SkinnedMesh::<L, 4>::new(&positions, &influences).expect("valid mesh");
        let mut out = vec![[L::Out::default(); 3]; positions.len()];
        let mut out_n = vec![[L::default(); 3]; positions.len()];
        mesh.skin_with_normals(palette.as_slice(), &normals, &mut out, &mut out_n)
            .expect("palette holds every bone");
        // Positions alone must agree with positions-with-normals.
        let mut out_p = vec![[L::Out::default(); 3]; positions.len()];
        mesh.skin(palette.as_slice(), &mut out_p).expect("skin");
        assert_eq!(
            out, out_p,
            "skin and skin_with_normals disagree on positions"
        );
        (
            out.iter()
                .map(|o| o.map(|v| f64::from(L::out_to_f32(v))))
                .collect(),
            out_n
                .iter()
                .map(|n| n.map(|v| f64::from(v.to_f32())))
                .collect(),
        )
    }

    /// The oracle's skinned positions and (unnormalised) normals, from the inputs exactly as
    /// lane `L` holds them (positions, normals and weights after rounding to its formats).
    pub fn oracle_skin<L: Lane>(&self, palette: &[M34]) -> (Vec<V3>, Vec<V3>) {
        let positions = self.core_positions::<L>();
        let normals = self.core_normals::<L>();
        let influences = self.core_influences::<L>();
        let mut ps = Vec::new();
        let mut ns = Vec::new();
        for ((p, n), inf) in positions.iter().zip(&normals).zip(&influences) {
            let p = p.map(|v| f64::from(v.to_f32()));
            let n = n.map(|v| f64::from(v.to_f32()));
            let bones = inf.bones().map(usize::from);
            let weights = inf.weights().map(f64::from);
            ps.push(oracle::lbs_point(palette, &bones, &weights, p));
            ns.push(oracle::lbs_normal_unnormalised(
                palette, &bones, &weights, n,
            ));
        }
        (ps, ns)
    }

    /// The oracle's skinned positions from the original `f32` inputs (no rounding to a lane).
    pub fn oracle_skin_exact(&self, palette: &[M34]) -> Vec<V3> {
        self.positions
            .iter()
            .zip(&self.influences)
            .map(|(p, inf)| {
                let bones = inf.bones.map(usize::from);
                let weights = inf.weights.map(f64::from);
                oracle::lbs_point(palette, &bones, &weights, p.map(f64::from))
            })
            .collect()
    }
}
