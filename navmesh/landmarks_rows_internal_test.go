package navmesh

import "testing"

// TestByRowsUnnumbered checks that byRows leaves the landmarks of a tiling
// without row numbering (a mesh ReadFor read numbered otherwise than its
// tiles) in one chunk, and cuts them a row a block otherwise.
func TestByRowsUnnumbered(t *testing.T) {
	d := make([]float32, 2*6)
	lm := newLandmarks(2, []int32{0, 5}, 6, d)
	for _, rows := range [][]int32{nil, {}, {0}} {
		if got := lm.byRows(rows); got != lm {
			t.Errorf("rows %v: landmarks cut into %d chunks, want them as they were", rows, len(got.d))
		}
	}
	if got := lm.byRows([]int32{0, 2, 6}); len(got.d) != 2 || len(got.d[0]) != 4 || cap(got.d[0]) != 4 || len(got.d[1]) != 8 {
		t.Errorf("two rows: chunks %d, want 2 of 4 and 8 distances, the first's capacity its own", len(got.d))
	}
}
