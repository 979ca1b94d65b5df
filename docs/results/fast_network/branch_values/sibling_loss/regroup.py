"""Give the v2 branch shards of session 9 (children interleaved: c1 side0, c1 side1, c2 side0...)
the sibling groups of the same games made again in v3 (side 0's children, then side 1's), after
checking every position's features are the same; the labels stay those of the v2 shards."""
import struct, sys, os
def read(path):
    b = open(path, 'rb').read()
    assert b[:8] == b'TDEFDATA'
    ver, = struct.unpack_from('<I', b, 8)
    npos, nfeat, nact = struct.unpack_from('<QQQ', b, 12)
    at = 36
    size = 20 if ver == 2 else 24
    pos = []
    for i in range(npos):
        if ver == 2:
            fs, fl, as_, al, v, m = struct.unpack_from('<IHIHff', b, at); g = 0
        else:
            fs, fl, as_, al, v, m, g = struct.unpack_from('<IHIHffI', b, at)
        pos.append([fs, fl, as_, al, v, m, g]); at += size
    feats = struct.unpack_from('<%dH' % nfeat, b, at); at += 2 * nfeat
    rest = b[at:]
    return ver, pos, feats, nact, rest
def f(pos, feats, p): return feats[p[0]:p[0] + p[1]]
old_dir, new_dir, out_dir = sys.argv[1:4]
for name in sorted(os.listdir(old_dir)):
    if not name.endswith('.fdata'): continue
    ov, op, of, ona, orest = read(os.path.join(old_dir, name))
    nv, np_, nf, nna, nrest = read(os.path.join(new_dir, name))
    assert ov == 2 and nv == 3 and len(op) == len(np_) and ona == 0 and nna == 0, name
    out = []
    at = 0
    while at < len(np_):
        g = np_[at][6]; k = 0
        while at + k < len(np_) and np_[at + k][6] == g: k += 1
        g2 = np_[at + k][6]
        assert g2 == g + 1 and all(np_[at + k + m][6] == g2 for m in range(k)), (name, at)
        for m in range(k):
            a, b_ = np_[at + m], op[at + 2 * m]
            assert f(np_, nf, a) == f(op, of, b_), (name, at, m)
        for m in range(k):
            a, b_ = np_[at + k + m], op[at + 2 * m + 1]
            assert f(np_, nf, a) == f(op, of, b_), (name, at, m, 'side 1')
        for m in range(k):
            p = list(np_[at + m]); p[4], p[5] = op[at + 2 * m][4], op[at + 2 * m][5]; out.append(p)
        for m in range(k):
            p = list(np_[at + k + m]); p[4], p[5] = op[at + 2 * m + 1][4], op[at + 2 * m + 1][5]; out.append(p)
        at += 2 * k
    b = bytearray(b'TDEFDATA') + struct.pack('<IQQQ', 3, len(out), len(nf), 0)
    for p in out: b += struct.pack('<IHIHffI', *p)
    b += struct.pack('<%dH' % len(nf), *nf) + nrest
    tmp = os.path.join(out_dir, name + '.tmp'); open(tmp, 'wb').write(b); os.rename(tmp, os.path.join(out_dir, name))
    print(name, len(out), 'positions,', max(p[6] for p in out), 'groups')
