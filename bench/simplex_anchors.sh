#!/usr/bin/env bash
# Measures moments/simplex against HiGHS (scipy.optimize.linprog, Debian's
# python3-scipy), GLPK (glpsol, Debian's glpk-utils) and gonum v0.17
# (lp.Simplex) in one run and prints the comparison of issue 4: the l1
# problem min ||B w||_1 s.t. q^T w = 1 (B 150x25 and 180x30, q = row 0),
# the batch of all rows of B, and the NETLIB set (the total against
# glpsol's), and the random sparse LPs with free variables of issue 17
# (5n rows, n = 300 to 600 free columns; both of our methods). Rounds
# interleave every contender; the tables show medians of CPU seconds
# (getrusage for ours and gonum, process_time for HiGHS, the child
# process's user + system time for glpsol).
# Installs what it needs (Debian packages) when run as root on a machine
# that lacks them.
#
#   bash bench/simplex_anchors.sh [-rounds 3] [-netlib DIR]
#
# DIR defaults to ../simplex/testdata/netlib (a copy of shared/data/netlib). On a shared
# machine wrap the call in flock, as every timing run here should be:
#   flock /tmp/moments-bench.lock bash bench/simplex_anchors.sh
set -euo pipefail
cd "$(dirname "$0")"

rounds=3
netlib=../simplex/testdata/netlib
while (($#)); do
  case "$1" in
    -rounds) rounds="$2"; shift 2 ;;
    -netlib) netlib="$2"; shift 2 ;;
    *) echo "usage: $0 [-rounds N] [-netlib DIR]" >&2; exit 2 ;;
  esac
done
netlib=$(cd "$netlib" && pwd)

need=()
/usr/bin/python3 -c 'import scipy.optimize, numpy' 2>/dev/null || need+=(python3-scipy python3-numpy)
command -v glpsol >/dev/null || need+=(glpk-utils)
if ((${#need[@]})); then
  echo "installing ${need[*]}" >&2
  apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
fi
. ./openblas_core.sh
openblas_core

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/bench.test" .
# The benchmark matrices and the l1 LPs as MPS, for the anchors.
SIMPLEX_ANCHOR_DIR="$tmp/data" "$tmp/bench.test" -test.run '^TestSimplexAnchorData$' >/dev/null
for ((r = 1; r <= rounds; r++)); do
  "$tmp/bench.test" -test.run '^$' -test.bench '^BenchmarkSimplexL1(Batch)?$' -test.benchtime 1s >>"$tmp/go.txt"
  "$tmp/bench.test" -test.run '^$' -test.bench '^BenchmarkSimplexNetlib$' -test.benchtime 3x >>"$tmp/go.txt"
  "$tmp/bench.test" -test.run '^$' -test.bench '^BenchmarkSimplexFreeLP$' -test.benchtime 1x >>"$tmp/go.txt"
  "$tmp/bench.test" -test.run '^$' -test.bench '^BenchmarkGonumL1(Batch)?$' -test.benchtime 1x >>"$tmp/go.txt"
  /usr/bin/python3 simplex_anchors.py measure "$tmp/data" "$netlib" >>"$tmp/anchors.txt"
  echo "round $r/$rounds done" >&2
done
/usr/bin/python3 simplex_anchors.py report "$tmp/go.txt" "$tmp/anchors.txt"
