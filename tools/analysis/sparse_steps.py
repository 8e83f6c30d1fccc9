#!/usr/bin/env python3
"""Sparse steps with speed readings (docs/ARCHITECTURE.md, "Sparse steps with readings"): thins three real drives
to one fix every 15/20/30/60/120 s (in a temporary folder: the data's licence keeps copies out of the repository)
and prints, against the 1 Hz Doppler integral over the same span, the chords, the trapezoid of the readings and
TrueTrack's distance (--profile driving), and the share of unit-evidence steps (both readings >= 5 m/s, chord > 15 m,
10 s < dt <= 600 s) whose integral is within 1.3 chords, with the readings as given and scaled as knots, mph, km/h.

usage: tools/analysis/sparse_steps.py [TRUETRACK_BINARY] [DATASETS]  (defaults .build/release/truetrack, ../shared/datasets)
"""
import csv, datetime, json, math, os, subprocess, sys, tempfile

binary = sys.argv[1] if len(sys.argv) > 1 else ".build/release/truetrack"
datasets = sys.argv[2] if len(sys.argv) > 2 else "../shared/datasets"
drives = {
    "f9k": "ublox-f9k-span-mtv/MTV.Local1.ublox-F9K.20200206-181434.nmea",
    "gsdc-pixel4": "gsdc2020-mtv1/Pixel4_chipset.nmea",
    "pixel6a": "sensorlogger-pixel6a/20230809_163741/gps.csv",
}
seconds = lambda s: datetime.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()


def steps(rows):
    for a, b in zip(rows, rows[1:]):
        dt = seconds(b["timestamp"]) - seconds(a["timestamp"])
        lat = float(b["latitude"])
        de = (float(b["longitude"]) - float(a["longitude"])) * math.cos(math.radians(lat)) * 111320
        dn = (lat - float(a["latitude"])) * 111320
        yield dt, math.hypot(de, dn), float(a["speed_mps"] or 0), float(b["speed_mps"] or 0)


with tempfile.TemporaryDirectory() as folder:
    for name, path in drives.items():
        full = os.path.join(folder, name + ".csv")
        subprocess.run([binary, "convert", os.path.join(datasets, path), full], check=True, capture_output=True)
        rows = list(csv.DictReader(open(full)))
        for interval in [15, 20, 30, 60, 120]:
            kept, last = [], None
            for r in rows:
                t = seconds(r["timestamp"])
                if last is None or t - last >= interval - 0.01:
                    kept.append(r)
                    last = t
            t0, t1 = seconds(kept[0]["timestamp"]), seconds(kept[-1]["timestamp"])
            span = [r for r in rows if t0 <= seconds(r["timestamp"]) <= t1]
            reference = sum((v1 + v2) / 2 * dt for dt, _, v1, v2 in steps(span))
            thinned = os.path.join(folder, f"{name}-{interval}.csv")
            with open(thinned, "w") as out:
                writer = csv.DictWriter(out, fieldnames=rows[0].keys())
                writer.writeheader()
                writer.writerows(kept)
            result = subprocess.run(
                [binary, "process", thinned, "--profile", "driving", "--json"], capture_output=True, text=True)
            truetrack = json.loads(result.stdout)["distanceMetres"]
            chords = sum(c for _, c, _, _ in steps(kept))
            trapezoid = sum((v1 + v2) / 2 * dt for dt, _, v1, v2 in steps(kept))
            shares = []
            for scale in [1, 1.943844, 2.236936, 3.6]:
                evidence = [
                    (scale * (v1 + v2) / 2 * dt, c) for dt, c, v1, v2 in steps(kept)
                    if min(v1, v2) * scale >= 5 and 10 < dt <= 600 and c > 15]
                shares.append(f"{sum(1 for i, c in evidence if i <= 1.3 * c)}/{len(evidence)}")
            pct = lambda x: f"{(x / reference - 1) * 100:+.1f} %"
            print(f"{name} {interval:>3} s  chords {pct(chords)}  trapezoid {pct(trapezoid)}  TrueTrack {pct(truetrack)}"
                  f"  within 1.3 chords (m/s, knots, mph, km/h): {' '.join(shares)}")
