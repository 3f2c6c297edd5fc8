package tri

import (
	"fmt"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/go-gl/mathgl/mgl64"
)

// benchCase is an input the benchmarks cut, made when a benchmark runs,
// and whether ear clipping (the baseline) ends in reasonable time on it.
type benchCase struct {
	name string
	in   func() Input
	ears bool
}

func one(name string, pts func() []mgl64.Vec2, ears bool) benchCase {
	return benchCase{name: name, ears: ears, in: func() Input {
		var s shape
		s.polygon(pts())
		return s.input()
	}}
}

// benchCases are the inputs of BenchmarkTriangulate: ear clipping took
// 2.8 s on the 5,000-gon, 16.5 s on the square with 20,000 points a side,
// 17 s and 1.8 GB on a 100,000-vertex circle, and did not end in 10
// minutes on 1,000,000.
func benchCases() []benchCase {
	var cs []benchCase
	for _, n := range []int{8, 32, 128, 512, 2048} {
		cs = append(cs, benchCase{name: fmt.Sprintf("star%d", n), ears: true, in: func() Input {
			return starWithHoles(testmap.NewRand(int64(n)), n, 0)
		}})
		cs = append(cs, benchCase{name: fmt.Sprintf("star%d-holes%d", n, n/8), ears: true, in: func() Input {
			return starWithHoles(testmap.NewRand(int64(n)), n, n/8)
		}})
	}
	return append(cs,
		one("ngon5000", func() []mgl64.Vec2 { return regular(5000, 1000, mgl64.Vec2{}) }, true),
		one("square2000", func() []mgl64.Vec2 { return squareEdges(2000) }, true),
		one("square20000", func() []mgl64.Vec2 { return squareEdges(20000) }, false),
		one("comb1000", func() []mgl64.Vec2 { return comb(1000, 100) }, true),
		one("comb20000", func() []mgl64.Vec2 { return comb(20000, 100) }, false),
		one("spiral", func() []mgl64.Vec2 { return spiral(20, 10000, 1) }, false),
		one("circle100k", func() []mgl64.Vec2 { return regular(100000, 1e4, mgl64.Vec2{}) }, false),
		one("circle1M", func() []mgl64.Vec2 { return regular(1000000, 1e4, mgl64.Vec2{}) }, false),
		benchCase{name: "star100k-holes1000", in: starHoles100k},
	)
}

// starHoles100k is a star-shaped polygon with 1,000 holes, 100,000
// vertices in all: its spikes are long and thin, each ring edge crossing
// about 30 triangles of the Delaunay triangulation.
func starHoles100k() Input {
	in := starWithHoles(testmap.NewRand(100), 96500, 1000)
	if n := nVerts(in); n < 99000 || n > 101000 {
		panic(fmt.Sprintf("star with holes has %d vertices", n))
	}
	return in
}

// BenchmarkTriangulate cuts benchCases by Triangulate, each checked
// against the oracle first (but for the inside test, quadratic), and,
// under ears/, the same by ear clipping and flips where that ends in
// reasonable time.
func BenchmarkTriangulate(b *testing.B) {
	for _, bc := range benchCases() {
		b.Run(bc.name, func(b *testing.B) {
			in := bc.in()
			n := nVerts(in)
			ts, err := Triangulate(in)
			if err != nil {
				b.Fatal(err)
			}
			if msg := checkCDT(in, ts, false); msg != "" {
				b.Fatal(msg)
			}
			b.ReportAllocs()
			for b.Loop() {
				ts, err := Triangulate(in)
				if err != nil || len(ts.Tris) < n-2 {
					b.Fatalf("%d triangles for %d vertices, %v", len(ts.Tris), n, err)
				}
			}
			b.ReportMetric(float64(n), "vertices")
		})
	}
	for _, bc := range benchCases() {
		if !bc.ears {
			continue
		}
		b.Run("ears/"+bc.name, func(b *testing.B) {
			in := bc.in()
			n := nVerts(in)
			b.ReportAllocs()
			for b.Loop() {
				ts, err := earsDelaunay(in)
				if err != nil || len(ts.Tris) < n-2 {
					b.Fatalf("%d triangles for %d vertices, %v", len(ts.Tris), n, err)
				}
			}
			b.ReportMetric(float64(n), "vertices")
		})
	}
}

// BenchInputs returns, by name, inputs of BenchmarkTriangulate as rings
// of points, each polygon's outer ring first, for the benchmark of
// package navmesh's FromPolygons in package tri_test, which may import
// navmesh.
func BenchInputs() map[string][][][]mgl64.Vec2 {
	out := map[string][][][]mgl64.Vec2{}
	for _, bc := range benchCases() {
		if bc.name != "star100k-holes1000" && bc.name != "circle1M" && bc.name != "comb20000" {
			continue
		}
		in := bc.in()
		var pgs [][][]mgl64.Vec2
		for _, pg := range in.Polygons {
			var rings [][]mgl64.Vec2
			for _, r := range append([][]int32{pg.Outer}, pg.Holes...) {
				pts := make([]mgl64.Vec2, len(r))
				for i, v := range r {
					pts[i] = in.Pos[v]
				}
				rings = append(rings, pts)
			}
			pgs = append(pgs, rings)
		}
		out[bc.name] = pgs
	}
	return out
}
