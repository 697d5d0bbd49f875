// Package fuzz holds fuzz targets over the public API of moments (run
// them with go test -fuzz), together with reusable pieces for testing
// numerical code: exact references computed with math/big and rounding
// error bounds.
package fuzz
