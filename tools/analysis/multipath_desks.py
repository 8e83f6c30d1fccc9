#!/usr/bin/env python3
"""Phones at rest beside buildings, without speed readings: multipath whose reflections swing the position back and
forth with the periods their geometry gives. What a return test (a course walked round: the squared displacement
between fixes a lag apart falls back) must not take for a course; the families of a reviewer's and a tester's desks
of 2026-12-07 (docs/ARCHITECTURE.md, "A course walked round"), seeded: the same files every run.

    python3 tools/analysis/multipath_desks.py OUT_DIR BIN1[,BIN2...] [--smooth]
    # per file its metres for each binary (forward unless --smooth); then per family the metres per hour summed
    # over its desks, and how many desks each binary after the first counts more (+1 m) or less than the first

Families (truth 0 m):
  reflect  half an hour; 2-4 reflections off walls 5-40 m away, each swinging along its satellite's azimuth with
           the period lambda / (2 h cos(el) el-rate) (about 20 s to 15 minutes), nominal 6, 8 or 10 m (x0.5-1.5),
           on a Gauss-Markov drift of 2 m (tau 120 s) and 1.5 m of white noise; accuracy stated honestly; every 1 s,
           5 s and 0.2 s; three seeds
  sill     an hour by a window or on a dashboard in a street: 3-7 reflections of 3 to 8, 12 or 15 m with periods
           drawn from 40 s to 150 or 300 s that slide as the satellites move (sin(phase + 2 pi t / (P (1 + s t / T))),
           s within +-0.4: by the hour's end the period is 0.36-1.96 times P), on a drift of 2-6 m (tau 30-600 s) and
           1 m of white noise; accuracy stated 1-3 times the scatter, at most 30 m; every 1-10 s

Writes the CSVs into OUT_DIR (never into the repository).
"""
import math, os, random, sys
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generated import distances, reflection_desk, write_fixes

OUT, BINS = sys.argv[1], sys.argv[2].split(',')
EXTRA = ['--smooth'] if '--smooth' in sys.argv else []


def geometric(rng, count, amplitude):
    """Reflections off walls 5-40 m away: period lambda / (2 h cos(el) el-rate), amplitude x0.5-1.5."""
    out = []
    for _ in range(count):
        h, el, rate = rng.uniform(5, 40), 0.2 + rng.uniform(0, 1), 0.3e-4 + 1.15e-4 * rng.uniform(0, 1)
        az = rng.uniform(0, 2 * math.pi)
        out.append((0.19 / (2 * h * math.cos(el) * rate), amplitude * rng.uniform(0.5, 1.5),
                    rng.uniform(0, 2 * math.pi), math.sin(az), math.cos(az), 0.0))
    return out


def cases():
    out = []
    for amplitude in (6, 8, 10):
        for count in (2, 3, 4):
            for cadence in (1.0, 5.0, 0.2):
                for seed in (1, 2, 3):
                    tag = f'reflect_n{count}a{amplitude}_c{cadence:g}_s{seed}'
                    rng = random.Random(tag)
                    out.append(('reflect', tag, reflection_desk(rng, 1800, cadence, geometric(rng, count, amplitude), 2.0,
                                                                120, 1.5)))
    for i in range(24):
        tag = f'sill_{i:02d}'
        rng = random.Random(tag)
        top, longest = rng.choice((8, 12, 15)), rng.choice((150, 300))
        reflections = []
        for _ in range(rng.randint(3, 7)):
            az = rng.uniform(0, 2 * math.pi)
            reflections.append((rng.uniform(40, longest), rng.uniform(3, top), rng.uniform(0, 2 * math.pi),
                                math.sin(az), math.cos(az), rng.uniform(-0.4, 0.4)))
        out.append(('sill', tag, reflection_desk(rng, 3600, rng.choice((1.0, 1.0, 2.0, 5.0, 10.0)), reflections,
                                                 rng.choice((2.0, 4.0, 6.0)), rng.choice((30, 120, 600)), 1.0,
                                                 rng.choice((1.0, 1.5, 2.0, 3.0)), cap=30.0)))
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    jobs = []
    for family, tag, rows in cases():
        p = os.path.join(OUT, tag + '.csv')
        write_fixes(p, rows)
        jobs.append((family, tag, rows[-1][0] / 3600, p))
    with ThreadPoolExecutor(2) as ex:
        results = list(ex.map(lambda j: (j, distances(BINS, j[3], 'walking', EXTRA)), jobs))
    print(('smoothed' if EXTRA else 'forward') + '; walking; per file metres for each binary')
    sums = {}
    for (family, tag, hours, _), d in results:
        print(f'{tag:32s} ' + ' '.join(f'{x:9.1f}' for x in d))
        s = sums.setdefault(family, [0.0, [0.0] * len(d), [0] * len(d), [0] * len(d)])
        s[0] += hours
        for i, x in enumerate(d):
            s[1][i] += x
            s[2][i] += x > d[0] + 1
            s[3][i] += x < d[0] - 1
    for family, (hours, metres, more, less) in sums.items():
        row = ' '.join(f'{m / hours:8.1f}' + (f' (+{a}/-{b})' if i else '') for i, (m, a, b) in
                       enumerate(zip(metres, more, less)))
        print(f'{family:8s} {hours:5.1f} h, m per hour: {row}')


main()
