//! Random rigs of stretched joints (uniform or per-axis scale from ¼ to 4× along random
//! axes, a shear in the joint's frame) for dual quaternion skinning with scale: the bones
//! as the f64 oracle holds them ([`StretchedBone`]), their `f32` joint matrices, a mesh of
//! 64 vertices with one to four influences, and the oracle's and skin-core's results.

use skin_core::affine::Affine;
use skin_core::lane::Lane;
use skin_core::palette::StretchPalette;
use skin_core::skin::SkinnedMesh;
use skin_core::vertex::Influence;

use crate::dual_oracle::{self, Bone, StretchedBone};
use crate::oracle::{self, V3};
use crate::Rng;

/// Palette capacity: vs_2_0 with dual quaternions (128 bones).
pub const CAP: usize = 128;

/// A random unit quaternion.
pub fn rotation(rng: &mut Rng) -> [f64; 4] {
    let q = [0; 4].map(|_| f64::from(rng.range(-1.0, 1.0)));
    let l = q.iter().map(|c| c * c).sum::<f64>().sqrt().max(1e-3);
    q.map(|c| c / l)
}

/// A rig of stretched bones, vertices with 1–4 influences (or exactly one with `single`).
pub struct Rig {
    /// The bones (bone 0 rigid).
    pub bones: Vec<StretchedBone>,
    /// Bind positions.
    pub positions: Vec<[f32; 3]>,
    /// Bind normals (unit).
    pub normals: Vec<[f32; 3]>,
    /// Influences over the bones.
    pub influences: Vec<Influence<f32>>,
}

impl Rig {
    /// `per_axis`: each bone's three scales drawn apart, else one for all three.
    pub fn random(seed: u64, bones: usize, per_axis: bool, single: bool) -> Self {
        let mut rng = Rng(seed | 1);
        let bones = (0..bones)
            .map(|b| {
                let q = rotation(&mut rng);
                let t = [0; 3].map(|_| f64::from(rng.range(-2.0, 2.0)));
                // Bone 0 stays rigid: palettes mix rigid and stretched joints.
                let mut d = [0; 3].map(|_| 2f64.powf(f64::from(rng.range(-2.0, 2.0))));
                if !per_axis {
                    d = [d[0]; 3];
                }
                if b == 0 {
                    d = [1.0; 3];
                }
                // S = Aᵀ·diag(d)·A for a random rotation A.
                let a = oracle::quat_to_matrix(rotation(&mut rng));
                let s = [0, 1, 2]
                    .map(|i| [0, 1, 2].map(|j| (0..3).map(|k| a[k][i] * d[k] * a[k][j]).sum()));
                StretchedBone {
                    bone: Bone { q, t },
                    s,
                }
            })
            .collect::<Vec<_>>();
        let n = bones.len();
        let vertices = 64;
        let positions = (0..vertices).map(|_| rng.point(1.98)).collect();
        let normals = (0..vertices)
            .map(|_| {
                let v = rng.point(2.0).map(f64::from);
                let l = oracle::norm(v).max(1e-3);
                v.map(|c| (c / l) as f32)
            })
            .collect();
        let influences = (0..vertices)
            .map(|v| {
                let used = if single {
                    1
                } else {
                    1 + (rng.unit() * 4.0) as usize
                };
                let mut b = [0u8; 4];
                let mut w = [0f32; 4];
                for k in 0..used.min(4) {
                    b[k] = ((rng.unit() * n as f32) as usize).min(n - 1) as u8;
                    w[k] = rng.range(0.05, 1.0);
                }
                let sum: f32 = w.iter().sum();
                Influence::from_weights(b, w.map(|x| x / sum), v).unwrap()
            })
            .collect();
        Self {
            bones,
            positions,
            normals,
            influences,
        }
    }

    /// Bone `b`'s joint matrix `[R(q)·S | t]`, rounded to `f32`.
    pub fn matrix(&self, b: usize) -> Affine<f32> {
        let StretchedBone {
            bone: Bone { q, t },
            s,
        } = self.bones[b];
        let r = oracle::quat_to_matrix(q);
        let rows = [0, 1, 2].map(|i| {
            let l = [0, 1, 2].map(|j| (0..3).map(|k| r[i][k] * s[k][j]).sum::<f64>());
            [l[0], l[1], l[2], t[i]].map(|v| v as f32)
        });
        Affine { rows }
    }

    /// The joint matrices split into a stretch palette in lane `L` (filled at the smallest
    /// exponent that holds them).
    pub fn palette<L: Lane>(&self) -> StretchPalette<L, CAP> {
        let mut p = StretchPalette::new();
        let matrices = || {
            (0..self.bones.len()).map(|b| {
                Affine::<L::Real>::from_f32(self.matrix(b).rows).map_err(|_| {
                    skin_core::Error::NotSplittable {
                        joint: b,
                        determinant: f32::NAN,
                    }
                })
            })
        };
        p.fill(matrices).unwrap();
        p
    }

    /// The bind positions in lane `L`.
    pub fn lane_positions<L: Lane>(&self) -> Vec<[L; 3]> {
        self.positions
            .iter()
            .map(|p| p.map(|c| L::from_f32(c).unwrap()))
            .collect()
    }

    /// The influences in lane `L`.
    pub fn lane_influences<L: Lane>(&self) -> Vec<Influence<L>> {
        self.influences
            .iter()
            .enumerate()
            .map(|(v, inf)| {
                let w = inf.weights();
                Influence::from_weights(inf.bones(), [w[0], w[1], w[2], w[3]], v).unwrap()
            })
            .collect()
    }

    /// The mesh for skin-core.
    pub fn mesh(&self) -> SkinnedMesh<'_, f32, 4> {
        SkinnedMesh::new(&self.positions, &self.influences).unwrap()
    }

    /// The core's positions and normals in lane `L`, as `f32` (exact for the fixed lane's
    /// values).
    pub fn core<L: Lane>(&self) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
        let palette = self.palette::<L>();
        let (duals, stretches) = (palette.duals(), palette.stretches());
        let (positions, influences) = (self.lane_positions::<L>(), self.lane_influences::<L>());
        let normals: Vec<[L; 3]> = self
            .normals
            .iter()
            .map(|p| p.map(|c| L::from_f32(c).unwrap()))
            .collect();
        let len = positions.len();
        let mut out = vec![[L::Out::default(); 3]; len];
        let mut out_n = vec![[L::default(); 3]; len];
        let mesh = SkinnedMesh::<L, 4>::new(&positions, &influences).unwrap();
        mesh.skin_dqs_stretched_with_normals(duals, stretches, &normals, &mut out, &mut out_n)
            .unwrap();
        let mut alone = vec![[L::Out::default(); 3]; len];
        mesh.skin_dqs_stretched(duals, stretches, &mut alone)
            .unwrap();
        assert_eq!(alone, out, "positions alone give the same bits");
        (
            out.iter().map(|p| p.map(L::out_to_f32)).collect(),
            out_n.iter().map(|n| n.map(L::to_f32)).collect(),
        )
    }

    /// The oracle's positions, normals, hemisphere margins and blended real parts' norms
    /// `ν`, for the weights and bind positions the core skins in lane `L`.
    pub fn oracle<L: Lane>(&self) -> (Vec<V3>, Vec<V3>, Vec<f64>, Vec<f64>) {
        let mut r = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let rigid: Vec<Bone> = self.bones.iter().map(|b| b.bone).collect();
        let infs = self.lane_influences::<L>();
        for ((inf, p), n) in infs
            .iter()
            .zip(self.lane_positions::<L>())
            .zip(&self.normals)
        {
            let index: Vec<usize> = inf.bones().iter().map(|&b| usize::from(b)).collect();
            let w: Vec<f64> = inf.weights().iter().map(|&w| f64::from(w)).collect();
            let p = p.map(|c| f64::from(c.to_f32()));
            let n = n.map(|c| f64::from(L::from_f32(c).unwrap().to_f32()));
            r.0.push(dual_oracle::stretched_point(&self.bones, &index, &w, p));
            r.1.push(dual_oracle::stretched_normal(&self.bones, &index, &w, n));
            r.2.push(dual_oracle::hemisphere_margin(&rigid, &index, &w));
            r.3.push(dual_oracle::blend(&rigid, &index, &w).2);
        }
        r
    }
}

/// The largest coordinate difference between `a` and the oracle's `b`.
pub fn coord_error(a: [f32; 3], b: V3) -> f64 {
    (0..3)
        .map(|k| (f64::from(a[k]) - b[k]).abs())
        .fold(0.0, f64::max)
}

/// The bones of skin 0 of the imported `rig` posed by `locals` (f32, unit exponent 0) as the
/// f64 oracle holds them: each joint matrix `W·B⁻¹` split by the oracle's own
/// decomposition ([`dual_oracle::split`]).
pub fn oracle_bones(
    rig: &skin_host::rig::Rig,
    locals: &[skin_core::transform::Transform<f32>],
) -> Vec<StretchedBone> {
    let f = skin_host::pose::palette::skin_frame::<f32>(rig, locals, 0, 0, "f32")
        .expect("the skin's frame");
    (0..f.joints.len())
        .map(|j| {
            let m = f.bind.matrix(j, &f.world).expect("a joint matrix");
            dual_oracle::split(&m.rows.map(|r| r.map(f64::from)))
        })
        .collect()
}
