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
// wide: open below a radius of 1 (up to the lines' lattice of 2⁻¹⁶),
// whatever the subcells, closed from 1.
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
		{0.8, 0, true}, {0.9, 0, true}, {0.96, 0, true}, {0.99, 0, true},
		{0.999, 0, true}, {1 - 0x1p-15, 0, true}, {1 - 0x1p-16 - 1e-14, 0, true},
		// The walls' offsets lie on lines of their own, so coarse
		// subcells keep the door open too.
		{0.9, 1.0 / 8, true}, {0.99, 1.0 / 2, true},
		{1, 0, false}, {1, 1.0 / 64, false}, {1.1, 0, false},
		// Within 2⁻¹⁶ of 1 the lines round to the lattice past the door.
		{1 - 0x1p-16, 0, false}, {1 - 0x1p-18, 0, false},
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
// with the default subcells: each stays open below a radius of half its
// width, less the lines' lattice of 2⁻¹⁶, and closes from there.
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
		for _, r := range []float64{half - 0.3, half - 0.1, half - 0.04, half - 0.01, half - 0.001, half - 0x1p-15, half - 0x1p-16, half, half + 0.01} {
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
			if open, want := res.Status == core.Found, r < half-0x1p-16; open != want {
				t.Errorf("door of %d cells, r %v: open %v, want %v", k, r, open, want)
			}
			if _, err := gridcheck.New(g, r).Path(path, from, to); res.Status == core.Found && err != nil {
				t.Errorf("door of %d cells, r %v: %v", k, r, err)
			}
		}
	}
}

// TestRadiusTight checks that the offset keeps what it should: every point
// of the mesh is at least r from every blocked cell and the map's edge
// (brute force), and a point lies on the mesh when it is farther from the
// walls, by 2⁻¹⁶ from their straight sides and, from their corners, by
// the diagonal of the largest subcell, 1.5c·√2.
func TestRadiusTight(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		g := testmap.Random(seed, 30, 24, 0.08, grid.Options{})
		for _, r := range []float64{0.3, 0.5, 0.77, 1.25} {
			mesh, err := navmesh.FromGrid(g, navmesh.Options{Radius: r})
			if err != nil {
				t.Fatal(err)
			}
			c := navmesh.SubcellSide(g, navmesh.Options{Radius: r})
			rnd := testmap.NewRand(seed)
			checked, nearWall := 0, 0
			for range 4000 {
				p := mgl64.Vec2{rnd.Float64() * 30, rnd.Float64() * 24}
				// side: the least distance to a wall's side, at a point
				// off its ends; corner: to a blocked cell's corner. The
				// map's outside counts as blocked cells.
				side, corner := math.Inf(1), math.Inf(1)
				for y := -1; y <= 24; y++ {
					for x := -1; x <= 30; x++ {
						if g.Passable(image.Pt(x, y)) {
							continue
						}
						dx := math.Max(0, math.Max(float64(x)-p[0], p[0]-float64(x+1)))
						dy := math.Max(0, math.Max(float64(y)-p[1], p[1]-float64(y+1)))
						if dx > 0 && dy > 0 {
							corner = math.Min(corner, math.Hypot(dx, dy))
						} else {
							side = math.Min(side, dx+dy)
						}
					}
				}
				d := math.Min(side, corner)
				_, on := mesh.Locate(p)
				where := fmt.Sprintf("seed %d r %v: %v at %.6f from the walls' sides, %.6f from their corners", seed, r, p, side, corner)
				if on && d < r-1e-9 {
					t.Fatalf("%s is on the mesh", where)
				}
				if side >= r+0x1p-16+1e-9 && corner >= r+1.5*math.Sqrt2*c+1e-9 {
					checked++
					if side < r+c {
						nearWall++
					}
					if !on {
						t.Fatalf("%s (subcells %v) is off the mesh", where, c)
					}
				}
			}
			if checked < 100 || nearWall < 5 {
				t.Errorf("seed %d r %v: only %d points far enough from walls, %d within a subcell of one: the test sees too little", seed, r, checked, nearWall)
			}
		}
	}
}

// TestRadiusWideMaps checks the raster on maps wide enough for rounding to
// matter: every polygon corner keeps the radius from the map's edge
// exactly, on free strips whose far edge lies where a coordinate's
// rounding exceeds the raster's slack; and on a map over 16 382 cells wide,
// where the path oracle's lattice is coarser than 2⁻¹⁶, a path through a
// gap is found and checked.
func TestRadiusWideMaps(t *testing.T) {
	for _, tc := range []struct {
		w int
		r float64
	}{{16500, 1 + 1e-13}, {33000, 1 + 1e-12}} {
		free := make([]bool, tc.w*3)
		for i := range free {
			free[i] = true
		}
		g, err := grid.New(tc.w, 3, free, grid.Options{})
		if err != nil {
			t.Fatal(err)
		}
		mesh, err := navmesh.FromGrid(g, navmesh.Options{Radius: tc.r})
		if err != nil {
			t.Fatal(err)
		}
		var poly []mgl64.Vec2
		for id := range mesh.NumPolys() {
			poly = mesh.AppendPolygon(poly[:0], navmesh.PolyID(id))
			for _, v := range poly {
				if v[0] < tc.r || float64(tc.w)-v[0] < tc.r || v[1] < tc.r || 3-v[1] < tc.r {
					t.Fatalf("%d×3, r %v: polygon %d has corner %v, nearer than r to the map's edge", tc.w, tc.r, id, v)
				}
			}
		}
	}
	const w = 16400
	free := make([]bool, w*6)
	for i := range free {
		free[i] = true
	}
	for x := 100; x < 120; x++ {
		free[3*w+x] = false
	}
	g, err := grid.New(w, 6, free, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const r = 0.4
	mesh, err := navmesh.FromGrid(g, navmesh.Options{Radius: r})
	if err != nil {
		t.Fatal(err)
	}
	from, to := mgl64.Vec2{50.5, 2.5}, mgl64.Vec2{200.5, 4.5}
	path, res, err := navmesh.NewSearcher(mesh).AppendPath(nil, from, to, navmesh.Query{})
	if err != nil || res.Status != core.Found {
		t.Fatalf("%v→%v: %v, %v", from, to, res.Status, err)
	}
	if _, err := gridcheck.New(g, r).Path(path, from, to); err != nil {
		t.Errorf("%v→%v: %v", from, to, err)
	}
}
