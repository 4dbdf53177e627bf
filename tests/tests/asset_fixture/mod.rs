//! A small but complete asset for the asset tests: a 3-bone chain under a root matrix,
//! 3 joints, a mesh split into 2 parts with their own palettes, normals, and two clips
//! using every path and interpolation. Plus an independent reading of the byte layout of
//! docs/FORMAT.md, to damage assets in exact places.

#![allow(dead_code)] // each test file uses its own share of the fixture

use skin_core::affine::Affine;
use skin_core::asset::{AssetLane, AssetParts, ClipParts, Part};
use skin_core::clip::{Channel, Interpolation, Path};
use skin_core::skin::Skinning;
use skin_core::transform::Transform;
use skin_core::vertex::Influence;

pub struct Fixture<L: AssetLane> {
    pub rest: Vec<Transform<f32>>,
    pub ibms: Vec<Affine<f32>>,
    pub positions: Vec<[L; 3]>,
    pub normals: Vec<[L; 3]>,
    pub influences: Vec<Influence<L>>,
    pub indices: Vec<u16>,
    pub times: Vec<Vec<f32>>,
    pub values: Vec<Vec<f32>>,
}

pub const PARENTS: [Option<u16>; 3] = [None, Some(0), Some(1)];
pub const JOINTS: [u16; 3] = [0, 1, 2];
pub const PART_BONES: [[u16; 2]; 2] = [[0, 1], [1, 2]];
pub const PART_VERTICES: u32 = 4;

pub fn fixture<L: AssetLane>() -> Fixture<L> {
    let rest = vec![
        Transform::from_f32([0.0, -0.25, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap(),
        Transform::from_f32([0.0, 0.25, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap(),
        Transform::from_f32([0.0, 0.25, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap(),
    ];
    // Bind world translations: y = −0.25, 0, 0.25.
    let ibms = [0.25f32, 0.0, -0.25]
        .iter()
        .map(|&y| Affine::translation([0.0, y, 0.0]))
        .collect();
    let v = |x: f32, y: f32| {
        [
            L::from_f32(x).unwrap(),
            L::from_f32(y).unwrap(),
            L::from_f32(0.1).unwrap(),
        ]
    };
    let n = |x: f32, y: f32, z: f32| [x, y, z].map(|c| L::from_f32(c).unwrap());
    // Part 0: around the first joint (local palette [0, 1]); part 1 around the second ([1, 2]).
    let positions = vec![
        v(-0.1, -0.3),
        v(0.1, -0.3),
        v(-0.1, -0.05),
        v(0.1, -0.05),
        v(-0.1, 0.05),
        v(0.1, 0.05),
        v(-0.1, 0.3),
        v(0.1, 0.3),
    ];
    let normals = vec![
        n(-0.6, 0.0, 0.8),
        n(0.6, 0.0, 0.8),
        n(-0.8, 0.6, 0.0),
        n(0.8, 0.6, 0.0),
        n(-0.6, -0.8, 0.0),
        n(0.0, 0.0, 1.0),
        n(0.0, 0.6, 0.8),
        n(0.28, 0.96, 0.0),
    ];
    let inf =
        |w: f32| Influence::<L>::from_weights([0, 1, 0, 0], [1.0 - w, w, 0.0, 0.0], 0).unwrap();
    let influences = vec![
        inf(0.0),
        inf(0.1),
        inf(0.5),
        inf(0.625),
        inf(0.25),
        inf(0.5),
        inf(0.875),
        inf(1.0),
    ];
    let indices = vec![0, 1, 2, 2, 1, 3, 0, 1, 2, 2, 1, 3];
    let s = std::f32::consts::FRAC_1_SQRT_2;
    let times = vec![
        vec![0.0, 0.5, 1.25],
        vec![0.0, 1.0],
        vec![0.0, 0.4, 1.0],
        vec![0.0, 2.0],
    ];
    #[rustfmt::skip]
    let values = vec![
        // wave: bone 1 rotation, linear, via −q to exercise the shortest path
        vec![0.0, 0.0, 0.0, 1.0,  0.0, 0.0, -0.38268343, -0.9238795,  0.0, 0.0, s, s],
        // wave: bone 2 translation, cubic spline
        vec![0.0, 0.0, 0.0,  0.0, 0.25, 0.0,  0.1, 0.0, 0.0,
             -0.1, 0.0, 0.2,  0.05, 0.3, 0.0,  0.0, 0.0, 0.0],
        // wave: bone 0 scale, step
        vec![1.0, 1.0, 1.0,  0.9, 0.95, 1.0,  0.8, 0.9, 1.0],
        // idle: bone 2 rotation, cubic spline
        vec![0.0, 0.0, 0.0, 0.0,  0.0, 0.0, 0.0, 1.0,  0.0, 0.0, 0.2, 0.0,
             0.0, 0.1, 0.0, 0.0,  0.0, 0.38268343, 0.0, 0.9238795,  0.0, 0.0, 0.0, 0.0],
    ];
    Fixture {
        rest,
        ibms,
        positions,
        normals,
        influences,
        indices,
        times,
        values,
    }
}

pub fn channels<L: AssetLane>(f: &Fixture<L>) -> [Vec<Channel<&[f32]>>; 2] {
    let c = |i: usize, bone, path, interpolation| Channel {
        bone,
        path,
        interpolation,
        times: &f.times[i][..],
        values: &f.values[i][..],
    };
    [
        vec![
            c(0, 1, Path::Rotation, Interpolation::Linear),
            c(1, 2, Path::Translation, Interpolation::CubicSpline),
            c(2, 0, Path::Scale, Interpolation::Step),
        ],
        vec![c(3, 2, Path::Rotation, Interpolation::CubicSpline)],
    ]
}

/// The asset parts, given the channels from [`channels`] and storage for parts and clips.
pub fn parts<'a, L: AssetLane>(
    f: &'a Fixture<L>,
    chans: &'a [Vec<Channel<&'a [f32]>>; 2],
    parts: &'a mut Vec<Part<'a>>,
    clips: &'a mut Vec<ClipParts<'a>>,
) -> AssetParts<'a, L> {
    *parts = PART_BONES
        .iter()
        .map(|b| Part {
            vertices: PART_VERTICES,
            indices: 6,
            bones: &b[..],
        })
        .collect();
    *clips = vec![
        ClipParts {
            name: "wave",
            duration: 1.25,
            channels: &chans[0],
        },
        ClipParts {
            name: "idlé",
            duration: 2.0,
            channels: &chans[1],
        },
    ];
    AssetParts {
        unit_exponent: -2,
        parents: &PARENTS,
        rest: &f.rest,
        root: Affine::translation([0.0, 0.0, 0.125]),
        joints: &JOINTS,
        inverse_binds: &f.ibms,
        positions: &f.positions,
        normals: Some(&f.normals),
        influences: &f.influences,
        indices: &f.indices,
        parts,
        clips,
        skinning: Skinning::Lbs,
        centre: [0.0; 3],
    }
}

/// Write the fixture in lane `L`.
pub fn bytes<L: AssetLane>() -> Vec<u8> {
    let f = fixture::<L>();
    let chans = channels(&f);
    let (mut p, mut c) = (Vec::new(), Vec::new());
    let parts = parts(&f, &chans, &mut p, &mut c);
    let mut out = vec![0u8; parts.size().unwrap()];
    let n = parts.write(&mut out).unwrap();
    assert_eq!(n, out.len());
    out
}

/// Section start offsets, computed from the header as docs/FORMAT.md describes.
#[derive(Debug)]
pub struct Layout {
    pub parents: usize,
    pub rest: usize,
    pub joints: usize,
    pub positions: usize,
    pub influences: usize,
    pub indices: usize,
    pub parts: usize,
    pub palette: usize,
    pub clips: usize,
    pub channels: usize,
    pub floats: usize,
    pub names: usize,
}

pub fn layout(b: &[u8], value: usize, weight: usize) -> Layout {
    let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]) as usize;
    let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap()) as usize;
    let (bones, joints, parts, clips) = (u16_at(10), u16_at(12), u16_at(14), u16_at(16));
    let (verts, idx, pal, chans, floats) =
        (u32_at(20), u32_at(24), u32_at(28), u32_at(32), u32_at(36));
    let normals = b[6] & 1 == 1;
    let mut at = 52;
    let mut next = |len: usize| {
        let start = at;
        at = (at + len).div_ceil(4) * 4;
        start
    };
    let parents = next(2 * bones);
    let rest = next(40 * bones);
    next(48);
    let joints_at = next(2 * joints);
    next(48 * joints);
    let positions = next(3 * value * verts);
    next(if normals { 3 * value * verts } else { 0 });
    let influences = next((4 + 3 * weight) * verts);
    let indices = next(2 * idx);
    let parts_at = next(12 * parts);
    let palette = next(2 * pal);
    let clips_at = next(12 * clips);
    let channels = next(8 * chans);
    let floats_at = next(4 * floats);
    let names = next(0);
    Layout {
        parents,
        rest,
        joints: joints_at,
        positions,
        influences,
        indices,
        parts: parts_at,
        palette,
        clips: clips_at,
        channels,
        floats: floats_at,
        names,
    }
}

/// Rewrite the CRC after a deliberate change.
pub fn reseal(b: &mut [u8]) {
    let crc = skin_core::asset::checksum(b);
    b[48..52].copy_from_slice(&crc.to_le_bytes());
}
