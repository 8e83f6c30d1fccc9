#!/usr/bin/env python3
"""Where an IPIN 2023 walk's distance is lost: reference, the phone's fix path and TrueTrack per waypoint leg.

For one log of ../shared/datasets/ipin2023-walk (or $TRUETRACK_DATASETS/ipin2023-walk), at each surveyed POSI
waypoint (app time) it prints the cumulative reference distance (haversine over the waypoints), the fix path
(haversine over the unique, time-sorted fixes with accuracy <= 50 m up to that time) and TrueTrack's total
(from `truetrack process --decisions`), each from the first waypoint, and the same per leg. The fix time of a
waypoint is its app time plus the smallest logging latency seen (max of SensorTimeStamp - AppTimestamp).

Usage: tools/analysis/ipin_departures.py LOG [path/to/truetrack]   (default .build/release/truetrack)
  e.g. tools/analysis/ipin_departures.py IPIN2023_T3_TrainingTrial01_repetition02.txt
"""
import csv, math, os, subprocess, sys, tempfile
from datetime import datetime

from trackgeo import datasets_root, haversine


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[2] if len(sys.argv) > 2 else ".build/release/truetrack"
    root = datasets_root()
    path = sys.argv[1] if os.path.exists(sys.argv[1]) else os.path.join(root, "ipin2023-walk", sys.argv[1])
    posi, fixes = [], {}
    for line in open(path):
        f = line.strip().split(";")
        if f[0] == "POSI":
            posi.append((float(f[1]), float(f[3]), float(f[4])))
        elif f[0] == "GNSS" and float(f[7]) <= 50:
            fixes[(f[2], f[3], f[4])] = (float(f[1]), float(f[2]), float(f[3]), float(f[4]))
    ordered = sorted(fixes.values(), key=lambda x: x[1])
    offset = max(s - a for a, s, _, _ in ordered)
    with tempfile.TemporaryDirectory() as tmp:
        decisions = os.path.join(tmp, "d.csv")
        subprocess.run([binary, "process", path, "--decisions", decisions], stdout=subprocess.DEVNULL, check=True)
        accepted = [
            (datetime.fromisoformat(r["timestamp"].replace("Z", "+00:00")).timestamp(), float(r["total_m"]))
            for r in csv.DictReader(open(decisions)) if r["decision"] == "accepted"
        ]

    def total_at(t):
        value = 0.0
        for when, total in accepted:
            if when <= t + offset:
                value = total
        return value

    def fix_path_at(t):
        length, previous = 0.0, None
        for _, s, la, lo in ordered:
            if s > t + offset:
                break
            if previous:
                length += haversine(previous, (la, lo))
            previous = (la, lo)
        return length

    rows, reference, previous = [], 0.0, None
    for t, la, lo in posi:
        if previous:
            reference += haversine(previous, (la, lo))
        previous = (la, lo)
        rows.append((t, reference, total_at(t), fix_path_at(t)))
    base_tt, base_fix = rows[0][2], rows[0][3]
    print("app s    | cumulative: reference  fix path  TrueTrack | leg: reference  fix path  TrueTrack")
    for i, (t, ref, tt, fp) in enumerate(rows):
        p = rows[i - 1] if i else rows[0]
        print(f"{t:7.1f}  | {ref:20.1f} {fp - base_fix:9.1f} {tt - base_tt:10.1f} |"
              f" {ref - p[1]:14.1f} {fp - p[3]:9.1f} {tt - p[2]:10.1f}")


if __name__ == "__main__":
    main()
