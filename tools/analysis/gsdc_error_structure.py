#!/usr/bin/env python3
"""What any filter can do with the GSDC 2020 Pixel 4 / 4 XL fixes: the structure of their error.

For each phone of ../shared/datasets/gsdc2020-mtv1 (or $TRUETRACK_DATASETS) against its 10 Hz SPAN truth:
  - raw p50 / p95 of the fixes as read (`truetrack bench --export-csv`, accuracy from the sibling KML);
  - the step structure of the error (share of 1 s changes above 0.5 m, correlation of consecutive changes,
    lag-1 autocorrelation);
  - oracles that average or take the median of the *error itself* (truth subtracted: no lag, no motion) over a
    centred window: what any linear smoother / any median could reach at best;
  - a centred median of Doppler-compensated positions (an implementable estimator);
  - which instant the phone's velocity (speed, bearing) describes: rms against the truth velocity shifted by
    -1 ... +0.5 s.

Usage: tools/analysis/gsdc_error_structure.py [path/to/truetrack]   (default .build/release/truetrack)
Needs numpy.
"""
import csv, math, os, subprocess, sys, tempfile

import numpy as np

PHONES = [
    ("gsdc2020-mtv1-pixel4", "gsdc2020-mtv1/SPAN_Pixel4_10Hz.nmea"),
    ("gsdc2020-mtv1-pixel4xlmodded", "gsdc2020-mtv1/SPAN_Pixel4XLModded_10Hz.nmea"),
]


def seconds_of_day(hhmmss):
    return int(hhmmss[:2]) * 3600 + int(hhmmss[2:4]) * 60 + float(hhmmss[4:])


def truth(path):
    rows = []
    for line in open(path):
        if line.startswith(("$GPGGA", "$GNGGA")):
            f = line.split(",")
            if not f[2]:
                continue
            lat = float(f[2][:2]) + float(f[2][2:]) / 60
            lon = float(f[4][:3]) + float(f[4][3:]) / 60
            rows.append((seconds_of_day(f[1]), lat if f[3] == "N" else -lat, lon if f[5] == "E" else -lon))
    return np.array(rows)


def fixes(path):
    rows = []
    for r in csv.DictReader(open(path)):
        t = r["timestamp"]
        rows.append((int(t[11:13]) * 3600 + int(t[14:16]) * 60 + int(t[17:19]), float(r["latitude"]),
                     float(r["longitude"]), float(r["speed_mps"] or "nan"), float(r["course_deg"] or "nan")))
    return np.array(rows)


def pct(errors):
    return "%.3f / %.3f" % (np.percentile(errors, 50), np.percentile(errors, 95))


def analyse(name, T, F):
    # Local plane, metres (errors are small vectors), on the sphere `truetrack bench` measures position errors on
    # (R = 6,371,008.8 m): 110,574 m per degree north (the equator's meridian degree) read the north errors 0.4 %
    # short at 37.4° N, the raw p95 1.727 m where bench says 1.733 (found by the accuracy notebook, 2026-12-04).
    ky = 6_371_008.8 * math.pi / 180
    kx = ky * math.cos(math.radians(T[0, 1]))
    te, tn = (T[:, 2] - T[0, 2]) * kx, (T[:, 1] - T[0, 1]) * ky
    t = F[:, 0]
    e, n = (F[:, 2] - T[0, 2]) * kx, (F[:, 1] - T[0, 1]) * ky
    de, dn = e - np.interp(t, T[:, 0], te), n - np.interp(t, T[:, 0], tn)
    print(f"\n{name}: {len(t)} fixes")
    print("  raw p50 / p95:", pct(np.hypot(de, dn)))
    steps = np.hypot(np.diff(de), np.diff(dn))
    sx, sy = np.diff(de), np.diff(dn)
    step_corr = (np.mean(sx[1:] * sx[:-1]) + np.mean(sy[1:] * sy[:-1])) / (np.mean(sx * sx) + np.mean(sy * sy))
    lag1 = (np.mean(de[1:] * de[:-1]) + np.mean(dn[1:] * dn[:-1])) / (np.mean(de * de) + np.mean(dn * dn))
    print("  1 s error changes > 0.5 m: %.0f %%; consecutive changes correlate %+.2f; lag-1 autocorrelation %.3f"
          % (100 * np.mean(steps > 0.5), step_corr, lag1))
    from numpy.lib.stride_tricks import sliding_window_view as windows
    for k in (1, 2, 3, 5):
        w = 2 * k + 1
        mean = np.hypot(windows(de, w).mean(axis=1), windows(dn, w).mean(axis=1))
        median = np.hypot(np.median(windows(de, w), axis=1), np.median(windows(dn, w), axis=1))
        print(f"  oracle over {w} fixes: mean of the error {pct(mean)}, median of the error {pct(median)}")
    ve, vn = F[:, 3] * np.sin(np.radians(F[:, 4])), F[:, 3] * np.cos(np.radians(F[:, 4]))
    ce = np.concatenate([[0], np.cumsum(ve[1:] * np.diff(t))])
    cn = np.concatenate([[0], np.cumsum(vn[1:] * np.diff(t))])
    for k in (1, 2, 3):
        E, N = e.copy(), n.copy()
        for i in range(k, len(e) - k):
            idx = np.arange(i - k, i + k + 1)
            E[i] = np.median(e[idx] - ce[idx] + ce[i])
            N[i] = np.median(n[idx] - cn[idx] + cn[i])
        err = np.hypot(E - np.interp(t, T[:, 0], te), N - np.interp(t, T[:, 0], tn))
        print(f"  centred median of Doppler-compensated positions over {2 * k + 1} fixes: {pct(err)}")
    moving = F[:, 3] > 1
    out = []
    for lag in (-1.0, -0.5, -0.3, 0.0, 0.3, 0.5):
        s = t + lag
        tve = (np.interp(s + 0.05, T[:, 0], te) - np.interp(s - 0.05, T[:, 0], te)) / 0.1
        tvn = (np.interp(s + 0.05, T[:, 0], tn) - np.interp(s - 0.05, T[:, 0], tn)) / 0.1
        rms = np.sqrt(np.mean((np.hypot(tve - ve, tvn - vn)[moving]) ** 2))
        out.append("%+.1f s: %.3f" % (lag, rms))
    print("  velocity vs truth velocity at fix time + lag, rms m/s:", ", ".join(out))


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else ".build/release/truetrack"
    root = os.environ.get("TRUETRACK_DATASETS", os.path.join(os.path.dirname(__file__), "../../../shared/datasets"))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([binary, "bench", "--datasets", root, "--only", ",".join(p for p, _ in PHONES),
                        "--export-csv", tmp], check=True, stdout=subprocess.DEVNULL)
        for name, truth_path in PHONES:
            analyse(name, truth(os.path.join(root, truth_path)), fixes(os.path.join(tmp, name + ".csv")))


if __name__ == "__main__":
    main()
