package navmesh_test

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/gridcheck"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// TestRadiusDoor sends agents of several radii through a door two cells
// wide: open below a radius of 1 (up to the subcells' side), closed from 1.
func TestRadiusDoor(t *testing.T) {
	m, err := testmap.Parse(`
		..........
		..........
		..........
		####..####
		..........
		..........
		..........
	`, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	from, to := mgl64.Vec2{5, 1.5}, mgl64.Vec2{5, 5.5}
	for _, tc := range []struct {
		r, cell float64
		open    bool
	}{
		{0.25, 0, true}, {0.4, 0, true}, {0.6, 0, true}, {0.75, 0, true},
		{0.9, 1.0 / 32, true}, {0.96, 1.0 / 64, true},
		// The default subcells follow the room the door leaves.
		{0.8, 0, true}, {0.9, 0, true}, {0.96, 0, true},
		{1, 0, false}, {1, 1.0 / 64, false}, {1.1, 0, false},
		// Subcells too coarse for the room: 2·(1/8) > 2 − 2·0.9.
		{0.9, 1.0 / 8, false},
	} {
		mesh, err := navmesh.FromGrid(m.Grid, navmesh.Options{Radius: tc.r, CellSize: tc.cell})
		if err != nil {
			t.Fatal(err)
		}
		path, res, err := navmesh.NewSearcher(mesh).AppendPath(nil, from, to, navmesh.Query{})
		if err != nil {
			if tc.open || tc.r < 1.5 { // the ends stand 1.5 from the walls and the edge
				t.Fatalf("r %v: %v", tc.r, err)
			}
			continue
		}
		if got := res.Status == core.Found; got != tc.open {
			t.Errorf("r %v (subcells %v): door open %v, want %v", tc.r, tc.cell, got, tc.open)
		}
		check := gridcheck.New(m.Grid, tc.r)
		for i := 1; i < len(path); i++ {
			if err := check.Leg(path[i-1], path[i]); err != nil {
				t.Errorf("r %v: leg %d: %v", tc.r, i, err)
			}
		}
	}
}

// TestRadiusDoorWidths sends agents through doors of one to three cells,
// with the default subcells: each closes from a radius of half its width,
// and stays open below it wherever the room it leaves, k − 2r, holds two
// subcells, which the default side gives up to k/2 − r/16 or so.
func TestRadiusDoorWidths(t *testing.T) {
	for k := 1; k <= 3; k++ {
		free := make([]bool, 14*12)
		for y := range 12 {
			for x := range 14 {
				free[y*14+x] = y != 6 || x >= 5 && x < 5+k
			}
		}
		g, err := grid.New(14, 12, free, grid.Options{})
		if err != nil {
			t.Fatal(err)
		}
		half := float64(k) / 2
		for _, r := range []float64{half - 0.3, half - 0.1, half - 0.04, half - 0.01, half, half + 0.01} {
			if r <= 0 {
				continue
			}
			mesh, err := navmesh.FromGrid(g, navmesh.Options{Radius: r})
			if err != nil {
				t.Fatal(err)
			}
			from, to := mgl64.Vec2{2.5, 2.5}, mgl64.Vec2{2.5, 9.5}
			path, res, err := navmesh.NewSearcher(mesh).AppendPath(nil, from, to, navmesh.Query{})
			if err != nil {
				t.Fatalf("door %d, r %v: %v", k, r, err)
			}
			c := navmesh.SubcellSide(g, navmesh.Options{Radius: r})
			open := res.Status == core.Found
			switch {
			case r >= half && open:
				t.Errorf("door of %d cells, r %v: open", k, r)
			case r < half && float64(k)-2*r >= 2*c && !open:
				t.Errorf("door of %d cells, r %v: closed, though it leaves %v, two subcells of %v", k, r, float64(k)-2*r, c)
			case r < half && r <= half-r/16 && !open:
				t.Errorf("door of %d cells, r %v: closed below k/2 − r/16 (subcells of %v)", k, r, c)
			}
			if _, err := gridcheck.New(g, r).Path(path, from, to); res.Status == core.Found && err != nil {
				t.Errorf("door of %d cells, r %v: %v", k, r, err)
			}
		}
	}
}

// TestRadiusTight checks that the offset keeps what it should: every point
// at least r + 2c from every blocked cell and the map's edge (brute force)
// lies on the mesh, and no point of the mesh is nearer than r.
func TestRadiusTight(t *testing.T) {
	for seed := int64(1); seed <= 3; seed++ {
		g := testmap.Random(seed, 30, 24, 0.08, grid.Options{})
		for _, r := range []float64{0.3, 0.5, 1.25} {
			mesh, err := navmesh.FromGrid(g, navmesh.Options{Radius: r})
			if err != nil {
				t.Fatal(err)
			}
			c := math.Min(math.Ldexp(1, math.Ilogb(r/4)), 0.5)
			rnd := testmap.NewRand(seed)
			checked := 0
			for range 3000 {
				p := mgl64.Vec2{rnd.Float64() * 30, rnd.Float64() * 24}
				d := math.Min(math.Min(p[0], 30-p[0]), math.Min(p[1], 24-p[1]))
				for y := range 24 {
					for x := range 30 {
						if !g.Passable(image.Pt(x, y)) {
							d = math.Min(d, gridcheck.SegSquareDist(p, p, float64(x), float64(y)))
						}
					}
				}
				_, on := mesh.Locate(p)
				where := fmt.Sprintf("seed %d r %v: %v at %.4f from the walls", seed, r, p, d)
				if on && d < r-1e-9 {
					t.Fatalf("%s is on the mesh", where)
				}
				if d >= r+2*c+1e-9 {
					checked++
					if !on {
						t.Fatalf("%s (subcells %v) is off the mesh", where, c)
					}
				}
			}
			if checked < 100 {
				t.Errorf("seed %d r %v: only %d points far enough from walls: the test sees too little", seed, r, checked)
			}
		}
	}
}
