package navmesh

import (
	"errors"
	"fmt"
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
// anywhere, [grid.Grid.Erode]: a free cell stays free only when every point
// of it is at least r from every blocked cell and from the map's edge (the
// edge counts as a wall). Like Recast's erosion it works on whole cells, so
// it never opens a passage narrower than 2r but closes more: every cell
// touching a wall goes for any r > 0, and a straight corridor k cells wide
// stays open only when k ≥ 2⌈r⌉+1 (for r = 0.4, corridors of 1 and 2 cells
// close). It costs O(width·height) for any r > 0, and nothing for r = 0,
// where it returns g itself. A nil g is an error.
func erode(g *grid.Grid, r float64) (*grid.Grid, error) {
	switch err := checkRadius(r); {
	case g == nil:
		return nil, errors.New("navmesh: nil grid")
	case err != nil:
		return nil, err
	case r == 0:
		return g, nil
	}
	return g.Erode(r)
}
