package navmesh

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/cairn-nav/cairn/navmesh/internal/tri"
	"github.com/go-gl/mathgl/mgl64"
)

// gridTriangles returns the triangles FromGrid makes of g's free cells
// before merging them (see convex), with their neighbours.
func gridTriangles(g *grid.Grid) (*Mesh, [][3]int32, []int32) {
	m := rectangles(g)
	ts := m.delaunay()
	return m, ts.Tris, ts.Adj
}

// notDelaunay returns the shared edges of tris that the exact in-circle
// test would still flip.
func notDelaunay(pos []mgl64.Vec2, tris [][3]int32, adj []int32) []string {
	var bad []string
	for h, g := range adj {
		if g < 0 {
			continue
		}
		t, k, u, j := h/3, h%3, g/3, g%3
		a, b, c := pos[tris[t][k]], pos[tris[t][(k+1)%3]], pos[tris[t][(k+2)%3]]
		d := pos[tris[u][(int(j)+2)%3]]
		if geom.InCircle(a, b, c, d) > 0 && geom.Orient(a, d, c) > 0 && geom.Orient(d, b, c) > 0 {
			bad = append(bad, fmt.Sprintf("%v–%v (far corners %v, %v)", a, b, c, d))
		}
	}
	return bad
}

// TestFromGridWideDelaunay checks that the triangles FromGrid flips on a
// grid 2²² cells wide and 2 high, one cell of its second row blocked, are
// constrained Delaunay: int64 in-circle tests overflow there.
func TestFromGridWideDelaunay(t *testing.T) {
	if testing.Short() {
		t.Skip("a grid of 2²³ cells in -short mode")
	}
	const w, h = 1 << 22, 2
	free := make([]bool, w*h)
	for i := range free {
		free[i] = i != w+3*w/4
	}
	g, err := grid.New(w, h, free, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, tris, adj := gridTriangles(g)
	if bad := notDelaunay(m.verts, tris, adj); len(bad) > 0 {
		t.Fatalf("%d edges are not locally Delaunay: %v", len(bad), bad)
	}
}

// TestBridgesParallel checks the bridges of a mesh in which two polygons
// share two portals in a row (Read accepts such a mesh of source 3, with a
// vertex in the open between them), with a third polygon hung on by one
// portal:
//
//	(0,0) ── (1,0) ── (2,0) ── (3,0)
//	  │   0    │   1    │   2    │
//	(0,1)    (1,1)    (2,1) ── (3,1)
//	  │        │   1    │
//	(0,2) ── (1,2) ── (2,2)
//
// Neither portal between 0 and 1 is a bridge; the one between 1 and 2 is.
func TestBridgesParallel(t *testing.T) {
	verts := []mgl64.Vec2{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}, {3, 0}, {3, 1}}
	// Faces counter-clockwise with y up, as tri.Merge makes them.
	f := tri.Faces{
		Rings: tri.Rings{
			Start: []int32{0, 6, 12, 16},
			Verts: []int32{0, 3, 4, 5, 2, 1, 3, 6, 7, 8, 5, 4, 6, 9, 10, 7},
		},
		NB: []int32{-1, 1, 1, -1, -1, -1, -1, 2, -1, -1, 0, 0, -1, -1, -1, 1},
	}
	m := faceMesh(verts, f, nil)
	// faceMesh numbers the polygons in its own order: find 1 and 2 by
	// their centroids.
	var one, two PolyID = -1, -1
	for id := range m.polys {
		switch c := m.centroid(PolyID(id)); {
		case c[0] > 1 && c[0] < 2:
			one = PolyID(id)
		case c[0] > 2:
			two = PolyID(id)
		}
	}
	bridges := 0
	for id, p := range m.polys {
		for i := range p.ne {
			e := p.e0 + i
			nb := m.enb[e]
			want := nb >= 0 && (PolyID(id) == one && nb == two || PolyID(id) == two && nb == one)
			if got := m.bridge[e] == bridgePocket; got != want {
				t.Errorf("edge %d of polygon %d (to %d): bridge %v, want %v", i, id, nb, got, want)
			}
			if m.bridge[e] != bridgeNone {
				bridges++
			}
		}
	}
	if bridges != 2 {
		t.Errorf("%d bridge edges, want the 2 halves of one portal", bridges)
	}
}

// TestConvexCombDelaunay checks that the triangles FromGrid flips for a
// corridor 4096 cells long with a doorway on either side at every other
// cell are constrained Delaunay. The corridor's rectangle has 4098 corners
// along each long side; cut into a fan, as it was once, it took O(k²) to
// cut and more flips than flipDelaunay's cap to undo.
func TestConvexCombDelaunay(t *testing.T) {
	const L = 4096
	door := strings.Repeat(".#", L/2)
	open := strings.Repeat(".", L)
	g, err := grid.FromRows([]string{door, open, open, open, open, door}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, tris, adj := gridTriangles(g)
	if bad := notDelaunay(m.verts, tris, adj); len(bad) > 0 {
		t.Fatalf("%d of %d triangles' edges are not locally Delaunay, such as %s", len(bad), len(tris), bad[0])
	}
}
