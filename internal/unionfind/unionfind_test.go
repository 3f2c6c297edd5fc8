package unionfind_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/cairn-nav/cairn/internal/unionfind"
)

// TestForest joins random pairs and checks Find against a naive labelling
// that relabels a whole set on every join, and that each root is its set's
// smallest element.
func TestForest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 200
	f := make(unionfind.Forest, 0, n)
	label := make([]int, n)
	for i := range n {
		f = append(f, int32(i))
		label[i] = i
	}
	for k := range 300 {
		a, b := int32(r.IntN(n)), int32(r.IntN(n))
		root := f.Union(a, b)
		la, lb := label[a], label[b]
		for i := range label {
			if label[i] == lb {
				label[i] = la
			}
		}
		if root != f.Find(a) || root != f.Find(b) {
			t.Fatalf("join %d: Union(%d, %d) = %d, Find gives %d and %d", k, a, b, root, f.Find(a), f.Find(b))
		}
		for i := range n {
			for j := range n {
				if (f.Find(int32(i)) == f.Find(int32(j))) != (label[i] == label[j]) {
					t.Fatalf("join %d: %d and %d together %v, want %v", k, i, j, f.Find(int32(i)) == f.Find(int32(j)), label[i] == label[j])
				}
			}
			if root := f.Find(int32(i)); root > int32(i) {
				t.Fatalf("join %d: root %d of %d is not its set's smallest element", k, root, i)
			}
		}
	}
}

func Example() {
	f := unionfind.Forest{0, 1, 2, 3, 4}
	f.Union(3, 1)
	f.Union(4, 3)
	fmt.Println(f.Find(4), f.Find(2), f.Find(0))
	// Output: 1 2 0
}
