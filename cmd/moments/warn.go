package main

import (
	"fmt"
	"io"
)

// printWarnings writes each warning of a learner's verdict to w as
// "moments: warning: ...".
func printWarnings(w io.Writer, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintf(w, "moments: warning: %s\n", s)
	}
}
