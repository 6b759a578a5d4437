# Fits per-block pass times (block_times_cost*.txt) to the classes of each block's segments, with the
# partition of the power-law mix recomputed here (bench_segmented.cu's generator, 396 blocks). Session 31.
import numpy as np, re
n=1<<28
h=0x5eed; M=(1<<64)-1
off=[0]
while off[-1]<n:
    h=(h*6364136223846793005+1442695040888963407)&M
    u=((h>>11)+1)*(1.0/9007199254740992.0)
    l=int(u**-1.5); l=min(l,n//16)
    off.append(min(off[-1]+l,n))
off=np.array(off,dtype=np.int64); cnt=len(off)-1; lens=np.diff(off)
def blocks(slope, grid, elmin=8192, byt=4):
    work=n+slope*cnt
    chunk=max(-(-work//grid), 32768//byt)
    K=off[:-1]+slope*(np.arange(cnt)+1)
    bounds=np.searchsorted(K,np.arange(grid+1)*chunk,side='left'); bounds[grid]=cnt
    res=[]
    for b in range(grid):
        s0,s1=bounds[b],bounds[b+1]
        # crossing out: last segment runs past chunk end
        L=lens[s0:s1]
        res.append((s1-s0, (L<=8).sum(), ((L>8)&(L<=64)).sum(), ((L>64)&(L<=8192)).sum(), (L>8192).sum()))
    return np.array(res)
X=[];Y=[]
import os
here=os.path.dirname(os.path.abspath(__file__))
for fname,slope in [("block_times_cost64",16),("block_times_cost256",64)]:
    sim=blocks(slope,396)
    rows={}
    for line in open(os.path.join(here,"%s.txt"%fname)):
        if not line.startswith("isum "): continue
        d=dict(kv.split("=") for kv in line.split()[1:])
        rows[int(d["b"])]=d
    ok=0
    for b in range(396):
        d=rows[b]
        segs=int(d["segs"])
        if abs(segs-sim[b][0])<=2: ok+=1
        if segs==0: continue
        # owned-only phases: thread p2, group p3, warp p4, block p5
        X.append([1]+list(sim[b][1:])); Y.append([float(d[k]) for k in ("p2","p3","p4","p5")])
    print(fname,"matched",ok)
X=np.array(X,float);Y=np.array(Y)
for i,name in enumerate(["thread pass","group pass","warp pass","block pass"]):
    c,res,_,_=np.linalg.lstsq(X,Y[:,i],rcond=None)
    pred=X@c; r2=1-((Y[:,i]-pred)**2).sum()/((Y[:,i]-Y[:,i].mean())**2).sum()
    print(name,"us: const %.2f  per thr %.4f grp %.4f warp %.4f blk %.3f  R2 %.3f"%(*c,r2))
tot=Y.sum(1); c,_,_,_=np.linalg.lstsq(X,tot,rcond=None); print("all passes: const %.2f thr %.4f grp %.4f warp %.4f blk %.3f"%tuple(c))
