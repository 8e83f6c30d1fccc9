"""Walks at 1 Hz without a speed column under white position noise, and what `truetrack process` says of them: the
forward and smoothed distance error and whether the scatter warning fires (RunDiagnostics.scatterWarning).

    python3 tools/analysis/scatter_walks.py .build/release/truetrack

A walk of 20 minutes turns by 90 degrees every 60 s, at 0.6 or 1.3 m/s, its fixes claiming 5 m under white noise of
sigma 1, 1.5, 2, 3 or 5 m per axis, three seeds each."""
import json, math, os, random, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generated import write_fixes


def walk(seed, sigma, speed, minutes=20, corner=60.0, accuracy=5.0):
    """Rows for write_fixes and the true distance (metres)."""
    rng = random.Random(seed)
    heading = rng.uniform(0, 2 * math.pi)
    east = north = 0.0
    rows, t, next_corner = [], 0, corner
    while t <= minutes * 60:
        if t >= next_corner:
            heading += rng.choice([-1, 1]) * math.pi / 2
            next_corner += corner
        rows.append((t, east + rng.gauss(0, sigma), north + rng.gauss(0, sigma), accuracy, None, None))
        east += speed * math.cos(heading)
        north += speed * math.sin(heading)
        t += 1
    return rows, speed * (len(rows) - 1)


def run(binary, path, *extra):
    p = subprocess.run([binary, 'process', path, '--json', *extra], capture_output=True, text=True)
    return json.loads(p.stdout)['distanceMetres'], p.stderr


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, 'walk.csv')
        for speed in (0.6, 1.3):
            for sigma in (1, 1.5, 2, 3, 5):
                for seed in (1, 2, 3):
                    rows, truth = walk(seed, sigma, speed)
                    write_fixes(path, rows)
                    forward, warnings = run(binary, path)
                    smoothed, _ = run(binary, path, '--smooth')
                    print(f'{speed} m/s sigma {sigma} m seed {seed}: forward {100 * (forward / truth - 1):+.1f} %, '
                          f'smoothed {100 * (smoothed / truth - 1):+.1f} %, warned {"scatter by" in warnings}')


if __name__ == '__main__':
    main()
