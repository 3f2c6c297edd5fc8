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
// mesh must be FromGrid's, as TestUpdate checks (some of the grids with
// area types), and enough Updates must
// have taken rows both ways for the test to say anything.
func TestUpdateRecycleParent(t *testing.T) {
	var above, below, updates int
	for seed := int64(1); seed <= 8; seed++ {
		w, h := 30+int(seed%4), 60+int(seed%5)*3
		g := testmap.Random(seed, w, h, 0.04*float64(seed%4), grid.Options{})
		if seed%3 == 0 {
			g = testmap.RandomAreas(seed, w, h, 0.1) // area types too
		}
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

// TestUpdateAreaCorners runs the edits of a grid with area types after
// which an Update once left a vertex on its band's first line flagged as a
// corner of the walls that no longer was one (the line's vertices stayed,
// at an area's border, so the band did not take in the row above, which
// numbers them): each mesh must write FromGrid's bytes, recycling or not.
func TestUpdateAreaCorners(t *testing.T) {
	edits := []struct {
		r    image.Rectangle
		free bool
	}{
		{image.Rect(0, 14, 26, 15), false}, {image.Rect(0, 14, 26, 15), true},
		{image.Rect(0, 1, 26, 3), false},
		{image.Rect(0, 19, 26, 21), false}, {image.Rect(0, 19, 26, 21), true},
		{image.Rect(0, 21, 26, 23), false},
		{image.Rect(0, 19, 26, 22), true}, {image.Rect(0, 19, 26, 22), false},
		{image.Rect(0, 7, 26, 8), true},
	}
	for _, recycle := range []bool{false, true} {
		g := testmap.RandomAreas(3, 26, 28, 0.1)
		opt := navmesh.Options{TileSize: 7}
		m := tiledMesh(t, g, 7)
		for i, e := range edits {
			g.SetCells(e.r, e.free)
			um, err := m.Update(g, e.r)
			if err != nil {
				t.Fatal(err)
			}
			if recycle {
				m.Recycle()
			}
			m = um
			fm, err := navmesh.FromGrid(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(encodeMesh(t, m, g), encodeMesh(t, fm, g)) {
				t.Fatalf("recycle %v, edit %d SetCells(%v, %v): Update's mesh writes other bytes than FromGrid's", recycle, i, e.r, e.free)
			}
		}
	}
}
