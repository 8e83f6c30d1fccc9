#!/usr/bin/env python3
"""Adversarial generated tracks (2026-12-05, written by a tester session): runs of fixes without a speed reading (iOS -1, Android fused) while moving and at halts.
Seeded tracks with known true distance, run through two builds of `truetrack process` (TT_BEFORE, TT_AFTER; both
default to .build/release/truetrack) and compared by family (better / worse by more than 2 points). Cases and results
go under TT_WORK (default /tmp/tt-adversarial). They caught what the friendly sets missed: see docs/ARCHITECTURE.md,
"Doppler noise at rest judged by chords" and "Not adopted: a run of missing readings counted as its chord".
Families: see FAM below.
Usage: python3 tools/analysis/adversarial/missing_reading_runs.py [N_per_family]   -> results.json + table
Reproduce one case: python3 tools/analysis/adversarial/missing_reading_runs.py --case FAMILY SEED  (writes cases/FAMILY_SEED.csv, prints errors)
"""
import math, random, json, subprocess, sys, os
from multiprocessing import Pool

BEFORE = os.environ.get("TT_BEFORE", ".build/release/truetrack"); AFTER = os.environ.get("TT_AFTER", ".build/release/truetrack")
OUT = os.path.join(os.environ.get("TT_WORK", "/tmp/tt-adversarial"), "missing", "cases"); os.makedirs(OUT, exist_ok=True)
LAT0, LON0 = 48.2, 11.5
MLAT = 111320.0; MLON = 111320.0 * math.cos(math.radians(LAT0))

# ---------- path building (x,y metres polyline, dense) ----------
def arc(pts, cx, cy, r, a0, a1, step=1.0):
    n = max(2, int(abs(a1 - a0) * r / step))
    for i in range(n + 1):
        a = a0 + (a1 - a0) * i / n
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))

def straight(pts, L, h, step=1.0):
    x, y = pts[-1]
    n = max(1, int(L / step))
    for i in range(1, n + 1):
        pts.append((x + L * i / n * math.cos(h), y + L * i / n * math.sin(h)))

class Walker:
    """Turtle that builds a polyline with heading."""
    def __init__(s): s.pts = [(0.0, 0.0)]; s.h = 0.0
    def go(s, L): straight(s.pts, L, s.h)
    def turn(s, ang, r):  # ang radians (+ left), radius r
        x, y = s.pts[-1]
        side = 1 if ang > 0 else -1
        cx = x + r * math.cos(s.h + side * math.pi / 2); cy = y + r * math.sin(s.h + side * math.pi / 2)
        a0 = s.h - side * math.pi / 2
        arc(s.pts, cx, cy, r, a0, a0 + ang, step=0.5)
        s.h += ang

def cumlen(pts):
    c = [0.0]
    for i in range(1, len(pts)):
        c.append(c[-1] + math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]))
    return c

def interp(pts, c, s):
    import bisect
    i = bisect.bisect_right(c, s) - 1
    i = max(0, min(i, len(pts) - 2))
    seg = c[i + 1] - c[i]
    f = 0 if seg == 0 else (s - c[i]) / seg
    f = max(0, min(1, f))
    x = pts[i][0] + f * (pts[i + 1][0] - pts[i][0]); y = pts[i][1] + f * (pts[i + 1][1] - pts[i][1])
    h = math.atan2(pts[i + 1][1] - pts[i][1], pts[i + 1][0] - pts[i][0])
    return x, y, h

# ---------- simulation ----------
def simulate(rng, pts, speed_fn, T, minus1_fn, gm_sigma=3.0, gm_tau=60.0, white=2.0, acc=4.7,
             spd_noise=0.15, gaps=(), jumps=(), dt=1.0, course_minus1_with_speed=True):
    """speed_fn(t)->true speed; minus1_fn(t, truespeed)->bool (report -1); gaps: list of (t0,t1) no fixes;
    jumps: list of (t0,t1,dx,dy) multipath offsets. Returns rows, true distance."""
    c = cumlen(pts); total = c[-1]
    s = 0.0; t = 0.0; gx = gy = 0.0
    a = math.exp(-dt / gm_tau); q = gm_sigma * math.sqrt(1 - a * a)
    rows = []; t0ms = 1764892800000
    while t <= T and s < total:
        v = speed_fn(t)
        x, y, h = interp(pts, c, s)
        gx = a * gx + q * rng.gauss(0, 1); gy = a * gy + q * rng.gauss(0, 1)
        nx = x + gx + white * rng.gauss(0, 1); ny = y + gy + white * rng.gauss(0, 1)
        for (j0, j1, dx, dy) in jumps:
            if j0 <= t < j1: nx += dx; ny += dy
        ingap = any(g0 <= t < g1 for g0, g1 in gaps)
        if not ingap:
            if minus1_fn(t, v):
                sp = -1.0; co = -1.0
            else:
                sp = max(0.0, v + spd_noise * rng.gauss(0, 1))
                co = (90 - math.degrees(h)) % 360 if v > 0.3 else -1.0
            rows.append((int(t0ms + t * 1000), LAT0 + ny / MLAT, LON0 + nx / MLON, acc, round(sp, 2), round(co, 1)))
        s += v * dt; t += dt
    truedist = min(s, total)
    return rows, truedist

def write(rows, path):
    with open(path, "w") as f:
        f.write("timestamp,latitude,longitude,accuracy,speed,course\n")
        for r in rows:
            f.write("%d,%.8f,%.8f,%.1f,%.2f,%.1f\n" % r)

def run(binp, path, prof):
    o = subprocess.run(["nice", "-n", "19", binp, "process", path, "--profile", prof, "--json"],
                       capture_output=True, text=True, timeout=300)
    return json.loads(o.stdout)["distanceMetres"]

# ---------- families ----------
def periodic_minus1(rng, T, on_range, off_range, start=30):
    """moving -1 windows: list of (t0,t1)"""
    w = []; t = start
    while t < T - 20:
        off = rng.uniform(*off_range); on = rng.uniform(*on_range)
        t += off
        w.append((t, t + on)); t += on
    return w

def inwin(w):
    return lambda t, v: any(a <= t < b for a, b in w)

def fam_halts(rng):  # intended effect: walk with halts, -1 throughout halts
    W = Walker()
    for _ in range(12): W.go(rng.uniform(60, 150)); W.turn(rng.uniform(-1.6, 1.6), 5)
    halts = []; t = 60
    for _ in range(rng.randint(3, 7)):
        d = rng.uniform(10, 40); halts.append((t, t + d)); t += d + rng.uniform(60, 150)
    vw = rng.uniform(1.1, 1.6)
    sf = lambda t: 0.0 if any(a <= t < b for a, b in halts) else vw
    T = t + 60
    m1 = lambda t, v: any(a - 1 <= t < b + 1 for a, b in halts)
    p = dict(halts=len(halts), v=round(vw, 2))
    return W.pts, sf, T, m1, {}, "walking", p

def fam_curvy_walk(rng):  # switchbacks / tight loops, -1 runs while moving
    W = Walker(); kind = rng.choice(["switchback", "loops", "zigzag"])
    for _ in range(10):
        if kind == "switchback":
            W.go(rng.uniform(15, 40)); W.turn(math.pi * rng.choice([1, -1]), rng.uniform(2, 5))
        elif kind == "loops":
            W.go(rng.uniform(10, 30)); W.turn(2 * math.pi * rng.choice([1, -1]), rng.uniform(3, 9))
        else:
            W.go(rng.uniform(8, 20)); W.turn(rng.choice([1, -1]) * rng.uniform(1.3, 2.2), 2)
    vw = rng.uniform(1.0, 1.6)
    T = cumlen(W.pts)[-1] / vw
    w = periodic_minus1(rng, T, (20, 60), (10, 60))
    p = dict(kind=kind, v=round(vw, 2), runs=len(w))
    return W.pts, (lambda t: vw), T, inwin(w), {}, "walking", p

def fam_cycle_curve(rng):
    W = Walker()
    for _ in range(8):
        W.go(rng.uniform(50, 200))
        if rng.random() < 0.5: W.turn(rng.choice([1, -1]) * rng.uniform(4, 5.5), rng.uniform(10, 20))  # roundabout
        else: W.turn(rng.choice([1, -1]) * rng.uniform(1.2, 3.0), rng.uniform(5, 15))
    v = rng.uniform(4, 7); T = cumlen(W.pts)[-1] / v
    w = periodic_minus1(rng, T, (15, 60), (10, 40))
    return W.pts, (lambda t: v), T, inwin(w), dict(gm_sigma=3, white=2.5), "cycling", dict(v=round(v, 1), runs=len(w))

def fam_drive_round(rng):
    W = Walker()
    for _ in range(8):
        W.go(rng.uniform(150, 500)); W.turn(rng.choice([1, -1]) * rng.uniform(4, 5.8), rng.uniform(12, 25))
    v = rng.uniform(8, 14); T = cumlen(W.pts)[-1] / v
    w = periodic_minus1(rng, T, (10, 40), (10, 40))
    return W.pts, (lambda t: v), T, inwin(w), dict(gm_sigma=4, white=3, spd_noise=0.3), "driving", dict(v=round(v, 1), runs=len(w))

def fam_tunnel(rng):  # -1 run then gap (tunnel), then resume with -1 for a while
    W = Walker()
    prof = rng.choice(["driving", "cycling", "walking"])
    v = {"driving": rng.uniform(10, 20), "cycling": rng.uniform(4, 7), "walking": rng.uniform(1.1, 1.6)}[prof]
    T = rng.uniform(600, 1000)
    while cumlen(W.pts)[-1] < v * T + 10: W.go(rng.uniform(v * 20, v * 60)); W.turn(rng.uniform(-1.5, 1.5), max(5, v * 2))
    gaps = []; w = []; t = 60
    while t < T - 200:
        r = rng.uniform(5, 30); g = rng.uniform(30, 150); post = rng.uniform(0, 30)
        w.append((t, t + r)); gaps.append((t + r, t + r + g)); w.append((t + r + g, t + r + g + post))
        t += r + g + post + rng.uniform(60, 120)
    return W.pts, (lambda t: v), T, inwin(w), dict(gaps=gaps, gm_sigma=4, white=3), prof, dict(v=round(v, 1), gaps=len(gaps))

def fam_turnaround(rng):  # fast readings, then -1 while turning around (out-and-back)
    W = Walker()
    legs = rng.randint(4, 8)
    for _ in range(legs):
        W.go(rng.uniform(40, 120)); W.turn(math.pi * rng.choice([1, -1]), rng.uniform(0.5, 3))
    vfast = rng.uniform(1.6, 2.8)  # brisk/jog
    c = cumlen(W.pts); T = c[-1] / vfast
    # -1 windows centered on turnarounds: find times where path turn
    w = []
    acc = 0.0; ss = []
    # approximate turnaround arc lengths: recompute
    W2 = Walker(); rr = random.Random(0)
    # simpler: -1 for windows of length 15-40 s every ~ leg time around computed turn positions
    idx = [i for i in range(2, len(W.pts) - 2)
           if abs(math.atan2(W.pts[i+1][1]-W.pts[i][1], W.pts[i+1][0]-W.pts[i][0]) -
                  math.atan2(W.pts[i][1]-W.pts[i-1][1], W.pts[i][0]-W.pts[i-1][0])) > 0.05]
    turns = []
    for i in idx:
        if not turns or c[i] - turns[-1] > 20: turns.append(c[i])
    for s in turns:
        tt = s / vfast; L = rng.uniform(15, 45); w.append((tt - L / 2, tt + L / 2))
    slow = rng.random() < 0.5  # slow down through the turnaround
    sf = (lambda t: 0.8 if any(a <= t < b for a, b in w) else vfast) if slow else (lambda t: vfast)
    return W.pts, sf, T * 1.3, inwin(w), {}, "walking", dict(v=round(vfast, 2), legs=legs, slowturn=slow)

def fam_android(rng):  # fused fixes, no speed for minutes
    W = Walker()
    for _ in range(14): W.go(rng.uniform(20, 120)); W.turn(rng.uniform(-2.0, 2.0), rng.uniform(2, 8))
    prof = rng.choice(["walking", "walking", "cycling"])
    v = rng.uniform(1.1, 1.6) if prof == "walking" else rng.uniform(4, 6)
    T = cumlen(W.pts)[-1] / v
    w = []; t = 40
    while t < T:
        L = rng.uniform(120, 400); w.append((t, t + L)); t += L + rng.uniform(30, 90)
    gs = rng.uniform(3, 8); tau = rng.uniform(30, 120); wh = rng.uniform(2, 10)
    return W.pts, (lambda t: v), T, inwin(w), dict(gm_sigma=gs, gm_tau=tau, white=wh, acc=max(5, wh * 1.2)), prof, \
        dict(v=round(v, 2), gm=round(gs, 1), tau=int(tau), white=round(wh, 1))

def fam_noisy_runs(rng):  # -1 runs with GM + white noise, winding walk
    W = Walker()
    for _ in range(14): W.go(rng.uniform(15, 60)); W.turn(rng.uniform(-2.5, 2.5), rng.uniform(2, 6))
    v = rng.uniform(1.0, 1.6); T = cumlen(W.pts)[-1] / v
    w = periodic_minus1(rng, T, (20, 90), (15, 60))
    gs = rng.uniform(3, 8); tau = rng.uniform(30, 120); wh = rng.uniform(2, 10)
    return W.pts, (lambda t: v), T, inwin(w), dict(gm_sigma=gs, gm_tau=tau, white=wh, acc=max(4.7, wh)), "walking", \
        dict(v=round(v, 2), gm=round(gs, 1), tau=int(tau), white=round(wh, 1), runs=len(w))

def fam_multipath(rng):  # jumps inside -1 runs
    W = Walker()
    for _ in range(10): W.go(rng.uniform(30, 100)); W.turn(rng.uniform(-2, 2), rng.uniform(3, 8))
    prof = rng.choice(["walking", "cycling"])
    v = rng.uniform(1.1, 1.6) if prof == "walking" else rng.uniform(4, 6)
    T = cumlen(W.pts)[-1] / v
    w = periodic_minus1(rng, T, (20, 60), (20, 60)); jumps = []
    for a, b in w:
        if rng.random() < 0.7:
            j0 = rng.uniform(a, b - 3); L = rng.uniform(2, 10); m = rng.uniform(20, 80); ang = rng.uniform(0, 6.28)
            jumps.append((j0, j0 + L, m * math.cos(ang), m * math.sin(ang)))
    return W.pts, (lambda t: v), T, inwin(w), dict(jumps=jumps), prof, dict(v=round(v, 2), jumps=len(jumps))

def fam_halts_curvy(rng):  # intended-ish: halts with -1 AND curvy moving -1 runs
    pts, sf, T, m1, kw, prof, p = fam_halts(rng)
    extra = periodic_minus1(rng, T, (20, 40), (60, 120))
    m2 = lambda t, v: m1(t, v) or any(a <= t < b for a, b in extra)
    p["movruns"] = len(extra)
    return pts, sf, T, m2, kw, prof, p

def fam_straight_runs(rng):  # control: straight-ish path, -1 runs while moving
    W = Walker()
    prof = rng.choice(["walking", "cycling", "driving"])
    v = {"driving": rng.uniform(10, 20), "cycling": rng.uniform(4, 7), "walking": rng.uniform(1.1, 1.6)}[prof]
    T = rng.uniform(400, 800)
    while cumlen(W.pts)[-1] < v * T + 10: W.go(v * 100); W.turn(rng.uniform(-0.3, 0.3), 50)
    w = periodic_minus1(rng, T, (20, 60), (20, 60))
    return W.pts, (lambda t: v), T, inwin(w), {}, prof, dict(v=round(v, 1), runs=len(w))

def fam_gentle_curve(rng):  # radius 30-150 m bends, -1 runs
    W = Walker()
    prof = rng.choice(["walking", "cycling", "driving"])
    v = {"driving": rng.uniform(10, 20), "cycling": rng.uniform(4, 7), "walking": rng.uniform(1.1, 1.6)}[prof]
    T = rng.uniform(400, 800)
    while cumlen(W.pts)[-1] < v * T + 10: W.go(rng.uniform(10, 50)); W.turn(rng.choice([1, -1]) * rng.uniform(0.5, 1.5), rng.uniform(30, 150))
    w = periodic_minus1(rng, T, (20, 60), (20, 60))
    return W.pts, (lambda t: v), T, inwin(w), {}, prof, dict(v=round(v, 1), runs=len(w))

def fam_halts_noisy(rng):  # intended effect under heavier GM/white noise
    pts, sf, T, m1, kw, prof, p = fam_halts(rng)
    gs = rng.uniform(3, 8); tau = rng.uniform(30, 120); wh = rng.uniform(2, 6)
    p.update(gm=round(gs, 1), tau=int(tau), white=round(wh, 1))
    return pts, sf, T, m1, dict(gm_sigma=gs, gm_tau=tau, white=wh, acc=max(4.7, wh)), prof, p

FAM = dict(halts=fam_halts, curvy_walk=fam_curvy_walk, cycle_curve=fam_cycle_curve, drive_round=fam_drive_round,
           tunnel=fam_tunnel, turnaround=fam_turnaround, android=fam_android, noisy_runs=fam_noisy_runs,
           multipath=fam_multipath, halts_plus_moving=fam_halts_curvy, straight_runs=fam_straight_runs, gentle_curve=fam_gentle_curve, halts_noisy=fam_halts_noisy)

def case(args):
    fam, seed = args
    rng = random.Random(hash((fam, seed)) & 0xffffffff if False else seed * 1000 + list(FAM).index(fam))
    pts, sf, T, m1, kw, prof, p = FAM[fam](rng)
    rows, true = simulate(rng, pts, sf, T, m1, **kw)
    path = "%s/%s_%d.csv" % (OUT, fam, seed); write(rows, path)
    b = run(BEFORE, path, prof); a = run(AFTER, path, prof)
    eb = 100 * (b - true) / true; ea = 100 * (a - true) / true
    return dict(fam=fam, seed=seed, prof=prof, true=round(true, 1), before=b, after=a,
                eb=round(eb, 2), ea=round(ea, 2), params=p, n=len(rows))

if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--case":
        print(json.dumps(case((sys.argv[2], int(sys.argv[3]))), indent=1)); sys.exit()
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    fams = sys.argv[2].split(",") if len(sys.argv) > 2 else list(FAM)
    jobs = [(f, s) for f in fams for s in range(N)]
    with Pool(2) as pool: res = pool.map(case, jobs)
    json.dump(res, open(os.path.join(os.environ.get("TT_WORK", "/tmp/tt-adversarial"), "missing", "results.json"), "w"), indent=1)
    import statistics as st
    print("%-18s %3s %6s %6s %16s %16s" % ("family", "n", "worse", "better", "med|err| B->A", "med err B->A"))
    for f in fams:
        r = [x for x in res if x["fam"] == f]
        worse = sum(1 for x in r if abs(x["ea"]) > abs(x["eb"]) + 2)
        better = sum(1 for x in r if abs(x["ea"]) < abs(x["eb"]) - 2)
        print("%-18s %3d %6d %6d %7.1f->%-7.1f %7.1f->%-7.1f" % (f, len(r), worse, better,
              st.median(abs(x["eb"]) for x in r), st.median(abs(x["ea"]) for x in r),
              st.median(x["eb"] for x in r), st.median(x["ea"] for x in r)))
    res.sort(key=lambda x: abs(x["eb"]) - abs(x["ea"]))
    print("worst (AFTER minus BEFORE |err|):")
    for x in res[:10]:
        print(x["fam"], x["seed"], x["prof"], "true", x["true"], "B %.1f%% A %.1f%%" % (x["eb"], x["ea"]), x["params"])
