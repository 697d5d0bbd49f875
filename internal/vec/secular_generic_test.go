//go:build purego || !amd64

package vec

// zhatAssembly: no level has an assembly ZhatAt here.
const zhatAssembly = false
