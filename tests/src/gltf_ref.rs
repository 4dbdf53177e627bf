//! An independent f64 reference for skinned glTF positions, written from the glTF 2.0
//! specification for the tests: it parses with the `gltf` crate (its own accessor readers)
//! and does all maths in plain `f64`. It shares no code with skin-host or skin-core.
//!
//! - node world matrices: `world = parent · T·R·S` (or the node's `matrix`);
//! - animation: STEP holds the previous key, LINEAR lerps (slerps rotations along the
//!   shorter arc), CUBICSPLINE is the Hermite spline of the glTF appendix with tangents
//!   scaled by the key interval; before the first key the first value, after the last the
//!   last value;
//! - skinned vertices: `Σ w · W(joint) · IBM · p` with the skinned node's own transform
//!   ignored, over the four largest weights of all `JOINTS_n`/`WEIGHTS_n` sets,
//!   renormalised (the documented behaviour of `skin pose` for more than four influences);
//! - unskinned meshes: `W(node) · p`.

use std::path::Path;

use base64::Engine as _;

/// Column-major 4×4, as glTF stores it: `m[col][row]`.
pub type M4 = [[f64; 4]; 4];

/// Translation, rotation `[x, y, z, w]`, scale.
type TrsF64 = ([f64; 3], [f64; 4], [f64; 3]);

/// Skinned positions of one (mesh node, primitive), as `skin pose` prints them.
#[derive(Clone, Debug, PartialEq)]
pub struct RefBlock {
    /// Node index.
    pub node: usize,
    /// Mesh index.
    pub mesh: usize,
    /// Primitive index.
    pub primitive: usize,
    /// World positions.
    pub positions: Vec<[f64; 3]>,
}

/// A parsed model: the document and its buffers.
pub struct RefModel {
    /// The glTF document.
    pub doc: gltf::Document,
    /// Buffer contents.
    pub buffers: Vec<Vec<u8>>,
}

/// Load a `.gltf`/`.glb` (embedded or GLB buffers, or files beside it).
pub fn load(path: &Path) -> RefModel {
    let bytes = std::fs::read(path).expect("read model");
    let g = gltf::Gltf::from_slice(&bytes).expect("parse model");
    let mut buffers = Vec::new();
    for b in g.buffers() {
        let data = match b.source() {
            gltf::buffer::Source::Bin => g.blob.clone().expect("GLB blob"),
            gltf::buffer::Source::Uri(uri) => match uri.split_once(";base64,") {
                Some((_, data)) => base64::engine::general_purpose::STANDARD
                    .decode(data)
                    .expect("base64"),
                None => std::fs::read(path.parent().unwrap().join(uri)).expect("buffer file"),
            },
        };
        buffers.push(data);
    }
    RefModel {
        doc: g.document,
        buffers,
    }
}

fn mul(a: &M4, b: &M4) -> M4 {
    let mut o = [[0.0; 4]; 4];
    for (c, col) in o.iter_mut().enumerate() {
        for (r, v) in col.iter_mut().enumerate() {
            *v = (0..4).map(|k| a[k][r] * b[c][k]).sum();
        }
    }
    o
}

fn apply(m: &M4, p: [f64; 3]) -> [f64; 3] {
    core::array::from_fn(|r| m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2] + m[3][r])
}

/// `T·R·S` as a column-major matrix.
pub fn trs(t: [f64; 3], q: [f64; 4], s: [f64; 3]) -> M4 {
    let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    let [x, y, z, w] = q.map(|v| v / n);
    let r = [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y + z * w),
            2.0 * (x * z - y * w),
        ],
        [
            2.0 * (x * y - z * w),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z + x * w),
        ],
        [
            2.0 * (x * z + y * w),
            2.0 * (y * z - x * w),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ];
    [
        [r[0][0] * s[0], r[0][1] * s[0], r[0][2] * s[0], 0.0],
        [r[1][0] * s[1], r[1][1] * s[1], r[1][2] * s[1], 0.0],
        [r[2][0] * s[2], r[2][1] * s[2], r[2][2] * s[2], 0.0],
        [t[0], t[1], t[2], 1.0],
    ]
}

fn f64s<const N: usize>(v: [f32; N]) -> [f64; N] {
    v.map(f64::from)
}

/// A node's local (T, R, S) in f64, for TRS nodes; `None` for matrix nodes.
fn node_trs(n: &gltf::Node<'_>) -> Option<TrsF64> {
    match n.transform() {
        gltf::scene::Transform::Decomposed {
            translation,
            rotation,
            scale,
        } => Some((f64s(translation), f64s(rotation), f64s(scale))),
        gltf::scene::Transform::Matrix { .. } => None,
    }
}

/// `q` scaled to unit length.
fn unit(q: [f64; 4]) -> [f64; 4] {
    let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    q.map(|v| v / n)
}

/// Spherical interpolation along the shorter arc. Keys are normalised first: glTF rotation
/// keys are unit quaternions, and files store them rounded (SimpleSkin's `0.383, 0.924`
/// has length 1.00023), which would otherwise bend the angle `acos(a·b)`.
fn slerp(a: [f64; 4], b: [f64; 4], u: f64) -> [f64; 4] {
    let (a, b) = (unit(a), unit(b));
    let mut d: f64 = (0..4).map(|i| a[i] * b[i]).sum();
    let b = if d < 0.0 {
        d = -d;
        b.map(|v| -v)
    } else {
        b
    };
    if d > 0.9999995 {
        let q: [f64; 4] = core::array::from_fn(|i| a[i] + u * (b[i] - a[i]));
        let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        return q.map(|v| v / n);
    }
    let th = d.min(1.0).acos();
    let (wa, wb) = (((1.0 - u) * th).sin() / th.sin(), (u * th).sin() / th.sin());
    core::array::from_fn(|i| wa * a[i] + wb * b[i])
}

/// Sample one channel at `t`: `width` values.
pub fn sample(
    interp: gltf::animation::Interpolation,
    times: &[f64],
    values: &[f64],
    width: usize,
    rotation: bool,
    t: f64,
) -> Vec<f64> {
    use gltf::animation::Interpolation as I;
    let cubic = interp == I::CubicSpline;
    let key = |k: usize| -> Vec<f64> {
        let at = if cubic {
            (3 * k + 1) * width
        } else {
            k * width
        };
        values[at..at + width].to_vec()
    };
    let n = times.len();
    let out = if t <= times[0] {
        key(0)
    } else if t >= times[n - 1] {
        key(n - 1)
    } else {
        let k = times.iter().rposition(|&x| x <= t).unwrap();
        let (t0, t1) = (times[k], times[k + 1]);
        let dt = t1 - t0;
        let u = (t - t0) / dt;
        match interp {
            I::Step => key(k),
            I::Linear => {
                let (a, b) = (key(k), key(k + 1));
                if rotation {
                    slerp([a[0], a[1], a[2], a[3]], [b[0], b[1], b[2], b[3]], u).to_vec()
                } else {
                    (0..width).map(|i| a[i] + u * (b[i] - a[i])).collect()
                }
            }
            I::CubicSpline => {
                let v = |k: usize, part: usize| &values[(3 * k + part) * width..][..width];
                let (p0, m0) = (v(k, 1), v(k, 2)); // value, out-tangent of key k
                let (p1, m1) = (v(k + 1, 1), v(k + 1, 0)); // value, in-tangent of key k+1
                let (u2, u3) = (u * u, u * u * u);
                (0..width)
                    .map(|i| {
                        (2.0 * u3 - 3.0 * u2 + 1.0) * p0[i]
                            + (u3 - 2.0 * u2 + u) * dt * m0[i]
                            + (-2.0 * u3 + 3.0 * u2) * p1[i]
                            + (u3 - u2) * dt * m1[i]
                    })
                    .collect()
            }
        }
    };
    if rotation {
        let len = out.iter().map(|v| v * v).sum::<f64>().sqrt();
        out.iter().map(|v| v / len).collect()
    } else {
        out
    }
}

/// Node local matrices of `model` with `anim` sampled at `t` (or the rest pose).
pub fn locals(model: &RefModel, anim: Option<usize>, t: f64) -> Vec<M4> {
    let doc = &model.doc;
    let get = |b: gltf::Buffer<'_>| Some(&model.buffers[b.index()][..]);
    let mut trs_of: Vec<Option<TrsF64>> = doc.nodes().map(|n| node_trs(&n)).collect();
    if let Some(a) = anim {
        let anim = doc.animations().nth(a).expect("animation");
        for ch in anim.channels() {
            let r = ch.reader(get);
            let times: Vec<f64> = r.read_inputs().unwrap().map(f64::from).collect();
            use gltf::animation::util::ReadOutputs as O;
            let (values, width, which): (Vec<f64>, usize, u8) = match r.read_outputs().unwrap() {
                O::Translations(it) => (it.flatten().map(f64::from).collect(), 3, 0),
                O::Rotations(it) => (it.into_f32().flatten().map(f64::from).collect(), 4, 1),
                O::Scales(it) => (it.flatten().map(f64::from).collect(), 3, 2),
                O::MorphTargetWeights(_) => continue,
            };
            let v = sample(
                ch.sampler().interpolation(),
                &times,
                &values,
                width,
                which == 1,
                t,
            );
            let n = ch.target().node().index();
            let e = trs_of[n].get_or_insert(([0.0; 3], [0.0, 0.0, 0.0, 1.0], [1.0; 3]));
            match which {
                0 => e.0 = [v[0], v[1], v[2]],
                1 => e.1 = [v[0], v[1], v[2], v[3]],
                _ => e.2 = [v[0], v[1], v[2]],
            }
        }
    }
    doc.nodes()
        .zip(trs_of)
        .map(|(n, x)| match x {
            Some((t, r, s)) => trs(t, r, s),
            None => n.transform().matrix().map(f64s),
        })
        .collect()
}

/// World matrices from locals.
pub fn worlds(doc: &gltf::Document, locals: &[M4]) -> Vec<M4> {
    let n = locals.len();
    let mut parent = vec![None; n];
    for node in doc.nodes() {
        for c in node.children() {
            parent[c.index()] = Some(node.index());
        }
    }
    let mut world: Vec<Option<M4>> = vec![None; n];
    fn get(i: usize, parent: &[Option<usize>], locals: &[M4], world: &mut [Option<M4>]) -> M4 {
        if let Some(w) = world[i] {
            return w;
        }
        let w = match parent[i] {
            Some(p) => mul(&get(p, parent, locals, world), &locals[i]),
            None => locals[i],
        };
        world[i] = Some(w);
        w
    }
    (0..n)
        .map(|i| get(i, &parent, locals, &mut world))
        .collect()
}

/// Every node's morph-target weights with `anim` sampled at `t` (or the rest pose): the
/// node's `weights`, else its mesh's, else zeros, replaced by a `weights` channel.
pub fn morph_weights(model: &RefModel, anim: Option<usize>, t: f64) -> Vec<Vec<f64>> {
    let doc = &model.doc;
    let get = |b: gltf::Buffer<'_>| Some(&model.buffers[b.index()][..]);
    let mut out: Vec<Vec<f64>> = doc
        .nodes()
        .map(|n| {
            let Some(mesh) = n.mesh() else {
                return Vec::new();
            };
            let targets = mesh
                .primitives()
                .next()
                .map_or(0, |p| p.morph_targets().len());
            match n.weights().or(mesh.weights()) {
                Some(w) => w.iter().map(|&w| f64::from(w)).collect(),
                None => vec![0.0; targets],
            }
        })
        .collect();
    if let Some(a) = anim {
        let anim = doc.animations().nth(a).expect("animation");
        for ch in anim.channels() {
            let r = ch.reader(get);
            use gltf::animation::util::ReadOutputs as O;
            let O::MorphTargetWeights(w) = r.read_outputs().unwrap() else {
                continue;
            };
            let times: Vec<f64> = r.read_inputs().unwrap().map(f64::from).collect();
            let values: Vec<f64> = w.into_f32().map(f64::from).collect();
            let n = ch.target().node().index();
            let width = out[n].len();
            out[n] = sample(
                ch.sampler().interpolation(),
                &times,
                &values,
                width,
                false,
                t,
            );
        }
    }
    out
}

/// Skinned positions of every (mesh node, primitive), in node order, morph targets applied
/// to the bind positions first.
pub fn pose(model: &RefModel, anim: Option<usize>, t: f64) -> Vec<RefBlock> {
    let doc = &model.doc;
    let get = |b: gltf::Buffer<'_>| Some(&model.buffers[b.index()][..]);
    let world = worlds(doc, &locals(model, anim, t));
    let morph = morph_weights(model, anim, t);
    let mut out = Vec::new();
    for node in doc.nodes() {
        let Some(mesh) = node.mesh() else { continue };
        let palette: Option<Vec<M4>> = node.skin().map(|skin| {
            let ibms: Vec<M4> = match skin.reader(get).read_inverse_bind_matrices() {
                Some(it) => it.map(|m| m.map(f64s)).collect(),
                None => vec![trs([0.0; 3], [0.0, 0.0, 0.0, 1.0], [1.0; 3]); skin.joints().count()],
            };
            skin.joints()
                .zip(ibms)
                .map(|(j, ibm)| mul(&world[j.index()], &ibm))
                .collect()
        });
        for prim in mesh.primitives() {
            let r = prim.reader(get);
            let mut pos: Vec<[f64; 3]> = r.read_positions().unwrap().map(f64s).collect();
            for ((deltas, _, _), &w) in r.read_morph_targets().zip(&morph[node.index()]) {
                for (p, d) in pos.iter_mut().zip(deltas.into_iter().flatten()) {
                    for i in 0..3 {
                        p[i] += w * f64::from(d[i]);
                    }
                }
            }
            let mut sets = Vec::new();
            let mut s = 0;
            while let (Some(j), Some(w)) = (r.read_joints(s), r.read_weights(s)) {
                let j: Vec<[u16; 4]> = j.into_u16().collect();
                let w: Vec<[f32; 4]> = w.into_f32().collect();
                sets.push((j, w));
                s += 1;
            }
            let positions = match (&palette, sets.is_empty()) {
                (Some(pal), false) => (0..pos.len())
                    .map(|v| {
                        let mut pairs: Vec<(usize, f64)> = Vec::new();
                        for (j, w) in &sets {
                            for k in 0..4 {
                                let (jj, ww) = (usize::from(j[v][k]), f64::from(w[v][k]));
                                if ww > 0.0 {
                                    match pairs.iter_mut().find(|p| p.0 == jj) {
                                        Some(p) => p.1 += ww,
                                        None => pairs.push((jj, ww)),
                                    }
                                }
                            }
                        }
                        pairs.sort_by(|a, b| b.1.total_cmp(&a.1));
                        pairs.truncate(4);
                        let sum: f64 = pairs.iter().map(|p| p.1).sum();
                        let mut acc = [0.0; 3];
                        for (j, w) in pairs {
                            let q = apply(&pal[j], pos[v]);
                            for i in 0..3 {
                                acc[i] += w / sum * q[i];
                            }
                        }
                        acc
                    })
                    .collect(),
                _ => pos
                    .iter()
                    .map(|&p| apply(&world[node.index()], p))
                    .collect(),
            };
            out.push(RefBlock {
                node: node.index(),
                mesh: mesh.index(),
                primitive: prim.index(),
                positions,
            });
        }
    }
    out
}

/// The diagonal of the bounding box of every block's positions.
pub fn extent(blocks: &[RefBlock]) -> f64 {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in blocks.iter().flat_map(|b| &b.positions) {
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    (0..3).map(|i| (hi[i] - lo[i]).powi(2)).sum::<f64>().sqrt()
}

/// Every clip's duration (the largest key time of its channels).
pub fn durations(model: &RefModel) -> Vec<f64> {
    let get = |b: gltf::Buffer<'_>| Some(&model.buffers[b.index()][..]);
    model
        .doc
        .animations()
        .map(|a| {
            a.channels()
                .filter_map(|c| c.reader(get).read_inputs().and_then(|i| i.last()))
                .fold(0.0f64, |m, t| m.max(f64::from(t)))
        })
        .collect()
}
