#!/bin/sh
# Measures spectral LDA as Beam pipelines on prism against the in-process
# learner, on bench/cmd/ldascale's generated corpus written to shards.
# Extra flags go to cmd/beambench, e.g.
#   ./bench.sh -docs 1000000 -vocab 50000 -k 50 -shards 64
set -eu
cd "$(dirname "$0")"
exec go run ./cmd/beambench "$@"
