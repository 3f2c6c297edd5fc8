package tri

import (
	"math"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/go-gl/mathgl/mgl64"
)

// TestDelaunayIntWide checks delaunayInt on two triangles whose in-circle
// determinant does not fit in an int64, or whose corners are not on the
// integers: it must flip their shared edge exactly when the exact test of
// delaunay does. The strip is what a grid
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
		// Off the integers (rectangles of unequal sides, as a grid's radius
		// raster makes): truncated, the four corners would be a unit
		// square's, on one circle, and keep the edge; d lies inside.
		{"fractions", mgl64.Vec2{0, 0}, mgl64.Vec2{1.5, 1.5}, mgl64.Vec2{0, 1.5}, mgl64.Vec2{1.2, 0.3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos := []mgl64.Vec2{tt.a, tt.b, tt.c, tt.d}
			want := [][3]int32{{0, 1, 2}, {1, 0, 3}}
			wantAdj := Neighbors(len(pos), want)
			delaunay(pos, want, wantAdj)
			got := [][3]int32{{0, 1, 2}, {1, 0, 3}}
			adj := Neighbors(len(pos), got)
			delaunayInt(pos, got, adj)
			if !slices.Equal(got, want) || !slices.Equal(adj, wantAdj) {
				t.Fatalf("delaunayInt gives %v, want %v (the exact flips) on %v", got, want, pos)
			}
			if tt.name == "fractions" && slices.Equal(got, [][3]int32{{0, 1, 2}, {1, 0, 3}}) {
				t.Fatalf("no flip on %v: d is inside the circle of a, b, c", pos)
			}
		})
	}
}

// TestPairEdges checks PairEdges (through Neighbors) against a map of directed edges, on a fan
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
		got := Neighbors(nv, tris)
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
// 18 s while PairEdges looked through a vertex's edges for each twin.
func BenchmarkPairEdgesFan(b *testing.B) {
	const n = 100000
	tris := make([][3]int32, 0, n)
	for i := range int32(n) {
		tris = append(tris, [3]int32{0, i + 1, i + 2})
	}
	for b.Loop() {
		if adj := Neighbors(n+2, tris); adj[2] != 3 {
			b.Fatalf("twin of half-edge 2 is %d, want 3", adj[2])
		}
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

// TestEarsBridgeByDistance cuts a square with a grid of square holes, with
// holes joined by Eberly's choice and by distance alone: each way the
// triangles must be counter-clockwise, n+2h−2 of them for n points and h
// holes, cover the area exactly, and have for walls exactly the rings'
// edges.
func TestEarsBridgeByDistance(t *testing.T) {
	var pos []mgl64.Vec2
	ring := func(pts ...[2]float64) []int32 {
		var vs []int32
		for _, p := range pts {
			vs = append(vs, int32(len(pos)))
			pos = append(pos, mgl64.Vec2{p[0], p[1]})
		}
		return vs
	}
	pg := Polygon{Outer: ring([2]float64{0, 0}, [2]float64{20, 0}, [2]float64{20, 20}, [2]float64{0, 20})}
	for y := 2.0; y < 18; y += 4 {
		for x := 2.0; x < 18; x += 4 {
			pg.Holes = append(pg.Holes, ring([2]float64{x, y}, [2]float64{x, y + 2}, [2]float64{x + 2, y + 2}, [2]float64{x + 2, y}))
		}
	}
	walls := map[[2]int32]bool{}
	for _, r := range append([][]int32{pg.Outer}, pg.Holes...) {
		for i, v := range r {
			walls[[2]int32{v, r[(i+1)%len(r)]}] = true
		}
	}
	for _, byDistance := range []bool{false, true} {
		ts, err := Ears(Input{Pos: pos, Polygons: []Polygon{pg}, Options: Options{BridgeByDistance: byDistance}})
		if err != nil {
			t.Fatalf("by distance %v: %v", byDistance, err)
		}
		if want := len(pos) + 2*len(pg.Holes) - 2; len(ts.Tris) != want {
			t.Fatalf("by distance %v: %d triangles, want %d", byDistance, len(ts.Tris), want)
		}
		var twice float64
		for h, tr := range ts.Tris {
			a, b, c := pos[tr[0]], pos[tr[1]], pos[tr[2]]
			o := (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
			if o <= 0 {
				t.Fatalf("by distance %v: triangle %d %v %v %v is flat or clockwise", byDistance, h, a, b, c)
			}
			twice += o
		}
		if want := 2 * (400 - 4*float64(len(pg.Holes))); twice != want {
			t.Fatalf("by distance %v: twice the area %v, want %v", byDistance, twice, want)
		}
		got := 0
		for h, nb := range ts.Adj {
			if nb >= 0 {
				continue
			}
			tr := ts.Tris[h/3]
			if e := [2]int32{tr[h%3], tr[(h%3+1)%3]}; !walls[e] {
				t.Fatalf("by distance %v: edge %v has no triangle across, but is no wall", byDistance, e)
			}
			got++
		}
		if got != len(walls) {
			t.Fatalf("by distance %v: %d walls, want %d", byDistance, got, len(walls))
		}
	}
}
