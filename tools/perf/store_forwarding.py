#!/usr/bin/env python3
"""Lists likely store-forwarding stalls on a benchmark's per-fix path.

A load that reads bytes written by more than one recent store, or only part of one, cannot take its value from the
store buffer: it waits until those stores reach the cache. On the Tracker's per-fix path two such loads cost 10 %
of the `tracker` benchmark (2026-12-07; docs/ARCHITECTURE.md, "Tracker speed"). They come from the optimiser pairing
two adjacent 8-byte fields into one 16-byte load where it stored them separately, so they appear and vanish with
field order and with any change to the inlined loop.

What it does: runs the benchmark child under callgrind with per-instruction counts (`--dump-instr=yes`), lays the
counts over `objdump -d` of the measured function, keeps the instructions run at least `--min` times per fix, and
prints every hot load of an `(%rbp)` offset whose bytes are not all written by one hot store of at least its width
(16-byte vector loads over 8-byte stores, chiefly). Spill slots (far below the tracker) are skipped by default:
the compiler reuses them at other widths at other points, which this listing cannot tell apart.

It is a pointer, not a verdict: a suspect whose stores were long retired costs nothing (the window's
(`dopplerSeconds`, `candidates.x`) pair, removed and timed on 2026-12-07, made no difference). Time the change
interleaved with the build before (`truetrack-benchmarks --only tracker --runs 11`, five rounds).

Usage (from the repository, after `swift build -c release --product truetrack-benchmarks` and one benchmark run,
which writes the inputs to /tmp/truetrack-bench):
    python3 tools/perf/store_forwarding.py                      # the tracker benchmark
    python3 tools/perf/store_forwarding.py --case track-walk     # the simulated walk
    python3 tools/perf/store_forwarding.py --binary OTHER_BUILD  # another build
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

# case -> (symbol glob for callgrind's --toggle-collect, input file, fixes the child processes)
CASES = {
    "tracker": ("*measureTracker*", "/tmp/truetrack-bench/route-1000000-g2.csv", 1_000_000),
    "track-walk": ("*trackWalk*", "/tmp/truetrack-bench/track-walk-1000000-g2.count", 1_000_000),
}

VECTOR_16 = {"movapd", "movaps", "movupd", "movups", "movdqa", "movdqu", "addpd", "subpd", "mulpd", "divpd",
             "maxpd", "minpd", "andpd", "orpd", "cmplepd"}
SCALAR_8 = {"movsd", "movq", "addsd", "subsd", "mulsd", "divsd", "ucomisd", "comisd", "maxsd", "minsd",
            "cvtsi2sd", "sqrtsd", "movlpd", "movhpd"}


def instruction_counts(path, binary_name):
    """Per-address instruction counts of the object named `binary_name` in a callgrind file written with
    --dump-instr=yes (positions `instr line`; addresses and lines may be relative to the line before)."""
    counts = collections.Counter()
    names, current, address, in_call = {}, None, 0, False
    for raw in open(path):
        line = raw.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^(ob|fl|fi|fe|fn|cob|cfi|cfl|cfn)=\((\d+)\)(?: (.*))?$", line)
        if m:
            kind, index, name = m.groups()
            if kind in ("ob", "cob") and name:
                names[index] = name
            if kind == "ob":
                current = names.get(index)
            continue
        if line.startswith("calls="):
            in_call = True
            continue
        if re.match(r"^[a-z]+:", line):
            continue
        parts = line.split()
        if len(parts) < 2:
            continue
        a = parts[0]
        if a.startswith("0x"):
            address = int(a, 16)
        elif a.startswith("+"):
            address += int(a[1:], 16) if a[1:].startswith("0x") else int(a[1:])
        elif a.startswith("-"):
            address -= int(a[1:], 16) if a[1:].startswith("0x") else int(a[1:])
        if in_call:  # the inclusive cost of a call, not this instruction's
            in_call = False
            continue
        if current and os.path.basename(current) == binary_name and len(parts) > 2:
            counts[address] += int(parts[2])
    return counts


def width(op, operands):
    """Bytes an instruction reads or writes at its memory operand (a rough decoding, enough for moves)."""
    if op in VECTOR_16:
        return 16
    if op in SCALAR_8:
        return 8
    if op in ("movzbl", "movsbl", "cmpb", "movb", "testb", "setb"):
        return 1
    if op in ("movzwl", "movswl", "cmpw", "movw"):
        return 2
    if op in ("movl", "cmpl", "addl", "testl"):
        return 4
    for register in re.findall(r"%([a-z0-9]+)", operands):
        if register in ("rbp", "rip"):
            continue
        if re.match(r"r\d+d$", register) or register.startswith("e"):
            return 4
        if re.match(r"r\d+b$", register) or register in ("al", "bl", "cl", "dl", "sil", "dil"):
            return 1
        if re.match(r"r\d+w$", register) or register in ("ax", "bx", "cx", "dx"):
            return 2
    return 8


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--case", choices=sorted(CASES), default="tracker")
    parser.add_argument("--binary", default=".build/release/truetrack-benchmarks")
    parser.add_argument("--min", type=float, default=0.9, help="runs per fix an instruction needs to be listed")
    parser.add_argument("--spills", action="store_true", help="also list spill slots (offsets below -0x4a00)")
    args = parser.parse_args()
    pattern, input_path, fixes = CASES[args.case]
    if not os.path.exists(input_path):
        sys.exit(f"{input_path} is missing: run `{args.binary} --quick --only {args.case}` once to write it")
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        command = ["valgrind", "--tool=callgrind", "--dump-instr=yes", f"--callgrind-out-file={out}",
                   f"--toggle-collect={pattern}", args.binary, "--child", args.case, input_path]
        run = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            tail = "\n".join(run.stderr.splitlines()[-5:])
            sys.exit(f"{' '.join(command)} failed with status {run.returncode}:\n{tail}")
        counts = instruction_counts(out, os.path.basename(os.path.realpath(args.binary)))
    symbols = subprocess.run(["nm", args.binary], capture_output=True, text=True, check=True).stdout
    glob = pattern.strip("*")
    names = [line.split()[-1] for line in symbols.splitlines() if glob in line and line.split()[1] in "tT"]
    if not names:
        sys.exit(f"no function matching {pattern} in {args.binary}")
    hot = []
    for name in names:
        listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", args.binary, f"--disassemble={name}"],
                                 capture_output=True, text=True, check=True).stdout
        for line in listing.splitlines():
            m = re.match(r"^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$", line)
            if m and counts.get(int(m.group(1), 16), 0) >= args.min * fixes:
                hot.append((int(m.group(1), 16), m.group(2), m.group(3)))
    print(f"{args.case}: {sum(counts.values()) / fixes:.1f} instructions per fix counted, "
          f"{len(hot)} run at least {args.min} times per fix")
    memory = re.compile(r"(-0x[0-9a-f]+)\(%rbp\)")
    stores, loads = [], []
    for address, op, operands in hot:
        m = memory.search(operands)
        if not m:
            continue
        offset = int(m.group(1), 16)
        size = width(op, operands)
        writes = operands.strip().endswith("(%rbp)") and "," in operands
        if writes and op.startswith("mov"):
            stores.append((offset, size, address, op))
        elif writes and not op.startswith(("cmp", "test", "ucom")):
            stores.append((offset, size, address, op))  # read-modify-write
            loads.append((offset, size, address, op))
        elif not writes:
            loads.append((offset, size, address, op))
    found = 0
    for offset, size, address, op in loads:
        if offset < -0x4A00 and not args.spills:
            continue
        overlapping = [s for s in stores if s[0] < offset + size and offset < s[0] + s[1]]
        if not overlapping:
            continue
        covering = [s for s in overlapping if s[0] <= offset and offset + size <= s[0] + s[1]]
        # Stores to exactly the load's bytes at its width or wider are forwarded; flag the rest.
        if covering and all(s[0] <= offset and offset + size <= s[0] + s[1] for s in overlapping):
            continue
        found += 1
        written = ", ".join(f"{s[1]} B at -{-s[0]:#x} by {s[3]} @{s[2]:x}" for s in overlapping[:4])
        print(f"  {op} of {size} B at -{-offset:#x}(%rbp) @{address:x}: written as {written}")
    print(f"{found} suspect load(s)" if found else "no suspect loads")


if __name__ == "__main__":
    main()
