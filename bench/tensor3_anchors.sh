#!/usr/bin/env bash
# Measures tensor3 against numpy (Debian's, on OpenBLAS) in one run and
# prints the ratios of issue 5: the weighted whitened third moment
# sum_s w_s y_s(x)y_s(x)y_s (ours: Sym.AddOuterRows; numpy: its best GEMM
# form and einsum) and the multilinear map T(W, W, W) (ours:
# Sym.Multilinear; numpy: einsum). Rounds interleave ours and numpy's
# measurements, and the table shows medians. numpy runs on one thread;
# ours on one goroutine and on all cores.
#
#   bash bench/tensor3_anchors.sh [-rounds 3] [-einsum-fraction 0.1 | -skip-einsum]
#
# einsum costs 20 s to a minute at the issue's sizes, so by default it is
# timed on a tenth of the samples and scaled (its cost is linear in N);
# -einsum-fraction 1 times it in full. On a shared machine wrap the call
# in flock, as every timing run here should be.
set -euo pipefail
cd "$(dirname "$0")"

rounds=3
pyargs=()
while (($#)); do
  case "$1" in
    -rounds) rounds="$2"; shift 2 ;;
    -einsum-fraction) pyargs+=(--einsum-fraction "$2"); shift 2 ;;
    -skip-einsum) pyargs+=(--skip-einsum); shift ;;
    *) echo "usage: $0 [-rounds N] [-einsum-fraction F | -skip-einsum]" >&2; exit 2 ;;
  esac
done

need=()
/usr/bin/python3 -c 'import numpy' 2>/dev/null || need+=(python3-numpy)
[ -e /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 ] || [ -e /usr/lib/aarch64-linux-gnu/openblas-pthread/libblas.so.3 ] || need+=(libopenblas0-pthread)
if ((${#need[@]})); then
  echo "installing ${need[*]}" >&2
  apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi
. ./openblas_core.sh
openblas_core

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/bench.test" .
for ((r = 1; r <= rounds; r++)); do
  "$tmp/bench.test" -test.run '^$' -test.bench 'Tensor3(Moment|Multilinear)' -test.benchtime 5x >>"$tmp/go.txt"
  OPENBLAS_NUM_THREADS=1 /usr/bin/python3 tensor3_anchors.py "${pyargs[@]}" >>"$tmp/np.txt"
  # einsum takes 1/rounds of the time budget: only in the first round.
  pyargs+=(--skip-einsum)
  echo "round $r/$rounds done" >&2
done

/usr/bin/python3 - "$tmp/go.txt" "$tmp/np.txt" <<'PY'
import re, statistics, sys
go, npf = open(sys.argv[1]).read(), open(sys.argv[2]).read()
ours, order = {}, []
for m in re.finditer(r"BenchmarkTensor3(\w+)/(\S+?)/workers=(\d+)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", go):
    key = (m.group(1), m.group(2), int(m.group(3)))
    if key not in ours:
        order.append(key)
    ours.setdefault(key, []).append(float(m.group(4)) / 1e9)
cpu = re.search(r"cpu: (.*)", go)
anch = {}
for line in npf.splitlines():
    f = line.split()
    if f[0] == "moment":
        anch.setdefault(("Moment", "k=%s/N=%s" % (f[1], f[2]), f[3]), []).append(float(f[4]))
        if f[3] == "einsum" and int(f[5]) != int(f[2]):
            anch[("einsum-sub", f[1])] = int(f[5])
    else:
        anch.setdefault(("Multilinear", "d=%s/k=%s" % (f[1], f[2]), f[3]), []).append(float(f[4]))
med = statistics.median
cores = max(w for (_, _, w) in ours)
print("machine: %s, %d cores; numpy on 1 thread (OPENBLAS_NUM_THREADS=1); medians over the rounds" % (cpu.group(1) if cpu else "?", cores))
print()
print("Whitened third moment sum_s w_s y_s(x)y_s(x)y_s (ms; ratios = numpy time / ours on 1 core)")
print("%-16s %9s %9s %6s | %9s %9s | %8s %8s | %s" % ("case", "ours 1c", "ours %dc" % cores, "Nc/1c", "np GEMM", "np einsum", "GEMM/1c", "eins/1c", "target: GEMM/1c >= 5, Nc/1c near %d" % cores))
for kind, case, w in order:
    if kind != "Moment" or w != 1:
        continue
    v = ours[(kind, case, w)]
    o1, oN = med(v), med(ours.get((kind, case, cores), v))
    g = med(anch.get((kind, case, "gemm"), [float("nan")]))
    e = med(anch.get((kind, case, "einsum"), [float("nan")]))
    k = case.split("/")[0][2:]
    note = " (einsum scaled from %d samples)" % anch[("einsum-sub", k)] if ("einsum-sub", k) in anch else ""
    print("%-16s %9.1f %9.1f %5.2fx | %9.1f %9.1f | %7.1fx %7.1fx | %s%s" % (case, o1 * 1e3, oN * 1e3, o1 / oN, g * 1e3, e * 1e3, g / o1, e / o1, "met" if g / o1 >= 5 else "MISSED", note))
print()
print("Multilinear map T(W, W, W) (ms; ratio = numpy einsum / ours)")
print("%-16s %9s %9s %6s | %9s | %8s %8s | %s" % ("case", "ours 1c", "ours %dc" % cores, "Nc/1c", "np einsum", "eins/1c", "eins/Nc", "target: >= 3"))
for kind, case, w in order:
    if kind != "Multilinear" or w != 1 or (kind, case, "einsum") not in anch:
        continue
    v = ours[(kind, case, w)]
    o1, oN = med(v), med(ours.get((kind, case, cores), v))
    e = med(anch.get((kind, case, "einsum"), [float("nan")]))
    print("%-16s %9.1f %9.1f %5.2fx | %9.1f | %7.1fx %7.1fx | 1 core %s, %d cores %s" % (case, o1 * 1e3, oN * 1e3, o1 / oN, e * 1e3, e / o1, e / oN, "met" if e / o1 >= 3 else "MISSED", cores, "met" if e / oN >= 3 else "MISSED"))
PY
