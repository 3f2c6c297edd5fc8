package navmesh

import (
	"fmt"
	"image"
	"math"

	"github.com/cairn-nav/cairn/grid"
)

// checkRadius returns an error unless r is an agent radius: finite and
// ≥ 0.
func checkRadius(r float64) error {
	if math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
		return fmt.Errorf("navmesh: agent radius %v, want a finite value ≥ 0", r)
	}
	return nil
}

// erode returns the grid of the cells an agent of radius r may occupy
// anywhere: a free cell stays free only when every point of it is at least r
// from every blocked cell and from the map's edge (the edge counts as a wall).
// A cell at (dx, dy) cells from a blocked one is at Euclidean distance
// √(max(|dx|−1,0)² + max(|dy|−1,0)²) from it, square to square, so the test
// needs only the blocked cells within ⌈r⌉+1 cells. Like Recast's erosion it
// works on whole cells, so it never opens a passage narrower than 2r but
// closes more: every cell touching a wall goes for any r > 0, and a
// straight corridor k cells wide stays open only when k ≥ 2⌈r⌉+1 (for
// r = 0.4, corridors of 1 and 2 cells close). It costs
// O(width·height·(r+1)²).
func erode(g *grid.Grid, r float64) (*grid.Grid, error) {
	if err := checkRadius(r); err != nil {
		return nil, err
	}
	w, h := g.Width(), g.Height()
	reach := int(math.Ceil(r))
	free := make([]bool, w*h)
	blocked := func(x, y int) bool {
		return x < 0 || y < 0 || x >= w || y >= h || !g.Passable(image.Pt(x, y))
	}
	for y := range h {
		for x := range w {
			if blocked(x, y) {
				continue
			}
			ok := true
			for dy := -reach - 1; dy <= reach+1 && ok; dy++ {
				for dx := -reach - 1; dx <= reach+1; dx++ {
					gx, gy := float64(max(abs(dx)-1, 0)), float64(max(abs(dy)-1, 0))
					if gx*gx+gy*gy < r*r && blocked(x+dx, y+dy) {
						ok = false
						break
					}
				}
			}
			free[y*w+x] = ok
		}
	}
	return grid.New(w, h, free, grid.Options{Connectivity: g.Connectivity()})
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
