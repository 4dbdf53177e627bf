//! The Cortex-M firmware under QEMU: builds every board × lane with `scripts/firmware.sh`
//! (the M4F's f32 lane again with `--vmla`, and the micro:bit's fixed M0 code again on the
//! mps2-an385, where it must count the same instructions), runs the kernel benchmark with `-icount
//! shift=0`, decodes its defmt log and checks that it exits 0, passes its on-device rest-pose
//! check, measures SysTick at the documented rate, reports plausible instruction counts for
//! every kernel, and skins the synthetic mesh to the same bits as skin-core on this host;
//! the animation layer's blend and two-bone IK are counted too, each solve reaching its
//! target on the device.
//!
//! Needs Debian's rustc with library source, ld.lld-16, qemu-system-arm and defmt-print
//! (scripts/setup.sh); without them each test reports SKIPPED (a failure under
//! SKIN_REQUIRE_ALL=1).

use std::collections::HashMap;

use skin_core::lane::{Lane, Q14};

#[allow(dead_code)] // the firmware's benchmark-only parts
#[path = "../../firmware/src/synthetic.rs"]
mod synthetic;

#[allow(dead_code)] // the on-device check: its case count, and the check run on this host
#[path = "../../firmware/src/dqs_check.rs"]
mod dqs_check;

#[path = "../../firmware/src/project_check.rs"]
mod project_check;

#[allow(dead_code)] // the on-device check: its case count
#[path = "../../firmware/src/fill_check.rs"]
mod fill_check;

#[allow(dead_code)] // the on-device check: its case count
#[path = "../../firmware/src/bin_check.rs"]
mod bin_check;

use skin_tests::firmware::{fields, lines, missing_tools, script};
use synthetic::{Chunk, Kernel};

/// The host's checksums of every kernel on the synthetic rig, in lane `L`.
fn host_checksums<L: Lane>() -> HashMap<&'static str, u32> {
    let mut rng = synthetic::Rng::new(synthetic::POSE_SEED);
    let palette = synthetic::palette::<L>(&mut rng).expect("the synthetic pose fits");
    let mut chunk = Box::<Chunk<L>>::default();
    Kernel::ALL
        .into_iter()
        .map(|k| {
            let sum = synthetic::run(k, &palette, &mut chunk, 1, &mut ())
                .expect("the synthetic mesh skins");
            (k.name(), sum.0)
        })
        .collect()
}

/// The cases [`synthetic::check_lane_loop`] compares: rounds × palettes × `K` in 1..=4 ×
/// four vertex counts × (with and without normals).
fn expected_cases() -> u32 {
    synthetic::CHECK_ROUNDS * synthetic::CHECK_PALETTES.len() as u32 * 4 * 4 * 2
}

/// Builds and runs `board` in `lane` with the script's `options` (`--vmla`); returns the
/// decoded log.
fn run_firmware(board: &str, lane: &str, options: &[&str]) -> String {
    let out = script(&[&["kernels", board, lane], options].concat());
    let log = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{board}/{lane}{options:?}: firmware failed ({}):\n{log}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    log
}

/// Checks one board in both lanes; `ticks_per_2m` is SysTick ticks per 2 000 000
/// instructions (the core clock in MHz · 80 000 / 1000). Returns each lane's instructions
/// per vertex by kernel.
fn check_board(
    test: &str,
    board: &str,
    core: &str,
    ticks_per_2m: u64,
) -> Option<[HashMap<&'static str, f64>; 2]> {
    if let Some(why) = missing_tools() {
        skin_tests::skip(test, &why);
        return None;
    }
    Some([
        check_run(board, core, ticks_per_2m, "fixed", &[]),
        check_run(board, core, ticks_per_2m, "f32", &[]),
    ])
}

/// Asserts that the log's `CHECK NAME` line (a kernel compared on the device with the Rust
/// code it replaces) says `ok` and compared `cases` cases.
fn assert_device_check(log: &str, name: &str, cases: u32, ctx: &str) {
    let line = log
        .lines()
        .find(|l| l.contains(&format!("CHECK {name}")))
        .unwrap_or_else(|| panic!("no {name} check: {ctx}"));
    assert!(line.contains(&format!("CHECK {name} ok")), "{ctx}");
    assert_eq!(fields(line)["cases"], cases.to_string(), "{ctx}");
}

/// Runs the kernel benchmark on `board` in `lane` with the script's `options` and checks
/// its log; returns the instructions per vertex by kernel.
fn check_run(
    board: &str,
    core: &str,
    ticks_per_2m: u64,
    lane: &str,
    options: &[&str],
) -> HashMap<&'static str, f64> {
    let (lane_name, host) = match lane {
        "fixed" => (Q14::NAME, host_checksums::<Q14>()),
        _ => (<f32 as Lane>::NAME, host_checksums::<f32>()),
    };
    let log = run_firmware(board, lane, options);
    let ctx = format!("{board}/{lane}{options:?}:\n{log}");
    assert!(log.contains("CHECK rest-pose ok"), "{ctx}");
    // The deform step's assembly loop (the M4F's fixed lane) gave the lane's own steps.
    if board == "mps2-an386" && lane == "fixed" {
        assert!(log.contains("CHECK morph-loop ok"), "{ctx}");
    }
    // The lane's own LBS loop (the assembly kernels: fixed on the M0 and the M4F, f32 on
    // the M4F) gave the generic loop's bits on the device, on every adversarial case.
    assert_device_check(&log, "lane-loop", expected_cases(), &ctx);
    // The fixed lane's projection loop (assembly in Cortex-M0 code) gave the per-vertex
    // path's bits on every chunk.
    if lane == "fixed" {
        assert_device_check(&log, "project-loop", project_check::PROJECT_CASES, &ctx);
    }
    // The band's fill (assembly in Cortex-M0 code) gave the Rust scan's pixels on every
    // triangle.
    assert_device_check(&log, "fill-loop", fill_check::FILL_CASES, &ctx);
    // Binning (its loop in assembly in Cortex-M0 code) gave the Rust loop's lists, or its
    // error, on every frame.
    assert_device_check(&log, "bin-loop", bin_check::BIN_CASES, &ctx);
    // The lane's DQS loop (the fixed lane's assembly on the M4F) likewise, on its own cases.
    assert_device_check(&log, "dqs-loop", dqs_check::DQS_CASES, &ctx);
    assert!(log.contains("DONE ok"), "{ctx}");

    let cal = log
        .lines()
        .find(|l| l.contains("CALIBRATION"))
        .map(fields)
        .unwrap_or_else(|| panic!("no CALIBRATION line: {ctx}"));
    assert_eq!(cal["core"], core, "{ctx}");
    assert_eq!(cal["instructions"], "2000000", "{ctx}");
    assert_eq!(
        cal["ticks"].parse::<u64>().unwrap(),
        ticks_per_2m,
        "SysTick is not counting instructions at the documented rate: {ctx}"
    );

    let results: HashMap<&str, HashMap<&str, &str>> = log
        .lines()
        .filter(|l| l.contains("RESULT"))
        .map(fields)
        .map(|f| (f["kernel"], f))
        .collect();
    let mut per_vertex = HashMap::new();
    for kernel in Kernel::ALL {
        let name = kernel.name();
        let r = results
            .get(name)
            .unwrap_or_else(|| panic!("no RESULT for {name}: {ctx}"));
        // M0 code on the mps2-an385 (`mps2-an385-m0`) logs the board it runs on.
        assert_eq!(r["board"], board.trim_end_matches("-m0"), "{ctx}");
        assert_eq!(r["lane"], lane_name, "{ctx}");
        let vertices: u64 = r["vertices"].parse().unwrap();
        let instructions: u64 = r["instructions"].parse().unwrap();
        assert_eq!(
            vertices,
            synthetic::VERTICES as u64 * 4,
            "the mesh times REPS: {ctx}"
        );
        let pv = instructions as f64 / vertices as f64;
        // At least the 9 multiply-adds of a transformed point; at most what soft-float
        // LBS with normals costs on a Cortex-M0 with a wide margin.
        assert!(
            (9.0..40_000.0).contains(&pv),
            "{name}: {pv} per vertex: {ctx}"
        );
        per_vertex.insert(name, pv);
        let checksum: u32 = r["checksum"].parse().unwrap();
        assert_eq!(
            checksum, host[name],
            "{name}: the firmware's output differs from skin-core on the host: {ctx}"
        );
    }
    // Normals cost extra work; blending four matrices costs more than picking one.
    let pv = |k: Kernel| per_vertex[k.name()];
    assert!(pv(Kernel::Stitch) < pv(Kernel::StitchNormals), "{ctx}");
    assert!(pv(Kernel::Lbs4) < pv(Kernel::Lbs4Normals), "{ctx}");
    assert!(pv(Kernel::Stitch) < pv(Kernel::Lbs4), "{ctx}");
    assert!(pv(Kernel::StitchNormals) < pv(Kernel::Lbs4Normals), "{ctx}");
    assert!(pv(Kernel::Dqs4) < pv(Kernel::Dqs4Normals), "{ctx}");

    // The morph benchmark: each active target costs more, and a part with targets but none
    // active costs no more than per-part work over the same part without targets. Not in
    // the micro:bit's `f32` build, whose stack does not hold it (the mps2-an385 runs its
    // Cortex-M0 code).
    if board == "microbit" && lane == "f32" {
        assert!(lines(&log, "MORPH").is_empty(), "{ctx}");
        return per_vertex;
    }
    let morph = log
        .lines()
        .find(|l| l.contains("MORPH"))
        .map(fields)
        .unwrap_or_else(|| panic!("no MORPH line: {ctx}"));
    let count = |k: &str| morph[k].parse::<u64>().unwrap();
    let (plain, none, one, two) = (count("plain"), count("none"), count("one"), count("two"));
    assert!(plain <= none && none < one && one < two, "{ctx}");
    let per: f64 = morph["per_target_vertex"].parse().unwrap();
    // At least the 6 multiplies of a moved position and normal; at most soft float's cost.
    assert!((6.0..10_000.0).contains(&per), "morph: {per}: {ctx}");
    // The animation and PSD benchmarks: everywhere but on the micro:bit, whose flash they
    // would overflow (its Cortex-M0 code runs them on the mps2-an385).
    if board == "microbit" {
        assert!(lines(&log, "BLEND").is_empty(), "{ctx}");
        assert!(lines(&log, "PSD").is_empty(), "{ctx}");
    } else {
        check_animation(lane, &log, &ctx);
        check_animation_targets(board, lane, &log, &ctx);
        check_psd(lane, &log, &ctx);
    }
    per_vertex
}

/// The PSD benchmark's line (firmware/src/psd_bench.rs): one frame's corrective weights in
/// the lane's pose scalar, a plausible count.
fn check_psd(lane: &str, log: &str, ctx: &str) {
    let psd = lines(log, "PSD")
        .pop()
        .unwrap_or_else(|| panic!("no PSD line: {ctx}"));
    let scalar = if lane == "fixed" { "I8F24" } else { "f32" };
    assert_eq!(psd["format"], scalar, "{ctx}");
    let per_frame: u64 = psd["per_frame"].parse().unwrap();
    // At least a multiply-add a target per sample; at most soft float's cost.
    assert!(
        (32..2_000_000).contains(&per_frame),
        "PSD: {per_frame}: {ctx}"
    );
}

/// The animation benchmark's `BLEND`, `IK` and `WALK` lines (firmware/src/anim_bench.rs):
/// in the lane's pose scalar, plausible counts, every timed IK solve reaching its target,
/// and the walk planting its feet.
fn check_animation(lane: &str, log: &str, ctx: &str) {
    let line = |tag: &str| {
        lines(log, tag)
            .pop()
            .unwrap_or_else(|| panic!("no {tag} line: {ctx}"))
    };
    let (scalar, reach) = match lane {
        // The fixed lane poses in I8F24: the IK's bound of 2⁻⁹ (tests/anim_limb.rs) in
        // millionths of the 0.9 leg.
        "fixed" => ("I8F24", 2170),
        // f32: 1e-4 of the extent (tests/anim_limb.rs), the leg's 0.9 as the extent.
        _ => ("f32", 100),
    };
    let blend = line("BLEND");
    assert_eq!(blend["lane"], scalar, "{ctx}");
    assert_eq!((blend["joints"], blend["layers"]), ("16", "3"), "{ctx}");
    let number = |f: &HashMap<&str, &str>, k: &str| f[k].parse::<f64>().unwrap();
    let (per, one) = (
        number(&blend, "per_joint_layer"),
        number(&blend, "one_layer"),
    );
    // At least the 14 multiply-adds a layer adds to a joint; three layers cost a joint more
    // than one does (not necessarily less than three times as much: a single layer skips
    // the hemisphere test, which in soft float costs more than the shared normalisation).
    assert!(
        (14.0..20_000.0).contains(&per) && one < 3.0 * per,
        "blend: {per}, {one}: {ctx}"
    );
    let ik = line("IK");
    assert_eq!(ik["lane"], scalar, "{ctx}");
    let solve = number(&ik, "per_solve");
    assert!((100.0..200_000.0).contains(&solve), "IK: {solve}: {ctx}");
    let worst: u32 = ik["worst"].parse().unwrap();
    assert!(
        worst <= reach,
        "IK: an ankle {worst} millionths of the leg off its target: {ctx}"
    );
    let walk = line("WALK");
    assert_eq!(walk["lane"], scalar, "{ctx}");
    let frame = number(&walk, "per_frame");
    // Two leg solves and a look-at at least; at most a small share of a frame's millions.
    assert!(
        (2.0 * solve..1_000_000.0).contains(&frame),
        "walk: {frame}: {ctx}"
    );
    // Eight frames, each with one or both feet planted (a foot is planted for 60 % of its
    // stride).
    let planted: u32 = walk["planted"].parse().unwrap();
    assert!(
        (8..16).contains(&planted),
        "walk: {planted} feet planted: {ctx}"
    );
}

/// The animation layer's speed targets that are met stay met (docs/BENCHMARKS.md, "The
/// animation layer on the boards"): blending at most 80 instructions per joint per layer on
/// the Cortex-M4F in `f32` and 250 on the Cortex-M0 in fixed point.
fn check_animation_targets(board: &str, lane: &str, log: &str, ctx: &str) {
    let target = match (board, lane) {
        ("mps2-an386", "f32") => 80.0,
        ("mps2-an385-m0", "fixed") => 250.0,
        _ => return,
    };
    let blend = lines(log, "BLEND")
        .pop()
        .unwrap_or_else(|| panic!("no BLEND line: {ctx}"));
    let per: f64 = blend["per_joint_layer"].parse().unwrap();
    assert!(
        per <= target,
        "blend: {per} instructions per joint per layer, target {target}: {ctx}"
    );
}

#[test]
fn firmware_cortex_m4f_mps2_an386() {
    let Some([_, f32_loop]) = check_board(
        "firmware_cortex_m4f_mps2_an386",
        "mps2-an386",
        "cortex-m4f",
        50_000,
    ) else {
        return;
    };
    // The `vmla` build: the same bits (checked against the host in `check_run`) from the
    // chained multiply-add kernels, which take fewer instructions than the default ones.
    let vmla = check_run("mps2-an386", "cortex-m4f", 50_000, "f32", &["--vmla"]);
    for k in [Kernel::Lbs4, Kernel::Lbs4Normals] {
        let (default, chained) = (f32_loop[k.name()], vmla[k.name()]);
        assert!(
            chained < default * 0.8,
            "{}: {chained} instructions per vertex with --vmla, {default} without",
            k.name()
        );
    }
}

#[test]
fn firmware_cortex_m3_mps2_an385() {
    check_board(
        "firmware_cortex_m3_mps2_an385",
        "mps2-an385",
        "cortex-m3",
        50_000,
    );
}

#[test]
fn firmware_cortex_m0_microbit() {
    let Some([microbit, _]) = check_board(
        "firmware_cortex_m0_microbit",
        "microbit",
        "cortex-m0",
        32_000,
    ) else {
        return;
    };
    // The same M0 code on the mps2-an385 (`scripts/firmware.sh bench` runs it there too, as
    // the frame loop runs models beyond the micro:bit's RAM there): the same instructions,
    // counted in ticks of 40 instructions instead of 62.5.
    let mps2 = check_run("mps2-an385-m0", "cortex-m3", 50_000, "fixed", &[]);
    for k in Kernel::ALL {
        let (a, b) = (microbit[k.name()], mps2[k.name()]);
        assert!(
            (a - b).abs() < 0.2,
            "{}: {a} instructions a vertex on the micro:bit, {b} on the mps2-an385",
            k.name()
        );
    }
}

#[test]
fn firmware_checksums_depend_on_the_pose() {
    // The cross-check above is only meaningful if the checksum sees the output: a different
    // pose must change every kernel's checksum.
    let moved = {
        let mut rng = synthetic::Rng::new(synthetic::POSE_SEED ^ 1);
        synthetic::palette::<Q14>(&mut rng).unwrap()
    };
    let mut chunk = Box::<Chunk<Q14>>::default();
    let base = host_checksums::<Q14>();
    for k in Kernel::ALL {
        let other = synthetic::run(k, &moved, &mut chunk, 1, &mut ()).unwrap();
        assert_ne!(other.0, base[k.name()], "{}", k.name());
    }
}

#[test]
fn lane_loops_match_the_generic_loop_on_this_host() {
    // The same check the firmware runs on the device, here on the host's own loops (the
    // `f32` lane's four-wide SSE2 loop on x86-64).
    assert_eq!(
        synthetic::check_lane_loop::<Q14>().unwrap(),
        Ok(expected_cases())
    );
    assert_eq!(
        synthetic::check_lane_loop::<f32>().unwrap(),
        Ok(expected_cases())
    );
    // And the DQS check (the generic loop on this host in both lanes).
    let dqs = Ok(dqs_check::DQS_CASES);
    assert_eq!(dqs_check::check_dqs_loop::<Q14>().unwrap(), dqs);
    assert_eq!(dqs_check::check_dqs_loop::<f32>().unwrap(), dqs);
    // And the projection check (the Rust loop on this host).
    match project_check::check_project_loop() {
        Ok(cases) => assert_eq!(cases, project_check::PROJECT_CASES),
        Err(m) => panic!(
            "projection loop: camera {}, round {}, {} vertices",
            m.camera, m.round, m.len
        ),
    }
}

#[test]
fn lane_loop_check_holds_vertices_of_each_bone_count() {
    // The ARMv6-M kernel blends a vertex's bones up to its last non-zero stored weight (one
    // to four) by a body of its own for each count: the device check must reach each, with
    // zeros trailing (the importer's order) and zeros before the last non-zero weight, in
    // its four-influence cases (the only ones the kernel runs) and among the first 7
    // vertices too (its shorter cases).
    let mut rng = synthetic::Rng::new(synthetic::CHECK_SEED);
    let mut inputs = synthetic::CheckInputs::<Q14>::default();
    synthetic::check_inputs(&mut rng, 9, &mut inputs).unwrap();
    let influences = synthetic::check_influences::<Q14, 4>(&inputs).unwrap();
    let count = |w: [u16; 3]| 1 + w.iter().rposition(|&w| w != 0).map_or(0, |i| i + 1);
    let gap = |w: [u16; 3]| w[..count(w) - 1].contains(&0);
    for (len, want_gaps) in [(7, false), (synthetic::CHECK_VERTICES, true)] {
        let stored: Vec<[u16; 3]> = influences[..len]
            .iter()
            .map(|i| i.stored().map(|w| w.to_bits()))
            .collect();
        for bones in 1..=4 {
            assert!(
                stored.iter().any(|&w| count(w) == bones),
                "no vertex of {bones} bones among the first {len}"
            );
            if want_gaps && bones > 2 {
                assert!(
                    stored.iter().any(|&w| count(w) == bones && gap(w)),
                    "no vertex of {bones} bones with a zero weight before the last"
                );
            }
        }
    }
}
