module github.com/moments-go/moments/bench

go 1.24.0

require (
	github.com/moments-go/moments v0.0.0
	gonum.org/v1/gonum v0.17.0
)

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace github.com/moments-go/moments => ../
