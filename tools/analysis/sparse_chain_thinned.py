#!/usr/bin/env python3
"""Recordings thinned to a fix every 30-120 s (seeded), with their speeds kept and stripped, against the full-rate
count of the same span (docs/ARCHITECTURE.md 5d, chains of sparse steps). Run from a directory holding the
recordings converted to CSV (`truetrack convert`): gsdc4.csv (gsdc2020-mtv1/Pixel4_chipset.nmea), f9k.csv
(ublox-f9k-span-mtv), oregon.csv, edge.csv, wahoo.csv (gpx-devices/garmin-oregon-700-output.gpx,
garmin-edge-800-output.gpx, wahoo-element-bolt.gpx), korita.csv (gpx-devices/korita-zbevnica.gpx).

    TRUETRACK=.build/release/truetrack OLD=/path/to/an/older/truetrack python3 tools/analysis/sparse_chain_thinned.py
"""
import csv, random, subprocess, json, sys, os, datetime
T = os.environ.get('TRUETRACK', 'truetrack'); O = os.environ.get('OLD', T)
def ts(s): return datetime.datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp()
def dist(b, p, prof):
    r = subprocess.run([b, 'process', p, '--profile', prof, '--json'], capture_output=True, text=True)
    return json.loads(r.stdout)['distanceMetres'] if r.returncode == 0 else float('nan')
for name, prof, ivs in (('gsdc4', 'driving', (30, 60)), ('f9k', 'driving', (30, 60)), ('oregon', 'cycling', (35, 60)),
                        ('edge', 'cycling', (35, 60)), ('wahoo', 'cycling', (35, 60)), ('korita', 'walking', (65, 120))):
    rows = list(csv.DictReader(open(name + '.csv'))); hdr = list(rows[0].keys())
    for iv in ivs:
        for strip in (False, True):
            res = []
            for seed in range(1, 4):
                rng = random.Random(seed * 100 + iv); nxt = ts(rows[0]['timestamp']); out = []
                for r in rows:
                    if ts(r['timestamp']) >= nxt: out.append(r); nxt = ts(r['timestamp']) + iv + rng.uniform(-2, 2)
                last = out[-1]['timestamp']
                full = [r for r in rows if ts(r['timestamp']) <= ts(last)]
                for fn, rs in (('dec_full.tmp.csv', full), ('dec_part.tmp.csv', out)):
                    with open(fn, 'w', newline='') as f:
                        w = csv.DictWriter(f, hdr); w.writeheader()
                        for r in rs:
                            r = dict(r)
                            if strip and fn.endswith('part.tmp.csv'): r['speed_mps'] = ''; r['course_deg'] = ''
                            w.writerow(r)
                res.append((dist(T, 'dec_full.tmp.csv', prof), dist(O, 'dec_part.tmp.csv', prof), dist(T, 'dec_part.tmp.csv', prof)))
            m = lambda i: sum(x[i] for x in res) / len(res)
            print(f'{name:8s} {prof:8s} {iv:4d}s {"nospeed" if strip else "speed  "}  full-rate {m(0):8.0f}  old {m(1):8.0f}  new {m(2):8.0f}  ({100*(m(2)/m(0)-1):+.1f} %)')
for tmp in ('dec_full.tmp.csv', 'dec_part.tmp.csv'):
    if os.path.exists(tmp): os.remove(tmp)
