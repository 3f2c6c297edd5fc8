package main

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/internal/meshcheck"
)

// verifyMeshPoints checks a navmesh answer on a mesh read without its map,
// from point from to point to, against the mesh's polygons: a found path
// runs from from to to by legs inside them (see package internal/meshcheck) and is as long
// as reported; "unreachable" is answered only between ends that no chain
// of polygons sharing sides joins.
func verifyMeshPoints(c *meshcheck.Checker, path []mgl64.Vec2, from, to mgl64.Vec2, st stats) error {
	switch st.status {
	case core.Found:
	case core.Unreachable:
		if len(path) > 0 {
			return fmt.Errorf("reported unreachable with a path of %d points", len(path))
		}
		comp := c.Components()
		for _, p := range c.Holding(nil, from) {
			for _, q := range c.Holding(nil, to) {
				if comp[p] == comp[q] {
					return fmt.Errorf("reported unreachable, but polygons %d and %d, which hold start and goal, are joined by shared sides", p, q)
				}
			}
		}
		return nil
	default:
		return fmt.Errorf("unknown status %q", st.status)
	}
	length, err := c.Path(path, from, to)
	if err != nil {
		return err
	}
	if math.Abs(length-st.cost) > 1e-9*max(1, length) {
		return fmt.Errorf("reported length %v, but the waypoints are %v apart", st.cost, length)
	}
	return nil
}
