"""Adversarial generator for the speed check (`SpeedCheck`, 2026-12-05; written by a tester session, kept as
written but for its paths): honest tracks that might show right readings slow (H_*, R_*, M_*: crawls through
multipath, urban canyons, stop-and-go, lagging readings, tunnels, sparse logging, walkers, ...) and speed columns
in a wrong unit (W_*: 0.15-0.6 x, a logger switching units). compare.py runs two builds on them.

python3 gen.py [FAMILY ...] -> writes $TT_WORK/speed_check/cases/*.csv and manifest.jsonl there (id, family, profile,
truth_m, params); TT_WORK defaults to /tmp/tt-adversarial.
Every case is fully determined by (family, seed): gen_case(family, seed) regenerates it.
Truth = path length of the simulated true trajectory (integrated speed, 0.1 s steps) from the first to the last
sampled time.
"""
import sys, math, random, json, os, zlib
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
sys.dont_write_bytecode = True
from generated import write_fixes, GaussMarkov

OUT = os.path.join(os.environ.get('TT_WORK', '/tmp/tt-adversarial'), 'speed_check', 'cases')
DT = 0.1


# ----------------------------------------------------------------------------------------------------------------
# true motion
def speed_plan(rng, kind, vmin, vmax, dur, stop_frac=0.0, acc=1.5, dec=2.0, stop_len=(10, 60)):
    """List of (t_end, target speed) phases -> function v(t) with rate limits. kind: cruise | stopgo | fromrest."""
    phases = []  # (duration, target)
    t = 0.0
    if kind == 'commute':
        while t < dur:
            r = rng.random()
            if r < 0.4:
                d = rng.uniform(30, 180); phases.append((d, rng.uniform(0.5, 3.0)))
            elif r < 0.75:
                d = rng.uniform(30, 120); phases.append((d, rng.uniform(8, 15)))
            else:
                d = rng.uniform(10, 60); phases.append((d, 0.0))
            t += d
        return phases
    if kind == 'fromrest':
        phases.append((rng.uniform(5, 20), 0.0))
    while t < dur:
        if kind in ('stopgo', 'fromrest') and rng.random() < max(stop_frac, 0.25 if kind == 'stopgo' else 0.15):
            d = rng.uniform(*stop_len)
            phases.append((d, 0.0))
        else:
            d = rng.uniform(20, 120)
            phases.append((d, rng.uniform(vmin, vmax)))
        t += d
    return phases


def simulate(rng, phases, acc=1.5, dec=2.0, turn_rate=0.02, max_lat=2.5):
    """Integrate at DT. Returns arrays t, e, n, v, heading(deg)."""
    T, E, N, V, H = [], [], [], [], []
    e = n = v = 0.0
    h = rng.uniform(0, 360)
    omega = 0.0
    t = 0.0
    for d, target in phases:
        tend = t + d
        while t < tend:
            if v < target:
                v = min(target, v + acc * DT)
            elif v > target:
                v = max(target, v - dec * DT)
            # turns: random changes in turn rate, lateral accel bounded
            if rng.random() < turn_rate * DT:
                maxw = math.degrees(max_lat / max(v, 1.0))
                omega = rng.choice([-1, 1]) * rng.uniform(0.2, 1.0) * min(maxw, 20.0)
            elif rng.random() < 0.15 * DT:
                omega = 0.0
            h = (h + omega * DT) % 360
            e += v * DT * math.sin(math.radians(h))
            n += v * DT * math.cos(math.radians(h))
            t += DT
            T.append(t); E.append(e); N.append(n); V.append(v); H.append(h)
    return T, E, N, V, H


# ----------------------------------------------------------------------------------------------------------------
def make_case(rng, p):
    """p: dict of parameters. Returns rows, truth."""
    phases = speed_plan(rng, p['kind'], p['vmin'], p['vmax'], p['dur'], p.get('stop_frac', 0.0),
                        stop_len=p.get('stop_len', (10, 60)))
    if p.get('parked'):
        # drive / park (multipath, readings 0) / drive
        d1 = speed_plan(rng, 'cruise', p['vmin'], p['vmax'], 200)
        d2 = speed_plan(rng, 'cruise', p['vmin'], p['vmax'], 200)
        phases = d1 + [(10, 0.0), (p['park_s'], 0.0)] + d2
    T, E, N, V, H = simulate(rng, phases, acc=p.get('acc', 1.5), dec=p.get('dec', 2.0))
    step = int(round(p['cadence'] / DT))
    idx = list(range(0, len(T), step))
    # gaps (tunnels): remove fixes
    gaps = []
    for _ in range(p.get('n_gaps', 0)):
        g0 = rng.uniform(0.1, 0.9) * T[-1]
        gaps.append((g0, g0 + rng.uniform(*p.get('gap_len', (30, 300)))))
    # missing-reading spells
    miss = []
    for _ in range(p.get('n_miss', 0)):
        m0 = rng.uniform(0, 0.95) * T[-1]
        miss.append((m0, m0 + rng.uniform(*p.get('miss_len', (10, 120)))))
    # multipath events
    mp = []
    rate = p.get('mp_rate', 0.0)  # events per minute
    t = 0.0
    while rate > 0:
        t += rng.expovariate(rate / 60.0)
        if t > T[-1]:
            break
        mag = rng.uniform(*p.get('mp_mag', (30, 300)))
        ang = rng.uniform(0, 2 * math.pi)
        mp.append((t, t + rng.uniform(*p.get('mp_len', (1, 20))), mag * math.sin(ang), mag * math.cos(ang)))
    if 'mp_events' in p:
        mp = [tuple(x) for x in p['mp_events']]
    gm = GaussMarkov(rng, p.get('gm_sigma', 0.0) or 1e-9, p.get('gm_tau', 30.0))
    sw = p.get('white', 0.0)
    true_sigma = math.sqrt(sw ** 2 + p.get('gm_sigma', 0.0) ** 2)
    r68 = 1.51 * true_sigma
    rows = []
    kept = []
    last_t = None
    for i in idx:
        t = T[i]
        if any(a <= t < b for a, b in gaps):
            continue
        if last_t is not None:
            gm.step(t - last_t)
        last_t = t
        kept.append(i)
        ex, ny = gm.x if p.get('gm_sigma', 0.0) else (0.0, 0.0)
        ex += rng.gauss(0, sw) if sw else 0.0
        ny += rng.gauss(0, sw) if sw else 0.0
        for a, b, de, dn in mp:
            if a <= t < b:
                ex += de; ny += dn
        acc = max(p.get('acc_floor', 3.0), p['acc_k'] * r68 * rng.uniform(0.8, 1.2))
        # reading
        lag = p.get('lag', 0.0)
        if lag > 0:
            j0 = max(0, i - int(round(lag / DT)))
            vt = sum(V[j0:i + 1]) / (i + 1 - j0)
        else:
            vt = V[i]
        sp = max(0.0, vt + rng.gauss(0, p.get('sp_noise', 0.15)))
        if vt < 0.05:
            sp = 0.0 if p.get('zero_at_rest', True) else sp
        f = p.get('factor', 1.0)
        sw_at = p.get('switch_at')
        if sw_at is not None:
            frac = t / T[-1]
            wrong_first = p.get('wrong_first', False)
            wrong = (frac < sw_at) if wrong_first else (frac >= sw_at)
            f = p['factor'] if wrong else 1.0
        sp *= f
        co = H[i] + rng.gauss(0, 3) if (p.get('course', True) and vt > 0.5) else None
        if p.get('course', True) and co is not None:
            co %= 360
        if any(a <= t < b for a, b in miss):
            sp = -1.0 if p.get('miss_as_neg', False) else None
            co = None
        if p.get('no_speed'):
            sp = None; co = None
        rows.append((t, E[i] + ex, N[i] + ny, acc, sp, co))
    # truth between first and last kept sample
    i0, i1 = kept[0], kept[-1]
    truth = sum(V[j] * DT for j in range(i0 + 1, i1 + 1))
    return rows, truth


PROF_SPEED = {'walking': (1.0, 1.7), 'running': (3.0, 6.0), 'cycling': (5.0, 12.0), 'driving': (10.0, 35.0)}


def pick_fast(rng):
    prof = rng.choice(['running', 'cycling', 'cycling', 'driving', 'driving'])
    lo, hi = PROF_SPEED[prof]
    a = rng.uniform(lo, hi); b = rng.uniform(lo, hi)
    return prof, min(a, b), max(a, b)


def sample(family, seed):
    rng = random.Random(zlib.crc32(f'{family}:{seed}'.encode()))
    p = {'family': family, 'seed': seed, 'kind': 'cruise', 'dur': rng.uniform(600, 1200), 'acc_k': 1.0,
         'cadence': rng.choice([1, 1, 2, 3, 5, 10]), 'course': rng.random() < 0.7}
    if family == 'H_white_underst':
        p['profile'], p['vmin'], p['vmax'] = pick_fast(rng)
        p['white'] = rng.uniform(5, 25); p['acc_k'] = rng.uniform(0.3, 0.6)
        p['kind'] = rng.choice(['cruise', 'stopgo'])
    elif family == 'H_multipath':
        p['profile'], p['vmin'], p['vmax'] = pick_fast(rng)
        p['white'] = rng.uniform(1, 4); p['gm_sigma'] = rng.uniform(1, 5); p['gm_tau'] = rng.uniform(10, 60)
        p['acc_k'] = rng.uniform(0.5, 1.0)
        p['mp_rate'] = rng.uniform(0.3, 3); p['mp_mag'] = (30, 300); p['mp_len'] = (1, 20)
        p['kind'] = rng.choice(['cruise', 'stopgo'])
    elif family == 'H_urban_canyon':
        p['profile'] = rng.choice(['driving', 'driving', 'cycling'])
        p['vmin'], p['vmax'] = (3, 15) if p['profile'] == 'driving' else (3, 8)
        p['white'] = rng.uniform(3, 10); p['gm_sigma'] = rng.uniform(10, 40); p['gm_tau'] = rng.uniform(5, 20)
        p['acc_k'] = rng.uniform(0.3, 0.7)
        p['mp_rate'] = rng.uniform(0.5, 4); p['mp_mag'] = (30, 150); p['mp_len'] = (2, 20)
        p['kind'] = 'stopgo'; p['stop_frac'] = 0.35
    elif family == 'H_stopgo_brake':
        p['profile'] = 'driving'; p['vmin'], p['vmax'] = 8, rng.uniform(12, 25)
        p['white'] = rng.uniform(2, 8); p['gm_sigma'] = rng.uniform(2, 8); p['acc_k'] = rng.uniform(0.4, 1.0)
        p['kind'] = 'stopgo'; p['stop_frac'] = 0.45; p['stop_len'] = (5, 45)
        p['acc'] = rng.uniform(2, 3.5); p['dec'] = rng.uniform(4, 8); p['lag'] = rng.choice([0, 1, 1, 2])
    elif family == 'H_lag_fromrest':
        p['profile'], p['vmin'], p['vmax'] = pick_fast(rng)
        p['white'] = rng.uniform(2, 10); p['acc_k'] = rng.uniform(0.4, 1.0)
        p['kind'] = 'fromrest'; p['stop_frac'] = 0.3; p['acc'] = rng.uniform(1.5, 4); p['dec'] = rng.uniform(2, 6)
        p['lag'] = rng.choice([1, 2, 3])
    elif family == 'H_tunnel':
        p['profile'], p['vmin'], p['vmax'] = pick_fast(rng)
        p['white'] = rng.uniform(2, 8); p['gm_sigma'] = rng.uniform(2, 15); p['acc_k'] = rng.uniform(0.4, 1.0)
        p['n_gaps'] = rng.randint(1, 4); p['gap_len'] = (20, 300)
        p['mp_rate'] = rng.uniform(0, 1.5)
    elif family == 'H_sparse':
        p['profile'], p['vmin'], p['vmax'] = pick_fast(rng)
        p['cadence'] = rng.choice([5, 6, 8, 10])
        p['white'] = rng.uniform(3, 15); p['gm_sigma'] = rng.uniform(0, 10); p['acc_k'] = rng.uniform(0.3, 1.0)
        p['kind'] = rng.choice(['cruise', 'stopgo']); p['mp_rate'] = rng.uniform(0, 1)
    elif family == 'H_train_ferry':
        p['profile'] = rng.choice(['driving', 'driving', 'cycling'])
        p['vmin'], p['vmax'] = 15, rng.uniform(18, 30)
        p['white'] = rng.uniform(3, 20); p['gm_sigma'] = rng.uniform(3, 20); p['acc_k'] = rng.uniform(0.3, 0.8)
        p['n_gaps'] = rng.randint(0, 3); p['gap_len'] = (10, 120); p['mp_rate'] = rng.uniform(0, 2)
        p['dur'] = rng.uniform(900, 1800)
    elif family == 'H_parked_mp':
        p['profile'] = rng.choice(['driving', 'cycling'])
        p['vmin'], p['vmax'] = (8, 20) if p['profile'] == 'driving' else (4, 8)
        p['parked'] = True; p['park_s'] = rng.uniform(300, 1500)
        p['white'] = rng.uniform(2, 10); p['gm_sigma'] = rng.uniform(5, 30); p['gm_tau'] = rng.uniform(10, 60)
        p['acc_k'] = rng.uniform(0.3, 0.8); p['mp_rate'] = rng.uniform(0.5, 4); p['mp_mag'] = (30, 300)
    elif family == 'H_crawl_mp':
        p['profile'] = rng.choice(['driving', 'cycling'])
        p['vmin'], p['vmax'] = 1.0, rng.uniform(1.5, 3.0)
        p['white'] = rng.uniform(2, 10); p['gm_sigma'] = rng.uniform(2, 15); p['acc_k'] = rng.uniform(0.3, 0.8)
        p['mp_rate'] = rng.uniform(0.5, 4); p['mp_mag'] = (30, 200)
        p['kind'] = rng.choice(['cruise', 'stopgo'])
    elif family == 'H_walk_heavy':
        p['profile'] = 'walking'; p['vmin'], p['vmax'] = 1.0, 1.7
        p['cadence'] = rng.choice([1, 3, 5, 10, 10])
        p['white'] = rng.uniform(5, 25); p['gm_sigma'] = rng.uniform(0, 15); p['acc_k'] = rng.uniform(0.3, 0.8)
        p['mp_rate'] = rng.uniform(0, 2); p['mp_mag'] = (30, 150)
        p['kind'] = rng.choice(['cruise', 'stopgo'])
    elif family == 'H_missing_rd':
        p['profile'], p['vmin'], p['vmax'] = pick_fast(rng)
        p['white'] = rng.uniform(3, 15); p['gm_sigma'] = rng.uniform(0, 10); p['acc_k'] = rng.uniform(0.3, 1.0)
        p['n_miss'] = rng.randint(2, 10); p['miss_len'] = (5, 120); p['miss_as_neg'] = rng.random() < 0.5
        p['course'] = rng.random() < 0.3; p['mp_rate'] = rng.uniform(0, 1.5)
        p['kind'] = rng.choice(['cruise', 'stopgo'])
    elif family == 'H_profile_mismatch':
        # honest readings, but a user-picked profile that does not match the mode
        true_prof, p['vmin'], p['vmax'] = pick_fast(rng)
        p['true_mode'] = true_prof
        p['profile'] = rng.choice([x for x in ['walking', 'running', 'cycling', 'driving'] if x != true_prof])
        p['white'] = rng.uniform(3, 15); p['acc_k'] = rng.uniform(0.3, 1.0); p['mp_rate'] = rng.uniform(0, 1.5)
        p['kind'] = rng.choice(['cruise', 'stopgo'])
    elif family in ('W_unit', 'W_fast'):
        # a speed column in another unit read as m/s: slow (W_unit: km/h columns of m/s values...) or fast (W_fast:
        # knots 1.94 x, mph 2.24 x, km/h 3.6 x); the same draws in the same order otherwise
        p['profile'], p['vmin'], p['vmax'] = pick_fast(rng)
        p['vmin'] = max(p['vmin'], 3.0)
        p['factor'] = rng.choice([0.15, 0.2, 0.28, 0.36, 0.45, 0.6] if family == 'W_unit' else [1.94, 2.24, 3.6, 3.6])
        p['white'] = rng.uniform(1, 8); p['gm_sigma'] = rng.uniform(0, 8); p['acc_k'] = rng.uniform(0.4, 1.2)
        p['kind'] = rng.choice(['cruise', 'stopgo', 'fromrest'])
        p['n_gaps'] = rng.choice([0, 0, 1, 2]); p['gap_len'] = (20, 200); p['mp_rate'] = rng.choice([0, 0, 0.5])
    elif family == 'W_switch':
        p['profile'], p['vmin'], p['vmax'] = pick_fast(rng)
        p['vmin'] = max(p['vmin'], 3.0)
        p['factor'] = rng.choice([0.2, 0.28, 0.36, 0.45])
        p['white'] = rng.uniform(1, 8); p['gm_sigma'] = rng.uniform(0, 8); p['acc_k'] = rng.uniform(0.4, 1.2)
        p['kind'] = rng.choice(['cruise', 'stopgo'])
        p['switch_at'] = rng.uniform(0.25, 0.75); p['wrong_first'] = rng.random() < 0.5
    elif family == 'R_crawl_sweep':
        p['profile'] = rng.choice(['driving', 'cycling'])
        p['vmin'], p['vmax'] = 0.8, rng.uniform(1.5, 3.0)
        p['cadence'] = rng.choice([1, 1, 2, 3, 5])
        p['white'] = rng.uniform(2, 6); p['gm_sigma'] = rng.uniform(0, 6); p['acc_k'] = rng.uniform(0.6, 1.2)
        p['mp_rate'] = [0.0, 0.1, 0.25, 0.5, 1.0][seed % 5]; p['mp_mag'] = (30, 150); p['mp_len'] = (1, 10)
        p['kind'] = rng.choice(['cruise', 'stopgo'])
    elif family == 'R_slowveh_mp':
        p['profile'] = 'driving'; p['vmin'], p['vmax'] = 3.0, rng.uniform(5, 9)
        p['white'] = rng.uniform(2, 6); p['gm_sigma'] = rng.uniform(0, 8); p['acc_k'] = rng.uniform(0.5, 1.2)
        p['mp_rate'] = [0.1, 0.25, 0.5, 1.0][seed % 4]; p['mp_mag'] = (30, 200); p['mp_len'] = (1, 15)
        p['kind'] = 'stopgo'; p['stop_frac'] = 0.3
    elif family == 'R_crawl_drift':
        p['profile'] = rng.choice(['driving', 'cycling'])
        p['vmin'], p['vmax'] = 0.8, rng.uniform(1.5, 3.0)
        p['white'] = rng.uniform(1, 5); p['gm_sigma'] = rng.uniform(8, 30); p['gm_tau'] = rng.uniform(5, 30)
        p['acc_k'] = rng.uniform(0.4, 1.0); p['kind'] = rng.choice(['cruise', 'stopgo'])
    elif family == 'R_run_mp':
        p['profile'] = 'running'; p['vmin'], p['vmax'] = 2.5, rng.uniform(3, 4.5)
        p['white'] = rng.uniform(2, 6); p['gm_sigma'] = rng.uniform(0, 6); p['acc_k'] = rng.uniform(0.6, 1.2)
        p['mp_rate'] = [0.1, 0.25, 0.5, 1.0][seed % 4]; p['mp_mag'] = (30, 150); p['mp_len'] = (1, 10)
        p['kind'] = rng.choice(['cruise', 'stopgo'])
    elif family == 'R_walk_mp':
        p['profile'] = 'walking'; p['vmin'], p['vmax'] = 1.0, 1.7
        p['cadence'] = rng.choice([1, 2, 5, 10])
        p['white'] = rng.uniform(3, 10); p['gm_sigma'] = rng.uniform(0, 8); p['acc_k'] = rng.uniform(0.5, 1.2)
        p['mp_rate'] = [0.1, 0.25, 0.5, 1.0][seed % 4]; p['mp_mag'] = (30, 150); p['mp_len'] = (1, 15)
        p['kind'] = rng.choice(['cruise', 'stopgo'])
    elif family == 'R_parked_mild':
        p['profile'] = rng.choice(['driving', 'cycling'])
        p['vmin'], p['vmax'] = (8, 20) if p['profile'] == 'driving' else (4, 8)
        p['parked'] = True; p['park_s'] = rng.uniform(300, 1500)
        p['white'] = rng.uniform(2, 6); p['gm_sigma'] = rng.uniform(2, 10); p['gm_tau'] = rng.uniform(10, 60)
        p['acc_k'] = rng.uniform(0.5, 1.2); p['mp_rate'] = [0.1, 0.25, 0.5, 1.0][seed % 4]; p['mp_mag'] = (30, 200)
    elif family == 'W_grid':
        v = [3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30][seed % 11]
        p['factor'] = [0.15, 0.2, 0.28, 0.36, 0.45, 0.6][(seed // 11) % 6]
        p['course'] = (seed // 66) % 2 == 0
        p['profile'] = 'running' if v <= 5 else ('cycling' if v <= 12 else 'driving')
        p['vmin'], p['vmax'] = v * 0.9, v * 1.1
        p['white'] = rng.uniform(1, 5); p['gm_sigma'] = rng.uniform(0, 5); p['acc_k'] = rng.uniform(0.7, 1.2)
        p['kind'] = 'cruise'; p['cadence'] = rng.choice([1, 1, 2, 5])
    elif family == 'M_single':
        # one multipath excursion in an otherwise clean, honest crawl/slow drive
        v = [1.0, 2.0, 3.0, 5.0, 8.0][seed % 5]
        mag = [30, 60, 100, 200][(seed // 5) % 4]
        ln = [1, 3, 5, 10][(seed // 20) % 4]
        p['profile'] = ['driving', 'cycling'][(seed // 80) % 2]
        p['vmin'], p['vmax'] = v * 0.95, v * 1.05
        p['cadence'] = 1; p['white'] = 2.0; p['gm_sigma'] = 2.0; p['acc_k'] = 1.0; p['course'] = True
        p['dur'] = 600; p['kind'] = 'cruise'
        ang = rng.uniform(0, 2 * math.pi)
        p['mp_events'] = [(300.0, 300.0 + ln, mag * math.sin(ang), mag * math.cos(ang))]
        p['mp_mag1'] = mag; p['mp_len1'] = ln; p['v'] = v
    elif family == 'W_zero':
        # the wrong-unit case that read 0 m before the rule: fast, course present, 1 Hz, readings at 0.15/0.2
        v = [8, 10, 12, 14, 16, 20][seed % 6]
        p['factor'] = [0.15, 0.2][(seed // 6) % 2]
        p['profile'] = ['cycling', 'driving'][(seed // 12) % 2]
        p['vmin'], p['vmax'] = v * 0.95, v * 1.05
        p['white'] = rng.uniform(1, 5); p['gm_sigma'] = rng.uniform(0, 5); p['acc_k'] = rng.uniform(0.7, 1.2)
        p['kind'] = 'cruise'; p['cadence'] = 1; p['course'] = True
    elif family == 'R_commute':
        # city drive: crawls in jams, stops, short runs at 8-15 m/s; honest readings, mild multipath
        p['profile'] = 'driving'; p['vmin'], p['vmax'] = 0, 15; p['kind'] = 'commute'; p['dur'] = rng.uniform(900, 1800)
        p['cadence'] = rng.choice([1, 1, 1, 2, 5])
        p['white'] = rng.uniform(2, 5); p['gm_sigma'] = rng.uniform(1, 6); p['acc_k'] = rng.uniform(0.8, 1.2)
        p['mp_rate'] = [0.0, 0.1, 0.2, 0.3][seed % 4]; p['mp_mag'] = (30, 120); p['mp_len'] = (2, 10)
        p['lag'] = rng.choice([0, 0, 1])
    else:
        raise ValueError(family)
    return rng, p


FAMILIES = {'H_white_underst': 130, 'H_multipath': 130, 'H_urban_canyon': 100, 'H_stopgo_brake': 90,
            'H_lag_fromrest': 90, 'H_tunnel': 80, 'H_sparse': 90, 'H_train_ferry': 70, 'H_parked_mp': 70,
            'H_crawl_mp': 80, 'H_walk_heavy': 80, 'H_missing_rd': 80, 'H_profile_mismatch': 60,
            'W_unit': 180, 'W_fast': 120, 'W_switch': 80,
            'R_crawl_sweep': 150, 'R_slowveh_mp': 100, 'R_crawl_drift': 80, 'R_run_mp': 80, 'R_walk_mp': 80,
            'R_parked_mild': 60, 'W_grid': 132, 'M_single': 160, 'W_zero': 72, 'R_commute': 100}


def gen_case(family, seed):
    rng, p = sample(family, seed)
    rows, truth = make_case(rng, p)
    cid = f'{family}_{seed}'
    path = os.path.join(OUT, cid + '.csv')
    write_fixes(path, rows)
    return {'id': cid, 'path': path, 'family': family, 'profile': p['profile'], 'truth_m': truth,
            'nfix': len(rows), 'params': {k: v for k, v in p.items() if k not in ('family',)}}


if __name__ == '__main__':
    os.makedirs(OUT, exist_ok=True)
    fams = sys.argv[1:] or list(FAMILIES)
    mf = os.environ.get('MANIFEST', 'manifest.jsonl')
    with open(os.path.join(os.path.dirname(OUT), mf), 'w') as f:
        for fam in fams:
            for s in range(FAMILIES[fam]):
                f.write(json.dumps(gen_case(fam, s)) + '\n')
