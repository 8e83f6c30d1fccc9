#!/usr/bin/env python3
"""Fleet scenarios with known truth, two builds of truetrack compared (docs/ARCHITECTURE.md, "Excursions").

Generates (once, into OUT_DIR) a fleet re-tester's matrix of vehicle-tracker files with fleetgen.py:
  - working days (day, outback, loops, mixed) every 10/15/30/45/60/120 s, speed column zero | none | noisy,
    clean, with 5 % multipath jumps of 50-300 m while stopped, and with heartbeats every 300 s while parked;
    three seeds each;
  - vans parked 8 h every 10/15/30/60/120/300 s under five multipath patterns.
Then runs `truetrack process` and `truetrack stops` (driving profile) with both builds on every file and prints,
per speed-column kind: the summed |distance error| (km), trips detected / truth, trips lost (a truth trip no
detected trip overlaps), phantom trips (a detected trip no truth trip overlaps within 60 s), and truth stops whose
detected start and end are both within 60 s.

    python3 tools/analysis/fleet/fleet_eval.py OUT_DIR BEFORE_BINARY AFTER_BINARY

Scenario generator and timelines: fleetgen.py and scenarios.py (written by a fleet re-tester, 2026-12-01).
"""
import json, os, subprocess, sys, datetime as dt
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
OUT, BEFORE, AFTER = sys.argv[1], sys.argv[2], sys.argv[3]
P = lambda s: dt.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()


def jobs():
    for sc in ("day", "outback", "loops", "mixed"):
        for iv in (10, 15, 30, 45, 60, 120):
            for sp in ("zero", "none", "noisy"):
                for seed in (1, 2, 3):
                    base = ["--scenario", sc, "--interval", str(iv), "--speed", sp, "--seed", str(seed)]
                    mp = ["--mp", "iid:50-300:0.05:1-2"]
                    yield f"{sc}-{iv}s-{sp}-clean-s{seed}", base
                    yield f"{sc}-{iv}s-{sp}-mp-s{seed}", base + mp
                    yield f"{sc}-{iv}s-{sp}-hb300-s{seed}", base + mp + ["--heartbeat", "300"]
    for iv in (10, 15, 30, 60, 120, 300):
        cp = min(0.5, iv / 1800)
        for sp in ("zero", "none", "noisy"):
            for tag, m in (("j20-50", "iid:20-50:0.05:1-1"), ("j50-300", "iid:50-300:0.05:1-2"),
                           ("j150-500", "iid:150-500:0.05:1-1"), ("run3-5", "iid:50-300:0.03:3-5"),
                           ("canyon", f"canyon:30-80:{cp}:2-10")):
                yield f"parked-{iv}s-{sp}-{tag}", ["--scenario", "parked", "--interval", str(iv), "--speed", sp,
                                                   "--mp", m, "--seed", str(iv)]


def generate(job):
    name, args = job
    if not os.path.exists(f"{OUT}/{name}.truth.json"):
        subprocess.run([sys.executable, f"{HERE}/fleetgen.py", name, "--outdir", OUT] + args, check=True,
                       capture_output=True)
    return name


def run(binary, command, path):
    out = subprocess.run([binary, command, path, "--profile", "driving", "--json"], capture_output=True, text=True)
    return json.loads(out.stdout)


def evaluate(name, binary):
    truth = json.load(open(f"{OUT}/{name}.truth.json"))
    path = f"{OUT}/{name}.csv"
    distance = run(binary, "process", path)["distanceMetres"]
    stops = run(binary, "stops", path)
    overlap = lambda a, b, c, d, slack=0: a < d + slack and c < b + slack
    ts = [(P(s["start"]), P(s["end"])) for s in truth["stops"]]
    ds = [(P(s["start"]), P(s["end"])) for s in stops["stops"]]
    tt = [(P(t["start"]), P(t["end"])) for t in truth["trips"]]
    dtp = [(P(t["start"]), P(t["end"])) for t in stops["trips"]]
    within = 0
    for a, e in ts:
        hit = [(c, d) for c, d in ds if overlap(a, e, c, d)]
        if hit and abs(hit[0][0] - a) <= 60 and abs(hit[-1][1] - e) <= 60:
            within += 1
    return dict(
        kind=name.split("-")[2], error=abs(distance - truth["total_m"]), trips=len(dtp), truthTrips=len(tt),
        lost=sum(1 for a, e in tt if not any(overlap(a, e, c, d) for c, d in dtp)),
        phantom=sum(1 for c, d in dtp if not any(overlap(a, e, c, d, 60) for a, e in tt)),
        within=within, truthStops=len(ts))


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    with ThreadPoolExecutor(4) as pool:
        names = list(pool.map(generate, jobs()))
        for label, binary in (("before", BEFORE), ("after", AFTER)):
            results = list(pool.map(lambda n: evaluate(n, binary), names))
            for kind in ("zero", "none", "noisy"):
                rs = [r for r in results if r["kind"] == kind]
                s = lambda k: sum(r[k] for r in rs)
                print(f"{label:6s} speed {kind:5s} files {len(rs)}  sum|distance error| {s('error') / 1000:.1f} km  "
                      f"trips {s('trips')}/{s('truthTrips')}  lost {s('lost')}  phantom {s('phantom')}  "
                      f"stops ±60 s {s('within')}/{s('truthStops')}")
