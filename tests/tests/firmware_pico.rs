//! The Raspberry Pi Pico build (RP2040 + ST7789 over SPI, `--features pico`): it links, puts
//! the second-stage bootloader where the boot ROM looks for it and the vector table right
//! after, fits the Pico's flash and RAM, and `scripts/firmware.sh uf2` turns it into a UF2
//! file holding exactly the ELF's loadable bytes; the second core's band drawing is linked
//! in and started, and a band its two cores' buffers do not fit is drawn by core 0 alone.
//! (It cannot run here: no QEMU machine models the RP2040; the bands' split between cores
//! is checked on the host, skin-core's `bands_shared_between_cores_are_the_one_core_frame`.)
//!
//! Needs what the QEMU firmware tests need (scripts/setup.sh); otherwise SKIPPED (a failure
//! under SKIN_REQUIRE_ALL=1).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use skin_tests::firmware::{missing_tools, script};

/// The RP2040's flash (XIP) window and the Pico's 2 MiB of flash.
const FLASH: u32 = 0x1000_0000;
const FLASH_SIZE: u32 = 2 * 1024 * 1024;
/// RAM the memory map gives the firmware.
const RAM: u32 = 0x2000_0000;
const RAM_SIZE: u32 = 256 * 1024;

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// A section header of a little-endian ELF32 file: (name, address, size, type).
fn sections(elf: &[u8]) -> Vec<(String, u32, u32, u32)> {
    let (shoff, shentsize, shnum, shstrndx) = (
        u32_at(elf, 32) as usize,
        usize::from(u16_at(elf, 46)),
        usize::from(u16_at(elf, 48)),
        usize::from(u16_at(elf, 50)),
    );
    let header = |i: usize| &elf[shoff + i * shentsize..];
    let names = u32_at(header(shstrndx), 16) as usize;
    (0..shnum)
        .map(|i| {
            let h = header(i);
            let name = &elf[names + u32_at(h, 0) as usize..];
            let end = name.iter().position(|&c| c == 0).expect("NUL-terminated");
            let name = String::from_utf8_lossy(&name[..end]).into_owned();
            (name, u32_at(h, 12), u32_at(h, 20), u32_at(h, 4))
        })
        .collect()
}

/// The names in an ELF32 file's symbol table (`.symtab`, names from its linked string
/// table).
fn symbols(elf: &[u8]) -> Vec<String> {
    let (shoff, shentsize, shnum) = (
        u32_at(elf, 32) as usize,
        usize::from(u16_at(elf, 46)),
        usize::from(u16_at(elf, 48)),
    );
    let header = |i: usize| &elf[shoff + i * shentsize..];
    let Some(table) = (0..shnum).map(header).find(|h| u32_at(h, 4) == 2) else {
        return Vec::new();
    };
    let (offset, size) = (u32_at(table, 16) as usize, u32_at(table, 20) as usize);
    let names = u32_at(header(u32_at(table, 24) as usize), 16) as usize;
    elf[offset..offset + size]
        .chunks_exact(16)
        .map(|entry| {
            let name = &elf[names + u32_at(entry, 0) as usize..];
            let end = name.iter().position(|&c| c == 0).expect("NUL-terminated");
            String::from_utf8_lossy(&name[..end]).into_owned()
        })
        .collect()
}

/// Every loadable byte of the ELF at its load (physical) address.
fn loadable(elf: &[u8]) -> BTreeMap<u32, u8> {
    let (phoff, phentsize, phnum) = (
        u32_at(elf, 28) as usize,
        usize::from(u16_at(elf, 42)),
        usize::from(u16_at(elf, 44)),
    );
    let mut bytes = BTreeMap::new();
    for i in 0..phnum {
        let h = &elf[phoff + i * phentsize..];
        let (kind, offset, paddr, filesz) =
            (u32_at(h, 0), u32_at(h, 4), u32_at(h, 12), u32_at(h, 16));
        if kind == 1 {
            for k in 0..filesz {
                bytes.insert(paddr + k, elf[(offset + k) as usize]);
            }
        }
    }
    bytes
}

/// Every payload byte of a UF2 file by address, checking each block's framing.
fn uf2_bytes(uf2: &[u8]) -> BTreeMap<u32, u8> {
    assert_eq!(uf2.len() % 512, 0, "whole 512-byte blocks");
    let blocks = uf2.len() / 512;
    let mut bytes = BTreeMap::new();
    for (n, b) in uf2.chunks_exact(512).enumerate() {
        assert_eq!(u32_at(b, 0), 0x0A32_4655, "block {n}: first magic");
        assert_eq!(u32_at(b, 4), 0x9E5D_5157, "block {n}: second magic");
        assert_eq!(u32_at(b, 8), 0x2000, "block {n}: flags (family ID present)");
        assert_eq!(u32_at(b, 28), 0xE48B_FF56, "block {n}: RP2040 family");
        assert_eq!(u32_at(b, 508), 0x0AB1_6F30, "block {n}: final magic");
        assert_eq!(u32_at(b, 20) as usize, n, "block {n}: number");
        assert_eq!(u32_at(b, 24) as usize, blocks, "block {n}: count");
        let (addr, len) = (u32_at(b, 12), u32_at(b, 16));
        assert_eq!(len, 256, "block {n}: payload size");
        assert_eq!(addr % 256, 0, "block {n}: aligned");
        for k in 0..len {
            assert!(
                bytes.insert(addr + k, b[32 + k as usize]).is_none(),
                "block {n}: address {:#x} written twice",
                addr + k
            );
        }
    }
    bytes
}

/// `scripts/firmware.sh ARGS`, which must succeed: the path it prints last.
fn built_path(args: &[&str]) -> String {
    let o = script(args);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "scripts/firmware.sh {} failed ({}):\n{stdout}\n{}",
        args.join(" "),
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    stdout.lines().last().expect("a path").to_string()
}

/// The Pico's build of the character and its UF2 (`scripts/firmware.sh uf2 fixed`), made
/// once for every test here: the ELF's and the UF2's bytes.
fn built() -> &'static (Vec<u8>, Vec<u8>) {
    static BUILT: OnceLock<(Vec<u8>, Vec<u8>)> = OnceLock::new();
    BUILT.get_or_init(|| {
        let uf2_path = built_path(&["uf2", "fixed"]);
        let elf_path = uf2_path.replace(".uf2", ".elf");
        let elf = std::fs::read(Path::new(&elf_path)).expect("the ELF");
        let uf2 = std::fs::read(Path::new(&uf2_path)).expect("the UF2");
        (elf, uf2)
    })
}

#[test]
fn firmware_pico_builds_and_converts_to_uf2() {
    let test = "firmware_pico_builds_and_converts_to_uf2";
    if let Some(why) = missing_tools() {
        skin_tests::skip(test, &why);
        return;
    }
    let (elf, uf2) = built();

    let s = sections(elf);
    let find = |name: &str| {
        s.iter()
            .find(|x| x.0 == name)
            .unwrap_or_else(|| panic!("no {name} section"))
    };
    let boot2 = find(".boot2");
    assert_eq!((boot2.1, boot2.2), (FLASH, 256), "boot2: {boot2:?}");
    let vectors = find(".vector_table");
    assert_eq!(vectors.1, FLASH + 256, "vector table: {vectors:?}");
    // NOBITS sections (type 8: .bss, .uninit) and .data use RAM.
    let ram_end = s
        .iter()
        .filter(|x| x.1 >= RAM && x.1 < RAM + RAM_SIZE)
        .map(|x| x.1 + x.2)
        .max()
        .expect("RAM sections");
    assert!(ram_end <= RAM + RAM_SIZE, "static RAM ends at {ram_end:#x}");

    let want = loadable(elf);
    let (lo, hi) = (
        *want.keys().next().expect("bytes"),
        *want.keys().last().expect("bytes"),
    );
    assert!(
        lo >= FLASH && hi < FLASH + FLASH_SIZE,
        "{lo:#x}..={hi:#x} outside the flash"
    );
    let got = uf2_bytes(uf2);
    for (addr, byte) in &want {
        assert_eq!(got.get(addr), Some(byte), "UF2 byte at {addr:#x}");
    }
    // Padding inside the last page of a segment is erased flash.
    assert!(got
        .iter()
        .filter(|(a, _)| !want.contains_key(a))
        .all(|(_, &b)| b == 0xFF));
}

/// The Pico's second core draws half the bands: the build links the RP2040 HAL's core 1
/// start-up (only there when core 0 spawns core 1) and the firmware's band loop for core 1
/// (`skin_firmware::core1::serve`), and reserves core 1's stack in static RAM.
#[test]
fn firmware_pico_draws_bands_on_both_cores() {
    let test = "firmware_pico_draws_bands_on_both_cores";
    if let Some(why) = missing_tools() {
        skin_tests::skip(test, &why);
        return;
    }
    let (elf, _) = built();
    let names = symbols(elf);
    assert!(!names.is_empty(), "the Pico's ELF has no symbol table");
    // Mangled paths (legacy or v0) hold each name as its length and its text.
    let has = |parts: &[&str]| names.iter().any(|n| parts.iter().all(|p| n.contains(p)));
    for (parts, what) in [
        (
            &["10rp2040_hal", "5spawn13core1_startup"][..],
            "rp2040-hal's core 1 start-up: core 0 never spawns core 1 (firmware/src/core1.rs `start`)",
        ),
        (
            &["13skin_firmware", "5core15serve"][..],
            "core 1's band loop `skin_firmware::core1::serve`: core 1 draws no bands",
        ),
        (
            &["13skin_firmware", "5core15STACK"][..],
            "core 1's static stack `skin_firmware::core1::STACK`",
        ),
    ] {
        assert!(has(parts), "the Pico's ELF lacks {what}");
    }
}

/// A band whose two cores' buffers (core 1's spans, band and stack, four DMA band buffers)
/// do not fit the Pico's RAM beside the frame loop is drawn by core 0 alone: the character
/// in 60-row bands (two cores take it up to 55 rows; one, up to 227) builds without core 1's
/// code.
#[test]
fn firmware_pico_draws_on_one_core_when_two_do_not_fit() {
    let test = "firmware_pico_draws_on_one_core_when_two_do_not_fit";
    if let Some(why) = missing_tools() {
        skin_tests::skip(test, &why);
        return;
    }
    // After the shared build: both would otherwise take the two build slots at once.
    built();
    let path = built_path(&["build", "pico", "fixed", "--rows", "60"]);
    let elf = std::fs::read(Path::new(&path)).expect("the ELF");
    let names = symbols(&elf);
    assert!(
        names
            .iter()
            .any(|n| n.contains("13skin_firmware5frame6frames")),
        "the 60-row Pico build has no frame loop"
    );
    let core1: Vec<_> = names
        .iter()
        .filter(|n| n.contains("core1_startup") || n.contains("5core15serve"))
        .collect();
    assert!(
        core1.is_empty(),
        "the 60-row Pico build starts core 1 though its buffers do not fit: {core1:?}"
    );
}
