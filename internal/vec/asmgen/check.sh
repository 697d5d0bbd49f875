#!/bin/sh
# check.sh checks that internal/vec/vec_amd64.s is what the generator in
# this directory writes, and that the generator writes the same file
# twice. It runs the generator from a copy of this directory in a
# temporary one, with the arguments of the go:generate line in
# internal/vec/vec.go, so the generated header is the same. It needs
# avo in the module cache (go mod download, once, with network); then it
# runs offline, for example with GOPROXY=off GOFLAGS=-mod=readonly.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/asmgen"
cp "$here"/go.mod "$here"/go.sum "$here"/*.go "$tmp/asmgen/"
cd "$tmp/asmgen"
go run . -out ../vec_amd64.s
mv ../vec_amd64.s ../first.s
go run . -out ../vec_amd64.s
if ! cmp -s ../first.s ../vec_amd64.s; then
	echo "asmgen: two runs wrote different files" >&2
	diff -u ../first.s ../vec_amd64.s >&2 || true
	exit 1
fi
if ! cmp -s ../vec_amd64.s "$here/../vec_amd64.s"; then
	echo "asmgen: internal/vec/vec_amd64.s is not what asmgen writes; run go generate ./internal/vec" >&2
	diff -u "$here/../vec_amd64.s" ../vec_amd64.s >&2 || true
	exit 1
fi
echo "asmgen: internal/vec/vec_amd64.s is up to date"
