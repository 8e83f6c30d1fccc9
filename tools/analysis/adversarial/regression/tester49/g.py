# Generator of the tester49 set (tester session 2026-12-05), copied as written; also imported by tester50/g2.py.
import numpy as np, math, json, subprocess, sys, os
R=6371008.8; LAT0=48.2; LON0=11.5
H=10  # internal Hz

def truth(rng, dur, speed, turn_sd=0.02, corners=None, stops=None, speed_var=0.0):
    """10 Hz truth. corners: (every_lo, every_hi, angle_lo, angle_hi, dur_s) sharp turns.
    stops: (every_lo, every_hi, len_lo, len_hi, decel m/s2)"""
    n=int(dur*H)+1; dt=1.0/H
    x=np.zeros(n); y=np.zeros(n); vx=np.zeros(n); vy=np.zeros(n)
    hd=rng.uniform(0,2*math.pi); hr=0.0
    nc = rng.uniform(*corners[:2]) if corners else 1e18
    turn_left=0.0; turn_rate=0.0
    ns = rng.uniform(*stops[:2]) if stops else 1e18
    halt=0.0; v=speed; vt=speed; tcount=0.0; scount=0.0
    for i in range(1,n):
        tcount+=dt; scount+=dt
        if stops and scount>=ns and halt<=0 and v>0.01 and vt>0:
            vt=0.0; halt=rng.uniform(*stops[2:4])
        if vt==0.0:
            if v<=0.01:
                v=0.0; halt-=dt
                if halt<=0: vt=speed*(1+speed_var*rng.normal()); scount=0; ns=rng.uniform(*stops[:2])
            else: v=max(0.0,v-stops[4]*dt)
        else:
            a=stops[4] if stops else 1.0
            if abs(v-vt)>0: v=min(vt,v+a*dt) if v<vt else max(vt,v-a*dt)
            if speed_var>0 and rng.random()<0.002: vt=speed*max(0.3,1+speed_var*rng.normal())
        if v>0:
            if corners and tcount>=nc and turn_left<=0:
                ang=rng.uniform(*corners[2:4])*rng.choice([-1,1]); turn_left=corners[4]; turn_rate=math.radians(ang)/corners[4]; tcount=0; nc=rng.uniform(*corners[:2])
            if turn_left>0:
                hd+=turn_rate*dt; turn_left-=dt
            else:
                hr=0.98*hr+rng.normal(0,turn_sd)*math.sqrt(dt)*0.3
                hd+=hr*dt
        vx[i]=v*math.sin(hd); vy[i]=v*math.cos(hd)
        x[i]=x[i-1]+vx[i]*dt; y[i]=y[i-1]+vy[i]*dt
    return x,y,vx,vy

def gm(rng,n,sigma,tau,dt):
    if sigma<=0: return np.zeros(n),np.zeros(n)
    a=math.exp(-dt/tau); q=sigma*math.sqrt(1-a*a)
    e=np.zeros((n,2)); e[0]=rng.normal(0,sigma,2)
    for i in range(1,n): e[i]=a*e[i-1]+rng.normal(0,q,2)
    return e[:,0],e[:,1]

def make(path, seed, dur, speed, step=1.0, white=3.0, gms=0.0, tau=60.0, accmul=1.0, acc_override=None,
         sd=0.2, crs_sd=5.0, scale=1.0, lag=False, ios_p=0.0, no_read=False, turn_sd=0.02, corners=None, stops=None,
         speed_var=0.0, pieces=None, nocourse=False, ios_halt=False):
    rng=np.random.default_rng(seed)
    segs=[]  # list of (x,y,vx,vy,t0offset, xoff)
    if pieces:
        tot=0.0
        for k in range(pieces):
            x,y,vx,vy=truth(rng,dur,speed,turn_sd,corners,stops,speed_var)
            segs.append((x+k*80000.0,y,vx,vy,k*(dur+3600.0)))
    else:
        x,y,vx,vy=truth(rng,dur,speed,turn_sd,corners,stops,speed_var); segs.append((x,y,vx,vy,0.0))
    L=0.0; rows=[]
    for (x,y,vx,vy,t0) in segs:
        L+=float(np.sum(np.hypot(np.diff(x),np.diff(y))))
        idx=np.arange(0,len(x),int(round(step*H)))
        m=len(idx)
        ex,ey=gm(rng,m,gms,tau,step)
        ex=ex+rng.normal(0,white,m); ey=ey+rng.normal(0,white,m)
        tot=math.hypot(white,gms)
        acc = acc_override if acc_override else accmul*tot
        for j,i in enumerate(idx):
            if lag and i>=H:
                mvx=vx[i-H+1:i+1].mean(); mvy=vy[i-H+1:i+1].mean()
            else: mvx,mvy=vx[i],vy[i]
            s=math.hypot(mvx,mvy); c=math.degrees(math.atan2(mvx,mvy))%360
            if no_read: sp=''; co=''
            else:
                sm=max(0.0,scale*s+rng.normal(0,sd))
                sp='%.2f'%sm
                co='%.1f'%((c+rng.normal(0,crs_sd))%360) if sm>0.5 else '-1'
                if ios_p>0 and rng.random()<ios_p: sp='-1'; co='-1'
                if nocourse: co='-1'
                if ios_halt and s<0.05: sp='-1'; co='-1'
            X=x[i]+ex[j]; Y=y[i]+ey[j]
            lat=LAT0+math.degrees(Y/R); lon=LON0+math.degrees(X/(R*math.cos(math.radians(LAT0))))
            a = acc*(1+0.1*rng.normal()) if not acc_override else acc
            rows.append('%d,%.8f,%.8f,%.1f,%s,%s'%(1764892800000+int(round((t0+i/H)*1000)),lat,lon,max(a,0.5),sp,co))
    with open(path,'w') as f:
        f.write('timestamp,latitude,longitude,accuracy,speed,course\n'); f.write('\n'.join(rows)+'\n')
    return L

def run(b, path, prof, smooth=True):
    a=[b,'process',path,'--json','--profile',prof]+(['--smooth'] if smooth else [])
    p=subprocess.run(['nice','-n','19']+a,capture_output=True,text=True,timeout=900)
    try: j=json.loads(p.stdout)
    except Exception: return dict(crash='rc=%d %s'%(p.returncode,p.stderr[:300]))
    return dict(d=j.get('distanceMetres'),sig=j.get('distanceSigmaMetres'),ratio=j.get('whitePartMisfitRatio'),
                inc=j.get('modelDifferenceIncludedMetres'),md=j.get('modelDifferenceMetres'),warn=j.get('warnings'),err=j.get('error'),stderr=p.stderr.strip()[:200])
