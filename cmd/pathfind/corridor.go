package main

import (
	"github.com/cairn-nav/cairn/grid"
)

// newCorridorRouter builds the navmesh of g for an agent of -radius and
// returns a router that answers with its corridor search
// (navmesh.Query.Corridor): the navmesh router's ends, checks and errors,
// with paths pulled through the corridor that A* over the polygons finds.
// On a tiled mesh it finds the tables of the search over tiles at load
// (navmesh.Mesh.FillCorridorTables), not in the first queries.
func newCorridorRouter(g *grid.Grid, rf *routerFlags) (pointRouter, error) {
	r, err := newMeshRouter(g, rf)
	if err != nil {
		return nil, err
	}
	r.query.Corridor, r.query.OnePass = true, rf.onePass
	r.m.FillCorridorTables()
	return r, nil
}
