"""scikit-learn side of the Brown corpus comparison (bench/brown.sh).

Reads the corpus with the same preprocessing as moments' ReadBrown (tags
stripped, lower-cased, alphabetic words of at least three letters, the
English stop words removed, document frequency >= 5), fits scikit-learn's
LatentDirichletAllocation (online and batch) with k topics on one core,
and prints one JSON object: the times (CPU seconds, time.process_time), each topic's top 10 words, and each
document's most probable topic. The caller scores both sides with the same
code.
"""
import json
import os
import re
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from sklearn.decomposition import LatentDirichletAllocation
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, CountVectorizer


def tokens(text):
    for t in text.split():
        w = t.rsplit("/", 1)[0].lower() if "/" in t else t.lower()
        if len(w) >= 3 and w.isalpha() and w not in ENGLISH_STOP_WORDS:
            yield w


def main():
    corpus, k, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    t0 = time.process_time()
    names = sorted(f for f in os.listdir(corpus) if re.fullmatch(r"c[a-r]\d\d", f))
    docs = [list(tokens(open(os.path.join(corpus, f)).read())) for f in names]
    vec = CountVectorizer(analyzer=lambda d: d, min_df=5)
    x = vec.fit_transform(docs)
    vocab = vec.get_feature_names_out()
    prep = time.process_time() - t0
    out = {"docs": x.shape[0], "words": x.shape[1], "prepare": prep, "names": names, "runs": {}}
    for method in ("online", "batch"):
        lda = LatentDirichletAllocation(n_components=k, learning_method=method, random_state=seed, n_jobs=1)
        t0 = time.process_time()
        theta = lda.fit_transform(x)
        fit = time.process_time() - t0
        top = [[vocab[i] for i in np.argsort(-row)[:10]] for row in lda.components_]
        out["runs"][method] = {"fit": fit, "top": top, "labels": [int(i) for i in theta.argmax(axis=1)]}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
