package par

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/moments-go/moments/internal/carry"
)

// The tests of Team are in package par: a few read the team's own state
// (whether its helpers are parked, whether its loop has recorded a
// panic) to set up a case exactly instead of hoping the scheduler does.

// newTeam starts a team that is closed when the test ends, even if it
// fails early, so that no helper outlives its test.
func newTeam(t *testing.T, workers int) *Team {
	team := NewTeam(workers)
	t.Cleanup(team.Close)
	return team
}

// waitUntil polls cond every 100 µs for up to limit and reports whether
// it came true.
func waitUntil(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(100 * time.Microsecond)
	}
	return true
}

// returnsWithin runs f on a goroutine of its own and reports whether it
// returned within limit (a call that hangs then fails its test instead
// of stopping the whole run).
func returnsWithin(limit time.Duration, f func()) bool {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		return true
	case <-time.After(limit):
		return false
	}
}

// allParked reports whether every helper of team has parked (or is just
// about to, past the point of spinning).
func allParked(team *Team) bool {
	for _, h := range team.helpers {
		if !h.parked.Load() {
			return false
		}
	}
	return true
}

// allJoin runs a loop of team.Workers() calls, each of which waits until
// all have started: it completes in time (each call waits at most 10 s)
// only if every helper took part, so it reports whether all did.
func allJoin(team *Team) bool {
	w := int32(team.Workers())
	var started, timedOut atomic.Int32
	team.For(int(w), func(int) {
		started.Add(1)
		if !waitUntil(10*time.Second, func() bool { return started.Load() == w }) {
			timedOut.Add(1)
		}
	})
	return timedOut.Load() == 0
}

// serveGoroutines counts the helper goroutines of all teams, started or
// not yet (those NewTeam started and that have not returned).
func serveGoroutines() int {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			return strings.Count(string(buf[:n]), "created by github.com/moments-go/moments/internal/par.NewTeam ")
		}
		buf = make([]byte, 2*len(buf))
	}
}

// TestTeamForEachIndexOnce runs 2000 loops of seeded random lengths (0,
// 1, 2, 3, 17 and 1000) on teams of 1, 2, 3 and 8 goroutines (8 is more
// than the processors of a small machine, so helpers share them) and
// counts the calls of each index: every index in [0, n) must run exactly
// once per loop, and no index outside it. f also writes a plain slice
// that the caller reads after For, so that the race detector checks that
// For orders the helpers' writes before its return.
func TestTeamForEachIndexOnce(t *testing.T) {
	sizes := []int{0, 1, 2, 3, 17, 1000}
	const loops = 2000
	for _, w := range []int{1, 2, 3, 8} {
		team := newTeam(t, w)
		if team.Workers() != w {
			t.Fatalf("NewTeam(%d).Workers() = %d", w, team.Workers())
		}
		if !allJoin(team) {
			t.Fatalf("%d workers: not every helper took part in a loop that waited 10 s for them", w)
		}
		r := rand.New(rand.NewPCG(uint64(w), 1))
		counts := make([]atomic.Int32, 1000)
		out := make([]int, 1000)
		var outside atomic.Int32
		for l := range loops {
			n := sizes[r.IntN(len(sizes))]
			team.For(n, func(i int) {
				if i < 0 || i >= n {
					outside.Add(1)
					return
				}
				counts[i].Add(1)
				out[i] = l*1000 + i
			})
			if k := outside.Load(); k != 0 {
				t.Fatalf("%d workers, loop %d (n = %d): %d calls outside [0, n)", w, l, n, k)
			}
			for i := range n {
				if c := counts[i].Swap(0); c != 1 {
					t.Fatalf("%d workers, loop %d (n = %d): index %d ran %d times, want 1", w, l, n, i, c)
				}
				if out[i] != l*1000+i {
					t.Fatalf("%d workers, loop %d: out[%d] = %d, want %d", w, l, i, out[i], l*1000+i)
				}
			}
		}
	}
}

// TestTeamFewWorkers: a team asked for fewer than 2 workers starts no
// helper and runs its loops on the caller's goroutine; n <= 0 runs
// nothing.
func TestTeamFewWorkers(t *testing.T) {
	for _, w := range []int{-3, 0, 1} {
		team := newTeam(t, w)
		if team.Workers() != 1 {
			t.Errorf("NewTeam(%d).Workers() = %d, want 1", w, team.Workers())
		}
		got := 0
		team.For(5, func(i int) { got += i + 1 }) // a plain sum: one goroutine
		team.For(-2, func(int) { t.Errorf("NewTeam(%d): For(-2) ran an index", w) })
		if got != 15 {
			t.Errorf("NewTeam(%d): the loop summed %d, want 15", w, got)
		}
	}
}

// TestTeamUnevenAndPaused runs loops whose calls take very uneven times
// (a few sleep, the others spin for seeded random counts), with pauses
// between some loops much longer than TeamSpin, so that the helpers park
// and are woken while the caller already works: every loop's results
// must be complete and equal to a serial run's.
func TestTeamUnevenAndPaused(t *testing.T) {
	for _, w := range []int{2, 3, 8} {
		team := newTeam(t, w)
		r := rand.New(rand.NewPCG(uint64(w), 2))
		for l := range 150 {
			n := 1 + r.IntN(48)
			spins := make([]int, n)
			for i := range spins {
				spins[i] = r.IntN(4000)
			}
			sleepy := r.IntN(n) // this index sleeps besides spinning
			if l%10 == 9 {
				time.Sleep(20 * TeamSpin)
			}
			out := make([]uint64, n)
			team.For(n, func(i int) {
				if i == sleepy {
					time.Sleep(100 * time.Microsecond)
				}
				out[i] = spin(uint64(i), spins[i])
			})
			for i := range n {
				if want := spin(uint64(i), spins[i]); out[i] != want {
					t.Fatalf("%d workers, loop %d: out[%d] = %d, want %d", w, l, i, out[i], want)
				}
			}
		}
	}
}

// spin stirs x k times (a xorshift), as a call that takes a while.
func spin(x uint64, k int) uint64 {
	x = x*0x9e3779b97f4a7c15 + 1
	for range k {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// TestTeamParkedHelpers lets the helpers park (checked on the team's
// state) and then runs a tiny loop: it must complete without waiting on
// them, here within an absurdly loose 1 s (a loop that waited for a
// helper to be scheduled would take microseconds to milliseconds; one
// that waited for a helper that never comes would hang). A loop that
// lasts must still wake them all.
func TestTeamParkedHelpers(t *testing.T) {
	for _, w := range []int{2, 8} {
		team := newTeam(t, w)
		team.For(w, func(int) {}) // the helpers have seen a loop
		time.Sleep(10 * TeamSpin)
		if !waitUntil(2*time.Second, func() bool { return allParked(team) }) {
			t.Fatalf("%d workers: the helpers did not park within 2 s of the last loop", w)
		}
		for round := range 20 {
			if !waitUntil(2*time.Second, func() bool { return allParked(team) }) {
				t.Fatalf("%d workers, round %d: the helpers did not park again", w, round)
			}
			var ran [3]atomic.Int32
			start := time.Now()
			team.For(3, func(i int) { ran[i].Add(1) })
			if d := time.Since(start); d > time.Second {
				t.Errorf("%d workers, round %d: a loop of 3 with parked helpers took %v", w, round, d)
			}
			for i := range ran {
				if c := ran[i].Load(); c != 1 {
					t.Fatalf("%d workers, round %d: index %d ran %d times, want 1", w, round, i, c)
				}
			}
			// The parked helpers still wake for a loop that lasts.
			if round%5 == 4 {
				if !waitUntil(2*time.Second, func() bool { return allParked(team) }) {
					t.Fatalf("%d workers, round %d: the helpers did not park again", w, round)
				}
				if !allJoin(team) {
					t.Fatalf("%d workers, round %d: parked helpers did not wake for a loop that waited 10 s", w, round)
				}
			}
		}
	}
}

// TestTeamPanic makes the first index of one goroutine's share panic,
// the caller's (share 0) or a helper's, while every other call waits
// until the team has recorded the panic, so that any index that a
// goroutine claims after its first one is claimed after the panic. The
// panic must come back as a *carry.Panic that holds the original value
// and the stack of the goroutine that panicked (the helper's shows
// serve), and no goroutine may claim another index once the panic is
// recorded: at most one call per goroutine runs.
func TestTeamPanic(t *testing.T) {
	for _, w := range []int{2, 3, 8} {
		for _, share := range []int{0, 1, w - 1} {
			team := newTeam(t, w)
			n := 10 * w
			bad := share * n / w // the first index of that share
			var ran, late atomic.Int32
			v := catch(func() {
				team.For(n, func(i int) {
					ran.Add(1)
					if i == bad {
						panicInWork(i)
					}
					if !waitUntil(10*time.Second, team.caught.Failed) {
						late.Add(1)
					}
				})
			})
			what := fmt.Sprintf("Team.For, %d workers, panic at %d (share %d)", w, bad, share)
			checkPanic(t, v, what)
			stack := string(v.(*carry.Panic).Stack)
			onHelper := strings.Contains(stack, "par.(*Team).serve(")
			if onHelper != (share != 0) {
				t.Errorf("%s: panic on a helper is %v, want %v; stack:\n%s", what, onHelper, share != 0, stack)
			}
			if late.Load() != 0 {
				t.Fatalf("%s: %d calls waited 10 s for the panic to be recorded", what, late.Load())
			}
			if k := ran.Load(); k > int32(w) {
				t.Errorf("%s: %d calls ran, want at most %d (one per goroutine)", what, k, w)
			}
		}
	}
	// A runtime error on a helper keeps its type through the wrapping.
	team := newTeam(t, 2)
	v := catch(func() {
		team.For(4, func(i int) {
			if i == 2 { // the helper's first index
				var x []int
				_ = x[i+5]
			}
			waitUntil(10*time.Second, team.caught.Failed)
		})
	})
	var re runtime.Error
	if err, ok := v.(error); !ok || !errors.As(err, &re) {
		t.Fatalf("index out of range came back as %T %v", v, v)
	}
	if p, ok := v.(*carry.Panic); !ok || !strings.Contains(string(p.Stack), "par.(*Team).serve(") {
		t.Fatalf("index out of range on a helper came back as %T, stack not the helper's:\n%v", v, v)
	}
}

// TestTeamClose: Close ends every helper, whether it has never seen a
// loop, spins after one, or is parked (after a pause):
// within 2 s no helper goroutine of any team is left and the number of
// goroutines is back to what it was before the team started.
func TestTeamClose(t *testing.T) {
	// Helpers of the other tests' teams may still be on their way out.
	if !waitUntil(2*time.Second, func() bool { return serveGoroutines() == 0 }) {
		t.Fatalf("%d helpers of earlier teams still running 2 s after their Close", serveGoroutines())
	}
	base := runtime.NumGoroutine()
	cases := []struct {
		name  string
		setup func(*Team)
	}{
		{"never used", func(*Team) {}},
		{"spinning", func(team *Team) {
			for range 50 {
				team.For(64, func(int) {})
			}
		}},
		{"parked", func(team *Team) {
			team.For(64, func(int) {})
			if !waitUntil(2*time.Second, func() bool { return allParked(team) }) {
				t.Errorf("parked: the helpers did not park within 2 s")
			}
		}},
	}
	for _, c := range cases {
		for _, w := range []int{2, 3, 8} {
			team := NewTeam(w)
			k := serveGoroutines()
			c.setup(team)
			team.Close()
			if k != w-1 {
				t.Fatalf("%s, %d workers: %d helpers running, want %d", c.name, w, k, w-1)
			}
			if !waitUntil(2*time.Second, func() bool { return serveGoroutines() == 0 && runtime.NumGoroutine() <= base }) {
				t.Fatalf("%s, %d workers: 2 s after Close %d helpers are left, %d goroutines (%d before)",
					c.name, w, serveGoroutines(), runtime.NumGoroutine(), base)
			}
		}
	}
}

// TestTeamPanicOnOneGoroutine: a loop that runs on the caller's
// goroutine alone (a team of one worker, or a loop of one index) carries
// a panic back the same way as one that runs on helpers, as For's doc
// promises for a panic "on any goroutine": a *carry.Panic, so that a
// caller's recover does not depend on the number of workers.
func TestTeamPanicOnOneGoroutine(t *testing.T) {
	for _, c := range []struct{ w, n, bad int }{{1, 3, 1}, {0, 2, 0}, {4, 1, 0}} {
		team := newTeam(t, c.w)
		var ran atomic.Int32
		v := catch(func() {
			team.For(c.n, func(i int) {
				ran.Add(1)
				if i == c.bad {
					panicInWork(i)
				}
			})
		})
		checkPanic(t, v, fmt.Sprintf("Team.For, NewTeam(%d), n = %d, panic at %d", c.w, c.n, c.bad))
		if k := ran.Load(); k != int32(c.bad+1) {
			t.Errorf("NewTeam(%d), n = %d: %d calls ran, want %d (a panic at %d stops the rest)", c.w, c.n, k, c.bad+1, c.bad)
		}
	}
}

// TestTeamAfterPanic: once a loop's panic has been recovered, the team
// runs its next loops in full and does not panic again (par.For and
// Reduce leave no state behind either).
func TestTeamAfterPanic(t *testing.T) {
	for _, w := range []int{2, 3} {
		team := newTeam(t, w)
		checkPanic(t, catch(func() { team.For(10, func(i int) { panicInWork(i) }) }),
			fmt.Sprintf("Team.For, %d workers", w))
		for l := range 3 {
			counts := make([]atomic.Int32, 10)
			if v := catch(func() { team.For(10, func(i int) { counts[i].Add(1) }) }); v != nil {
				if p, ok := v.(*carry.Panic); ok {
					v = p.Value
				}
				t.Fatalf("%d workers, loop %d after a recovered panic: For panicked again with %v", w, l, v)
			}
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("%d workers, loop %d after a recovered panic: index %d ran %d times, want 1", w, l, i, c)
				}
			}
		}
	}
}

// TestTeamReentrant: For called from inside a loop of the same team
// panics with a message (as a *carry.Panic, on the caller's goroutine
// and on a helper's), rather than overwrite the running loop, and the
// team runs later loops as before.
func TestTeamReentrant(t *testing.T) {
	for _, w := range []int{1, 2, 3} {
		team := newTeam(t, w)
		for _, at := range []int{0, 63} {
			func() {
				defer func() {
					p, ok := recover().(*carry.Panic)
					if !ok || !strings.Contains(fmt.Sprint(p.Value), "inside a loop of the same team") {
						t.Fatalf("%d workers, inner For at index %d: recovered %v, want a *carry.Panic naming the misuse", w, at, p)
					}
				}()
				team.For(64, func(i int) {
					if i == at {
						team.For(2, func(int) {})
					}
				})
			}()
		}
		var ran atomic.Int32
		team.For(10, func(int) { ran.Add(1) })
		if ran.Load() != 10 {
			t.Fatalf("%d workers: %d of 10 indices ran after the misuse", w, ran.Load())
		}
	}
}

// TestTeamGoexit: a helper whose f ends its goroutine (runtime.Goexit,
// as t.FailNow does) leaves the loop, so For still returns, with every
// other index run once; the caller finishes later loops alone.
func TestTeamGoexit(t *testing.T) {
	team := newTeam(t, 2)
	var exited atomic.Bool
	counts := make([]atomic.Int32, 64)
	returned := returnsWithin(10*time.Second, func() {
		team.For(64, func(i int) {
			if i == 0 {
				// Wait for the helper to take a share.
				waitUntil(5*time.Second, exited.Load)
			}
			if strings.Contains(string(stackOf()), "par.(*Team).serve(") && !exited.Swap(true) {
				runtime.Goexit()
			}
			counts[i].Add(1)
		})
	})
	if !returned {
		t.Fatal("For did not return 10 s after a helper's Goexit")
	}
	if !exited.Load() {
		t.Fatal("no helper took part in the loop within 5 s")
	}
	missing := 0
	for i := range counts {
		switch counts[i].Load() {
		case 0:
			missing++
		case 1:
		default:
			t.Fatalf("index %d ran %d times", i, counts[i].Load())
		}
	}
	if missing != 1 {
		t.Fatalf("%d indices did not run, want 1 (the one the helper left)", missing)
	}
	var ran atomic.Int32
	team.For(10, func(int) { ran.Add(1) })
	if ran.Load() != 10 {
		t.Fatalf("%d of 10 indices ran after the helper's Goexit", ran.Load())
	}
}

// stackOf returns the calling goroutine's stack.
func stackOf() []byte {
	buf := make([]byte, 1<<14)
	return buf[:runtime.Stack(buf, false)]
}

// TestTeamGo: a task handed to a helper by Go runs on a goroutine other
// than the caller's, on a spinning or a parked helper, while the caller's
// loops go on without that helper (the loops complete, every index
// once, while the task still waits for the caller); the helper joins
// loops again once the task has ended; a second Go finds no free helper
// on a team of two workers and panics; a team of one has none; a panic
// of the task comes back from wait as a *carry.Panic; and a task handed
// over just before Close still runs.
func TestTeamGo(t *testing.T) {
	for _, parked := range []bool{false, true} {
		team := newTeam(t, 2)
		team.For(8, func(int) {})
		if parked && !waitUntil(2*time.Second, func() bool { return allParked(team) }) {
			t.Fatal("the helper did not park within 2 s")
		}
		var release, ran atomic.Bool
		// "goroutine N [running]:" heads a stack.
		gid := func() string { return strings.Fields(string(stackOf()))[1] }
		caller := gid()
		var other bool
		wait := team.Go(func() {
			other = gid() != caller
			ran.Store(true)
			for !release.Load() {
				runtime.Gosched()
			}
		})
		if !waitUntil(10*time.Second, ran.Load) {
			t.Fatalf("parked %v: the task did not start within 10 s", parked)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("parked %v: a second Go on a team of two did not panic", parked)
				}
			}()
			team.Go(func() {})
		}()
		for range 20 {
			var counts [100]atomic.Int32
			team.For(len(counts), func(i int) { counts[i].Add(1) })
			for i := range counts {
				if c := counts[i].Load(); c != 1 {
					t.Fatalf("parked %v: index %d ran %d times while the task ran", parked, i, c)
				}
			}
		}
		release.Store(true)
		wait()
		if !other {
			t.Errorf("parked %v: the task ran on the caller's goroutine", parked)
		}
		if !allJoin(team) {
			t.Errorf("parked %v: the helper did not join loops after its task", parked)
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Go on a team of one worker did not panic")
			}
		}()
		newTeam(t, 1).Go(func() {})
	}()
	team := newTeam(t, 3)
	wait := team.Go(func() { panic("task failed") })
	func() {
		defer func() {
			var p *carry.Panic
			if err, ok := recover().(error); !ok || !errors.As(err, &p) || p.Value != "task failed" {
				t.Errorf("wait re-panicked with %v, want a *carry.Panic of the task's value", err)
			}
		}()
		wait()
	}()
	// A task handed to a spinning helper just before Close still runs
	// (the helper may see Close first), many times over.
	for i := range 300 {
		closing := NewTeam(2)
		if !allJoin(closing) {
			t.Fatal("the helper did not join")
		}
		var ran atomic.Bool
		wait := closing.Go(func() { ran.Store(true) })
		closing.Close()
		if !returnsWithin(10*time.Second, wait) {
			t.Fatalf("try %d: the wait of a task handed over before Close did not return in 10 s", i)
		}
		if !ran.Load() {
			t.Fatalf("try %d: a task handed over before Close did not run", i)
		}
	}
}

// TestTeamGoGoexit: a task that ends its goroutine by runtime.Goexit
// still ends its wait, and its helper, gone, takes no more tasks: a team
// of three hands the next one to its other helper, and then has none
// free.
func TestTeamGoGoexit(t *testing.T) {
	team := newTeam(t, 3)
	team.Go(runtime.Goexit)()
	var ran atomic.Bool
	if !returnsWithin(10*time.Second, team.Go(func() { ran.Store(true) })) {
		t.Fatal("a task after a Goexit went to the gone helper: its wait did not return in 10 s")
	}
	if !ran.Load() {
		t.Error("the task after a Goexit did not run")
	}
	defer func() {
		if recover() == nil {
			t.Error("Go found a free helper while one was gone and the other busy")
		}
	}()
	// The second helper is free again, the first gone: one more task
	// runs, and then a busy second helper leaves none.
	var release atomic.Bool
	team.Go(func() {
		for !release.Load() {
			runtime.Gosched()
		}
	})
	defer release.Store(true)
	team.Go(func() {})
}
