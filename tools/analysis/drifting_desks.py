#!/usr/bin/env python3
"""Desks whose error drifts: a still phone without speeds, Gauss-Markov position error (sigma 5 m per axis, time
constant 30, 60 or 300 s) stating the honest 7.5 m (the 68 % radius), an hour each, logged every 1, 5 or 10 s, three
seeds; the walking profile, forward and smoothed. Prints metres per 10 minutes per binary. Seeded: the same files
every run. (First written as a scratch script in the fifty-ninth session for `StillScatter`, docs/ARCHITECTURE.md 5h.)

    python3 tools/analysis/drifting_desks.py OUT_DIR BIN1[,BIN2...]

Writes the CSVs into OUT_DIR (never into the repository).
"""
import os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generated import distances, write_fixes, GaussMarkov

OUT, BINS = sys.argv[1], sys.argv[2].split(',')
os.makedirs(OUT, exist_ok=True)
for tau in (30, 60, 300):
    for every in (1, 5, 10):
        res = [[] for _ in BINS]
        for seed in range(3):
            rng = random.Random(f'{tau}{every}{seed}')
            gm = GaussMarkov(rng, 5.0, tau)
            rows, t = [], 0.0
            while t <= 3600:
                rows.append((t, gm.x[0], gm.x[1], 7.5, None, None))
                gm.step(every)
                t += every
            path = os.path.join(OUT, f'd_{tau}_{every}_{seed}.csv')
            write_fixes(path, rows)
            for mode in ([], ['--smooth']):
                for i, metres in enumerate(distances(BINS, path, 'walking', mode)):
                    res[i].append((mode != [], metres))
        cells = []
        for i in range(len(BINS)):
            forward = sum(d for m, d in res[i] if not m) / 3 / 6
            smoothed = sum(d for m, d in res[i] if m) / 3 / 6
            cells.append(f'fwd {forward:6.1f} sm {smoothed:6.1f}')
        print(f'tau {tau:3d} every {every:2d}s  m/10min  ' + ' | '.join(cells))
