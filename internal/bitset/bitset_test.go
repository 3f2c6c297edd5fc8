package bitset

import (
	"math/rand/v2"
	"testing"
)

// TestWord reads words at every offset from before the first word to past
// the last against bit-by-bit reads.
func TestWord(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for n := range 4 {
		words := make([]uint64, n)
		for i := range words {
			words[i] = r.Uint64()
		}
		bit := func(i int) uint64 {
			if i < 0 || i >= 64*n {
				return 0
			}
			return words[i>>6] >> (i & 63) & 1
		}
		for off := -70; off < 64*n+70; off++ {
			var want uint64
			for i := range 64 {
				want |= bit(off+i) << i
			}
			if got := Word(words, off); got != want {
				t.Fatalf("%d words, offset %d: %#x, want %#x", n, off, got, want)
			}
		}
	}
}
