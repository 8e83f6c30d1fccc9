# Generator of the tester50 set (tester session 2026-12-05), copied as written but for the import path of ../tester49/g.py.
import sys, os; sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tester49'))  # g.py of the tester49 set
import numpy as np, math, json, subprocess, os
from g import truth, gm, run, R, LAT0, LON0, H

def make2(path, seed, dur, speed, step=1.0, white=3.0, gms=0.0, tau=60.0, accmul=1.0, acc_override=None,
         sd=0.2, crs_sd=5.0, scale=1.0, ios_p=0.0, turn_sd=0.02, corners=None, stops=None, speed_var=0.0,
         nocourse=False, zero_p=0.0, zero_run=(1,1), zero_runs=None, scale_jit=0.0, zero_course=True, acc_jit=0.1):
    """zero_p: probability a moving fix starts a zero-run (run length uniform int zero_run lo..hi fixes).
       zero_runs: (every_lo, every_hi, len_lo, len_hi) seconds: readings 0 for len while moving.
       scale_jit: per-fix multiplicative scale noise sd (on top of scale)."""
    rng=np.random.default_rng(seed)
    x,y,vx,vy=truth(rng,dur,speed,turn_sd,corners,stops,speed_var)
    L=float(np.sum(np.hypot(np.diff(x),np.diff(y))))
    idx=np.arange(0,len(x),int(round(step*H))); m=len(idx)
    ex,ey=gm(rng,m,gms,tau,step)
    ex=ex+rng.normal(0,white,m); ey=ey+rng.normal(0,white,m)
    tot=math.hypot(white,gms)
    acc = acc_override if acc_override else accmul*tot
    # zero-run schedule in time
    zr_mask=np.zeros(len(x),bool)
    if zero_runs:
        t=rng.uniform(*zero_runs[:2])
        while t<dur:
            ln=rng.uniform(*zero_runs[2:4]); a=int(t*H); zr_mask[a:a+int(ln*H)]=True
            t+=ln+rng.uniform(*zero_runs[:2])
    rows=[]; zleft=0; nz=0; nmov=0
    for j,i in enumerate(idx):
        s=math.hypot(vx[i],vy[i]); c=math.degrees(math.atan2(vx[i],vy[i]))%360
        sc=scale*(1+scale_jit*rng.normal()) if scale_jit>0 else scale
        sm=max(0.0,sc*s+rng.normal(0,sd))
        if s>0.3:
            nmov+=1
            if zleft<=0 and zero_p>0 and rng.random()<zero_p:
                zleft=int(rng.integers(zero_run[0],zero_run[1]+1))
            if zleft>0 or zr_mask[i]:
                sm=0.0; nz+=1
            if zleft>0: zleft-=1
        sp='%.2f'%sm
        co='%.1f'%((c+rng.normal(0,crs_sd))%360) if sm>0.5 else '-1'
        if ios_p>0 and rng.random()<ios_p: sp='-1'; co='-1'
        if nocourse: co='-1'
        X=x[i]+ex[j]; Y=y[i]+ey[j]
        lat=LAT0+math.degrees(Y/R); lon=LON0+math.degrees(X/(R*math.cos(math.radians(LAT0))))
        a = acc*(1+acc_jit*rng.normal()) if not acc_override else acc
        rows.append('%d,%.8f,%.8f,%.1f,%s,%s'%(1764892800000+int(round((i/H)*1000)),lat,lon,max(a,0.5),sp,co))
    with open(path,'w') as f:
        f.write('timestamp,latitude,longitude,accuracy,speed,course\n'); f.write('\n'.join(rows)+'\n')
    return L, (nz/max(nmov,1))
