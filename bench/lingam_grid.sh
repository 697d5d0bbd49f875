#!/usr/bin/env bash
# Issue 18's grid against cdt15/lingam itself: latent/linear.LearnObservedBN
# (default options) against lingam's DirectLiNGAM and ICALiNGAM on the same
# seeded CSV files, with the Go port in bench/lingam beside them; prints
# SHD, precision, recall, F1 and time per cell (noise, p, degree, N) and
# the means per (noise family, p, N). See cmd/lingamgrid for the grid and
# the scoring, lingam_grid.py for how lingam is loaded.
#
#   LINGAM_SRC=/path/to/lingam bash bench/lingam_grid.sh [-p 10,20,50] [-n 1000,5000,20000]
#       [-degree 2,4] [-noise exp,chi2,uniform,laplace] [-seeds 5] [-tol 0] [-goport=false] [-cells=false]
#       [-lingamonly] (score only the data sets that lingam has results for)
#
# LINGAM_SRC is a checkout of https://github.com/cdt15/lingam, used for
# measurement only: never copy it into this repository. Get it with
#   git clone --depth 1 https://github.com/cdt15/lingam /tmp/lingam-src
# or, without git, the archive of a commit:
#   curl -sL https://github.com/cdt15/lingam/archive/refs/heads/master.tar.gz | tar -xz -C /tmp
# (LINGAM_SRC=/tmp/lingam-master).
# lingam runs on Debian's numpy, scipy and scikit-learn (python3-numpy,
# python3-scipy, python3-sklearn, installed with apt-get when root and one
# is missing); nothing comes from PyPI. Without LINGAM_SRC the script runs
# ours and the Go port alone and prints a dash for lingam.
#
# Every method runs on one core (GOMAXPROCS=1, OPENBLAS_NUM_THREADS=1;
# set them to override), in one process per side, under the machine's
# benchmark lock. The data sets (about 20 MB per p = 50, N = 20000 file;
# the full grid is about 3 GB) go to a temporary directory removed at the
# end unless LINGAM_GRID_DIR names one to keep (a re-run then reuses its
# files and lingam's results).
set -euo pipefail
cd "$(dirname "$0")"

export GOMAXPROCS=${GOMAXPROCS:-1} OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1} OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
PY=/usr/bin/python3
export PYTHONDONTWRITEBYTECODE=1 # leave LINGAM_SRC and this tree as they were

if [ -n "${LINGAM_SRC:-}" ]; then
  [ -f "$LINGAM_SRC/lingam/direct_lingam.py" ] || { echo "LINGAM_SRC=$LINGAM_SRC holds no lingam/direct_lingam.py" >&2; exit 2; }
  case "$(realpath "$LINGAM_SRC")/" in
  "$(realpath ..)"/*) echo "LINGAM_SRC=$LINGAM_SRC is inside this repository; keep lingam's code outside it" >&2; exit 2 ;;
  esac
  need=()
  $PY -c 'import numpy' 2>/dev/null || need+=(python3-numpy)
  $PY -c 'import scipy' 2>/dev/null || need+=(python3-scipy)
  $PY -c 'import sklearn' 2>/dev/null || need+=(python3-sklearn)
  if ((${#need[@]})); then
    echo "installing ${need[*]}" >&2
    apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null
  fi
  . ./openblas_core.sh
  openblas_core
else
  echo "LINGAM_SRC is not set: running ours and the Go port only (see the head of $0)" >&2
fi

dir=${LINGAM_GRID_DIR:-}
if [ -z "$dir" ]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi

go build -o "$dir/lingamgrid" ./cmd/lingamgrid
exec 9>/tmp/moments-bench.lock
flock 9
"$dir/lingamgrid" -dir "$dir" -gen "$@"
if [ -n "${LINGAM_SRC:-}" ]; then
  $PY lingam_grid.py "$LINGAM_SRC" "$dir"
fi
"$dir/lingamgrid" -dir "$dir" "$@"
