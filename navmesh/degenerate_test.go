package navmesh

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/go-gl/mathgl/mgl64"
)

// TestDelaunayIntWide checks delaunayInt on two triangles whose in-circle
// determinant does not fit in an int64: it must flip their shared edge
// exactly when the exact test of delaunay does. The strip is what a grid
// 2²² cells wide and 2 high gives (grid.New accepts it); the square spans
// less than 2²⁰, where the int64 test was once said to be exact.
func TestDelaunayIntWide(t *testing.T) {
	const W, D = 1 << 22, 1 << 19
	tests := []struct {
		name       string
		a, b, c, d mgl64.Vec2 // triangles (a, b, c) and (b, a, d), y up
	}{
		{"strip", mgl64.Vec2{W, 1}, mgl64.Vec2{0, 0}, mgl64.Vec2{W, 0}, mgl64.Vec2{3*W/4 + 1, 1}},
		{"square", mgl64.Vec2{0, 0}, mgl64.Vec2{D, D}, mgl64.Vec2{0, D}, mgl64.Vec2{D/2 + 1, D/2 - 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := []mgl64.Vec2{tt.a, tt.b, tt.c, tt.d}
			want := [][3]int32{{0, 1, 2}, {1, 0, 3}}
			wantAdj := triangleNeighbors(len(pos), want)
			delaunay(pos, want, wantAdj)
			got := [][3]int32{{0, 1, 2}, {1, 0, 3}}
			adj := triangleNeighbors(len(pos), got)
			delaunayInt(pos, got, adj)
			if !slices.Equal(got, want) || !slices.Equal(adj, wantAdj) {
				t.Fatalf("delaunayInt gives %v, want %v (the exact flips) on %v", got, want, pos)
			}
		})
	}
}

// gridTriangles returns the triangles FromGrid makes of g's free cells
// before merging them (see convex), with their neighbours.
func gridTriangles(g *grid.Grid) (*Mesh, [][3]int32, []int32) {
	m := rectangles(g)
	tris, adj := m.delaunay()
	return m, tris, adj
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
		if inCircle(a, b, c, d) > 0 && orient(a, d, c) > 0 && orient(d, b, c) > 0 {
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

// TestPairEdges checks pairEdges against a map of directed edges, on a fan
// of triangles round one vertex (each of whose spokes starts or ends
// there) and on random triangles with repeated edges, where the twin is
// the first half-edge the other way round.
func TestPairEdges(t *testing.T) {
	r := testmap.NewRand(3)
	fan := make([][3]int32, 0, 2000)
	for i := range int32(2000) {
		fan = append(fan, [3]int32{0, i + 1, i + 2})
	}
	random := make([][3]int32, 3000)
	for i := range random {
		for k := range 3 {
			random[i][k] = int32(r.IntN(40))
		}
	}
	for _, tris := range [][][3]int32{fan, random} {
		nv := 0
		for _, tr := range tris {
			nv = max(nv, int(slices.Max(tr[:]))+1)
		}
		first := map[[2]int32]int32{}
		for h := int32(3*len(tris)) - 1; h >= 0; h-- {
			tr := tris[h/3]
			first[[2]int32{tr[h%3], tr[(h%3+1)%3]}] = h
		}
		got := triangleNeighbors(nv, tris)
		for h := range int32(3 * len(tris)) {
			tr := tris[h/3]
			want, ok := first[[2]int32{tr[(h%3+1)%3], tr[h%3]}]
			if !ok {
				want = -1
			}
			if got[h] != want {
				t.Fatalf("%d triangles: twin of half-edge %d is %d, want %d", len(tris), h, got[h], want)
			}
		}
	}
}

// BenchmarkPairEdgesFan pairs the edges of a fan of triangles round one
// vertex, as ear clipping a convex polygon makes: 100,000 triangles took
// 18 s while pairEdges looked through a vertex's edges for each twin.
func BenchmarkPairEdgesFan(b *testing.B) {
	const n = 100000
	tris := make([][3]int32, 0, n)
	for i := range int32(n) {
		tris = append(tris, [3]int32{0, i + 1, i + 2})
	}
	for b.Loop() {
		if adj := triangleNeighbors(n+2, tris); adj[2] != 3 {
			b.Fatalf("twin of half-edge 2 is %d, want 3", adj[2])
		}
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
	// Faces counter-clockwise with y up, as mergeConvex makes them.
	f := faces{
		start: []int32{0, 6, 12, 16},
		verts: []int32{0, 3, 4, 5, 2, 1, 3, 6, 7, 8, 5, 4, 6, 9, 10, 7},
		nb:    []PolyID{-1, 1, 1, -1, -1, -1, -1, 2, -1, -1, 0, 0, -1, -1, -1, 1},
	}
	m := faceMesh(verts, f, nil)
	bridges := 0
	for id, p := range m.polys {
		for i := range p.ne {
			e := p.e0 + i
			nb := m.enb[e]
			want := nb >= 0 && min(PolyID(id), nb) == 1 && max(PolyID(id), nb) == 2
			if m.bridge[e] != want {
				t.Errorf("edge %d of polygon %d (to %d): bridge %v, want %v", i, id, nb, m.bridge[e], want)
			}
			if m.bridge[e] {
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

// TestStripRect cuts random rectangles, with random points along their
// sides and listed from a random one, into triangles and checks them: k−2
// of them for k points, none flat, all counter-clockwise, covering the
// rectangle (the areas add up, each side piece is an edge of one triangle,
// and every other edge is shared by two, once each way round).
func TestStripRect(t *testing.T) {
	r := testmap.NewRand(5)
	for n := range 2000 {
		x0, y0 := float64(r.IntN(20)), float64(r.IntN(20))
		x1, y1 := x0+1+float64(r.IntN(12)), y0+1+float64(r.IntN(12))
		var pos []mgl64.Vec2
		side := func(a, b mgl64.Vec2) {
			pos = append(pos, a)
			d := b.Sub(a)
			steps := int(math.Abs(d[0]) + math.Abs(d[1]))
			for s := 1; s < steps; s++ {
				if r.IntN(3) == 0 {
					pos = append(pos, a.Add(d.Mul(float64(s)/float64(steps))))
				}
			}
		}
		side(mgl64.Vec2{x0, y0}, mgl64.Vec2{x1, y0})
		side(mgl64.Vec2{x1, y0}, mgl64.Vec2{x1, y1})
		side(mgl64.Vec2{x1, y1}, mgl64.Vec2{x0, y1})
		side(mgl64.Vec2{x0, y1}, mgl64.Vec2{x0, y0})
		k := len(pos)
		vs := make([]int32, k)
		first := r.IntN(k)
		for i := range vs {
			vs[i] = int32((first + i) % k)
		}
		tris := stripRect(pos, vs, nil)
		if len(tris) != k-2 {
			t.Fatalf("case %d: %d triangles for %d points", n, len(tris), k)
		}
		edges := map[[2]int32]int{}
		var area float64
		for _, tr := range tris {
			a, b, c := pos[tr[0]], pos[tr[1]], pos[tr[2]]
			o := (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
			if o <= 0 {
				t.Fatalf("case %d: triangle %v %v %v is flat or clockwise", n, a, b, c)
			}
			area += o / 2
			for i := range 3 {
				edges[[2]int32{tr[i], tr[(i+1)%3]}]++
			}
		}
		if want := (x1 - x0) * (y1 - y0); area != want {
			t.Fatalf("case %d: area %v, want %v", n, area, want)
		}
		for i := range k {
			e := [2]int32{vs[i], vs[(i+1)%k]}
			if edges[e] != 1 || edges[[2]int32{e[1], e[0]}] != 0 {
				t.Fatalf("case %d: side piece %v is in %d triangles", n, e, edges[e])
			}
			delete(edges, e)
		}
		for e, c := range edges {
			if c != 1 || edges[[2]int32{e[1], e[0]}] != 1 {
				t.Fatalf("case %d: inner edge %v used %d times, its reverse %d", n, e, c, edges[[2]int32{e[1], e[0]}])
			}
		}
	}
}
