#!/usr/bin/env python3
"""Where TrueTrack's distance accrues on the IPIN 2023 walks, and what the phone's own positions allow.

For each walk of ../shared/datasets/ipin2023-walk (or $TRUETRACK_DATASETS/ipin2023-walk):
  - reference: haversine length of the surveyed POSI waypoint polyline (the walk starts at the first waypoint,
    ~60 s after the log starts, and ends at the last);
  - fix path in the walk window: the haversine path of the unique, time-sorted fixes with accuracy <= 50 m
    between the first and last waypoint times (an upper bound for any method that follows the positions:
    the Samsung providers smooth and pin their positions, so corners are cut);
  - TrueTrack's total split into before / inside / after the walk window (from `truetrack process --decisions`).

Usage: tools/analysis/ipin_walk_window.py [path/to/truetrack]   (default .build/debug/truetrack)
"""
import csv, math, os, subprocess, sys, tempfile
from datetime import datetime

from trackgeo import datasets_root, haversine


def read_log(path):
    """An IPIN log's unique GNSS fixes (app time, fix time, latitude, longitude, accuracy), in file order, its
    POSI waypoints (app time, latitude, longitude) and the offset with app clock = fix time + offset."""
    fixes, posi, seen = [], [], set()
    for line in open(path):
        f = line.strip().split(";")
        if f[0] == "GNSS":
            key = (f[2], f[3], f[4])
            if key in seen:
                continue
            seen.add(key)
            fixes.append((float(f[1]), float(f[2]), float(f[3]), float(f[4]), float(f[7])))
        elif f[0] == "POSI":
            posi.append((float(f[1]), float(f[3]), float(f[4])))
    offset = min(app - t for app, t, *_ in fixes)  # app clock = fix time + offset (logging latency ≥ 0)
    return fixes, posi, offset


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/truetrack"
    root = datasets_root()
    folder = os.path.join(root, "ipin2023-walk")
    print("| walk | reference m | fix path in walk window | TrueTrack before | inside walk | after | total |")
    print("|---|---|---|---|---|---|---|")
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".txt")):
        path = os.path.join(folder, name)
        fixes, posi, offset = read_log(path)
        reference = sum(haversine(posi[i - 1][1:], posi[i][1:]) for i in range(1, len(posi)))
        start, end = posi[0][0], posi[-1][0]
        inside = sorted((t, la, lo) for _, t, la, lo, acc in fixes if acc <= 50 and start <= t + offset <= end)
        path_m = sum(haversine(inside[i - 1][1:], inside[i][1:]) for i in range(1, len(inside)))
        with tempfile.NamedTemporaryFile(suffix=".csv") as out:
            subprocess.run([binary, "process", path, "--decisions", out.name], check=True, stdout=subprocess.DEVNULL)
            before = within = total = 0.0
            for row in csv.DictReader(open(out.name)):
                t = datetime.fromisoformat(row["timestamp"].replace("Z", "+00:00")).timestamp() + offset
                total = float(row["total_m"])
                if t < start:
                    before = total
                if t <= end:
                    within = total - before
        pct = lambda v: f"{(v - reference) / reference * 100:+.1f} %"
        trial = name.split("Trial")[1][:2] + "r" + name.split("repetition")[1][:2]
        print(f"| t{trial} | {reference:.1f} | {path_m:.1f} ({pct(path_m)}) | {before:.1f} | {within:.1f} ({pct(within)}) "
              f"| {total - before - within:.1f} | {total:.1f} ({pct(total)}) |")


if __name__ == "__main__":
    main()
