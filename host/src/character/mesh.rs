//! The character's mesh: closed tubes, a head and feet, each vertex tagged with its body
//! part (which bones may weigh on it), triangles wound counter-clockwise from outside.

use std::f32::consts::TAU;

use super::vector::{cross, dot, mid, sub};
use super::{BodyPart, Side, SIDES};

/// The mesh under construction: vertices with their body part, triangles.
#[derive(Default)]
pub(crate) struct Mesh {
    pub(crate) positions: Vec<[f32; 3]>,
    pub(crate) body_parts: Vec<BodyPart>,
    pub(crate) indices: Vec<u16>,
}

impl Mesh {
    fn vertex(&mut self, p: [f32; 3], part: BodyPart) -> u16 {
        self.positions.push(p);
        self.body_parts.push(part);
        (self.positions.len() - 1) as u16
    }

    /// A triangle, wound so that its normal points away from `inside`.
    fn triangle(&mut self, [a, b, c]: [u16; 3], inside: [f32; 3]) {
        let p = |i: u16| self.positions[usize::from(i)];
        let n = cross(sub(p(b), p(a)), sub(p(c), p(a)));
        let centre = [0, 1, 2].map(|k| (p(a)[k] + p(b)[k] + p(c)[k]) / 3.0);
        let outward = dot(n, sub(centre, inside)) >= 0.0;
        self.indices
            .extend(if outward { [a, b, c] } else { [a, c, b] });
    }

    /// A closed tube through `rings` (centre, radius across x, radius across z), capped
    /// at both ends by a vertex `cap` beyond the end rings.
    fn tube(&mut self, rings: &[([f32; 3], f32, f32)], cap: f32, part: BodyPart) {
        let first = self.positions.len() as u16;
        for &(c, rx, rz) in rings {
            for j in 0..SIDES {
                let a = TAU * j as f32 / SIDES as f32;
                self.vertex([c[0] + rx * a.cos(), c[1], c[2] + rz * a.sin()], part);
            }
        }
        let at = |i: usize, j: usize| first + (i * SIDES + j % SIDES) as u16;
        for i in 0..rings.len() - 1 {
            let inside = mid(rings[i].0, rings[i + 1].0);
            for j in 0..SIDES {
                self.triangle([at(i, j), at(i, j + 1), at(i + 1, j + 1)], inside);
                self.triangle([at(i, j), at(i + 1, j + 1), at(i + 1, j)], inside);
            }
        }
        let last = rings.len() - 1;
        for (i, next) in [(0, 1), (last, last - 1)] {
            let c = rings[i].0;
            let out = (c[1] - rings[next].0[1]).signum();
            let pole = self.vertex([c[0], c[1] + out * cap, c[2]], part);
            for j in 0..SIDES {
                self.triangle([at(i, j), at(i, j + 1), pole], c);
            }
        }
    }

    /// A sphere-like head: `rings` latitude rings and two poles.
    fn ball(&mut self, centre: [f32; 3], r: f32, rings: usize, part: BodyPart) {
        let top = self.vertex([centre[0], centre[1] + r, centre[2]], part);
        let first = self.positions.len() as u16;
        for i in 1..=rings {
            let lat = std::f32::consts::PI * i as f32 / (rings + 1) as f32;
            for j in 0..SIDES {
                let a = TAU * j as f32 / SIDES as f32;
                let (s, c) = (lat.sin() * r, lat.cos() * r);
                self.vertex(
                    [
                        centre[0] + s * a.cos(),
                        centre[1] + c,
                        centre[2] + s * a.sin(),
                    ],
                    part,
                );
            }
        }
        let bottom = self.vertex([centre[0], centre[1] - r, centre[2]], part);
        let at = |i: usize, j: usize| first + (i * SIDES + j % SIDES) as u16;
        for j in 0..SIDES {
            self.triangle([top, at(0, j), at(0, j + 1)], centre);
            self.triangle([bottom, at(rings - 1, j), at(rings - 1, j + 1)], centre);
        }
        for i in 0..rings - 1 {
            for j in 0..SIDES {
                self.triangle([at(i, j), at(i, j + 1), at(i + 1, j + 1)], centre);
                self.triangle([at(i, j), at(i + 1, j + 1), at(i + 1, j)], centre);
            }
        }
    }

    /// A box from `lo` to `hi` (a foot).
    fn block(&mut self, lo: [f32; 3], hi: [f32; 3], part: BodyPart) {
        let first = self.positions.len() as u16;
        for k in 0..8 {
            let pick = |axis: usize| {
                if k >> axis & 1 == 1 {
                    hi[axis]
                } else {
                    lo[axis]
                }
            };
            self.vertex([pick(0), pick(1), pick(2)], part);
        }
        let centre = mid(lo, hi);
        // Each face as two triangles over corner bit patterns.
        for (axis, side) in [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)] {
            let corners: Vec<u16> = (0..8u16)
                .filter(|k| usize::from(k >> axis & 1) == side)
                .map(|k| first + k)
                .collect();
            // The four corners of a face, as a cycle: 00, 01, 11, 10 in the other two axes.
            let q = [corners[0], corners[1], corners[3], corners[2]];
            self.triangle([q[0], q[1], q[2]], centre);
            self.triangle([q[0], q[2], q[3]], centre);
        }
    }

    /// Area-weighted vertex normals.
    pub(crate) fn normals(&self) -> Vec<[f32; 3]> {
        let mut n = vec![[0f32; 3]; self.positions.len()];
        for t in self.indices.chunks_exact(3) {
            let p = |k: usize| self.positions[usize::from(t[k])];
            let f = cross(sub(p(1), p(0)), sub(p(2), p(0)));
            for &i in t {
                for a in 0..3 {
                    n[usize::from(i)][a] += f[a];
                }
            }
        }
        n.iter()
            .map(|v| {
                let l = dot(*v, *v).sqrt();
                v.map(|c| c / l)
            })
            .collect()
    }
}

/// The body: torso, head, arms, legs and feet.
pub(crate) fn body(m: &mut Mesh) {
    m.tube(
        &[
            ([0., 0.84, 0.], 0.15, 0.10),
            ([0., 0.96, 0.], 0.16, 0.11),
            ([0., 1.10, 0.], 0.14, 0.10),
            ([0., 1.26, 0.], 0.16, 0.11),
            ([0., 1.40, 0.], 0.19, 0.12),
            ([0., 1.48, 0.], 0.14, 0.10),
            ([0., 1.55, 0.], 0.05, 0.05),
        ],
        0.03,
        BodyPart::Torso,
    );
    m.ball([0., 1.68, 0.02], 0.12, 4, BodyPart::Head);
    for (side, s) in [(Side::Left, 1.0), (Side::Right, -1.0)] {
        let x = 0.24 * s;
        m.tube(
            &[
                ([x, 1.46, 0.], 0.055, 0.055),
                ([x, 1.30, 0.], 0.048, 0.048),
                ([x, 1.17, 0.], 0.042, 0.042),
                ([x, 1.03, 0.], 0.040, 0.040),
                ([x, 0.90, 0.], 0.034, 0.034),
            ],
            0.04,
            BodyPart::Arm(side),
        );
        let x = 0.1 * s;
        m.tube(
            &[
                ([x, 0.90, 0.], 0.075, 0.075),
                ([x, 0.70, 0.], 0.068, 0.068),
                ([x, 0.49, 0.], 0.055, 0.055),
                ([x, 0.28, 0.], 0.050, 0.050),
                ([x, 0.10, 0.], 0.040, 0.040),
            ],
            0.02,
            BodyPart::Leg(side),
        );
        m.block(
            [x - 0.045, 0.0, -0.05],
            [x + 0.045, 0.07, 0.14],
            BodyPart::Leg(side),
        );
    }
}
