package navmesh

import "github.com/cairn-nav/cairn/grid"

// SubcellSide returns the side of the subcells FromGrid offsets g's walls
// on for opt (opt.Radius > 0).
func SubcellSide(g *grid.Grid, opt Options) float64 {
	c, err := subcell(g, opt)
	if err != nil {
		panic(err)
	}
	return c
}
