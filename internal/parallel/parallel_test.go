package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestForEachConcurrent checks that ForEach runs every job once, each
// goroutine with a scratch of its own, for job counts below, at and above
// the number of goroutines (run under -race by CI).
func TestForEachConcurrent(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 17, 1000} {
		runs := make([]atomic.Int32, n)
		var scratches atomic.Int32
		type scratch struct{ jobs int }
		mk := make(chan *scratch, runtime.GOMAXPROCS(0)+1)
		ForEach(n, func() *scratch {
			scratches.Add(1)
			s := &scratch{}
			mk <- s
			return s
		}, func(s *scratch, j int32) {
			s.jobs++ // a goroutine's own scratch: no race
			runs[j].Add(1)
		})
		close(mk)
		total := 0
		for s := range mk {
			total += s.jobs
		}
		for j := range runs {
			if c := runs[j].Load(); c != 1 {
				t.Fatalf("n %d: job %d ran %d times", n, j, c)
			}
		}
		if total != n {
			t.Errorf("n %d: the scratches saw %d jobs", n, total)
		}
		if w := int(scratches.Load()); w != Workers(n) || w > max(n, 1) {
			t.Errorf("n %d: %d scratches, want Workers(n) = %d", n, w, Workers(n))
		}
	}
}
