#!/usr/bin/env python3
"""Generated 1 Hz tracks with multipath excursions: the position jumps 25-70 m away for 2-20 s, holds there
(with the receiver's usual jitter) and comes back, all the while claiming its usual accuracy. Still receivers
(a parked car, a phone on a desk) and moving ones (drives, rides, walks: the same excursions on real motion),
with and without Doppler speed, plus honest moving tracks without excursions (hard braking, sharp turns,
U-turns) that a stricter outlier gate must not cost. Seeded: the same files every run.

    python3 tools/analysis/multipath_cases.py OUT_DIR     # writes OUT_DIR/*.csv and OUT_DIR/index.tsv
    # then, per row of index.tsv (name, group, profile, truth metres):
    truetrack process OUT_DIR/NAME.csv --profile PROFILE --json    # distanceMetres vs truth

A still receiver's truth is 0 m. The excursion model is a reviewer's (docs/ARCHITECTURE.md, "Outlier gate"):
at 1 Hz on the driving profile without speed it counted 5.5-5.8 km per 2 h.
"""
import csv, math, os, random, datetime, sys

OUT = sys.argv[1] if len(sys.argv) > 1 else 'multipath-cases'
LAT0, LON0 = 45.0, 7.0
M_LAT = 111_132.0
M_LON = 111_320.0 * math.cos(math.radians(LAT0))
T0 = datetime.datetime(2026, 3, 1, 8, 0, 0, tzinfo=datetime.timezone.utc)
index = []
os.makedirs(OUT, exist_ok=True)


def ll(e, n):
    return LAT0 + n / M_LAT, LON0 + e / M_LON


def write(name, group, profile, truth, rows):
    with open(os.path.join(OUT, name + '.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['time', 'latitude', 'longitude', 'accuracy_m', 'speed_mps', 'course_deg'])
        for t, e, n, acc, sp, co in rows:
            lat, lon = ll(e, n)
            ts = (T0 + datetime.timedelta(seconds=t)).strftime('%Y-%m-%dT%H:%M:%S.%f')[:-3] + 'Z'
            w.writerow([ts, f'{lat:.8f}', f'{lon:.8f}', f'{acc:.1f}', '' if sp is None else f'{sp:.2f}',
                        '' if co is None else f'{co:.1f}'])
    index.append((name, group, profile, round(truth, 1)))


class GM:
    """First-order Gauss-Markov error per axis (sigma metres, tau seconds)."""

    def __init__(self, rng, sigma, tau):
        self.rng, self.s, self.tau = rng, sigma, tau
        self.x = [rng.gauss(0, sigma), rng.gauss(0, sigma)]

    def step(self, dt):
        a = math.exp(-dt / self.tau)
        q = self.s * math.sqrt(1 - a * a)
        self.x = [a * v + self.rng.gauss(0, q) for v in self.x]
        return self.x


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
