package par

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/moments-go/moments/internal/carry"
)

// Team is a group of helper goroutines kept ready for a run of short
// parallel loops, such as the matrix-vector products of each step of a
// matrix reduction, each a few microseconds long: starting goroutines
// for each loop (as For does) costs as much as such a loop, since a new
// goroutine waits for the scheduler to wake a thread.
//
// Between loops the helpers spin for a while (TeamSpin), yielding the
// processor often so that other goroutines still run, and then park. A
// loop never waits for a parked helper: the caller's goroutine takes
// part in every loop and finishes it alone if need be, and a helper that
// wakes after its loop has ended skips it. So the loops' results must
// not depend on which goroutine runs which index.
//
// A Team's methods must be called from one goroutine, and not from
// inside a loop of the same team (For panics if they are). Close ends the
// helpers, without waiting for them to exit; a Team must be closed.
type Team struct {
	helpers []*teamHelper
	// state is gen<<teamGenShift | closed<<teamClosedBit | active: the
	// loop's generation, whether it takes no more helpers, and the
	// number of helpers working on it.
	state  atomic.Uint64
	slots  []teamSlot
	f      func(i int)
	quit   atomic.Bool
	busy   atomic.Bool // a loop is running
	caught carry.Catcher
}

// teamHelper is one helper's parking place, its slot's number, and the
// task handed to it by Go, if any.
type teamHelper struct {
	parked atomic.Bool
	wake   chan struct{}
	slot   int
	// task is the one handed over by Go until it has returned (a task
	// that ended the goroutine by runtime.Goexit stays, so that Go
	// passes the helper by).
	task atomic.Pointer[task]
	// gone is set when the goroutine has ended other than by Close (a
	// loop's f called runtime.Goexit), so that Go passes it by.
	gone atomic.Bool
}

// teamSlot is a goroutine's share of a loop, the indices next..end-1
// still to claim; the goroutine claims them first, and the others take
// what is left once their own shares are done. A goroutine so runs the
// same part of each loop while it keeps up, and finds that part's data
// in its own core's cache.
type teamSlot struct {
	next atomic.Int64
	end  int64
	_    [48]byte // a cache line each
}

const (
	teamClosedBit = 32
	teamGenShift  = 33
	teamActive    = 1<<teamClosedBit - 1
)

// TeamSpin is how long a helper of a Team spins for the next loop before
// it parks.
const TeamSpin = 50 * time.Microsecond

// NewTeam starts a team in which loops run on up to workers goroutines:
// the caller's and workers-1 helpers. With workers < 2 it starts none,
// and its loops run on the caller's goroutine.
func NewTeam(workers int) *Team {
	t := &Team{}
	t.state.Store(1 << teamClosedBit) // generation 0 is closed
	t.slots = make([]teamSlot, max(workers, 1))
	for i := range max(workers, 1) - 1 {
		h := &teamHelper{wake: make(chan struct{}, 1), slot: i + 1}
		t.helpers = append(t.helpers, h)
		go t.serve(h)
	}
	return t
}

// Workers returns the number of goroutines a loop may run on.
func (t *Team) Workers() int { return len(t.helpers) + 1 }

// For runs f(i) for i in [0, n) on the team; f must write only its own
// outputs. Goroutine s of the team's w (the caller's is 0) runs indices
// s*n/w to (s+1)*n/w-1 unless another has taken them first. A panic in
// f, on any goroutine, stops the loop before the next index is claimed
// and is carried back: For then panics on the caller's goroutine with a
// *carry.Panic, as package carry describes, whatever the number of
// goroutines; once the caller has recovered it, the team runs later
// loops as before.
func (t *Team) For(n int, f func(i int)) {
	if n <= 0 {
		return
	}
	if !t.busy.CompareAndSwap(false, true) {
		panic("par: Team.For called from inside a loop of the same team")
	}
	defer t.busy.Store(false)
	if t.caught.Failed() {
		t.caught = carry.Catcher{} // the last loop's panic was recovered
	}
	if len(t.helpers) == 0 || n == 1 {
		func() {
			defer t.caught.Catch(nil)
			for i := range n {
				f(i)
			}
		}()
		t.caught.Repanic()
		return
	}
	t.f = f
	w := int64(len(t.slots))
	for s := range t.slots {
		t.slots[s].next.Store(int64(s) * int64(n) / w)
		t.slots[s].end = int64(s+1) * int64(n) / w
	}
	gen := t.state.Load()>>teamGenShift + 1
	t.state.Store(gen << teamGenShift) // open, no helper yet
	for _, h := range t.helpers {
		if h.parked.Load() && h.parked.CompareAndSwap(true, false) {
			h.wake <- struct{}{}
		}
	}
	t.work(0)
	// Take no more helpers, and wait for those working to finish.
	s := t.state.Add(1 << teamClosedBit)
	for spins := 0; s&teamActive != 0; spins++ {
		if spins%64 == 63 {
			runtime.Gosched()
		}
		s = t.state.Load()
	}
	t.f = nil
	t.caught.Repanic()
}

// work claims and runs indices of the current loop, its own slot's
// first and then the others', until none is left or a goroutine has
// panicked.
func (t *Team) work(own int) {
	defer t.caught.Catch(nil)
	for k := range t.slots {
		sl := &t.slots[(own+k)%len(t.slots)]
		for !t.caught.Failed() {
			i := sl.next.Add(1) - 1
			if i >= sl.end {
				break
			}
			t.f(int(i))
		}
	}
}

// Go runs f on a helper of the team, outside its loops, and returns a
// function that waits for f to end and then, if f panicked, panics on
// its caller's goroutine with a *carry.Panic, as For does. It is for
// work that runs alongside a run of loops on another goroutine: a helper
// is ready at once, where a new goroutine may wait for the processor a
// spinning helper holds. While f runs, that helper takes no part in the
// loops, which the caller's goroutine (and the other helpers) finish;
// after, it joins them again. Go panics if no helper is free (a team of
// one worker has none; a helper is busy from Go until its f ends, and
// gone once an f, of a task or of a loop, ended its goroutine by
// runtime.Goexit, after which wait returns as for a normal end).
func (t *Team) Go(f func()) (wait func()) {
	var h *teamHelper
	for _, x := range t.helpers {
		if x.task.Load() == nil && !x.gone.Load() {
			h = x
			break
		}
	}
	if h == nil {
		panic("par: Team.Go with no free helper")
	}
	tk := newTask(f)
	h.task.Store(tk)
	if h.parked.Load() && h.parked.CompareAndSwap(true, false) {
		h.wake <- struct{}{}
	}
	return tk.wait
}

// serve is a helper's life: wait for a loop newer than the last it saw
// (or a task from Go, which it runs first), join it if it is still open,
// work, leave.
func (t *Team) serve(h *teamHelper) {
	// A goroutine that ends other than by Close (runtime.Goexit in f)
	// is marked gone.
	ended := false
	defer func() {
		if !ended {
			h.gone.Store(true)
		}
	}()
	seen := uint64(0)
	for {
		s, ok := t.await(h, seen)
		if !ok {
			ended = true
			return
		}
		if tk := h.task.Load(); tk != nil {
			func() {
				// Done even if f ends the goroutine (runtime.Goexit),
				// and then the task stays.
				defer close(tk.done)
				tk.run()
				h.task.Store(nil)
			}()
			continue // a loop opened meanwhile is still newer than seen
		}
		seen = s >> teamGenShift
		// Join the loop unless it is closed already.
		joined := false
		for s>>teamGenShift == seen && s&(1<<teamClosedBit) == 0 {
			if t.state.CompareAndSwap(s, s+1) {
				joined = true
				break
			}
			s = t.state.Load()
		}
		if joined {
			func() {
				// Leave the loop even if f ends the goroutine
				// (runtime.Goexit), so that For still returns.
				defer t.state.Add(^uint64(0)) // active--
				t.work(h.slot)
			}()
		}
	}
}

// await waits until the team's generation differs from seen or the
// helper has a task, and returns the state then, or false once the team
// is closed. (The generation has
// 31 bits: a helper that slept through 2^31 loops would at worst miss
// one.)
func (t *Team) await(h *teamHelper, seen uint64) (uint64, bool) {
	for {
		start := time.Now()
		for spins := 0; ; spins++ {
			// Go stores a task before Close stores quit: loaded after
			// quit, a task handed over just before Close is seen.
			quit := t.quit.Load()
			if h.task.Load() != nil { // even on a closed team
				return t.state.Load(), true
			}
			if quit {
				return 0, false
			}
			if s := t.state.Load(); s>>teamGenShift != seen {
				return s, true
			}
			if spins%16 == 15 {
				runtime.Gosched()
				if spins%256 == 255 && time.Since(start) > TeamSpin {
					break
				}
			}
		}
		// Park. The caller wakes a parked helper when it opens a loop
		// or hands it a task; a loop or task that came between the last
		// check and the park is seen by the check after it, and the
		// helper then takes itself out of the parked state, unless the
		// caller did so first and sent a wake-up that must be drained.
		h.parked.Store(true)
		if s := t.state.Load(); s>>teamGenShift != seen || t.quit.Load() || h.task.Load() != nil {
			if !h.parked.CompareAndSwap(true, false) {
				<-h.wake
			}
		} else {
			<-h.wake
		}
	}
}

// Close ends the team's helpers (a helper running a task of Go's ends
// after it, and the task's wait may be called after Close). The team
// must not be used after.
func (t *Team) Close() {
	t.quit.Store(true)
	for _, h := range t.helpers {
		if h.parked.Load() && h.parked.CompareAndSwap(true, false) {
			h.wake <- struct{}{}
		}
	}
	t.helpers = nil
}
