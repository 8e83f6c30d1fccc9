#!/usr/bin/env python3
"""Recordings thinned to a fix every N s (12-45 s, seeded, +-1 s jitter) with their speed and course stripped,
against the full-rate forward count of the same span (docs/ARCHITECTURE.md 5e, sparse steps without readings):
the forward tracker of each binary given, and `--smooth` of the last one. Each cell is the mean of the three seeds'
errors, each against the full-rate count over its own span (the "full-rate m" column prints the last seed's).

    python3 tools/analysis/sparse_rhythm_thinned.py BIN[,BIN2...] [INTERVALS, default 12,15,20,30,45]

Reads ../shared/datasets (or $TRUETRACK_DATASETS); converts the recordings to CSV in a temporary folder (never in
the repository): the Pixel 6 GnssLogger walk (gps provider, walking), the Edge 800, Oregon 700 and Wahoo rides
(cycling), the u-blox F9K and GSDC Pixel 4 drives (driving), the korita hike (walking, no accuracies).
"""
import os, random, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from recordings import convert, distance, ts, write_rows

BINS = sys.argv[1].split(',')
IVS = [int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else '12,15,20,30,45').split(',')]
NAMES = ['p6', 'edge', 'oregon', 'wahoo', 'f9k', 'gsdc4', 'korita']


with tempfile.TemporaryDirectory() as tmp:
    print('recording profile   every  full-rate m  ' + '  '.join(f'forward {i + 1}' for i in range(len(BINS)))
          + '  smoothed (last)')
    for name in NAMES:
        full_csv, profile, rows, header = convert(BINS[-1], name, tmp)
        for iv in IVS:
            errors = [[] for _ in range(len(BINS) + 1)]
            reference = 0
            for seed in range(1, 4):
                rng = random.Random(seed * 100 + iv)
                due, kept = ts(rows[0]['timestamp']), []
                for r in rows:
                    if ts(r['timestamp']) >= due:
                        kept.append(r)
                        due = ts(r['timestamp']) + iv + rng.uniform(-1, 1)
                end = ts(kept[-1]['timestamp'])
                span, part = os.path.join(tmp, 'span.csv'), os.path.join(tmp, 'part.csv')
                write_rows(span, header, [r for r in rows if ts(r['timestamp']) <= end])
                write_rows(part, header, kept, strip=True)
                reference = distance(BINS[-1], span, profile)
                for i, b in enumerate(BINS):
                    errors[i].append(100 * (distance(b, part, profile) / reference - 1))
                errors[-1].append(100 * (distance(BINS[-1], part, profile, ['--smooth']) / reference - 1))
            cells = '  '.join(f'{sum(e) / len(e):+8.1f} %' for e in errors)
            print(f'{name:9s} {profile:8s} {iv:4d} s  {reference:10.0f}  {cells}', flush=True)
