//! The bind pose: which bones drive the mesh (the *joints*, in palette order) and their
//! inverse bind matrices `B_i⁻¹`, which take a model-space vertex into bone `i`'s frame.

use heapless::Vec;

use crate::affine::Affine;
use crate::budget::{Budget, Layout};
use crate::error::{Error, Quantity};
use crate::lane::Lane;
use crate::num::Real;
use crate::palette::Palette;

/// Up to `J` joints: bone indices into a skeleton and their inverse bind matrices.
///
/// ```
/// use skin_core::affine::Affine;
/// use skin_core::bind::BindPose;
/// use skin_core::palette::Palette;
/// // Bone 0 was at x = 2 when the mesh was bound; it is now at x = 5.
/// let bind = BindPose::<f32, 4>::new(&[0], &[Affine::translation([-2.0, 0.0, 0.0])], 1).unwrap();
/// let world = [Affine::translation([5.0, 0.0, 0.0])];
/// let mut palette: Palette<f32, 4> = Palette::new();
/// bind.palette(&world, &mut palette).unwrap();
/// // M = W · B⁻¹ keeps the translation: the mesh moves by 3.
/// assert_eq!(palette.as_slice()[0].transform_point([2.0, 0.0, 0.0]), [5.0, 0.0, 0.0]);
/// ```
#[derive(Clone, Debug)]
pub struct BindPose<R: Real, const J: usize> {
    joints: Vec<u16, J>,
    inverse_binds: Vec<Affine<R>, J>,
    centre: [R; 3],
}

impl<R: Real, const J: usize> BindPose<R, J> {
    /// Joints (bone indices, below `bones`) with their inverse bind matrices.
    pub fn new(joints: &[u16], inverse_binds: &[Affine<R>], bones: usize) -> Result<Self, Error> {
        if inverse_binds.len() != joints.len() {
            return Err(Error::LengthMismatch {
                expected: joints.len(),
                actual: inverse_binds.len(),
            });
        }
        let cap = Error::Capacity {
            len: joints.len(),
            capacity: J,
        };
        let finite = |m: &Affine<R>| m.rows.iter().flatten().all(|v| v.is_finite());
        if let Some(index) = inverse_binds.iter().position(|m| !finite(m)) {
            return Err(Error::NotFinite {
                what: Quantity::InverseBind,
                index,
            });
        }
        if let Some(joint) = joints.iter().position(|&b| usize::from(b) >= bones) {
            return Err(Error::JointIndex {
                joint,
                bone: usize::from(joints[joint]),
                bones,
            });
        }
        let mut s = Self {
            joints: Vec::new(),
            inverse_binds: Vec::new(),
            centre: [R::ZERO; 3],
        };
        s.joints.extend_from_slice(joints).map_err(|_| cap)?;
        s.inverse_binds
            .extend_from_slice(inverse_binds)
            .map_err(|_| cap)?;
        Ok(s)
    }

    /// Joints whose inverse bind matrices are the inverses of `bind_world`, the world
    /// matrices of the skeleton in the pose the mesh was modelled in.
    pub fn from_bind_world(joints: &[u16], bind_world: &[Affine<R>]) -> Result<Self, Error> {
        let mut inverse: Vec<Affine<R>, J> = Vec::new();
        for (joint, &bone) in joints.iter().enumerate() {
            let b = usize::from(bone);
            let m = bind_world.get(b).ok_or(Error::JointIndex {
                joint,
                bone: b,
                bones: bind_world.len(),
            })?;
            let inv = m.inverse().ok_or(Error::Singular { bone: b })?;
            inverse.push(inv).map_err(|_| Error::Capacity {
                len: joints.len(),
                capacity: J,
            })?;
        }
        Self::new(joints, &inverse, bind_world.len())
    }

    /// This bind pose with its skinning matrices taken relative to `centre`: each
    /// [`Self::matrix`] is `T(−centre) · W · B⁻¹`, so a mesh near `centre` skins to small
    /// coordinates that a caller adds `centre` back to ([`crate::lane::Lane::offset`]). The
    /// fixed lane's asset stores its model's centre so (see `docs/FORMAT.md`, "Centre"):
    /// its palette translations and outputs then stay small whatever the model's distance
    /// from the origin, and its unit can be as fine as the model's size allows.
    ///
    /// ```
    /// use skin_core::affine::Affine;
    /// use skin_core::bind::BindPose;
    /// let bind = BindPose::<f32, 4>::new(&[0], &[Affine::IDENTITY], 1)
    ///     .unwrap()
    ///     .with_centre([5.0, 0.0, 0.0])
    ///     .unwrap();
    /// let m = bind.matrix(0, &[Affine::translation([6.0, 0.0, 0.0])]).unwrap();
    /// assert_eq!(m.transform_point([0.0; 3]), [1.0, 0.0, 0.0]);
    /// assert_eq!(bind.centre(), [5.0, 0.0, 0.0]);
    /// ```
    ///
    /// [`Error::Overflow`] (of a position, indexed by axis) for a coordinate beyond half the
    /// format's checked range ([`Real::LIMIT`]), where a skinning matrix less it could
    /// leave the format.
    pub fn with_centre(mut self, centre: [R; 3]) -> Result<Self, Error> {
        if let Some(index) = centre
            .iter()
            .position(|c| !c.is_finite() || c.to_f32().abs() > R::LIMIT / 2.0)
        {
            return Err(Error::Overflow {
                what: Quantity::Position,
                index,
                format: R::NAME,
            });
        }
        self.centre = centre;
        Ok(self)
    }

    /// The centre the skinning matrices are taken relative to (zero unless
    /// [`Self::with_centre`] set one).
    pub fn centre(&self) -> [R; 3] {
        self.centre
    }

    /// Joints.
    pub fn len(&self) -> usize {
        self.joints.len()
    }

    /// `true` with no joints.
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }

    /// Bone index of each joint.
    pub fn joints(&self) -> &[u16] {
        &self.joints
    }

    /// Inverse bind matrix of each joint.
    pub fn inverse_binds(&self) -> &[Affine<R>] {
        &self.inverse_binds
    }

    /// [`Error::BudgetExceeded`] unless every joint fits `budget` with `layout`.
    pub fn check_budget(&self, budget: &Budget, layout: Layout) -> Result<(), Error> {
        budget.check(self.len(), layout)
    }

    /// Fill `out` with `M_i = W_i · B_i⁻¹` for every joint, narrowed to lane `L` at the
    /// smallest exponent that fits them all ([`Palette::fill`]).
    ///
    /// A palette smaller than `J` is a compile-time error; [`Error::Overflow`] when a matrix
    /// does not fit the lane (fixed point), [`Error::LengthMismatch`] when `world` is short.
    ///
    /// A 40-joint skeleton cannot be given a vs_1_1 palette (32 3×4 matrices):
    ///
    /// ```compile_fail
    /// use skin_core::prelude::*;
    /// const CAP: usize = Budget::VS_1_1.capacity(Layout::Affine3x4);
    /// fn build(bind: &BindPose<f32, 40>, world: &[Affine<f32>]) -> Palette<f32, CAP> {
    ///     let mut palette = Palette::new();
    ///     bind.palette(world, &mut palette).unwrap(); // error: J = 40 > CAP = 32
    ///     palette
    /// }
    /// # build(&BindPose::new(&[], &[], 0).unwrap(), &[]);
    /// ```
    ///
    /// while a vs_2_0 palette (85) takes it:
    ///
    /// ```
    /// use skin_core::prelude::*;
    /// const CAP: usize = Budget::VS_2_0.capacity(Layout::Affine3x4);
    /// let bind = BindPose::<f32, 40>::new(&[0], &[Affine::IDENTITY], 1).unwrap();
    /// let mut palette: Palette<f32, CAP> = Palette::new();
    /// bind.palette(&[Affine::IDENTITY], &mut palette).unwrap();
    /// assert_eq!(palette.len(), 1);
    /// ```
    pub fn palette<L: Lane<Real = R>, const CAP: usize>(
        &self,
        world: &[Affine<R>],
        out: &mut Palette<L, CAP>,
    ) -> Result<(), Error> {
        const {
            assert!(
                J <= CAP,
                "the palette is smaller than the bind pose's joint capacity"
            )
        };
        out.fill(|| (0..self.len()).map(|joint| self.matrix(joint, world)))
    }

    /// One joint's skinning matrix `M = W[bone] · B⁻¹` from the skeleton's world matrices
    /// (less the [centre](Self::with_centre), if one is set):
    /// [`Error::JointIndex`] for a joint this bind pose does not have,
    /// [`Error::LengthMismatch`] when `world` is short, [`Error::Overflow`] (indexed by
    /// joint) when the product leaves the number format's checked range.
    pub fn matrix(&self, joint: usize, world: &[Affine<R>]) -> Result<Affine<R>, Error> {
        let missing = Error::JointIndex {
            joint,
            bone: 0,
            bones: self.len(),
        };
        let bone = usize::from(*self.joints.get(joint).ok_or(missing)?);
        let ibm = self.inverse_binds.get(joint).ok_or(missing)?;
        let w = world.get(bone).ok_or(Error::LengthMismatch {
            expected: bone + 1,
            actual: world.len(),
        })?;
        let overflow = Error::Overflow {
            what: Quantity::Palette,
            index: joint,
            format: R::NAME,
        };
        let mut m = w.checked_mul(ibm).ok_or(overflow)?;
        for (row, &c) in m.rows.iter_mut().zip(&self.centre) {
            // The product is within the format's checked range (`R::LIMIT`, half the
            // format's) and the centre within half of that (`with_centre`): the difference
            // is inside the format; narrowing the palette checks its range.
            row[3] = row[3] - c;
        }
        Ok(m)
    }
}
