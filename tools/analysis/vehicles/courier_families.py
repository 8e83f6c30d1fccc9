#!/usr/bin/env python3
"""Vehicle loggers every 5 / 10 / 15 s without a speed column, 26 families (couriers down lanes and back, blocks
circled, dead ends, car parks, drive-throughs, taxi ranks, working days and parked vans with and without multipath,
honest, fleet-like, understated and overstated noise), exact truth. Written by an adversarial reviewer of the
smoother's jump rules (2026-12-03); the set behind the "624 vehicle tracks every 5-15 s" figures in
docs/ARCHITECTURE.md. Seeded: the same files every run.

    python3 tools/analysis/vehicles/courier_families.py OUT_DIR [SEEDS, default 8] [FAMILY ...]
    # -> OUT_DIR/<family>/<family>-c<cad>-s<seed>.csv + .truth.json, OUT_DIR/index.json, OUT_DIR/manifest.json
    python3 tools/analysis/vehicles/compare.py OUT_DIR/manifest.json BEFORE AFTER
"""
import math, random, os, sys, json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from courier_gen import Truth, write

OUT = sys.argv[1] if len(sys.argv) > 1 else "courier-families"


def D(wps, v=10.0, a=1.2, d=1.8):
    return ("drive", [tuple(p) for p in wps], v, a, d)


def S(s): return ("stop", s)


def add(p, u, d): return (p[0] + u[0] * d, p[1] + u[1] * d)


def unit(ang): return (math.cos(ang), math.sin(ang))


def relocate(rnd, P, lo=200, hi=1500):
    """grid drive to a new spot, with 0-2 light halts"""
    d1 = rnd.uniform(lo, hi) * rnd.choice([-1, 1]); d2 = rnd.uniform(lo, hi) * rnd.choice([-1, 1]) * rnd.random()
    Q = (P[0] + d1, P[1]); Rr = (Q[0], Q[1] + d2)
    v = rnd.uniform(9, 14)
    tl = [D([P, Q], v)]
    if rnd.random() < 0.5: tl.append(S(rnd.uniform(15, 70)))
    if abs(d2) > 5: tl.append(D([Q, Rr], v))
    else: Rr = Q
    return tl, Rr


def drivey(rnd):
    return dict(v=rnd.uniform(6, 11), a=rnd.uniform(1.2, 2.5), d=rnd.uniform(1.8, 3.0))


def lane_trip(rnd, P, lo, hi, offmax, lateral=3.0):
    """P at rest -> down a lane d m -> U-turn -> back to within offmax m of P."""
    ang = rnd.uniform(0, 2 * math.pi); u = unit(ang); n = (-u[1], u[0])
    d = rnd.uniform(lo, hi)
    B = add(add(P, u, d), n, lateral * 0.5)
    along = rnd.uniform(-offmax, offmax); lat = rnd.uniform(-1, 1) * min(offmax, lateral)
    P2 = add(add(P, u, along), n, lat)
    while math.dist(P2, P) > offmax + 1e-9:
        along *= 0.9; lat *= 0.9; P2 = add(add(P, u, along), n, lat)
    k = drivey(rnd)
    return D([P, B, P2], **k), P2


# ---------------------------------------------------------------- families
def courier_lane(rnd, lo=40, hi=150, offmax=15, trips=12):
    P = (0.0, 0.0); tl = [("at", P), S(rnd.uniform(120, 600))]
    for i in range(trips):
        leg, P = lane_trip(rnd, P, lo, hi, offmax); tl += [leg, S(rnd.uniform(45, 300))]
        if rnd.random() < 0.3:
            r, P = relocate(rnd, P); tl += r + [S(rnd.uniform(60, 300))]
    return tl


def courier_short(rnd):  # quick couriers, 40-90 m lanes: mostly <= 30 s trips
    return courier_lane(rnd, lo=40, hi=90, offmax=15)


def courier_exact(rnd):  # returns within 0-3 m
    return courier_lane(rnd, lo=40, hi=120, offmax=3)


def block_circle(rnd, small=True, loops=10):
    P = (0.0, 0.0); tl = [("at", P), S(rnd.uniform(120, 600))]
    for i in range(loops):
        w = rnd.uniform(20, 50) if small else rnd.uniform(50, 150); h = rnd.uniform(20, 50) if small else rnd.uniform(50, 150)
        a = rnd.uniform(0, 2 * math.pi); u = unit(a); n = (-u[1], u[0]); s = rnd.choice([-1, 1]); n = (n[0] * s, n[1] * s)
        C1 = add(P, u, w); C2 = add(C1, n, h); C3 = add(P, n, h)
        back = rnd.uniform(-15, 0)  # stop up to 15 m short of / at the start, on the last side
        P2 = add(P, n, -back * 0.0)
        P2 = add(C3, n, -(h + back)) if True else P2
        k = drivey(rnd); k["v"] = rnd.uniform(5, 9)
        tl += [D([P, C1, C2, C3, P2], **k), S(rnd.uniform(45, 600))]
        P = P2
        if rnd.random() < 0.3:
            r, P = relocate(rnd, P); tl += r + [S(rnd.uniform(60, 300))]
    return tl


def block_normal(rnd): return block_circle(rnd, small=False)


def dead_end(rnd, n=10):
    P = (0.0, 0.0); tl = [("at", P)]
    for i in range(n):
        tl.append(S(rnd.uniform(30, 120)))  # waiting at the junction
        a = rnd.uniform(0, 2 * math.pi); u = unit(a); nn = (-u[1], u[0])
        d = rnd.uniform(30, 90); B = add(add(P, u, d), nn, 2); B2 = add(B, nn, -3)
        P2 = add(add(P, u, rnd.uniform(-3, 8)), nn, rnd.uniform(-2, 2))
        k = drivey(rnd)
        tl += [D([P, B], **k), S(rnd.uniform(0, 4)), D([B, B2], 2.0, 1.0, 1.0), D([B2, P2], **k), S(rnd.uniform(5, 60))]
        r, P = relocate(rnd, P2, 300, 1200); tl += r
    tl.append(S(300))
    return tl


def parking(rnd, n=8):
    P = (0.0, 0.0); tl = [("at", P), S(300)]
    for i in range(n):
        r, P = relocate(rnd, P, 300, 1500); tl += r
        a = rnd.uniform(0, 2 * math.pi); u = unit(a); nn = (-u[1], u[0])
        A = add(P, u, rnd.uniform(6, 15)); Bp = add(add(A, u, -rnd.uniform(4, 8)), nn, rnd.uniform(4, 7)); Cp = add(Bp, u, rnd.uniform(1, 4))
        tl += [S(rnd.uniform(1, 4)), D([P, A], 3, 1, 1.5), S(rnd.uniform(1, 3)), D([A, Bp], 2, 0.8, 1.2), S(rnd.uniform(1, 3)), D([Bp, Cp], 1.5, 0.8, 1.0),
               S(rnd.uniform(300, 1800))]
        P = Cp
        if rnd.random() < 0.5:  # leaves by reversing out and pulling forward
            Dp = add(add(P, u, -rnd.uniform(5, 10)), nn, -rnd.uniform(3, 6)); tl += [D([P, Dp], 2, 0.8, 1.2), S(rnd.uniform(1, 3))]; P = Dp
    return tl


def drive_through(rnd, n=4):
    P = (0.0, 0.0); tl = [("at", P), S(200)]
    for i in range(n):
        r, P = relocate(rnd, P, 400, 1500); tl += r
        a = rnd.uniform(0, 2 * math.pi); u = unit(a)
        for q in range(rnd.randint(5, 10)):
            tl.append(S(rnd.uniform(20, 60))); Q = add(P, u, rnd.uniform(4, 8)); tl.append(D([P, Q], 2.5, 1, 1.5)); P = Q
        tl.append(S(rnd.uniform(40, 120)))  # pay window
        Q = add(P, u, rnd.uniform(10, 20)); tl += [D([P, Q], 3, 1, 1.5), S(rnd.uniform(40, 150))]; P = Q  # pickup window
        tl += [S(0)]
    tl.append(S(300))
    return tl


def taxi(rnd, hours=1.5):
    P = (0.0, 0.0); rank = P; tl = [("at", P)]; t = 0
    a = rnd.uniform(0, 2 * math.pi); u = unit(a)
    while t < hours * 3600:
        w = rnd.uniform(60, 600); tl.append(S(w)); t += w + 10
        r = rnd.random()
        if r < 0.45:  # queue advances
            Q = add(P, u, rnd.uniform(5, 15)); tl.append(D([P, Q], 2.5, 1, 1.5)); P = Q
        elif r < 0.7:  # repositions: out 30-70 m and back to about the same spot
            leg, P = lane_trip(rnd, P, 30, 70, 10); tl.append(leg)
        else:  # a fare: loop 1-4 km, back to the end of the rank
            rr, Q = relocate(rnd, P, 500, 2000); tl += rr + [S(rnd.uniform(20, 60))]
            Rr = add(rank, u, -rnd.uniform(0, 30))
            tl += [D([Q, (Rr[0], Q[1]), Rr], rnd.uniform(9, 13))]; P = Rr; t += 600
    tl.append(S(120))
    return tl


def day(rnd, legs=10):
    P = (0.0, 0.0); tl = [("at", P), S(rnd.uniform(300, 900))]
    for i in range(legs):
        for _ in range(rnd.randint(1, 3)):
            r, P = relocate(rnd, P, 200, 1500); tl += r
            if rnd.random() < 0.6: tl.append(S(rnd.uniform(20, 90)))
        tl.append(S(rnd.uniform(120, 1500)))
    return tl


def parked_van(rnd):
    P = (0.0, 0.0); tl = [("at", P), S(rnd.uniform(1800, 5400))]
    for i in range(2):
        r, P = relocate(rnd, P, 500, 2000); tl += r + [S(rnd.uniform(1800, 3600))]
    return tl


def courier_mixed(rnd):  # a courier shift: lanes (some), ordinary hops, blocks
    P = (0.0, 0.0); tl = [("at", P), S(rnd.uniform(120, 600))]
    for i in range(20):
        r = rnd.random()
        if r < 0.25: leg, P = lane_trip(rnd, P, 40, 150, 15); tl += [leg]
        else:
            rr, P = relocate(rnd, P, 40, 300); tl += rr
        tl.append(S(rnd.uniform(45, 300)))
    return tl


def noise_honest(rnd):
    m = rnd.choice(["gm", "white", "mix"]); s = rnd.uniform(2, 8)
    return dict(noise=m, sigma=s, wsig=rnd.uniform(1, 3) if m == "mix" else 0.0,
                acc=min(10, max(3, s * rnd.uniform(0.8, 1.2))))


def noise_fleet(rnd):  # the fleet set's: GM 5 m per axis, tau 60 s, stating ~5
    return dict(noise="gm", sigma=5.0, acc=5.0)


def noise_under(rnd):  # noisier than stated: 7-8 m per axis claiming 5
    return dict(noise=rnd.choice(["gm", "mix"]), sigma=rnd.uniform(7, 8), wsig=2.0, acc=5.0)


def noise_over(rnd):  # phone-style: 4-6 m per axis, stating 8-10 m
    return dict(noise=rnd.choice(["gm", "mix"]), sigma=rnd.uniform(4, 6), wsig=1.5, acc=rnd.uniform(8, 10))


FAMILIES = {
    "courier_lane_acc9": (courier_lane, noise_over, 0.0),
    "courier_short_acc9": (courier_short, noise_over, 0.0),
    "block_small_acc9": (block_circle, noise_over, 0.0),
    "taxi_acc9": (taxi, noise_over, 0.0),
    "day_mp_acc9": (day, noise_over, 0.03),
    "parked_van_mp_acc9": (parked_van, noise_over, 0.03),
    # name: (scenario, noise, mp)
    "courier_lane": (courier_lane, noise_honest, 0.0),
    "courier_lane_fleetnoise": (courier_lane, noise_fleet, 0.0),
    "courier_short": (courier_short, noise_honest, 0.0),
    "courier_exact": (courier_exact, noise_honest, 0.0),
    "courier_under": (courier_lane, noise_under, 0.0),
    "courier_lane_mp": (courier_lane, noise_honest, 0.03),
    "courier_mixed": (courier_mixed, noise_honest, 0.0),
    "courier_mixed_mp": (courier_mixed, noise_fleet, 0.03),
    "block_small": (block_circle, noise_honest, 0.0),
    "block_normal": (block_normal, noise_honest, 0.0),
    "dead_end": (dead_end, noise_honest, 0.0),
    "parking": (parking, noise_honest, 0.0),
    "drive_through": (drive_through, noise_honest, 0.0),
    "taxi": (taxi, noise_honest, 0.0),
    "taxi_mp": (taxi, noise_fleet, 0.03),
    "day_clean": (day, noise_honest, 0.0),
    "day_mp": (day, noise_honest, 0.03),
    "day_mp_fleetnoise": (day, noise_fleet, 0.04),
    "parked_van_mp": (parked_van, noise_fleet, 0.04),
    "parked_van_mp_honest": (parked_van, noise_honest, 0.03),
}


def main():
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    only = sys.argv[3:] or list(FAMILIES)
    index = {}
    if os.path.exists(OUT + "/index.json"): index = json.load(open(OUT + "/index.json"))
    for fam in only:
        sc, nz, mp = FAMILIES[fam]
        os.makedirs(f"{OUT}/{fam}", exist_ok=True); index[fam] = []
        for cad in (5, 10, 15):
            for s in range(seeds):
                rnd = random.Random(f"{fam}-{cad}-{s}")
                truth = Truth(sc(rnd)); nzp = nz(rnd)
                p = f"{OUT}/{fam}/{fam}-c{cad}-s{s}.csv"
                write(p, truth, rnd, cad, mp=mp, meta={"family": fam, "trips": len(truth.trips)}, **nzp)
                index[fam].append(p)
    json.dump(index, open(OUT + "/index.json", "w"), indent=0)
    manifest = [{"file": os.path.abspath(p), "family": fam, "profile": "driving",
                 "truth": json.load(open(p[:-4] + ".truth.json"))["truth_m"]} for fam, ps in index.items() for p in ps]
    json.dump(manifest, open(OUT + "/manifest.json", "w"), indent=0)


if __name__ == "__main__":
    main()
