#!/usr/bin/env bash
# Runs the experiments of issue 8 (mixtures of graphical models) and
# prints their tables: recovery against N, held-out log-likelihoods of
# the spectral estimate, EM from random starts and EM from the spectral
# start (synthetic and scikit-learn's digits), and the RankTest time for
# p = 50, d = 4, eta = 2. Takes the machine's benchmark lock so that
# timings do not overlap other measurements.
#
#   bash bench/treemix.sh [-seeds 5] [-ns 1000,3000,10000,30000,100000]
set -euo pipefail
cd "$(dirname "$0")"
digits=/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz
if [ ! -e "$digits" ] && [ "$(id -u)" = 0 ]; then
  echo "installing python3-sklearn (for the digits)" >&2
  apt-get update -qq && apt-get install -y -qq python3-sklearn >/dev/null || true
fi
exec flock /tmp/moments-bench.lock go run ./cmd/treemix -digits "$digits" "$@"
