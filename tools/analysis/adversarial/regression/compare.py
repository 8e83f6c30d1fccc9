#!/usr/bin/env python3
"""Regression sets of generated tracks with known true distance (tester sessions of 2026-12-05).

Three sets, each a list of seeded cases checked in as parameters (SET/cases.jsonl: case, fam, seed, prof,
p = generator keyword arguments, L = true distance in metres) plus the testers' generator code:
  tester49  548 cases, tester49/g.py make()      (walking / running / cycling / driving families)
  tst       114 cases, tst/run.py case()         (walking: halts, iOS -1 readings, Samsung zeros, scale, grid, still)
  tester50 3328 cases, tester50/g2.py make2()    (zero speed readings, halts, fast halts, drives with zero runs)
Missing cases are generated (deterministically) under $TT_WORK/SET/CASE.csv (TT_WORK defaults to
/tmp/tt-adversarial/regression), both builds run under `nice -n 19` with the case's profile, and the
|error| (points of the true distance) is compared per set and family.

Usage: python3 tools/analysis/adversarial/regression/compare.py BEFORE_BIN AFTER_BIN [--sets tester49,tst,tester50] [--jobs 2] [--smooth]
       python3 tools/analysis/adversarial/regression/compare.py --generate-only [--sets ...]  (only write the missing cases)
--smooth compares `process --smooth` instead of the forward filter.
Better / worse: |error| changes by more than 0.05 points. Cases with true distance 0 (tst F6_still) are
measured in metres instead (marked "m"). Results: $TT_WORK/results_BEFORE_vs_AFTER.json.
"""
import argparse, collections, importlib.util, json, math, os, subprocess, sys, time
from multiprocessing import Pool
sys.dont_write_bytecode = True  # keep the repository free of __pycache__

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = os.environ.get("TT_WORK", "/tmp/tt-adversarial/regression")
SETS = ("tester49", "tst", "tester50")
THRESH = 0.05
_mods = {}


def _load(key, rel):
    if key not in _mods:
        spec = importlib.util.spec_from_file_location(key, os.path.join(HERE, rel))
        m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); _mods[key] = m
    return _mods[key]


def _tuples(p):
    p = dict(p)
    for k in ("corners", "stops", "zero_run", "zero_runs"):
        if p.get(k) is not None: p[k] = tuple(p[k])
    return p


def records(sets):
    out = []
    for s in sets:
        with open(os.path.join(HERE, s, "cases.jsonl")) as f:
            for line in f:
                r = json.loads(line); r["set"] = s; out.append(r)
    return out


def case_path(r):
    return os.path.join(WORK, r["set"], r["case"] + ".csv")


def generate(r):
    """Write the case if missing; return (path, generated truth or None when the file existed)."""
    path = case_path(r)
    if os.path.exists(path): return path, None
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    if r["set"] == "tester49":
        L = _load("tt_reg_g", "tester49/g.py").make(tmp, r["seed"], **_tuples(r["p"]))
    elif r["set"] == "tst":
        _, L = _load("tt_reg_tst", "tst/run.py").case(r["name"], r["seed"], path=tmp, **r["p"])
    else:
        L, _ = _load("tt_reg_g2", "tester50/g2.py").make2(tmp, r["seed"], **_tuples(r["p"]))
    os.replace(tmp, path)
    return path, L


def distance(binary, path, prof, smooth=False):
    try:
        p = subprocess.run(["nice", "-n", "19", binary, "process", path, "--profile", prof, "--json"]
                           + (["--smooth"] if smooth else []),
                           capture_output=True, text=True, timeout=900)
        return json.loads(p.stdout)["distanceMetres"]
    except Exception:
        return None


def job(a):
    # (The flag travels with each job: a module global set in main is not the workers' under spawn or forkserver.)
    r, bins, smooth = a
    path, Lgen = generate(r)
    bad = Lgen is not None and abs(Lgen - r["L"]) > 1e-6 * max(1.0, abs(r["L"]))
    ds = [distance(b, path, r["prof"], smooth) for b in bins]
    return dict(set=r["set"], case=r["case"], fam=r["fam"], prof=r["prof"], L=r["L"], path=path,
                before=ds[0] if ds else None, after=ds[1] if ds else None,
                truth_mismatch=(Lgen if bad else None))


def err(d, L):
    """error in points of the truth, or in metres when the truth is 0"""
    return 100.0 * (d - L) / L if L > 0 else d - L


def report(rows):
    for s in SETS:
        rs = [x for x in rows if x["set"] == s]
        if not rs: continue
        fam = collections.OrderedDict()
        regress = []
        tot = [0, 0, 0, 0, 0.0, 0.0]
        for x in sorted(rs, key=lambda x: x["fam"]):
            f = fam.setdefault(x["fam"], [0, 0, 0, 0, 0.0, 0.0, "m" if x["L"] <= 0 else "%"])
            if x["before"] is None or x["after"] is None:
                f[3] += 1; tot[3] += 1; continue
            eb, ea = abs(err(x["before"], x["L"])), abs(err(x["after"], x["L"]))
            f[0] += 1; f[4] += eb; f[5] += ea
            f[1] += ea < eb - THRESH; f[2] += ea > eb + THRESH
            if x["L"] > 0:
                tot[0] += 1; tot[4] += eb; tot[5] += ea; tot[1] += ea < eb - THRESH; tot[2] += ea > eb + THRESH
                if ea > eb + THRESH: regress.append((ea - eb, x))
        print("== %s: %d cases, better %d, worse %d, failed %d, summed |error| %.1f -> %.1f points"
              % (s, len(rs), tot[1], tot[2], tot[3], tot[4], tot[5]))
        print("   %-26s %5s %6s %6s %5s   summed |error| before -> after" % ("family", "n", "better", "worse", "fail"))
        for k, f in fam.items():
            print("   %-26s %5d %6d %6d %5d   %9.1f -> %9.1f %s" % (k, f[0], f[1], f[2], f[3], f[4], f[5], f[6] if f[6] == "m" else ""))
        if regress:
            print("   largest regressions (|error| increase, points):")
            for dlt, x in sorted(regress, key=lambda t: -t[0])[:10]:
                print("   %+7.2f  %+7.2f%% -> %+7.2f%%  %-8s %s" % (dlt, err(x["before"], x["L"]), err(x["after"], x["L"]), x["prof"], x["path"]))
        print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before", nargs="?"); ap.add_argument("after", nargs="?")
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--generate-only", action="store_true")
    ap.add_argument("--smooth", action="store_true", help="compare the smoother (process --smooth)")
    a = ap.parse_args()
    sets = [s for s in a.sets.split(",") if s]
    for s in sets:
        if s not in SETS: sys.exit("unknown set %s (have %s)" % (s, ",".join(SETS)))
    if not a.generate_only and not (a.before and a.after): ap.error("BEFORE_BIN and AFTER_BIN are required")
    bins = [] if a.generate_only else [os.path.abspath(a.before), os.path.abspath(a.after)]
    recs = records(sets)
    t0 = time.time(); rows = []
    with Pool(a.jobs) as pool:
        for i, x in enumerate(pool.imap(job, [(r, bins, a.smooth) for r in recs], chunksize=4)):
            rows.append(x)
            if (i + 1) % 500 == 0: print("  %d/%d cases, %.0f s" % (i + 1, len(recs), time.time() - t0), file=sys.stderr)
    secs = time.time() - t0
    bad = [x for x in rows if x["truth_mismatch"] is not None]
    for x in bad:
        print("WARNING: %s regenerated with truth %.6f, recorded %.6f" % (x["path"], x["truth_mismatch"], x["L"]))
    if a.generate_only:
        print("%d cases under %s (%.0f s)" % (len(rows), WORK, secs)); return
    report(rows)
    # (Named by the builds' paths, not their file names: two checkouts' .build/release/truetrack would collide.)
    label = lambda b: os.path.abspath(b).strip("/").replace("/", "_")
    out = os.path.join(WORK, "results_%s_vs_%s%s.json" % (label(bins[0]), label(bins[1]), "_smooth" if a.smooth else ""))
    os.makedirs(WORK, exist_ok=True)
    with open(out, "w") as f:
        json.dump(dict(before=bins[0], after=bins[1], sets=sets, seconds=round(secs, 1), threshold_points=THRESH,
                       rows=rows), f)
    print("%d cases in %.0f s; results: %s" % (len(rows), secs, out))


if __name__ == "__main__":
    main()
