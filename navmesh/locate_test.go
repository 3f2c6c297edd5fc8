package navmesh

import (
	"math"
	"testing"

	"github.com/cairn-nav/cairn/navmesh/internal/bucket"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// TestVisitPolysStops checks that visitPolys stops at the first emit that
// returns false: newPolyIndex counts the entries of each bucket grid it
// tries only up to its budget, so that a fan of n slivers, about n²/2
// entries on n buckets, costs it O(n) rather than O(n²).
func TestVisitPolysStops(t *testing.T) {
	const n = 2000
	m := &Mesh{verts: []mgl64.Vec2{{0, 0}}}
	for i := range n + 1 {
		m.verts = append(m.verts, mgl64.Vec2{float64(i), 1})
	}
	for i := range int32(n) {
		m.polys = append(m.polys, poly{e0: int32(len(m.ev)), ne: 3})
		m.ev = append(m.ev, 0, i+1, i+2)
	}
	x := &polyIndex{box: geom.Box{Min: mgl64.Vec2{0, 0}, Max: mgl64.Vec2{n, 1}}}
	x.Grid = bucket.New(x.box, n)
	all := 0
	x.visitPolys(m, func(int, int32) bool { all++; return true })
	if all < n*n/4 {
		t.Fatalf("the fan lists %d entries, want about %d", all, n*n/2)
	}
	for _, stop := range []int{1, 10, all / 2} {
		calls := 0
		x.visitPolys(m, func(int, int32) bool { calls++; return calls < stop })
		if calls != stop {
			t.Errorf("emit returned false at call %d; visitPolys called it %d times", stop, calls)
		}
	}
	idx := newPolyIndex(m)
	if budget := 8*len(m.ev) + 1024; idx.Entries() > budget {
		t.Errorf("the index lists %d entries, more than the budget %d", idx.Entries(), budget)
	}
}

// TestContainsEdges checks Contains and ContainsInterior on a triangle with
// a slanting side: a point on an edge or a corner is contained but not in
// the interior, and one an ulp outside is neither.
func TestContainsEdges(t *testing.T) {
	m, err := FromPolygons(orb.MultiPolygon{{{{0, 0}, {7, 0}, {0, 3}, {0, 0}}}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.NumPolys() != 1 {
		t.Fatalf("%d polygons, want 1", m.NumPolys())
	}
	for _, tc := range []struct {
		q            mgl64.Vec2
		in, interior bool
	}{
		{mgl64.Vec2{1, 1}, true, true},
		{mgl64.Vec2{0, 0}, true, false},
		{mgl64.Vec2{3.5, 1.5}, true, false}, // on the slanting side
		{mgl64.Vec2{3.5, math.Nextafter(1.5, 2)}, false, false},
		{mgl64.Vec2{3.5, math.Nextafter(1.5, 1)}, true, true},
		{mgl64.Vec2{0, 1}, true, false},
		{mgl64.Vec2{-1e-300, 1}, false, false},
		{mgl64.Vec2{1e-300, 1}, true, true},
	} {
		if got := m.Contains(0, tc.q); got != tc.in {
			t.Errorf("Contains(%v) = %v, want %v", tc.q, got, tc.in)
		}
		if got := m.ContainsInterior(0, tc.q); got != tc.interior {
			t.Errorf("ContainsInterior(%v) = %v, want %v", tc.q, got, tc.interior)
		}
	}
}
