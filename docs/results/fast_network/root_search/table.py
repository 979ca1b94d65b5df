import json,sys,math,statistics
for f in sys.argv[1:]:
    rows=[json.loads(l) for l in open(f+'/games.jsonl')]
    s=[r['score_a'] for r in rows]; n=len(s); m=sum(s)/n
    sd=statistics.stdev(s) if n>1 else 0
    w=sum(1 for x in s if x==1); d=sum(1 for x in s if x==0.5); l=n-w-d
    ta=[r['think_s'][0]/max(1,r['moves'][0])*1000 for r in rows]; tb=[r['think_s'][1]/max(1,r['moves'][1])*1000 for r in rows]
    print(f"{f.split('/')[-1]}: {rows[0]['a']} vs {rows[0]['b']}: {n} games {w}-{d}-{l} {100*m:.1f}% ({100*(m-1.96*sd/math.sqrt(n)):.1f}-{100*(m+1.96*sd/math.sqrt(n)):.1f}%) ms/move median {statistics.median(ta):.1f} / {statistics.median(tb):.1f}")
