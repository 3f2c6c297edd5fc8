package navmesh_test

import (
	"bytes"
	"fmt"
	"image"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
)

// TestUpdateRecycleParent recycles each mesh as soon as the next one is
// made from it, so that every Update writes into the arrays of the mesh
// its own was spliced from, which hold the rows above both bands, and,
// when the second band gives back what the first took (a wall put up,
// then taken down), the rows below both too (see navmesh's lineage). Each
// mesh must be FromGrid's, as TestUpdate checks, and enough Updates must
// have taken rows both ways for the test to say anything.
func TestUpdateRecycleParent(t *testing.T) {
	var above, below, updates int
	for seed := int64(1); seed <= 8; seed++ {
		w, h := 30+int(seed%4), 60+int(seed%5)*3
		g := testmap.Random(seed, w, h, 0.04*float64(seed%4), grid.Options{})
		size := []int{8, 5, 6, 4}[seed%4]
		opt := navmesh.Options{TileSize: size}
		m := tiledMesh(t, g, size)
		r := testmap.NewRand(seed)
		var rc image.Rectangle
		var free bool
		for step := range 30 {
			if step%3 != 1 { // a new edit; then the same cells back as they were
				rc, free = randomEdit(r, w, h, size)
			} else {
				free = !free
			}
			g.SetCells(rc, free)
			where := fmt.Sprintf("seed %d tile %d step %d: SetCells(%v, %v)", seed, size, step, rc, free)
			um, err := m.Update(g, rc)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if um == m {
				continue
			}
			m.Recycle()
			m = um
			updates++
			a, b, rows := navmesh.SpliceKept(m)
			if a > 0 {
				above++
			}
			if b < rows {
				below++
			}
			fm, err := navmesh.FromGrid(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := polygonSet(m), polygonSet(fm); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("%s (rows above %d, from %d of %d kept): Update's mesh has %d polygons, FromGrid's %d, not the same", where, a, b, rows, len(got), len(want))
			}
			if !bytes.Equal(encodeMesh(t, m, g), encodeMesh(t, fm, g)) {
				t.Fatalf("%s (rows above %d, from %d of %d kept): Update's mesh writes other bytes than FromGrid's", where, a, b, rows)
			}
			if !navmesh.SameIndex(m, fm) {
				t.Fatalf("%s: Update's point index differs from FromGrid's", where)
			}
			if !navmesh.SamePruning(m, fm) {
				t.Fatalf("%s (rows above %d, from %d of %d kept): Update's bridges, numbers or components differ from FromGrid's", where, a, b, rows)
			}
			checkInTiles(t, m, size, where)
			sameAnswers(t, m, fm, g, r, where)
		}
	}
	t.Logf("%d updates: %d took rows above their band from the spare arrays, %d rows below", updates, above, below)
	if above < updates/3 || below < updates/12 {
		t.Errorf("of %d updates, only %d took rows above their band from the spare arrays and %d rows below", updates, above, below)
	}
}
