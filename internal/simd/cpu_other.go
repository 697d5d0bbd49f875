//go:build purego || !(amd64 || arm64)

package simd

import "runtime"

const purego = true

const archName = runtime.GOARCH

func detect() {}
