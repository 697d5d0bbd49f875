//go:build purego || !(amd64 || arm64)

package kernels

// sym3For returns the update micro-kernel of path p: the generic one in
// this build.
func sym3For(Path) sym3Impl { return sym3Generic }
