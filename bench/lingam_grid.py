"""cdt15/lingam's side of issue 18's grid (bench/lingam_grid.sh).

Usage: python3 lingam_grid.py LINGAM_SRC DIR [--methods direct,ica] [--force]

LINGAM_SRC is a checkout of https://github.com/cdt15/lingam (the directory
that holds the package directory lingam/). DIR is what
`go run ./cmd/lingamgrid -gen -dir DIR` wrote: manifest.json and one CSV
per data set. For each data set this fits lingam's DirectLiNGAM and
ICALiNGAM with their default settings (ICALiNGAM's random_state is the
data set's seed) and writes DIR/NAME.lingam.json: for each method the
adjacency matrix after lingam's own pruning (adaptive lasso with BIC),
its causal order, the CPU seconds of fit() alone (process_time), and the error if it
raised. lingamgrid scores these files with the same code as the Go
methods.

lingam is measured, not installed or modified: the package directory is
registered under the name "lingam" without running its __init__.py (which
imports every learner and their plotting and statistics dependencies),
and only lingam.direct_lingam and lingam.ica_lingam are imported. Their
import chain (base -> bootstrap, hsic, utils) names third-party modules
that DirectLiNGAM and ICALiNGAM never call (graphviz, matplotlib,
networkx, pandas, semopy, statsmodels); each of those that is not
importable is replaced by a stand-in module whose functions raise if
called, so a call would fail loudly rather than be measured wrong.

lingam requires scikit-learn >= 1.6; Debian 12 ships 1.2. The only
difference that reaches these two learners is FastICA's default whitening
(scikit-learn 1.3 changed it from "arbitrary-variance" to
"unit-variance", which rescales the rows of components_ that ICALiNGAM's
assignment step reads), so on scikit-learn < 1.3 ICALiNGAM's FastICA is
given whiten="unit-variance", the default lingam is written against.
"""
import functools
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import re
import sys
import time
import types
import warnings

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np  # noqa: E402

OPTIONAL = ("graphviz", "matplotlib", "networkx", "pandas", "semopy", "statsmodels")


class _Unavailable:
    """Stands in for anything taken from a module that is not installed."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        return _Unavailable(self._name + "." + attr)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "lingam_grid.py: %s is not installed; the learner called it" % self._name
        )


class _StandIn(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the OPTIONAL modules that are not installed and loads them as
    stand-ins (packages, so that submodule imports succeed too)."""

    def __init__(self, missing):
        self.missing = missing

    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] in self.missing:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        m = types.ModuleType(spec.name)
        m.__path__ = []
        m.__getattr__ = lambda attr, _n=spec.name: _Unavailable(_n + "." + attr)
        return m

    def exec_module(self, module):
        pass


def load_lingam(src):
    pkg_dir = os.path.join(src, "lingam")
    if not os.path.isfile(os.path.join(pkg_dir, "direct_lingam.py")):
        sys.exit("lingam_grid.py: %s has no lingam/direct_lingam.py; set LINGAM_SRC to a checkout of cdt15/lingam" % src)
    missing = {m for m in OPTIONAL if importlib.util.find_spec(m) is None}
    if missing:
        sys.meta_path.insert(0, _StandIn(missing))
    pkg = types.ModuleType("lingam")
    pkg.__path__ = [pkg_dir]
    pkg.__package__ = "lingam"
    sys.modules["lingam"] = pkg
    direct = importlib.import_module("lingam.direct_lingam")
    ica = importlib.import_module("lingam.ica_lingam")
    import sklearn

    major, minor = (int(v) for v in re.findall(r"\d+", sklearn.__version__)[:2])
    if (major, minor) < (1, 3):
        ica.FastICA = functools.partial(ica.FastICA, whiten="unit-variance")
    version = "?"
    with open(os.path.join(pkg_dir, "__init__.py")) as f:
        m = re.search(r'__version__\s*=\s*"([^"]+)"', f.read())
        if m:
            version = m.group(1)
    return direct.DirectLiNGAM, ica.ICALiNGAM, version, sorted(missing), sklearn.__version__


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = [a for a in sys.argv[1:] if a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__.split("\n\n")[1])
    src, out = args
    methods = ["direct", "ica"]
    force = False
    for o in opts:
        if o.startswith("--methods="):
            methods = o.split("=", 1)[1].split(",")
        elif o == "--force":
            force = True
        else:
            sys.exit("lingam_grid.py: unknown option %s" % o)
    Direct, ICA, version, missing, skv = load_lingam(src)
    print(
        "lingam %s from %s; numpy %s, scikit-learn %s; stand-ins for %s"
        % (version, src, np.__version__, skv, ", ".join(missing) or "nothing"),
        file=sys.stderr,
    )
    with open(os.path.join(out, "manifest.json")) as f:
        grid = json.load(f)
    warnings.simplefilter("ignore")  # FastICA's convergence warnings; failures are recorded below
    for i, d in enumerate(grid):
        path = os.path.join(out, d["name"] + ".lingam.json")
        if os.path.exists(path) and not force:
            continue
        x = np.loadtxt(os.path.join(out, d["csv"]), delimiter=",", skiprows=1, ndmin=2)
        if x.shape != (d["n"], d["p"]):
            sys.exit("lingam_grid.py: %s is %s, want (%d, %d)" % (d["csv"], x.shape, d["n"], d["p"]))
        res = {}
        for name in methods:
            if name == "direct":
                key, model = "DirectLiNGAM", Direct()
            elif name == "ica":
                key, model = "ICALiNGAM", ICA(random_state=d["seed"])
            else:
                sys.exit("lingam_grid.py: unknown method %s (want direct, ica)" % name)
            t0 = time.process_time()
            try:
                model.fit(x)
                sec = time.process_time() - t0
                b = np.asarray(model.adjacency_matrix_, dtype=float)
                if np.isfinite(b).all():
                    res[key] = {
                        "B": [[float(v) for v in row] for row in b],
                        "order": [int(v) for v in model.causal_order_],
                        "seconds": sec,
                        "error": "",
                    }
                else:  # JSON has no NaN; lingamgrid counts it as a failure
                    res[key] = {"B": None, "seconds": sec, "error": "non-finite entries in adjacency_matrix_"}
            except Exception as e:  # scored as the empty graph, and counted
                res[key] = {"B": None, "seconds": time.process_time() - t0, "error": "%s: %s" % (type(e).__name__, e)}
        tmp = path + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"lingam": version, "methods": res}, f)
        os.replace(tmp, path)
        print("\r%d/%d %-40s" % (i + 1, len(grid), d["name"]), end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
