package moments

// Progress reports the advance of a long computation, the one shape of
// progress callback of every learner: stage names the step (a pass over
// the data, a factorization, a round of a search), and done of total
// units of that stage are finished. Calls may come from several
// goroutines, but never two at once; a callback should return quickly.
type Progress func(stage string, done, total int)
