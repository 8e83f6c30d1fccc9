#!/usr/bin/env python3
"""Generated 1 Hz tracks with multipath excursions: the position jumps 25-70 m away for 2-20 s, holds there
(with the receiver's usual jitter) and comes back, all the while claiming its usual accuracy. Still receivers
(a parked car, a phone on a desk) and moving ones (drives, rides, walks: the same excursions on real motion),
with and without Doppler speed, plus honest moving tracks without excursions (hard braking, sharp turns,
U-turns) that a stricter outlier gate must not cost. Seeded: the same files every run.

    python3 tools/analysis/multipath_cases.py OUT_DIR     # writes OUT_DIR/*.csv and OUT_DIR/index.tsv
    # then, per row of index.tsv (name, group, profile, truth metres):
    truetrack process OUT_DIR/NAME.csv --profile PROFILE --json    # distanceMetres vs truth

A still receiver's truth is 0 m. The excursion model follows a reviewer's (docs/ARCHITECTURE.md 11b, "A re-anchor
needs agreeing fixes", where the figures are): at 1 Hz on the driving profile without speed a parked receiver
counted 4.7 / 16.2 km per 2 h before the continuation of rejection runs and the position-only acceleration sigma.
"""
import math, os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generated import write_fixes, GaussMarkov

OUT = sys.argv[1] if len(sys.argv) > 1 else 'multipath-cases'
index = []
os.makedirs(OUT, exist_ok=True)


def write(name, group, profile, truth, rows):
    write_fixes(os.path.join(OUT, name + '.csv'), rows)
    index.append((name, group, profile, round(truth, 1)))


GM = GaussMarkov


class Excursions:
    """Multipath: with probability `rate` per second an excursion starts, lasts 2-20 s, and puts the fix
    25-70 m away in one direction (a reflected path holds while the geometry holds)."""

    def __init__(self, rng, rate, size=(25, 70), length=(2, 20)):
        self.rng, self.rate, self.size, self.length = rng, rate, size, length
        self.left, self.off = 0, (0.0, 0.0)

    def step(self):
        if self.left == 0 and self.rng.random() < self.rate:
            self.left = self.rng.randint(*self.length)
            r, a = self.rng.uniform(*self.size), self.rng.uniform(0, 2 * math.pi)
            self.off = (r * math.cos(a), r * math.sin(a))
        if self.left > 0:
            self.left -= 1
            return self.off
        return (0.0, 0.0)


def truth_path(rng, kind, seconds):
    """1 Hz truth (e, n, speed, course degrees) for a moving traveller: cruise with stops, turns, hard braking."""
    vmax = {'driving': 14.0, 'cycling': 5.5, 'walking': 1.4}[kind]
    acc = {'driving': 3.0, 'cycling': 1.0, 'walking': 0.7}[kind]  # hard braking / pulling away, m/s^2
    pts, e, n, h, v, t = [], 0.0, 0.0, rng.uniform(0, 360), 0.0, 0
    target, hold = vmax, 0
    while t < seconds:
        if hold > 0:
            hold -= 1
            v = 0.0
        else:
            if rng.random() < 0.01:
                target = 0.0  # a stop ahead
            if v < 1e-6 and target == 0.0:
                hold, target = rng.randint(5, 60), vmax
            v = min(v + acc, target) if v < target else max(v - acc, target)
            if rng.random() < 0.02 and v > 0:
                h += rng.choice([-90, 90, 180 if kind != 'driving' else 90])  # sharp turns, U-turns on foot
        r = math.radians(h)
        e += v * math.sin(r)
        n += v * math.cos(r)
        pts.append((t, e, n, v, h % 360))
        t += 1
    return pts


def length(pts):
    return sum(math.hypot(b[1] - a[1], b[2] - a[2]) for a, b in zip(pts, pts[1:]))


def noisy(rng, pts, rate, with_speed, claim, white=1.5, gm=(2.0, 60.0)):
    g, x, rows = GM(rng, *gm), Excursions(rng, rate), []
    for t, e, n, v, co in pts:
        ge, gn = g.step(1)
        oe, on = x.step()
        sp = max(0.0, v + rng.gauss(0, 0.1)) if with_speed else None
        rows.append((t, e + ge + oe + rng.gauss(0, white), n + gn + on + rng.gauss(0, white), claim, sp,
                     co if with_speed and v > 0.5 else None))
    return rows


for seed in range(1, 6):
    for profile, claim in (('driving', 8.0), ('cycling', 8.0), ('walking', 8.0)):
        for rate in (0.005, 0.02):
            for with_speed in (False, True):
                rng = random.Random(f'{seed}-{profile}-{rate}-{with_speed}')
                sp = 'speed' if with_speed else 'nospeed'
                still = [(t, 0.0, 0.0, 0.0, 0.0) for t in range(7200)]
                write(f'still-{profile}-{rate}-{sp}-{seed}', f'still-{profile}-{rate}-{sp}', profile, 0.0,
                      noisy(rng, still, rate, with_speed, claim))
                dur = {'driving': 3600, 'cycling': 3600, 'walking': 3600}[profile]
                pts = truth_path(rng, profile, dur)
                write(f'move-{profile}-{rate}-{sp}-{seed}', f'move-{profile}-{rate}-{sp}', profile, length(pts),
                      noisy(rng, pts, rate, with_speed, claim))
        for with_speed in (False, True):
            rng = random.Random(f'{seed}-{profile}-clean-{with_speed}')
            sp = 'speed' if with_speed else 'nospeed'
            pts = truth_path(rng, profile, 3600)
            write(f'clean-{profile}-{sp}-{seed}', f'clean-{profile}-{sp}', profile, length(pts),
                  noisy(rng, pts, 0.0, with_speed, claim))

with open(os.path.join(OUT, 'index.tsv'), 'w') as f:
    for row in index:
        f.write('\t'.join(map(str, row)) + '\n')
print(f'{len(index)} cases in {OUT}', file=sys.stderr)
