"""Timing server for the SVD, eigensolver and QR anchors: LAPACK through
scipy and numpy (Debian's OpenBLAS), driven by TestSVDAnchors in
svd_test.go over stdin/stdout so that its measurements interleave with
ours in one run.

Protocol, one request a line:
  info                      -> one line describing numpy, scipy and the BLAS
  time OP M N BUDGET        -> CPU seconds (time.process_time) per call of OP
                               on an M x N matrix: the first call if it takes
                               COLD_CALL or more, else the second if the
                               first took BUDGET or more, else the mean of
                               calls for about BUDGET after the first (the
                               same rule as svdCall on the Go side)
OPs: dgejsv (U and V), dgejsv_vals, gesdd, gesdd_vals, gesvd, geqrf,
dgeqp3, eigh, eigvalsh (the last two on G Gᵀ for an N x N Gaussian G),
eigh_sym (on (G + Gᵀ)/2), eigh_pm1 (on Q diag(±1) Qᵀ, Q from the QR of G,
the signs in equal halves).
Matrices are standard Gaussian, as on the Go side. The thread count is
fixed by OPENBLAS_NUM_THREADS in the environment.
"""
import ctypes
import gc
import sys
import time

import numpy as np

# Seconds from which one cold call is the measurement (svdColdCall in
# svd_test.go).
COLD_CALL = 1.0
import scipy
from scipy.linalg import lapack


def blas_info():
    path = None
    with open("/proc/self/maps") as maps:
        for line in maps:
            name = line.split()[-1]
            base = name.rsplit("/", 1)[-1]
            if base.startswith(("libblas", "libopenblas")) and ".so" in base:
                path = name
                if "openblas" in name:
                    break
    desc = "numpy %s, scipy %s, BLAS %s" % (np.__version__, scipy.__version__, path)
    try:
        lib = ctypes.CDLL(path)
        lib.openblas_get_config.restype = ctypes.c_char_p
        lib.openblas_get_corename.restype = ctypes.c_char_p
        desc += " (%s; core %s; %d threads)" % (
            lib.openblas_get_config().decode(),
            lib.openblas_get_corename().decode(),
            lib.openblas_get_num_threads())
    except (OSError, AttributeError, TypeError):
        desc += " (not OpenBLAS?)"
    return desc


def check(info):
    if info != 0:
        raise RuntimeError("LAPACK info = %d" % info)


def operation(op, a):
    """Returns a function that runs op on (a copy of) a."""
    # dgejsv: JOBA='C' (high relative accuracy for column-scaled
    # matrices, what moments' Jacobi SVD provides), JOBU='U', JOBV='V' or
    # 'N', 'N' for values only; scipy's integer codes: joba 0 = 'C',
    # jobu 0 = 'U', 3 = 'N', jobv 0 = 'V', 3 = 'N'.
    if op == "dgejsv":
        return lambda: check(lapack.dgejsv(a, joba=0, jobu=0, jobv=0)[-1])
    if op == "dgejsv_vals":
        return lambda: check(lapack.dgejsv(a, joba=0, jobu=3, jobv=3)[-1])
    if op == "gesdd":
        return lambda: check(lapack.dgesdd(a, compute_uv=1, full_matrices=0)[-1])
    if op == "gesdd_vals":
        return lambda: check(lapack.dgesdd(a, compute_uv=0)[-1])
    if op == "gesvd":
        return lambda: check(lapack.dgesvd(a, compute_uv=1, full_matrices=0)[-1])
    if op == "geqrf":
        return lambda: check(lapack.dgeqrf(a)[-1])
    if op == "dgeqp3":
        return lambda: check(lapack.dgeqp3(a)[-1])
    if op == "eigh":
        s = a @ a.T
        return lambda: np.linalg.eigh(s)
    if op == "eigvalsh":
        s = a @ a.T
        return lambda: np.linalg.eigvalsh(s)
    if op == "eigh_sym":
        s = (a + a.T) / 2
        return lambda: np.linalg.eigh(s)
    if op == "eigh_pm1":
        q = np.linalg.qr(a)[0]
        d = np.where(np.arange(a.shape[0]) % 2 == 0, 1.0, -1.0)
        s = (q * d) @ q.T
        return lambda: np.linalg.eigh(s)
    raise ValueError("unknown operation %r" % op)


def main():
    rng = np.random.default_rng(1)
    cache = {}
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == "info":
                print(blas_info(), flush=True)
                continue
            if words[0] != "time":
                raise ValueError("unknown request %r" % line.strip())
            op, m, n, budget = words[1], int(words[2]), int(words[3]), float(words[4])
            if (m, n) not in cache:
                cache[(m, n)] = np.asfortranarray(rng.standard_normal((m, n)))
            f = operation(op, cache[(m, n)])
            gc.collect()
            start = time.process_time()
            f()
            first = time.process_time() - start
            if first >= COLD_CALL:
                # A call of a second or more is its own measurement.
                print("%.9g" % first, flush=True)
                continue
            if first >= budget:
                # One call after the warm-up, as on the Go side.
                start = time.process_time()
                f()
                print("%.9g" % (time.process_time() - start), flush=True)
                continue
            reps, start = 0, time.process_time()
            while True:
                f()
                reps += 1
                elapsed = time.process_time() - start
                if elapsed >= budget:
                    break
            print("%.9g" % (elapsed / reps), flush=True)
        except Exception as e:  # report, keep serving
            print("error: %s" % e, flush=True)


if __name__ == "__main__":
    main()
