//! The bone hierarchy and forward kinematics.

use heapless::Vec;

use crate::affine::Affine;
use crate::error::{Error, Quantity};
use crate::num::Real;
use crate::transform::Transform;

/// A tree (or forest) of up to `N` bones, every parent before its children, so that one
/// root-first pass computes all world matrices.
///
/// ```
/// use skin_core::skeleton::Skeleton;
/// use skin_core::transform::Transform;
/// use skin_core::affine::Affine;
/// let up = Transform::<f32>::from_f32([0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap();
/// let skel = Skeleton::<f32, 8>::new(&[None, Some(0), Some(1)], &[up; 3]).unwrap();
/// let mut world = [Affine::IDENTITY; 3];
/// skel.world(skel.rest(), &mut world).unwrap();
/// assert_eq!(world[2].translation_part(), [0.0, 3.0, 0.0]);
/// // A bone listed before its parent is rejected:
/// assert!(Skeleton::<f32, 8>::new(&[Some(1), None], &[up; 2]).is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Skeleton<R: Real, const N: usize> {
    parents: Vec<Option<u16>, N>,
    rest: Vec<Transform<R>, N>,
    root: Affine<R>,
}

impl<R: Real, const N: usize> Skeleton<R, N> {
    /// A skeleton from parent indices (`None` for roots) and rest-pose local transforms.
    ///
    /// Errors: [`Error::Capacity`] beyond `N` bones, [`Error::LengthMismatch`],
    /// [`Error::ParentIndex`] for a parent that does not exist, [`Error::Cycle`] for a bone
    /// that is its own ancestor, [`Error::ParentOrder`] for a parent listed after its child,
    /// [`Error::NoRoot`] for an empty skeleton, [`Error::NotFinite`] for a rest transform
    /// that is not finite or not within [`Real::LIMIT`] (see [`Transform::is_valid`]).
    pub fn new(parents: &[Option<u16>], rest: &[Transform<R>]) -> Result<Self, Error> {
        let n = parents.len();
        if rest.len() != n {
            return Err(Error::LengthMismatch {
                expected: n,
                actual: rest.len(),
            });
        }
        if n > N || n > usize::from(u16::MAX) {
            return Err(Error::Capacity {
                len: n,
                capacity: N,
            });
        }
        for (bone, parent) in parents.iter().enumerate() {
            let Some(p) = *parent else { continue };
            let p = usize::from(p);
            if p >= n {
                return Err(Error::ParentIndex { bone, parent: p });
            }
            if p >= bone {
                return Err(if on_cycle(parents, bone) {
                    Error::Cycle { bone }
                } else {
                    Error::ParentOrder { bone, parent: p }
                });
            }
        }
        if n == 0 {
            return Err(Error::NoRoot);
        }
        if let Some(index) = rest.iter().position(|t| !t.is_valid()) {
            return Err(Error::NotFinite {
                what: Quantity::LocalTransform,
                index,
            });
        }
        Self::filled(parents, rest)
    }

    /// The skeleton of checked parents and rest transforms (at most `N` of each, as
    /// [`Self::new`] checked).
    ///
    /// A function of its own, not inlined, so that the large frame (a whole `Self`, 45 KiB
    /// for 1024 bones) is set up on entry. Inside [`Self::new`], LLVM 22 (Rust 1.95 and
    /// 1.96) moved that set-up past the checks ("shrink-wrapping") and the x86-64 stack
    /// probe it emits for large frames overwrote `r11`, which still held a value of the
    /// checks: the copy below then ran with a garbage length and crashed (`host_bake`, in
    /// release builds). The same bug class as llvm/llvm-project#198699 on RISC-V.
    #[inline(never)]
    fn filled(parents: &[Option<u16>], rest: &[Transform<R>]) -> Result<Self, Error> {
        let mut s = Self {
            parents: Vec::new(),
            rest: Vec::new(),
            root: Affine::IDENTITY,
        };
        // `new` checked the capacity: these cannot fail.
        let full = |_| Error::Capacity {
            len: parents.len(),
            capacity: N,
        };
        s.parents.extend_from_slice(parents).map_err(full)?;
        s.rest.extend_from_slice(rest).map_err(full)?;
        Ok(s)
    }

    /// The same skeleton with every root placed under `root` (e.g. the non-joint ancestors
    /// of a glTF skeleton that turn Z-up into Y-up).
    pub fn with_root(mut self, root: Affine<R>) -> Self {
        self.root = root;
        self
    }

    /// Bones.
    pub fn len(&self) -> usize {
        self.parents.len()
    }

    /// Always `false`: a skeleton has at least one bone.
    pub fn is_empty(&self) -> bool {
        self.parents.is_empty()
    }

    /// Parent of each bone.
    pub fn parents(&self) -> &[Option<u16>] {
        &self.parents
    }

    /// Rest-pose local transforms.
    pub fn rest(&self) -> &[Transform<R>] {
        &self.rest
    }

    /// The matrix above the roots.
    pub fn root(&self) -> &Affine<R> {
        &self.root
    }

    /// Forward kinematics: `world[i] = world[parent] · local[i]`, root first.
    ///
    /// `pose` holds one local transform per bone; `world` must hold at least as many.
    /// [`Error::NotFinite`] for a pose transform that is not [valid](Transform::is_valid),
    /// [`Error::Overflow`] if a world matrix leaves the number format's range.
    pub fn world(&self, pose: &[Transform<R>], world: &mut [Affine<R>]) -> Result<(), Error> {
        let n = self.len();
        if pose.len() != n {
            return Err(Error::LengthMismatch {
                expected: n,
                actual: pose.len(),
            });
        }
        if world.len() < n {
            return Err(Error::LengthMismatch {
                expected: n,
                actual: world.len(),
            });
        }
        if let Some(index) = Transform::first_invalid(pose) {
            return Err(Error::NotFinite {
                what: Quantity::LocalTransform,
                index,
            });
        }
        for (i, (local, parent)) in pose.iter().zip(&self.parents).enumerate() {
            let parent = match *parent {
                Some(p) => world[usize::from(p)],
                None => self.root,
            };
            world[i] = parent
                .checked_mul(&local.to_affine())
                .ok_or(Error::Overflow {
                    what: Quantity::WorldMatrix,
                    index: i,
                    format: R::NAME,
                })?;
        }
        Ok(())
    }
}

/// Does following parents from `bone` come back to it?
fn on_cycle(parents: &[Option<u16>], bone: usize) -> bool {
    let mut at = bone;
    for _ in 0..parents.len() {
        match parents.get(at).copied().flatten() {
            Some(p) if usize::from(p) == bone => return true,
            Some(p) => at = usize::from(p),
            None => return false,
        }
    }
    false
}
