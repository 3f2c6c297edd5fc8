package testmap

import (
	"fmt"
	"image"
	"math/rand/v2"

	"github.com/cairn-nav/cairn/grid"
)

// NewRand returns the seeded PCG generator the helpers use, for tests that
// draw their own random queries.
func NewRand(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x6361_6972_6e00_0001))
}

// Random returns a w × h grid in which each cell is blocked with probability
// density, drawn from a PCG generator seeded with seed, and built with opt.
// It panics if the grid cannot be built.
func Random(seed int64, w, h int, density float64, opt grid.Options) *grid.Grid {
	r := NewRand(seed)
	g, err := grid.New(w, h, randomFree(r, w, h, density), opt)
	if err != nil {
		panic(fmt.Sprintf("testmap: random grid seed %d: %v", seed, err))
	}
	return g
}

// RandomCosts is [Random] with terrain costs: the same seed gives the same
// walls as Random, and each cell gets a multiplier drawn uniformly from
// [1, maxCost].
func RandomCosts(seed int64, w, h int, density, maxCost float64, conn grid.Connectivity) *grid.Grid {
	r := NewRand(seed)
	free := randomFree(r, w, h, density)
	costs := make([]float64, w*h)
	for i := range costs {
		costs[i] = 1 + (maxCost-1)*r.Float64()
	}
	g, err := grid.New(w, h, free, grid.Options{Connectivity: conn, Costs: costs})
	if err != nil {
		panic(fmt.Sprintf("testmap: random grid seed %d: %v", seed, err))
	}
	return g
}

func randomFree(r *rand.Rand, w, h int, density float64) []bool {
	free := make([]bool, w*h)
	for i := range free {
		free[i] = r.Float64() >= density
	}
	return free
}

// RandomPairs draws n (start, goal) pairs of free cells of g, uniformly and
// independently; it returns nil when g has no free cell.
func RandomPairs(r *rand.Rand, g *grid.Grid, n int) [][2]image.Point {
	free := FreeCells(g)
	if len(free) == 0 {
		return nil
	}
	pairs := make([][2]image.Point, n)
	for i := range pairs {
		pairs[i] = [2]image.Point{free[r.IntN(len(free))], free[r.IntN(len(free))]}
	}
	return pairs
}

// RandomAreas is [Random] with area types: the same seed gives the same
// walls, and on the free cells six random rectangles of areas 1 and 2 (at
// most a third of the map across), the rest ground; blocked cells are
// grid.AreaSolid.
func RandomAreas(seed int64, w, h int, density float64) *grid.Grid {
	r := NewRand(seed)
	free := randomFree(r, w, h, density)
	ra := NewRand(seed + 1000)
	areas := make([]uint8, w*h)
	for range 6 {
		a := uint8(1 + ra.IntN(2))
		x0, y0 := ra.IntN(w), ra.IntN(h)
		x1, y1 := min(w, x0+2+ra.IntN(max(1, w/3))), min(h, y0+2+ra.IntN(max(1, h/3)))
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				areas[y*w+x] = a
			}
		}
	}
	for i, f := range free {
		if !f {
			areas[i] = grid.AreaSolid
		}
	}
	g, err := grid.New(w, h, free, grid.Options{Areas: areas})
	if err != nil {
		panic(fmt.Sprintf("testmap: random grid seed %d: %v", seed, err))
	}
	return g
}

// Without returns a grid of g's size whose free cells are those of g but
// the cells of area a, all of them ground: the grid a filter that
// excludes a sees.
func Without(g *grid.Grid, a uint8) *grid.Grid {
	w, h := g.Width(), g.Height()
	free := make([]bool, w*h)
	for y := range h {
		for x := range w {
			p := image.Pt(x, y)
			free[y*w+x] = g.Passable(p) && g.Area(p) != a
		}
	}
	out, err := grid.New(w, h, free, grid.Options{Connectivity: g.Connectivity()})
	if err != nil {
		panic(fmt.Sprintf("testmap: %v", err))
	}
	return out
}
