#!/usr/bin/env python3
"""TrueTrack vs the tools a user would otherwise pick, on the same recordings (optional; not in CI).

Usage: compare.py --truetrack BIN [--datasets DIR] [--out DIR] [--only ID ...]

1. Runs `truetrack bench --json OUT/bench.json --export-csv OUT/fixes` (TrueTrack's figures, and every
   recording's fixes exactly as TrueTrack's readers read them, file order, as CSV).
2. Runs each peer on those fixes with the configuration of PEERS-ACCURACY.md:
   - gpxpy 1.6.2 `length_2d()` and `get_moving_data()` on a GPX built without elevation ("moving 2D");
   - a 4-state constant-velocity Kalman filter (filterpy, forward only) and pykalman's RTS smoother on the
     clean fixes (de-duplicated, time-sorted, accuracy <= 50 m), q = 0.5^2 m^2/s^3, R = (acc / 1.515)^2;
   - movingpandas `KalmanSmootherCV` (process noise 0.5, measurement noise = median accuracy) then length;
     `TrajectoryStopDetector` (max diameter 30 m, min duration 20 s) for stops;
   - trackintel `generate_staypoints` (dist 30 m, time 20 s, like the stop peers) for staypoints.
3. Prints one table of distance error % (walk, drive) / phantom m per 10 min (stationary) per tool (TrueTrack's
   forward filter and its whole-track smoother, `process --smooth`, as `truetrack bench` reports them), the median
   and worst |figure| per group (category; IPIN trials >= 20 apart, as PEERS-ACCURACY.md groups them), and
   speed (fixes per second over all recordings) per tool.
A tool that is missing or fails shows "n/a".
"""
import argparse, csv, json, math, os, re, subprocess, sys, time

R = 6371008.8


def haversine(a, b):
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * R * math.asin(min(1.0, math.sqrt(h)))


def path_length(points):
    return sum(haversine(points[i - 1], points[i]) for i in range(1, len(points)))


def read_fixes(path):
    fixes = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            t = row["timestamp"]
            from datetime import datetime
            ts = datetime.fromisoformat(t.replace("Z", "+00:00")).timestamp()
            acc = float(row["accuracy_m"]) if row["accuracy_m"] not in ("", "0") else None
            speed = float(row["speed_mps"]) if row["speed_mps"] else None
            fixes.append((ts, float(row["latitude"]), float(row["longitude"]), acc, speed))
    return fixes


def clean(fixes):
    seen, out = set(), []
    for f in fixes:
        key = f[:3]
        if key in seen:
            continue
        seen.add(key)
        if f[3] is None or f[3] <= 50:
            out.append(f)
    return sorted(out, key=lambda f: f[0])


def local(fixes):
    lat0, lon0 = fixes[0][1], fixes[0][2]
    k = math.cos(math.radians(lat0))
    return [((f[2] - lon0) * math.radians(1) * R * k, (f[1] - lat0) * math.radians(1) * R) for f in fixes], (lat0, lon0, k)


def unproject(xy, origin):
    lat0, lon0, k = origin
    return [(lat0 + y / (math.radians(1) * R), lon0 + x / (math.radians(1) * R * k)) for x, y in xy]


def cv_matrices(dt, q):
    import numpy as np
    F = np.array([[1, dt, 0, 0], [0, 1, 0, 0], [0, 0, 1, dt], [0, 0, 0, 1]], float)
    b = np.array([[dt ** 3 / 3, dt ** 2 / 2], [dt ** 2 / 2, dt]]) * q
    Q = np.zeros((4, 4))
    Q[0:2, 0:2] = b
    Q[2:4, 2:4] = b
    return F, Q


# ---- peers: each returns a distance in metres (or raises) ----

def peer_gpxpy_len2d(fixes):
    import gpxpy.gpx
    from datetime import datetime, timezone
    gpx = gpxpy.gpx.GPX()
    track = gpxpy.gpx.GPXTrack()
    seg = gpxpy.gpx.GPXTrackSegment()
    gpx.tracks.append(track)
    track.segments.append(seg)
    for f in fixes:
        seg.points.append(gpxpy.gpx.GPXTrackPoint(f[1], f[2], time=datetime.fromtimestamp(f[0], timezone.utc)))
    return gpx.length_2d(), gpx


def peer_gpxpy_moving2d(fixes):
    _, gpx = peer_gpxpy_len2d(fixes)
    return gpx.get_moving_data().moving_distance


def peer_filterpy(fixes):
    import numpy as np
    from filterpy.kalman import KalmanFilter
    c = clean(fixes)
    xy, origin = local(c)
    kf = KalmanFilter(dim_x=4, dim_z=2)
    kf.H = np.array([[1, 0, 0, 0], [0, 0, 1, 0]], float)
    kf.x = np.array([xy[0][0], 0, xy[0][1], 0], float)
    r0 = ((c[0][3] or 10) / 1.515) ** 2
    kf.P = np.diag([r0, 100, r0, 100])
    out = [xy[0]]
    for i in range(1, len(c)):
        dt = c[i][0] - c[i - 1][0]
        if dt <= 0:
            continue
        kf.F, kf.Q = cv_matrices(dt, 0.25)
        kf.predict()
        kf.update(np.array(xy[i]), R=np.eye(2) * ((c[i][3] or 10) / 1.515) ** 2)
        out.append((kf.x[0], kf.x[2]))
    return path_length(unproject(out, origin))


def peer_pykalman(fixes):
    import numpy as np
    from pykalman import KalmanFilter
    c = clean(fixes)
    keep = [c[0]] + [c[i] for i in range(1, len(c)) if c[i][0] > c[i - 1][0]]
    xy, origin = local(keep)
    n = len(keep)
    Fs, Qs = [], []
    for i in range(1, n):
        F, Q = cv_matrices(keep[i][0] - keep[i - 1][0], 0.25)
        Fs.append(F)
        Qs.append(Q)
    if not Fs:
        return 0.0
    Rs = np.array([np.eye(2) * ((f[3] or 10) / 1.515) ** 2 for f in keep])
    r0 = Rs[0][0, 0]
    kf = KalmanFilter(transition_matrices=np.array(Fs), observation_matrices=np.array([[1, 0, 0, 0], [0, 0, 1, 0]], float),
                      transition_covariance=np.array(Qs), observation_covariance=Rs,
                      initial_state_mean=[xy[0][0], 0, xy[0][1], 0], initial_state_covariance=np.diag([r0, 100, r0, 100]))
    means, _ = kf.smooth(np.array(xy))
    return path_length(unproject([(m[0], m[2]) for m in means], origin))


def mpd_trajectory(fixes):
    import pandas as pd, geopandas as gpd, movingpandas as mpd
    from shapely.geometry import Point
    c = clean(fixes)
    df = pd.DataFrame({"t": pd.to_datetime([f[0] for f in c], unit="s"), "geometry": [Point(f[2], f[1]) for f in c]})
    gdf = gpd.GeoDataFrame(df, geometry="geometry", crs="EPSG:4326").set_index("t")
    accs = sorted(f[3] for f in c if f[3] is not None)
    return mpd.Trajectory(gdf, 1), (accs[len(accs) // 2] if accs else 10.0)


def peer_mpd(fixes):
    import movingpandas as mpd
    traj, noise = mpd_trajectory(fixes)
    return mpd.KalmanSmootherCV(traj).smooth(process_noise_std=0.5, measurement_noise_std=noise).get_length()


def peer_mpd_stops(fixes):
    import movingpandas as mpd
    from datetime import timedelta
    traj, _ = mpd_trajectory(fixes)
    return len(mpd.TrajectoryStopDetector(traj).get_stop_segments(min_duration=timedelta(seconds=20), max_diameter=30))


def peer_trackintel_staypoints(fixes):
    import pandas as pd, geopandas as gpd, trackintel as ti
    from shapely.geometry import Point
    c = clean(fixes)
    df = gpd.GeoDataFrame({"user_id": 0, "tracked_at": pd.to_datetime([f[0] for f in c], unit="s", utc=True),
                           "geometry": [Point(f[2], f[1]) for f in c]}, geometry="geometry", crs="EPSG:4326")
    pfs = ti.Positionfixes(df)
    _, sp = pfs.generate_staypoints(method="sliding", dist_threshold=30, time_threshold=20 / 60)
    return len(sp)


DISTANCE_PEERS = [("gpxpy len2d", lambda f: peer_gpxpy_len2d(f)[0]), ("gpxpy moving 2D", peer_gpxpy_moving2d),
                  ("filterpy CV", peer_filterpy), ("pykalman RTS", peer_pykalman), ("mpd KS-CV", peer_mpd)]
STOP_PEERS = [("mpd stops", peer_mpd_stops), ("trackintel staypoints", peer_trackintel_staypoints)]


def fmt(v, digits=1, signed=True):
    if v is None:
        return "n/a"
    return f"{v:+.{digits}f}" if signed else f"{v:.{digits}f}"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--truetrack", default=os.path.join(here, "../../.build/release/truetrack"))
    ap.add_argument("--datasets", default=os.environ.get("TRUETRACK_DATASETS", os.path.join(here, "../../../shared/datasets")))
    ap.add_argument("--out", default=os.path.join(here, "out"))
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--markdown", help="also write the tables to this file (with a header)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    cmd = [a.truetrack, "bench", "--datasets", a.datasets, "--json", os.path.join(a.out, "bench.json"),
           "--export-csv", os.path.join(a.out, "fixes")]
    for i in a.only:
        cmd += ["--only", i]
    subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)
    bench = json.load(open(os.path.join(a.out, "bench.json")))
    rows, speed = [], {}
    for r in bench["recordings"]:
        if r["status"] != "ok":
            continue
        ref = r.get("referenceDistanceMetres")
        if ref is None:
            continue
        fixes = read_fixes(os.path.join(a.out, "fixes", r["id"] + ".csv"))
        dur = r["durationSeconds"] or 1
        def figure(d):
            return (d - ref) / ref * 100 if ref > 0 else d * 600 / dur
        tt = r["trueTrack"]["metres"]
        smoothed = (r.get("smoother") or {}).get("distance", {}).get("metres")
        cells = [r["id"], r["category"], f"{ref:.1f}", fmt(figure(tt), 2),
                 fmt(figure(smoothed), 2) if smoothed is not None else "n/a"]
        for name, peer in DISTANCE_PEERS:
            try:
                t0 = time.perf_counter()
                d = peer(fixes)
                speed.setdefault(name, [0, 0.0])
                speed[name][0] += len(fixes)
                speed[name][1] += time.perf_counter() - t0
                cells.append(fmt(figure(d), 2))
            except Exception as e:  # a peer missing or failing is shown, not fatal
                cells.append("n/a")
                print(f"{name} on {r['id']}: {e}", file=sys.stderr)
        for name, peer in STOP_PEERS:
            try:
                cells.append(str(peer(fixes)))
            except Exception as e:
                cells.append("n/a")
                print(f"{name} on {r['id']}: {e}", file=sys.stderr)
        rows.append(cells)
    header = ["recording", "cat", "ref m", "TrueTrack", "TrueTrack --smooth"] + [n for n, _ in DISTANCE_PEERS] + [n for n, _ in STOP_PEERS]
    out = ["Distance error % (walk, drive) / phantom m per 10 min (stationary); stops = count found", "",
           "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(c) + " |" for c in rows]
    # Median and worst |figure| per group and tool (PEERS-ACCURACY.md's summary rows): the figures to beat.
    groups = {}
    for c in rows:
        m = re.match(r"ipin\d+-t(\d+)r", c[0])
        key = c[1] + (" (degraded, IPIN trials >= 20)" if m and int(m.group(1)) >= 20 else "")
        groups.setdefault(key, []).append(c)
    tools = len(header) - 3 - len(STOP_PEERS)
    out += ["", "Median / worst |figure| per group (lower is better)", "",
            "| group | recordings | " + " | ".join(header[3:3 + tools]) + " |", "|" + "---|" * (tools + 2)]
    for key, members in sorted(groups.items()):
        cells = [key, str(len(members))]
        for j in range(3, 3 + tools):
            values = sorted(abs(float(c[j])) for c in members if c[j] != "n/a")
            if not values:
                cells.append("n/a")
                continue
            mid = len(values) // 2
            median = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
            cells.append(f"{median:.2f} / {values[-1]:.2f}")
        out.append("| " + " | ".join(cells) + " |")
    out += ["", "Speed (fixes per second over the recordings above, Python tools incl. set-up per recording)", "",
            "| tool | fixes/s |", "|---|---|"]
    out += [f"| {name} | {n / s:,.0f} |" for name, (n, s) in speed.items()]
    out.append("| TrueTrack | see `make bench-quick` (tracker, end-to-end-csv) |")
    text = "\n".join(out) + "\n"
    print(text, end="")
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("# TrueTrack vs peer tools on the recorded data sets\n\n"
                    "Generated by `make peers` (Benchmarks/peers/compare.py, pinned Benchmarks/peers/requirements.txt). "
                    "Peers run on the fixes exactly as TrueTrack's readers read them (`truetrack bench --export-csv`); "
                    "configurations in compare.py's docstring. Do not edit by hand.\n\n" + text)

if __name__ == "__main__":
    main()
