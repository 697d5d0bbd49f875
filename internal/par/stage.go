package par

// Stage adapts a progress callback of the shape func(stage, done, total)
// (moments.Progress and the learners' option fields of that type) to the
// func(done, total) that Reduce reports through, naming every report
// stage. It returns nil for a nil p, so that Reduce reports nothing.
func Stage[P ~func(string, int, int)](p P, stage string) func(done, total int) {
	if p == nil {
		return nil
	}
	return func(done, total int) { p(stage, done, total) }
}
