#!/usr/bin/env bash
# Reproduces Tables 1 and 2 and Figures 5 and 6 of the topic-model paper
# with latent/linear, and compares the fully observed BN learner with
# DirectLiNGAM and ICA-LiNGAM (issue 7). Prints every table beside the
# paper's numbers with the time of each cell; writes fig5.svg and
# fig6.svg into the directory given by -svg (default: the bench
# directory). Takes the machine's benchmark lock so that timings do not
# overlap other measurements.
#
#   bash bench/linear.sh [-models 5] [-quick] [-sections ex1,ex2,lingam,lambda,fourth] [-svg DIR]
#   bash bench/linear.sh -sections fourth -fourth-noises uniform,laplace,exponential,chi-squared -fourth-ica
set -euo pipefail
cd "$(dirname "$0")"
exec flock /tmp/moments-bench.lock go run ./cmd/linear "$@"
