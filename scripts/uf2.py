#!/usr/bin/env python3
"""ELF -> UF2 for the Raspberry Pi Pico's boot ROM (hold BOOTSEL, plug in, copy the file
onto the RPI-RP2 drive). Usage: uf2.py FIRMWARE.elf OUT.uf2

Every PT_LOAD segment with file bytes is written at its physical (load) address in 256-byte
payloads, one 512-byte UF2 block each, tagged with the RP2040 family ID. Only flash
addresses (0x10000000..) can be written this way; anything else is an error.
"""
import struct
import sys

MAGIC_START0, MAGIC_START1, MAGIC_END = 0x0A324655, 0x9E5D5157, 0x0AB16F30
FLAG_FAMILY_ID = 0x00002000
RP2040_FAMILY = 0xE48BFF56
FLASH = range(0x10000000, 0x11000000)
PAYLOAD = 256


def segments(elf):
    """(address, bytes) of the loadable segments of a little-endian ELF32 file."""
    if elf[:4] != b"\x7fELF" or elf[4] != 1 or elf[5] != 1:
        sys.exit("uf2.py: not a little-endian 32-bit ELF file")
    phoff, = struct.unpack_from("<I", elf, 28)
    phentsize, phnum = struct.unpack_from("<HH", elf, 42)
    for i in range(phnum):
        kind, offset, _vaddr, paddr, filesz, _memsz, _flags, _align = struct.unpack_from(
            "<8I", elf, phoff + i * phentsize)
        if kind == 1 and filesz > 0:
            yield paddr, elf[offset:offset + filesz]


def pages(elf):
    """The image as {256-byte-aligned address: 256 bytes}, gaps filled with 0xFF."""
    out = {}
    for addr, data in segments(elf):
        if addr not in FLASH or addr + len(data) - 1 not in FLASH:
            sys.exit(f"uf2.py: segment at {addr:#x} is not in the RP2040's flash")
        for i, byte in enumerate(data):
            a = addr + i
            page = out.setdefault(a - a % PAYLOAD, bytearray(b"\xff" * PAYLOAD))
            page[a % PAYLOAD] = byte
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], "rb") as f:
        image = pages(f.read())
    blocks = sorted(image)
    with open(sys.argv[2], "wb") as f:
        for n, addr in enumerate(blocks):
            head = struct.pack("<8I", MAGIC_START0, MAGIC_START1, FLAG_FAMILY_ID, addr,
                               PAYLOAD, n, len(blocks), RP2040_FAMILY)
            data = bytes(image[addr]).ljust(476, b"\0")
            f.write(head + data + struct.pack("<I", MAGIC_END))


if __name__ == "__main__":
    main()
