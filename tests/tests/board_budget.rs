//! `skin budget --board`: the board table agrees with the firmware's own limits and
//! memory maps (read from `firmware/`), a generated character of many small skins fits the
//! 128-bone boards while a 130-joint one fails by exactly its excess bones, vertices and
//! triangles are held to the bytes the board's RAM leaves for the screen buffers (not to a
//! count), a stretched DQS palette's bytes count, and the command exits 1 naming the
//! failing limit.

use std::process::Command;

use skin_host::board::{fit, Board};
use skin_host::pose::LaneKind;
use skin_host::pose::Skinning;
use skin_tests::gltf_gen::{many_skins, squash_stretch_worm};

/// `FLASH`'s and `RAM`'s lengths in a linker memory map, in bytes.
fn memory(text: &str) -> (usize, usize) {
    let len = |region: &str| {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(region))
            .unwrap();
        let v = line.split("LENGTH =").nth(1).unwrap().trim();
        let (head, minus) = match v.split_once(" - ") {
            Some((h, m)) => (
                h,
                usize::from_str_radix(m.trim_start_matches("0x"), 16).unwrap(),
            ),
            None => (v, 0),
        };
        let n: usize = head[..head.len() - 1].parse().unwrap();
        let unit = match &head[head.len() - 1..] {
            "K" => 1024,
            "M" => 1024 * 1024,
            u => panic!("unit {u}"),
        };
        n * unit - minus
    };
    (len("FLASH"), len("RAM"))
}

/// The board limits are one table, `firmware/limits.rs`, which both the firmware's build
/// script and `skin_host::board` include (nothing to keep equal); the memory maps are the
/// firmware's linker files, read here.
#[test]
fn the_board_table_is_the_firmwares() {
    let fw = skin_tests::workspace_root().join("firmware");
    let build = std::fs::read_to_string(fw.join("build.rs")).unwrap();
    assert!(
        build.contains("include!(\"limits.rs\")"),
        "firmware/build.rs sizes its buffers by its own limits, not firmware/limits.rs"
    );
    let read = |f: &str| memory(&std::fs::read_to_string(fw.join("memory").join(f)).unwrap());
    for b in Board::ALL {
        // The micro:bit's RAM holds a smaller part palette than the others.
        assert_eq!(
            b.limits.palette,
            if b.name == "microbit" { 16 } else { 48 },
            "{}",
            b.name
        );
        let map = match b.name {
            "microbit" => "microbit.x",
            "pico" => "pico.x",
            _ => "mps2.x",
        };
        assert_eq!((b.flash, b.ram), read(map), "{} memory", b.name);
        // The frame loop is held to the board's RAM (the MPS2 boards to the Pico's), and
        // the room for the screen buffers is what the rest of it leaves.
        let room = b.limits.room(true, 0).min(b.limits.room(false, 0));
        assert!(b.code > 0 && b.limits.ram <= b.ram, "{}", b.name);
        assert!(room > 0 && room < b.limits.ram, "{}", b.name);
    }
}

#[test]
fn many_small_skins_fit_and_one_joint_too_many_is_named() {
    let rig = |joints| {
        let g = many_skins(8, 18, joints);
        skin_host::import::from_slice(&g.glb(), None).unwrap()
    };
    let board = Board::named("mps2-an385-m0").unwrap();
    let ok = fit(&rig(60), board, LaneKind::Fixed);
    assert!(ok.fits(), "{}", ok.table());
    let bones = ok
        .limits
        .iter()
        .find(|l| l.what == "bones (skeleton)")
        .unwrap();
    assert_eq!((bones.needs, bones.holds), (61, 128));
    let part = ok.limits.iter().find(|l| l.what == "bones a part").unwrap();
    assert_eq!((part.needs, part.holds), (18, 48));
    // 130 joints and their root: 131 bones, 3 over the scene's 128.
    let over = fit(&rig(130), board, LaneKind::Fixed);
    assert!(!over.fits());
    assert_eq!(
        over.failures(),
        vec![
            "bones (skeleton): needs 131, holds 128 (3 over)".to_string(),
            "joint entries: needs 130, holds 128 (2 over)".to_string(),
        ]
    );
    // The micro:bit's 16 bones do not take 61.
    let micro = fit(&rig(60), Board::named("microbit").unwrap(), LaneKind::Fixed);
    assert!(micro
        .failures()
        .iter()
        .any(|f| f.starts_with("bones (skeleton): needs 61, holds 16 (45 over)")));
    // The f32 lane is built for the Cortex-M4F only.
    let m3 = fit(&rig(60), Board::named("mps2-an385").unwrap(), LaneKind::F32);
    assert!(m3.refused.as_deref().unwrap().contains("fixed lane only"));
    let m4 = fit(&rig(60), Board::named("mps2-an386").unwrap(), LaneKind::F32);
    assert!(m4.fits(), "{}", m4.table());
}

#[test]
fn the_command_exits_1_naming_the_failing_limit() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("seventy.glb");
    std::fs::write(&model, many_skins(8, 18, 130).glb()).unwrap();
    let run = |board: &str| {
        Command::new(skin_tests::skin_exe())
            .args(["budget"])
            .arg(&model)
            .args(["--board", board])
            .output()
            .unwrap()
    };
    let out = run("mps2-an386");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stdout.contains("does not fit") && stdout.contains("over by 3"),
        "{stdout}"
    );
    assert!(
        stderr.contains("does not fit mps2-an386: bones (skeleton): needs 131, holds 128 (3 over)"),
        "{stderr}"
    );
    let out = run("nosuchboard");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("known: microbit"));
}

/// The limit named `what` of `fit`: (needs, holds).
fn limit(fit: &skin_host::board::Fit, what: &str) -> (usize, usize) {
    let l = fit.limits.iter().find(|l| l.what == what).unwrap();
    (l.needs, l.holds)
}

/// Vertices and triangles are bounded by the bytes the board's RAM leaves for the frame's
/// whole-model buffers (8 bytes a projected vertex, 4 a span for half the triangles) beside
/// a one-row band (960 bytes), not by a count: a character of 200 small skins (18,600
/// vertices, 6,200 triangles) fits the boards held to the Pico's 264 KiB, and its RAM is
/// the rest of the frame loop plus those buffers; on the micro:bit the vertices, the
/// triangles and the RAM each fail by how much they are over, and a part of 18 bones is
/// refused by name where the palette holds 16.
#[test]
fn vertices_and_triangles_are_held_to_the_ram() {
    let rig = skin_host::import::from_slice(&many_skins(200, 32, 69).glb(), None).unwrap();
    let board = Board::named("mps2-an385-m0").unwrap();
    let ok = fit(&rig, board, LaneKind::Fixed);
    assert!(ok.fits(), "{}", ok.table());
    let (v, t) = (limit(&ok, "vertices").0, limit(&ok, "triangles").0);
    assert_eq!((v, t), (18_600, 6_200));
    let screen = 8 * v + 4 * t.div_ceil(2);
    let room = board.limits.room(true, 0);
    let (ram, holds) = limit(&ok, "RAM bytes");
    // Held to the Pico's 256 KiB, less its room: the rest of the frame loop.
    assert_eq!(holds, 256 * 1024);
    assert_eq!(ram, holds - room + screen + 960);
    // The most vertices next to these triangles, and triangles next to these vertices.
    assert_eq!(
        limit(&ok, "vertices").1,
        (room - 960 - 4 * t.div_ceil(2)) / 8
    );
    assert_eq!(limit(&ok, "triangles").1, 2 * ((room - 960 - 8 * v) / 4));

    let micro = Board::named("microbit").unwrap();
    let over = fit(&rig, micro, LaneKind::Fixed);
    let failures = over.failures();
    for what in ["bones a part", "vertices", "triangles", "RAM bytes"] {
        assert!(
            failures
                .iter()
                .any(|f| f.starts_with(&format!("{what}: needs "))),
            "{what} not in {failures:?}"
        );
    }
    let parts = fit(
        &skin_host::import::from_slice(&many_skins(4, 18, 15).glb(), None).unwrap(),
        micro,
        LaneKind::Fixed,
    );
    assert_eq!(
        parts.failures(),
        vec!["bones a part: needs 18, holds 16 (2 over)".to_string()]
    );
}

/// A stretched DQS palette (a dual quaternion and a 3×3 stretch a bone: 17 values against
/// a matrices palette's 12, 2 bytes each in the fixed lane) counts against the RAM: the
/// squashed and stretched worm baked for DQS needs 10 bytes a palette bone more than its
/// screen buffers and the rest of the frame loop; baked for LBS, nothing more.
#[test]
fn a_stretched_dqs_palette_counts_against_the_ram() {
    let worm = squash_stretch_worm(false);
    let rig = skin_host::import::from_slice(&worm.glb(), None).unwrap();
    let micro = Board::named("microbit").unwrap();
    let rest = micro.limits.ram - micro.limits.room(true, 0);
    for (skinning, a_bone) in [(Skinning::Dqs, 10), (Skinning::Lbs, 0)] {
        let f = skin_host::board::fit_skinning(&rig, micro, LaneKind::Fixed, skinning);
        assert!(f.fits(), "{}", f.table());
        let (v, t) = (limit(&f, "vertices").0, limit(&f, "triangles").0);
        let bones = limit(&f, "bones a part").0;
        let screen = 8 * v + 4 * t.div_ceil(2) + 960;
        let ram = limit(&f, "RAM bytes").0;
        assert_eq!(ram, rest + screen + a_bone * bones, "{skinning:?}");
        // The command reports the same row for the method it is given.
        if skinning == Skinning::Dqs {
            let dir = tempfile::tempdir().unwrap();
            let model = dir.path().join("worm.glb");
            std::fs::write(&model, worm.glb()).unwrap();
            let out = Command::new(skin_tests::skin_exe())
                .arg("budget")
                .arg(&model)
                .args(["--board", "microbit", "--skinning", "dqs"])
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{stdout}");
            let row = stdout.lines().find(|l| l.contains("RAM bytes")).unwrap();
            let needs: usize = row.split_whitespace().nth(2).unwrap().parse().unwrap();
            assert_eq!(needs, ram, "{stdout}");
        }
    }
}
