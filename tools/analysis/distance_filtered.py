#!/usr/bin/env python3
"""Recordings as a distance-filtered logger would have kept them (iOS `distanceFilter`, Android
`requestLocationUpdates(minTime, minDistance)`, GPSLogger's distance filter): a fix is kept when it lies at least D
metres from the last kept fix and at least T seconds after it. Each thinned track is processed with and without its
speed and course columns, and compared with the full-rate forward count of the same binary (moving recordings, in
%) or printed in metres per 10 minutes (still recordings).

    python3 tools/analysis/distance_filtered.py BIN[,BIN2...] [D1,D2,... default 5,10,20] [T default 1] [--smooth]
    # --smooth: the whole-track smoother's distances (thinned and full-rate) instead of the forward filter's

Reads ../shared/datasets (or $TRUETRACK_DATASETS); converts to CSV in a temporary folder (never in the
repository).
"""
import os, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from recordings import convert, distance, ts, write_rows
from trackgeo import haversine

SMOOTH = ['--smooth'] if '--smooth' in sys.argv else []
ARGS = [a for a in sys.argv[1:] if a != '--smooth']
BINS = ARGS[0].split(',')
DISTANCES = [float(x) for x in (ARGS[1] if len(ARGS) > 1 else '5,10,20').split(',')]
MIN_SECONDS = float(ARGS[2]) if len(ARGS) > 2 else 1.0
MOVING = ['ipin-t01r02', 'ipin-t01r03', 'ipin-t02r01', 'ipin-t02r04', 'p6', 'korita', 'mojstrovka', 'edge', 'oregon',
          'wahoo', 'f9k', 'gsdc4', 'pixel6a']
STILL = ['f9p', 'ublox8', 'telit', 'phone', 'gmt', 'reach-open', 'reach-occl']


def metres(a, b):
    """The distance between two CSV rows' positions, metres."""
    return haversine((float(a['latitude']), float(a['longitude'])), (float(b['latitude']), float(b['longitude'])))


with tempfile.TemporaryDirectory() as tmp:
    print(f'distance filter, minimum {MIN_SECONDS:g} s between kept fixes; moving: % of the full-rate count '
          '(with speeds / without), still: m per 10 min')
    print('recording   profile    D m  kept/all  full-rate  ' + '  '.join(f'bin{i + 1} speeds  bin{i + 1} bare'
                                                                        for i in range(len(BINS))))
    for still, group in ((False, MOVING), (True, STILL)):
        for name in group:
            full_csv, profile, rows, header = convert(BINS[-1], name, tmp)
            minutes = (ts(rows[-1]['timestamp']) - ts(rows[0]['timestamp'])) / 60
            reference = distance(BINS[-1], full_csv, profile, SMOOTH)
            if not still and not reference > 0:
                print(f'{name:11s} {profile:8s} full-rate count {reference}: skipped')
                continue
            for d in DISTANCES:
                kept = [rows[0]]
                for r in rows[1:]:
                    if ts(r['timestamp']) - ts(kept[-1]['timestamp']) >= MIN_SECONDS and metres(kept[-1], r) >= d:
                        kept.append(r)
                cells = []
                for b in BINS:
                    for strip in (False, True):
                        part = os.path.join(tmp, 'part.csv')
                        write_rows(part, header, kept, strip)
                        got = distance(b, part, profile, SMOOTH)
                        cells.append(f'{got / minutes * 10:9.1f} m' if still else f'{100 * (got / reference - 1):+9.1f} %')
                ref = f'{reference / minutes * 10:7.1f}/10' if still else f'{reference:9.0f}'
                print(f'{name:11s} {profile:8s} {d:4.0f} {len(kept):5d}/{len(rows):<5d} {ref}  ' + '  '.join(cells),
                      flush=True)
