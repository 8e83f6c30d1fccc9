"""The real recordings the analysis scripts thin and re-count (read from ../shared/datasets or $TRUETRACK_DATASETS,
converted to CSV in the caller's temporary folder, never in the repository), and the helpers they share."""
import csv, datetime, json, os, subprocess
from trackgeo import datasets_root

DATA = datasets_root()

# name -> (profile, path under DATA, extra `convert` arguments)
RECORDINGS = {
    'ipin-t01r02': ('walking', 'ipin2023-walk/IPIN2023_T3_TrainingTrial01_repetition02.txt', []),
    'ipin-t01r03': ('walking', 'ipin2023-walk/IPIN2023_T3_TrainingTrial01_repetition03.txt', []),
    'ipin-t02r01': ('walking', 'ipin2023-walk/IPIN2023_T3_TrainingTrial02_repetition01.txt', []),
    'ipin-t02r04': ('walking', 'ipin2023-walk/IPIN2023_T3_TrainingTrial02_repetition04.txt', []),
    'p6': ('walking', 'gnsslogger-samples/pixel6.txt', ['--provider', 'gps']),
    'korita': ('walking', 'gpx-devices/korita-zbevnica.gpx', []),
    'mojstrovka': ('walking', 'gpx-devices/Mojstrovka.gpx', []),
    'edge': ('cycling', 'gpx-devices/garmin-edge-800-output.gpx', []),
    'oregon': ('cycling', 'gpx-devices/garmin-oregon-700-output.gpx', []),
    'wahoo': ('cycling', 'gpx-devices/wahoo-element-bolt.gpx', []),
    'f9k': ('driving', 'ublox-f9k-span-mtv/MTV.Local1.ublox-F9K.20200206-181434.nmea', []),
    'gsdc4': ('driving', 'gsdc2020-mtv1/Pixel4_chipset.nmea', []),
    'pixel6a': ('driving', 'sensorlogger-pixel6a/20230809_163741/gps.csv', []),
    # still
    'f9p': ('walking', 'gpsd-nmea/ublox-zed-f9p_hpg1.11.log', []),
    'ublox8': ('walking', 'gpsd-nmea/ublox-8.log', []),
    'telit': ('walking', 'gpsd-nmea/telit-he910.log', []),
    'phone': ('walking', 'phone-stationary-nmea/gnss_log_2026_03_12_11_29_27.nmea', []),
    'gmt': ('walking', 'gmt-stationary-2016/pseudoranges_log_2016_06_30_21_26_07.txt', []),
    'reach-open': ('walking', 'rtk-reach-neu/openRTK.txt', []),
    'reach-occl': ('walking', 'rtk-reach-neu/occludedRTK.txt', []),
}


def ts(s):
    """An ISO 8601 UTC time as seconds since 1970."""
    return datetime.datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp()


def distance(binary, path, profile, extra=()):
    """`binary process PATH --profile PROFILE --json EXTRA…`'s distanceMetres, NaN when it fails."""
    r = subprocess.run([binary, 'process', path, '--profile', profile, '--json', *extra], capture_output=True,
                       text=True)
    return json.loads(r.stdout)['distanceMetres'] if r.returncode == 0 else float('nan')


def convert(binary, name, folder):
    """Recording `name` converted to CSV in `folder`: (path, profile, rows with a position, header)."""
    profile, source, extra = RECORDINGS[name]
    path = os.path.join(folder, name + '.csv')
    subprocess.run([binary, 'convert', os.path.join(DATA, source), path] + extra, check=True, capture_output=True)
    with open(path) as f:
        rows = [r for r in csv.DictReader(f) if r['latitude'] and r['longitude']]
    return path, profile, rows, list(rows[0].keys())


def write_rows(path, header, rows, strip=False):
    """Writes `rows` as CSV; with `strip` their speed and course columns are emptied (a logger without them)."""
    with open(path, 'w', newline='') as f:
        w = csv.DictWriter(f, header)
        w.writeheader()
        for r in rows:
            r = dict(r)
            if strip:
                r['speed_mps'] = r['course_deg'] = ''
            w.writerow(r)
