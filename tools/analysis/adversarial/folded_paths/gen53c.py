#!/usr/bin/env python3
"""Third batch: wander within a small area (playground / yard / room), random -1; plus more pace_rand seeds.
Usage: python3 gen53c.py N fams seed0 out.json"""
import sys, math, json, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen53 as G, gen53b as B
from gen53 import Walker, noise

def f_wander_area(rng):  # random waypoints inside a box of side S, straight legs with sharp turns
    S = rng.uniform(8, 30); v = rng.uniform(0.6, 1.4); W = Walker(); x = y = 0.0
    while W.length() < v * rng.uniform(400, 1200):
        nx, ny = rng.uniform(0, S), rng.uniform(0, S); dx, dy = nx - x, ny - y; L = math.hypot(dx, dy)
        if L < 2: continue
        W.h = math.atan2(dy, dx); W.go(L); x, y = W.pts[-1]
    T = W.length() / v; m1, pm = B.m1_mix(rng, T)
    kw, pn = noise(rng) if rng.random() < 0.5 else ({}, {})
    return W.pts, (lambda t: v), T, m1, kw, "walking", dict(S=round(S, 1), v=round(v, 2), **pm, **pn)
G.FAM.update(wander_area=f_wander_area)
if __name__ == "__main__":
    if sys.argv[1] == "--case": print(json.dumps(G.case((sys.argv[2], int(sys.argv[3]))), indent=1)); sys.exit()
    sys.argv = ["gen53"] + sys.argv[1:]
    exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen53.py")).read().split('if __name__ == "__main__":')[1].replace("\n    ", "\n"), G.__dict__)
