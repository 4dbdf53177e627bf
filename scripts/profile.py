#!/usr/bin/env python3
"""Where a firmware ELF's instructions go under QEMU, and their cycles by the Cortex-M0+
timings.

    scripts/profile.py ELF QEMU_MACHINE_ARGS...
    e.g. scripts/profile.py firmware/target/elf/mps2-an385-m0-fixed-CesiumMan.elf \\
             -cpu cortex-m3 -machine mps2-an385

Runs the ELF (built by `scripts/firmware.sh build`) with `-d in_asm,exec,nochain`: QEMU logs
each translation block's instructions once and every execution of a block, so each
executed instruction is counted. Prints, per function (symbols from `nm`), the instructions
executed and the cycles the Cortex-M0+ Technical Reference Manual gives them: loads and
stores 2, BL 3, BX, BLX and B 2, a conditional branch 1.5 (taken 2, not taken 1: the
direction is not traced), PUSH/POP/LDM/STM 1 + registers (+2 for POP with PC), everything
else (MULS too: the RP2040's multiplier is single-cycle) 1. PROFILE_TOP=N lists N functions
(40 by default). The figures cover the whole
run (boot, the stack paint, calibration and the display writes too); the frame loop's
functions are the ones to read. Thumb-1 (ARMv6-M) code only: the timings are the M0+'s.
"""

import bisect
import collections
import os
import re
import subprocess
import sys
import tempfile

TRACE = re.compile(r"Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")
# The encoding is one halfword, or two for BL (and MRS/MSR/DMB): the mnemonic follows both.
INSN = re.compile(r"0x([0-9a-f]+):\s+(?:[0-9a-f]{4} )+\s*(\S+)\s*(.*)")
CONDITIONAL = re.compile(r"b(eq|ne|hs|lo|cs|cc|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)$")


def cycles(op, args):
    """Cortex-M0+ cycles of one instruction."""
    registers = args.count(",") + 1 if "{" in args else 0
    if op in ("push", "stm", "stmia", "ldm", "ldmia"):
        return 1 + registers
    if op == "pop":
        return 1 + registers + (2 if "pc" in args else 0)
    if op.startswith(("ldr", "str")):
        return 2
    if op == "bl":
        return 3
    if op in ("b", "bx", "blx"):
        return 2
    if CONDITIONAL.match(op):
        return 1.5
    return 1


def symbols(elf):
    """Function start addresses, sizes and names."""
    out = subprocess.run(["nm", "-S", "-C", elf], capture_output=True, text=True, check=True)
    syms = []
    for line in out.stdout.splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4 and parts[2] in "tTwW":
            syms.append((int(parts[0], 16) & ~1, int(parts[1], 16), parts[3]))
    return sorted(syms)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    elf, machine = os.path.abspath(sys.argv[1]), sys.argv[2:]
    syms = symbols(elf)
    starts = [s[0] for s in syms]

    def function(pc):
        i = bisect.bisect_right(starts, pc) - 1
        if i >= 0 and pc < syms[i][0] + max(syms[i][1], 1):
            return syms[i][2]
        return "?"

    blocks = {}  # block start -> [(op, args)]
    runs = collections.Counter()
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "log")
        os.mkfifo(log)
        qemu = subprocess.Popen(
            ["qemu-system-arm", *machine, "-nographic", "-icount", "shift=0",
             "-semihosting-config", "enable=on,target=native", "-kernel", elf,
             "-d", "in_asm,exec,nochain", "-D", log],
            cwd=d, stdout=subprocess.DEVNULL)
        block = None
        with open(log) as f:
            for line in f:
                if line.startswith("Trace"):
                    m = TRACE.match(line)
                    if m:
                        runs[int(m.group(1), 16)] += 1
                elif m := INSN.match(line):
                    if block is None:
                        block = int(m.group(1), 16)
                        blocks[block] = []
                    blocks[block].append((m.group(2), m.group(3)))
                else:
                    block = None
        qemu.wait()

    per = collections.defaultdict(lambda: [0, 0.0])
    for pc, n in runs.items():
        insns = blocks.get(pc, [])
        entry = per[function(pc)]
        entry[0] += n * len(insns)
        entry[1] += n * sum(cycles(op, args) for op, args in insns)
    total = sum(v[0] for v in per.values())
    print(f"{'instructions':>12} {'share':>6} {'M0+ cycles':>12} {'per insn':>8}  function")
    for name, (insns, cyc) in sorted(per.items(), key=lambda kv: -kv[1][0])[:int(os.environ.get("PROFILE_TOP", "40"))]:
        print(f"{insns:>12} {100 * insns / total:5.1f}% {cyc:>12.0f} {cyc / max(insns, 1):8.2f}  {name[:90]}")


if __name__ == "__main__":
    main()
