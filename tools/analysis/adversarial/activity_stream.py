#!/usr/bin/env python3
"""A motion-activity stream beside the fixes (2026-12-05): tracks of a family of missing_reading_runs.py (by default
`halts`: walks with iOS -1 through 3-7 halts of 10-40 s under 3 m Gauss-Markov + 2 m white noise), each written
twice, without and with an activity column whose verdict comes LAG seconds late ("still" once the true speed has
been 0 for LAG s, "walking" once it has been above 0 for LAG s; confidence 100, on every row, as an app re-feeds
the current verdict). Prints the signed error of `truetrack process` on both and the mean |error| (README, "The
Swift API"). Usage: python3 tools/analysis/adversarial/activity_stream.py [BIN] [FAMILY] [SEEDS] [LAG]
Cases under TT_WORK (default /tmp/tt-adversarial/activity)."""
import json, os, random, statistics, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import missing_reading_runs as M  # noqa: E402

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release/truetrack"
FAMILY = sys.argv[2] if len(sys.argv) > 2 else "halts"
SEEDS = int(sys.argv[3]) if len(sys.argv) > 3 else 10
LAG = float(sys.argv[4]) if len(sys.argv) > 4 else 3
OUT = os.path.join(os.environ.get("TT_WORK", "/tmp/tt-adversarial"), "activity"); os.makedirs(OUT, exist_ok=True)

rows_out = []
for seed in range(SEEDS):
    # The same seeding as missing_reading_runs.py's case(): the same tracks.
    rng = random.Random(seed * 1000 + list(M.FAM).index(FAMILY))
    pts, speed_fn, T, minus1, kw, profile, params = M.FAM[FAMILY](rng)
    rows, truth = M.simulate(rng, pts, speed_fn, T, minus1, **kw)
    distances = []
    for with_activity in (False, True):
        path = os.path.join(OUT, "%s_%d_%s.csv" % (FAMILY, seed, "activity" if with_activity else "plain"))
        with open(path, "w") as f:
            f.write("timestamp,latitude,longitude,accuracy,speed,course" +
                    (",activity,activity_confidence" if with_activity else "") + "\n")
            state = "walking"
            for r in rows:
                if with_activity:
                    t = (r[0] - 1764892800000) / 1000  # missing_reading_runs.py's start time
                    then, now = speed_fn(max(0, t - LAG)), speed_fn(t)
                    if then == 0 and now == 0: state = "still"
                    elif then > 0 and now > 0: state = "walking"
                    f.write("%d,%.8f,%.8f,%.1f,%.2f,%.1f,%s,100\n" % (r + (state,)))
                else:
                    f.write("%d,%.8f,%.8f,%.1f,%.2f,%.1f\n" % r)
        out = subprocess.run([BIN, "process", path, "--profile", profile, "--json"], capture_output=True, text=True)
        distances.append(json.loads(out.stdout)["distanceMetres"])
    errors = [100 * (d - truth) / truth for d in distances]
    rows_out.append(errors)
    print("seed %d  truth %.1f m  without %+.1f %%  with %+.1f %%" % (seed, truth, errors[0], errors[1]))
print("mean |error| without / with the stream: %.2f / %.2f %%; mean signed %+.2f / %+.2f %%" % (
    statistics.mean(abs(e[0]) for e in rows_out), statistics.mean(abs(e[1]) for e in rows_out),
    statistics.mean(e[0] for e in rows_out), statistics.mean(e[1] for e in rows_out)))
