//go:build purego || !(amd64 || arm64)

package jacobi

func registerArch() {}
