#!/usr/bin/env python3
"""Sparse loggers whose position error is white noise (fresh at every fix, honestly claimed: accuracy = 1.51 sigma),
without speed: desks (still for an hour) and walks at 1.4 m/s with turns every 2-5 minutes, at a fix every 3-45 s
(+-10 % jitter), sigma 1 / 3 / 5 m per axis, three seeds each; the sparse white-noise floor of the net-displacement
gate (docs/ARCHITECTURE.md 5f: WhiteNoiseEstimate.sparseVarianceRatio). Seeded: the same files
every run.

    python3 tools/analysis/sparse_desks.py OUT_DIR BIN1[,BIN2...] [--profile walking] [--smooth]
    # desks: metres per 10 minutes (mean of the seeds) per binary; walks: error against the walked distance, % per binary

Writes the CSVs into OUT_DIR (never into the repository).
"""
import math, os, random, sys
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generated import distances, write_fixes

OUT, BINS = sys.argv[1], sys.argv[2].split(',')
PROFILE = sys.argv[sys.argv.index('--profile') + 1] if '--profile' in sys.argv else 'walking'
SMOOTH = ['--smooth'] if '--smooth' in sys.argv else []  # the whole-track smoother instead of the forward filter
CADENCES = (3, 5, 8, 12, 15, 20, 30, 45)
SIGMAS = (1.0, 3.0, 5.0)
DURATION = 3600
os.makedirs(OUT, exist_ok=True)


def times(rng, every):
    t, out = 0.0, []
    while t <= DURATION:
        out.append(t)
        t += every * rng.uniform(0.9, 1.1)
    return out


def walk_position(rng):
    """1 s truth of a 1.4 m/s walk turning by 30-120 degrees every 2-5 minutes: (east, north) per second, and
    its length."""
    e = n = 0.0
    heading, until, pts = rng.uniform(0, 360), rng.uniform(120, 300), []
    for t in range(DURATION + 60):
        pts.append((e, n))
        if t >= until:
            heading += rng.choice((-1, 1)) * rng.uniform(30, 120)
            until = t + rng.uniform(120, 300)
        e += 1.4 * math.sin(math.radians(heading))
        n += 1.4 * math.cos(math.radians(heading))
    return pts


jobs = []
for kind in ('desk', 'walk'):
    for sigma in SIGMAS:
        for every in CADENCES:
            for seed in (1, 2, 3):
                rng = random.Random(f'{kind}{sigma}{every}{seed}')
                pts = walk_position(rng) if kind == 'walk' else None
                rows, truth = [], 0.0
                for t in times(rng, every):
                    e, n = pts[int(t)] if pts else (0.0, 0.0)
                    rows.append((t, e + rng.gauss(0, sigma), n + rng.gauss(0, sigma), 1.509592 * sigma, None, None))
                if pts:
                    last = int(rows[-1][0])
                    truth = 1.4 * (last - int(rows[0][0]))
                name = f'{kind}_sigma{sigma:g}_{every}s_s{seed}'
                write_fixes(os.path.join(OUT, name + '.csv'), rows)
                jobs.append((kind, sigma, every, name, truth, rows[-1][0] - rows[0][0]))


def run(job):
    kind, sigma, every, name, truth, span = job
    out = distances(BINS, os.path.join(OUT, name + '.csv'), PROFILE, SMOOTH)
    return job, out


with ThreadPoolExecutor(2) as pool:
    results = list(pool.map(run, jobs))
groups = {}
for (kind, sigma, every, name, truth, span), ds in results:
    groups.setdefault((kind, sigma, every), []).append((truth, span, ds))
print(f'{PROFILE}{" --smooth" if SMOOTH else ""}; desks: m per 10 min; walks: error % against the walked distance; one column per binary')
for (kind, sigma, every), v in groups.items():
    if kind == 'desk':
        cells = [f'{sum(x[2][i] / x[1] * 600 for x in v) / len(v):8.1f} m' for i in range(len(BINS))]
    else:
        t = sum(x[0] for x in v)
        cells = [f'{100 * (sum(x[2][i] for x in v) / t - 1):+7.1f} %' for i in range(len(BINS))]
    print(f'{kind:4s} sigma {sigma:3g} m every {every:2d} s  ' + '  '.join(cells))
