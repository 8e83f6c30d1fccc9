#!/usr/bin/env python3
"""Recordings with Doppler speed and course thinned to a fix every N s, through `process --smooth` of each binary
given (docs/ARCHITECTURE.md, "The curve between velocity readings"): the smoothed distance as a share of the first
binary's full-rate smoothed count of the same recording, with the readings kept and (--strip) stripped.

    python3 tools/analysis/curve_thinned.py BIN[,BIN2...] [INTERVALS, default 1,5,10,15,19] [--strip]

Reads ../shared/datasets (or $TRUETRACK_DATASETS); converts the recordings to CSV in a temporary folder (never in
the repository): the u-blox F9K and GSDC Pixel 4 drives, the Pixel 6a drive (driving) and the Pixel 6 GnssLogger
walk (walking). Thinning keeps the first fix and then each fix at least N s after the last one kept.
"""
import json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from recordings import convert, ts, write_rows

BINS = sys.argv[1].split(',')
args = [a for a in sys.argv[2:] if not a.startswith('--')]
IVS = [float(x) for x in (args[0] if args else '1,5,10,15,19').split(',')]
STRIP = '--strip' in sys.argv
NAMES = ['f9k', 'gsdc4', 'pixel6a', 'p6']


def smoothed(binary, path, profile):
    r = subprocess.run([binary, 'process', path, '--profile', profile, '--json', '--smooth'], capture_output=True,
                       text=True)
    if r.returncode != 0:
        return float('nan'), float('nan')
    j = json.loads(r.stdout)
    return j['distanceMetres'], j['distanceSigmaMetres']


with tempfile.TemporaryDirectory() as tmp:
    print('recording every  full-rate m  ' + '  '.join(f'binary {i + 1} (% ± 1σ %)'.rjust(22) for i in range(len(BINS))))
    for name in NAMES:
        path, profile, rows, header = convert(BINS[0], name, tmp)
        full = smoothed(BINS[0], path, profile)[0]
        for every in IVS:
            kept, last = [], None
            for r in rows:
                t = ts(r['timestamp'])
                if last is None or t - last >= every - 1e-6:
                    kept.append(r)
                    last = t
            thinned = os.path.join(tmp, f'{name}-{every:g}.csv')
            write_rows(thinned, header, kept, strip=STRIP)
            cells = []
            for b in BINS:
                d, s = smoothed(b, thinned, profile)
                cells.append(f'{100 * (d / full - 1):+7.2f} ± {100 * s / full:5.2f}'.rjust(22))
            print(f'{name:9} {every:5g}  {full:11.1f}  ' + '  '.join(cells), flush=True)
