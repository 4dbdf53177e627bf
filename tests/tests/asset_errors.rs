//! Every `AssetError` variant, each from one exact, deliberate defect (resealed with a
//! correct CRC where the defect lies behind the checksum), with its message.

mod asset_fixture;

use asset_fixture::*;
use skin_core::asset::{Asset, AssetError, Field, FLAG_DQS, FLAG_NORMALS, VERSION};
use skin_core::error::Error;
use skin_core::lane::Q14;
use skin_core::palette::Palette;
use skin_core::prelude::Affine;
use skin_core::skin::Skinning;

fn f32_err(b: &[u8]) -> AssetError {
    Asset::<f32>::read(b).map(|_| ()).unwrap_err()
}

/// Apply `f` to a valid f32 asset, reseal, read.
fn patched(f: impl Fn(&mut Vec<u8>, &Layout)) -> AssetError {
    let mut b = bytes::<f32>();
    let l = layout(&b, 4, 4);
    f(&mut b, &l);
    reseal(&mut b);
    f32_err(&b)
}

#[test]
fn header_errors() {
    let good = bytes::<f32>();
    let e = f32_err(&good[..40]);
    assert_eq!(
        e,
        AssetError::Truncated {
            needed: 52,
            len: 40
        }
    );
    assert_eq!(
        e.to_string(),
        "the asset is truncated: 40 bytes, but at least 52 are needed"
    );
    let n = good.len();
    assert_eq!(
        f32_err(&good[..n - 4]),
        AssetError::Truncated {
            needed: n,
            len: n - 4
        }
    );

    let mut b = good.clone();
    b[0] = b'X';
    let e = f32_err(&b);
    assert_eq!(e, AssetError::Magic { found: *b"XKIN" });
    assert!(e.to_string().contains("not a skin asset"));

    let mut b = good.clone();
    let newer = VERSION + 1;
    b[4..6].copy_from_slice(&newer.to_le_bytes());
    assert_eq!(
        f32_err(&b),
        AssetError::Version {
            found: newer,
            supported: VERSION
        }
    );

    let mut b = good.clone();
    b[6] |= 4;
    assert_eq!(
        f32_err(&b),
        AssetError::Flags {
            flags: 5,
            reserved: 0
        }
    );
    // Bit 8 of the flags is the skinning method (FLAG_DQS); bit 10 is unknown.
    assert_eq!(Asset::<f32>::read(&good).unwrap().skinning(), Skinning::Lbs);
    let mut b = good.clone();
    b[6..8].copy_from_slice(&(FLAG_NORMALS | FLAG_DQS).to_le_bytes());
    reseal(&mut b);
    assert_eq!(Asset::<f32>::read(&b).unwrap().skinning(), Skinning::Dqs);
    b[7] |= 4;
    reseal(&mut b);
    assert_eq!(
        f32_err(&b),
        AssetError::Flags {
            flags: 0x501,
            reserved: 0
        }
    );
    let mut b = good.clone();
    b[18] = 1;
    assert_eq!(
        f32_err(&b),
        AssetError::Flags {
            flags: 1,
            reserved: 1
        }
    );

    let e = Asset::<Q14>::read(&good).map(|_| ()).unwrap_err();
    assert_eq!(
        e,
        AssetError::Lane {
            found: "f32",
            expected: "I2F14"
        }
    );
    assert_eq!(
        e.to_string(),
        "the asset stores vertices as f32, but I2F14 was asked for"
    );

    let mut b = good.clone();
    b[44..48].copy_from_slice(&(n as u32 + 4).to_le_bytes());
    assert_eq!(
        f32_err(&b),
        AssetError::Length {
            declared: n as u32 + 4,
            computed: n
        }
    );

    let mut b = good.clone();
    b[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(f32_err(&b), AssetError::TooLarge);

    let mut b = good.clone();
    b[n - 1] ^= 1;
    let e = f32_err(&b);
    assert!(matches!(e, AssetError::Checksum { stored, computed } if stored != computed));
    assert!(e.to_string().contains("damaged data"));
}

#[test]
fn count_and_index_errors() {
    // Part 0 claims a fifth vertex: the parts no longer tile the 8 vertices.
    let e = patched(|b, l| b[l.parts] = 5);
    assert_eq!(
        e,
        AssetError::Mismatch {
            what: Field::PartVertices,
            expected: 8,
            actual: 9
        }
    );
    assert_eq!(e.to_string(), "vertices of part: expected 8, found 9");
    // Part 1's palette names joint 7 of 3.
    let e = patched(|b, l| b[l.palette + 6] = 7);
    assert_eq!(
        e,
        AssetError::Index {
            what: Field::Palette,
            index: 1,
            value: 7,
            limit: 3
        }
    );
    assert_eq!(
        e.to_string(),
        "palette entries 1: index 7 is out of range (must be below 3)"
    );
    // A triangle of part 0 uses local vertex 4 of 4.
    let e = patched(|b, l| b[l.indices + 2] = 4);
    assert_eq!(
        e,
        AssetError::Index {
            what: Field::PartIndices,
            index: 0,
            value: 4,
            limit: 4
        }
    );
    // Vertex 5's second bone byte names palette entry 2 of 2.
    let e = patched(|b, l| b[l.influences + 16 * 5 + 1] = 2);
    assert_eq!(
        e,
        AssetError::Index {
            what: Field::Influence,
            index: 5,
            value: 2,
            limit: 2
        }
    );
    // Part 0 holds 5 indices: not whole triangles (part 1 takes one more to keep the sum).
    let e = patched(|b, l| {
        b[l.parts + 4] = 5;
        b[l.parts + 12 + 4] = 7;
    });
    assert_eq!(
        e,
        AssetError::Invalid {
            what: Field::PartIndices,
            index: 0
        }
    );
}

#[test]
fn value_errors() {
    let e = patched(|b, l| b[l.positions + 12 * 3..][..4].copy_from_slice(&f32::NAN.to_le_bytes()));
    assert_eq!(
        e,
        AssetError::Invalid {
            what: Field::Position,
            index: 3
        }
    );
    assert_eq!(e.to_string(), "position of vertex 3 is invalid");
    // Vertex 2's stored weight becomes 1.5.
    let e =
        patched(|b, l| b[l.influences + 16 * 2 + 4..][..4].copy_from_slice(&1.5f32.to_le_bytes()));
    assert_eq!(
        e,
        AssetError::Invalid {
            what: Field::Influence,
            index: 2
        }
    );
    let e = patched(|b, l| b[l.channels + 8 + 2] = 9);
    assert_eq!(
        e,
        AssetError::Invalid {
            what: Field::Path,
            index: 1
        }
    );
    let e = patched(|b, l| b[l.channels + 3] = 3);
    assert_eq!(
        e,
        AssetError::Invalid {
            what: Field::Interpolation,
            index: 0
        }
    );
    let e = patched(|b, l| b[l.names] = 0xFF);
    assert_eq!(
        e,
        AssetError::Invalid {
            what: Field::Name,
            index: 0
        }
    );
    let e = patched(|b, l| b[l.clips + 12 + 8..][..4].copy_from_slice(&(-1.0f32).to_le_bytes()));
    assert_eq!(
        e,
        AssetError::Invalid {
            what: Field::Duration,
            index: 1
        }
    );
    assert_eq!(e.to_string(), "duration of clip 1 is invalid");
}

#[test]
fn core_errors_come_through() {
    // Bone 0 names bone 1 as its parent: parents must come first.
    let e = patched(|b, l| b[l.parents..][..2].copy_from_slice(&[1, 0]));
    assert_eq!(
        e,
        AssetError::Core(Error::ParentOrder { bone: 0, parent: 1 })
    );
    assert!(e.to_string().contains("parents must come first"));
    let e = patched(|b, l| b[l.parents] = 1); // 0xFF01
    assert_eq!(
        e,
        AssetError::Core(Error::ParentIndex {
            bone: 0,
            parent: 0xFF01
        })
    );
    let e = patched(|b, l| b[l.joints + 4] = 3);
    assert_eq!(
        e,
        AssetError::Core(Error::JointIndex {
            joint: 2,
            bone: 3,
            bones: 3
        })
    );
    // The first key time of the first channel becomes 9 s, after the second (0.5 s).
    let e = patched(|b, l| b[l.floats..][..4].copy_from_slice(&9.0f32.to_le_bytes()));
    assert_eq!(e, AssetError::Core(Error::KeyOrder { channel: 0, key: 1 }));
    // A rest translation of 1000 does not fit I8F24: the fixed asset rejects it.
    let mut b = bytes::<Q14>();
    let l = layout(&b, 2, 2);
    b[l.rest..][..4].copy_from_slice(&1000.0f32.to_le_bytes());
    reseal(&mut b);
    let e = Asset::<Q14>::read(&b).map(|_| ()).unwrap_err();
    assert!(
        matches!(
            e,
            AssetError::Core(Error::Overflow {
                index: 0,
                format: "I8F24",
                ..
            })
        ),
        "{e:?}"
    );
}

#[test]
fn capacity_errors() {
    let b = bytes::<f32>();
    let a = Asset::<f32>::read(&b).unwrap();
    let e = a.skeleton::<2>().map(|_| ()).unwrap_err();
    assert_eq!(
        e,
        AssetError::Capacity {
            what: Field::Bones,
            len: 3,
            capacity: 2
        }
    );
    assert_eq!(e.to_string(), "3 bones exceed the capacity of 2");
    let e = a.bind_pose::<1>().map(|_| ()).unwrap_err();
    assert_eq!(
        e,
        AssetError::Capacity {
            what: Field::Joints,
            len: 3,
            capacity: 1
        }
    );
    let bind = a.bind_pose::<4>().unwrap();
    let world = [Affine::IDENTITY; 3];
    let mut small: Palette<f32, 1> = Palette::new();
    let part = a.parts().next().unwrap();
    assert_eq!(
        part.palette(&bind, &world, &mut small),
        Err(Error::Capacity {
            len: 2,
            capacity: 1
        })
    );
    // A part palette above 256 entries cannot be indexed by bone bytes.
    let e = patched(|b, l| b[l.parts + 9] = 2); // 2 + 512 entries
    assert_eq!(
        e,
        AssetError::Capacity {
            what: Field::Palette,
            len: 514,
            capacity: 256
        }
    );
}

#[test]
fn writer_errors() {
    let f = fixture::<f32>();
    let chans = channels(&f);
    let (mut p, mut c) = (Vec::new(), Vec::new());
    let parts = parts(&f, &chans, &mut p, &mut c);
    let mut small = vec![0u8; 100];
    let e = parts.write(&mut small).unwrap_err();
    assert_eq!(
        e,
        AssetError::Buffer {
            needed: parts.size().unwrap(),
            len: 100
        }
    );
    let mut bad = parts;
    bad.rest = &f.rest[..2];
    assert_eq!(
        bad.size(),
        Err(AssetError::Mismatch {
            what: Field::Bones,
            expected: 3,
            actual: 2
        })
    );
    // A parent of 0xFFFF would read back as "root": rejected.
    let mut bad = parts;
    let parents = [None, Some(0), Some(u16::MAX)];
    bad.parents = &parents;
    let mut out = vec![0u8; parts.size().unwrap()];
    assert_eq!(
        bad.write(&mut out),
        Err(AssetError::Index {
            what: Field::Bones,
            index: 2,
            value: 65535,
            limit: 3
        })
    );
    // Whatever the reader rejects the writer rejects: a palette naming joint 5 of 3.
    let mut bad = parts;
    let bad_parts = [skin_core::asset::Part {
        vertices: 8,
        indices: 12,
        bones: &[0, 5],
    }];
    bad.parts = &bad_parts;
    assert_eq!(
        bad.write(&mut out),
        Err(AssetError::Index {
            what: Field::Palette,
            index: 0,
            value: 5,
            limit: 3
        })
    );
}
