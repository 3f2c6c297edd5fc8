package navmesh_test

import (
	"fmt"
	"image"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/gridcheck"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

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
								if d := gridcheck.SegSquareDist(a, b, float64(x), float64(y)); d < r-1e-9 {
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
