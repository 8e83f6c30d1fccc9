#!/usr/bin/env python3
"""Two binaries' `process --smooth` (or, with --forward, the forward filter) on a generated set's manifest (a list of
{file, family, profile, truth}: vehicle_families.py, courier_families.py): per family the summed |distance error|
and the tracks within +-2 sigma (smoothed), each binary; totals last. Two processes at a time.

    python3 tools/analysis/vehicles/compare.py MANIFEST.json BEFORE AFTER [--forward]
"""
import collections, json, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

MANIFEST, BINARIES = sys.argv[1], sys.argv[2:4]
FORWARD = '--forward' in sys.argv
rows = json.load(open(MANIFEST))


def run(job):
    binary, profile, files = job
    out = subprocess.run([binary, 'process', *files, '--profile', profile, '--json']
                         + ([] if FORWARD else ['--smooth']), capture_output=True, text=True).stdout
    results = json.loads(out)
    if isinstance(results, dict):
        results = [results]
    return binary, {os.path.abspath(r['input']): (r['distanceMetres'], r.get('distanceSigmaMetres')) for r in results}


by_profile = collections.defaultdict(list)
for r in rows:
    by_profile[r['profile']].append(r['file'])
jobs = [(b, p, fs[i:i + 40]) for b in BINARIES for p, fs in by_profile.items() for i in range(0, len(fs), 40)]
results = {b: {} for b in BINARIES}
with ThreadPoolExecutor(2) as pool:
    for binary, r in pool.map(run, jobs):
        results[binary].update(r)
families = collections.defaultdict(lambda: [0, 0.0] + [0.0, 0] * len(BINARIES))
for r in rows:
    f = families[r['family']]
    f[0] += 1
    f[1] += r['truth']
    for i, b in enumerate(BINARIES):
        d, sigma = results[b][os.path.abspath(r['file'])]
        f[2 + 2 * i] += abs(d - r['truth'])
        f[3 + 2 * i] += sigma is not None and abs(d - r['truth']) <= 2 * sigma
print(f"{'family':28s} {'n':>4s} {'truth km':>9s}" + ''.join(f"  |err| km  in 2σ" for _ in BINARIES))
totals = [0, 0.0] + [0.0, 0] * len(BINARIES)
for name in sorted(families):
    f = families[name]
    totals = [t + v for t, v in zip(totals, f)]
    print(f"{name:28s} {f[0]:4d} {f[1] / 1000:9.1f}"
          + ''.join(f"  {f[2 + 2 * i] / 1000:8.1f} {f[3 + 2 * i]:5d}" for i in range(len(BINARIES))))
print(f"{'TOTAL':28s} {totals[0]:4d} {totals[1] / 1000:9.1f}"
      + ''.join(f"  {totals[2 + 2 * i] / 1000:8.1f} {totals[3 + 2 * i]:5d}" for i in range(len(BINARIES))))
