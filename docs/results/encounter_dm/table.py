"""The Dungeon Master table of docs/results/encounter_dm/README.md from the arena outputs in
raw/ (each file: the command on its first line, then `tde encounter arena`'s table).
Per seed set (the file name's seedN) and in all: games, party wins–DM wins–draws, the DM's
win rate with its 95% Wilson interval, and the search DM's gain over the scripted DM in
the same games with a 95% interval (normal approximation, the two rates independent).
Run: python3 docs/results/encounter_dm/table.py [DIR] (DIR: the outputs' folder, relative to
this file; raw/ by default, raw/session9 for the figures of session 9)."""
import collections, glob, math, os, re, sys

def wilson(k, n, z=1.96):
    p = k / n; d = 1 + z * z / n; c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h

here = os.path.dirname(os.path.abspath(__file__))
tot = collections.defaultdict(lambda: [0, 0, 0])
folder = sys.argv[1] if len(sys.argv) > 1 else 'raw'
for f in sorted(glob.glob(os.path.join(here, folder, '*.txt'))):
    seeds = 'seed ' + re.search(r'seed(\d+)', os.path.basename(f)).group(1)
    for line in open(f):
        m = re.match(r'(\S+)\s+(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s', line)
        if not m or m.group(1) == 'party':
            continue
        for key in ((seeds, m.group(1), m.group(2)), ('all', m.group(1), m.group(2))):
            for i in range(3):
                tot[key][i] += int(m.group(3 + i))
print('| seeds | party | DM | games | party–DM–draws | DM win rate [95%] |')
print('| --- | --- | --- | ---: | --- | --- |')
for k in sorted(tot, key=lambda k: (k[0] == 'all', k)):
    p, d, dr = tot[k]; n = p + d + dr; lo, hi = wilson(d, n)
    print(f'| {k[0]} | `{k[1]}` | `{k[2]}` | {n} | {p}–{d}–{dr} | {100*d/n:.1f}% [{100*lo:.1f}, {100*hi:.1f}] |')
print()
for seeds, party in sorted({k[:2] for k in tot}, key=lambda s: (s[0] == 'all', s)):
    rows = {k[2]: v for k, v in tot.items() if k[0] == seeds and k[1] == party}
    if 'scripted' not in rows:
        continue
    base = rows['scripted']; nb = sum(base); pb = base[1] / nb
    for dm, v in rows.items():
        if dm == 'scripted':
            continue
        n = sum(v); p = v[1] / n; se = math.sqrt(pb * (1 - pb) / nb + p * (1 - p) / n)
        print(f'{seeds}, party `{party}`: DM `{dm}` − DM `scripted` = {100*(p-pb):+.1f} points '
              f'[{100*(p-pb-1.96*se):+.1f}, {100*(p-pb+1.96*se):+.1f}]')
