#!/usr/bin/env python3
"""The speed check's adversarial tracks (gen.py: 2,544 seeded cases in 26 families; W_fast, columns read 1.94-3.6 x
fast, added by the fiftieth session) through two builds.

Usage: python3 tools/analysis/adversarial/speed_check/compare.py BEFORE_BIN AFTER_BIN [FAMILY ...]
Missing cases are generated under $TT_WORK/speed_check/cases (TT_WORK defaults to /tmp/tt-adversarial); both builds
run `process CASE --profile PROFILE --json` (2 at a time). Prints per family: n, AFTER better / worse by more than
1 point of |distance error| (% of the true path length), summed |error| before -> after; then the 10 largest
regressions. The session that built the check measured (head before it vs after): every H_/R_/M_ family identical
or within 1 point; W_unit 3,196 -> 2,461, W_switch 1,600 -> 1,021, W_grid 2,148 -> 1,450, W_zero 4,418 -> 934.
"""
import json, os, subprocess, sys
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen


def distance(binary, case):
    r = subprocess.run([binary, 'process', case['path'], '--profile', case['profile'], '--json'],
                       capture_output=True, text=True)
    try:
        return json.loads(r.stdout)['distanceMetres']
    except Exception:
        return None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    before, after = sys.argv[1:3]
    families = sys.argv[3:] or list(gen.FAMILIES)
    os.makedirs(gen.OUT, exist_ok=True)
    cases = []
    for fam in families:
        for seed in range(gen.FAMILIES[fam]):
            path = os.path.join(gen.OUT, f'{fam}_{seed}.csv')
            meta = path[:-4] + '.json'
            if os.path.exists(path) and os.path.exists(meta):
                cases.append(json.load(open(meta)))
            else:
                case = gen.gen_case(fam, seed)
                json.dump(case, open(meta, 'w'))
                cases.append(case)
    jobs = [(b, c) for c in cases for b in (before, after)]
    with ThreadPoolExecutor(2) as ex:
        results = list(ex.map(lambda job: distance(*job), jobs))
    table = OrderedDict()
    regressions = []
    for i, case in enumerate(cases):
        b, a = results[2 * i], results[2 * i + 1]
        row = table.setdefault(case['family'], [0, 0, 0, 0.0, 0.0, 0])
        row[0] += 1
        if b is None or a is None:
            row[5] += 1
            continue
        t = case['truth_m']
        eb, ea = 100 * abs(b - t) / t, 100 * abs(a - t) / t
        row[1] += ea < eb - 1
        row[2] += ea > eb + 1
        row[3] += eb
        row[4] += ea
        regressions.append((ea - eb, case['id'], case['profile'], 100 * (b - t) / t, 100 * (a - t) / t))
    print(f"{'family':22s} {'n':>4s} {'better':>6s} {'worse':>6s} {'failed':>6s}   summed |error| before -> after")
    for fam, (n, better, worse, eb, ea, failed) in table.items():
        print(f"{fam:22s} {n:4d} {better:6d} {worse:6d} {failed:6d}   {eb:10.1f} -> {ea:10.1f}")
    print("largest regressions (points): case, profile, error before -> after")
    for d, cid, prof, b, a in sorted(regressions, reverse=True)[:10]:
        print(f"  {d:+7.2f}  {cid:26s} {prof:8s} {b:+8.2f}% -> {a:+8.2f}%   {os.path.join(gen.OUT, cid + '.csv')}")


if __name__ == '__main__':
    main()
