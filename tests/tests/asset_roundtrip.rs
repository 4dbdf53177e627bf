//! Write → read gives back the same data, and skinning from the read asset equals
//! skinning from the parts, bit for bit, in f32 and in fixed point, for every clip.

mod asset_fixture;

use asset_fixture::*;
use skin_core::asset::{Asset, AssetLane, AssetParts};
use skin_core::bind::BindPose;
use skin_core::clip::{Clip, Keys, Wrap};
use skin_core::lane::{Lane, Q14};
use skin_core::palette::Palette;
use skin_core::prelude::*;
use skin_core::skeleton::Skeleton;

fn same_data<L: AssetLane>(parts: &AssetParts<'_, L>, asset: &Asset<'_, L>) {
    assert_eq!(asset.unit_exponent(), parts.unit_exponent);
    assert_eq!(asset.unit(), 0.25);
    assert_eq!(asset.parents().collect::<Vec<_>>(), parts.parents);
    for (i, t) in parts.rest.iter().enumerate() {
        let want = Transform::<f32>::from_f32(t.translation, t.rotation.to_f32(), t.scale).unwrap();
        assert_eq!(asset.rest_transform::<f32>(i).unwrap(), want);
    }
    assert_eq!(asset.root::<f32>().unwrap(), parts.root);
    assert_eq!(asset.joints().iter().collect::<Vec<_>>(), parts.joints);
    for (j, m) in parts.inverse_binds.iter().enumerate() {
        assert_eq!(asset.inverse_bind::<f32>(j).unwrap(), *m);
    }
    assert_eq!(
        asset.positions().iter().collect::<Vec<_>>(),
        parts.positions
    );
    assert_eq!(
        asset.normals().unwrap().iter().collect::<Vec<_>>(),
        parts.normals.unwrap()
    );
    assert_eq!(
        asset.influences().iter().collect::<Vec<_>>(),
        parts.influences
    );
    assert_eq!(asset.indices().iter().collect::<Vec<_>>(), parts.indices);
    let views: Vec<_> = asset.parts().collect();
    assert_eq!(views.len(), parts.parts.len());
    let mut first = 0;
    for (v, p) in views.iter().zip(parts.parts) {
        assert_eq!(v.bones().iter().collect::<Vec<_>>(), p.bones);
        assert_eq!(v.vertex_range(), first..first + p.vertices as usize);
        assert_eq!(v.indices().len(), p.indices as usize);
        first += p.vertices as usize;
    }
    let clips: Vec<_> = asset.clips().collect();
    assert_eq!(clips.len(), parts.clips.len());
    for (v, c) in clips.iter().zip(parts.clips) {
        assert_eq!(v.name(), c.name);
        assert_eq!(v.duration(), c.duration);
        let chans: Vec<_> = v.channels().collect();
        assert_eq!(chans.len(), c.channels.len());
        for (a, b) in chans.iter().zip(c.channels) {
            assert_eq!(
                (a.bone, a.path, a.interpolation),
                (b.bone, b.path, b.interpolation)
            );
            let floats = |k: &dyn Fn(usize) -> f32, n: usize| (0..n).map(k).collect::<Vec<_>>();
            assert_eq!(floats(&|i| a.times.at(i), a.times.len()), b.times);
            assert_eq!(floats(&|i| a.values.at(i), a.values.len()), b.values);
        }
    }
    assert!(asset.clip("idlé").is_some() && asset.clip("nope").is_none());
}

/// Skinned positions and normals of every part at time `t` of clip `c`, computed from
/// the parts (slices, `Clip` over `&[f32]`) …
fn skin_from_parts<L: AssetLane>(
    p: &AssetParts<'_, L>,
    c: usize,
    t: f32,
) -> Vec<([L::Out; 3], [L; 3])> {
    type R<L> = <L as Lane>::Real;
    let rest: Vec<Transform<R<L>>> = p
        .rest
        .iter()
        .map(|t| Transform::from_f32(t.translation, t.rotation.to_f32(), t.scale).unwrap())
        .collect();
    let skel = Skeleton::<R<L>, 8>::new(p.parents, &rest)
        .unwrap()
        .with_root(p.root.convert().unwrap());
    let ibms: Vec<Affine<R<L>>> = p
        .inverse_binds
        .iter()
        .map(|m| m.convert().unwrap())
        .collect();
    let bind = BindPose::<R<L>, 8>::new(p.joints, &ibms, rest.len()).unwrap();
    let clip = Clip::<R<L>, _>::new(p.clips[c].channels, rest.len()).unwrap();
    let mut pose = rest.clone();
    let t = Wrap::Loop.time(t, p.clips[c].duration);
    clip.sample(t, Wrap::Clamp, &mut pose).unwrap();
    let mut world = vec![Affine::IDENTITY; rest.len()];
    skel.world(&pose, &mut world).unwrap();
    let mut out = Vec::new();
    let mut first = 0;
    for part in p.parts {
        let mut pal: Palette<L, 8> = Palette::new();
        for &j in part.bones {
            let j = usize::from(j);
            let m = world[usize::from(bind.joints()[j])]
                .checked_mul(&bind.inverse_binds()[j])
                .unwrap();
            pal.push(&m).unwrap();
        }
        let r = first..first + part.vertices as usize;
        first = r.end;
        out.extend(skin_range(
            &p.positions[r.clone()],
            &p.influences[r.clone()],
            &p.normals.unwrap()[r],
            &pal,
        ));
    }
    out
}

/// … and from the read asset (views, `ClipView` over the bytes).
fn skin_from_asset<L: AssetLane>(a: &Asset<'_, L>, c: usize, t: f32) -> Vec<([L::Out; 3], [L; 3])> {
    let skel = a.skeleton::<8>().unwrap();
    let bind = a.bind_pose::<8>().unwrap();
    let mut pose = skel.rest().to_vec();
    a.clips()
        .nth(c)
        .unwrap()
        .sample(t, Wrap::Loop, &mut pose)
        .unwrap();
    let mut world = vec![Affine::IDENTITY; skel.len()];
    skel.world(&pose, &mut world).unwrap();
    let mut out = Vec::new();
    for part in a.parts() {
        let mut pal: Palette<L, 8> = Palette::new();
        part.palette(&bind, &world, &mut pal).unwrap();
        let n = part.vertex_range().len();
        let mut pos = vec![[L::default(); 3]; n];
        let mut nrm = vec![[L::default(); 3]; n];
        let mut inf = vec![Influence::rigid(0); n];
        assert_eq!(part.positions().copy_to(&mut pos), n);
        assert_eq!(part.normals().unwrap().copy_to(&mut nrm), n);
        assert_eq!(part.influences().copy_to(&mut inf), n);
        out.extend(skin_range(&pos, &inf, &nrm, &pal));
    }
    out
}

fn skin_range<L: AssetLane>(
    pos: &[[L; 3]],
    inf: &[Influence<L>],
    nrm: &[[L; 3]],
    pal: &Palette<L, 8>,
) -> Vec<([L::Out; 3], [L; 3])> {
    let mesh = SkinnedMesh::<L, 4>::new(pos, inf).unwrap();
    let mut o = vec![[L::Out::default(); 3]; pos.len()];
    let mut on = vec![[L::default(); 3]; pos.len()];
    mesh.skin_with_normals(pal.as_slice(), nrm, &mut o, &mut on)
        .unwrap();
    o.into_iter().zip(on).collect()
}

fn round_trip<L: AssetLane>() {
    let f = fixture::<L>();
    let chans = channels(&f);
    let (mut p, mut c) = (Vec::new(), Vec::new());
    let parts = parts(&f, &chans, &mut p, &mut c);
    let size = parts.size().unwrap();
    // Trailing bytes (e.g. flash padding) are left alone and ignored.
    let mut buf = vec![0xA5u8; size + 13];
    let n = parts.write(&mut buf).unwrap();
    assert_eq!(n, size);
    assert!(buf[n..].iter().all(|&b| b == 0xA5));
    let asset = Asset::<L>::read(&buf).unwrap();
    same_data(&parts, &asset);
    let mut moved = 0;
    for clip in 0..2 {
        for t in [-0.3f32, 0.0, 0.2, 0.45, 0.5, 0.9, 1.1, 1.25, 1.9, 3.3] {
            let a = skin_from_parts(&parts, clip, t);
            let b = skin_from_asset(&asset, clip, t);
            assert_eq!(a, b, "{} clip {clip} t={t}", L::NAME);
            let rest = skin_from_parts(&parts, clip, 0.0);
            moved += usize::from(a != rest);
        }
    }
    // The clips really animate the mesh (so the comparison above compares something).
    assert!(moved > 10, "only {moved} samples differ from t = 0");
}

#[test]
fn f32_asset_round_trips_and_skins_identically() {
    round_trip::<f32>();
}

#[test]
fn fixed_asset_round_trips_and_skins_identically() {
    round_trip::<Q14>();
}

#[test]
fn write_is_deterministic_and_size_is_exact() {
    assert_eq!(bytes::<f32>(), bytes::<f32>());
    let (a, b) = (bytes::<f32>(), bytes::<Q14>());
    // 8 vertices: f32 stores 12+12+16 bytes a vertex, Q14 6+6+10.
    assert_eq!(a.len() - b.len(), 8 * (40 - 22));
    assert_eq!(&a[..4], b"SKIN");
    assert_eq!(a.len() % 4, 0);
}
