"""Helpers shared by the scripts that generate test tracks: a CSV writer in TrueTrack's input layout, a
first-order Gauss-Markov position error, and each binary's distance for a file."""
import csv, datetime, json, math, subprocess

# Where and when the generated tracks lie: a local plane around (45 N, 7 E), starting 2026-03-01 08:00 UTC.
LAT0, LON0 = 45.0, 7.0
M_LAT = 111_132.0
M_LON = 111_320.0 * math.cos(math.radians(LAT0))
T0 = datetime.datetime(2026, 3, 1, 8, 0, 0, tzinfo=datetime.timezone.utc)


def latlon(e, n):
    """(latitude, longitude) of the point `e` metres east and `n` metres north of the plane's origin."""
    return LAT0 + n / M_LAT, LON0 + e / M_LON


def write_fixes(path, rows):
    """Writes rows of (seconds since T0, east m, north m, accuracy m or None, speed m/s or None, course deg or None) as a
    CSV with the columns time, latitude, longitude, accuracy_m, speed_mps, course_deg (empty = absent)."""
    with open(path, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['time', 'latitude', 'longitude', 'accuracy_m', 'speed_mps', 'course_deg'])
        for t, e, n, acc, sp, co in rows:
            lat, lon = latlon(e, n)
            ts = (T0 + datetime.timedelta(seconds=t)).strftime('%Y-%m-%dT%H:%M:%S.%f')[:-3] + 'Z'
            w.writerow([ts, f'{lat:.8f}', f'{lon:.8f}', '' if acc is None else f'{acc:.1f}', '' if sp is None else f'{sp:.2f}',
                        '' if co is None else f'{co:.1f}'])


class GaussMarkov:
    """First-order Gauss-Markov error per axis (sigma metres, tau seconds)."""

    def __init__(self, rng, sigma, tau):
        self.rng, self.s, self.tau = rng, sigma, tau
        self.x = [rng.gauss(0, sigma), rng.gauss(0, sigma)]

    def step(self, dt):
        a = math.exp(-dt / self.tau)
        q = self.s * math.sqrt(1 - a * a)
        self.x = [a * v + self.rng.gauss(0, q) for v in self.x]
        return self.x


def distances(binaries, path, profile, extra=()):
    """`truetrack process PATH --profile PROFILE --json [EXTRA]`'s distanceMetres for each binary (NaN where it
    failed)."""
    out = []
    for b in binaries:
        r = subprocess.run([b, 'process', path, '--profile', profile, '--json', *extra], capture_output=True, text=True)
        out.append(json.loads(r.stdout)['distanceMetres'] if r.returncode == 0 else float('nan'))
    return out


def reflection_desk(rng, seconds, cadence, reflections, drift, tau, white, stated=1.0, cap=None):
    """Rows (as `write_fixes` takes them) at rest every `cadence` s for `seconds`: multipath `reflections`, each
    (period s, amplitude m, phase, east, north, slide s: the phase runs as 2 pi t / (period (1 + s t / seconds)),
    so the period at the end is (1 + s)^2 times the start's), swinging along
    (east, north), on a Gauss-Markov drift (`drift` m, `tau` s) and white noise of `white` m; accuracy `stated`
    times the errors' per-axis scatter as a 68 % radius (at most `cap` m)."""
    g = GaussMarkov(rng, drift, tau)
    errors, t = [], 0.0
    while t <= seconds:
        x = g.step(cadence)
        e, n = x[0] + rng.gauss(0, white), x[1] + rng.gauss(0, white)
        for period, a, phase, se, sn, slide in reflections:
            s = a * math.sin(phase + 2 * math.pi * t / (period * (1 + slide * t / seconds)))
            e += s * se
            n += s * sn
        errors.append((t, e, n))
        t += cadence
    sigma = math.sqrt(sum((e * e + n * n) / 2 for _, e, n in errors) / len(errors))
    accuracy = 1.509592 * sigma * stated if cap is None else min(1.509592 * sigma * stated, cap)
    return [(t, e, n, accuracy, None, None) for t, e, n in errors]

