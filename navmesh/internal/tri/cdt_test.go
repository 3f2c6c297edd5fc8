package tri

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/go-gl/mathgl/mgl64"
)

// withIslands adds to in, inside each of its first k holes, a polygon: the
// hole shrunk to half round its centre and turned counter-clockwise.
func withIslands(in Input, k int) Input {
	s := shape{pos: slices.Clone(in.Pos), pgs: slices.Clone(in.Polygons)}
	for _, h := range in.Polygons[0].Holes[:min(k, len(in.Polygons[0].Holes))] {
		var c mgl64.Vec2
		for _, v := range h {
			c = c.Add(in.Pos[v])
		}
		c = c.Mul(1 / float64(len(h)))
		pts := make([]mgl64.Vec2, len(h))
		for i, v := range h {
			pts[len(h)-1-i] = c.Add(in.Pos[v].Sub(c).Mul(0.5))
		}
		s.polygon(pts)
	}
	return s.input()
}

// TestTriangulateRandom checks Triangulate on seeded random star-shaped
// polygons of 5 to 64 vertices with up to 24 holes, some with islands in
// their holes, at scales from 2⁻⁴⁰ to 2⁴⁰ and moved off the origin,
// against the oracle (checkCDT), and against ear clipping and Lawson's
// flips, which must give the same triangles where the constrained
// Delaunay triangulation is unique (no four cocircular points): nearly
// always, at random real coordinates.
func TestTriangulateRandom(t *testing.T) {
	compared := 0
	const seeds = 300
	for seed := int64(1); seed <= seeds; seed++ {
		rnd := testmap.NewRand(seed)
		in := starWithHoles(rnd, 5+rnd.IntN(60), rnd.IntN(25))
		if len(in.Polygons[0].Holes) > 0 && rnd.IntN(3) == 0 {
			in = withIslands(in, 1+rnd.IntN(4))
		}
		s, off := math.Ldexp(1, rnd.IntN(81)-40), mgl64.Vec2{rnd.NormFloat64(), rnd.NormFloat64()}
		for i, p := range in.Pos {
			in.Pos[i] = p.Add(off).Mul(s)
		}
		got, err := Triangulate(in)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if msg := checkCDT(in, got, true); msg != "" {
			t.Fatalf("seed %d: %s", seed, msg)
		}
		want, err := earsDelaunay(in)
		if err != nil {
			t.Fatalf("seed %d: ear clipping: %v", seed, err)
		}
		if msg := checkCDT(in, want, true); msg != "" {
			t.Fatalf("seed %d: ear clipping and flips: %s", seed, msg)
		}
		if unique(in.Pos, got) {
			compared++
			if g, w := canonical(got.Tris), canonical(want.Tris); !slices.Equal(g, w) {
				t.Fatalf("seed %d: triangles\n%v\nwant (ear clipping and flips)\n%v", seed, g, w)
			}
		}
	}
	if compared < seeds*9/10 {
		t.Fatalf("only %d of %d triangulations were unique to compare", compared, seeds)
	}
}

// degenerateCases are inputs with collinear and cocircular points, long
// thin triangles, and many holes, each valid by construction.
func degenerateCases() []struct {
	name string
	in   Input
} {
	var cases []struct {
		name string
		in   Input
	}
	add := func(name string, pgs ...[][]mgl64.Vec2) {
		var s shape
		for _, pg := range pgs {
			s.polygon(pg[0], pg[1:]...)
		}
		cases = append(cases, struct {
			name string
			in   Input
		}{name, s.input()})
	}
	for _, n := range []int{3, 4, 5, 6, 8, 12, 100, 1000} {
		add(fmt.Sprintf("regular %d", n), [][]mgl64.Vec2{regular(n, 1, mgl64.Vec2{})})
	}
	add("regular 1000 far off", [][]mgl64.Vec2{regular(1000, 1e6, mgl64.Vec2{3e7, -1e7})})
	add("lattice circle", [][]mgl64.Vec2{latticeCircle(5525)})
	add("lattice circle round lattice circle", [][]mgl64.Vec2{latticeCircle(5525), reversed(latticeCircle(65))})
	for _, k := range []int{1, 2, 10, 1000, 3000} {
		add(fmt.Sprintf("square of %d a side", k), [][]mgl64.Vec2{squareEdges(k)})
	}
	add("square round square", [][]mgl64.Vec2{squareEdges(40), reversed(moved(squareEdges(10), mgl64.Vec2{15, 15}))})
	add("comb of 50 long teeth", [][]mgl64.Vec2{comb(50, 100)})
	add("comb of 500 short teeth", [][]mgl64.Vec2{comb(500, 1)})
	add("spiral", [][]mgl64.Vec2{spiral(5, 400, 1)})
	grid := [][]mgl64.Vec2{square(0, 0, 41, false)}
	for y := 1.0; y < 40; y += 4 {
		for x := 1.0; x < 40; x += 4 {
			grid = append(grid, square(x, y, 2, true))
		}
	}
	add("grid of 100 holes", grid)
	add("nested", [][]mgl64.Vec2{square(0, 0, 12, false), square(2, 2, 8, true)},
		[][]mgl64.Vec2{square(3, 3, 6, false), square(5, 5, 2, true)},
		[][]mgl64.Vec2{square(20, 0, 1, false)})
	add("sliver", [][]mgl64.Vec2{{{0, 0}, {1e6, 1}, {0, 2}}})
	for seed := int64(1); seed <= 3; seed++ {
		// Long thin spikes: segments that cross many triangles, some of
		// them all the triangles round a vertex.
		in := starWithHoles(testmap.NewRand(seed), 2000, 30)
		cases = append(cases, struct {
			name string
			in   Input
		}{fmt.Sprintf("spiky star %d", seed), in})
	}
	return cases
}

func reversed(pts []mgl64.Vec2) []mgl64.Vec2 {
	pts = slices.Clone(pts)
	slices.Reverse(pts)
	return pts
}

func moved(pts []mgl64.Vec2, d mgl64.Vec2) []mgl64.Vec2 {
	for i := range pts {
		pts[i] = pts[i].Add(d)
	}
	return pts
}

// TestTriangulateDegenerate checks Triangulate on degenerateCases against
// the oracle, and, below 2,500 vertices, ear clipping and flips against
// it too, with the same triangles where the triangulation is unique.
func TestTriangulateDegenerate(t *testing.T) {
	for _, tc := range degenerateCases() {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			small := nVerts(in) < 2500
			got, err := Triangulate(in)
			if err != nil {
				t.Fatal(err)
			}
			if msg := checkCDT(in, got, small); msg != "" {
				t.Fatal(msg)
			}
			if !small {
				return
			}
			want, err := earsDelaunay(in)
			if err != nil {
				t.Fatalf("ear clipping: %v", err)
			}
			if msg := checkCDT(in, want, true); msg != "" {
				t.Fatalf("ear clipping and flips: %s", msg)
			}
			if unique(in.Pos, got) {
				if g, w := canonical(got.Tris), canonical(want.Tris); !slices.Equal(g, w) {
					t.Fatalf("triangles\n%v\nwant (ear clipping and flips)\n%v", g, w)
				}
			}
		})
	}
}

// TestTriangulateCanonical checks that the output depends on the
// triangles alone: a polygon with its rings started at another vertex and
// its holes in another order (so inserted in another order) comes out the
// same, each triangle from its least corner and the triangles sorted.
func TestTriangulateCanonical(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		rnd := testmap.NewRand(seed)
		in := starWithHoles(rnd, 5+rnd.IntN(60), rnd.IntN(25))
		a, err := Triangulate(in)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !slices.Equal(a.Tris, canonical(a.Tris)) {
			t.Fatalf("seed %d: triangles %v not in order", seed, a.Tris)
		}
		pg := in.Polygons[0]
		turn := func(r []int32) []int32 {
			k := rnd.IntN(len(r))
			return append(slices.Clone(r[k:]), r[:k]...)
		}
		other := Polygon{Outer: turn(pg.Outer)}
		for _, h := range pg.Holes {
			other.Holes = append(other.Holes, turn(h))
		}
		rnd.Shuffle(len(other.Holes), func(i, j int) { other.Holes[i], other.Holes[j] = other.Holes[j], other.Holes[i] })
		b, err := Triangulate(Input{Pos: in.Pos, Polygons: []Polygon{other}})
		if err != nil {
			t.Fatalf("seed %d, rings turned: %v", seed, err)
		}
		if !unique(in.Pos, a) {
			continue
		}
		if !slices.Equal(a.Tris, b.Tris) || !slices.Equal(a.Adj, b.Adj) {
			t.Fatalf("seed %d: rings turned give\n%v %v\nwant\n%v %v", seed, b.Tris, b.Adj, a.Tris, a.Adj)
		}
	}
}

// TestTriangulateErrors checks that Triangulate refuses input that is
// not simple in the ways it can tell, with an *Error naming the polygon
// (the second of two, the first a valid square).
func TestTriangulateErrors(t *testing.T) {
	sq := [][]mgl64.Vec2{square(-20, -20, 5, false)}
	tests := []struct {
		name string
		pg   [][]mgl64.Vec2
		edit func(in *Input)
		msg  string
	}{
		{"hole touching the outer ring", [][]mgl64.Vec2{square(0, 0, 10, false), {{0, 0}, {2, 5}, {5, 2}}}, nil, "same position"},
		{"vertex in two rings", [][]mgl64.Vec2{square(0, 0, 10, false), {{1, 1}, {2, 5}, {5, 2}}}, func(in *Input) {
			in.Polygons[1].Holes[0][0] = in.Polygons[1].Outer[0]
		}, "in two rings"},
		{"outer ring clockwise", [][]mgl64.Vec2{square(0, 0, 10, true)}, nil, "wrong way round"},
		{"hole counter-clockwise", [][]mgl64.Vec2{square(0, 0, 10, false), square(2, 2, 3, false)}, nil, "wrong way round"},
		{"hole across the outer ring", [][]mgl64.Vec2{square(0, 0, 10, false), {{8, 4}, {8, 6}, {12, 5}}}, nil, "crosses"},
		{"hole outside", [][]mgl64.Vec2{square(0, 0, 10, false), square(12, 2, 3, true)}, nil, "rings cross"},
		{"ring of two", [][]mgl64.Vec2{square(0, 0, 10, false), {{1, 1}, {2, 2}}}, nil, "2 vertices"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s shape
			s.polygon(sq[0])
			s.polygon(tc.pg[0], tc.pg[1:]...)
			in := s.input()
			if tc.edit != nil {
				tc.edit(&in)
			}
			_, err := Triangulate(in)
			e, ok := errors.AsType[*Error](err)
			if !ok || e.Polygon != 1 || !strings.Contains(e.Problem, tc.msg) {
				t.Fatalf("Triangulate: %v, want an *Error for polygon 1 saying %q", err, tc.msg)
			}
		})
	}
}

// TestTriangulateSplit checks a ring edge through a vertex of another
// ring, which simple input does not have: Triangulate splits the edge
// there, and the triangles still cover the area, walled by the pieces.
//
//	(0,10) ────── (10,10)
//	  │        (9,6)  │
//	  │          │ ╲  │
//	  │          │  (10,5)
//	  │          │ ╱  │
//	  │        (9,4)  │
//	(0,0) ─────── (10,0)
func TestTriangulateSplit(t *testing.T) {
	var s shape
	s.polygon(square(0, 0, 10, false), []mgl64.Vec2{{9, 4}, {9, 6}, {10, 5}})
	in := s.input()
	got, err := Triangulate(in)
	if err != nil {
		t.Fatal(err)
	}
	// Vertices 0–3 are the square's corners, 4–6 the hole's.
	want := map[[2]int32]bool{{0, 1}: true, {1, 6}: true, {6, 2}: true, {2, 3}: true, {3, 0}: true, {4, 5}: true, {5, 6}: true, {6, 4}: true}
	walls := map[[2]int32]bool{}
	twice := 0.0
	for h, g := range got.Adj {
		tr := got.Tris[h/3]
		if g < 0 {
			walls[[2]int32{tr[h%3], tr[(h%3+1)%3]}] = true
		}
		if h%3 == 0 {
			a, b, c := in.Pos[tr[0]], in.Pos[tr[1]], in.Pos[tr[2]]
			twice += (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0])
		}
	}
	if !maps.Equal(walls, want) || twice != 2*(100-1) {
		t.Fatalf("walls %v and twice the area %v, want %v and %v", walls, twice, want, 2*(100-1))
	}
}

// TestTriangulateBridgeByDistance checks that Options.BridgeByDistance
// still cuts by ear clipping, with the bridges made by distance, as
// package navmesh's tests of the bridge search need.
func TestTriangulateBridgeByDistance(t *testing.T) {
	in := starWithHoles(testmap.NewRand(4), 40, 20)
	in.Options.BridgeByDistance = true
	got, err := Triangulate(in)
	if err != nil {
		t.Fatal(err)
	}
	want, err := earsDelaunay(in)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Tris, want.Tris) || !slices.Equal(got.Adj, want.Adj) {
		t.Fatalf("triangles %v, want ear clipping's %v", got.Tris, want.Tris)
	}
}

// FuzzTriangulate checks Triangulate against the oracle, and against
// ear clipping and flips where the triangulation is unique, on random
// star-shaped polygons with holes drawn from the seed, scaled by a power
// of two.
func FuzzTriangulate(f *testing.F) {
	f.Add(int64(1), uint16(10), uint8(3), int8(0))
	f.Add(int64(2), uint16(300), uint8(60), int8(-30))
	f.Add(int64(3), uint16(5), uint8(0), int8(40))
	f.Fuzz(func(t *testing.T, seed int64, n uint16, h uint8, scale int8) {
		rnd := rand.New(rand.NewPCG(uint64(seed), 7))
		in := starWithHoles(rnd, 5+int(n%500), int(h%80))
		s := math.Ldexp(1, int(scale%60))
		for i, p := range in.Pos {
			in.Pos[i] = p.Mul(s)
		}
		got, err := Triangulate(in)
		if err != nil {
			t.Fatal(err)
		}
		if msg := checkCDT(in, got, false); msg != "" {
			t.Fatal(msg)
		}
		if want, err := earsDelaunay(in); err == nil && unique(in.Pos, got) {
			if g, w := canonical(got.Tris), canonical(want.Tris); !slices.Equal(g, w) {
				t.Fatalf("triangles\n%v\nwant (ear clipping and flips)\n%v", g, w)
			}
		}
	})
}
