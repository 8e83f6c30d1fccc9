#!/usr/bin/env python3
"""Noisy walks against still phones, both without speeds under white position noise with honest accuracy (stated =
1.51 sigma, the 68 % radius): the two cases that a still-or-moving rule on the positions alone must tell apart, and
that three trials of a white-noise floor in the smoother's stillness gate on foot could not (docs/ARCHITECTURE.md,
"A white-noise floor on the vehicle profiles"). Seeded: the same files every run.

    python3 tools/analysis/noisy_walks_and_desks.py OUT_DIR BIN1[,BIN2...] [--smooth] [--seeds N] [--minutes M]
    # --minutes M: the families but the halts last M minutes instead of 30 (the halts are left out when M < 30)
    # per family: walks the summed distance against the summed truth (%), desks metres per 10 minutes

Families (30 minutes each but the halts, walking profile):
  desk s3/s5/s8 every 3/5/10/15 s       still phone, sigma 3, 5 or 8 m per axis
  walk 0.9 m/s s8 every 3/5 s           straight legs turning 30-120 degrees every 2-5 minutes
  walk 1.4 m/s s12 every 10 s
  walk 0.9 m/s s15 every 10 s
  mall 0.7 m/s s10 every 5/10 s         turns of 60-120 degrees every 10-30 s
  pace 1.2 m/s s3 every 10/20 s         a corridor paced back and forth, legs of 15-40 m
  halt 1.2 m/s s3/s8/s15 every 5/10/20 s   walk 10 minutes, halt 5-25 minutes, walk to the 45th minute;
                                        'halt-over' states twice its noise, 'halt-under' half of it

Writes the CSVs into OUT_DIR (never into the repository).
"""
import math, os, random, sys
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generated import distances, write_fixes

OUT, BINS = sys.argv[1], sys.argv[2].split(',')
SMOOTH = ['--smooth'] if '--smooth' in sys.argv else []
SEEDS = int(sys.argv[sys.argv.index('--seeds') + 1]) if '--seeds' in sys.argv else 3
DURATION = 2700  # 45 minutes: the halts' walks and halt; the other families use the first MINUTES minutes
MINUTES = float(sys.argv[sys.argv.index('--minutes') + 1]) if '--minutes' in sys.argv else 30
os.makedirs(OUT, exist_ok=True)


def truth_path(rng, kind, speed):
    """1 s truth (east, north) per second."""
    e = n = 0.0
    pts = []
    heading = rng.uniform(0, 360)
    if kind.startswith('halt'):
        halt = rng.uniform(300, 1500)
        for t in range(DURATION + 60):
            pts.append((e, n))
            if 600 <= t < 600 + halt:
                continue
            if t in (300, 900 + int(halt), 1200 + int(halt)):
                heading += rng.choice((-1, 1)) * rng.uniform(30, 120)
            e += speed * math.sin(math.radians(heading))
            n += speed * math.cos(math.radians(heading))
        return pts
    if kind == 'walk':
        until = rng.uniform(120, 300)
    elif kind == 'mall':
        until = rng.uniform(10, 30)
    else:  # pace: legs of 15-40 m back and forth
        leg, done = rng.uniform(15, 40), 0.0
    for t in range(DURATION + 60):
        pts.append((e, n))
        if kind == 'desk':
            continue
        if kind == 'pace':
            if done >= leg:
                heading += 180
                leg, done = rng.uniform(15, 40), 0.0
            done += speed
        elif t >= until:
            lo, hi = (30, 120) if kind == 'walk' else (60, 120)
            heading += rng.choice((-1, 1)) * rng.uniform(lo, hi)
            until = t + (rng.uniform(120, 300) if kind == 'walk' else rng.uniform(10, 30))
        e += speed * math.sin(math.radians(heading))
        n += speed * math.cos(math.radians(heading))
    return pts


FAMILIES = []
for sigma in (3, 5, 8):
    for every in (3, 5, 10, 15):
        FAMILIES.append(('desk', 0.0, sigma, every))
for kind in ('halt', 'halt-over', 'halt-under'):
    for sigma in (3, 8, 15):
        for every in (5, 10, 20):
            FAMILIES.append((kind, 1.2, sigma, every))
FAMILIES += [('walk', 0.9, 8, 3), ('walk', 0.9, 8, 5), ('walk', 1.4, 12, 10), ('walk', 0.9, 15, 10),
             ('mall', 0.7, 10, 5), ('mall', 0.7, 10, 10), ('pace', 1.2, 3, 10), ('pace', 1.2, 3, 20)]

jobs = []
for kind, speed, sigma, every in FAMILIES:
    if kind.startswith('halt') and MINUTES < 30:
        continue
    for seed in range(1, SEEDS + 1):
        rng = random.Random(f'{kind}{speed}{sigma}{every}{seed}')
        pts = truth_path(rng, kind, speed)
        rows, t = [], 0.0
        while t <= (DURATION if kind.startswith('halt') else MINUTES * 60):
            e, n = pts[int(t)]
            stated = {'halt-over': 2.0, 'halt-under': 0.5}.get(kind, 1.0) * 1.509592 * sigma
            rows.append((t, e + rng.gauss(0, sigma), n + rng.gauss(0, sigma), stated, None, None))
            t += every * rng.uniform(0.9, 1.1)
        first, last = int(rows[0][0]), int(rows[-1][0])
        truth = sum(math.dist(pts[i], pts[i + 1]) for i in range(first, last))
        name = f'{kind}_{speed:g}_s{sigma}_{every}s_{seed}'
        write_fixes(os.path.join(OUT, name + '.csv'), rows)
        jobs.append(((kind, speed, sigma, every), name, truth, rows[-1][0] - rows[0][0]))


def run(job):
    _, name, _, _ = job
    out = distances(BINS, os.path.join(OUT, name + '.csv'), 'walking', SMOOTH)
    return job, out


with ThreadPoolExecutor(2) as pool:
    results = list(pool.map(run, jobs))
groups = {}
for (fam, name, truth, span), ds in results:
    groups.setdefault(fam, []).append((truth, span, ds))
print(f'walking{" --smooth" if SMOOTH else ""}; desks: m per 10 min; walks: summed distance against summed truth; '
      'one column per binary')
for (kind, speed, sigma, every), v in groups.items():
    if kind == 'desk':
        cells = [f'{sum(x[2][i] / x[1] * 600 for x in v) / len(v):8.1f} m' for i in range(len(BINS))]
        label = f'desk                s{sigma:<2d} every {every:2d} s'
    else:
        t = sum(x[0] for x in v)
        cells = [f'{sum(x[2][i] for x in v):6.0f} of {t:5.0f} ({100 * (sum(x[2][i] for x in v) / t - 1):+6.1f} %)'
                 for i in range(len(BINS))]
        label = f'{kind:10s} {speed:3g} m/s s{sigma:<2d} every {every:2d} s'
    print(label + '  ' + '  '.join(cells))
