#!/usr/bin/env python3
"""The whole-track smoother on the fleet scenarios (docs/ARCHITECTURE.md, "Jumps of a receiver at rest"): for every
file fleet_eval.py generated into OUT_DIR, `process --smooth` and the forward `process` (driving profile) against
the file's truth, summed |distance error| per scenario, cadence and speed column.

    python3 tools/analysis/fleet/fleet_eval.py OUT_DIR OLD NEW     # generates OUT_DIR once (and compares forward)
    python3 tools/analysis/fleet/fleet_smooth.py OUT_DIR BINARY
"""
import collections, glob, json, os, sys
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from recordings import distance

OUT, BINARY = sys.argv[1], sys.argv[2]
files = sorted(f[:-len('.truth.json')] for f in glob.glob(os.path.join(OUT, '*.truth.json')))


def evaluate(name):
    truth = json.load(open(name + '.truth.json'))['total_m']
    path = name + '.csv'
    return (os.path.basename(name), truth, distance(BINARY, path, 'driving'),
            distance(BINARY, path, 'driving', ['--smooth']))


with ThreadPoolExecutor(2) as pool:
    results = list(pool.map(evaluate, files))
groups = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0])
for name, truth, forward, smoothed in results:
    scenario, cadence, column = name.split('-')[:3]
    g = groups[(scenario, cadence, column)]
    g[0] += truth; g[1] += abs(forward - truth); g[2] += abs(smoothed - truth); g[3] += 1
totals = collections.defaultdict(lambda: [0.0, 0.0])
for key in sorted(groups):
    truth, forward, smoothed, n = groups[key]
    totals[key[2]][0] += forward; totals[key[2]][1] += smoothed
    print(f'{"-".join(key):24s} n={n:3d} truth {truth / 1000:8.1f} km  |err| forward {forward / 1000:7.1f}  '
          f'smooth {smoothed / 1000:7.1f}')
for column, (forward, smoothed) in totals.items():
    print(f'speed {column:5s}: summed |error| forward {forward / 1000:.1f} km, smoothed {smoothed / 1000:.1f} km')
