package main

import (
	"image"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
)

// drawMeshRoute draws the picture of an any-angle route: the map, the
// outlines of the mesh m (when not nil), the waypoint path and its ends.
func drawMeshRoute(g *grid.Grid, m *navmesh.Mesh, path []mgl64.Vec2, from, to image.Point) *picture.Canvas {
	c := picture.New(g)
	if m != nil {
		c.Mesh(m)
	}
	c.Polyline(path, c.LineWidth(false), picture.Navmesh)
	mw := c.MarkerWidth()
	c.Marker(from, mw, picture.Start)
	c.Marker(to, mw, picture.Goal)
	return c
}

// drawRoute draws a route's picture: the map, what the search looked at
// (t, which may be nil), the path and its ends.
func drawRoute(g *grid.Grid, path []image.Point, from, to image.Point, smoothed bool, t *trace) *picture.Canvas {
	c := picture.New(g)
	thin := c.LineWidth(false)
	if t != nil {
		c.Cells(t.expanded, picture.Expanded)
		c.Cells(t.open, picture.Open)
		if t.graph != nil {
			c.GridLines(t.graph.ClusterSize(), picture.Border)
			c.Nodes(t.graph)
		}
		// The abstract path under the cell path, wider, with its nodes.
		c.CellPath(t.abstract, 2*thin, picture.Abstract)
		for _, p := range t.abstract {
			c.Marker(p, 3*thin, picture.Abstract)
		}
		if smoothed {
			c.CellPath(t.cells, thin, picture.Path)
		}
	}
	if smoothed {
		c.CellPath(path, thin, picture.Smooth)
	} else {
		c.CellPath(path, thin, picture.Path)
	}
	mw := c.MarkerWidth()
	c.Marker(from, mw, picture.Start)
	c.Marker(to, mw, picture.Goal)
	return c
}
