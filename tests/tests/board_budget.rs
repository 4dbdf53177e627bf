//! `skin budget --board`: the board table agrees with the firmware's own limits and
//! memory maps (read from `firmware/`), a generated character of many small skins fits the
//! 128-bone boards while a 130-joint one fails by exactly its excess bones, and the command
//! exits 1 naming the failing limit.

use std::process::Command;

use skin_host::board::{fit, Board};
use skin_host::pose::LaneKind;
use skin_tests::gltf_gen::many_skins;

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
        assert!(b.code + b.ram_used > 0 && b.ram_used <= b.ram, "{}", b.name);
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
