import sys,re
# python3 pooled.py probe_sibling_*.txt — the pair-weighted pooled correlation of a `tde probe sibling` text: head and material.
for f in sys.argv[1:]:
    rows=[l.split() for l in open(f) if re.match(r"\s+(assassinate|grudge_match|attack_and_defend|couriers|scavenger_hunt)\s",l)]
    n=sum(int(r[2]) for r in rows)
    head=sum(int(r[2])*float(r[3]) for r in rows)/n
    # material correlation: the third-from-last number group
    mat=sum(int(r[2])*float(re.findall(r"-?\d+\.\d+",' '.join(r))[-3]) for r in rows)/n
    print(f"{f}: {sum(int(r[1]) for r in rows)} decisions, {n} pairs: head {head:.3f}, material {mat:.3f}, head - material {head-mat:+.3f}")
