#!/usr/bin/env python3
"""Recordings with Doppler speed and course thinned to a fix every N s, through `process --smooth` of each binary
given (docs/ARCHITECTURE.md, "The curve between velocity readings" and σ term 7): each cell is the smoothed distance's
error against the recording's reference and its z (error / σ). The reference is the truth over the whole drive
where the data set has one (the u-blox F9K and GSDC Pixel 4 drives: `truetrack bench`'s figures; a thinned track's
last fix lies at most one step before the end, where these drives are parked), else the first binary's full-rate
smoothed count.

    python3 tools/analysis/curve_thinned.py BIN[,BIN2...] [INTERVALS, default 1,5,10,15,19] [--strip]

A fractional interval (20.002) thins to its rounded value and stretches the times by the ratio (steps just over
the profile's reset gap). --strip empties the speed and course columns. Reads ../shared/datasets (or
$TRUETRACK_DATASETS); converts the recordings to CSV in a temporary folder (never in the repository): the F9K,
GSDC Pixel 4 and Pixel 6a drives (driving) and the Pixel 6 GnssLogger walk (walking).
"""
import datetime, json, os, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from recordings import convert, ts, write_rows

BINS = sys.argv[1].split(',')
args = [a for a in sys.argv[2:] if not a.startswith('--')]
IVS = [float(x) for x in (args[0] if args else '1,5,10,15,19').split(',')]
STRIP = '--strip' in sys.argv
NAMES = ['f9k', 'gsdc4', 'pixel6a', 'p6']
TRUTH = {'f9k': 8732.0, 'gsdc4': 40137.0}


def smoothed(binary, path, profile):
    r = subprocess.run([binary, 'process', path, '--profile', profile, '--json', '--smooth'], capture_output=True,
                       text=True)
    if r.returncode != 0:
        first = (r.stderr.strip().splitlines() or [''])[0]
        print(f'{binary} process {path} --smooth failed (exit {r.returncode}): {first}', file=sys.stderr)
        return float('nan'), float('nan')
    j = json.loads(r.stdout)
    return j['distanceMetres'], j['distanceSigmaMetres']


def iso(seconds):
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).isoformat(timespec='milliseconds')[:-6] + 'Z'


with tempfile.TemporaryDirectory() as tmp:
    print('recording every  reference m   ' + '  '.join(f'binary {i + 1}: error % (z)'.rjust(24) for i in range(len(BINS))))
    for name in NAMES:
        path, profile, rows, header = convert(BINS[0], name, tmp)
        reference = TRUTH.get(name) or smoothed(BINS[0], path, profile)[0]
        t0 = ts(rows[0]['timestamp'])
        for every in IVS:
            step = max(1, round(every))
            stretch = every / step
            kept, last = [], None
            for r in rows:
                t = ts(r['timestamp'])
                if last is None or t - last >= step - 1e-6:
                    last = t
                    row = dict(r)
                    if stretch != 1:
                        row['timestamp'] = iso(t0 + (t - t0) * stretch)
                    kept.append(row)
            thinned = os.path.join(tmp, f'{name}-{every:g}.csv')
            write_rows(thinned, header, kept, strip=STRIP)
            cells = []
            for b in BINS:
                d, s = smoothed(b, thinned, profile)
                cells.append(f'{100 * (d / reference - 1):+7.2f} ± {100 * s / reference:5.2f} ({(d - reference) / s:+6.2f})'.rjust(24))
            kind = 'truth' if name in TRUTH else 'full-rate'
            print(f'{name:9} {every:6g}  {reference:9.1f} {kind:9} ' + '  '.join(cells), flush=True)
