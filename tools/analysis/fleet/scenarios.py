"""Scenario timelines for fleetgen.py. Coordinates in metres east/north of the depot."""


def D(*wps, v=12.0):
    return ("drive", list(wps), v)


def S(secs, kind="delivery", off=True):
    return ("stop", secs, kind, off)


def parked(rnd, a):
    return [("at", (0.0, 0.0)), S(a.hours * 3600, "overnight")]


def delivery_day(rnd, a):
    r = lambda lo, hi: rnd.randint(lo, hi)
    tl = [("at", (0.0, 0.0)), S(1200, "depot-load")]
    # round 1: neighbourhood A
    tl += [D((0, 0), (0, 300), (600, 300)), S(35, "traffic light", False), D((600, 300), (1200, 300), (1200, 600)),
           S(r(150, 240)), D((1200, 600), (1350, 600)), S(r(120, 200)),
           D((1350, 600), (1350, 800)), S(r(150, 300)),
           D((1350, 800), (1350, 950)), S(r(150, 240), "delivery cul-de-sac end"),
           D((1350, 950), (1350, 800), (1500, 800), (1500, 950), (1500, 800), (1600, 800)), S(r(120, 200)),
           D((1600, 800), (1700, 800)), S(r(120, 200)),
           D((1700, 800), (1750, 800), (1700, 800), (1650, 800)), S(r(120, 200), "delivery across street"),
           D((1650, 800), (1650, 300), (0, 300), (0, 0)), S(900, "depot")]
    # round 2: out and back to a neighbour, round the block to the loading bay
    tl += [D((0, 0), (0, -100), (250, -100)), S(180, "delivery neighbour"),
           D((250, -100), (0, -100), (0, 0)), S(600, "depot"),
           D((0, 0), (0, 100), (100, 100), (100, 0), (10, 0)), S(300, "depot bay")]
    # round 3: neighbourhood B, dead-end street with U-turn
    tl += [D((10, 0), (0, 0), (0, 300), (-800, 300)), S(30, "traffic light", False), D((-800, 300), (-800, 1000))]
    x = -800
    for nx in (-700, -550, -400, -300, -150):
        tl += [S(r(120, 300)), D((x, 1000), (nx, 1000), v=9.0)]; x = nx
    tl += [S(r(120, 300)), D((-150, 1000), (-100, 1000), (-500, 1000), v=9.0), S(r(120, 200), "delivery after U-turn"),
           D((-500, 1000), (-500, 300), (0, 300), (0, 0)), S(7200, "evening park")]
    return tl


def out_and_back(rnd, a):
    """Depot, then out-and-back deliveries to neighbours 100-400 m away, back at the depot between them."""
    tl = [("at", (0.0, 0.0)), S(900, "depot")]
    for d, stay, home in [(120, 180, 600), (200, 120, 300), (300, 240, 900), (150, 150, 300), (400, 180, 600),
                          (250, 300, 1200)]:
        tl += [D((0, 0), (0, -50), (d, -50), v=10.0), S(stay, "delivery neighbour"),
               D((d, -50), (0, -50), (0, 0), v=10.0), S(home, "depot")]
    return tl


def loops(rnd, a):
    """Depot, then drives that come back to the depot without stopping elsewhere: round a block (400 m),
    to a gate and back with a U-turn (2 x 200 m), round two blocks (600 m)."""
    tl = [("at", (0.0, 0.0)), S(900, "depot")]
    tl += [D((0, 0), (0, 100), (100, 100), (100, 0), (0, 0), v=9.0), S(600, "depot")]
    tl += [D((0, 0), (200, 0), (0, 0), v=9.0), S(600, "depot")]
    tl += [D((0, 0), (0, 100), (200, 100), (200, 0), (0, 0), v=10.0), S(600, "depot")]
    tl += [D((0, 0), (0, 150), (150, 150), (150, 0), (0, 0), v=10.0), S(600, "depot")]
    tl += [D((0, 0), (300, 0), (0, 0), v=11.0), S(900, "depot")]
    return tl


def mixed(rnd, a):
    """Parked with multipath for 3 h, departs, 3 km with a light and a delivery, 2 km, parks 1 h."""
    return [("at", (0.0, 0.0)), S(3 * 3600, "night"),
            D((0, 0), (0, 400), (1500, 400)), S(40, "traffic light", False), D((1500, 400), (1500, 1500)),
            S(300, "delivery"), D((1500, 1500), (1500, 2300), (300, 2300)), S(3600, "park")]


SCENARIOS = {"parked": parked, "day": delivery_day, "outback": out_and_back, "loops": loops, "mixed": mixed}
