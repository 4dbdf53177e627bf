//! The WGSL sources. Every path shares one blend per skinning method and one point/normal
//! transform ([`TRANSFORM`]):
//!
//! - linear blend skinning ([`BLEND`]): `M = Σ wₖ·M[bₖ]` over four influences (the implicit
//!   weight first);
//! - dual quaternion skinning ([`DUAL_BLEND`]): the bones' unit dual quaternions summed with
//!   the weights, each flipped into the hemisphere of the first (most-weighted) bone's
//!   rotation, and the sum turned into the rigid matrix of the normalised blend;
//!
//! then `p' = M·(p, 1)`, `n' = normalise(M·(n, 0))` (zero stays zero), as skin-core's `f32`
//! lane computes them. Dual quaternion skinning of joints with scale or shear
//! ([`STRETCHED`], Kavan et al.'s split, as `skin_core::skin`'s stretched loop) first moves
//! the vertex by the weighted sum of its bones' stretches `S = Σ wₖ·S[bₖ]` (symmetric 3×3,
//! two `vec4` a bone: `s00 s01 s02 s11 | s12 s22 0 0`), `p' = M·(S·p, 1)`, and the normal
//! by `S`'s cofactors, `n' = normalise(M·(cof(S)·n, 0))`; a palette of rigid joints keeps
//! the plain blend. The compute path holds each stretch after its bone's dual quaternion
//! (four `vec4` a bone); the vertex paths keep the dual quaternions' uniform array and its
//! register budget as they are and read the stretches of the draw call's slots from a
//! storage buffer (group 0, binding 1), which the vertex stage of today's GPUs reads but
//! whose size is not counted in the constant registers of `skin budget`. Before skinning, every path moves the vertex by its morph targets
//! ([`morph`]): `p = base + Σ wᵢ·deltaᵢ` over the frame's active targets (normals likewise),
//! the deltas in a storage buffer and the active targets' indices and weights in a uniform
//! of `skin_core::morph::ACTIVE_TARGETS` entries.
//!
//! A bone matrix is 3×4 row-major in skin-core; WGSL stores it as `mat3x4<f32>` whose three
//! *columns* are skin-core's three rows, so `vec4(p, 1) * m` is `M·p`. The 4×4 layout keeps
//! the implied `0 0 0 1` row as a fourth column, taking the fourth constant register per
//! bone that the old shaders spent on it. A dual quaternion is two `vec4<f32>` (two constant
//! registers): the rotation quaternion, then the dual part, each `[x, y, z, w]`.
//!
//! The vertex paths hold the palette in a *uniform* array whose length is the budget's
//! capacity, substituted into the source ([`palette_uniform`]); [`Layout::DualQuat`] selects
//! dual quaternion skinning:
//!
//! ```
//! use skin_core::budget::{Budget, Layout};
//! use skin_host::gpu::shader;
//! let n = Budget::VS_1_1.capacity(Layout::Affine3x4);
//! assert!(shader::palette_uniform(Layout::Affine3x4, n).contains("array<mat3x4<f32>, 32>"));
//! assert!(shader::palette_uniform(Layout::Mat4x4, 24).contains("array<mat4x4<f32>, 24>"));
//! // 48 dual quaternions: 96 registers, as vs_1_1 holds.
//! let n = Budget::VS_1_1.capacity(Layout::DualQuat);
//! assert!(shader::palette_uniform(Layout::DualQuat, n).contains("array<vec4<f32>, 96>"));
//! ```

use skin_core::budget::Layout;

use crate::pose::Skinning;

/// The linear blend, over a `bone(i)` each path defines. It sums its terms in skin-core's
/// order, `((w₁M₁ + w₂M₂) + w₃M₃) + w₀M₀`, so that what is left between the GPU and the
/// core is the GPU's own rounding (fused multiply-adds, its square root).
pub const BLEND: &str = r"
fn blend(b: vec4<u32>, w: vec4<f32>) -> mat3x4<f32> {
    return ((bone(b.y) * w.y + bone(b.z) * w.z) + bone(b.w) * w.w) + bone(b.x) * w.x;
}
";

/// The dual quaternion blend, over a `dq_real(i)` and `dq_dual(i)` each path defines, as
/// skin-core's `f32` lane computes it (`skin_core::skin`'s DQS loop): the lead bone's parts
/// times its weight, then each further bone's added in order, negated when its rotation
/// lies in the other hemisphere from the lead's (`q·q_lead < 0`); the blend `q + ε·d` is
/// the rigid matrix with rotation `R(q)/|q|²` and translation `2·vec(d·q*)/|q|²`.
pub const DUAL_BLEND: &str = r"
fn dq_matrix(q: vec4<f32>, d: vec4<f32>) -> mat3x4<f32> {
    let s = 2.0 / (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    let xx = q.x * q.x;
    let yy = q.y * q.y;
    let zz = q.z * q.z;
    let xy = q.x * q.y;
    let xz = q.x * q.z;
    let yz = q.y * q.z;
    let wx = q.w * q.x;
    let wy = q.w * q.y;
    let wz = q.w * q.z;
    let t = vec3<f32>(
        q.w * d.x - d.w * q.x + (q.y * d.z - q.z * d.y),
        q.w * d.y - d.w * q.y + (q.z * d.x - q.x * d.z),
        q.w * d.z - d.w * q.z + (q.x * d.y - q.y * d.x),
    );
    return mat3x4<f32>(
        vec4<f32>(1.0 - s * (yy + zz), s * (xy - wz), s * (xz + wy), s * t.x),
        vec4<f32>(s * (xy + wz), 1.0 - s * (xx + zz), s * (yz - wx), s * t.y),
        vec4<f32>(s * (xz - wy), s * (yz + wx), 1.0 - s * (xx + yy), s * t.z),
    );
}

fn blend(b: vec4<u32>, w: vec4<f32>) -> mat3x4<f32> {
    let lead = dq_real(b.x);
    var real = lead * w.x;
    var dual = dq_dual(b.x) * w.x;
    for (var k = 1u; k < 4u; k++) {
        let q = dq_real(b[k]);
        let flip = q.x * lead.x + q.y * lead.y + q.z * lead.z + q.w * lead.w < 0.0;
        let s = select(w[k], -w[k], flip);
        real = real + q * s;
        dual = dual + dq_dual(b[k]) * s;
    }
    return dq_matrix(real, dual);
}
";

/// The point and normal transforms by a blended matrix. The point adds the translation
/// first, as skin-core does.
pub const TRANSFORM: &str = r"
struct Skinned {
    position: vec3<f32>,
    normal: vec3<f32>,
}

fn skin_point(m: mat3x4<f32>, p: vec3<f32>) -> vec3<f32> {
    return vec3<f32>(m[0].w, m[1].w, m[2].w) + vec4<f32>(p, 0.0) * m;
}

fn skin_normal(m: mat3x4<f32>, n: vec3<f32>) -> vec3<f32> {
    let v = vec4<f32>(n, 0.0) * m;
    let len2 = dot(v, v);
    // skin-core's f32 lane: zero below the smallest normal f32.
    if (len2 > 1.17549435e-38) {
        return v / sqrt(len2);
    }
    return vec3<f32>(0.0);
}
";

/// A vertex skinned by the plain blend: `blend`'s matrix moves the point and the normal.
pub const RIGID: &str = r"
fn skin_vertex(b: vec4<u32>, w: vec4<f32>, p: vec3<f32>, n: vec3<f32>) -> Skinned {
    let m = blend(b, w);
    return Skinned(skin_point(m, p), skin_normal(m, n));
}
";

/// A vertex skinned with stretches, over a `stretch_a(i)` and `stretch_b(i)` each path
/// defines (bone `i`'s stretch as two `vec4`): the stretches summed in the dual
/// quaternions' order (never flipped), the point moved by the sum, the normal by its
/// cofactors (rows: cross products of the other two rows), then both by the dual
/// quaternion blend.
pub const STRETCHED: &str = r"
fn stretch(i: u32) -> mat3x3<f32> {
    let a = stretch_a(i);
    let c = stretch_b(i);
    return mat3x3<f32>(vec3<f32>(a.x, a.y, a.z), vec3<f32>(a.y, a.w, c.x), vec3<f32>(a.z, c.x, c.y));
}

fn skin_vertex(b: vec4<u32>, w: vec4<f32>, p: vec3<f32>, n: vec3<f32>) -> Skinned {
    var s = stretch(b.x) * w.x;
    for (var k = 1u; k < 4u; k++) {
        s = s + stretch(b[k]) * w[k];
    }
    let c = mat3x3<f32>(cross(s[1], s[2]), cross(s[2], s[0]), cross(s[0], s[1]));
    let m = blend(b, w);
    return Skinned(skin_point(m, s * p), skin_normal(m, c * n));
}
";

/// Which blend a shader runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Blend {
    /// Linear blend skinning.
    Linear,
    /// Dual quaternion skinning of rigid joints.
    Dual,
    /// Dual quaternion skinning with the bones' stretches.
    Stretched,
}

impl Blend {
    /// The blend of `skinning`, with stretches when `stretched`.
    pub fn of(skinning: Skinning, stretched: bool) -> Self {
        match (skinning, stretched) {
            (Skinning::Lbs, _) => Blend::Linear,
            (Skinning::Dqs, false) => Blend::Dual,
            (Skinning::Dqs, true) => Blend::Stretched,
        }
    }
}

/// The morph targets of group `group`: a uniform `morph` (binding `binding`: the active
/// targets' count and the mesh's vertex count, then up to
/// [`ACTIVE_TARGETS`](skin_core::morph::ACTIVE_TARGETS) target indices and weights, four a
/// register) and the deltas (binding `binding + 1`, a storage array of six floats a vertex
/// a target, target-major: position delta, normal delta), and `morphed(v, p, n)`: vertex
/// `v`'s base position and normal plus each active target's weighted delta, in target
/// order, as `skin_host::pose::morph` adds them.
///
/// ```
/// let wgsl = skin_host::gpu::shader::morph(2, 0);
/// assert!(wgsl.contains("@group(2) @binding(1) var<storage, read> deltas: array<f32>;"));
/// assert!(wgsl.contains("array<vec4<f32>, 2>"));
/// ```
pub fn morph(group: u32, binding: u32) -> String {
    let slots = MORPH_SLOTS;
    let deltas = binding + 1;
    format!(
        "struct Morph {{
    count: vec4<u32>,
    targets: array<vec4<u32>, {slots}>,
    weights: array<vec4<f32>, {slots}>,
}}
@group({group}) @binding({binding}) var<uniform> morph: Morph;
@group({group}) @binding({deltas}) var<storage, read> deltas: array<f32>;

struct Morphed {{
    position: vec3<f32>,
    normal: vec3<f32>,
}}

fn morphed(v: u32, position: vec3<f32>, normal: vec3<f32>) -> Morphed {{
    var p = position;
    var n = normal;
    for (var i = 0u; i < morph.count.x; i++) {{
        let t = morph.targets[i / 4u][i % 4u];
        let w = morph.weights[i / 4u][i % 4u];
        let at = 6u * (t * morph.count.y + v);
        p = p + w * vec3<f32>(deltas[at], deltas[at + 1u], deltas[at + 2u]);
        n = n + w * vec3<f32>(deltas[at + 3u], deltas[at + 4u], deltas[at + 5u]);
    }}
    return Morphed(p, n);
}}
"
    )
}

/// Registers of four that hold the active targets' indices (and as many their weights).
pub const MORPH_SLOTS: usize = skin_core::morph::ACTIVE_TARGETS.div_ceil(4);

/// The blend, the transforms and `skin_vertex` of `blend`.
fn skinning_source(blend: Blend) -> String {
    let (source, vertex) = match blend {
        Blend::Linear => (BLEND, RIGID),
        Blend::Dual => (DUAL_BLEND, RIGID),
        Blend::Stretched => (DUAL_BLEND, STRETCHED),
    };
    format!("{source}{TRANSFORM}{vertex}")
}

/// The blend of a uniform palette in `layout` (with stretches when `stretched`), and the
/// stretches' storage buffer and accessors it then reads (group 0, binding 1).
fn vertex_blend(layout: Layout, stretched: bool) -> String {
    let skinning = match layout {
        Layout::DualQuat => Skinning::Dqs,
        _ => Skinning::Lbs,
    };
    let blend = Blend::of(skinning, stretched);
    let stretches = if blend == Blend::Stretched {
        "@group(0) @binding(1) var<storage, read> stretches: array<vec4<f32>>;
fn stretch_a(i: u32) -> vec4<f32> {
    return stretches[2u * i];
}
fn stretch_b(i: u32) -> vec4<f32> {
    return stretches[2u * i + 1u];
}
"
    } else {
        ""
    };
    format!("{}{stretches}", skinning_source(blend))
}

/// The uniform palette of `n` bones in `layout` (group 0, binding 0) and its `bone(i)`
/// (matrices) or `dq_real(i)` and `dq_dual(i)` (dual quaternions, two registers a bone).
pub fn palette_uniform(layout: Layout, n: usize) -> String {
    match layout {
        Layout::DualQuat => format!(
            "struct Palette {{ q: array<vec4<f32>, {registers}> }}
@group(0) @binding(0) var<uniform> palette: Palette;
fn dq_real(i: u32) -> vec4<f32> {{
    return palette.q[2u * i];
}}
fn dq_dual(i: u32) -> vec4<f32> {{
    return palette.q[2u * i + 1u];
}}
",
            registers = 2 * n
        ),
        Layout::Mat4x4 => format!(
            "struct Palette {{ m: array<mat4x4<f32>, {n}> }}
@group(0) @binding(0) var<uniform> palette: Palette;
fn bone(i: u32) -> mat3x4<f32> {{
    let m = palette.m[i];
    return mat3x4<f32>(m[0], m[1], m[2]);
}}
"
        ),
        _ => format!(
            "struct Palette {{ m: array<mat3x4<f32>, {n}> }}
@group(0) @binding(0) var<uniform> palette: Palette;
fn bone(i: u32) -> mat3x4<f32> {{
    return palette.m[i];
}}
"
        ),
    }
}

/// The vertex inputs of the vertex paths: position, normal, palette slots, weights.
const VERTEX_IN: &str = r"
struct VertexIn {
    @builtin(vertex_index) index: u32,
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) bones: vec4<u32>,
    @location(3) weights: vec4<f32>,
}
";

/// Compute skinning by `blend`: palette (3×4 matrices, dual quaternions as two `vec4`
/// each, or four with the stretch), inputs and outputs in storage buffers, the morph
/// targets at bindings 7 and 8 ([`morph`]), one invocation per vertex
/// (`workgroup_size(64)`, 2-D dispatch for meshes past 65535 workgroups).
///
/// ```
/// use skin_host::gpu::shader::{self, Blend};
/// assert!(shader::compute(Blend::Stretched).contains("palette[4u * i + 2u]"));
/// assert!(!shader::compute(Blend::Dual).contains("stretch"));
/// ```
pub fn compute(blend: Blend) -> String {
    let palette = match blend {
        Blend::Linear => {
            "@group(0) @binding(0) var<storage, read> palette: array<mat3x4<f32>>;
fn bone(i: u32) -> mat3x4<f32> {
    return palette[i];
}"
        }
        Blend::Dual => {
            "@group(0) @binding(0) var<storage, read> palette: array<vec4<f32>>;
fn dq_real(i: u32) -> vec4<f32> {
    return palette[2u * i];
}
fn dq_dual(i: u32) -> vec4<f32> {
    return palette[2u * i + 1u];
}"
        }
        Blend::Stretched => {
            "@group(0) @binding(0) var<storage, read> palette: array<vec4<f32>>;
fn dq_real(i: u32) -> vec4<f32> {
    return palette[4u * i];
}
fn dq_dual(i: u32) -> vec4<f32> {
    return palette[4u * i + 1u];
}
fn stretch_a(i: u32) -> vec4<f32> {
    return palette[4u * i + 2u];
}
fn stretch_b(i: u32) -> vec4<f32> {
    return palette[4u * i + 3u];
}"
        }
    };
    format!(
        "{skinning}
{palette}
@group(0) @binding(1) var<storage, read> positions: array<f32>;
@group(0) @binding(2) var<storage, read> normals: array<f32>;
@group(0) @binding(3) var<storage, read> bones: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> weights: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> out_positions: array<f32>;
@group(0) @binding(6) var<storage, read_write> out_normals: array<f32>;
{morph}
@compute @workgroup_size({COMPUTE_GROUP})
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {{
    let v = id.x + id.y * groups.x * {COMPUTE_GROUP}u;
    if (v >= arrayLength(&bones)) {{
        return;
    }}
    let base = morphed(
        v,
        vec3<f32>(positions[3u * v], positions[3u * v + 1u], positions[3u * v + 2u]),
        vec3<f32>(normals[3u * v], normals[3u * v + 1u], normals[3u * v + 2u]),
    );
    let s = skin_vertex(bones[v], weights[v], base.position, base.normal);
    for (var k = 0u; k < 3u; k++) {{
        out_positions[3u * v + k] = s.position[k];
        out_normals[3u * v + k] = s.normal[k];
    }}
}}
",
        skinning = skinning_source(blend),
        morph = morph(0, 7),
    )
}

/// Invocations per compute workgroup.
pub const COMPUTE_GROUP: u32 = 64;

/// Vertex-stage read-back: each vertex is skinned with the uniform palette and drawn as a
/// point on its own pixel (`index % width`, `index / width`) of two `Rgba32Float` targets
/// (`width × height` pixels, group 1), which receive its skinned position and normal
/// (alpha 1 marks a drawn vertex). The morph targets are group 2 ([`morph`]); a dual
/// quaternion palette with stretches (`stretched`) reads them at group 0, binding 1.
pub fn vertex_readback(layout: Layout, n: usize, stretched: bool) -> String {
    format!(
        "{skinning}{palette}{VERTEX_IN}{morph}
// The targets' size in pixels (x, y).
@group(1) @binding(0) var<uniform> target_size: vec4<u32>;

struct Point {{
    @builtin(position) clip: vec4<f32>,
    @location(0) @interpolate(flat) position: vec3<f32>,
    @location(1) @interpolate(flat) normal: vec3<f32>,
}}

@vertex
fn vs(v: VertexIn) -> Point {{
    let base = morphed(v.index, v.position, v.normal);
    let s = skin_vertex(v.bones, v.weights, base.position, base.normal);
    let size = vec2<f32>(target_size.xy);
    let col = f32(v.index % target_size.x) + 0.5;
    let row = f32(v.index / target_size.x) + 0.5;
    let clip = vec4<f32>(col / size.x * 2.0 - 1.0, 1.0 - row / size.y * 2.0, 0.0, 1.0);
    return Point(clip, s.position, s.normal);
}}

struct Targets {{
    @location(0) position: vec4<f32>,
    @location(1) normal: vec4<f32>,
}}

@fragment
fn fs(p: Point) -> Targets {{
    return Targets(vec4<f32>(p.position, 1.0), vec4<f32>(p.normal, 1.0));
}}
",
        skinning = vertex_blend(layout, stretched),
        palette = palette_uniform(layout, n),
        morph = morph(2, 0),
    )
}

/// The picture: skinning with the uniform palette, then skin-core's raster camera and
/// shading (`skin_core::raster`): the screen-space matrix (subpixels, depth 0..65535),
/// vertices rounded to whole subpixels (halves away from zero, as `roundf`), flat Lambert
/// shading from the provoking (first) vertex, and the material's RGB565 channels scaled
/// in integers as `skin_core::raster::band::scale`. The morph targets are group 2
/// ([`morph`]); stretches as in [`vertex_readback`].
pub fn picture(layout: Layout, n: usize, stretched: bool) -> String {
    format!(
        "{skinning}{palette}{VERTEX_IN}{morph}
struct View {{
    // Camera rows: screen x, screen y (subpixels), depth.
    screen: mat3x4<f32>,
    // Screen size in subpixels (x, y), ambient intensity (z), 1 when normals light (w).
    size: vec4<f32>,
    // Direction towards the light.
    light: vec4<f32>,
    // The material's RGB565 channels (0..31, 0..63, 0..31).
    material: vec4<u32>,
}}
@group(1) @binding(0) var<uniform> view: View;

struct Fragment {{
    @builtin(position) clip: vec4<f32>,
    @location(0) @interpolate(flat) shade: u32,
}}

// Round to nearest, halves away from zero (`roundf`; WGSL's round() goes to even).
fn round_away(x: vec3<f32>) -> vec3<f32> {{
    let t = trunc(x);
    return select(t, t + sign(x), abs(x - t) >= vec3<f32>(0.5));
}}

@vertex
fn vs(v: VertexIn) -> Fragment {{
    let base = morphed(v.index, v.position, v.normal);
    let skinned = skin_vertex(v.bones, v.weights, base.position, base.normal);
    let s = round_away(vec4<f32>(skinned.position, 1.0) * view.screen);
    let clip = vec4<f32>(
        s.x / view.size.x * 2.0 - 1.0,
        1.0 - s.y / view.size.y * 2.0,
        s.z / 65536.0,
        1.0,
    );
    var shade = 255u;
    if (view.size.w > 0.0) {{
        let n = skinned.normal;
        let d = max(n.x * view.light.x + n.y * view.light.y + n.z * view.light.z, 0.0);
        let lit = round_away(vec3<f32>((255.0 - view.size.z) * d)).x;
        shade = min(u32(view.size.z + lit), 255u);
    }}
    return Fragment(clip, shade);
}}

@fragment
fn fs(f: Fragment) -> @location(0) vec4<f32> {{
    let c = (view.material.rgb * f.shade + vec3<u32>(127u)) / 255u;
    return vec4<f32>(vec3<f32>(c) / vec3<f32>(31.0, 63.0, 31.0), 1.0);
}}
",
        skinning = vertex_blend(layout, stretched),
        palette = palette_uniform(layout, n),
        morph = morph(2, 0),
    )
}
