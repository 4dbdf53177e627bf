//! Forward kinematics of one joint's chain: the joint and its ancestors only, for the
//! animation steps that read a few world matrices of a pose they have just changed (a
//! walker's legs, a head), where a whole skeleton's pass would do most of its work for
//! joints nobody reads.

use super::error::AnimError;
use crate::affine::Affine;
use crate::error::{Error, Quantity};
use crate::num::Real;
use crate::skeleton::Skeleton;
use crate::transform::Transform;

/// `world[j] = world[parent] · local[j]` for `joint` and its ancestors, root first — below
/// `known`, an ancestor whose matrix in `world` is current, if given: the matrices
/// [`Skeleton::world`] gives those joints for `pose`, bit for bit; the other entries of
/// `world` are left as they are. `pose` and `world` hold one entry a joint.
///
/// Errors: [`AnimError::Kinematics`] as [`Skeleton::world`] (a transform on the chain that
/// is not valid, a matrix beyond the number format).
///
/// ```
/// use skin_core::affine::Affine;
/// use skin_core::anim::world_of;
/// use skin_core::skeleton::Skeleton;
/// use skin_core::transform::Transform;
/// let at = |p: [f32; 3]| Transform::<f32>::from_f32(p, [0.0, 0.0, 0.0, 1.0], [1.0; 3]).unwrap();
/// let pose = [at([0.0, 1.0, 0.0]), at([0.5, 0.0, 0.0]), at([0.0, 0.0, 2.0])];
/// let skel = Skeleton::<f32, 3>::new(&[None, Some(0), Some(0)], &pose).unwrap();
/// let (mut all, mut one) = ([Affine::IDENTITY; 3], [Affine::IDENTITY; 3]);
/// skel.world(&pose, &mut all).unwrap();
/// world_of(&skel, &pose, &mut one, 1, None).unwrap();
/// assert_eq!((one[0], one[1], one[2]), (all[0], all[1], Affine::IDENTITY)); // joint 2 untouched
/// world_of(&skel, &pose, &mut one, 2, Some(0)).unwrap(); // joint 0's matrix is current
/// assert_eq!(one, all);
/// ```
pub fn world_of<R: Real, const N: usize>(
    skeleton: &Skeleton<R, N>,
    pose: &[Transform<R>],
    world: &mut [Affine<R>],
    joint: usize,
    known: Option<usize>,
) -> Result<(), AnimError> {
    let parents = skeleton.parents();
    let mut chain = heapless::Vec::<usize, N>::new();
    let mut at = Some(joint);
    while let Some(j) = at.filter(|&j| Some(j) != known) {
        // A skeleton's parents come first and never circle: at most N joints.
        if chain.push(j).is_err() {
            break;
        }
        at = parents[j].map(usize::from);
    }
    for &j in chain.iter().rev() {
        if !pose[j].is_valid() {
            return Err(AnimError::Kinematics(Error::NotFinite {
                what: Quantity::LocalTransform,
                index: j,
            }));
        }
        let parent = match parents[j] {
            Some(p) => world[usize::from(p)],
            None => *skeleton.root(),
        };
        world[j] = parent
            .checked_mul(&pose[j].to_affine())
            .ok_or(AnimError::Kinematics(Error::Overflow {
                what: Quantity::WorldMatrix,
                index: j,
                format: R::NAME,
            }))?;
    }
    Ok(())
}
