//go:build purego || !(amd64 || arm64)

package vec

func registerArch() {}
