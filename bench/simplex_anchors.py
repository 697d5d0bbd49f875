"""Anchors for the simplex benchmarks (issue 4), driven by
simplex_anchors.sh, which runs them interleaved with the Go benchmarks
and then calls the "report" mode to print the comparison.

  python3 simplex_anchors.py measure DATA_DIR NETLIB_DIR
      HiGHS (scipy.optimize.linprog(method='highs'), Debian's scipy) and
      GLPK (glpsol, whole process) on
        * the l1 problems min ||B w||_1 s.t. q^T w = 1 for the matrices
          B_NxK.csv of DATA_DIR (written by the Go test
          TestSimplexAnchorData), q = row 0 and every row, as the LP
          min sum(u + v) s.t. B w - u + v = 0, q^T w = 1 (glpsol reads the
          same LPs from DATA_DIR/l1_NxK_rowI.mps);
        * the NETLIB problems of NETLIB_DIR: glpsol --freemps on the file,
          linprog on the problem read by this script (reading not timed),
          with presolve (HiGHS's default) and without.
      Times are CPU seconds: linprog's by time.process_time, glpsol's as
      the user + system time of its process (getrusage of the children),
      so that the load of a shared machine does not enter them.
      One line per measurement:
        l1 NxK highs|glpsol SECONDS OBJECTIVE
        l1batch NxK highs|glpsol SECONDS
        netlib NAME glpsol|highs|highs-nopresolve SECONDS OBJECTIVE
        freelp N glpsol|highs SECONDS OBJECTIVE
      and, on the random sparse LPs with free variables of issue 17
      (DATA_DIR/freelp_N.mps, N free columns, 5N rows), glpsol and linprog
      as on NETLIB.

  python3 simplex_anchors.py report GO_OUTPUT ANCHOR_OUTPUT
      Medians over the rounds of ours (go test -bench output: the
      cpu-s/op metric where the benchmark reports it, else ns/op),
      gonum's, HiGHS's and glpsol's times, the ratios, and the issues'
      targets.
"""
import math
import os
import re
import resource
import statistics
import subprocess
import sys
import time

L1_SIZES = [(150, 25), (180, 30)]
NETLIB = ["afiro", "adlittle", "israel", "e226", "scrs8", "standata", "standgub", "standmps",
          "stair", "etamacro", "shell", "perold", "25fv47", "greenbea", "80bau3b", "woodinfe", "smalllp"]
GONUM_ROWS = 10  # rows of the gonum batch benchmark (scaled to all rows)
FREELP_SIZES = [300, 400, 500, 600]  # columns of the free-variable family


def read_mps(path):
    """A free-MPS reader sufficient for the NETLIB files (names without
    spaces): returns c, A (CSR), row limits, column bounds."""
    import numpy as np
    import scipy.sparse as sp
    rows, rtype, cols = {}, {}, {}
    obj = None
    I, J, V, c = [], [], [], []
    rhs, rng, lo, up = {}, {}, {}, {}
    sec = None
    for line in open(path):
        if not line.strip() or line[0] == "*":
            continue
        if line[0] not in " \t":
            sec = line.split()[0]
            continue
        f = line.split()
        if sec == "ROWS":
            t, name = f
            if t == "N":
                obj = obj or name
                continue
            rows[name] = len(rows)
            rtype[name] = t
        elif sec == "COLUMNS":
            if "'MARKER'" in f:
                continue
            if f[0] not in cols:
                cols[f[0]] = len(cols)
                c.append(0.0)
            j = cols[f[0]]
            for k in range(1, len(f) - 1, 2):
                r, v = f[k], float(f[k + 1])
                if r == obj:
                    c[j] += v
                elif r in rows:
                    I.append(rows[r])
                    J.append(j)
                    V.append(v)
        elif sec in ("RHS", "RANGES"):
            pairs = f[1:] if len(f) % 2 == 1 else f
            for k in range(0, len(pairs) - 1, 2):
                r, v = pairs[k], float(pairs[k + 1])
                if r in rows:
                    (rhs if sec == "RHS" else rng)[r] = v
        elif sec == "BOUNDS":
            t = f[0]
            name = f[2] if len(f) >= 3 and f[2] in cols else f[1]
            j = cols[name]
            v = float(f[-1]) if t in ("UP", "LO", "FX", "LI", "UI") else None
            if t in ("UP", "UI"):
                up[j] = v
                if v < 0 and j not in lo:
                    lo[j] = -math.inf
            elif t in ("LO", "LI"):
                lo[j] = v
            elif t == "FX":
                lo[j] = up[j] = v
            elif t == "FR":
                lo[j], up[j] = -math.inf, math.inf
            elif t == "MI":
                lo[j] = -math.inf
            elif t == "PL":
                up[j] = math.inf
            elif t == "BV":
                lo[j], up[j] = 0.0, 1.0
    m, n = len(rows), len(cols)
    A = sp.csr_matrix((V, (I, J)), shape=(m, n))
    rl, ru = np.full(m, -np.inf), np.full(m, np.inf)
    for r, i in rows.items():
        b, t, R = rhs.get(r, 0.0), rtype[r], rng.get(r)
        if t == "E":
            rl[i] = ru[i] = b
            if R is not None:
                if R >= 0:
                    ru[i] = b + R
                else:
                    rl[i] = b + R
        elif t == "L":
            ru[i] = b
            if R is not None:
                rl[i] = b - abs(R)
        else:
            rl[i] = b
            if R is not None:
                ru[i] = b + abs(R)
    bounds = [(lo.get(j, 0.0), up.get(j, math.inf)) for j in range(n)]
    return np.array(c), A, rl, ru, bounds


def linprog_general(c, A, rl, ru, bounds, presolve=True):
    """linprog on rl <= A x <= ru; returns (seconds, objective or nan)."""
    import numpy as np
    import scipy.sparse as sp
    from scipy.optimize import linprog
    eq = rl == ru
    ub = ~eq & np.isfinite(ru)
    lb = ~eq & np.isfinite(rl)
    A_ub = sp.vstack([A[ub], -A[lb]]).tocsr()
    b_ub = np.concatenate([ru[ub], -rl[lb]])
    kw = dict(A_eq=A[eq], b_eq=rl[eq]) if eq.any() else {}
    start = time.process_time()
    r = linprog(c, A_ub=A_ub if A_ub.shape[0] else None, b_ub=b_ub if A_ub.shape[0] else None,
                bounds=bounds, method="highs", options={"presolve": presolve}, **kw)
    el = time.process_time() - start
    return el, (r.fun if r.status == 0 else float("nan"))


def l1_linprog(B, q):
    """min sum(u + v) s.t. B w - u + v = 0, q^T w = 1 (w free, u, v >= 0)."""
    import numpy as np
    import scipy.sparse as sp
    from scipy.optimize import linprog
    n, k = B.shape
    c = np.concatenate([np.zeros(k), np.ones(2 * n)])
    A = sp.vstack([sp.hstack([sp.csr_matrix(B), -sp.identity(n), sp.identity(n)]),
                   sp.csr_matrix(np.concatenate([q, np.zeros(2 * n)])[None, :])]).tocsr()
    b = np.concatenate([np.zeros(n), [1.0]])
    bounds = [(None, None)] * k + [(0, None)] * (2 * n)
    start = time.process_time()
    r = linprog(c, A_eq=A, b_eq=b, bounds=bounds, method="highs")
    return time.process_time() - start, r.fun


def child_cpu():
    """CPU seconds (user + system) of the finished child processes."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def glpsol(path):
    start = child_cpu()
    out = subprocess.run(["glpsol", "--freemps", path, "-o", "/dev/stdout"], capture_output=True, text=True)
    el = child_cpu() - start
    m = re.search(r"Objective:\s+\S+\s+=\s+(\S+)", out.stdout)
    obj = float(m.group(1)) if m and "INFEASIBLE" not in out.stdout.upper().split("STATUS:")[-1][:40] else float("nan")
    return el, obj


def measure(data, netlib):
    import numpy as np
    for n, k in L1_SIZES:
        B = np.loadtxt(os.path.join(data, "B_%dx%d.csv" % (n, k)), delimiter=",")
        s, f = l1_linprog(B, B[0])
        print("l1 %dx%d highs %.6g %.12g" % (n, k, s, f))
        s, f = glpsol(os.path.join(data, "l1_%dx%d_row0.mps" % (n, k)))
        print("l1 %dx%d glpsol %.6g %.12g" % (n, k, s, f))
        tot = sum(l1_linprog(B, B[i])[0] for i in range(n))
        print("l1batch %dx%d highs %.6g" % (n, k, tot))
        tot = sum(glpsol(os.path.join(data, "l1_%dx%d_row%d.mps" % (n, k, i)))[0] for i in range(n))
        print("l1batch %dx%d glpsol %.6g" % (n, k, tot))
        sys.stdout.flush()
    measure_freelp(data)
    for name in NETLIB:
        path = os.path.join(netlib, name + ".mps")
        s, f = glpsol(path)
        print("netlib %s glpsol %.6g %.12g" % (name, s, f))
        prob = read_mps(path)
        s, f = linprog_general(*prob)
        print("netlib %s highs %.6g %.12g" % (name, s, f))
        s, f = linprog_general(*prob, presolve=False)
        print("netlib %s highs-nopresolve %.6g %.12g" % (name, s, f))
        sys.stdout.flush()


def have_scipy():
    try:
        import scipy.optimize  # noqa: F401
        return True
    except ImportError:
        return False


def measure_freelp(data):
    for n in FREELP_SIZES:
        path = os.path.join(data, "freelp_%d.mps" % n)
        s, f = glpsol(path)
        print("freelp %d glpsol %.6g %.12g" % (n, s, f))
        if have_scipy():
            s, f = linprog_general(*read_mps(path))
            print("freelp %d highs %.6g %.12g" % (n, s, f))
        sys.stdout.flush()


def report_freelp(text, anc):
    """The free-variable family: ours (both methods) against glpsol and
    HiGHS; the target of issue 17 is every problem solved by both methods
    and none past 5 x glpsol."""
    med = statistics.median
    ours = {}
    for m in re.finditer(r"BenchmarkSimplexFreeLP/(dual|primal)/n=(\d+)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.e+-]+) cpu-s/op)?(?:\s+([\d.]+) iters)?", text):
        sec = float(m.group(4)) if m.group(4) else float(m.group(3)) / 1e9
        ours.setdefault((m.group(1), int(m.group(2))), []).append(sec)
        if m.group(5):
            ours.setdefault((m.group(1) + "-iters", int(m.group(2))), []).append(float(m.group(5)))
    if not ours:
        return
    nan = float("nan")

    def g(d, key):
        return med(d[key]) if key in d else nan

    print()
    print("free-variable LPs (lptest.FreeLP, seed 1): n free columns, 5n rows; ours = Solve on the built problem,")
    print("glpsol = whole process (--freemps); CPU s")
    print("%-8s %9s %7s %9s %7s %9s %9s | %9s %9s" % ("n", "dual", "iters", "primal", "iters", "glpsol", "HiGHS", "dual/glpk", "prim/glpk"))
    worst = 0.0
    for n in FREELP_SIZES:
        d, p = g(ours, ("dual", n)), g(ours, ("primal", n))
        gl, h = g(anc, ("freelp", str(n), "glpsol")), g(anc, ("freelp", str(n), "highs"))
        worst = max(worst, d / gl, p / gl)
        print("%-8d %9.4f %7d %9.4f %7d %9.4f %9.4f | %8.2fx %8.2fx" % (
            n, d, g(ours, ("dual-iters", n)), p, g(ours, ("primal-iters", n)), gl, h, d / gl, p / gl))
    print("target: every problem solved by both methods, none past 5 x glpsol: %s (worst %.2f x glpsol)" % (
        "met" if worst <= 5 else "MISSED", worst))


def report(gofile, ancfile):
    med = statistics.median
    ours, gonum = {}, {}
    text = open(gofile).read()
    for m in re.finditer(r"Benchmark(Simplex|Gonum)(L1|L1Batch|Netlib)/(\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(?:\s+([\d.e+-]+) cpu-s/op)?(?:\s+([\d.]+) iters)?", text):
        d = ours if m.group(1) == "Simplex" else gonum
        sec = float(m.group(5)) if m.group(5) else float(m.group(4)) / 1e9
        d.setdefault((m.group(2), m.group(3)), []).append(sec)
        if m.group(6):
            d.setdefault((m.group(2) + "-iters", m.group(3)), []).append(float(m.group(6)))
    anc = {}
    for line in open(ancfile):
        f = line.split()
        if len(f) >= 4:
            anc.setdefault((f[0], f[1], f[2]), []).append(float(f[3]))
    cpu = re.search(r"cpu: (.*)", text)
    print("machine: %s; medians over %d rounds" % (cpu.group(1) if cpu else "?", len(ours.get(("L1", "150x25"), [0]))))
    print("ours: moments/simplex, one goroutine; HiGHS: scipy %s linprog(method='highs'), in-process; "
          "glpsol: GLPK, whole process; gonum: v0.17 lp.Simplex (dense)" % scipy_version())
    print("times are CPU seconds (user + system): ours and gonum's from getrusage around the benchmark loop, "
          "HiGHS's by process_time, glpsol's its process's")
    print()
    nan = float("nan")

    def g(d, key):
        return med(d[key]) if key in d else nan

    print("l1: min ||B w||_1 s.t. q^T w = 1, B n x k Gaussian, q = row 0 (single) or every row (batch); CPU ms")
    print("%-14s %10s %10s %10s %10s | %9s %9s %9s | %s" % ("problem", "ours", "HiGHS", "glpsol", "gonum", "HiGHS/us", "glpk/us", "gonum/us", "target"))
    for n, k in L1_SIZES:
        size = "%dx%d" % (n, k)
        o, h, gl, gn = g(ours, ("L1", size)), g(anc, ("l1", size, "highs")), g(anc, ("l1", size, "glpsol")), g(gonum, ("L1", size))
        tgt = "under 1 ms: %s" % ("met" if o < 1e-3 else "MISSED") if size == "150x25" else ""
        print("%-14s %10.3f %10.3f %10.3f %10.1f | %8.0fx %8.0fx %8.0fx | %s (%d iterations)" % (
            "single " + size, o * 1e3, h * 1e3, gl * 1e3, gn * 1e3, h / o, gl / o, gn / o, tgt, g(ours, ("L1-iters", size))))
    for n, k in L1_SIZES:
        size = "%dx%d" % (n, k)
        o, h, gl = g(ours, ("L1Batch", size)), g(anc, ("l1batch", size, "highs")), g(anc, ("l1batch", size, "glpsol"))
        gn = g(gonum, ("L1Batch", "%s/rows=%d" % (size, GONUM_ROWS))) * n / GONUM_ROWS
        tgt = "under 50 ms: %s" % ("met" if o < 50e-3 else "MISSED") if size == "150x25" else ""
        gns = "%10.0f" % (gn * 1e3) if not math.isnan(gn) else "%10s" % "-"
        gnr = "%8.0fx" % (gn / o) if not math.isnan(gn) else "%9s" % "-"
        print("%-14s %10.2f %10.1f %10.1f %s | %8.0fx %8.0fx %s | %s (%d iterations)" % (
            "batch " + size, o * 1e3, h * 1e3, gl * 1e3, gns, h / o, gl / o, gnr, tgt, g(ours, ("L1Batch-iters", size))))
    print("(gonum's batch is timed on %d rows and scaled to all; glpsol's times include its process start)" % GONUM_ROWS)
    print()
    print("NETLIB: ours = read the MPS file + solve, in-process; glpsol = whole process (--freemps);")
    print("HiGHS = linprog on the problem read beforehand (reading not timed), with presolve (default) and without; CPU s")
    print("%-10s %9s %7s %9s %9s %9s | %8s %8s %8s" % ("problem", "ours", "iters", "glpsol", "HiGHS", "HiGHS-np", "glpk/us", "HiGHS/us", "HiGHSnp/us"))
    tot = {"ours": 0.0, "glpsol": 0.0, "highs": 0.0, "highs-nopresolve": 0.0}
    for name in NETLIB:
        o = g(ours, ("Netlib", name))
        gl, h, hn = (g(anc, ("netlib", name, s)) for s in ("glpsol", "highs", "highs-nopresolve"))
        for key, v in (("ours", o), ("glpsol", gl), ("highs", h), ("highs-nopresolve", hn)):
            tot[key] += v
        print("%-10s %9.4f %7d %9.4f %9.4f %9.4f | %7.2fx %7.2fx %7.2fx" % (name, o, g(ours, ("Netlib-iters", name)), gl, h, hn, gl / o, h / o, hn / o))
    print("%-10s %9.4f %7s %9.4f %9.4f %9.4f | %7.2fx %7.2fx %7.2fx" % (
        "total", tot["ours"], "", tot["glpsol"], tot["highs"], tot["highs-nopresolve"], tot["glpsol"] / tot["ours"],
        tot["highs"] / tot["ours"], tot["highs-nopresolve"] / tot["ours"]))
    print("target: the NETLIB set in at most 2 x glpsol's total time: %s (ours/glpsol = %.2f)" % (
        "met" if tot["ours"] <= 2 * tot["glpsol"] else "MISSED", tot["ours"] / tot["glpsol"]))
    print("target (issue 17): the NETLIB total within 1.5 x HiGHS's and below glpsol's: %s (ours/HiGHS = %.2f, ours/glpsol = %.2f)" % (
        "met" if tot["ours"] <= 1.5 * tot["highs"] and tot["ours"] < tot["glpsol"] else "MISSED",
        tot["ours"] / tot["highs"], tot["ours"] / tot["glpsol"]))
    report_freelp(text, anc)


def scipy_version():
    try:
        import scipy
        return scipy.__version__
    except ImportError:
        return "?"


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "measure":
        measure(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "report":
        report(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
