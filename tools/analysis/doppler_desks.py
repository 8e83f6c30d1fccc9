#!/usr/bin/env python3
"""Still phones whose speed readings are noise, and walks read by the same noise: what each binary counts.

A receiver at rest computes its velocity from Doppler like any other: noise of sigma_v m/s per axis, so the speed it
reports is |v|, Rayleigh-distributed with mean 1.25 sigma_v (never 0), and the course is random. Families (1 Hz,
600 s, the position error white 3 m or Gauss-Markov 4 m / 120 s, accuracy stated honestly):
  desk       at rest
  walk       1.3 m/s with a turn every 60-120 s
  slow       0.5 m/s, same turns
  pace       back and forth over 6 m at 1.0 m/s (a walker pacing a room)
each with sigma_v in {0.1, 0.2, 0.3, 0.5} (--sv LIST), speed only or speed and course. Prints per family the summed distance
(desks: m per 10 minutes; moving families: |error| % of the truth) for each binary, forward and smoothed.

    python3 tools/analysis/doppler_desks.py OUT BIN_A,BIN_B [--smooth] [--seeds 3] [--sv 0.1,0.2] [--kinds desk,walk]
"""
import math, os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generated import write_fixes, GaussMarkov, distances

OUT, BINS = sys.argv[1], sys.argv[2].split(',')
SMOOTH = '--smooth' in sys.argv
SEEDS = int(sys.argv[sys.argv.index('--seeds') + 1]) if '--seeds' in sys.argv else 3
SVS = [float(x) for x in sys.argv[sys.argv.index('--sv') + 1].split(',')] if '--sv' in sys.argv else [0.1, 0.2, 0.3, 0.5]
KINDS = sys.argv[sys.argv.index('--kinds') + 1].split(',') if '--kinds' in sys.argv else ['desk', 'walk', 'slow', 'pace']
os.makedirs(OUT, exist_ok=True)
K68 = 1.5096


def path(kind, rng, T=600):
    """(t, e, n, speed, heading_rad) at 1 s."""
    out, e, n, h = [], 0.0, 0.0, rng.uniform(0, 2 * math.pi)
    v = {'desk': 0.0, 'walk': 1.3, 'slow': 0.5, 'pace': 1.0}[kind]
    next_turn = rng.uniform(60, 120)
    for t in range(T + 1):
        if kind == 'pace':
            phase = (t % 12)
            h0 = 0.0 if phase < 6 else math.pi
            out.append((t, e, n, v, h0))
            n += v * math.cos(h0)
            continue
        out.append((t, e, n, v, h))
        if v > 0 and t >= next_turn:
            h += math.radians(rng.uniform(60, 120)) * rng.choice((-1, 1))
            next_turn = t + rng.uniform(60, 120)
        e += v * math.sin(h)
        n += v * math.cos(h)
    return out


def case(kind, err, sv, course, seed):
    rng = random.Random(f'{kind}/{err}/{sv}/{course}/{seed}')
    p = path(kind, rng)
    sg = 3.0 if err == 'white' else 4.0
    gm = GaussMarkov(rng, sg, 120) if err == 'gm' else None
    rows = []
    for i, (t, e, n, v, h) in enumerate(p):
        if gm:
            ex, ey = (gm.x if i == 0 else gm.step(1.0))
        else:
            ex, ey = rng.gauss(0, sg), rng.gauss(0, sg)
        vx, vy = v * math.sin(h) + rng.gauss(0, sv), v * math.cos(h) + rng.gauss(0, sv)
        sp = math.hypot(vx, vy)
        co = math.degrees(math.atan2(vx, vy)) % 360 if course else None
        rows.append((t, e + ex, n + ey, K68 * sg, sp, co))
    truth = sum(v for (_, _, _, v, _) in p[:-1])
    f = os.path.join(OUT, f'{kind}_{err}_v{sv}_{"sc" if course else "s"}_{seed}.csv')
    write_fixes(f, rows)
    return f, truth


rows = {}
for kind in KINDS:
    for err in ('white', 'gm'):
        for sv in SVS:
            for course in (False, True):
                key = (kind, err, sv, course)
                tot = [0.0] * len(BINS)
                truth_sum = 0.0
                for seed in range(1, SEEDS + 1):
                    f, truth = case(kind, err, sv, course, seed)
                    ds = distances(BINS, f, 'walking', ['--smooth'] if SMOOTH else [])
                    for i, d in enumerate(ds):
                        tot[i] += abs(d - truth) if truth > 0 else d
                    truth_sum += truth
                rows[key] = (tot, truth_sum)
                if kind == 'desk':
                    cells = ' '.join(f'{x / SEEDS:9.1f} m' for x in tot)
                else:
                    cells = ' '.join(f'{100 * x / truth_sum:9.1f} %' for x in tot)
                print(f'{kind:5s} {err:5s} sv {sv:4.2f} {"speed+course" if course else "speed only  "} {cells}', flush=True)
