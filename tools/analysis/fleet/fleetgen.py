#!/usr/bin/env python3
"""Fleet scenarios with known truth (local ENU frame around a Mountain View point).

A scenario is a timeline of ("stop", seconds, kind, ignition_off) and ("drive", [waypoints (x,y)], cruise m/s,
{node_index: speed_limit}) items. Truth at 1 Hz; sampling every INTERVAL s (HEARTBEAT s while the ignition is
off); Gauss-Markov error sigma 5 m, tau 60 s; multipath models:
  iid:A-B:P:R1-R2   with probability P per fix a run of R1..R2 fixes offset A..B m (one direction, +-10 %)
  canyon:A-B:P:M1-M2 with probability P per fix an episode of M1..M2 minutes, offset A..B m drifting (OU)
Multipath applies only while stopped unless --mp-all. Speed column: zero | none | noisy (stopped reads 0.3-2 km/h)
Writes NAME.csv and NAME.truth.json.
"""
import argparse, json, math, random, datetime as dt

R = 6371008.8
LAT0, LON0 = 37.4263, -122.0936


def ll(x, y):
    return LAT0 + math.degrees(y / R), LON0 + math.degrees(x / (R * math.cos(math.radians(LAT0))))


def polyline_nodes(wps, step=1.0):
    """1 m nodes along the polyline; returns pts, cum, and index of each waypoint."""
    pts = [wps[0]]; cum = [0.0]; widx = [0]
    for a, b in zip(wps, wps[1:]):
        d = math.dist(a, b); n = max(1, int(round(d / step)))
        for k in range(1, n + 1):
            t = k / n
            pts.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)); cum.append(cum[-1] + d / n)
        widx.append(len(pts) - 1)
    return pts, cum, widx


def turn_limit(a, b, c):
    h1 = math.atan2(b[1] - a[1], b[0] - a[0]); h2 = math.atan2(c[1] - b[1], c[0] - b[0])
    dh = abs((math.degrees(h2 - h1) + 180) % 360 - 180)
    if dh < 20: return None
    if dh > 150: return 1.0  # U-turn / three-point turn
    if dh > 60: return 4.0
    return 7.0


def drive_profile(wps, cruise, acc=1.2, dec=1.8, nodes=polyline_nodes):
    """Speeds and times along the polyline: cruise, limited at turns, accelerating at `acc` and braking at `dec`
    (m/s²) from and to rest; `nodes` lays the polyline's nodes (as `polyline_nodes`)."""
    pts, cum, widx = nodes(wps)
    n = len(pts); v = [cruise] * n
    for k in range(1, len(wps) - 1):
        lim = turn_limit(wps[k - 1], wps[k], wps[k + 1])
        if lim is not None: v[widx[k]] = min(v[widx[k]], lim)
    v[0] = v[-1] = 0.0
    for i in range(1, n): v[i] = min(v[i], math.sqrt(v[i - 1] ** 2 + 2 * acc * (cum[i] - cum[i - 1])))
    for i in range(n - 2, -1, -1): v[i] = min(v[i], math.sqrt(v[i + 1] ** 2 + 2 * dec * (cum[i + 1] - cum[i])))
    tn = [0.0]
    for i in range(1, n):
        vm = max(0.5 * (v[i - 1] + v[i]), 0.3); tn.append(tn[-1] + (cum[i] - cum[i - 1]) / vm)
    return pts, cum, v, tn


def build(timeline, t0):
    """truth: list of (t, x, y, speed, course, state, ign_off)"""
    truth = []; stops = []; trips = []; t = t0; pos = None; total = 0.0
    for item in timeline:
        if item[0] == "at":
            pos = item[1]; continue
        if item[0] == "stop":
            _, secs, kind, ign_off = item
            stops.append({"kind": kind, "start": t, "end": t + secs, "x": pos[0], "y": pos[1], "seconds": secs,
                          "ign_off": ign_off})
            for k in range(int(secs)):
                truth.append((t + k, pos[0], pos[1], 0.0, None, "stopped", ign_off))
            t += secs
        else:
            _, wps, cruise = item
            if pos is not None: assert math.dist(pos, wps[0]) < 1e-6, (pos, wps[0])
            pts, cum, v, tn = drive_profile(wps, cruise)
            T = tn[-1]; j = 0; k = 0.0
            while k < T:
                while j < len(pts) - 2 and tn[j + 1] <= k: j += 1
                f = (k - tn[j]) / max(tn[j + 1] - tn[j], 1e-9)
                x = pts[j][0] + (pts[j + 1][0] - pts[j][0]) * f; y = pts[j][1] + (pts[j + 1][1] - pts[j][1]) * f
                sp = v[j] + (v[j + 1] - v[j]) * f
                crs = (90 - math.degrees(math.atan2(pts[j + 1][1] - pts[j][1], pts[j + 1][0] - pts[j][0]))) % 360
                truth.append((t + k, x, y, sp, crs, "moving", False)); k += 1.0
            trips.append({"start": t, "end": t + T, "distance_m": cum[-1]}); total += cum[-1]
            t += T; pos = wps[-1]
    truth.append((t, pos[0], pos[1], 0.0, None, "stopped", True))
    return truth, stops, trips, total


def merge_trips(trips, stops, min_stop):
    """truth trips = drives separated by stops >= min_stop (short halts are inside a trip)."""
    out = []
    for tr in trips:
        if out and not any(s["seconds"] >= min_stop and out[-1]["end"] - 1 <= s["start"] <= tr["start"] + 1 for s in stops):
            out[-1] = {"start": out[-1]["start"], "end": tr["end"], "distance_m": out[-1]["distance_m"] + tr["distance_m"]}
        else:
            out.append(dict(tr))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name"); ap.add_argument("--scenario", required=True)
    ap.add_argument("--interval", type=float, default=30); ap.add_argument("--heartbeat", type=float, default=0)
    ap.add_argument("--speed", default="zero", choices=["zero", "none", "noisy"])
    ap.add_argument("--mp", default="", help="multipath model (see doc)"); ap.add_argument("--mp-all", action="store_true")
    ap.add_argument("--seed", type=int, default=1); ap.add_argument("--sigma", type=float, default=5.0)
    ap.add_argument("--hours", type=float, default=8); ap.add_argument("--min-stop", type=float, default=90)
    ap.add_argument("--jitter", type=float, default=0.0)
    ap.add_argument("--outdir", default=".")
    a = ap.parse_args(); rnd = random.Random(a.seed)
    t0 = dt.datetime(2024, 3, 6, 6, 0, tzinfo=dt.timezone.utc).timestamp()
    sc = __import__("scenarios").SCENARIOS[a.scenario]
    timeline = sc(rnd, a)
    truth, stops, trips, total = build(timeline, t0)
    ttrips = merge_trips(trips, stops, a.min_stop)
    tstops = [s for s in stops if s["seconds"] >= a.min_stop]
    # sampling
    times = []; i = 0; n = len(truth)
    while i < n:
        times.append(i)
        st = truth[i]
        step = a.heartbeat if (a.heartbeat and st[6]) else a.interval * (1 + a.jitter * (2 * rnd.random() - 1))
        step = max(1, int(round(step)))
        # ignition on: first fix right after the heartbeat period ends
        j = i + 1
        while j < n and j < i + step:
            if a.heartbeat and truth[i][6] and not truth[j][6]: break
            j += 1
        i = j
    # multipath model
    kind = None
    if a.mp:
        f = a.mp.split(":"); kind = f[0]; A, B = map(float, f[1].split("-")); P = float(f[2]); M1, M2 = map(float, f[3].split("-"))
    ex = rnd.gauss(0, a.sigma); ey = rnd.gauss(0, a.sigma); tprev = None
    run_left = 0; run_off = (0, 0); ep_end = -1; ep_off = [0, 0]; ep_target = 0
    rows = []; jumps = 0
    for i in times:
        t, x, y, sp, crs, state, ign = truth[i]
        if tprev is not None:
            rho = math.exp(-(t - tprev) / 60); q = a.sigma * math.sqrt(1 - rho * rho)
            ex = rho * ex + rnd.gauss(0, q); ey = rho * ey + rnd.gauss(0, q)
        tprev = t
        ox = oy = 0.0; acc = round(max(3.0, rnd.gauss(a.sigma, 1.5)), 1); bad = False
        eligible = a.mp_all or state == "stopped"
        if kind == "iid":
            if run_left == 0 and eligible and rnd.random() < P:
                run_left = rnd.randint(int(M1), int(M2)); m = rnd.uniform(A, B); ang = rnd.uniform(0, 2 * math.pi)
                run_off = (m * math.cos(ang), m * math.sin(ang))
            if run_left > 0:
                s = rnd.uniform(0.9, 1.1); ox, oy = run_off[0] * s, run_off[1] * s; run_left -= 1; bad = True
        elif kind == "canyon":
            if t > ep_end and eligible and rnd.random() < P:
                ep_end = t + 60 * rnd.uniform(M1, M2); m = rnd.uniform(A, B); ang = rnd.uniform(0, 2 * math.pi)
                ep_off = [m * math.cos(ang), m * math.sin(ang)]
            if t <= ep_end:
                ep_off[0] += rnd.gauss(0, 5); ep_off[1] += rnd.gauss(0, 5)
                ox, oy = ep_off; bad = True
        if bad: jumps += 1; acc = round(rnd.uniform(4, 10), 1)
        la, lo = ll(x + ex + ox, y + ey + oy)
        if a.speed == "none": spk = None
        elif state == "moving" and sp > 0.5: spk = max(0.0, sp + rnd.gauss(0, 0.3)) * 3.6
        elif a.speed == "noisy": spk = rnd.uniform(0.3, 2.0)
        else: spk = 0.0
        c = ((crs + rnd.gauss(0, 3)) % 360) if crs is not None else 0.0
        rows.append((t, la, lo, spk, c, acc, bad, state, x, y))
    iso = lambda t: dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    base = f"{a.outdir}/{a.name}"
    with open(base + ".csv", "w") as fh:
        fh.write("time,latitude,longitude,accuracy\n" if a.speed == "none" else "time,latitude,longitude,speed_kmh,course,accuracy\n")
        for t, la, lo, spk, c, acc, bad, st, _, _ in rows:
            if spk is None: fh.write(f"{iso(t)},{la:.6f},{lo:.6f},{acc}\n")
            else: fh.write(f"{iso(t)},{la:.6f},{lo:.6f},{spk:.1f},{c:.0f},{acc}\n")
    with open(base + ".fixtruth.csv", "w") as fh:
        fh.write("time,x,y,state,bad\n")
        for t, la, lo, spk, c, acc, bad, st, x, y in rows: fh.write(f"{iso(t)},{x:.1f},{y:.1f},{st},{int(bad)}\n")
    info = {"scenario": a.scenario, "args": vars(a), "total_m": total, "fixes": len(rows), "bad_fixes": jumps,
            "start": iso(truth[0][0]), "end": iso(truth[-1][0]),
            "trips": [{**t, "start": iso(t["start"]), "end": iso(t["end"])} for t in ttrips],
            "legs": [{**t, "start": iso(t["start"]), "end": iso(t["end"])} for t in trips],
            "stops": [{**s, "start": iso(s["start"]), "end": iso(s["end"])} for s in tstops],
            "halts": [{**s, "start": iso(s["start"]), "end": iso(s["end"])} for s in stops if s["seconds"] < a.min_stop]}
    json.dump(info, open(base + ".truth.json", "w"), indent=1)


if __name__ == "__main__":
    import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); main()
