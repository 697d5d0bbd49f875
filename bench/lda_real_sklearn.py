"""scikit-learn side of issue 13's comparison (bench/lda_real.sh).

Reads the training documents exactly as the Go side built them (a UCI
bag-of-words file, docword.train.txt, written by bench/cmd/ldareal), fits
scikit-learn's LatentDirichletAllocation with its defaults (max_iter 10,
doc_topic_prior = topic_word_prior = 1/k) by the given learning_method
(online, batch or both) with k topics on one core, and writes, for each
method, the topics (components_ normalised to distributions, stored
words x topics as little-endian float64) and its doc_topic_prior to
OUTDIR. It prints one JSON object: the fit times (CPU seconds of the
process, time.process_time, as the Go side measures its own) and the file names. The
Go side scores every model with the same code (eval.NPMI, Result.Perplexity).
"""
import json
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np
import scipy.sparse as sp
from sklearn.decomposition import LatentDirichletAllocation


def read_uci(path):
    with open(path) as f:
        d, w, nnz = (int(f.readline()) for _ in range(3))
        a = np.loadtxt(f, dtype=np.int64, ndmin=2)
    if a.shape[0] != nnz:
        raise SystemExit(f"{path}: {a.shape[0]} counts, header says {nnz}")
    return sp.csr_matrix((a[:, 2].astype(np.float64), (a[:, 0] - 1, a[:, 1] - 1)), shape=(d, w))


def main():
    docword, k, seed, methods, outdir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4].split(","), sys.argv[5]
    x = read_uci(docword)
    out = {"docs": x.shape[0], "words": x.shape[1], "tokens": int(x.sum()), "runs": {}}
    for method in methods:
        lda = LatentDirichletAllocation(n_components=k, learning_method=method, random_state=seed, n_jobs=1)
        t0 = time.process_time()
        lda.fit(x)
        fit = time.process_time() - t0
        topics = lda.components_ / lda.components_.sum(axis=1, keepdims=True)
        path = os.path.join(outdir, f"{method}.topics.f64")
        np.ascontiguousarray(topics.T, dtype="<f8").tofile(path)
        out["runs"][method] = {"fit": fit, "topics": path, "alpha": [float(lda.doc_topic_prior_)] * k, "iters": int(lda.n_iter_)}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
