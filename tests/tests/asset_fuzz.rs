//! The reader never panics: arbitrary bytes, and valid assets damaged at random (with and
//! without a resealed checksum), give an asset or an `AssetError`; whatever reads is then
//! safe to use through every view.

mod asset_fixture;

use asset_fixture::*;
use proptest::prelude::*;
use skin_core::asset::{Asset, AssetLane};
use skin_core::clip::{Keys, Wrap};
use skin_core::lane::Q14;
use skin_core::palette::Palette;
use skin_core::prelude::{Affine, Transform};

/// Read `b` in lane `L`; when it reads, touch everything it offers.
fn exercise<L: AssetLane>(b: &[u8]) -> bool {
    let Ok(a) = Asset::<L>::read(b) else {
        return false;
    };
    let _ = (
        a.positions().iter().count(),
        a.influences().iter().count(),
        a.indices().iter().count(),
    );
    let _ = a.normals().map(|n| n.iter().count());
    let bones = a.bones();
    let mut pose = vec![Transform::<L::Real>::IDENTITY; bones];
    let mut world = vec![Affine::<L::Real>::IDENTITY; bones];
    if let (Ok(skel), Ok(bind)) = (a.skeleton::<64>(), a.bind_pose::<64>()) {
        pose.copy_from_slice(skel.rest());
        for clip in a.clips() {
            for c in clip.channels() {
                let _ = (0..c.times.len()).map(|i| c.times.at(i)).sum::<f32>();
            }
            let _ = clip.sample(0.3, Wrap::Loop, &mut pose);
            let _ = clip.sample(-7.0, Wrap::Clamp, &mut pose);
        }
        if skel.world(&pose, &mut world).is_ok() {
            for part in a.parts() {
                let mut pal: Palette<L, 256> = Palette::new();
                let _ = part.palette(&bind, &world, &mut pal);
                let _ = (
                    part.positions().iter().count(),
                    part.influences().iter().count(),
                );
                let _ = (part.indices().iter().count(), part.bones().iter().count());
            }
        }
    }
    true
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(b in prop::collection::vec(any::<u8>(), 0..700)) {
        exercise::<f32>(&b);
        exercise::<Q14>(&b);
    }

    #[test]
    fn arbitrary_bytes_behind_a_valid_header_never_panic(
        tail in prop::collection::vec(any::<u8>(), 0..700),
        seal in any::<bool>(),
    ) {
        let mut b = bytes::<f32>()[..52].to_vec();
        b.extend(tail);
        if seal {
            reseal(&mut b);
        }
        exercise::<f32>(&b);
    }

    #[test]
    fn damaged_assets_never_panic(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
        fixed in any::<bool>(),
        seal in any::<bool>(),
        cut in any::<Option<prop::sample::Index>>(),
    ) {
        let mut b = if fixed { bytes::<Q14>() } else { bytes::<f32>() };
        let original = b.clone();
        for (at, v) in &edits {
            let i = at.index(b.len());
            b[i] = *v;
        }
        if seal {
            reseal(&mut b);
        }
        if let Some(c) = cut {
            let n = c.index(b.len());
            b.truncate(n);
        }
        let read = if fixed { exercise::<Q14>(&b) } else { exercise::<f32>(&b) };
        // Without resealing, any real change is caught (by the CRC, the length or a header check).
        if !seal && b != original {
            prop_assert!(!read);
        }
    }
}

#[test]
fn every_truncation_is_an_error() {
    let b = bytes::<Q14>();
    for n in 0..b.len() {
        assert!(Asset::<Q14>::read(&b[..n]).is_err(), "{n} bytes read");
    }
    assert!(Asset::<Q14>::read(&b).is_ok());
}
