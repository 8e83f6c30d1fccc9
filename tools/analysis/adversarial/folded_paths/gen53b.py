#!/usr/bin/env python3
"""Second batch (targeted after batch 1 showed pacing regressions). Usage: python3 gen53b.py N [fams] -> results_b.json"""
import sys, math, json, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen53 as G
from gen53 import Walker, inw, noise, halts_sched

def shuttle(rng, W, Lp, reps, r=(0.3, 1.0)):
    for _ in range(reps): W.go(Lp); W.turn(math.pi * rng.choice([1, -1]), rng.uniform(*r))

def m1_mix(rng, T):
    mode = rng.choice(["random", "runs", "mixed"]); p = rng.uniform(0.1, 0.6); w = []; t = 0
    while t < T: on = rng.uniform(5, 40); w.append((t, t + on)); t += on + rng.uniform(5, 40)
    f = {"random": lambda t, v, r: r.random() < p, "runs": lambda t, v, r: inw(w, t),
         "mixed": lambda t, v, r: inw(w, t) or r.random() < p / 2}[mode]
    return f, dict(mode=mode, p=round(p, 2))

def f_pace_rand(rng):
    W = Walker(); Lp = rng.uniform(3, 20); v = rng.uniform(0.7, 1.6)
    W.go(rng.uniform(20, 80)); shuttle(rng, W, Lp, rng.randint(20, 80)); W.go(rng.uniform(20, 80))
    T = W.length() / v; m1, pm = m1_mix(rng, T)
    kw, pn = noise(rng) if rng.random() < 0.5 else ({}, {})
    return W.pts, (lambda t: v), T, m1, kw, "walking", dict(Lp=round(Lp, 1), v=round(v, 2), **pm, **pn)

def f_aisles(rng):  # supermarket aisles: legs 8-25 m, U-turns, short browsing halts
    W = Walker(); v = rng.uniform(0.6, 1.3)
    for _ in range(rng.randint(10, 30)):
        W.go(rng.uniform(8, 25)); W.turn(math.pi * rng.choice([1, -1]), rng.uniform(0.8, 2.0))
    W.go(30); T0 = W.length() / v
    halts, _ = halts_sched(rng, 20, rng.randint(0, 10), (3, 20), (20, 80))
    sf = lambda t: 0.0 if inw(halts, t) else v
    T = T0 + sum(b - a for a, b in halts)
    m1, pm = m1_mix(rng, T)
    m2 = lambda t, vv, r: inw(halts, t) or m1(t, vv, r)
    kw, pn = noise(rng) if rng.random() < 0.5 else ({}, {})
    return W.pts, sf, T, m2, kw, "walking", dict(v=round(v, 2), halts=len(halts), **pm, **pn)

def f_loops_rand(rng):
    W = Walker(); v = rng.uniform(0.6, 1.5); R = rng.uniform(1.5, 10)
    for _ in range(rng.randint(3, 8)):
        W.go(rng.uniform(5, 40))
        for _ in range(rng.randint(1, 5)): W.turn(2 * math.pi * rng.choice([1, -1]), R)
    W.go(40); T = W.length() / v; m1, pm = m1_mix(rng, T)
    kw, pn = noise(rng) if rng.random() < 0.5 else ({}, {})
    return W.pts, (lambda t: v), T, m1, kw, "walking", dict(R=round(R, 1), v=round(v, 2), **pm, **pn)

def f_shuttle_halts(rng):  # back and forth between two points 10-40 m, halt at each end with -1
    W = Walker(); Lp = rng.uniform(10, 40); v = rng.uniform(0.8, 1.5); t = 0; halts = []; reps = rng.randint(8, 30)
    hd = (rng.uniform(2, 8), rng.uniform(8, 30))
    for _ in range(reps):
        W.go(Lp); t += Lp / v; d = rng.uniform(*hd); halts.append((t, t + d)); t += d
        r = rng.uniform(0.3, 1); W.turn(math.pi * rng.choice([1, -1]), r); t += math.pi * r / v
    W.go(30); T = t + 30; ext = rng.uniform(0, 10); p = rng.uniform(0, 0.4)
    sf = lambda tt: 0.0 if inw(halts, tt) else v
    m1w = [(a, b + ext) for a, b in halts]
    kw, pn = noise(rng) if rng.random() < 0.5 else ({}, {})
    return W.pts, sf, T, (lambda tt, vv, r: inw(m1w, tt) or r.random() < p), kw, "walking", dict(Lp=round(Lp, 1), v=round(v, 2), reps=reps, ext=int(ext), p=round(p, 2), **pn)

def f_shuttle_run(rng):  # running shuttle (10-40 m) / small track laps, random -1
    W = Walker(); v = rng.uniform(2.0, 4.0); kind = rng.choice(["shuttle", "laps"])
    if kind == "shuttle": Lp = rng.uniform(10, 40); shuttle(rng, W, Lp, rng.randint(20, 60))
    else:
        Lp = rng.uniform(8, 25)
        for _ in range(rng.randint(10, 40)): W.turn(2 * math.pi, Lp)
    T = min(W.length() / v, 1500); m1, pm = m1_mix(rng, T)
    kw, pn = noise(rng) if rng.random() < 0.5 else ({}, {})
    return W.pts, (lambda t: v), T, m1, kw, "running", dict(kind=kind, L=round(Lp, 1), v=round(v, 2), **pm, **pn)

def f_pace_scaled(rng):
    pts, sf, T, m1, kw, prof, p = f_pace_rand(rng); sc = rng.uniform(0.7, 1.3); kw["scale"] = sc; p["scale"] = round(sc, 2)
    return pts, sf, T, m1, kw, prof, p

def f_pace_sparse(rng):
    pts, sf, T, m1, kw, prof, p = f_pace_rand(rng); dt = rng.choice([2, 3, 5]); kw["dt"] = dt; p["dt"] = dt
    return pts, sf, T, m1, kw, prof, p

G.FAM.update(pace_rand=f_pace_rand, aisles=f_aisles, loops_rand=f_loops_rand, shuttle_halts=f_shuttle_halts,
             shuttle_run=f_shuttle_run, pace_scaled=f_pace_scaled, pace_sparse=f_pace_sparse)
NEW = ["pace_rand", "aisles", "loops_rand", "shuttle_halts", "shuttle_run", "pace_scaled", "pace_sparse"]
if __name__ == "__main__":
    if sys.argv[1] == "--case": print(json.dumps(G.case((sys.argv[2], int(sys.argv[3]))), indent=1)); sys.exit()
    fams = sys.argv[2] if len(sys.argv) > 2 else ",".join(NEW)
    sys.argv = ["gen53", sys.argv[1], fams, "0", os.path.join(G.W0, "results_b.json")]
    exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen53.py")).read().split('if __name__ == "__main__":')[1].replace("\n    ", "\n"), G.__dict__)
