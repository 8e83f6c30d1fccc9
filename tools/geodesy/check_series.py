#!/usr/bin/env python3
"""Checks the series coefficients used by Sources/TrueTrackCore/Geodesy/GeodesicSeries.swift.

The coefficients were transcribed from Karney (2013), "Algorithms for geodesics", J. Geodesy 87:43-55,
Eqs. (17), (18), (21), (24) and (25). This script integrates the defining integrals with mpmath at 50
digits and prints the largest difference from the truncated series for a moderately large epsilon and
third flattening (0.01) and at half those values: halving eps and n must shrink the error by 2^7 (2^6 for I3), the order of the
truncation; a wrong coefficient of eps^k would make it shrink only by 2^k.

Usage: python3 tools/geodesy/check_series.py   (needs `pip install mpmath`)
"""
import mpmath as mp

mp.mp.dps = 50

A1 = lambda e: (1 + e**2 / 4 + e**4 / 64 + e**6 / 256) / (1 - e)
C1 = lambda e: [-e / 2 + 3 * e**3 / 16 - e**5 / 32,
                -e**2 / 16 + e**4 / 32 - 9 * e**6 / 2048,
                -e**3 / 48 + 3 * e**5 / 256,
                -5 * e**4 / 512 + 3 * e**6 / 512,
                -7 * e**5 / 1280,
                -7 * e**6 / 2048]
C1p = lambda e: [e / 2 - 9 * e**3 / 32 + 205 * e**5 / 1536,
                 5 * e**2 / 16 - 37 * e**4 / 96 + 1335 * e**6 / 4096,
                 29 * e**3 / 96 - 75 * e**5 / 128,
                 539 * e**4 / 1536 - 2391 * e**6 / 2560,
                 3467 * e**5 / 7680,
                 38081 * e**6 / 61440]
A2 = lambda e: (1 - 3 * e**2 / 4 - 7 * e**4 / 64 - 11 * e**6 / 256) / (1 + e)
C2 = lambda e: [e / 2 + e**3 / 16 + e**5 / 32,
                3 * e**2 / 16 + e**4 / 32 + 35 * e**6 / 2048,
                5 * e**3 / 48 + 5 * e**5 / 256,
                35 * e**4 / 512 + 7 * e**6 / 512,
                63 * e**5 / 1280,
                77 * e**6 / 2048]
A3 = lambda e, n: (1 - (mp.mpf(1) / 2 - n / 2) * e - (mp.mpf(1) / 4 + n / 8 - 3 * n**2 / 8) * e**2
                   - (mp.mpf(1) / 16 + 3 * n / 16 + n**2 / 16) * e**3 - (mp.mpf(3) / 64 + n / 32) * e**4
                   - mp.mpf(3) / 128 * e**5)
C3 = lambda e, n: [(mp.mpf(1) / 4 - n / 4) * e + (mp.mpf(1) / 8 - n**2 / 8) * e**2
                   + (mp.mpf(3) / 64 + 3 * n / 64 - n**2 / 64) * e**3 + (mp.mpf(5) / 128 + n / 64) * e**4
                   + mp.mpf(3) / 128 * e**5,
                   (mp.mpf(1) / 16 - 3 * n / 32 + n**2 / 32) * e**2 + (mp.mpf(3) / 64 - n / 32 - 3 * n**2 / 64) * e**3
                   + (mp.mpf(3) / 128 + n / 128) * e**4 + mp.mpf(5) / 256 * e**5,
                   (mp.mpf(5) / 192 - 3 * n / 64 + 5 * n**2 / 192) * e**3 + (mp.mpf(3) / 128 - 5 * n / 192) * e**4
                   + mp.mpf(7) / 512 * e**5,
                   (mp.mpf(7) / 512 - 7 * n / 256) * e**4 + mp.mpf(7) / 512 * e**5,
                   mp.mpf(21) / 2560 * e**5]


def sine_series(c, x):
    return sum(cl * mp.sin(2 * (l + 1) * x) for l, cl in enumerate(c))


def worst_errors(eps, n):
    """Largest |integral - series| over sigma in (0, 3] for each integral, at the given eps and n."""
    k2 = 4 * eps / (1 - eps) ** 2            # from eps = (sqrt(1+k^2)-1)/(sqrt(1+k^2)+1)
    f = 2 * n / (1 + n)
    sigmas = [mp.mpf(i) / 7 for i in range(1, 22)]
    worst = {'I1': 0, 'I1 inverse': 0, 'I2': 0, 'I3': 0}
    for s in sigmas:
        i1 = mp.quad(lambda t: mp.sqrt(1 + k2 * mp.sin(t) ** 2), [0, s])
        worst['I1'] = max(worst['I1'], abs(i1 - A1(eps) * (s + sine_series(C1(eps), s))))
        tau = i1 / A1(eps)
        worst['I1 inverse'] = max(worst['I1 inverse'], abs(s - (tau + sine_series(C1p(eps), tau))))
        i2 = mp.quad(lambda t: 1 / mp.sqrt(1 + k2 * mp.sin(t) ** 2), [0, s])
        worst['I2'] = max(worst['I2'], abs(i2 - A2(eps) * (s + sine_series(C2(eps), s))))
        i3 = mp.quad(lambda t: (2 - f) / (1 + (1 - f) * mp.sqrt(1 + k2 * mp.sin(t) ** 2)), [0, s])
        worst['I3'] = max(worst['I3'], abs(i3 - A3(eps, n) * (s + sine_series(C3(eps, n), s))))
    return worst


def main():
    # The truncation error must fall as eps^7 (I1, I2 and the inverse of I1, kept to eps^6) and as
    # eps^6 (I3, kept to order 5 in eps and n together): halving eps and n must divide it by ~128 or ~64.
    # A wrong coefficient of order k would make the error fall only as 2^k.
    big = worst_errors(mp.mpf('0.01'), mp.mpf('0.01'))
    small = worst_errors(mp.mpf('0.005'), mp.mpf('0.005'))
    for name in big:
        order = mp.log(big[name] / small[name], 2)
        print(f'{name:12s} max error at eps=n=0.01: {mp.nstr(big[name], 3):10s} observed order {mp.nstr(order, 3)}')


if __name__ == '__main__':
    main()
