#!/usr/bin/env python3
"""Timelines, truth and noise for courier_families.py (an adversarial reviewer's generator, 2026-12-03).

Timeline items: ("at",(x,y)) | ("stop",secs) | ("drive",[wps],cruise,accel,decel)
Truth at 1 s; truth distance = exact polyline length of every drive leg.
Noise: gm (Gauss-Markov, sigma per axis, tau), white, or mix (gm + white); stated accuracy ~N(acc,1.5), >=2.
Multipath: while stopped, per fix with prob p a run of 1..2 fixes offset 50..300 m claiming 4..10 m.
"""
import math, random, json, os, bisect, sys, datetime as dt
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fleet'))
from fleetgen import drive_profile  # the fleet set's speeds along a polyline

R = 6371008.8
LAT0, LON0 = 37.4263, -122.0936
T0 = dt.datetime(2024, 3, 6, 6, 0, tzinfo=dt.timezone.utc).timestamp()


def ll(x, y):
    return LAT0 + math.degrees(y / R), LON0 + math.degrees(x / (R * math.cos(math.radians(LAT0))))


def nodes(wps, step=0.5):
    pts = [wps[0]]; cum = [0.0]; widx = [0]
    for a, b in zip(wps, wps[1:]):
        d = math.dist(a, b); n = max(1, int(math.ceil(d / step)))
        for k in range(1, n + 1):
            t = k / n; pts.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)); cum.append(cum[-1] + d / n)
        widx.append(len(pts) - 1)
    return pts, cum, widx


def profile(wps, cruise, acc=1.2, dec=1.8):
    pts, cum, _, tn = drive_profile(wps, cruise, acc, dec, nodes=nodes)
    return pts, cum, tn


class Truth:
    def __init__(self, timeline):
        self.legs = []; t = 0.0; pos = None; self.total = 0.0; self.trips = []
        for it in timeline:
            if it[0] == "at": pos = tuple(it[1]); continue
            if it[0] == "stop":
                if it[1] > 0: self.legs.append((t, t + it[1], "stop", pos)); t += it[1]
                continue
            _, wps, v, a, d = it
            wps = [tuple(p) for p in wps]
            assert pos is None or math.dist(pos, wps[0]) < 1e-6, (pos, wps[0])
            pts, cum, tn = profile(wps, v, a, d)
            self.legs.append((t, t + tn[-1], "move", (pts, cum, tn)))
            self.trips.append((t, tn[-1], cum[-1]))
            self.total += cum[-1]; t += tn[-1]; pos = wps[-1]
        self.end = t; self.starts = [l[0] for l in self.legs]
        self.cum0 = []; c = 0.0
        for l in self.legs:
            self.cum0.append(c)
            if l[2] == "move": c += l[3][1][-1]

    def cum(self, t):
        i = max(0, bisect.bisect_right(self.starts, t) - 1)
        t0, t1, kind, d = self.legs[i]
        if kind == "stop": return self.cum0[i]
        pts, cum, tn = d; k = t - t0
        if k >= tn[-1]: return self.cum0[i] + cum[-1]
        j = max(0, min(len(tn) - 2, bisect.bisect_right(tn, k) - 1))
        f = (k - tn[j]) / max(tn[j + 1] - tn[j], 1e-9)
        return self.cum0[i] + cum[j] + (cum[j + 1] - cum[j]) * f

    def at(self, t):
        i = max(0, bisect.bisect_right(self.starts, t) - 1)
        t0, t1, kind, d = self.legs[i]
        if kind == "stop": return d[0], d[1], False
        pts, cum, tn = d; k = t - t0
        if k >= tn[-1]: return pts[-1][0], pts[-1][1], False
        j = max(0, min(len(tn) - 2, bisect.bisect_right(tn, k) - 1))
        f = (k - tn[j]) / max(tn[j + 1] - tn[j], 1e-9)
        return pts[j][0] + (pts[j + 1][0] - pts[j][0]) * f, pts[j][1] + (pts[j + 1][1] - pts[j][1]) * f, True


def write(path, truth, rnd, cadence, noise="gm", sigma=5.0, wsig=0.0, tau=60.0, acc=5.0, mp=0.0, meta=None):
    ts = []; t = rnd.uniform(0, cadence)
    ts.append(0.0)
    while t < truth.end: ts.append(t); t += cadence
    ts.append(truth.end)
    ts = sorted(set(int(round(x)) for x in ts))
    ex = rnd.gauss(0, sigma); ey = rnd.gauss(0, sigma); tp = None
    run = 0; off = (0, 0); rows = []; nbad = 0
    for t in ts:
        x, y, mov = truth.at(t)
        if tp is not None:
            rho = math.exp(-(t - tp) / tau); q = sigma * math.sqrt(1 - rho * rho)
            ex = rho * ex + rnd.gauss(0, q); ey = rho * ey + rnd.gauss(0, q)
        tp = t
        if noise == "white": nx, ny = rnd.gauss(0, sigma), rnd.gauss(0, sigma)
        elif noise == "mix": nx, ny = ex + rnd.gauss(0, wsig), ey + rnd.gauss(0, wsig)
        else: nx, ny = ex, ey
        a = round(max(2.0, rnd.gauss(acc, 1.5)), 1)
        ox = oy = 0.0
        if mp > 0 and not mov:
            if run == 0 and rnd.random() < mp:
                run = rnd.randint(1, 2); m = rnd.uniform(50, 300); g = rnd.uniform(0, 2 * math.pi); off = (m * math.cos(g), m * math.sin(g))
            if run > 0:
                s = rnd.uniform(0.9, 1.1); ox, oy = off[0] * s, off[1] * s; run -= 1; a = round(rnd.uniform(4, 10), 1); nbad += 1
        elif run > 0: run = 0
        la, lo = ll(x + nx + ox, y + ny + oy)
        iso = dt.datetime.fromtimestamp(T0 + t, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        rows.append(f"{iso},{la:.7f},{lo:.7f},{a}")
    with open(path, "w") as fh:
        fh.write("time,latitude,longitude,accuracy\n"); fh.write("\n".join(rows) + "\n")
    info = {"truth_m": truth.total, "fixes": len(rows), "cadence": cadence, "noise": noise, "sigma": sigma,
            "wsig": wsig, "acc": acc, "mp": mp, "bad": nbad, "hours": truth.end / 3600}
    if meta: info.update(meta)
    json.dump(info, open(path[:-4] + ".truth.json", "w"))
