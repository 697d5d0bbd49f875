package carry_test

import (
	"fmt"
	"sync"

	"github.com/moments-go/moments/internal/carry"
)

// ExampleCatcher runs four workers, one of which panics; the panic is carried
// back to the caller's goroutine, where an ordinary recover sees it.
func ExampleCatcher() {
	defer func() {
		p := recover().(*carry.Panic)
		fmt.Println("recovered:", p.Value)
	}()
	var c carry.Catcher
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.Catch(nil)
			if w == 2 {
				panic("worker 2 failed")
			}
		}()
	}
	wg.Wait()
	fmt.Println("failed:", c.Failed())
	c.Repanic()
	// Output:
	// failed: true
	// recovered: worker 2 failed
}
