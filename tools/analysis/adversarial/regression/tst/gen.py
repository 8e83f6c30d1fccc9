# Generator of the tst set (tester session 2026-12-05), copied as written.
import numpy as np, math, sys, json, subprocess, os
R=6371008.8; LAT0=51.5; LON0=-0.12
def truth_walk(rng, dur, speed, halt_len, halt_every, grid=False, block=None, stop_rng=None, heading0=None):
    # returns t, x, y, v (truth speed), course
    dt=1.0; n=int(dur)+1
    x=np.zeros(n); y=np.zeros(n); v=np.zeros(n); c=np.zeros(n)
    hd = rng.uniform(0,2*math.pi) if heading0 is None else heading0
    since=0.0; halt_left=0.0; seg_dist=0.0
    next_halt = halt_every() if halt_every else 1e18
    for i in range(1,n):
        if halt_left>0:
            halt_left-=dt; vi=0.0
        else:
            vi=speed
            if not grid:
                hd += rng.normal(0,0.03)
            since+=dt
        if grid:
            seg_dist += vi*dt
            if vi>0 and seg_dist>=block:
                # stop at the crossing and turn
                seg_dist=0.0; halt_left=stop_rng(); hd += rng.choice([-1,1])*math.pi/2
        elif since>=next_halt and halt_len>0:
            halt_left=halt_len; since=0.0; next_halt=halt_every()
        x[i]=x[i-1]+vi*dt*math.sin(hd); y[i]=y[i-1]+vi*dt*math.cos(hd); v[i]=vi; c[i]=math.degrees(hd)%360
    return np.arange(n)*dt, x, y, v, c
def noise(rng, n, kind, sigma, tau=None):
    if kind=='white': return rng.normal(0,sigma,n), rng.normal(0,sigma,n)
    a=math.exp(-1.0/tau); q=sigma*math.sqrt(1-a*a)
    ex=np.zeros(n); ey=np.zeros(n); ex[0]=rng.normal(0,sigma); ey[0]=rng.normal(0,sigma)
    for i in range(1,n):
        ex[i]=a*ex[i-1]+rng.normal(0,q); ey[i]=a*ey[i-1]+rng.normal(0,q)
    return ex,ey
def readings(rng, v, kind, **k):
    n=len(v)
    if kind=='honest' or kind.startswith('ios'):
        s=np.clip(v+rng.normal(0,k.get('sd',0.2),n),0,None)
        if kind=='ios_halt': s[v==0]=-1
        if kind=='ios_rand': s[rng.random(n)<k.get('p',0.2)]=-1
        return s
    if kind=='samsung':
        s=np.clip(0.5*v+rng.normal(0,0.1,n),0,None)
        z=(v>0)&(rng.random(n)<k['pz']); s[z]=0; s[v==0]=0
        return s
    if kind=='scale':
        return np.clip(k['scale']*v+rng.normal(0,0.1,n),0,None)
    if kind=='none': return np.full(n,np.nan)
def write(path, t, x, y, ex, ey, acc, spd, crs, v):
    with open(path,'w') as f:
        f.write('timestamp,latitude,longitude,accuracy,speed,course\n')
        for i in range(len(t)):
            X=x[i]+ex[i]; Y=y[i]+ey[i]
            lat=LAT0+math.degrees(Y/R); lon=LON0+math.degrees(X/(R*math.cos(math.radians(LAT0))))
            ms=1764892800000+int(t[i]*1000)
            sp='' if np.isnan(spd[i]) else ('-1' if spd[i]<0 else '%.2f'%spd[i])
            co = ('%.1f'%((crs[i]+np.random.normal(0,10))%360)) if (not np.isnan(spd[i]) and spd[i]>0.3) else '-1'
            f.write('%d,%.8f,%.8f,%.1f,%s,%s\n'%(ms,lat,lon,acc,sp,co))
def truth_len(x,y): return float(np.sum(np.hypot(np.diff(x),np.diff(y))))
