// Package parallel runs independent jobs on runtime.GOMAXPROCS goroutines:
// the clusters of hpa's builds and checks, the tiles of navmesh's tiled
// builds.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers returns the number of goroutines for n jobs: GOMAXPROCS, but at
// least 1 and at most n.
func Workers(n int) int { return max(1, min(runtime.GOMAXPROCS(0), n)) }

// ForEach calls do for each of the jobs 0 to n−1, on [Workers](n)
// goroutines that take the next job as they finish one. Each goroutine
// makes its own scratch with scratch, and passes it to every do it runs.
// It returns when every job is done.
func ForEach[S any](n int, scratch func() S, do func(s S, job int32)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range Workers(n) {
		wg.Go(func() {
			s := scratch()
			for {
				j := next.Add(1) - 1
				if j >= int64(n) {
					return
				}
				do(s, int32(j))
			}
		})
	}
	wg.Wait()
}
