package navmesh_test

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// segSquareDist returns the Euclidean distance between the segment a–b and
// the closed square [x, x+1] × [y, y+1].
func segSquareDist(a, b mgl64.Vec2, x, y float64) float64 {
	inside := func(p mgl64.Vec2) bool { return p[0] >= x && p[0] <= x+1 && p[1] >= y && p[1] <= y+1 }
	if inside(a) || inside(b) {
		return 0
	}
	pointSeg := func(p, s0, s1 mgl64.Vec2) float64 {
		d := s1.Sub(s0)
		t := 0.0
		if l := d.Dot(d); l > 0 {
			t = math.Max(0, math.Min(1, p.Sub(s0).Dot(d)/l))
		}
		return p.Sub(s0.Add(d.Mul(t))).Len()
	}
	corners := [4]mgl64.Vec2{{x, y}, {x + 1, y}, {x + 1, y + 1}, {x, y + 1}}
	best := math.Inf(1)
	for i, c := range corners {
		n := corners[(i+1)%4]
		// The segment crossing an edge of the square means distance 0.
		if segsCross(a, b, c, n) {
			return 0
		}
		best = math.Min(best, pointSeg(c, a, b))
		best = math.Min(best, pointSeg(a, c, n))
		best = math.Min(best, pointSeg(b, c, n))
	}
	return best
}

func segsCross(p1, p2, q1, q2 mgl64.Vec2) bool {
	cr := func(o, a, b mgl64.Vec2) float64 { return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0]) }
	d1, d2 := cr(q1, q2, p1), cr(q1, q2, p2)
	d3, d4 := cr(p1, p2, q1), cr(p1, p2, q2)
	return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
}

// TestRadius builds meshes for agents of several radii on random grids and
// checks every path keeps at least the radius from every blocked cell and
// from the map's edge.
func TestRadius(t *testing.T) {
	for _, r := range []float64{0.25, 0.5, 1, 1.5} {
		for seed := int64(1); seed <= 4; seed++ {
			t.Run(fmt.Sprintf("r=%v/seed=%d", r, seed), func(t *testing.T) {
				const w, h = 50, 40
				density := 0.04
				if r > 0.5 {
					density = 0.015 // bigger agents need open ground
				}
				g := testmap.Random(seed, w, h, density, grid.Options{})
				m, err := navmesh.FromGrid(g, navmesh.Options{Radius: r})
				if err != nil {
					t.Fatal(err)
				}
				q := navmesh.NewQuery(m)
				found := 0
				for _, p := range testmap.RandomPairs(testmap.NewRand(seed), g, 150) {
					from := mgl64.Vec2{float64(p[0].X) + 0.5, float64(p[0].Y) + 0.5}
					to := mgl64.Vec2{float64(p[1].X) + 0.5, float64(p[1].Y) + 0.5}
					path, res, err := q.AppendPath(nil, from, to)
					if err != nil {
						continue // an end too close to a wall for this radius
					}
					if res.Status != core.Found {
						continue
					}
					found++
					for i := 1; i < len(path); i++ {
						a, b := path[i-1], path[i]
						for y := -1; y <= h; y++ {
							for x := -1; x <= w; x++ {
								if g.Passable(image.Pt(x, y)) {
									continue
								}
								if d := segSquareDist(a, b, float64(x), float64(y)); d < r-1e-9 {
									t.Fatalf("seed %d r %v: leg %v→%v passes %.4f from blocked cell (%d,%d)", seed, r, a, b, d, x, y)
								}
							}
						}
					}
				}
				if found < 10 {
					t.Fatalf("seed %d r %v: only %d paths found; the test checks too little", seed, r, found)
				}
			})
		}
	}
}
