#!/usr/bin/env python3
# Cycles between the files of each crate: edges from `crate::`, `super::` and `self::` paths
# (comments and `mod tests` ignored; a file using its own ancestor modules is not counted).
# Usage: scripts/module_cycles.py crates/chessbits crates/chessbits-archive ...
import os,re,sys
# module-file dependency graph from `use crate::`/`use super::`/`super::x::` paths, per crate
def modpath(root, f):
    rel=os.path.relpath(f, root)[:-3].split('/')
    if rel[-1] in ('mod','lib','main'): rel=rel[:-1]
    return rel
for crate in sys.argv[1:]:
    root=os.path.join(crate,'src')
    files={}
    for d,_,fs in os.walk(root):
        for f in fs:
            if f.endswith('.rs'): files[tuple(modpath(root,os.path.join(d,f)))]=os.path.join(d,f)
    def resolve(cur, path):
        # cur: module path of file; path: list of segments starting with crate/super/self
        segs=path.split('::')
        if segs[0]=='crate': base=[]; segs=segs[1:]
        elif segs[0] in ('super','self'):
            base=list(cur)
            while segs and segs[0] in ('super','self'):
                if segs[0]=='super': base=base[:-1]
                segs=segs[1:]
        else: return None
        full=base+segs
        # longest prefix that is a file
        for n in range(len(full),-1,-1):
            if tuple(full[:n]) in files: return tuple(full[:n])
        return None
    edges={}
    for m,f in files.items():
        src='\n'.join(l for l in open(f).read().split('\n') if not l.lstrip().startswith('//'))
        # strip test modules roughly: ignore content after '#[cfg(test)]\nmod tests'
        i=src.find('#[cfg(test)]\nmod tests')
        if i>=0: src=src[:i]
        deps=set()
        for mt in re.finditer(r'\b((?:crate|super|self)(?:::[A-Za-z_][A-Za-z0-9_]*)+)', src):
            t=resolve(m, mt.group(1))
            if t is not None and t!=m and t!=tuple(m[:len(t)]): deps.add(t)
        # use super::{a, b::C}
        for mt in re.finditer(r'use\s+(crate|super(?:::super)*)::\{([^}]*)\}', src):
            for item in mt.group(2).split(','):
                item=item.strip().split(' as ')[0]
                if not item: continue
                t=resolve(m, mt.group(1)+'::'+item)
                if t is not None and t!=m and t!=tuple(m[:len(t)]): deps.add(t)
        edges[m]=deps
    for a in sorted(edges):
        for b in sorted(edges[a]):
            if a in edges.get(b,()) and a<b:
                print(crate, files[a], '<->', files[b])
    # longer cycles: strongly connected components of more than one file
    import sys as _s
    _s.setrecursionlimit(10000)
    index={}; low={}; stack=[]; on=set(); out=[]; counter=[0]
    def strong(v):
        index[v]=low[v]=counter[0]; counter[0]+=1; stack.append(v); on.add(v)
        for w in edges.get(v,()):
            if w not in index: strong(w); low[v]=min(low[v],low[w])
            elif w in on: low[v]=min(low[v],index[w])
        if low[v]==index[v]:
            comp=[]
            while True:
                w=stack.pop(); on.discard(w); comp.append(w)
                if w==v: break
            if len(comp)>1: out.append(comp)
    for v in edges:
        if v not in index: strong(v)
    for comp in out:
        print(crate, 'cycle among:', ', '.join(files[c] for c in sorted(comp)))
