"""LAPACK's phases of dgesdd on Gaussian matrices (Debian's OpenBLAS, one
thread), in process CPU time (medians of 3, one run at 2000): dgesdd (thin
U and V), dgebrd, the two dormbr (Q from the left, P from the right, on
n x n) and dbdsdc (U and VT of the bidiagonal matrix), for square orders;
dgesdd alone for the M x N shapes. It is the anchor of the phases that
svd's TestBidiagPhaseTimes prints (reduction, bidiagonal solve,
back-transformation):

  OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/svd_lapack_phases.py \
      25,100,300,500,1000,2000 2000x200,200x2000
  SVD_PHASES=25,100,300,500,1000,2000x200,200x2000 go test -run BidiagPhaseTimes -v ./svd
"""
import ctypes
import glob
import sys
import time

import numpy as np
from scipy.linalg import lapack

lib = ctypes.CDLL(glob.glob("/usr/lib/*-linux-gnu/openblas-pthread/liblapack.so.3")[0])

P = lambda x: x.ctypes.data_as(ctypes.c_void_p)
I = lambda v: ctypes.byref(ctypes.c_int(v))
C1 = lambda s: ctypes.c_char_p(s)
L = ctypes.c_size_t(1)

def cpu(f):
    t = time.process_time(); f(); return time.process_time() - t

def parts(n):
    a = np.asfortranarray(np.random.default_rng(n).standard_normal((n, n)))
    g = cpu(lambda: lapack.dgesdd(a, compute_uv=1, full_matrices=0))
    b = a.copy(order='F'); d = np.zeros(n); e = np.zeros(n); tq = np.zeros(n); tp = np.zeros(n)
    info = ctypes.c_int(0); w = np.zeros(64 * 2 * n + 3 * n * n + 4 * n)
    r = cpu(lambda: lib.dgebrd_(I(n), I(n), P(b), I(n), P(d), P(e), P(tq), P(tp), P(w), I(len(w)), ctypes.byref(info)))
    u = np.zeros((n, n), order='F'); vt = np.zeros((n, n), order='F'); iw = np.zeros(8 * n, dtype=np.int32)
    d2, e2 = d.copy(), e.copy()
    s = cpu(lambda: lib.dbdsdc_(C1(b"U"), C1(b"I"), I(n), P(d2), P(e2), P(u), I(n), P(vt), I(n), None, None, P(w), P(iw), ctypes.byref(info), L, L))
    def back():
        lib.dormbr_(C1(b"Q"), C1(b"L"), C1(b"N"), I(n), I(n), I(n), P(b), I(n), P(tq), P(u), I(n), P(w), I(len(w)), ctypes.byref(info), L, L, L)
        lib.dormbr_(C1(b"P"), C1(b"R"), C1(b"T"), I(n), I(n), I(n), P(b), I(n), P(tp), P(vt), I(n), P(w), I(len(w)), ctypes.byref(info), L, L, L)
    o = cpu(back)
    return g, r, o, s

print("%-10s %10s %10s %10s %10s   (ms CPU, LAPACK/OpenBLAS 1 thread)" % ("shape", "gesdd", "dgebrd", "2 dormbr", "dbdsdc"))
for spec in sys.argv[1].split(","):
    n = int(spec); rounds = 1 if n >= 2000 else 3
    res = [parts(n) for _ in range(rounds)]
    med = [1e3 * sorted(x)[len(x) // 2] for x in zip(*res)]
    print("%-10s %10.2f %10.2f %10.2f %10.2f" % ("%dx%d" % (n, n), *med))
for spec in sys.argv[2].split(","):
    m, n = map(int, spec.split("x"))
    a = np.asfortranarray(np.random.default_rng(m).standard_normal((m, n)))
    ts = sorted(cpu(lambda: lapack.dgesdd(a, compute_uv=1, full_matrices=0)) for _ in range(3))
    print("%-10s %10.2f" % (spec, 1e3 * ts[1]))
