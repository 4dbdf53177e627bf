//! The WGSL sources. Every path shares one blend ([`BLEND`]): `M = Σ wₖ·M[bₖ]` over four
//! influences (the implicit weight first), `p' = M·(p, 1)`, `n' = normalise(M·(n, 0))`
//! (zero stays zero), as skin-core's `f32` lane computes it.
//!
//! A bone matrix is 3×4 row-major in skin-core; WGSL stores it as `mat3x4<f32>` whose three
//! *columns* are skin-core's three rows, so `vec4(p, 1) * m` is `M·p`. The 4×4 layout keeps
//! the implied `0 0 0 1` row as a fourth column, taking the fourth constant register per
//! bone that the old shaders spent on it.
//!
//! The vertex paths hold the palette in a *uniform* array whose length is the budget's
//! capacity, substituted into the source ([`palette_uniform`]):
//!
//! ```
//! use skin_core::budget::{Budget, Layout};
//! use skin_host::gpu::shader;
//! let n = Budget::VS_1_1.capacity(Layout::Affine3x4);
//! assert!(shader::palette_uniform(Layout::Affine3x4, n).contains("array<mat3x4<f32>, 32>"));
//! assert!(shader::palette_uniform(Layout::Mat4x4, 24).contains("array<mat4x4<f32>, 24>"));
//! ```

use skin_core::budget::Layout;

/// The blend and the point/normal transforms, over a `bone(i)` each path defines. The blend
/// sums its terms in skin-core's order, `((w₁M₁ + w₂M₂) + w₃M₃) + w₀M₀`, and the point
/// adds the translation first, so that what is left between the GPU and the core is the
/// GPU's own rounding (fused multiply-adds, its square root).
pub const BLEND: &str = r"
fn blend(b: vec4<u32>, w: vec4<f32>) -> mat3x4<f32> {
    return ((bone(b.y) * w.y + bone(b.z) * w.z) + bone(b.w) * w.w) + bone(b.x) * w.x;
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

/// The uniform palette of `n` bones in `layout` (group 0, binding 0) and its `bone(i)`.
/// Only [`Layout::Affine3x4`] and [`Layout::Mat4x4`] have one (the caller checks).
pub fn palette_uniform(layout: Layout, n: usize) -> String {
    match layout {
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

/// Compute skinning: palette, inputs and outputs in storage buffers, one invocation per
/// vertex (`workgroup_size(64)`, 2-D dispatch for meshes past 65535 workgroups).
pub fn compute() -> String {
    format!(
        "{BLEND}
@group(0) @binding(0) var<storage, read> palette: array<mat3x4<f32>>;
@group(0) @binding(1) var<storage, read> positions: array<f32>;
@group(0) @binding(2) var<storage, read> normals: array<f32>;
@group(0) @binding(3) var<storage, read> bones: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read> weights: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> out_positions: array<f32>;
@group(0) @binding(6) var<storage, read_write> out_normals: array<f32>;

fn bone(i: u32) -> mat3x4<f32> {{
    return palette[i];
}}

@compute @workgroup_size({COMPUTE_GROUP})
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {{
    let v = id.x + id.y * groups.x * {COMPUTE_GROUP}u;
    if (v >= arrayLength(&bones)) {{
        return;
    }}
    let m = blend(bones[v], weights[v]);
    let p = skin_point(m, vec3<f32>(positions[3u * v], positions[3u * v + 1u], positions[3u * v + 2u]));
    let n = skin_normal(m, vec3<f32>(normals[3u * v], normals[3u * v + 1u], normals[3u * v + 2u]));
    for (var k = 0u; k < 3u; k++) {{
        out_positions[3u * v + k] = p[k];
        out_normals[3u * v + k] = n[k];
    }}
}}
"
    )
}

/// Invocations per compute workgroup.
pub const COMPUTE_GROUP: u32 = 64;

/// Vertex-stage read-back: each vertex is skinned with the uniform palette and drawn as a
/// point on its own pixel (`index % width`, `index / width`) of two `Rgba32Float` targets
/// (`width × height` pixels, group 1), which receive its skinned position and normal
/// (alpha 1 marks a drawn vertex).
pub fn vertex_readback(layout: Layout, n: usize) -> String {
    format!(
        "{BLEND}{palette}{VERTEX_IN}
// The targets' size in pixels (x, y).
@group(1) @binding(0) var<uniform> target_size: vec4<u32>;

struct Point {{
    @builtin(position) clip: vec4<f32>,
    @location(0) @interpolate(flat) position: vec3<f32>,
    @location(1) @interpolate(flat) normal: vec3<f32>,
}}

@vertex
fn vs(v: VertexIn) -> Point {{
    let m = blend(v.bones, v.weights);
    let size = vec2<f32>(target_size.xy);
    let col = f32(v.index % target_size.x) + 0.5;
    let row = f32(v.index / target_size.x) + 0.5;
    let clip = vec4<f32>(col / size.x * 2.0 - 1.0, 1.0 - row / size.y * 2.0, 0.0, 1.0);
    return Point(clip, skin_point(m, v.position), skin_normal(m, v.normal));
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
        palette = palette_uniform(layout, n)
    )
}

/// The picture: skinning with the uniform palette, then skin-core's raster camera and
/// shading (`skin_core::raster`): the screen-space matrix (subpixels, depth 0..65535),
/// vertices rounded to whole subpixels (halves away from zero, as `roundf`), flat Lambert
/// shading from the provoking (first) vertex, and the material's RGB565 channels scaled
/// in integers as `skin_core::raster::band::scale`.
pub fn picture(layout: Layout, n: usize) -> String {
    format!(
        "{BLEND}{palette}{VERTEX_IN}
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
    let m = blend(v.bones, v.weights);
    let p = skin_point(m, v.position);
    let s = round_away(vec4<f32>(p, 1.0) * view.screen);
    let clip = vec4<f32>(
        s.x / view.size.x * 2.0 - 1.0,
        1.0 - s.y / view.size.y * 2.0,
        s.z / 65536.0,
        1.0,
    );
    var shade = 255u;
    if (view.size.w > 0.0) {{
        let n = skin_normal(m, v.normal);
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
        palette = palette_uniform(layout, n)
    )
}
