package mapgen

import (
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/grid"
)

// Scale returns g enlarged k times: cell (x, y) of the result is a copy of
// cell (x/k, y/k) of g, so each cell becomes a k×k block with its
// passability and, when g has terrain costs, its multiplier ([grid.Grid.Cost]).
// The result keeps g's connectivity. It is an error when k < 1 or when the
// result would exceed [grid.MaxCells] cells.
//
// Path lengths grow by at most k, and often by less. Let a and b be free
// cells of g, c an offset in [0, k)², and a' = k·a + c, b' = k·b + c the cells
// at the same place in their blocks. Without terrain costs the optimal cost
// from a' to b' is at most k times the optimal cost from a to b: each
// straight step of a path of g becomes k straight steps, and each diagonal
// step k diagonal steps, which are legal because the two orthogonal cells a
// diagonal step needs are free in g and so are their whole blocks. It can be much
// less where the optimal path of g turns round a wall, because on the finer
// grid the turn hugs the wall's corner instead of passing through the middle
// of a block. Where g forbids the diagonal step from a to b because one of the
// two cells beside it is a wall, going round costs 2 on g but (k−1)·√2 + 2 on
// the scaled map for c = (⌊k/2⌋, ⌊k/2⌋), not 2k. On 4-connected grids paths
// also come out shorter than k times, round corners in the same way. With
// terrain costs the bound k·cost holds for odd k and c = ((k−1)/2, (k−1)/2),
// where every step of a path of g becomes k steps that together cost exactly
// k times as much; for even k it can fail.
//
// Scale costs O(k²·width·height) and allocates the new grid.
func Scale(g *grid.Grid, k int) (*grid.Grid, error) {
	if k < 1 {
		return nil, fmt.Errorf("mapgen: scale factor %d, want at least 1", k)
	}
	w, h := g.Width(), g.Height()
	if k > grid.MaxCells/w || k > grid.MaxCells/h || w*k > grid.MaxCells/(h*k) {
		return nil, fmt.Errorf("mapgen: %d×%d map scaled %d times exceeds %d cells", w, h, k, grid.MaxCells)
	}
	sw, sh := w*k, h*k
	free := make([]bool, sw*sh)
	var costs []float64
	if g.HasCosts() {
		costs = make([]float64, sw*sh)
	}
	for y := range h {
		row := free[y*k*sw : (y*k+1)*sw]
		for x := range w {
			if g.Passable(image.Pt(x, y)) {
				fill(row[x*k:(x+1)*k], true)
			}
		}
		for i := 1; i < k; i++ {
			copy(free[(y*k+i)*sw:], row)
		}
		if costs == nil {
			continue
		}
		crow := costs[y*k*sw : (y*k+1)*sw]
		for x := range w {
			fill(crow[x*k:(x+1)*k], g.Cost(image.Pt(x, y)))
		}
		for i := 1; i < k; i++ {
			copy(costs[(y*k+i)*sw:], crow)
		}
	}
	return grid.New(sw, sh, free, grid.Options{Connectivity: g.Connectivity(), Costs: costs})
}

func fill[T any](s []T, v T) {
	for i := range s {
		s[i] = v
	}
}
