//! The reader never panics: arbitrary bytes, and valid assets damaged at random (with and
//! without a resealed checksum), give an asset or an `AssetError`; whatever reads is then
//! safe to use through every view.

mod asset_fixture;

use asset_fixture::*;
use proptest::prelude::*;
use skin_core::asset::{Asset, AssetLane};
use skin_core::lane::Q14;

/// Read `b` in lane `L`; when it reads, touch everything it offers.
fn exercise<L: AssetLane>(b: &[u8]) -> bool {
    let Ok(a) = Asset::<L>::read(b) else {
        return false;
    };
    skin_tests::fuzz::touch(&a);
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
