//go:build purego || !(amd64 || arm64)

package sym3

func registerArch() {}
