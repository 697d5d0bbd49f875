#!/bin/sh
# CI of the beam module: gofmt, vet and the tests (on the prism runner,
# in process, no network once the modules are in the Go module cache).
set -eu
cd "$(dirname "$0")"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "gofmt needed:" >&2
	echo "$unformatted" >&2
	exit 1
fi
go vet ./...
go test -count=1 ./...
