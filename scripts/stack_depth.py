#!/usr/bin/env python3
"""The deepest stack a function of a Thumb-1 (ARMv6-M) firmware ELF can reach, from its code.

    scripts/stack_depth.py ELF NAME
    e.g. scripts/stack_depth.py firmware/target/elf/pico-fixed-CesiumMan.elf 5core15serve

NAME is part of a mangled symbol (a Rust path's names each appear as their length and their
text: `skin_firmware::core1::serve` holds `5core15serve`). Disassembles the ELF with
`llvm-objdump`; takes each function's frame from its prologue (the registers it pushes, and
`sub sp, #N` or `add sp, rX` of a negative literal-pool constant) and its callees from its
`bl` instructions, and prints the deepest chain of calls from the function: the bytes of
stack it needs, then each frame on the chain. Calls through a register (`blx rN`) cannot be
followed: it lists those it meets, with their functions, so that a reader can judge them
(in the firmware they are the panic path's formatting and the C library's memory routines).
Recursion ends a chain (marked). For sizing a stack that no emulator can measure, such as the
Pico's second core's (docs/BENCHMARKS.md, "The Pico's two cores").
"""

import re
import struct
import subprocess
import sys

FUNCTION = re.compile(r"^([0-9a-f]+) <(.+)>:$")
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
# Instructions of a prologue worth reading: the frame is set up before the body starts.
PROLOGUE = 40


def load_word(elf, addr):
    """The 32-bit word at `addr` in a loadable segment, or None."""
    (phoff,) = struct.unpack_from("<I", elf, 28)
    phentsize, phnum = struct.unpack_from("<HH", elf, 42)
    for i in range(phnum):
        kind, offset, vaddr, _, filesz, _ = struct.unpack_from("<IIIIII", elf, phoff + i * phentsize)
        if kind == 1 and vaddr <= addr < vaddr + filesz:
            return struct.unpack_from("<I", elf, offset + addr - vaddr)[0]
    return None


def functions(path):
    """Each function's instructions: name -> [(address, mnemonic, operands)]."""
    text = subprocess.run(
        ["llvm-objdump", "-d", "--no-show-raw-insn", path], capture_output=True, text=True, check=True
    ).stdout
    funcs, current = {}, None
    for line in text.splitlines():
        m = FUNCTION.match(line)
        if m:
            current = m.group(2)
            funcs[current] = []
            continue
        m = INSN.match(line)
        if m and current is not None:
            funcs[current].append((int(m.group(1), 16), m.group(2), m.group(3)))
    return funcs


def frame(elf, insns):
    """Bytes a function's prologue takes off the stack."""
    total, literals = 0, {}
    for _, op, args in insns[:PROLOGUE]:
        if op == "push":
            total += 4 * len(args.strip("{}").split(","))
        elif op == "sub" and args.startswith("sp, #"):
            total += int(args.split("#")[1].split()[0])
        elif op == "ldr" and "[pc" in args:
            m = re.search(r"@ 0x([0-9a-f]+)", args)
            if m:
                literals[args.split(",")[0]] = load_word(elf, int(m.group(1), 16))
        elif op == "add" and re.fullmatch(r"sp, r\d+", args):
            value = literals.get(args.split(", ")[1])
            if value is not None and value >= 1 << 31:
                total += (1 << 32) - value
    return total


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, name = sys.argv[1], sys.argv[2]
    elf = open(path, "rb").read()
    funcs = functions(path)
    roots = [f for f in funcs if name in f]
    if len(roots) != 1:
        sys.exit(f"stack_depth.py: {len(roots)} functions match {name!r}: {roots[:5]}")
    frames = {f: frame(elf, insns) for f, insns in funcs.items()}
    callees = {
        f: {m.group(1) for _, op, args in insns if op == "bl" for m in [re.search(r"<(.+?)>", args)] if m and m.group(1) in funcs}
        for f, insns in funcs.items()
    }

    def deepest(f, chain):
        if f in chain:
            return 0, [f"     0 (recursion: {f})"]
        below = max((deepest(c, chain | {f}) for c in callees[f]), default=(0, []), key=lambda d: d[0])
        return frames[f] + below[0], [f"{frames[f]:6d} {f}"] + below[1]

    total, chain = deepest(roots[0], frozenset())
    print(f"STACK function={roots[0]} bytes={total}")
    print("\n".join(chain))
    reach, todo = set(), [roots[0]]
    while todo:
        f = todo.pop()
        if f not in reach:
            reach.add(f)
            todo.extend(callees[f])
    indirect = sorted({f for f in reach for _, op, args in funcs[f] if op in ("blx", "bx") and re.fullmatch(r"r\d+", args)})
    print(f"INDIRECT calls through a register, not followed, in: {', '.join(indirect) or 'none'}")


if __name__ == "__main__":
    main()
