//! The correctives section (present when the header has [`FLAG_CORRECTIVES`], after the
//! morph section): pose-space deformation's Gaussian RBFs ([`crate::psd`]), each driving
//! some morph targets of one morph set from the local rotations of a few bones. Its layout,
//! the writer's input ([`CorrectiveParts`]), the writer, the reader's checks and the view
//! ([`Correctives`]) that evaluates an RBF straight from the bytes.
//!
//! Centres and solved weights are stored in the lane's pose scalar (`f32`, or the fixed
//! lane's `I8F24` bits), so a device evaluates them as the host's `skin pose` does, without
//! converting anything.

use core::marker::PhantomData;

use super::header::{section, FLAG_CORRECTIVES};
use super::views::U16s;
use super::{Asset, AssetError, AssetLane, Field};
use crate::num::Real;
use crate::psd::{evaluate, falloff, valid_centre, Feature, PsdError};
use crate::psd::{MAX_DRIVERS, MAX_SAMPLES};
use crate::transform::Transform;

/// The most corrective targets an asset drives, over all its RBFs: a frame holds one
/// weight each ([`crate::scene::Scratch`]).
pub const MAX_CORRECTIVES: usize = 16;

/// Bytes of the section's head: RBFs u16, reserved u16.
const HEAD_LEN: usize = 4;
/// Bytes per RBF record: set u16, drivers u16, samples u16, targets u16, σ f32.
const RBF_LEN: usize = 12;

/// The correctives an asset holds, for [`super::AssetParts::write_deformed`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CorrectiveParts<'a> {
    /// The RBFs, in increasing set order, at most one a set.
    pub rbfs: &'a [CorrectiveRbf<'a>],
}

/// One set's correctives: the RBF of [`crate::psd::Rbf::new`], over bones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CorrectiveRbf<'a> {
    /// The morph set whose targets it drives.
    pub set: u16,
    /// Driving bones (1 to [`MAX_DRIVERS`]).
    pub drivers: &'a [u16],
    /// The driven targets, local to the set, strictly increasing.
    pub targets: &'a [u16],
    /// σ, the Gaussians' width.
    pub sigma: f32,
    /// The samples' centres, sample-major: one unit quaternion `[x, y, z, w]` (`w ≥ 0`) per
    /// driver.
    pub centres: &'a [[f32; 4]],
    /// The solved weights `W`, sample-major: one per target.
    pub weights: &'a [f32],
}

/// Byte ranges of the section's parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CorrectiveSections {
    pub rbfs: usize,
    pub head: (usize, usize),
    pub records: (usize, usize),
    pub drivers: (usize, usize),
    pub targets: (usize, usize),
    pub values: (usize, usize),
    pub total: usize,
}

/// One stored RBF record's counts.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Record {
    set: u16,
    drivers: usize,
    samples: usize,
    targets: usize,
    sigma: f32,
}

impl Record {
    fn get(r: &[u8]) -> Self {
        let u = |i: usize| usize::from(u16::from_le_bytes([r[i], r[i + 1]]));
        Record {
            set: u16::from_le_bytes([r[0], r[1]]),
            drivers: u(2),
            samples: u(4),
            targets: u(6),
            sigma: f32::from_le_bytes([r[8], r[9], r[10], r[11]]),
        }
    }

    /// Stored values: the centres' components, then the weights.
    fn values(&self) -> Option<usize> {
        self.samples.checked_mul(4 * self.drivers + self.targets)
    }
}

impl CorrectiveSections {
    /// The layout from `at`, for `rbfs` records whose drivers, targets and values add up
    /// to the given totals.
    fn new(at: usize, rbfs: usize, totals: [usize; 3]) -> Result<Self, AssetError> {
        let mut next_at = at;
        let mut next = |count: usize, size: usize| section(&mut next_at, count, size);
        let s = Self {
            rbfs,
            head: next(1, HEAD_LEN)?,
            records: next(rbfs, RBF_LEN)?,
            drivers: next(totals[0], 2)?,
            targets: next(totals[1], 2)?,
            values: next(totals[2], 4)?,
            total: 0,
        };
        Ok(Self {
            total: next_at,
            ..s
        })
    }

    /// The layout of the section at `at` in `bytes`, from its head and records.
    pub fn read(bytes: &[u8], at: usize) -> Result<Self, AssetError> {
        let truncated = |needed| AssetError::Truncated {
            needed,
            len: bytes.len(),
        };
        let head = bytes
            .get(at..at + HEAD_LEN)
            .ok_or(truncated(at + HEAD_LEN))?;
        let rbfs = usize::from(u16::from_le_bytes([head[0], head[1]]));
        let start = at + HEAD_LEN;
        let end = start + rbfs * RBF_LEN;
        let records = bytes.get(start..end).ok_or(truncated(end))?;
        let mut totals = [0usize; 3];
        for r in records.chunks_exact(RBF_LEN).map(Record::get) {
            let values = r.values().ok_or(AssetError::TooLarge)?;
            for (t, v) in totals.iter_mut().zip([r.drivers, r.targets, values]) {
                *t = t.checked_add(v).ok_or(AssetError::TooLarge)?;
            }
        }
        Self::new(at, rbfs, totals)
    }
}

impl CorrectiveParts<'_> {
    /// The layout from `at`, checking what it cannot express.
    pub(crate) fn sections(&self, at: usize) -> Result<CorrectiveSections, AssetError> {
        let mut totals = [0usize; 3];
        for (i, r) in self.rbfs.iter().enumerate() {
            let d = r.drivers.len().max(1);
            let samples = r.centres.len() / d;
            let (t, w) = (r.targets.len(), r.weights.len());
            if r.drivers.is_empty() || r.centres.len() % d != 0 || samples * t != w {
                return Err(AssetError::Psd {
                    rbf: i,
                    error: PsdError::Samples {
                        centres: r.centres.len(),
                        weights: w,
                        targets: t,
                    },
                });
            }
            for (total, v) in totals.iter_mut().zip([d, t, 4 * r.centres.len() + w]) {
                *total += v;
            }
        }
        CorrectiveSections::new(at, self.rbfs.len(), totals)
    }

    /// Write the section laid out as `s` into `out` (zeroed), values in `L`'s pose scalar.
    pub(crate) fn put<L: AssetLane>(
        &self,
        s: &CorrectiveSections,
        out: &mut [u8],
    ) -> Result<(), AssetError> {
        let too_large = |_| AssetError::TooLarge;
        let rbfs = u16::try_from(self.rbfs.len()).map_err(too_large)?;
        out[s.head.0..s.head.0 + 2].copy_from_slice(&rbfs.to_le_bytes());
        let (mut driver, mut target, mut value) = (s.drivers.0, s.targets.0, s.values.0);
        for (i, r) in self.rbfs.iter().enumerate() {
            let rec = &mut out[s.records.0 + RBF_LEN * i..][..RBF_LEN];
            let samples = r.centres.len() / r.drivers.len();
            for (k, n) in [r.drivers.len(), samples, r.targets.len()]
                .iter()
                .enumerate()
            {
                let n = u16::try_from(*n).map_err(too_large)?;
                rec[2 + 2 * k..4 + 2 * k].copy_from_slice(&n.to_le_bytes());
            }
            rec[..2].copy_from_slice(&r.set.to_le_bytes());
            rec[8..12].copy_from_slice(&r.sigma.to_le_bytes());
            for &d in r.drivers {
                out[driver..driver + 2].copy_from_slice(&d.to_le_bytes());
                driver += 2;
            }
            for &t in r.targets {
                out[target..target + 2].copy_from_slice(&t.to_le_bytes());
                target += 2;
            }
            let values = r.centres.iter().flatten().chain(r.weights);
            for (index, &v) in values.enumerate() {
                let v = L::Real::from_f32(v).map_err(|_| AssetError::Invalid {
                    what: Field::CorrectiveValue,
                    index,
                })?;
                out[value..value + 4].copy_from_slice(&L::real_bytes(v));
                value += 4;
            }
        }
        Ok(())
    }
}

/// The correctives section of a read asset ([`Asset::correctives`]).
#[derive(Clone, Copy, Debug)]
pub struct Correctives<'a, L> {
    asset: Asset<'a, L>,
    s: CorrectiveSections,
}

/// One stored RBF ([`Correctives::rbfs`]).
#[derive(Clone, Copy, Debug)]
pub struct CorrectiveView<'a, L> {
    record: Record,
    drivers: U16s<'a>,
    targets: U16s<'a>,
    values: &'a [u8],
    lane: PhantomData<L>,
}

impl<'a, L: AssetLane> Correctives<'a, L> {
    /// RBFs.
    pub fn len(&self) -> usize {
        self.s.rbfs
    }

    /// `true` without RBFs.
    pub fn is_empty(&self) -> bool {
        self.s.rbfs == 0
    }

    /// Bytes the section takes.
    pub fn size(&self) -> usize {
        self.s.total - self.s.head.0
    }

    /// The RBFs, in set order.
    pub fn rbfs(&self) -> impl Iterator<Item = CorrectiveView<'a, L>> + 'a {
        let b = |r: (usize, usize)| self.asset.bytes_of(r);
        let (records, drivers, targets, values) = (
            b(self.s.records),
            b(self.s.drivers),
            b(self.s.targets),
            b(self.s.values),
        );
        let mut at = (0usize, 0usize, 0usize);
        records.chunks_exact(RBF_LEN).map(move |r| {
            let record = Record::get(r);
            let n = record.values().unwrap_or(0);
            let view = CorrectiveView {
                record,
                drivers: U16s::new(
                    drivers
                        .get(2 * at.0..2 * (at.0 + record.drivers))
                        .unwrap_or(&[]),
                ),
                targets: U16s::new(
                    targets
                        .get(2 * at.1..2 * (at.1 + record.targets))
                        .unwrap_or(&[]),
                ),
                values: values.get(4 * at.2..4 * (at.2 + n)).unwrap_or(&[]),
                lane: PhantomData,
            };
            at = (at.0 + record.drivers, at.1 + record.targets, at.2 + n);
            view
        })
    }
}

impl<'a, L: AssetLane> CorrectiveView<'a, L> {
    /// The morph set it drives.
    pub fn set(&self) -> usize {
        usize::from(self.record.set)
    }

    /// Its driving bones.
    pub fn drivers(&self) -> U16s<'a> {
        self.drivers
    }

    /// Its targets, local to the set, increasing.
    pub fn targets(&self) -> U16s<'a> {
        self.targets
    }

    /// σ.
    pub fn sigma(&self) -> f32 {
        self.record.sigma
    }

    /// Its samples.
    pub fn samples(&self) -> usize {
        self.record.samples
    }

    fn value(&self, i: usize) -> L::Real {
        let b = self.values.get(4 * i..4 * i + 4).unwrap_or(&[0; 4]);
        L::real_from([b[0], b[1], b[2], b[3]])
    }

    /// Sample `j`'s centre: one quaternion per driving bone.
    pub fn centre(&self, j: usize) -> Feature<L::Real> {
        let d = self.record.drivers;
        Feature::from_values((0..d).map(|q| {
            let at = 4 * (j * d + q);
            core::array::from_fn(|c| self.value(at + c))
        }))
    }

    /// The solved weight `Wⱼₖ` of sample `j` and target `k` (its index in
    /// [`Self::targets`]).
    pub fn weight(&self, j: usize, k: usize) -> L::Real {
        let r = &self.record;
        self.value(4 * r.samples * r.drivers + j * r.targets + k)
    }

    /// The targets' weights (one a target, into `out`) at `pose` (local transforms, one a
    /// bone), as [`crate::psd::Rbf::weights`] gives them: the same bits, the same bound.
    pub fn weigh(&self, pose: &[Transform<L::Real>], out: &mut [f32]) -> Result<(), PsdError> {
        let r = &self.record;
        if out.len() != r.targets {
            return Err(PsdError::Output {
                targets: r.targets,
                len: out.len(),
            });
        }
        let phi = Feature::of(pose, self.drivers.iter())?;
        let c = falloff::<L::Real>(r.sigma)?;
        let centres = (0..r.samples).map(|j| self.centre(j));
        evaluate(
            &phi,
            c,
            centres,
            |k| (0..r.samples).map(move |j| self.weight(j, k)),
            out,
        );
        Ok(())
    }

    /// The RBF is one [`crate::psd::Rbf::new`] would accept, over `bones` bones, driving
    /// a set of `set_targets` targets.
    fn check(&self, i: usize, bones: usize, set_targets: usize) -> Result<(), AssetError> {
        let psd = |error| AssetError::Psd { rbf: i, error };
        let r = &self.record;
        if r.drivers == 0 || r.drivers > MAX_DRIVERS {
            return Err(psd(PsdError::Drivers { count: r.drivers }));
        }
        if r.samples == 0 || r.samples > MAX_SAMPLES || r.targets == 0 {
            return Err(psd(PsdError::Samples {
                centres: r.samples * r.drivers,
                weights: r.samples * r.targets,
                targets: r.targets,
            }));
        }
        if let Some(joint) = self.drivers.iter().find(|&b| usize::from(b) >= bones) {
            return Err(psd(PsdError::Joint {
                joint,
                joints: bones,
            }));
        }
        let mut next = 0usize;
        for (index, t) in self.targets.iter().enumerate() {
            let t = usize::from(t);
            if t < next || t >= set_targets {
                return Err(AssetError::Index {
                    what: Field::CorrectiveTarget,
                    index,
                    value: t,
                    limit: set_targets,
                });
            }
            next = t + 1;
        }
        falloff::<L::Real>(r.sigma).map_err(psd)?;
        for j in 0..r.samples {
            for (q, c) in self.centre(j).as_ref().iter().enumerate() {
                if !valid_centre(c) {
                    return Err(psd(PsdError::Centre {
                        index: j * r.drivers + q,
                        value: c.map(L::Real::to_f32),
                    }));
                }
            }
        }
        for k in 0..r.targets {
            let mut sum = 0.0f32;
            for j in 0..r.samples {
                let w = self.weight(j, k);
                if !w.is_finite() {
                    return Err(psd(PsdError::NotFinite {
                        what: "weight",
                        index: j * r.targets + k,
                    }));
                }
                sum += w.to_f32().abs();
            }
            if sum > L::Real::LIMIT {
                return Err(psd(PsdError::Spread {
                    target: k,
                    sum,
                    limit: L::Real::LIMIT,
                }));
            }
        }
        Ok(())
    }
}

impl<'a, L: AssetLane> Asset<'a, L> {
    /// The correctives section, when the asset has one.
    pub fn correctives(&self) -> Option<Correctives<'a, L>> {
        let at = usize::try_from(self.c?).ok()?;
        let s = CorrectiveSections::read(self.bytes, at).ok()?;
        Some(Correctives { asset: *self, s })
    }

    /// Every RBF drives an existing set (at most one a set, in set order) from existing
    /// bones, within [`MAX_CORRECTIVES`] targets in all, its values usable.
    pub(crate) fn check_correctives(&self) -> Result<(), AssetError> {
        let Some(c) = self.correctives() else {
            return Ok(());
        };
        let head = self.bytes_of(c.s.head);
        if head[2..4] != [0, 0] {
            return Err(AssetError::Invalid {
                what: Field::CorrectiveRbf,
                index: 0,
            });
        }
        let Some(morphs) = self.morphs() else {
            return Err(AssetError::Mismatch {
                what: Field::MorphSet,
                expected: 1,
                actual: 0,
            });
        };
        let (mut next_set, mut targets) = (0usize, 0usize);
        for (i, rbf) in c.rbfs().enumerate() {
            let set = rbf.set();
            let Some(s) = morphs.sets().nth(set) else {
                return Err(AssetError::Index {
                    what: Field::CorrectiveRbf,
                    index: i,
                    value: set,
                    limit: morphs.len(),
                });
            };
            if set < next_set {
                return Err(AssetError::Invalid {
                    what: Field::CorrectiveRbf,
                    index: i,
                });
            }
            next_set = set + 1;
            rbf.check(i, self.bones(), s.targets.len())?;
            targets += rbf.targets().len();
        }
        if targets > MAX_CORRECTIVES {
            return Err(AssetError::Capacity {
                what: Field::CorrectiveTarget,
                len: targets,
                capacity: MAX_CORRECTIVES,
            });
        }
        Ok(())
    }
}

/// The header flag for an asset with correctives.
pub(crate) const fn flag(correctives: bool) -> u16 {
    if correctives {
        FLAG_CORRECTIVES
    } else {
        0
    }
}
