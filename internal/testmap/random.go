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
