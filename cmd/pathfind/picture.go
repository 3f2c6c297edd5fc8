package main

import (
	"fmt"
	"image"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
)

// drawMeshRoute draws the picture of an any-angle route: the map, the
// outlines of the mesh m (when not nil), the waypoint path and its ends,
// under a title and above a legend.
func drawMeshRoute(g *grid.Grid, m *navmesh.Mesh, path []mgl64.Vec2, from, to image.Point) *picture.Canvas {
	c := picture.New(g)
	if m != nil {
		c.Mesh(m)
	}
	c.Polyline(path, c.LineWidth(false), picture.Navmesh)
	explainRoute(c, g, from, to, "navmesh (any-angle)", false)
	return c
}

// drawRoute draws a route's picture: the map, what the search looked at
// (t, which may be nil), the path and its ends, under a title and above a
// legend.
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
	explainRoute(c, g, from, to, routeAlgo(smoothed, t), smoothed)
	return c
}

// routeAlgo names the search of a route picture from what it drew: the
// picture's callers do not pass the -algo flag, so the grid searches
// (astar, jps, dijkstra, plain or not) share one name, and a router
// without a trace is taken to be the baseline, the only one there is.
func routeAlgo(smoothed bool, t *trace) string {
	switch {
	case t == nil:
		return "baseline A*"
	case t.graph != nil && smoothed:
		return "HPA* + smoothing"
	case t.graph != nil:
		return "HPA*"
	}
	return "grid search (astar, jps or dijkstra)"
}

// explainRoute pins the start and goal of a route picture, then adds its
// title (the map's size, the query and the search) and a legend of the
// colours the picture holds.
func explainRoute(c *picture.Canvas, g *grid.Grid, from, to image.Point, algo string, smoothed bool) {
	c.Pin(from, picture.Start, "S")
	c.Pin(to, picture.Goal, "G")
	c.Title(fmt.Sprintf("%d×%d map · %s to %s · %s", g.Width(), g.Height(), pointString(from), pointString(to), algo))
	path := "path"
	if smoothed {
		path = "path before smoothing"
	}
	var keys []picture.Key
	for _, k := range []picture.Key{
		{Colour: picture.Expanded, Label: "expanded"},
		{Colour: picture.Open, Label: "left open"},
		{Colour: picture.Border, Label: "cluster border"},
		{Colour: picture.Node1, Label: "level-1 node"},
		{Colour: picture.Node2, Label: "level-2 node"},
		{Colour: picture.Node3, Label: "level-3 node"},
		{Colour: picture.Node4, Label: "level-4+ node"},
		{Colour: picture.Abstract, Label: "abstract path"},
		{Colour: picture.Path, Label: path},
		{Colour: picture.Smooth, Label: "smoothed path"},
		{Colour: picture.MeshEdge, Label: "polygon edge"},
		{Colour: picture.Portal, Label: "portal"},
		{Colour: picture.Navmesh, Label: "path"},
		{Colour: picture.Start, Label: "start " + pointString(from), Letter: "S"},
		{Colour: picture.Goal, Label: "goal " + pointString(to), Letter: "G"},
	} {
		if c.Uses(k.Colour) {
			keys = append(keys, k)
		}
	}
	c.Legend(keys)
}
