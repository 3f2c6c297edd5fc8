package bucket

import (
	"math/rand/v2"
	"testing"
)

// TestMoved checks Moved and MovedFrom against the plain loops, on
// lengths round the eight entries they take at a time, with IDs of −1.
func TestMoved(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 40 {
		src := make([]int32, n)
		for i := range src {
			src[i] = int32(r.IntN(50)) - 1
		}
		from, d := int32(r.IntN(50)), int32(r.IntN(20))-10
		got, gotFrom := make([]int32, n), make([]int32, n)
		Moved(got, src, d)
		MovedFrom(gotFrom, src, from, d)
		for i, v := range src {
			if got[i] != v+d {
				t.Fatalf("n %d: Moved gives %d at %d for %d, want %d", n, got[i], i, v, v+d)
			}
			want := v
			if v >= from {
				want += d
			}
			if gotFrom[i] != want {
				t.Fatalf("n %d: MovedFrom(from %d, d %d) gives %d at %d for %d, want %d", n, from, d, gotFrom[i], i, v, want)
			}
		}
	}
}
