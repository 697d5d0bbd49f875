// Package fuzz holds fuzz targets over the public API of moments (run
// them with go test -fuzz), together with reusable pieces for testing
// numerical code: exact references computed with math/big and rounding
// error bounds, and generators of test matrices with prescribed singular
// values or eigenvalues (Spectrum, RandomOrthogonal, Latms, LatmsSym,
// TestMatrix, Graded).
//
// Randomness: the generators take the caller's *rand.Rand as their first
// argument and draw from it (nothing else is random), so a test that
// seeds its stream gets the same draws on every run.
package fuzz
