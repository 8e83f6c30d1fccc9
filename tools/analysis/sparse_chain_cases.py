#!/usr/bin/env python3
"""Generated loggers for the tracker's chains of sparse steps (docs/ARCHITECTURE.md 5d): moving loggers whose
every step is a reset gap (city drives with lights, turns and long stops; cycling; walks with stops; 3 m white or
Gauss-Markov error, with and without speed) and still loggers at the same intervals (white, Gauss-Markov,
multipath error). Seeded: the same files every run.

    python3 tools/analysis/sparse_chain_cases.py OUT_DIR     # writes OUT_DIR/*.csv and OUT_DIR/index.tsv
    # then, per row of index.tsv (name, profile, truth metres):
    truetrack process OUT_DIR/NAME.csv --profile PROFILE --json    # distanceMetres vs truth
    python3 tools/analysis/sparse_chain_cases.py OUT_DIR --rhythm   # steps of 12-45 s instead (below the reset gap:
    # the dense path's sparse steps, docs/ARCHITECTURE.md 5e), still loggers with 10 % jitter
    python3 tools/analysis/sparse_chain_cases.py OUT_DIR --gap      # steps of 19-22 s driving, 29-31 s cycling,
    # 58-62 s walking: around each profile's reset gap
    # with --claim M every fix claims M metres (the walks "claiming 8 m"), with --no-accuracy none (a GPX without)
    python3 tools/analysis/sparse_chain_cases.py OUT_DIR --compare BIN1,BIN2   # mean error per group, each binary
    # (add --smooth to compare the whole-track smoother's distances instead of the forward filter's)
"""
import math, os, random, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generated import write_fixes, GaussMarkov
OUT = sys.argv[1] if len(sys.argv) > 1 else 'sparse-chain-cases'
RHYTHM = '--rhythm' in sys.argv
GAP = '--gap' in sys.argv
CLAIM = float(sys.argv[sys.argv.index('--claim') + 1]) if '--claim' in sys.argv else None
NO_ACCURACY = '--no-accuracy' in sys.argv
if '--compare' in sys.argv:
    import collections, json, subprocess
    from concurrent.futures import ThreadPoolExecutor
    binaries = sys.argv[sys.argv.index('--compare') + 1].split(',')
    rows = [l.rstrip('\n').split('\t') for l in open(os.path.join(OUT, 'index.tsv'))]
    def distance(b, name, prof):
        r = subprocess.run([b, 'process', os.path.join(OUT, name + '.csv'), '--profile', prof, '--json']
                           + (['--smooth'] if '--smooth' in sys.argv else []), capture_output=True, text=True)
        return json.loads(r.stdout)['distanceMetres'] if r.returncode == 0 else float('nan')
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda r: (r[0], float(r[2]), [distance(b, r[0], r[1]) for b in binaries]), rows))
    groups = collections.defaultdict(list)
    for name, truth, ds in results: groups[name.rsplit('_s', 1)[0]].append((truth, ds))
    for key, v in groups.items():
        t = sum(x[0] for x in v)
        cells = [f'{100 * (sum(x[1][i] for x in v) / t - 1):+6.1f} %' if t > 0 else f'{sum(x[1][i] for x in v) / len(v):7.0f} m'
                 for i in range(len(binaries))]
        print(f'{key:24s} ' + ('truth %8.0f m ' % (t / len(v)) if t > 0 else 'still, per file ') + '  '.join(cells))
    sys.exit(0)
index = []
def write(name, rows, profile, truth):
    if CLAIM is not None or NO_ACCURACY:
        rows = [(t, e, n, None if NO_ACCURACY else CLAIM, sp, co) for t, e, n, _, sp, co in rows]
    write_fixes(os.path.join(OUT, name + '.csv'), rows)
    index.append((name, profile, round(truth, 1)))
GM = GaussMarkov
def city(rng, dur, vmax, block=(150, 400), stop=(0, 45), dwell=None):
    """1 s truth: blocks at vmax with accel/decel 1.5 m/s2, a stop (light) after each block, 90-degree turns
    half the time. dwell: (prob, (lo, hi)) of a long stop (delivery / cafe)."""
    pts, e, n, h, t, v = [], 0.0, 0.0, rng.choice([0, 90, 180, 270]), 0, 0.0
    remaining = rng.uniform(*block); stopping = 0
    while t <= dur:
        pts.append((t, e, n, v, h))
        if stopping > 0:
            stopping -= 1; v = 0.0
            if stopping == 0:
                remaining = rng.uniform(*block)
                if rng.random() < 0.5: h = (h + rng.choice([90, -90])) % 360
        else:
            brake = v * v / 3.0
            v = max(0.5, v - 1.5) if remaining <= brake else min(vmax, v + 1.5)
            e += v * math.sin(math.radians(h)); n += v * math.cos(math.radians(h)); remaining -= v
            if remaining <= 0:
                stopping = int(rng.uniform(*stop)) + 1
                if dwell and rng.random() < dwell[0]: stopping = int(rng.uniform(*dwell[1]))
        t += 1
    truth = sum(math.hypot(pts[i+1][1]-pts[i][1], pts[i+1][2]-pts[i][2]) for i in range(len(pts)-1))
    return pts, truth
def sample(rng, pts, iv, jitter, noise, speed=False):
    rows, t, cum = [], 0.0, []
    while t < len(pts):
        _, e, n, v, h = pts[int(t)]
        ex, ny, acc = noise(rng, t)
        sp = max(0.0, v + rng.gauss(0, 0.2)) if speed else None
        co = h if speed and v > 0.5 else None
        rows.append((t, e + ex, n + ny, acc, sp, co))
        t += iv + rng.uniform(-jitter, jitter)
    last = int(rows[-1][0])
    truth = sum(math.hypot(pts[i+1][1]-pts[i][1], pts[i+1][2]-pts[i][2]) for i in range(last))
    return rows, truth
def white(sigma, acc):
    return lambda rng, t: (rng.gauss(0, sigma), rng.gauss(0, sigma), acc)
def gm_noise(rng0, sigma, tau, white_sigma, acc):
    g = GM(rng0, sigma, tau); state = {'t': 0.0}
    def f(rng, t):
        dt = max(t - state['t'], 1e-3); state['t'] = t
        x = g.step(dt); return (x[0] + rng.gauss(0, white_sigma), x[1] + rng.gauss(0, white_sigma), acc)
    return f
def mp_noise(rng0, acc):
    g = GM(rng0, 5.0, 180.0); st = {'t': 0.0, 'until': -1, 'off': (0, 0)}
    def f(rng, t):
        dt = max(t - st['t'], 1e-3); st['t'] = t
        x = g.step(dt); a = acc
        if t > st['until'] and rng.random() < 0.08:
            ang = rng.uniform(0, 2 * math.pi); d = rng.uniform(25, 70)
            st['off'] = (d * math.cos(ang), d * math.sin(ang)); st['until'] = t + rng.uniform(60, 300)
        if t <= st['until']: x = [x[0] + st['off'][0], x[1] + st['off'][1]]; a = rng.uniform(8, 15)
        return (x[0] + rng.gauss(0, 2), x[1] + rng.gauss(0, 2), a)
    return f
os.makedirs(OUT, exist_ok=True)
S = range(1, 6)
# Moving: city drives (driving, 14 m/s blocks, lights), cycling (6 m/s), walks with stops (1.4 m/s, dwell).
for prof, vmax, ivs, dur, block, stop, dwell in (
        ('driving', 14.0, (19, 20, 21, 22) if GAP else (12, 15, 18) if RHYTHM else (25, 30, 60, 120), 3600, (150, 600), (0, 45), (0.1, (120, 600))),
        ('cycling', 6.0, (29, 30, 31) if GAP else (12, 15, 20, 25) if RHYTHM else (35, 60, 120), 3600, (200, 800), (0, 30), (0.1, (120, 400))),
        ('walking', 1.4, (58, 60, 62) if GAP else (12, 15, 20, 30, 45) if RHYTHM else (65, 90, 120, 180), 7200, (100, 500), (0, 20), (0.15, (120, 600)))):
    for iv in ivs:
        for s in S:
            rng = random.Random(7000 + 13 * s + iv)
            pts, _ = city(rng, dur, vmax, block, stop, dwell)
            rows, truth = sample(rng, pts, iv, 2.0, white(3.0, 5.0))
            write(f'city_{prof}_{iv}s_s{s}', rows, prof, truth)
            rows, truth = sample(rng, pts, iv, 2.0, gm_noise(rng, 4.0, 120.0, 1.5, 8.0))
            write(f'citygm_{prof}_{iv}s_s{s}', rows, prof, truth)
            rows, truth = sample(rng, pts, iv, 2.0, white(3.0, 5.0), speed=True)
            write(f'cityspd_{prof}_{iv}s_s{s}', rows, prof, truth)
# Still loggers at the same intervals.
STILL = ((('driving', (19, 20, 21, 22)), ('cycling', (29, 30, 31)), ('walking', (58, 60, 62))) if GAP
         else (('driving', (12, 15, 18)), ('cycling', (12, 15, 20, 25)), ('walking', (12, 15, 20, 30, 45))) if RHYTHM
         else (('driving', (25, 30, 60, 120)), ('cycling', (35, 60, 120)), ('walking', (65, 90, 120, 180))))
for prof, ivs in STILL:
    for iv in ivs:
        for s in S:
            rng = random.Random(9000 + 17 * s + iv)
            pts = [(t, 0.0, 0.0, 0.0, 0) for t in range(7200)]
            for model, noise in (('white', white(5.0, 8.0)), ('gm', gm_noise(rng, 8.0, 180.0, 3.0, 10.0)),
                                 ('mp', mp_noise(rng, 8.0))):
                rows, _ = sample(rng, pts, iv, (0.1 if RHYTHM or GAP else 0.3) * iv, noise)
                write(f'still{model}_{prof}_{iv}s_s{s}', rows, prof, 0.0)
with open(os.path.join(OUT, 'index.tsv'), 'w') as f:
    for r in index: f.write('\t'.join(map(str, r)) + '\n')
print(len(index), 'cases')
