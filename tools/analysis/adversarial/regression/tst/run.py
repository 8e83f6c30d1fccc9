# case() of the tst set (tester session 2026-12-05), copied as written but for the paths (CASES under $TT_WORK, optional path=).
import sys, json, subprocess, numpy as np, math, os
sys.path.insert(0,os.path.dirname(os.path.abspath(__file__))); from gen import *
CASES=os.path.join(os.environ.get('TT_WORK','/tmp/tt-adversarial/regression'),'tst')
def run(binary, path, extra=()):
    p=subprocess.run([binary,'process',path,'--json','--profile','walking',*extra],capture_output=True,text=True,timeout=600)
    try: j=json.loads(p.stdout)
    except Exception: return None, 'CRASH rc=%d %s'%(p.returncode,p.stderr[:200])
    w=j.get('warnings') or []
    err=j.get('error')
    return j.get('distanceMetres'), ('; '.join(map(str,w))+(' ERR '+str(err) if err else '')+(' STDERR:'+p.stderr.strip()[:200] if p.stderr.strip() else ''))
cases=[]
def case(name, seed, dur, speed, halt_len, halt_lo, halt_hi, nk, sigma, tau, accmul, rk, rkw=None, grid=False, path=None):
    rng=np.random.default_rng(seed); np.random.seed(seed)
    he=(lambda: rng.uniform(halt_lo,halt_hi)) if halt_len>0 else None
    if grid:
        t,x,y,v,c=truth_walk(rng,dur,speed,0,None,grid=True,block=rng.uniform(100,200),stop_rng=lambda: rng.uniform(20,90),heading0=0.0)
    else:
        t,x,y,v,c=truth_walk(rng,dur,speed,halt_len,he)
    ex,ey=noise(rng,len(t),nk,sigma,tau)
    spd=readings(rng,v,rk,**(rkw or {}))
    path=path or os.path.join(CASES,'%s_s%d.csv'%(name,seed))
    write(path,t,x,y,ex,ey,accmul*sigma,spd,c,v)
    return path, truth_len(x,y)
