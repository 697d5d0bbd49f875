// Package carry carries a panic out of a worker goroutine and back to the
// goroutine that started the workers and waits for them, so that a
// caller can recover it as if the work had run on its own goroutine. A
// panic left in a worker goroutine would end the whole process, out of
// reach of any recover.
//
// Use: every worker (the caller's own share too) defers c.Catch(onPanic);
// the caller waits for all workers, then calls c.Repanic.
package carry

import (
	"fmt"
	"runtime/debug"
	"sync/atomic"
)

// Panic is the value re-panicked on the caller's goroutine: the value
// that a worker panicked with and that worker's stack at the panic.
type Panic struct {
	Value any    // the value passed to panic in the worker
	Stack []byte // the worker's stack, as debug.Stack printed it
}

// Error describes the panic with the worker's stack, so that an
// unrecovered re-panic still shows where the worker failed.
func (p *Panic) Error() string {
	return fmt.Sprintf("panic in a worker goroutine: %v\n\nworker goroutine stack:\n%s", p.Value, p.Stack)
}

// Unwrap returns the original value if it is an error (a runtime.Error
// for an index out of range, say), so that errors.As and errors.Is see
// through the wrapping.
func (p *Panic) Unwrap() error {
	err, _ := p.Value.(error)
	return err
}

// Catcher records the first panic of a group of workers. The zero value
// is ready to use; a Catcher must not be copied after first use.
type Catcher struct {
	first  atomic.Pointer[Panic]
	failed atomic.Bool
}

// Catch must be deferred directly by each worker: it recovers a panic,
// keeps the first one of the group, and calls onPanic (if not nil) so
// that the other workers can be told to stop. A panic whose value is
// already a *Panic (from a nested group of workers) is kept as it is.
func (c *Catcher) Catch(onPanic func()) {
	v := recover()
	if v == nil {
		return
	}
	p, ok := v.(*Panic)
	if !ok {
		p = &Panic{Value: v, Stack: debug.Stack()}
	}
	c.first.CompareAndSwap(nil, p)
	c.failed.Store(true)
	if onPanic != nil {
		onPanic()
	}
}

// Failed reports whether a worker of the group has panicked; the others
// should stop at their next check.
func (c *Catcher) Failed() bool { return c.failed.Load() }

// Repanic panics with the first recorded *Panic, if any. Call it on the
// caller's goroutine after all workers have returned.
func (c *Catcher) Repanic() {
	if p := c.first.Load(); p != nil {
		panic(p)
	}
}
