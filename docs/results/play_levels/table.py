"""The level table of the README's `tde play` section, from the arenas in this folder:
`arena/` (greedy, scripted, mcts:ms=25 without the network (not a level; left out), and the
strongest spec at 50 ms) and `hard_*/` (the hard spec at 10 ms against each other level).
Run: python3 docs/results/play_levels/table.py"""
import json, math, collections, glob
S='mcts:ms=50,rollout=scripted,width=4,net=checkpoints/bootstrap_value'
H='mcts:ms=10,rollout=scripted,width=4,net=checkpoints/bootstrap_value'
short={'greedy':'easy','scripted':'normal',H:'hard',S:'strongest'}
order=['greedy','scripted',H,S]
def wilson(p,n,z=1.96):
    d=1+z*z/n; c=p+z*z/(2*n); h=z*math.sqrt(p*(1-p)/n+z*z/(4*n*n)); return (c-h)/d,(c+h)/d
agg=collections.defaultdict(lambda:[0,0,0,0]); think=collections.defaultdict(lambda:[0.0,0])
import os
here=os.path.dirname(os.path.abspath(__file__))
for f in [os.path.join(here,'arena/games.jsonl')]+glob.glob(os.path.join(here,'hard_*/games.jsonl')):
    for l in open(f):
        g=json.loads(l); a,b=g['a'],g['b']
        if a not in short or b not in short: continue
        s=g['score_a']
        if order.index(a)<order.index(b): a,b=b,a; s=1-s
        k=(a,b); agg[k][0]+=1; agg[k][1]+=s==1; agg[k][2]+=s==0.5; agg[k][3]+=s==0
        for who,mv,t in zip((g['a'],g['b']),g['moves'],g['think_s']):
            think[who][0]+=t; think[who][1]+=mv
print('| level | against | games | W–D–L | score | 95% interval |')
print('| --- | --- | ---: | --- | ---: | --- |')
for k in sorted(agg, key=lambda k:(-order.index(k[0]), -order.index(k[1]))):
    n,w,d,l=agg[k]; p=(w+d/2)/n; lo,hi=wilson(p,n)
    print(f'| {short[k[0]]} | {short[k[1]]} | {n} | {w}–{d}–{l} | {100*p:.1f}% | {100*lo:.1f}–{100*hi:.1f}% |')
for a,(t,m) in think.items(): print(a, round(1000*t/m,2),'ms/move', m)
