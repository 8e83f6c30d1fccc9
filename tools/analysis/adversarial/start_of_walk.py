#!/usr/bin/env python3
"""Honest short walks (2026-12-05): a straight walk at 0.8 / 1.0 / 1.4 m/s whose Doppler readings are honest (σ 0.15
m/s) under 2 or 4 m of white position noise (accuracy stated 1.5 × the noise), 120 s or 600 s long, seeds 1-5;
prints the forward tracker's signed error per seed (and with --smooth, the smoother's). Before the chords judge the
readings (five chords, ~100 s), the Doppler check compares them with the position filter's noise-lengthened path and
distrusts them on a slow walk, and the position filter's speed is counted: docs/ARCHITECTURE.md, "The start of an
honest slow walk". Usage: python3 tools/analysis/adversarial/start_of_walk.py [BIN] [--smooth]
Cases under TT_WORK (default /tmp/tt-adversarial/start)."""
import json, math, os, random, subprocess, sys

BIN = next((a for a in sys.argv[1:] if not a.startswith("--")), ".build/release/truetrack")
SMOOTH = "--smooth" in sys.argv
OUT = os.path.join(os.environ.get("TT_WORK", "/tmp/tt-adversarial"), "start"); os.makedirs(OUT, exist_ok=True)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from generated import write_fixes  # noqa: E402  (the generated tracks' CSV layout and plane)


def walk(seed, v, sigma, seconds, accuracy):
    r = random.Random(seed)
    h = r.uniform(0, 2 * math.pi)
    rows = []
    for i in range(seconds + 1):
        e = v * i * math.cos(h) + r.gauss(0, sigma); n = v * i * math.sin(h) + r.gauss(0, sigma)
        rows.append((i, e, n, accuracy, max(0, v + r.gauss(0, 0.15)), (90 - math.degrees(h)) % 360))
    path = os.path.join(OUT, 'walk_%d_%g_%g_%d.csv' % (seed, v, sigma, seconds))
    write_fixes(path, rows)
    return path, v * seconds


print('speed m/s, noise m, seconds: signed error % for seeds 1-5' + (' (smoother)' if SMOOTH else ''))
for seconds in (120, 600):
    for v in (0.8, 1.0, 1.4):
        for sigma in (2, 4):
            errors = []
            for seed in range(1, 6):
                path, truth = walk(seed, v, sigma, seconds, 1.5 * sigma)
                args = [BIN, 'process', path, '--json'] + (['--smooth'] if SMOOTH else [])
                d = json.loads(subprocess.run(args, capture_output=True, text=True).stdout)['distanceMetres']
                errors.append(100 * (d - truth) / truth)
            print('%.1f %d %4d  %s' % (v, sigma, seconds, ' '.join('%+6.1f' % e for e in errors)))
