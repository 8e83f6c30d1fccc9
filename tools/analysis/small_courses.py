#!/usr/bin/env python3
"""Walks round small courses against desks, both without speeds, on the walking profile: what the smoother's return
test (`StillnessGate.stillScatterReturnDip`, `LagScatter`) must tell apart. A course of a few tens of metres under
correlated or overstated noise spreads no further than a desk, so the still-stretch rule (ten minutes whose fixes
scatter within their stated accuracies) held such walks as desks; a course comes back, a desk's error does not (but
multipath does, by a few metres: see `multipath` below). Seeded: the same files every run.

    python3 tools/analysis/small_courses.py OUT_DIR BIN1[,BIN2...] [--forward]
    # per file: truth and each binary's distance (m, --smooth unless --forward); then per family the summed |error|

Families (two seeds each):
  courses  a 15 or 25 m corridor paced, loops of 12 and 20 m radius, yards of 40 x 20 and 60 x 30 m, at 1.0-1.1 m/s,
           for 12 and 20 minutes, under white (3-5 m), Gauss-Markov (5-10 m, tau 30-300 s) and mixed errors, stated
           honestly, 1.5 or 2 times, every 1 or 5 s
  desks    twenty minutes at rest under the same kinds of error (tau 20-300 s), every 1, 3, 5 and 15 s
  multipath  thirty minutes at rest every 1 or 5 s beside reflectors 10-40 m away (four satellites, 3 or 5 m each),
           each oscillating with the period its geometry gives, on a 2 m drift and 1.5 m of white noise, honest
           accuracy (the return test's floor was set first at 400 m2 on reflections of 4-6 m, then at 600 m2 on
           reflections of up to 15 m: see docs/ARCHITECTURE.md)

Writes the CSVs into OUT_DIR (never into the repository).
"""
import math, os, random, sys
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generated import GaussMarkov, distances, reflection_desk, write_fixes

K = 1.509592  # a 68 % radius over the per-axis sigma
OUT, BINS = sys.argv[1], sys.argv[2].split(',')
EXTRA = [] if '--forward' in sys.argv else ['--smooth']


def path(seconds, heading_speed):
    """Per-second positions along heading_speed(k) -> (m/s, degrees), and the distance walked."""
    e = n = walked = 0.0
    points = [(e, n)]
    for k in range(int(seconds)):
        v, h = heading_speed(k)
        e += v * math.sin(math.radians(h))
        n += v * math.cos(math.radians(h))
        walked += v
        points.append((e, n))
    return points, walked


def sample(points, rng, cadence, white, gm, tau, stated):
    """Fixes every `cadence` s with white noise `white` m per axis plus a Gauss-Markov error `gm` m (tau s), stating
    `stated` times the honest 68 % radius."""
    g = GaussMarkov(rng, 1.0, tau) if gm else None
    rows, t, last = [], 0.0, 0.0
    while t <= len(points) - 1:
        e, n = points[int(round(t))]
        ex, ny = rng.gauss(0, white), rng.gauss(0, white)
        if g:
            x = g.step(max(t - last, 1e-3))
            ex += gm * x[0]
            ny += gm * x[1]
        rows.append((t, e + ex, n + ny, K * math.hypot(white, gm) * stated, None, None))
        last, t = t, t + cadence
    return rows


def loop(r, v):
    return lambda k: (v, math.degrees(k * v / r) % 360)


def pace(length, v):
    return lambda k: (v, 0 if int(k * v / length) % 2 == 0 else 180)


def rect(w, h, v):
    def f(k):
        s = (k * v) % (2 * (w + h))
        return v, (90 if s < w else 0 if s < w + h else 270 if s < 2 * w + h else 180)
    return f


def multipath(rng, seconds, cadence, amplitude):
    """A desk's error beside reflectors: four satellites, `amplitude` m (+-50 %) each, period
    lambda / (2 h cos(el) el-rate)."""
    sats = []
    for _ in range(4):
        h, el, rate = rng.uniform(10, 40), rng.uniform(0.2, 1.2), rng.uniform(0.3e-4, 1.45e-4)
        az = rng.uniform(0, 2 * math.pi)
        sats.append((0.19 / (2 * h * math.cos(el) * rate), amplitude * rng.uniform(0.5, 1.5), rng.uniform(0, 2 * math.pi),
                     math.sin(az), math.cos(az), 0.0))
    return reflection_desk(rng, seconds, cadence, sats, 2.0, 120, 1.5)


def cases():
    out = []
    courses = {'pace15': pace(15, 1.0), 'pace25': pace(25, 1.1), 'loop12': loop(12, 1.1), 'loop20': loop(20, 1.1),
               'rect40x20': rect(40, 20, 1.0), 'rect60x30': rect(60, 30, 1.0)}
    noises = [(3, 8, 1.5, 1, 60), (0, 10, 1.5, 5, 60), (2, 6, 1, 1, 60), (0, 5, 1, 1, 60), (5, 0, 2, 1, 60),
              (3, 0, 1.5, 1, 60), (0, 8, 1.5, 1, 300), (0, 6, 1, 5, 30)]
    for minutes in (12, 20):
        for white, gm, stated, cadence, tau in noises:
            for name, f in courses.items():
                points, walked = path(minutes * 60, f)
                for seed in (1, 2):
                    tag = f'{name}_w{white}g{gm}t{tau}x{stated}c{cadence}_{minutes}m_s{seed}'
                    out.append(('courses', tag, walked,
                                sample(points, random.Random(tag), cadence, white, gm, tau, stated)))
    for white, gm, stated, tau in [(0, 5, 1, 20), (0, 5, 1, 30), (0, 5, 1, 60), (0, 5, 1, 120), (0, 10, 1, 60),
                                   (3, 0, 1, 60), (5, 0, 1, 60), (1, 5, 1.5, 45), (0, 8, 1, 300)]:
        for cadence in (1, 3, 5, 15):
            for seed in (1, 2):
                tag = f'desk_w{white}g{gm}t{tau}x{stated}c{cadence}_s{seed}'
                points = [(0.0, 0.0)] * 1201
                out.append(('desks', tag, 0.0, sample(points, random.Random(tag), cadence, white, gm, tau, stated)))
    for amplitude in (3, 5):
        for cadence in (1, 5):
            for seed in range(1, 7):
                tag = f'multipath_a{amplitude}_c{cadence}_s{seed}' if amplitude != 3 else f'multipath_c{cadence}_s{seed}'
                out.append((f'multipath{amplitude}', tag, 0.0, multipath(random.Random(tag), 1800, cadence, amplitude)))
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    jobs = []
    for family, tag, truth, rows in cases():
        p = os.path.join(OUT, tag + '.csv')
        write_fixes(p, rows)
        jobs.append((family, tag, truth, p))
    with ThreadPoolExecutor(2) as ex:
        results = list(ex.map(lambda j: (j, distances(BINS, j[3], 'walking', EXTRA)), jobs))
    sums = {}
    for (family, tag, truth, _), d in results:
        print(f'{tag:40s} {truth:7.0f} ' + ' '.join(f'{x:8.1f}' for x in d))
        s = sums.setdefault(family, [0] + [0.0] * len(BINS))
        s[0] += 1
        for i, x in enumerate(d):
            s[i + 1] += abs(x - truth)
    for family, s in sums.items():
        print(f'{family:10s} {s[0]:4d} files, summed |error| m: ' + ' '.join(f'{x:10.1f}' for x in s[1:]))


if __name__ == '__main__':
    main()
