#!/usr/bin/env python3
"""Recordings as a distance-filtered logger would have kept them (iOS `distanceFilter`, Android
`requestLocationUpdates(minTime, minDistance)`, GPSLogger's distance filter): a fix is kept when it lies at least D
metres from the last kept fix and at least T seconds after it. Each thinned track is processed with and without its
speed and course columns, and compared with the full-rate forward count of the same binary (moving recordings, in
%) or printed in metres per 10 minutes (still recordings).

    python3 tools/analysis/distance_filtered.py BIN[,BIN2...] [D1,D2,... default 5,10,20] [T default 1] [--smooth]
    # --smooth: the whole-track smoother's distances (thinned and full-rate) instead of the forward filter's

Reads ../shared/datasets (or $TRUETRACK_DATASETS); converts to CSV in a temporary folder (never in the
repository).
"""
import csv, datetime, json, math, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get('TRUETRACK_DATASETS', os.path.join(HERE, '..', '..', '..', 'shared', 'datasets'))
SMOOTH = ['--smooth'] if '--smooth' in sys.argv else []
ARGS = [a for a in sys.argv[1:] if a != '--smooth']
BINS = ARGS[0].split(',')
DISTANCES = [float(x) for x in (ARGS[1] if len(ARGS) > 1 else '5,10,20').split(',')]
MIN_SECONDS = float(ARGS[2]) if len(ARGS) > 2 else 1.0
MOVING = [
    ('ipin-t01r02', 'walking', 'ipin2023-walk/IPIN2023_T3_TrainingTrial01_repetition02.txt', []),
    ('ipin-t01r03', 'walking', 'ipin2023-walk/IPIN2023_T3_TrainingTrial01_repetition03.txt', []),
    ('ipin-t02r01', 'walking', 'ipin2023-walk/IPIN2023_T3_TrainingTrial02_repetition01.txt', []),
    ('ipin-t02r04', 'walking', 'ipin2023-walk/IPIN2023_T3_TrainingTrial02_repetition04.txt', []),
    ('p6', 'walking', 'gnsslogger-samples/pixel6.txt', ['--provider', 'gps']),
    ('korita', 'walking', 'gpx-devices/korita-zbevnica.gpx', []),
    ('mojstrovka', 'walking', 'gpx-devices/Mojstrovka.gpx', []),
    ('edge', 'cycling', 'gpx-devices/garmin-edge-800-output.gpx', []),
    ('oregon', 'cycling', 'gpx-devices/garmin-oregon-700-output.gpx', []),
    ('wahoo', 'cycling', 'gpx-devices/wahoo-element-bolt.gpx', []),
    ('f9k', 'driving', 'ublox-f9k-span-mtv/MTV.Local1.ublox-F9K.20200206-181434.nmea', []),
    ('gsdc4', 'driving', 'gsdc2020-mtv1/Pixel4_chipset.nmea', []),
    ('pixel6a', 'driving', 'sensorlogger-pixel6a/20230809_163741/gps.csv', []),
]
STILL = [
    ('f9p', 'walking', 'gpsd-nmea/ublox-zed-f9p_hpg1.11.log', []),
    ('ublox8', 'walking', 'gpsd-nmea/ublox-8.log', []),
    ('telit', 'walking', 'gpsd-nmea/telit-he910.log', []),
    ('phone', 'walking', 'phone-stationary-nmea/gnss_log_2026_03_12_11_29_27.nmea', []),
    ('gmt', 'walking', 'gmt-stationary-2016/pseudoranges_log_2016_06_30_21_26_07.txt', []),
    ('reach-open', 'walking', 'rtk-reach-neu/openRTK.txt', []),
    ('reach-occl', 'walking', 'rtk-reach-neu/occludedRTK.txt', []),
]


def ts(s):
    return datetime.datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp()


def metres(a, b):
    lat = math.radians((float(a['latitude']) + float(b['latitude'])) / 2)
    dn = math.radians(float(b['latitude']) - float(a['latitude'])) * 6371008.8
    de = math.radians(float(b['longitude']) - float(a['longitude'])) * 6371008.8 * math.cos(lat)
    return math.hypot(de, dn)


def distance(binary, path, profile):
    r = subprocess.run([binary, 'process', path, '--profile', profile, '--json'] + SMOOTH, capture_output=True,
                       text=True)
    return json.loads(r.stdout)['distanceMetres'] if r.returncode == 0 else float('nan')


def write(path, header, rows, strip):
    with open(path, 'w', newline='') as f:
        w = csv.DictWriter(f, header)
        w.writeheader()
        for r in rows:
            r = dict(r)
            if strip:
                r['speed_mps'] = r['course_deg'] = ''
            w.writerow(r)


with tempfile.TemporaryDirectory() as tmp:
    print(f'distance filter, minimum {MIN_SECONDS:g} s between kept fixes; moving: % of the full-rate count '
          '(with speeds / without), still: m per 10 min')
    print('recording   profile    D m  kept/all  full-rate  ' + '  '.join(f'bin{i + 1} speeds  bin{i + 1} bare'
                                                                        for i in range(len(BINS))))
    for still, group in ((False, MOVING), (True, STILL)):
        for name, profile, source, extra in group:
            full_csv = os.path.join(tmp, name + '.csv')
            subprocess.run([BINS[-1], 'convert', os.path.join(DATA, source), full_csv] + extra, check=True,
                           capture_output=True)
            with open(full_csv) as f:
                rows = [r for r in csv.DictReader(f) if r['latitude'] and r['longitude']]
            header = list(rows[0].keys())
            minutes = (ts(rows[-1]['timestamp']) - ts(rows[0]['timestamp'])) / 60
            reference = distance(BINS[-1], full_csv, profile)
            if not still and not reference > 0:
                print(f'{name:11s} {profile:8s} full-rate count {reference}: skipped')
                continue
            for d in DISTANCES:
                kept = [rows[0]]
                for r in rows[1:]:
                    if ts(r['timestamp']) - ts(kept[-1]['timestamp']) >= MIN_SECONDS and metres(kept[-1], r) >= d:
                        kept.append(r)
                cells = []
                for b in BINS:
                    for strip in (False, True):
                        part = os.path.join(tmp, 'part.csv')
                        write(part, header, kept, strip)
                        got = distance(b, part, profile)
                        cells.append(f'{got / minutes * 10:9.1f} m' if still else f'{100 * (got / reference - 1):+9.1f} %')
                ref = f'{reference / minutes * 10:7.1f}/10' if still else f'{reference:9.0f}'
                print(f'{name:11s} {profile:8s} {d:4.0f} {len(kept):5d}/{len(rows):<5d} {ref}  ' + '  '.join(cells),
                      flush=True)
