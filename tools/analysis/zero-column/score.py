#!/usr/bin/env python3
"""Distance of every file of the zero-speed-column test set against its truth, summed per group, interval and
speed-column kind (docs/ARCHITECTURE.md, "A speed column of zeros under a moving track").

    python3 tools/analysis/zero-column/gen.py /tmp/zc        # the set: ~20 s, 71 MB (numpy)
    python3 tools/analysis/zero-column/score.py BINARY /tmp/zc [zero|true|none,...] [OUT.json]

gen.py was written by a fleet tester (2026-12-02): delivery days in a city and on rural roads, a walking and a
cycling courier, parked days with multipath, at 1/5/10/30 s, each with a speed column of zeros, of true speeds
(zeros at halts) and without one.
"""
import glob, json, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor
B=sys.argv[1]; DATA=sys.argv[2]; kinds=sys.argv[3].split(',') if len(sys.argv)>3 else ['zero']
PROF={"walk":"walking","cycle":"cycling"}
files=[f for f in sorted(glob.glob(f'{DATA}/*/*.csv')) if any(f.endswith(f'-{k}.csv') for k in kinds)]
def job(f):
    g=os.path.basename(os.path.dirname(f)); t=json.load(open(f[:-4]+'.truth.json'))
    out=subprocess.run([B,'process',f,'--profile',PROF.get(g,'driving'),'--json'],capture_output=True,text=True).stdout
    return f, g, t['interval'], t['kind'], t['distance'], json.loads(out)['distanceMetres']
with ThreadPoolExecutor(2) as ex: res=list(ex.map(job,files))
agg={}
for f,g,iv,k,tr,d in res:
    key=(g,iv,k); a=agg.setdefault(key,[0,0,0]); a[0]+=tr; a[1]+=d; a[2]+=abs(d-tr)
for key in sorted(agg, key=lambda k:(k[0],k[1],k[2])):
    tr,d,e=agg[key]
    print(f"{key[0]:10s} {key[1]:3d}s {key[2]:5s} truth {tr/1000:8.1f} km  got {d/1000:8.1f} km  ({(d-tr)/tr*100 if tr else 0:+6.1f} %)  sum|err| {e/1000:7.2f} km")
json.dump({r[0]:r[5] for r in res}, open(sys.argv[4] if len(sys.argv)>4 else '/dev/null','w'))
