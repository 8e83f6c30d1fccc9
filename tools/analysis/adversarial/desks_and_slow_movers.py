#!/usr/bin/env python3
"""Adversarial generated tracks (2026-12-05, written by a tester session): desks (Doppler noise at rest) and slow movers: pacers, window shoppers, queues, slow walks.
Seeded tracks with known true distance, run through two builds of `truetrack process` (TT_BEFORE, TT_AFTER; both
default to .build/release/truetrack) and compared by family (better / worse by more than 2 points). Cases and results
go under TT_WORK (default /tmp/tt-adversarial). They caught what the friendly sets missed: see docs/ARCHITECTURE.md,
"Doppler noise at rest judged by chords" and "Not adopted: a run of missing readings counted as its chord".
Seeded track generator + BEFORE/AFTER comparer. Usage: python3 tools/analysis/adversarial/desks_and_slow_movers.py [N_PER_FAMILY]
Reproduce a case: python3 tools/analysis/adversarial/desks_and_slow_movers.py --one FAMILY SEED  (writes cases/FAMILY_SEED.csv and prints results)"""
import math, random, json, subprocess, sys, os
from multiprocessing import Pool
BEFORE = os.environ.get("TT_BEFORE", ".build/release/truetrack"); AFTER = os.environ.get("TT_AFTER", ".build/release/truetrack")
OUT = os.path.join(os.environ.get("TT_WORK", "/tmp/tt-adversarial"), "desks", "cases")
os.makedirs(OUT, exist_ok=True)
LAT0, LON0, T0 = 48.2, 11.5, 1764892800000
MLAT = 111320.0; MLON = 111320.0 * math.cos(math.radians(LAT0))

class PosNoise:
    def __init__(s, r, kind, sigma, tau=90.0):
        s.r, s.kind, s.sigma, s.tau = r, kind, sigma, tau; s.e = [r.gauss(0, sigma), r.gauss(0, sigma)]
    def step(s, dt):
        if s.kind == "white": return (s.r.gauss(0, s.sigma), s.r.gauss(0, s.sigma))
        a = math.exp(-dt / s.tau); b = math.sqrt(1 - a * a) * s.sigma
        s.e = [s.e[0] * a + b * s.r.gauss(0, 1), s.e[1] * a + b * s.r.gauss(0, 1)]
        return tuple(s.e)

def spd_noise(r, model):
    if model == "uni": return r.uniform(0.3, 0.6)
    if model == "absN": return abs(r.gauss(0, 0.4))
    if model == "clipN": return max(0.0, r.gauss(0, 0.3))
    if model == "c02": return 0.2
    if model == "none": return -1
    raise ValueError(model)

def build(fam, seed):
    """returns (rows, true_dist, profile, params). Truth simulated at 1 Hz, then logged every `every` s."""
    r = random.Random(f"{fam}:{seed}")
    p = {"fam": fam, "seed": seed}
    prof = "walking"; every = 1
    # segments: list of (duration_s, speed m/s or 0 for stop)
    segs = []; turn = 0.0; pace_len = None; rest_model = "clipN"; bias = 1.0; dopsd = 0.08
    if fam == "desk":
        dur = r.choice([600, 1200, 1800, 3600]); segs = [(dur, 0.0)]
        rest_model = r.choice(["uni", "absN", "clipN", "c02"])
        p.update(dur=dur, spd=rest_model)
    elif fam == "desk_w15":  # white noise, stated accuracy = 1.5*sigma, 30 min
        dur = 1800; segs = [(dur, 0.0)]; rest_model = r.choice(["uni", "absN"]); p.update(dur=dur, spd=rest_model)
    elif fam == "slow_walk":
        v = r.uniform(0.3, 0.6); dur = r.choice([600, 1200, 1800]); segs = [(dur, v)]; turn = r.uniform(0, 0.15)
        p.update(v=round(v, 2), dur=dur)
    elif fam == "pacing":
        v = r.uniform(0.4, 1.0); pace_len = r.uniform(3, 10); dur = r.choice([600, 1200]); segs = [(dur, v)]
        p.update(v=round(v, 2), L=round(pace_len, 1), dur=dur)
    elif fam == "many_stops":
        v = r.uniform(0.9, 1.4); n = r.randint(8, 20)
        for _ in range(n): segs += [(r.randint(15, 90), v), (r.randint(20, 150), 0.0)]
        rest_model = r.choice(["uni", "absN", "clipN", "c02"]); turn = r.uniform(0, 0.05)
        p.update(v=round(v, 2), n=n, spd=rest_model)
    elif fam == "hiker_sparse":
        v = r.uniform(0.6, 1.3); every = r.choice([2, 3, 4, 5]); dur = r.choice([1200, 2400]); segs = [(dur, v)]; turn = r.uniform(0, 0.1)
        p.update(v=round(v, 2), every=every, dur=dur)
    elif fam == "queue":
        v = r.uniform(0.3, 0.7)
        for _ in range(r.randint(20, 60)): segs += [(r.randint(2, 10), v), (r.randint(3, 30), 0.0)]
        rest_model = r.choice(["uni", "absN", "clipN", "c02"]); turn = 0.0
        p.update(v=round(v, 2), spd=rest_model)
    elif fam == "window_shop":
        v = r.uniform(0.3, 0.7); dur = r.choice([600, 1200]); turn = r.uniform(0.3, 1.0)
        for _ in range(r.randint(5, 15)): segs += [(r.randint(20, 90), v), (r.randint(5, 40), 0.0)]
        rest_model = r.choice(["uni", "absN", "clipN", "c02"]); dopsd = 0.12
        p.update(v=round(v, 2), turn=round(turn, 2), spd=rest_model)
    elif fam == "indoor_coarse":
        v = r.uniform(0.4, 1.0); dur = r.choice([600, 1200]); segs = [(dur, v)]; turn = r.uniform(0.05, 0.3)
        p.update(v=round(v, 2), dur=dur)
    elif fam == "jam":
        prof = "driving"; v = r.uniform(0.3, 0.6)
        mode = r.choice(["creep", "stopgo"])
        if mode == "creep": segs = [(r.choice([600, 1200]), v)]
        else:
            for _ in range(r.randint(20, 50)): segs += [(r.randint(5, 40), v), (r.randint(5, 60), 0.0)]
        rest_model = r.choice(["uni", "absN", "clipN", "c02"]); dopsd = 0.05
        p.update(v=round(v, 2), mode=mode, spd=rest_model)
    elif fam == "biased_low":
        v = r.uniform(0.7, 1.3); bias = 0.5; dur = r.choice([600, 1200]); segs = [(dur, v)]; turn = r.uniform(0, 0.1)
        p.update(v=round(v, 2), dur=dur)
    # position noise
    if fam == "indoor_coarse":
        acc = r.uniform(15, 30); kind = r.choice(["white", "gm"]); sig = acc * r.uniform(0.5, 0.8)
    elif fam == "desk_w15":
        kind = "white"; sig = r.uniform(2, 8); acc = 1.5 * sig
    elif fam == "desk":
        kind = r.choice(["white", "gm"]); sig = r.uniform(2, 8) if kind == "white" else r.uniform(3, 5); acc = r.uniform(4, 10) if kind=="white" else sig*1.3
    else:
        kind = r.choice(["white", "gm"]); sig = r.uniform(2, 10) if kind == "white" else r.uniform(3, 5); acc = max(3.0, sig * r.uniform(1.0, 1.6))
    tau = r.uniform(60, 120); pn = PosNoise(r, kind, sig, tau)
    p.update(pos=kind, sig=round(sig, 1), acc=round(acc, 1), tau=round(tau) if kind == "gm" else None, prof=prof)
    # simulate truth at 1 Hz
    x = y = 0.0; hd = r.uniform(0, 2 * math.pi); t = 0; true = 0.0; rows = []; pace_pos = 0.0; pace_dir = 1
    for (d, v) in segs:
        for _ in range(d):
            if v > 0:
                if pace_len:
                    step = v; pace_pos += pace_dir * step
                    if pace_pos > pace_len: pace_pos = 2 * pace_len - pace_pos; pace_dir = -1
                    if pace_pos < 0: pace_pos = -pace_pos; pace_dir = 1
                    x, y = pace_pos * math.cos(hd), pace_pos * math.sin(hd); cur_hd = hd if pace_dir > 0 else hd + math.pi
                else:
                    hd += r.gauss(0, turn); x += v * math.cos(hd); y += v * math.sin(hd); cur_hd = hd
                true += v
            t += 1
            ex, ey = pn.step(1)
            if t % every: continue
            if v > 0:
                sp = max(0.0, v * bias + r.gauss(0, dopsd)); crs = (90 - math.degrees(cur_hd)) % 360
            else:
                sp = spd_noise(r, rest_model); crs = r.uniform(0, 360) if sp > 0 else -1
            lat = LAT0 + (y + ey) / MLAT; lon = LON0 + (x + ex) / MLON
            a = acc * r.uniform(0.9, 1.1)
            rows.append(f"{T0 + t * 1000},{lat:.8f},{lon:.8f},{a:.1f},{sp:.2f},{crs:.1f}")
    return rows, true, prof, p

def run(binp, path, prof):
    o = subprocess.run(["nice", "-n", "19", binp, "process", path, "--profile", prof, "--json"], capture_output=True, text=True)
    return json.loads(o.stdout)["distanceMetres"]

def case(args):
    fam, seed = args
    rows, true, prof, p = build(fam, seed)
    path = f"{OUT}/{fam}_{seed}.csv"
    with open(path, "w") as f: f.write("timestamp,latitude,longitude,accuracy,speed,course\n" + "\n".join(rows) + "\n")
    b, a = run(BEFORE, path, prof), run(AFTER, path, prof)
    dur_h = (len(rows) * (p.get("every", 1))) / 3600
    return dict(p, true=round(true, 1), before=b, after=a, hours=dur_h)

FAMS = ["window_shop", "slow_walk", "pacing", "many_stops", "hiker_sparse", "queue", "indoor_coarse", "jam", "biased_low", "desk"]
if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(case((sys.argv[2], int(sys.argv[3])))); sys.exit()
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    fams = sys.argv[2].split(",") if len(sys.argv) > 2 else FAMS
    jobs = [(f, s) for f in fams for s in range(n)]
    with Pool(2) as pool: res = pool.map(case, jobs, chunksize=4)
    json.dump(res, open(os.environ.get("RES", os.path.join(os.environ.get("TT_WORK", "/tmp/tt-adversarial"), "desks", "results.json")), "w"), indent=0)
    print("done", len(res))
