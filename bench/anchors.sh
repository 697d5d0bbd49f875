#!/usr/bin/env bash
# Measures moments' GEMM against OpenBLAS (Debian's, through numpy) and
# gonum v0.17 in one run, prints the ratios, then the micro-kernel's
# fraction of the FMA peak. Installs what it needs (Debian packages) when
# run as root on a machine that lacks them.
#
#   bash bench/anchors.sh [-sizes 64,256,512,1024] [-rounds 5] [-budget 250ms]
set -euo pipefail
cd "$(dirname "$0")"

need=()
/usr/bin/python3 -c 'import numpy' 2>/dev/null || need+=(python3-numpy)
# numpy alone pulls in the reference BLAS; the anchor is OpenBLAS.
[ -e /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 ] || [ -e /usr/lib/aarch64-linux-gnu/openblas-pthread/libblas.so.3 ] || need+=(libopenblas0-pthread)
if ((${#need[@]})); then
  echo "installing ${need[*]}" >&2
  apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi
. ./openblas_core.sh
openblas_core

go run ./cmd/anchors "$@"

echo
echo "Micro-kernel on panels in L1/L2 vs the FMA peak of one core (GFLOP/s, median of 5):"
(cd .. && go test -run '^$' -bench 'FMAPeak|MicroKernel' -count 5 ./kernels) | /usr/bin/python3 -c '
import re, statistics, sys
runs = {}
for line in sys.stdin:
    m = re.match(r"Benchmark(\S+?)(-\d+)?\s.*?([\d.]+) GFLOP/s", line)
    if m:
        runs.setdefault(m.group(1), []).append(float(m.group(3)))
med = {k: statistics.median(v) for k, v in runs.items()}
for k, v in sorted(med.items()):
    if k.startswith("MicroKernel/"):
        p = k.split("/", 1)[1]
        peak = med.get("FMAPeak/" + p)
        if peak:
            print("  %-8s micro-kernel %6.1f, peak %6.1f: %5.1f%% of peak" % (p, v, peak, 100 * v / peak))
        else:
            print("  %-8s micro-kernel %6.1f (no peak probe on this path)" % (p, v))
'
