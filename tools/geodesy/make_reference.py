#!/usr/bin/env python3
"""Generates the geodesic reference cases used by Tests/TrueTrackCoreTests/GeodesicTests.swift.

The expected values come from Karney's own implementation, the Python package `geographiclib`
(`pip install geographiclib`; generated with version 2.1), on the WGS-84 ellipsoid. Its inverse solution
is accurate to about 15 nanometres, so it serves as the truth for a 1 mm tolerance with a wide margin.

The pairs are drawn with a seeded random generator (reproducible) and cover: short lines (1 mm to 10 km),
random global pairs, points at or near the poles, equatorial lines (including those longer than
(1 - f) * 180 degrees, where the shortest path leaves the equator), meridians, nearly antipodal points
(the astroid region), coincident and nearly coincident points, and lines crossing the antimeridian.

Usage (writes the Swift file in place):
    python3 tools/geodesy/make_reference.py > Tests/TrueTrackCoreTests/GeodesicReferenceData.swift
"""
import math
import random

import geographiclib
from geographiclib.geodesic import Geodesic

WGS84 = Geodesic.WGS84
SEED = 20250415


def uniform_point(rng):
    """A point uniform on the sphere (latitude by arcsine of a uniform variate)."""
    lat = math.degrees(math.asin(rng.uniform(-1, 1)))
    lon = rng.uniform(-180, 180)
    return lat, lon


def cases():
    rng = random.Random(SEED)
    out = []

    def add(kind, lat1, lon1, lat2, lon2):
        out.append((kind, lat1, lon1, lat2, lon2))

    def add_direct(kind, lat1, lon1, azi1, s12):
        r = WGS84.Direct(lat1, lon1, azi1, s12)
        add(kind, lat1, lon1, r['lat2'], r['lon2'])

    # Short lines: 1 mm .. 10 km, log-uniform, anywhere up to 89 degrees of latitude.
    for _ in range(40):
        lat1 = rng.uniform(-89, 89)
        lon1 = rng.uniform(-180, 180)
        s12 = 10 ** rng.uniform(-3, 4)
        add_direct('short', lat1, lon1, rng.uniform(0, 360), s12)
    # Global pairs.
    for _ in range(50):
        add('global', *uniform_point(rng), *uniform_point(rng))
    # Poles: exactly at a pole, and within 1e-9 .. 1e-3 degrees of one.
    for _ in range(10):
        pole = rng.choice([-90.0, 90.0])
        add('pole', pole, rng.uniform(-180, 180), *uniform_point(rng))
    for _ in range(6):
        pole = rng.choice([-90.0, 90.0])
        near = pole - math.copysign(10 ** rng.uniform(-9, -3), pole)
        add('near pole', *uniform_point(rng), near, rng.uniform(-180, 180))
    add('pole to pole', 90.0, 0.0, -90.0, 0.0)
    add('pole to pole', -90.0, 30.0, 90.0, -150.0)
    add('same pole', 90.0, 10.0, 90.0, -100.0)
    add('across the pole', 89.9, 10.0, 89.9, -170.0)
    # Equatorial lines, including beyond (1 - f) * 180 = 179.3966 degrees, where the geodesic leaves the
    # equator.
    for lon12 in [1e-7, 0.5, 45.0, 90.0, 135.0, 179.0, 179.39, 179.3966, 179.4, 179.5, 179.9, 179.99]:
        lon1 = rng.uniform(-180, 180)
        add('equatorial', 0.0, lon1, 0.0, lon1 + lon12)
    add('equatorial antipodal', 0.0, 0.0, 0.0, 180.0)
    # Meridians: same longitude, or longitudes 180 degrees apart (over a pole).
    for _ in range(8):
        lon1 = rng.uniform(-180, 180)
        add('meridian', rng.uniform(-90, 90), lon1, rng.uniform(-90, 90), lon1)
    for _ in range(6):
        lon1 = rng.uniform(-180, 180)
        add('meridian over pole', rng.uniform(-90, 90), lon1, rng.uniform(-90, 90), lon1 + 180)
    # Nearly antipodal: point 2 within 0.001 .. 1 degree of the antipode of point 1 (astroid region),
    # including exactly symmetric latitudes (two mirror-image shortest paths).
    for _ in range(38):
        lat1 = rng.uniform(-80, 80)
        lon1 = rng.uniform(-180, 180)
        dlat = rng.choice([0.0, 1.0]) * rng.uniform(-1, 1) * 10 ** rng.uniform(-3, 0)
        dlon = 10 ** rng.uniform(-3, 0.3)
        add('nearly antipodal', lat1, lon1, -lat1 + dlat, lon1 + 180 - dlon)
    # The paper's Table 4-style case and antipodal points off the equator.
    add('antipodal', 30.0, 0.0, -30.0, 180.0)
    add('antipodal', -45.0, 20.0, 45.0, -160.0)
    # Coincident and nearly coincident points.
    for _ in range(6):
        lat, lon = uniform_point(rng)
        add('coincident', lat, lon, lat, lon)
    for _ in range(6):
        lat, lon = uniform_point(rng)
        add('nearly coincident', lat, lon, lat + rng.uniform(-1, 1) * 1e-9, lon + rng.uniform(-1, 1) * 1e-9)
    # Lines across the antimeridian, longitudes written on both sides of +-180.
    for _ in range(10):
        lat1 = rng.uniform(-70, 70)
        add('antimeridian', lat1, 180 - rng.uniform(0, 0.1), lat1 + rng.uniform(-0.1, 0.1),
            -180 + rng.uniform(0, 0.1))
    # Longitudes outside -180..180 (accepted and reduced).
    add('unreduced longitudes', 10.0, 540.5, 11.0, -719.0)
    return out


def swift_double(x):
    if x == 0:
        return '-0.0' if math.copysign(1, x) < 0 else '0.0'
    return repr(float(x))


def azimuths_unique(kind, lat1, lat2, s12):
    """False where several shortest geodesics exist or the azimuth is a convention."""
    if s12 == 0 or abs(lat1) == 90 or abs(lat2) == 90:
        return False
    if kind in ('coincident', 'equatorial antipodal', 'antipodal', 'pole to pole', 'same pole'):
        return False
    if lat2 == -lat1 and kind.startswith('nearly antipodal'):
        return False
    return True


def main():
    rows = []
    for kind, lat1, lon1, lat2, lon2 in cases():
        r = WGS84.Inverse(lat1, lon1, lat2, lon2)
        rows.append((kind, lat1, lon1, lat2, lon2, r['s12'], r['azi1'], r['azi2'],
                     azimuths_unique(kind, lat1, lat2, r['s12'])))
    print('// Generated by tools/geodesy/make_reference.py (seed %d) with Python geographiclib %s' % (
        SEED, geographiclib.__version__))
    print('// (C. F. F. Karney\'s implementation) on WGS-84. Do not edit: re-run the script.')
    print('')
    print('/// One inverse geodesic problem and its solution by GeographicLib.')
    print('struct GeodesicReferenceCase: Sendable, CustomStringConvertible {')
    print('    /// The category the pair was drawn from (short, global, pole, ...).')
    print('    let kind: String')
    print('    let latitude1: Double')
    print('    let longitude1: Double')
    print('    let latitude2: Double')
    print('    let longitude2: Double')
    print('    /// Distance in metres.')
    print('    let distance: Double')
    print('    /// Azimuths in degrees, -180...180, as GeographicLib returns them.')
    print('    let azimuth1: Double')
    print('    let azimuth2: Double')
    print('    /// False where several shortest paths exist or the azimuth is a convention (coincident')
    print('    /// points, poles, exactly antipodal or symmetric points): only the distance is unique there.')
    print('    let azimuthsUnique: Bool')
    print('')
    print('    var description: String {')
    print('        "\\(kind) (\\(latitude1), \\(longitude1)) -> (\\(latitude2), \\(longitude2))"')
    print('    }')
    print('}')
    print('')
    print('/// %d reference cases.' % len(rows))
    print('let geodesicReferenceCases: [GeodesicReferenceCase] = [')
    for kind, lat1, lon1, lat2, lon2, s12, azi1, azi2, unique in rows:
        print('    GeodesicReferenceCase(')
        print('        kind: "%s", latitude1: %s, longitude1: %s, latitude2: %s, longitude2: %s,' % (
            kind, swift_double(lat1), swift_double(lon1), swift_double(lat2), swift_double(lon2)))
        print('        distance: %s, azimuth1: %s, azimuth2: %s, azimuthsUnique: %s),' % (
            swift_double(s12), swift_double(azi1), swift_double(azi2), 'true' if unique else 'false'))
    print(']')


if __name__ == '__main__':
    main()
