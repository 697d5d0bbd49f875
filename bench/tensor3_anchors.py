"""numpy anchors for the tensor3 benchmarks (issue 5), driven by
tensor3_anchors.sh, which runs them interleaved with the Go benchmarks
and prints the ratios.

Each run prints one line per measurement:
  moment K N gemm SECONDS CHUNK   numpy's best form: per chunk of samples,
                                  the k^2 pair products (reshape) times Y
                                  with one BLAS GEMM; the fastest of
                                  several chunk sizes
  moment K N einsum SECONDS NS    np.einsum('ni,nj,nl->ijl'), timed on NS
                                  samples and scaled to N (einsum's cost is
                                  linear in N) unless NS == N
  multilinear D K einsum SECONDS  np.einsum('abc,ai,bj,ck->ijk', T, W, W, W,
                                  optimize='optimal') on the dense d^3 T
The thread count is whatever OPENBLAS_NUM_THREADS says (1 for the
anchors).

  python3 tensor3_anchors.py [--einsum-fraction F] [--skip-einsum]
"""
import argparse
import sys
import time

import numpy as np

MOMENTS = [(10, 100000), (50, 100000), (100, 20000)]
MULTILINEAR = [(400, 50)]


def gemm_form(y, w, chunk):
    n, k = y.shape
    t = np.zeros((k * k, k))
    for s in range(0, n, chunk):
        yc = y[s:s + chunk]
        z = (yc[:, :, None] * (w[s:s + chunk, None] * yc)[:, None, :]).reshape(len(yc), k * k)
        t += z.T @ yc
    return t.reshape(k, k, k)


def timed(f):
    start = time.perf_counter()
    f()
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--einsum-fraction", type=float, default=0.1,
                    help="share of the samples einsum is timed on (1 = all)")
    ap.add_argument("--skip-einsum", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    for k, n in MOMENTS:
        y = rng.standard_normal((n, k))
        w = rng.random(n)
        best = None
        for chunk in sorted({min(c, n) for c in (1000, 4000, 16000, n)}):
            if chunk * k * k * 8 > 1.6e9:  # the pair products must fit in memory
                continue
            s = timed(lambda: gemm_form(y, w, chunk))
            if best is None or s < best[0]:
                best = (s, chunk)
        print("moment %d %d gemm %.6g %d" % (k, n, best[0], best[1]), flush=True)
        if not args.skip_einsum:
            ns = max(1, int(n * args.einsum_fraction))
            ys, ws = y[:ns], w[:ns]
            s = timed(lambda: np.einsum('ni,nj,nl->ijl', ys * ws[:, None], ys, ys))
            print("moment %d %d einsum %.6g %d" % (k, n, s * n / ns, ns), flush=True)
    for d, k in MULTILINEAR:
        t = rng.standard_normal((d, d, d))
        t = (t + t.transpose(0, 2, 1) + t.transpose(1, 0, 2) + t.transpose(1, 2, 0)
             + t.transpose(2, 0, 1) + t.transpose(2, 1, 0)) / 6
        wm = rng.standard_normal((d, k))
        f = lambda: np.einsum('abc,ai,bj,ck->ijk', t, wm, wm, wm, optimize='optimal')
        f()  # warm-up
        print("multilinear %d %d einsum %.6g" % (d, k, timed(f)), flush=True)
        del t


if __name__ == "__main__":
    sys.exit(main())
