"""Timing server for the anchors: OpenBLAS through numpy, driven by
bench/cmd/anchors over stdin/stdout so that its measurements interleave
with ours in one run.

Protocol, one request a line:
  info                      -> one line describing numpy and the BLAS
  gemm N BUDGET_SECONDS     -> seconds per C = A @ B (float64, N x N)
The thread count is fixed by OPENBLAS_NUM_THREADS in the environment.
"""
import ctypes
import sys
import time

import numpy as np


def blas_info():
    # Find the BLAS numpy loaded and ask OpenBLAS for its configuration.
    path = None
    with open("/proc/self/maps") as maps:
        for line in maps:
            name = line.split()[-1]
            base = name.rsplit("/", 1)[-1]
            if base.startswith(("libblas", "libopenblas")) and ".so" in base:
                path = name
                if "openblas" in name:
                    break
    desc = "numpy %s, BLAS %s" % (np.__version__, path)
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


def main():
    cache = {}
    rng = np.random.default_rng(1)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "info":
            print(blas_info(), flush=True)
        elif words[0] == "gemm":
            n, budget = int(words[1]), float(words[2])
            if n not in cache:
                cache[n] = (rng.standard_normal((n, n)), rng.standard_normal((n, n)), np.empty((n, n)))
            a, b, c = cache[n]
            np.matmul(a, b, out=c)  # warm-up
            reps, start = 0, time.perf_counter()
            while True:
                np.matmul(a, b, out=c)
                reps += 1
                elapsed = time.perf_counter() - start
                if elapsed >= budget:
                    break
            print("%.9g" % (elapsed / reps), flush=True)
        else:
            print("error: unknown request %r" % line.strip(), flush=True)


if __name__ == "__main__":
    main()
