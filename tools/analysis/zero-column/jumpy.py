#!/usr/bin/env python3
"""Reviewers' cases of a speed column of zeros (docs/ARCHITECTURE.md, "A speed column of zeros under a moving track").

Self-contained copies of the generators two reviewers wrote (2026-12-02; scratch /work/review-s25/t and
/work/review-s26). Each case is run through `truetrack process --profile driving --json` of the given binaries
and printed against its truth:

  jumpy   1,200 s east at 12 m/s (14,400 m) between two parked minutes, fixes every 1/5/10/15 s with 3 m of
          white noise and a 5 m accuracy, 5 % of them 100-300 m off; the speed column all zeros, true, or absent
          (three seeds each).
  second  300 s of driving under zeros, a 120 s halt, then 600 s (7,200 m) with true readings at 1 Hz: the
          metres counted over the second drive and how many of its readings the tracker distrusted.

With --smooth (first argument), the jumpy drives are run through `process --smooth` instead and the second drive is
left out (docs/ARCHITECTURE.md, "Multipath jumps between sparse fixes").

Usage: tools/analysis/zero-column/jumpy.py [--smooth] BINARY [BINARY ...]
"""
import csv, datetime, json, math, os, random, subprocess, sys, tempfile

T0 = datetime.datetime(2025, 3, 10, 8, 0, 0, tzinfo=datetime.timezone.utc)
LAT0, LON0 = 52.52, 13.40


def write(path, rows, speed=True):
    with open(path, "w") as f:
        f.write("time,latitude,longitude,accuracy" + (",speed" if speed else "") + "\n")
        for t, e, n, acc, sp in rows:
            la = LAT0 + n / 111132.0
            lo = LON0 + e / (111320 * math.cos(math.radians(LAT0)))
            ts = (T0 + datetime.timedelta(seconds=t)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
            f.write(f"{ts},{la:.7f},{lo:.7f},{acc}" + (f",{sp:.2f}" if speed else "") + "\n")


def route(segments, interval, acc, noise, seed, mode):
    """segments: (seconds, speed m/s, turn degrees per second); mode: zero | true."""
    random.seed(seed)
    e = n = truth = 0.0
    h = 90.0
    trajectory = []
    for seconds, v, turn in segments:
        for _ in range(int(seconds)):
            trajectory.append((e, n, v))
            h += turn
            e += v * math.sin(math.radians(h))
            n += v * math.cos(math.radians(h))
            truth += v
    trajectory.append((e, n, 0))
    rows = []
    for k in range(0, len(trajectory), interval):
        x, y, v = trajectory[k]
        rows.append((k, x + random.gauss(0, noise), y + random.gauss(0, noise), acc, 0.0 if mode == "zero" else v))
    return rows, truth


def jumpy(interval, seed, mode):
    rows, truth = route([(120, 0, 0), (1200, 12, 0), (120, 0, 0)], interval, 5, 3.0, seed, mode)
    random.seed(seed)
    out = []
    for t, e, n, a, sp in rows:
        if 130 < t < 1300 and random.random() < 0.05:
            m, angle = random.uniform(100, 300), random.uniform(0, 2 * math.pi)
            e, n = e + m * math.cos(angle), n + m * math.sin(angle)
        out.append((t, e, n, a, sp))
    return out, truth


SMOOTH = False


def process(binary, path, decisions=None):
    args = [binary, "process", path, "--profile", "driving", "--json"] + (["--smooth"] if SMOOTH else [])
    if decisions:
        args += ["--decisions", decisions]
    return json.loads(subprocess.run(args, capture_output=True, text=True).stdout)["distanceMetres"]


def main():
    global SMOOTH
    binaries = sys.argv[1:]
    if binaries[:1] == ["--smooth"]:
        SMOOTH = True
        binaries = binaries[1:]
    if not binaries:
        sys.exit(__doc__)
    tmp = tempfile.mkdtemp()
    print(f"jumpy drive{' (--smooth)' if SMOOTH else ''}, truth 14,400 m (per binary: zeros / true / no column, three seeds)")
    for interval in (1, 5, 10, 15):
        for b in binaries:
            cells = []
            for seed in (1, 2, 3):
                zero, _ = jumpy(interval, seed, "zero")
                true, _ = jumpy(interval, seed, "true")
                write(f"{tmp}/z.csv", zero), write(f"{tmp}/t.csv", true), write(f"{tmp}/n.csv", zero, speed=False)
                cells.append("/".join(str(round(process(b, f"{tmp}/{k}.csv"))) for k in "ztn"))
            print(f"  {interval:2d} s  {os.path.basename(b):20s} " + "  ".join(cells))
    if SMOOTH:
        return
    print("second drive with true readings after 300 s under zeros, truth 7,200 m")
    rows, _ = route([(120, 0, 0), (300, 12, 0), (120, 0, 0), (600, 12, 0), (120, 0, 0)], 1, 5, 3.0, 1, "true")
    second = 120 + 300 + 120
    write(f"{tmp}/h.csv", [(t, e, n, a, 0.0 if t < second else sp) for t, e, n, a, sp in rows])
    for b in binaries:
        process(b, f"{tmp}/h.csv", f"{tmp}/h.dec.csv")
        decisions = list(csv.DictReader(open(f"{tmp}/h.dec.csv")))
        counted = float(decisions[-1]["total_m"]) - float(decisions[second]["total_m"])
        judged = decisions[second + 30 : len(decisions) - 130]
        distrusted = sum(1 for d in judged if d["speed_source"] != "doppler")
        print(f"  {os.path.basename(b):20s} {counted:7.0f} m, {distrusted} of {len(judged)} readings distrusted")


if __name__ == "__main__":
    main()
