#!/usr/bin/env python3
"""Seeded generator of vehicle (driving / cycling) GPS tracks with exact ground truth.

Each track: a kinematic trajectory (turtle-built polyline with arcs and reversing cusps, trapezoidal speed
profiles, parked spells) in a local metre frame around 37.4263,-122.0936, sampled at a jittery 3-20 s cadence,
plus noise (white and/or Gauss-Markov, sometimes understated, multipath jumps), written as CSV
`time,latitude,longitude,accuracy[,speed_kmh,course]`.
Truth = arc length travelled between the first and the last fix time.

Written by an adversarial reviewer of the smoother's white-noise floor (2026-12-03): the set behind the "1,080
generated driving and cycling tracks" figures in docs/ARCHITECTURE.md (`--seeds 20`). Needs numpy.

usage: python3 tools/analysis/vehicles/vehicle_families.py OUTDIR [--seeds N] [--first-seed S] [--families a,b]
           [--grid '{"cad_s":[3,5],"sig_claim":[2,4]}']
writes OUTDIR/<family>/<family>-s<seed>.csv and OUTDIR/manifest.json; then
       python3 tools/analysis/vehicles/compare.py OUTDIR/manifest.json BEFORE AFTER
"""
import json, math, os, sys, argparse
import numpy as np
from datetime import datetime, timezone, timedelta

LAT0, LON0 = 37.4263, -122.0936
# Metres per degree on the sphere TrueTrack measures with (R = 6,371,008.8 m), so that the truth (the path length in
# the metre frame) is the length the tool's haversine reads on the written coordinates; with the common 110,574 /
# 111,320 m constants (the reviewer's first form) the truth differed from that by +0.56 % north-south and -0.11 %
# east-west.
M_PER_DEG_LAT = 6371008.8 * math.pi / 180
M_PER_DEG_LON = M_PER_DEG_LAT * math.cos(math.radians(LAT0))
T0 = datetime(2024, 3, 6, 6, 0, 0, tzinfo=timezone.utc)
DT = 0.25  # simulation step, s


# ---------------------------------------------------------------- geometry: a turtle that lays path pieces
class Turtle:
    def __init__(self, x=0.0, y=0.0, heading=0.0):
        self.x, self.y, self.h = x, y, heading  # heading radians, 0 = east

    def straight(self, L, step=0.5):
        n = max(1, int(math.ceil(L / step)))
        pts = []
        for i in range(1, n + 1):
            d = L * i / n
            pts.append((self.x + d * math.cos(self.h), self.y + d * math.sin(self.h)))
        self.x, self.y = pts[-1]
        return pts

    def arc(self, angle_deg, radius, step=0.5):
        """turn left (positive) or right (negative) by angle_deg on a circle of radius"""
        ang = math.radians(angle_deg)
        L = abs(ang) * radius
        n = max(2, int(math.ceil(L / step)))
        sgn = 1 if ang > 0 else -1
        cx = self.x - sgn * radius * math.sin(self.h)
        cy = self.y + sgn * radius * math.cos(self.h)
        pts = []
        for i in range(1, n + 1):
            h = self.h + ang * i / n
            pts.append((cx + sgn * radius * math.sin(h), cy - sgn * radius * math.cos(h)))
        self.h += ang
        self.x, self.y = pts[-1]
        return pts

    def reverse(self):
        self.h += math.pi


def piece_len(start, pts):
    L = 0.0
    px, py = start
    for x, y in pts:
        L += math.hypot(x - px, y - py)
        px, py = x, y
    return L


# ---------------------------------------------------------------- kinematics
class Sim:
    """Accumulates a timeline: arrays of t, x, y, v (speed), hd (direction of motion), S (arc length)."""

    def __init__(self, rng, turtle=None):
        self.rng = rng
        self.tu = turtle or Turtle(heading=rng.uniform(0, 2 * math.pi))
        self.t = [0.0]; self.x = [self.tu.x]; self.y = [self.tu.y]; self.v = [0.0]
        self.hd = [self.tu.h]; self.S = [0.0]
        self.moving = [False]

    def park(self, seconds):
        n = int(round(seconds / DT))
        t0 = self.t[-1]
        for i in range(1, n + 1):
            self.t.append(t0 + i * DT); self.x.append(self.x[-1]); self.y.append(self.y[-1])
            self.v.append(0.0); self.hd.append(self.hd[-1]); self.S.append(self.S[-1]); self.moving.append(False)

    def move(self, pts, vmax, a=1.5, d=2.0, v0=None, v1=0.0):
        """move along pts (from current position) with a trapezoid: start at v0 (default: current speed),
        end at v1, accelerate a, decelerate d, cap vmax."""
        if v0 is None:
            v0 = self.v[-1]
        start = (self.x[-1], self.y[-1])
        P = np.array([start] + list(pts))
        seg = np.hypot(np.diff(P[:, 0]), np.diff(P[:, 1]))
        cum = np.concatenate([[0], np.cumsum(seg)])
        L = cum[-1]
        if L <= 0:
            return
        s, v = 0.0, v0
        t0 = self.t[-1]; S0 = self.S[-1]
        k = 0
        while s < L - 1e-9:
            rem = L - s
            vcap = min(vmax, math.sqrt(max(v1 * v1 + 2 * d * rem, 0)))
            vn = min(vcap, v + a * DT) if v < vcap else max(vcap, v - d * DT)
            vn = max(vn, 0.05)  # never stall
            s = min(L, s + 0.5 * (v + vn) * DT)
            v = vn
            k += 1
            i = min(np.searchsorted(cum, s), len(cum) - 1)
            i = max(i, 1)
            f = (s - cum[i - 1]) / max(seg[i - 1], 1e-12)
            x = P[i - 1, 0] + f * (P[i, 0] - P[i - 1, 0]); y = P[i - 1, 1] + f * (P[i, 1] - P[i - 1, 1])
            hd = math.atan2(P[i, 1] - P[i - 1, 1], P[i, 0] - P[i - 1, 0])
            self.t.append(t0 + k * DT); self.x.append(x); self.y.append(y); self.v.append(v if s < L else v1)
            self.hd.append(hd); self.S.append(S0 + s); self.moving.append(True)

    def go(self, kind, *args, vmax=10, a=1.5, d=2.0, v1=0.0, v0=None):
        pts = getattr(self.tu, kind)(*args)
        self.move(pts, vmax, a, d, v0=v0, v1=v1)

    def reverse(self):
        self.tu.reverse()

    def arrays(self):
        return (np.array(self.t), np.array(self.x), np.array(self.y), np.array(self.v), np.array(self.hd),
                np.array(self.S), np.array(self.moving))


# ---------------------------------------------------------------- helper routes
def city_drive(sim, rng, blocks, v=(11, 14), p_red=0.5, red=(20, 90), turn_r=(8, 15)):
    """blocks of 150-450 m; at each corner a red light (full stop) with p_red, else slow to 5 m/s (or the
    cruise); 60 % of corners turn 90 degrees"""
    for _ in range(blocks):
        stop = rng.random() < p_red
        turn = rng.random() < 0.6
        vc = rng.uniform(*v)
        vturn = min(5.0, vc) if turn else vc
        sim.go('straight', rng.uniform(150, 450), vmax=vc, a=1.8, d=2.2, v1=0 if stop else vturn)
        if stop:
            sim.park(rng.uniform(*red))
        if turn:
            sim.go('arc', float(rng.choice([-90, 90])), rng.uniform(*turn_r), vmax=vturn, a=1.5, d=2, v1=vturn)
    sim.go('straight', 20, vmax=5, d=2, v1=0)


def three_point_turn(sim, rng):
    r = rng.uniform(5, 7)
    sim.go('arc', 80, r, vmax=2.0, a=1.0, d=1.2)
    sim.park(rng.uniform(1, 3))
    sim.reverse()
    sim.go('arc', 80, r, vmax=1.5, a=0.8, d=1.0)  # reversing: the turtle turns the other way round on the circle
    sim.park(rng.uniform(1, 3))
    sim.reverse()
    sim.go('arc', 20, r, vmax=3.0, a=1.2, d=1.5)


# ---------------------------------------------------------------- families: build(sim, rng)
def f_creep_queue(sim, rng):
    sim.park(rng.uniform(300, 900))
    sim.go('straight', rng.uniform(300, 800), vmax=12)
    T = rng.uniform(1200, 2400); t_end = sim.t[-1] + T
    while sim.t[-1] < t_end:
        sim.go('straight', rng.uniform(3, 8), vmax=rng.uniform(0.8, 2), a=0.8, d=1.0)
        sim.park(rng.uniform(10, 60))
    sim.go('straight', rng.uniform(500, 1500), vmax=13)
    sim.park(rng.uniform(300, 900))


def f_drive_through(sim, rng):
    sim.park(rng.uniform(120, 600))
    city_drive(sim, rng, 2)
    sim.go('arc', 90, 8, vmax=4)
    for _ in range(rng.integers(6, 11)):
        sim.go('straight', rng.uniform(4.5, 7), vmax=1.5, a=0.8, d=1.0)
        sim.park(rng.uniform(30, 120))
    sim.go('arc', 90, 6, vmax=2)
    for _ in range(2):  # pay and pick-up windows
        sim.go('straight', rng.uniform(8, 15), vmax=2, a=0.8, d=1.0)
        sim.park(rng.uniform(60, 180))
    sim.go('arc', 90, 6, vmax=3); sim.go('straight', 30, vmax=4); sim.go('arc', -90, 8, vmax=4)
    city_drive(sim, rng, 2)
    sim.park(rng.uniform(120, 600))


def f_car_park(sim, rng):
    sim.park(rng.uniform(120, 600))
    city_drive(sim, rng, 2)
    for _ in range(rng.integers(3, 7)):  # lanes
        sim.go('straight', rng.uniform(30, 80), vmax=rng.uniform(2, 4), a=1, d=1.2, v1=1.5)
        sim.go('arc', rng.choice([-90, 90]), rng.uniform(5, 7), vmax=2, a=1, d=1)
    # reverse into bay
    sim.go('straight', rng.uniform(4, 7), vmax=1.5, a=0.8, d=1)
    sim.park(rng.uniform(2, 5)); sim.reverse()
    sim.go('arc', rng.choice([-90, 90]), rng.uniform(5, 6), vmax=1.2, a=0.6, d=0.8)
    sim.go('straight', rng.uniform(2, 4), vmax=0.8, a=0.5, d=0.8)
    sim.park(rng.uniform(1200, 3600))
    sim.go('straight', rng.uniform(5, 8), vmax=2, a=1, d=1)  # pull out forwards
    sim.go('arc', rng.choice([-90, 90]), 6, vmax=2, a=1, d=1)
    for _ in range(rng.integers(2, 4)):
        sim.go('straight', rng.uniform(30, 80), vmax=rng.uniform(2, 4), a=1, d=1.2, v1=1.5)
        sim.go('arc', rng.choice([-90, 90]), rng.uniform(5, 7), vmax=2, a=1, d=1)
    city_drive(sim, rng, 2)
    sim.park(rng.uniform(120, 600))


def f_stop_go_lights(sim, rng):
    sim.park(rng.uniform(60, 300))
    city_drive(sim, rng, int(rng.integers(8, 15)), p_red=0.6)
    sim.park(rng.uniform(60, 300))


def f_highway_jam(sim, rng):
    sim.park(rng.uniform(60, 300))
    sim.go('straight', rng.uniform(1500, 3000), vmax=25, v1=5)
    t_end = sim.t[-1] + rng.uniform(900, 1800)
    while sim.t[-1] < t_end:
        sim.go('arc', rng.uniform(-3, 3) + 0.001, 400, vmax=rng.uniform(2, 6), a=0.7, d=1.0) if rng.random() < 0.3 \
            else sim.go('straight', rng.uniform(10, 80), vmax=rng.uniform(2, 6), a=0.7, d=1.0)
        sim.park(rng.uniform(5, 60))
    sim.go('straight', rng.uniform(1500, 3000), vmax=25)
    sim.park(rng.uniform(60, 300))


def f_three_point_turns(sim, rng):
    sim.park(rng.uniform(120, 600))
    for _ in range(rng.integers(4, 8)):
        L = rng.uniform(80, 250)
        sim.go('straight', L, vmax=rng.uniform(6, 9))
        sim.park(rng.uniform(30, 300))
        three_point_turn(sim, rng)
        sim.go('straight', L * rng.uniform(0.8, 1.0), vmax=rng.uniform(6, 9))
        sim.go('arc', rng.choice([-90, 90]), 8, vmax=4)
    sim.park(rng.uniform(120, 600))


def f_u_turn_deliveries(sim, rng):
    sim.park(rng.uniform(120, 600))
    for _ in range(rng.integers(6, 12)):
        sim.go('straight', rng.uniform(150, 500), vmax=rng.uniform(8, 12))
        sim.park(rng.uniform(120, 360))
        sim.go('arc', rng.choice([-180, 180]), rng.uniform(5, 8), vmax=2.5, a=1, d=1.2)
    sim.park(rng.uniform(120, 600))


def f_courier_hops(sim, rng):
    sim.park(rng.uniform(120, 600))
    for _ in range(rng.integers(15, 30)):
        sim.go('straight', rng.uniform(30, 150), vmax=rng.uniform(4, 8))
        if rng.random() < 0.5:
            sim.go('arc', rng.choice([-90, 90]), 7, vmax=3)
        sim.park(rng.uniform(60, 240))
    sim.park(rng.uniform(120, 600))


def f_departure_after_park(sim, rng):
    sim.park(rng.uniform(3600, 3 * 3600))
    sim.go('straight', rng.uniform(8, 20), vmax=1.5, a=0.6, d=1)  # pull out of the space slowly
    sim.go('arc', rng.choice([-90, 90]), 6, vmax=2.5, a=0.8, d=1)
    city_drive(sim, rng, int(rng.integers(4, 10)), p_red=0.5)


def f_parked_multipath(sim, rng):
    sim.park(rng.uniform(1800, 4800))
    city_drive(sim, rng, int(rng.integers(1, 3)))
    sim.park(rng.uniform(1800, 4800))
    city_drive(sim, rng, 1)
    sim.park(rng.uniform(600, 1800))


def f_taxi_rank(sim, rng):
    sim.park(rng.uniform(300, 900))
    t_end = sim.t[-1] + rng.uniform(2700, 5400)
    while sim.t[-1] < t_end:
        sim.go('straight', rng.uniform(4.5, 6), vmax=1.0, a=0.6, d=0.8)
        sim.park(rng.uniform(120, 480))
    sim.go('arc', 90, 8, vmax=4)
    city_drive(sim, rng, 3)
    sim.park(rng.uniform(120, 600))


def f_school_pickup(sim, rng):
    sim.park(rng.uniform(120, 300))
    city_drive(sim, rng, 2)
    t_end = sim.t[-1] + rng.uniform(420, 900)
    while sim.t[-1] < t_end:
        sim.go('straight', rng.uniform(5, 25), vmax=rng.uniform(1, 2), a=0.6, d=0.8)
        sim.park(rng.uniform(3, 40))
    sim.park(rng.uniform(30, 120))
    city_drive(sim, rng, 2)
    sim.park(rng.uniform(120, 300))


def f_garbage_truck(sim, rng):
    sim.park(rng.uniform(120, 600))
    t_end = sim.t[-1] + rng.uniform(2400, 4200)
    while sim.t[-1] < t_end:
        if rng.random() < 0.08:
            sim.go('arc', rng.choice([-90, 90]), 9, vmax=3)
        sim.go('straight', rng.uniform(15, 40), vmax=3, a=0.8, d=1.0)
        sim.park(rng.uniform(15, 40))
    sim.park(rng.uniform(120, 600))


def f_parking_search(sim, rng):
    sim.park(rng.uniform(120, 300))
    city_drive(sim, rng, 2)
    t_end = sim.t[-1] + rng.uniform(480, 900)
    while sim.t[-1] < t_end:
        sim.go('straight', rng.uniform(60, 120), vmax=rng.uniform(2, 4), a=0.8, d=1, v1=1.5)
        sim.go('arc', rng.choice([-90, 90, 90]), 7, vmax=2.5, a=0.8, d=1, v1=1.5)
    sim.go('straight', 6, vmax=1.5)
    sim.park(rng.uniform(900, 1800))


def f_car_wash(sim, rng):
    sim.park(rng.uniform(120, 600))
    city_drive(sim, rng, 2)
    for _ in range(rng.integers(3, 7)):  # queue
        sim.go('straight', rng.uniform(5, 7), vmax=1.2, a=0.6, d=0.8)
        sim.park(rng.uniform(120, 300))
    sim.go('straight', rng.uniform(30, 50), vmax=rng.uniform(0.15, 0.3), a=0.3, d=0.3)  # conveyor
    sim.go('straight', 20, vmax=2)
    sim.park(rng.uniform(300, 600))  # vacuum bay
    city_drive(sim, rng, 2)
    sim.park(rng.uniform(120, 600))


def f_urban_mixed(sim, rng):  # an ordinary working session: drives, stops of 5-40 min
    sim.park(rng.uniform(300, 1200))
    for _ in range(rng.integers(3, 6)):
        city_drive(sim, rng, int(rng.integers(3, 8)))
        sim.park(rng.uniform(300, 2400))


def f_tractor_rows(sim, rng):
    sim.park(rng.uniform(120, 600))
    L = rng.uniform(60, 200); w = rng.uniform(3, 6)
    for i in range(rng.integers(8, 16)):
        sim.go('straight', L, vmax=rng.uniform(1.5, 3), a=0.5, d=0.5, v1=1.0)
        sgn = 1 if i % 2 == 0 else -1
        sim.go('arc', sgn * 180, w / 2, vmax=1.0, a=0.5, d=0.5, v1=1.0)
    sim.park(rng.uniform(120, 600))


def f_yard_shunter(sim, rng):
    sim.park(rng.uniform(120, 600))
    for _ in range(rng.integers(10, 20)):
        sim.go('straight', rng.uniform(20, 60), vmax=rng.uniform(2, 4), a=0.8, d=1)
        sim.park(rng.uniform(5, 60))
        sim.reverse()
        if rng.random() < 0.5:
            sim.go('arc', rng.choice([-30, 30]), 12, vmax=2, a=0.8, d=1)
        sim.go('straight', rng.uniform(20, 60), vmax=rng.uniform(1.5, 3), a=0.8, d=1)
        sim.park(rng.uniform(30, 300))
        sim.reverse()
    sim.park(rng.uniform(120, 600))


# ---- cycling
def f_uphill_slow(sim, rng):
    sim.park(rng.uniform(60, 300))
    sim.go('straight', rng.uniform(500, 1500), vmax=7)
    for _ in range(rng.integers(6, 14)):  # switchback climb
        sim.go('straight', rng.uniform(80, 250), vmax=rng.uniform(1.3, 2.8), a=0.3, d=0.5, v1=1.2)
        sim.go('arc', rng.choice([-170, 170]), rng.uniform(4, 8), vmax=1.2, a=0.3, d=0.5, v1=1.2)
        if rng.random() < 0.2:
            sim.go('straight', 5, vmax=1.2, v1=0); sim.park(rng.uniform(20, 120))
    sim.park(rng.uniform(60, 600))
    for _ in range(rng.integers(3, 6)):  # descent
        sim.go('straight', rng.uniform(200, 500), vmax=12, v1=5)
        sim.go('arc', rng.choice([-120, 120]), 12, vmax=5, v1=5)
    sim.park(rng.uniform(60, 300))


def f_crit_laps(sim, rng):
    sim.park(rng.uniform(300, 900))
    a, b = rng.uniform(150, 350), rng.uniform(100, 200)
    sim.go('straight', 20, vmax=4)
    for _ in range(rng.integers(15, 30)):
        for L in (a, b, a, b):
            sim.go('straight', L, vmax=rng.uniform(10, 12.5), a=1.2, d=2.5, v1=7)
            sim.go('arc', 90, 10, vmax=7, v1=7)
    sim.go('straight', 50, vmax=5, v1=0)
    sim.park(rng.uniform(300, 900))


def f_velodrome(sim, rng):
    sim.park(rng.uniform(300, 900))
    r = 25.0; L = 250 - 2 * math.pi * r  # 250 m oval
    for _ in range(rng.integers(2, 5)):  # sessions
        for _ in range(rng.integers(10, 25)):
            for _h in range(2):
                sim.go('straight', L / 2, vmax=rng.uniform(12, 15), a=1.2, d=2, v1=12)
                sim.go('arc', 180, r, vmax=15, v1=12)
        sim.go('straight', L / 2, vmax=6, v1=0)
        sim.park(rng.uniform(300, 900))


def f_track400(sim, rng):
    sim.park(rng.uniform(300, 900))
    r = 36.8; L = 84.39
    for _ in range(rng.integers(10, 25)):
        for _h in range(2):
            sim.go('straight', L, vmax=rng.uniform(5, 8), a=0.8, d=1, v1=5)
            sim.go('arc', 180, r, vmax=8, v1=5)
    sim.go('straight', 30, vmax=3, v1=0)
    sim.park(rng.uniform(300, 900))


def f_crowd_ride(sim, rng):
    sim.park(rng.uniform(300, 900))
    t_end = sim.t[-1] + rng.uniform(1800, 3600)
    while sim.t[-1] < t_end:
        sim.go('straight', rng.uniform(60, 300), vmax=rng.uniform(2, 4), a=0.4, d=0.6)
        if rng.random() < 0.4:
            sim.go('arc', rng.choice([-90, 90]), 10, vmax=2.5, a=0.4, d=0.6)
        sim.park(rng.uniform(10, 90))
    sim.park(rng.uniform(300, 900))


def f_bike_courier(sim, rng):
    sim.park(rng.uniform(120, 600))
    for _ in range(rng.integers(10, 20)):
        sim.go('straight', rng.uniform(100, 400), vmax=rng.uniform(4, 7))
        sim.go('arc', rng.choice([-90, 90]), 6, vmax=3)
        sim.go('straight', rng.uniform(15, 50), vmax=1.0, a=0.5, d=0.5)  # pushing the bike to the door
        sim.park(rng.uniform(60, 300))
        sim.reverse()
        sim.go('straight', rng.uniform(15, 50), vmax=1.0, a=0.5, d=0.5)
        sim.reverse() if rng.random() < 0.5 else None
    sim.park(rng.uniform(120, 600))


def f_commute_lights(sim, rng):
    sim.park(rng.uniform(120, 600))
    city_drive(sim, rng, int(rng.integers(10, 20)), v=(5, 8), p_red=0.5, red=(15, 60), turn_r=(5, 8))
    sim.park(rng.uniform(120, 600))


def f_mtb_switchbacks(sim, rng):
    sim.park(rng.uniform(120, 600))
    for _ in range(rng.integers(15, 35)):
        sim.go('straight', rng.uniform(25, 60), vmax=rng.uniform(2, 4), a=0.5, d=0.8, v1=1.5)
        sim.go('arc', rng.choice([-175, 175]), rng.uniform(3, 5), vmax=1.5, a=0.5, d=0.5, v1=1.5)
    sim.park(rng.uniform(120, 600))


def f_cafe_departure(sim, rng):
    sim.park(rng.uniform(60, 300))
    city_drive(sim, rng, int(rng.integers(5, 10)), v=(5, 8), p_red=0.4, red=(15, 60), turn_r=(5, 8))
    sim.go('straight', 15, vmax=1.0, a=0.5, d=0.5)  # wheel it to the rack
    sim.park(rng.uniform(1800, 4800))
    sim.reverse(); sim.go('straight', 15, vmax=1.0, a=0.5, d=0.5)
    city_drive(sim, rng, int(rng.integers(5, 10)), v=(5, 8), p_red=0.4, red=(15, 60), turn_r=(5, 8))
    sim.park(rng.uniform(60, 300))


def f_lights_creep(sim, rng):  # a cyclist in a crowded city: rolls forward at red lights, filters through queues
    sim.park(rng.uniform(120, 600))
    for _ in range(rng.integers(8, 16)):
        sim.go('straight', rng.uniform(100, 300), vmax=rng.uniform(4, 7))
        for _k in range(rng.integers(2, 6)):
            sim.park(rng.uniform(8, 30))
            sim.go('straight', rng.uniform(1.5, 6), vmax=0.8, a=0.5, d=0.6)
        sim.park(rng.uniform(5, 30))
        if rng.random() < 0.5:
            sim.go('arc', rng.choice([-90, 90]), 6, vmax=3)
    sim.park(rng.uniform(120, 600))


def f_school_run_cargo(sim, rng):
    sim.park(rng.uniform(300, 900))
    for _ in range(rng.integers(3, 6)):
        city_drive(sim, rng, int(rng.integers(2, 4)), v=(2.5, 4), p_red=0.5, red=(15, 60), turn_r=(5, 8))
        sim.park(rng.uniform(300, 900))


def f_pump_track(sim, rng):
    sim.park(rng.uniform(300, 900))
    for _ in range(rng.integers(3, 6)):
        for _l in range(rng.integers(8, 20)):
            for _s in range(2):
                sim.go('straight', 15, vmax=5, a=1.5, d=1.5, v1=4)
                sim.go('arc', 180, 6, vmax=4, v1=4)
        sim.go('straight', 10, vmax=3, v1=0)
        sim.park(rng.uniform(120, 600))


def f_bike_parked_multipath(sim, rng):
    sim.park(rng.uniform(1800, 4800))
    city_drive(sim, rng, int(rng.integers(3, 6)), v=(5, 8), p_red=0.4, red=(15, 60), turn_r=(5, 8))
    sim.park(rng.uniform(1800, 4800))


def f_bike_understated(sim, rng):  # ride with stops, noise handled via family noise override
    sim.park(rng.uniform(600, 1800))
    for _ in range(rng.integers(2, 4)):
        city_drive(sim, rng, int(rng.integers(4, 8)), v=(4, 7), p_red=0.4, red=(15, 60), turn_r=(5, 8))
        sim.park(rng.uniform(600, 1800))



# ---- round 2: vehicles that turn back often, laps, helices
def f_multistorey_ramp(sim, rng):
    sim.park(rng.uniform(120, 600))
    city_drive(sim, rng, 2)
    r = rng.uniform(10, 16)
    for _ in range(rng.integers(3, 7)):  # up the helix, a level per turn, a short straight on each level
        sim.go('arc', 360, r, vmax=rng.uniform(2.5, 4), a=0.8, d=1, v1=2)
        sim.go('straight', rng.uniform(10, 30), vmax=3, v1=2)
    sim.go('straight', 8, vmax=1.5, v1=0)
    sim.park(rng.uniform(1800, 7200))
    for _ in range(rng.integers(3, 7)):
        sim.go('arc', -360, r, vmax=rng.uniform(2.5, 4), a=0.8, d=1, v1=2)
        sim.go('straight', rng.uniform(10, 30), vmax=3, v1=2)
    sim.go('straight', 10, vmax=2, v1=0)
    sim.park(rng.uniform(10, 40))  # barrier
    city_drive(sim, rng, 2)
    sim.park(rng.uniform(120, 600))


def f_karting(sim, rng):
    sim.park(rng.uniform(300, 900))
    for _ in range(rng.integers(2, 4)):  # sessions on an ~600-900 m circuit: straights and hairpins
        for _l in range(rng.integers(8, 15)):
            for L, ang, r in ((120, 180, 12), (60, -90, 15), (80, 90, 10), (100, 180, 12), (50, -45, 20), (40, 135, 10)):
                sim.go('straight', L * rng.uniform(0.9, 1.1), vmax=rng.uniform(14, 18), a=3, d=5, v1=8)
                sim.go('arc', ang, r, vmax=8, v1=8)
        sim.go('straight', 30, vmax=5, v1=0)
        sim.park(rng.uniform(300, 900))


def f_driving_school(sim, rng):
    sim.park(rng.uniform(120, 600))
    city_drive(sim, rng, 2)
    for _ in range(rng.integers(4, 8)):
        k = rng.integers(0, 3)
        if k == 0:  # figure of eight
            r = rng.uniform(8, 14)
            sim.go('arc', 360, r, vmax=rng.uniform(3, 5), a=1, d=1, v1=2); sim.go('arc', -360, r, vmax=4, v1=0)
        elif k == 1:  # reversing round a corner, then parallel parking
            sim.go('straight', 20, vmax=3); sim.reverse(); sim.go('arc', 90, 6, vmax=1.2, a=0.5, d=0.7)
            sim.go('straight', 10, vmax=1.2, a=0.5, d=0.7); sim.reverse()
            sim.go('straight', 8, vmax=2); sim.reverse(); sim.go('arc', 30, 6, vmax=1, a=0.5, d=0.7)
            sim.go('arc', -30, 6, vmax=1, a=0.5, d=0.7); sim.reverse(); sim.go('straight', 1.5, vmax=0.7)
        else:  # three-point turns in the lot
            three_point_turn(sim, rng); sim.go('straight', 30, vmax=4)
        sim.park(rng.uniform(30, 240))
    city_drive(sim, rng, 2)
    sim.park(rng.uniform(120, 600))


def f_ice_resurfacer(sim, rng):
    sim.park(rng.uniform(600, 1800))
    for _ in range(rng.integers(3, 6)):  # a resurfacing every hour or so: ~10 shrinking oval laps of a 60x26 m rink
        sim.go('straight', 15, vmax=2, v1=1.5)
        sim.go('arc', 90, 4, vmax=1.5, v1=1.5)
        for i in range(10):
            a_, w = max(4.0, 36 - 3.0 * i), max(3.0, 22 - 1.9 * i)
            for _h in range(2):
                sim.go('straight', a_, vmax=rng.uniform(2, 3), a=0.5, d=0.5, v1=1.5)
                sim.go('arc', 180, w / 2, vmax=1.8, v1=1.5)
        sim.go('straight', 15, vmax=2, v1=0)
        sim.park(rng.uniform(2400, 4200))


def f_ride_on_mower(sim, rng):
    sim.park(rng.uniform(120, 600))
    L = rng.uniform(25, 70); w = rng.uniform(1.0, 1.5)
    for i in range(rng.integers(20, 45)):
        sim.go('straight', L, vmax=rng.uniform(1.5, 2.5), a=0.5, d=0.6, v1=0.8)
        sgn = 1 if i % 2 == 0 else -1
        sim.go('arc', sgn * 180, w / 2 + 1.0, vmax=0.8, v1=0.8)
    sim.go('straight', 10, vmax=1.5, v1=0)
    sim.park(rng.uniform(120, 600))


def f_hairpin_pass(sim, rng):  # a car on a mountain pass: hairpins every 80-300 m
    sim.park(rng.uniform(120, 600))
    for _ in range(rng.integers(10, 25)):
        sim.go('straight', rng.uniform(80, 300), vmax=rng.uniform(10, 15), a=1.5, d=2.5, v1=4)
        sim.go('arc', float(rng.choice([-175, 175])), rng.uniform(8, 14), vmax=4, v1=4)
    sim.go('straight', 50, vmax=8, v1=0)
    sim.park(rng.uniform(120, 600))


def f_cyclocross(sim, rng):
    sim.park(rng.uniform(300, 900))
    lap = [(rng.uniform(20, 80), float(rng.choice([-180, 180, -90, 90, 150, -150])), rng.uniform(3, 6))
           for _ in range(rng.integers(20, 35))]
    for _l in range(rng.integers(5, 9)):
        for L, ang, r in lap:
            sim.go('straight', L, vmax=rng.uniform(5, 7), a=1, d=2, v1=2.5)
            sim.go('arc', ang, r, vmax=2.5, v1=2.5)
    sim.go('straight', 20, vmax=3, v1=0)
    sim.park(rng.uniform(300, 900))


def f_hill_repeats(sim, rng):
    sim.park(rng.uniform(300, 900))
    sim.go('straight', rng.uniform(1000, 2000), vmax=8)
    L = rng.uniform(250, 600)
    for _ in range(rng.integers(5, 10)):
        sim.go('straight', L, vmax=rng.uniform(2, 3.5), a=0.4, d=0.8, v1=1)
        sim.go('arc', 180, 4, vmax=1, v1=1)
        sim.go('straight', L, vmax=rng.uniform(10, 14), a=1.5, d=2, v1=2)
        sim.go('arc', 180, 4, vmax=2, v1=0)
        sim.park(rng.uniform(10, 90))
    sim.go('straight', rng.uniform(1000, 2000), vmax=8)
    sim.park(rng.uniform(300, 900))


def f_trail_switchback_climb(sim, rng):  # steep singletrack climb: hairpins every 30-120 m at 1.5-3 m/s
    sim.park(rng.uniform(120, 600))
    sim.go('straight', rng.uniform(300, 800), vmax=6)
    for _ in range(rng.integers(10, 25)):
        sim.go('straight', rng.uniform(30, 120), vmax=rng.uniform(1.5, 3), a=0.3, d=0.6, v1=1.2)
        sim.go('arc', float(rng.choice([-170, 170])), rng.uniform(3, 6), vmax=1.2, v1=1.2)
        if rng.random() < 0.15:
            sim.go('straight', 3, vmax=1, v1=0); sim.park(rng.uniform(20, 120))
    sim.go('straight', rng.uniform(300, 800), vmax=8, v1=0)
    sim.park(rng.uniform(120, 600))


def f_bmx_track(sim, rng):
    sim.park(rng.uniform(300, 900))
    for _ in range(rng.integers(6, 15)):  # motos: a ~350 m track with three 180 degree berms, then ride back
        sim.go('straight', 20, vmax=3, v1=0); sim.park(rng.uniform(30, 120))  # gate
        for L, ang in ((90, 180), (70, -180), (70, 180), (70, 0.01)):
            sim.go('straight', L, vmax=rng.uniform(8, 11), a=2, d=3, v1=6)
            sim.go('arc', ang, 6, vmax=6, v1=6)
        sim.go('straight', 20, vmax=3, v1=0)
        sim.park(rng.uniform(30, 120))
        sim.reverse(); sim.go('straight', rng.uniform(100, 200), vmax=2.5, a=0.5, d=0.5)  # roll back to the gate
        sim.park(rng.uniform(60, 300))
    sim.park(rng.uniform(300, 900))


def f_cul_de_sac_kids(sim, rng):
    sim.park(rng.uniform(300, 900))
    for _ in range(rng.integers(4, 10)):
        r = rng.uniform(8, 15)
        for _c in range(rng.integers(3, 12)):
            sim.go('arc', 360 * float(rng.choice([-1, 1])), r, vmax=rng.uniform(2, 4), a=0.5, d=0.5, v1=1.5)
        sim.go('straight', rng.uniform(20, 80), vmax=3, v1=0)
        sim.park(rng.uniform(30, 300))
        sim.reverse(); sim.go('straight', rng.uniform(20, 80), vmax=3, v1=0)
    sim.park(rng.uniform(300, 900))


# ---- round 3: fleet vehicles that work back and forth, car park circling, out-and-back crits
def f_snowplough_carpark(sim, rng):
    sim.park(rng.uniform(300, 900))
    city_drive(sim, rng, 2)
    for _ in range(rng.integers(15, 35)):  # push forward 30-80 m, reverse back, shift sideways
        L = rng.uniform(30, 80)
        sim.go('straight', L, vmax=rng.uniform(2.5, 5), a=0.8, d=1.2)
        sim.park(rng.uniform(2, 8)); sim.reverse()
        sim.go('arc', float(rng.choice([-15, 15])), 15, vmax=3, a=0.8, d=1.0, v1=2)
        sim.go('straight', L * 0.8, vmax=rng.uniform(3, 5), a=0.8, d=1.2)
        sim.park(rng.uniform(2, 8)); sim.reverse()
    city_drive(sim, rng, 2)
    sim.park(rng.uniform(300, 900))


def f_forklift_yard(sim, rng):
    sim.park(rng.uniform(300, 900))
    t_end = sim.t[-1] + rng.uniform(3600, 7200)
    while sim.t[-1] < t_end:
        sim.go('straight', rng.uniform(10, 40), vmax=rng.uniform(2, 3.5), a=0.8, d=1.0)
        sim.park(rng.uniform(10, 60)); sim.reverse()
        sim.go('arc', float(rng.choice([-90, 90])), 3, vmax=1.5, a=0.6, d=0.8)
        sim.reverse()
        sim.go('straight', rng.uniform(10, 60), vmax=rng.uniform(2, 3.5), a=0.8, d=1.0)
        sim.park(rng.uniform(10, 120))
        if rng.random() < 0.2:
            sim.park(rng.uniform(300, 1200))
    sim.park(rng.uniform(300, 900))


def f_carpark_circling(sim, rng):
    sim.park(rng.uniform(120, 600))
    city_drive(sim, rng, 2)
    a_, b_ = rng.uniform(25, 60), rng.uniform(15, 30)
    for _ in range(rng.integers(3, 10)):  # laps of a supermarket car park looking for a space
        for L in (a_, b_, a_, b_):
            sim.go('straight', L, vmax=rng.uniform(2.5, 4.5), a=0.8, d=1.0, v1=2)
            sim.go('arc', 90, 5, vmax=2, v1=2)
    sim.go('straight', 6, vmax=1.5, v1=0)
    sim.park(rng.uniform(900, 2700))
    sim.go('straight', 8, vmax=2); city_drive(sim, rng, 2)
    sim.park(rng.uniform(120, 600))


def f_street_sweeper(sim, rng):
    sim.park(rng.uniform(300, 900))
    for _ in range(rng.integers(6, 14)):
        sim.go('straight', rng.uniform(100, 400), vmax=rng.uniform(1.5, 3), a=0.4, d=0.6, v1=1)
        if rng.random() < 0.4:
            sim.go('arc', 180, 6, vmax=1.5, v1=1)  # back along the other kerb
        else:
            sim.go('arc', float(rng.choice([-90, 90])), 8, vmax=1.5, v1=1)
    sim.go('straight', 20, vmax=2, v1=0)
    sim.park(rng.uniform(300, 900))


def f_golf_cart(sim, rng):
    sim.park(rng.uniform(300, 900))
    for _ in range(rng.integers(9, 18)):
        sim.go('straight', rng.uniform(80, 300), vmax=rng.uniform(4, 6), a=0.8, d=1.0, v1=2)
        sim.go('arc', float(rng.uniform(-120, 120)), 10, vmax=3, v1=0)
        sim.park(rng.uniform(120, 600))
        if rng.random() < 0.5:  # shuffle to the green and back
            sim.go('straight', rng.uniform(10, 30), vmax=2.5)
            sim.park(rng.uniform(60, 300))
    sim.park(rng.uniform(300, 900))


def f_hairpin_crit(sim, rng):  # out-and-back circuit with a 180 degree hairpin at both ends
    sim.park(rng.uniform(300, 900))
    L = rng.uniform(200, 500)
    sim.go('straight', 20, vmax=4, v1=4)
    for _ in range(rng.integers(15, 35)):
        for _h in range(2):
            sim.go('straight', L, vmax=rng.uniform(10, 12.5), a=1.2, d=2.5, v1=5)
            sim.go('arc', 180, 6, vmax=5, v1=5)
    sim.go('straight', 50, vmax=5, v1=0)
    sim.park(rng.uniform(300, 900))


def f_messenger_downtown(sim, rng):
    sim.park(rng.uniform(120, 600))
    for _ in range(rng.integers(10, 25)):
        for _b in range(rng.integers(1, 4)):
            sim.go('straight', rng.uniform(80, 200), vmax=rng.uniform(5, 8), v1=3)
            sim.go('arc', float(rng.choice([-90, 90, 180, -180])), 5, vmax=3, v1=0)
        sim.park(rng.uniform(30, 240))
    sim.park(rng.uniform(120, 600))


FAMILIES = {
    # name: (builder, profile, noise overrides)
    'creep_queue': (f_creep_queue, 'driving', {}),
    'drive_through': (f_drive_through, 'driving', {}),
    'car_park': (f_car_park, 'driving', {}),
    'stop_go_lights': (f_stop_go_lights, 'driving', {}),
    'highway_jam': (f_highway_jam, 'driving', {}),
    'three_point_turns': (f_three_point_turns, 'driving', {}),
    'u_turn_deliveries': (f_u_turn_deliveries, 'driving', {}),
    'courier_hops_car': (f_courier_hops, 'driving', {}),
    'departure_after_park': (f_departure_after_park, 'driving', {}),
    'parked_multipath_car': (f_parked_multipath, 'driving', {'multipath': True}),
    'taxi_rank': (f_taxi_rank, 'driving', {}),
    'school_pickup': (f_school_pickup, 'driving', {}),
    'garbage_truck': (f_garbage_truck, 'driving', {}),
    'parking_search': (f_parking_search, 'driving', {}),
    'car_wash': (f_car_wash, 'driving', {}),
    'urban_understated': (f_urban_mixed, 'driving', {'understate': True}),
    'urban_gm_mix': (f_urban_mixed, 'driving', {'mix': True}),
    'urban_partial_speed': (f_urban_mixed, 'driving', {'speed': 'partial'}),
    'tractor_rows': (f_tractor_rows, 'driving', {}),
    'yard_shunter': (f_yard_shunter, 'driving', {}),
    'uphill_slow': (f_uphill_slow, 'cycling', {}),
    'crit_laps': (f_crit_laps, 'cycling', {}),
    'velodrome': (f_velodrome, 'cycling', {}),
    'track400': (f_track400, 'cycling', {}),
    'crowd_ride': (f_crowd_ride, 'cycling', {}),
    'bike_courier': (f_bike_courier, 'cycling', {}),
    'commute_lights': (f_commute_lights, 'cycling', {}),
    'mtb_switchbacks': (f_mtb_switchbacks, 'cycling', {}),
    'cafe_departure': (f_cafe_departure, 'cycling', {}),
    'lights_creep_bike': (f_lights_creep, 'cycling', {}),
    'cargo_school_run': (f_school_run_cargo, 'cycling', {}),
    'pump_track': (f_pump_track, 'cycling', {}),
    'parked_multipath_bike': (f_bike_parked_multipath, 'cycling', {'multipath': True}),
    'bike_understated': (f_bike_understated, 'cycling', {'understate': True}),
    'courier_hops_cycling': (f_courier_hops, 'cycling', {}),   # a car-like courier pattern under cycling
    'garbage_truck_cycling': (f_garbage_truck, 'cycling', {}),  # e.g. a cargo-bike litter picker
    'multistorey_ramp': (f_multistorey_ramp, 'driving', {}),
    'karting': (f_karting, 'driving', {}),
    'driving_school': (f_driving_school, 'driving', {}),
    'ice_resurfacer': (f_ice_resurfacer, 'driving', {}),
    'ride_on_mower': (f_ride_on_mower, 'driving', {}),
    'hairpin_pass': (f_hairpin_pass, 'driving', {}),
    'cyclocross': (f_cyclocross, 'cycling', {}),
    'hill_repeats': (f_hill_repeats, 'cycling', {}),
    'trail_switchback_climb': (f_trail_switchback_climb, 'cycling', {}),
    'bmx_track': (f_bmx_track, 'cycling', {}),
    'cul_de_sac_kids': (f_cul_de_sac_kids, 'cycling', {}),
    'snowplough_carpark': (f_snowplough_carpark, 'driving', {}),
    'forklift_yard': (f_forklift_yard, 'driving', {}),
    'carpark_circling': (f_carpark_circling, 'driving', {}),
    'street_sweeper': (f_street_sweeper, 'driving', {}),
    'golf_cart': (f_golf_cart, 'driving', {}),
    'hairpin_crit': (f_hairpin_crit, 'cycling', {}),
    'messenger_downtown': (f_messenger_downtown, 'cycling', {}),
}


# ---------------------------------------------------------------- noise, cadence, sampling
def draw_noise(rng, over):
    """claimed sigma per axis, actual white and GM sigma, GM tau, multipath, speed-column mode"""
    sig_claim = rng.uniform(2, 8)
    u = rng.random()
    if over.get('understate'):
        k = rng.uniform(1.5, 3)
    elif u < 0.45:
        k = 1.0
    elif u < 0.65:
        k = rng.uniform(1.1, 1.5)
    elif u < 0.85:
        k = rng.uniform(1.5, 3)
    else:
        k = rng.uniform(0.6, 1.0)
    sig_tot = min(10.0, max(2.0, sig_claim * k))
    u = rng.random()
    if over.get('mix'):
        wfrac = rng.uniform(0.2, 0.8)
    elif u < 0.55:
        wfrac = 1.0
    elif u < 0.85:
        wfrac = rng.uniform(0.3, 0.8)
    else:
        wfrac = rng.uniform(0.0, 0.2)
    sw = sig_tot * math.sqrt(wfrac); sg = sig_tot * math.sqrt(1 - wfrac)
    tau = rng.uniform(30, 600)
    mp = over.get('multipath') or rng.random() < 0.15
    sp = over.get('speed')
    if sp is None:
        u = rng.random()
        sp = 'none' if u < 0.6 else ('partial' if u < 0.85 else 'full')
    u = rng.random()
    cad = 'fixed' if u < 0.5 else ('uniform' if u < 0.8 else 'adaptive')
    c = float(rng.uniform(3, 20))
    acc_style = 'float' if rng.random() < 0.6 else 'int'
    return dict(sig_claim=sig_claim, k=sig_tot / sig_claim, sig_white=sw, sig_gm=sg, tau=tau, multipath=bool(mp),
                speed=sp, cadence=cad, cad_s=c, acc_style=acc_style)


def fix_times(rng, nz, t, moving):
    tend = t[-1]
    out = [float(rng.uniform(0, 2))]
    while True:
        if nz['cadence'] == 'fixed':
            dt = nz['cad_s'] + rng.uniform(-0.5, 0.5)
        elif nz['cadence'] == 'uniform':
            dt = rng.uniform(3, 20)
        else:  # adaptive: cad_s when moving, 2-4x (<= 20 s) when parked
            i = min(int(out[-1] / DT), len(moving) - 1)
            base = min(nz['cad_s'], 10.0)
            dt = (base if moving[i] else min(20.0, base * 3)) + rng.uniform(-0.5, 0.5)
        dt = min(20.0, max(3.0, dt))
        tn = out[-1] + dt
        if tn > tend:
            break
        out.append(tn)
    return np.array(out)


def make_track(family, seed, override=None):
    build, profile, over = FAMILIES[family]
    rng = np.random.default_rng([seed, abs(hash(family)) % (2 ** 31)] if False else
                                [seed, sum(ord(ch) * (i + 1) for i, ch in enumerate(family))])
    sim = Sim(rng)
    build(sim, rng)
    t, x, y, v, hd, S, moving = sim.arrays()
    nz = draw_noise(rng, over)
    if override:  # fixed noise/cadence for sweeps: sig_claim, k, wfrac, cad_s, cadence, speed, multipath
        o = dict(override)
        sc = o.pop('sig_claim', nz['sig_claim']); k = o.pop('k', 1.0); wf = o.pop('wfrac', 1.0)
        nz.update(sig_claim=sc, k=k, sig_white=sc * k * math.sqrt(wf), sig_gm=sc * k * math.sqrt(1 - wf))
        nz.update(o)
    tf = fix_times(rng, nz, t, moving)
    idx = np.clip(np.searchsorted(t, tf), 1, len(t) - 1)
    f = (tf - t[idx - 1]) / (t[idx] - t[idx - 1])
    X = x[idx - 1] + f * (x[idx] - x[idx - 1]); Y = y[idx - 1] + f * (y[idx] - y[idx - 1])
    Sf = S[idx - 1] + f * (S[idx] - S[idx - 1])
    V = v[idx - 1] + f * (v[idx] - v[idx - 1]); H = hd[idx]
    truth = float(Sf[-1] - Sf[0])
    n = len(tf)
    # noise: white + Gauss-Markov
    ex = rng.normal(0, nz['sig_white'], n); ey = rng.normal(0, nz['sig_white'], n)
    gx = np.zeros(n); gy = np.zeros(n)
    gx[0], gy[0] = rng.normal(0, nz['sig_gm'], 2)
    for i in range(1, n):
        a = math.exp(-(tf[i] - tf[i - 1]) / nz['tau']); b = math.sqrt(1 - a * a) * nz['sig_gm']
        gx[i] = a * gx[i - 1] + b * rng.normal(); gy[i] = a * gy[i - 1] + b * rng.normal()
    ex += gx; ey += gy
    if nz['multipath']:  # jumps of 15-60 m lasting 1-3 fixes, mostly while parked
        i = 0
        while i < n:
            p = 0.03 if not V[i] > 0.1 else 0.005
            if rng.random() < p:
                ang = rng.uniform(0, 2 * math.pi); mag = rng.uniform(15, 60)
                for j in range(i, min(n, i + int(rng.integers(1, 4)))):
                    ex[j] += mag * math.cos(ang); ey[j] += mag * math.sin(ang)
                i += 4
            i += 1
    acc = 1.5096 * nz['sig_claim'] * rng.uniform(0.85, 1.15, n)
    if nz['acc_style'] == 'int':
        acc = np.maximum(1, np.round(acc))
    lat = LAT0 + (Y + ey) / M_PER_DEG_LAT
    lon = LON0 + (X + ex) / M_PER_DEG_LON
    rows = []
    has_speed = nz['speed'] != 'none'
    for i in range(n):
        ts = (T0 + timedelta(seconds=float(tf[i]))).strftime('%Y-%m-%dT%H:%M:%S')
        frac = tf[i] - math.floor(tf[i])
        ts += ('.%03dZ' % int(frac * 1000)) if frac > 1e-6 else 'Z'
        r = '%s,%.7f,%.7f,%.1f' % (ts, lat[i], lon[i], acc[i])
        if has_speed:
            show = nz['speed'] == 'full' or rng.random() < 0.5
            if show:
                sp = max(0.0, V[i] + rng.normal(0, 0.3)) if V[i] > 0.05 else abs(rng.normal(0, 0.1))
                crs = (90 - math.degrees(H[i])) % 360
                r += ',%.1f,%s' % (sp * 3.6, ('%.0f' % crs) if sp > 0.5 else '')
            else:
                r += ',,'
        rows.append(r)
    header = 'time,latitude,longitude,accuracy' + (',speed_kmh,course' if has_speed else '')
    # time spent parked (truth) for context
    parked_s = float(np.sum(np.diff(t)[~moving[1:]]))
    meta = dict(family=family, seed=seed, profile=profile, truth=truth, fixes=n,
                duration=float(tf[-1] - tf[0]), parked_seconds=parked_s, **nz)
    meta['_tf'] = list(map(float, tf - tf[0])); meta['_S'] = list(map(float, Sf - Sf[0]))
    return header, rows, meta


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('outdir')
    ap.add_argument('--seeds', type=int, default=10)
    ap.add_argument('--first-seed', type=int, default=1)
    ap.add_argument('--families', default='')
    ap.add_argument('--grid', default='', help='JSON dict of lists, e.g. {"cad_s":[3,5],"sig_claim":[2,4]}; '
                    'each combination is applied to every family and seed (cadence fixed, speed none, white unless given)')
    a = ap.parse_args()
    fams = a.families.split(',') if a.families else list(FAMILIES)
    manifest = []
    import itertools
    combos = [None]
    if a.grid:
        g = json.loads(a.grid); keys = sorted(g)
        combos = [dict(cadence='fixed', speed='none', multipath=False, **dict(zip(keys, vals)))
                  for vals in itertools.product(*(g[k] for k in keys))]
    for fam in fams:
        os.makedirs(os.path.join(a.outdir, fam), exist_ok=True)
        for seed, combo in itertools.product(range(a.first_seed, a.first_seed + a.seeds), combos):
            header, rows, meta = make_track(fam, seed, combo)
            tag = '' if combo is None else '-' + '-'.join('%s%g' % (k, combo[k]) for k in sorted(combo)
                                                          if isinstance(combo[k], (int, float)) and not isinstance(combo[k], bool))
            meta['grid'] = tag
            path = os.path.join(a.outdir, fam, '%s-s%d%s.csv' % (fam, seed, tag))
            with open(path, 'w') as fh:
                fh.write(header + '\n' + '\n'.join(rows) + '\n')
            meta['file'] = os.path.abspath(path)
            with open(path[:-4] + '.truth.json', 'w') as fh:
                json.dump(dict(t=[round(x, 3) for x in meta.pop('_tf')], S=[round(x, 3) for x in meta.pop('_S')]), fh)
            manifest.append(meta)
    with open(os.path.join(a.outdir, 'manifest.json'), 'w') as fh:
        json.dump(manifest, fh, indent=1)
    print('wrote %d tracks to %s' % (len(manifest), a.outdir))


if __name__ == '__main__':
    main()
