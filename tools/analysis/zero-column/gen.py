#!/usr/bin/env python3
"""Tester s25: fleet / courier test set with known truth.

    python3 tools/analysis/zero-column/gen.py OUTDIR

Writes OUTDIR/<group>/<name>.csv (time,latitude,longitude,accuracy[,speed]) and <name>.truth.json.
Groups:
  day-city / day-rural  delivery days (4-8 h, 20-40 stops of 2-15 min), intervals 1/5/10/30 s,
                        speed kinds zero (all 0), true (true speed + N(0,0.25), exact 0 while halted), none.
                        One 1 Hz master per seed; sparser files are every k-th row of it (same errors).
  parked                8 h parked under zeros (and a no-column control), multipath jumps / drifts / both.
  walk / cycle          a walking courier and a bicycle courier (zero / true / none).
GPS error: per axis Gauss-Markov sigma 3-8 m (tau 60 s) + white 1-3 m; accuracy column 4-10 m.
Truth distance = haversine length of the dense (1 m) truth polyline between the arc lengths.
"""
import json, math, os, sys, datetime as dt
import numpy as np

R = 6371008.8
LAT0, LON0 = 51.2, 6.8
T0 = dt.datetime(2025, 6, 2, 7, 0, 0, tzinfo=dt.timezone.utc)
OUT = sys.argv[1] if len(sys.argv) > 1 else "t/data"


def iso(t):
    return (T0 + dt.timedelta(seconds=float(t))).strftime("%Y-%m-%dT%H:%M:%SZ")


class Route:
    """Dense polyline at ~1 m steps; caps = speed cap at each point; halts = {point index: wait seconds}."""

    def __init__(self, rng):
        self.x = [0.0]; self.y = [0.0]; self.cap = [0.0]; self.h = rng.uniform(0, 2 * math.pi)
        self.halts = {}  # index -> (wait, kind)

    def straight(self, L, cap):
        n = max(1, int(round(L)))
        step = L / n
        for _ in range(n):
            self.x.append(self.x[-1] + step * math.cos(self.h)); self.y.append(self.y[-1] + step * math.sin(self.h))
            self.cap.append(cap)

    def arc(self, angle, radius, cap):
        L = abs(angle) * radius
        n = max(1, int(round(L)))
        step = L / n; dh = angle / n
        for _ in range(n):
            self.h += dh / 2
            self.x.append(self.x[-1] + step * math.cos(self.h)); self.y.append(self.y[-1] + step * math.sin(self.h))
            self.h += dh / 2
            self.cap.append(cap)
        return L

    def halt(self, wait, kind):
        i = len(self.x) - 1
        if i > 0:
            self.cap[i] = 0.0
            self.halts[i] = (wait, kind)


def city_leg(rt, L, rng, cruise, light_p, seg=(100, 300), turn_r=(8, 14), alat=2.5, light_wait=(20, 90)):
    done = 0.0
    while done < L:
        s = min(rng.uniform(*seg), L - done)
        rt.straight(s, cruise); done += s
        if done >= L - 1:
            break
        if rng.random() < light_p:
            rt.halt(rng.uniform(*light_wait), "light")
        c = rng.random()
        if c < 0.85:
            r = rng.uniform(*turn_r)
            done += rt.arc((math.pi / 2) * (1 if c < 0.425 else -1), r, math.sqrt(alat * r))


def rural_leg(rt, L, rng):
    done = 0.0
    while done < L:
        if rng.random() < 0.35:
            s = min(rng.uniform(200, 1500), L - done)
            rt.straight(s, rng.uniform(22, 25)); done += s
        else:
            r = rng.uniform(60, 600)
            ang = math.radians(rng.uniform(15, 120)) * rng.choice([-1, 1])
            ang = math.copysign(min(abs(ang), (L - done) / r), ang)
            if abs(ang) * r < 1:
                break
            done += rt.arc(ang, r, min(24.0, math.sqrt(2.0 * r)))


def speed_profile(x, y, cap, acc, dec):
    """v at each point of a stretch that starts and ends at rest."""
    n = len(x)
    ds = np.hypot(np.diff(x), np.diff(y))
    v = np.array(cap, float); v[0] = 0; v[-1] = 0
    for i in range(n - 2, -1, -1):
        v[i] = min(v[i], math.sqrt(v[i + 1] ** 2 + 2 * dec * ds[i]))
    for i in range(1, n):
        v[i] = min(v[i], math.sqrt(v[i - 1] ** 2 + 2 * acc * ds[i - 1]))
    return v, ds


class Day:
    """Timeline: dense positions with time knots; stops and trips as truth."""

    def __init__(self, rng):
        self.rng = rng
        self.X = [0.0]; self.Y = [0.0]; self.T = [0.0]; self.V = [0.0]
        self.stops = []; self.lights = []; self.trip_idx = []  # (start point idx, end point idx, t0, t1)

    def dwell(self, w, kind):
        t0 = self.T[-1]
        self.X.append(self.X[-1]); self.Y.append(self.Y[-1]); self.T.append(t0 + w); self.V.append(0.0)
        (self.stops if kind == "stop" else self.lights).append([t0, t0 + w])

    def drive(self, rt, acc, dec):
        """Append a route (starting at the current position and at rest)."""
        ox, oy = self.X[-1], self.Y[-1]
        xs = np.array(rt.x) + ox; ys = np.array(rt.y) + oy
        cuts = [0] + sorted(rt.halts) + [len(xs) - 1]
        start_idx = len(self.X) - 1; t_start = self.T[-1]
        for a, b in zip(cuts[:-1], cuts[1:]):
            if b <= a:
                continue
            v, ds = speed_profile(xs[a:b + 1], ys[a:b + 1], rt.cap[a:b + 1], acc, dec)
            for i in range(1, len(v)):
                dtm = 2 * ds[i - 1] / max(v[i] + v[i - 1], 0.3)
                self.X.append(xs[a + i]); self.Y.append(ys[a + i]); self.T.append(self.T[-1] + dtm)
                self.V.append(v[i])
            if b in rt.halts:
                self.dwell(*rt.halts[b])
        self.trip_idx.append((start_idx, len(self.X) - 1, t_start, self.T[-1]))
        # carry the heading on
        return rt.h

    def finish(self):
        X = np.array(self.X); Y = np.array(self.Y); T = np.array(self.T); V = np.array(self.V)
        # ensure strictly increasing T (dwell points have the same position): drop zero-duration knots
        keep = np.concatenate([[True], np.diff(T) > 1e-9])
        self.X, self.Y, self.T, self.V = X[keep], Y[keep], T[keep], V[keep]
        remap = np.cumsum(keep) - 1
        self.trip_idx = [(remap[a], remap[b], t0, t1) for a, b, t0, t1 in self.trip_idx]
        lat, lon = to_ll(self.X, self.Y)
        self.lat, self.lon = lat, lon
        self.S = np.concatenate([[0], np.cumsum(hav(lat[:-1], lon[:-1], lat[1:], lon[1:]))])

    def truth(self):
        trips = []
        for a, b, t0, t1 in self.trip_idx:
            trips.append({"start": t0, "end": t1, "distance": float(self.S[b] - self.S[a])})
        return {"distance": float(self.S[-1]), "trips": trips, "stops": self.stops, "lights": self.lights,
                "duration": float(self.T[-1])}

    def sample(self, step=1.0):
        t = np.arange(0, math.floor(self.T[-1]) + 1e-9, step)
        x = np.interp(t, self.T, self.X); y = np.interp(t, self.T, self.Y); v = np.interp(t, self.T, self.V)
        return t, x, y, v


def to_ll(x, y):
    lat = LAT0 + np.degrees(np.asarray(y) / R)
    lon = LON0 + np.degrees(np.asarray(x) / (R * np.cos(np.radians(lat))))
    return lat, lon


def hav(la1, lo1, la2, lo2):
    la1, lo1, la2, lo2 = map(np.radians, (la1, lo1, la2, lo2))
    a = np.sin((la2 - la1) / 2) ** 2 + np.cos(la1) * np.cos(la2) * np.sin((lo2 - lo1) / 2) ** 2
    return 2 * R * np.arcsin(np.sqrt(np.minimum(1, a)))


def gps_error(n, rng, sig_gm, sig_w, tau=60.0):
    phi = math.exp(-1 / tau); q = math.sqrt(1 - phi * phi)
    e = np.zeros((n, 2)); e[0] = rng.normal(0, sig_gm, 2)
    w = rng.normal(0, 1, (n, 2))
    for i in range(1, n):
        e[i] = phi * e[i - 1] + q * sig_gm * w[i]
    return e + rng.normal(0, sig_w, (n, 2))


def write_csv(path, t, x, y, acc, speed):
    lat, lon = to_ll(x, y)
    with open(path, "w") as f:
        f.write("time,latitude,longitude,accuracy" + (",speed\n" if speed is not None else "\n"))
        for i in range(len(t)):
            row = f"{iso(t[i])},{lat[i]:.7f},{lon[i]:.7f},{acc[i]:.1f}"
            if speed is not None:
                row += f",{speed[i]:.2f}"
            f.write(row + "\n")


def chord_truth(x, y):
    lat, lon = to_ll(x, y)
    return float(np.sum(hav(lat[:-1], lon[:-1], lat[1:], lon[1:])))


def emit(group, name, day, t, x, y, v, rng, intervals, kinds, extra=None):
    os.makedirs(f"{OUT}/{group}", exist_ok=True)
    sig_gm = rng.uniform(3, 8); sig_w = rng.uniform(1, 3)
    e = gps_error(len(t), rng, sig_gm, sig_w)
    base_acc = math.hypot(sig_gm, sig_w)
    acc = np.clip(base_acc * rng.uniform(0.8, 1.2, len(t)), 4, 10)
    vnoisy = np.where(v < 0.05, 0.0, np.clip(v + rng.normal(0, 0.25, len(t)), 0, None))
    truth = day.truth() if day is not None else extra
    for iv in intervals:
        k = int(iv)
        sl = slice(0, None, k)
        for kind in kinds:
            sp = {"zero": np.zeros(len(t)), "true": vnoisy, "none": None}[kind]
            fn = f"{OUT}/{group}/{name}-{iv}s-{kind}"
            write_csv(fn + ".csv", t[sl], x[sl] + e[sl, 0], y[sl] + e[sl, 1], acc[sl],
                      None if sp is None else sp[sl])
            tr = dict(truth); tr.update({"interval": iv, "kind": kind, "group": group, "sigma_gm": sig_gm,
                                         "sigma_white": sig_w, "chord_truth": chord_truth(x[sl], y[sl])})
            json.dump(tr, open(fn + ".truth.json", "w"), indent=1)


def delivery_day(seed, kind):
    rng = np.random.default_rng(1000 * seed + (1 if kind == "city" else 2))
    while True:
        day = Day(rng)
        day.dwell(rng.uniform(300, 600), "stop")  # depot
        nst = int(rng.integers(20, 41)) if kind == "city" else int(rng.integers(20, 27))
        for i in range(nst + 1):
            rt = Route(rng)
            rt.h = rng.uniform(0, 2 * math.pi)
            if kind == "city":
                L = float(np.clip(rng.lognormal(math.log(1500), 0.6), 500, 10000))
                city_leg(rt, L, rng, rng.uniform(12, 14.5), 0.3)
            else:
                L = rng.uniform(2000, 10000)
                a = rng.uniform(300, 800); b = rng.uniform(300, 800)
                city_leg(rt, a, rng, 13.0, 0.3)
                rural_leg(rt, max(200, L - a - b), rng)
                city_leg(rt, b, rng, 13.0, 0.3)
            day.drive(rt, rng.uniform(1.2, 2.0), rng.uniform(1.8, 2.5))
            day.dwell(rng.uniform(120, 900) if i < nst else rng.uniform(300, 600), "stop")
        day.finish()
        hours = day.T[-1] / 3600
        if 4 <= hours <= 8:
            return day, rng


def courier_day(seed, mode):
    rng = np.random.default_rng(5000 * seed + (7 if mode == "walk" else 8))
    while True:
        day = Day(rng)
        day.dwell(rng.uniform(180, 400), "stop")
        nst = int(rng.integers(20, 31))
        for i in range(nst + 1):
            rt = Route(rng)
            if mode == "walk":
                L = rng.uniform(100, 800)
                city_leg(rt, L, rng, rng.uniform(1.3, 1.5), 0.3, seg=(60, 150), turn_r=(2, 3), alat=0.8,
                         light_wait=(5, 30))
                day.drive(rt, 0.5, 0.7)
                day.dwell(rng.uniform(120, 480), "stop")
            else:
                L = float(np.clip(rng.lognormal(math.log(1500), 0.5), 500, 4000))
                city_leg(rt, L, rng, rng.uniform(5, 6.5), 0.3, turn_r=(5, 8), alat=2.0)
                day.drive(rt, 1.0, 1.5)
                day.dwell(rng.uniform(120, 600), "stop")
        day.finish()
        if 2.5 <= day.T[-1] / 3600 <= 8:
            return day, rng


def parked(seed, mp):
    rng = np.random.default_rng(9000 + seed * 10 + {"jumps": 1, "drift": 2, "both": 3}[mp])
    dur = 8 * 3600
    t = np.arange(0, dur + 1e-9, 1.0)
    sig_gm = rng.uniform(3, 8); sig_w = rng.uniform(1, 3)
    e = gps_error(len(t), rng, sig_gm, sig_w)
    acc = np.clip(math.hypot(sig_gm, sig_w) * rng.uniform(0.8, 1.2, len(t)), 4, 10)
    os.makedirs(f"{OUT}/parked", exist_ok=True)
    # drift excursions (over minutes) shared by every interval
    drift = np.zeros((len(t), 2)); ndr = 0
    if mp in ("drift", "both"):
        ndr = int(rng.integers(6, 11))
        for _ in range(ndr):
            T = rng.uniform(120, 600); A = rng.uniform(30, 200); c = rng.uniform(0, dur - T)
            d = rng.uniform(0, 2 * math.pi)
            m = (t >= c) & (t <= c + T)
            amp = A * np.sin(math.pi * (t[m] - c) / T)
            drift[m, 0] += amp * math.cos(d); drift[m, 1] += amp * math.sin(d)
    for iv in (1, 5, 10, 30):
        sl = slice(0, None, iv)
        tt = t[sl]; ex = e[sl] + drift[sl]; n = len(tt)
        jumped = 0
        if mp in ("jumps", "both"):
            jr = np.random.default_rng(rng.integers(1 << 30))
            i = int(jr.integers(5, 50))
            while i < n:
                L = int(jr.integers(1, 6)); A = jr.uniform(50, 500); d = jr.uniform(0, 2 * math.pi)
                for j in range(i, min(n, i + L)):
                    ex[j, 0] += A * math.cos(d) + jr.normal(0, 0.1 * A)
                    ex[j, 1] += A * math.sin(d) + jr.normal(0, 0.1 * A)
                    jumped += 1
                # about 4 % of fixes jumped
                i += L + int(jr.integers(20, 130))
        for kind in ("zero", "none"):
            fn = f"{OUT}/parked/parked{seed}-{mp}-{iv}s-{kind}"
            write_csv(fn + ".csv", tt, ex[:, 0], ex[:, 1], acc[sl], np.zeros(n) if kind == "zero" else None)
            json.dump({"distance": 0.0, "trips": [], "stops": [[0, float(tt[-1])]], "lights": [],
                       "duration": float(tt[-1]), "interval": iv, "kind": kind, "group": "parked",
                       "sigma_gm": sig_gm, "sigma_white": sig_w, "chord_truth": 0.0,
                       "jumped_fixes": jumped, "fixes": n, "drift_events": ndr}, open(fn + ".truth.json", "w"), indent=1)


if __name__ == "__main__":
    for kind in ("city", "rural"):
        for seed in (1, 2, 3):
            day, rng = delivery_day(seed, kind)
            t, x, y, v = day.sample(1.0)
            emit(f"day-{kind}", f"{kind}{seed}", day, t, x, y, v, rng, (1, 5, 10, 30), ("zero", "true", "none"))
            print(kind, seed, f"{day.T[-1] / 3600:.2f} h", f"{day.S[-1] / 1000:.1f} km", len(day.stops), "stops",
                  len(day.lights), "lights", flush=True)
    for mode in ("walk", "cycle"):
        for seed in (1, 2):
            day, rng = courier_day(seed, mode)
            t, x, y, v = day.sample(1.0)
            emit(mode, f"{mode}{seed}", day, t, x, y, v, rng, (1, 5, 10, 30), ("zero", "true", "none"))
            print(mode, seed, f"{day.T[-1] / 3600:.2f} h", f"{day.S[-1] / 1000:.1f} km", len(day.stops), "stops",
                  len(day.lights), "halts", flush=True)
    for seed in (1, 2, 3):
        for mp in ("jumps", "drift", "both"):
            parked(seed, mp)
    print("parked done")
