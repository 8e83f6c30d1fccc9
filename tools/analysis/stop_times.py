#!/usr/bin/env python3
"""How early or late `truetrack stops` places the start and end of stops on generated walks without Doppler.

Each walk (1 Hz, 1.3 m/s, gently turning) has three stops (300-480 s, 720-840 s, 1140-1380 s). The fixes carry
no speed; their error is a Gauss-Markov bias (tau 120 s, sigma a third of the accuracy) plus white noise of
W metres per axis; the reported accuracy is ACC x U(0.8, 1.2). Prints, over six seeds, the stops found per walk
and the sorted start and end errors in seconds (negative: early).

Usage: tools/analysis/stop_times.py TRUETRACK ACC W      e.g. .build/release/truetrack 15 1.0
"""
import datetime, json, math, os, random, subprocess, sys, tempfile

STOPS = [(300, 480), (720, 840), (1140, 1380)]
T0 = datetime.datetime(2026, 1, 1, 10, 0, 0, tzinfo=datetime.timezone.utc)


def walk(seed, accuracy, white, path, speed=1.3):
    rnd = random.Random(seed)
    lat0, lon0 = 47.0, 8.0
    mlat, mlon = 111132.0, 111320 * math.cos(math.radians(lat0))
    segments = [('w', 300), ('s', 180), ('w', 240), ('s', 120), ('w', 300), ('s', 240), ('w', 200)]
    t, e, n, heading = 0, 0.0, 0.0, rnd.uniform(0, 2 * math.pi)
    be = bn = 0.0
    rho = math.exp(-1 / 120.0)
    sigma = 0.5 * accuracy / 1.5
    rows = []
    for kind, seconds in segments:
        for _ in range(seconds):
            be = rho * be + math.sqrt(1 - rho * rho) * rnd.gauss(0, sigma)
            bn = rho * bn + math.sqrt(1 - rho * rho) * rnd.gauss(0, sigma)
            oe, on = e + be + rnd.gauss(0, white), n + bn + rnd.gauss(0, white)
            ts = (T0 + datetime.timedelta(seconds=t)).strftime('%Y-%m-%dT%H:%M:%SZ')
            rows.append('%s,%.7f,%.7f,%.1f' % (ts, lat0 + on / mlat, lon0 + oe / mlon, accuracy * rnd.uniform(0.8, 1.2)))
            if kind == 'w':
                heading += rnd.gauss(0, 0.05)
                e += speed * math.sin(heading)
                n += speed * math.cos(heading)
            t += 1
    with open(path, 'w') as f:
        f.write('timestamp,latitude,longitude,accuracy\n' + '\n'.join(rows) + '\n')


def seconds(iso):
    return (datetime.datetime.fromisoformat(iso.replace('Z', '+00:00')) - T0).total_seconds()


def main():
    binary, accuracy, white = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    starts, ends, counts = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, 7):
            path = os.path.join(tmp, 'walk-%d.csv' % seed)
            walk(seed, accuracy, white, path)
            report = json.loads(subprocess.run([binary, 'stops', path, '--json'], check=True,
                                               capture_output=True, text=True).stdout)
            counts.append(len(report['stops']))
            for a, b in STOPS:
                found = [s for s in report['stops'] if seconds(s['start']) < b and seconds(s['end']) > a]
                if found:
                    starts.append(seconds(found[0]['start']) - a)
                    ends.append(seconds(found[-1]['end']) - b)
    print('stops per walk', counts)
    print('start errors s', sorted(starts))
    print('end errors s', sorted(ends))


if __name__ == '__main__':
    main()
