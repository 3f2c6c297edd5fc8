package radix

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHeapOrder runs a Dijkstra-like sequence of pushes (never below the
// last pop) and pops against a sorted oracle, on float keys with many
// ties, then checks Reset and that warm use allocates nothing.
func TestHeapOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var h Heap
	for round := range 3 {
		var oracle []uint64
		last := 0.0
		for range 5000 {
			if len(oracle) == 0 || r.IntN(3) > 0 {
				d := last + float64(r.IntN(20))*0.5
				if r.IntN(10) == 0 {
					d = last + r.Float64()*1e6
				}
				h.Push(math.Float64bits(d), int32(len(oracle)))
				oracle = append(oracle, math.Float64bits(d))
				continue
			}
			slices.Sort(oracle)
			e := h.Pop()
			if e.Key != oracle[0] {
				t.Fatalf("round %d: popped key %v, want %v", round, math.Float64frombits(e.Key), math.Float64frombits(oracle[0]))
			}
			oracle = oracle[1:]
			last = math.Float64frombits(e.Key)
			if h.Len() != len(oracle) {
				t.Fatalf("round %d: Len %d, want %d", round, h.Len(), len(oracle))
			}
		}
		h.Reset()
		if h.Len() != 0 {
			t.Fatalf("Len %d after Reset", h.Len())
		}
	}
	if n := testing.AllocsPerRun(10, func() {
		h.Reset()
		for i := range 1000 {
			h.Push(math.Float64bits(float64(i%37)), int32(i))
		}
		for h.Len() > 0 {
			h.Pop()
		}
	}); n != 0 {
		t.Errorf("warm use allocates %v times", n)
	}
}
