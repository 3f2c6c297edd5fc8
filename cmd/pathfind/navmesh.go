package main

import (
	"bufio"
	"fmt"
	"image"
	"math"
	"os"
	"strconv"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/gridcheck"
	"github.com/cairn-nav/cairn/navmesh"
)

// navmeshRouter answers queries with the shortest any-angle path on a
// navmesh of the map's free cells, from the centre of the start cell to the
// centre of the goal cell.
type navmeshRouter struct {
	m      *navmesh.Mesh
	q      *navmesh.Searcher
	radius float64
	query  navmesh.Query // the zero Query, or the corridor search's (corridor.go)
}

func newNavmeshRouter(g *grid.Grid, rf *routerFlags) (pointRouter, error) {
	return newMeshRouter(g, rf)
}

// newMeshRouter returns a router on the mesh of g for an agent of radius
// rf.radius: read from rf.mesh, which must have been built for g and that
// radius, or else built.
func newMeshRouter(g *grid.Grid, rf *routerFlags) (*navmeshRouter, error) {
	var r *navmeshRouter
	if rf.mesh == "" {
		var err error
		if r, err = newNavmeshRouterFor(g, navmesh.Options{Radius: rf.radius, TileSize: rf.tile}); err != nil {
			return nil, err
		}
	} else {
		m, err := readMeshFor(rf.mesh, g, navmesh.Options{Radius: rf.radius, TileSize: rf.tile})
		if err != nil {
			return nil, err
		}
		r = &navmeshRouter{m: m, q: navmesh.NewSearcher(m), radius: rf.radius}
	}
	r.query.Filter = rf.filter
	return r, nil
}

// newNavmeshRouterFor builds the mesh of g with options opt (for an agent
// of radius opt.Radius, 0 for a point) and returns a router on it.
func newNavmeshRouterFor(g *grid.Grid, opt navmesh.Options) (*navmeshRouter, error) {
	m, err := navmesh.FromGrid(g, opt)
	if err != nil {
		return nil, err
	}
	return &navmeshRouter{m: m, q: navmesh.NewSearcher(m), radius: opt.Radius}, nil
}

// readMeshFor reads the mesh file at path for grid g, built with options
// opt.
func readMeshFor(path string, g *grid.Grid, opt navmesh.Options) (*navmesh.Mesh, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	m, err := navmesh.ReadFor(br, g, opt)
	if err == nil {
		err = atEnd(br, "mesh")
	}
	if err != nil {
		return nil, fmt.Errorf("-mesh %s: %w", path, err)
	}
	return m, nil
}

// meshRouter is a pointRouter that searches a navmesh, which pictures draw.
type meshRouter interface {
	pointRouter
	mesh() *navmesh.Mesh
}

// mesh returns the mesh the router searches, for pictures.
func (r *navmeshRouter) mesh() *navmesh.Mesh { return r.m }

// routePoints answers from the centre of cell from to that of cell to. An
// end whose cell the mesh left out, because it is nearer a wall than the
// radius, is an *offMeshError.
func (r *navmeshRouter) routePoints(dst []mgl64.Vec2, from, to image.Point) ([]mgl64.Vec2, stats, error) {
	a, b := picture.Centre(from), picture.Centre(to)
	if _, ok := r.m.Locate(a); !ok {
		return dst, stats{}, &offMeshError{what: "start", p: from, radius: r.radius}
	}
	if _, ok := r.m.Locate(b); !ok {
		return dst, stats{}, &offMeshError{what: "goal", p: to, radius: r.radius}
	}
	dst, res, err := r.q.AppendPath(dst, a, b, r.query)
	if err != nil {
		return dst, stats{}, err
	}
	return dst, meshStats(res), nil
}

// meshStats returns the figures of a navmesh query's result: its cost is
// the path's length.
func meshStats(res navmesh.Result) stats {
	return stats{cost: res.Length, expanded: res.Expanded, status: res.Status}
}

// offMeshError is a query end that an agent of the mesh's radius cannot
// stand on: its cell is nearer than the radius to a wall or the map's edge,
// so the mesh leaves it out. The route command reports it as an error; scen
// counts the scenario as having no path.
type offMeshError struct {
	what   string // "start" or "goal"
	p      image.Point
	radius float64
}

func (e *offMeshError) Error() string {
	if e.radius == 0 {
		return fmt.Sprintf("%s %s is not on the navmesh", e.what, pointString(e.p))
	}
	return fmt.Sprintf("%s %s is nearer than -radius %v to a wall or the map's edge: an agent of that radius cannot stand there",
		e.what, pointString(e.p), e.radius)
}

// verifyOffMesh checks an *offMeshError against the map: the end's cell is
// blocked, or nearer a wall than the radius.
func verifyOffMesh(c *gridcheck.Checker, e *offMeshError) error {
	kept, err := c.Kept()
	if err != nil {
		return err
	}
	if kept.Passable(e.p) {
		return fmt.Errorf("reported %s %s off the mesh, but its cell keeps %v from every wall", e.what, pointString(e.p), c.Radius())
	}
	return nil
}

// verifyPoints checks a pointRouter's answer against the map: a found path
// runs from the centre of from to that of to by legal legs that keep the
// radius from walls, and is as long as reported; "unreachable" is answered
// only between ends that no chain of cells joins (for an agent of radius r,
// cells that keep r from walls). It is how the command catches the
// navmesh's bugs.
func verifyPoints(c *gridcheck.Checker, path []mgl64.Vec2, from, to image.Point, st stats) error {
	switch st.status {
	case core.Found:
	case core.Unreachable:
		if len(path) > 0 {
			return fmt.Errorf("reported unreachable with a path of %d points", len(path))
		}
		kept, err := c.Kept()
		if err != nil {
			return err
		}
		if kept.Passable(from) && kept.Passable(to) && kept.Connected(from, to) {
			if c.Radius() == 0 {
				return fmt.Errorf("reported unreachable, but %s and %s are connected", pointString(from), pointString(to))
			}
			return fmt.Errorf("reported unreachable, but cells that keep %v from walls join %s and %s", c.Radius(), pointString(from), pointString(to))
		}
		return nil
	default:
		return fmt.Errorf("unknown status %q", st.status)
	}
	length, err := c.Path(path, picture.Centre(from), picture.Centre(to))
	if err != nil {
		return err
	}
	if math.Abs(length-st.cost) > 1e-9*max(1, length) {
		return fmt.Errorf("reported length %v, but the waypoints are %v apart", st.cost, length)
	}
	return nil
}

// appendVec appends p as "x,y" with six decimals.
func appendVec(dst []byte, p mgl64.Vec2) []byte {
	dst = strconv.AppendFloat(dst, p[0], 'f', 6, 64)
	dst = append(dst, ',')
	return strconv.AppendFloat(dst, p[1], 'f', 6, 64)
}

func vecString(p mgl64.Vec2) string { return string(appendVec(nil, p)) }

// appendVecLine appends the waypoints of path as "x,y" tokens with six
// decimals separated by single spaces, or "none" for an empty path.
func appendVecLine(dst []byte, path []mgl64.Vec2) []byte {
	if len(path) == 0 {
		return append(dst, "none"...)
	}
	for i, p := range path {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = appendVec(dst, p)
	}
	return dst
}

// ratios accumulates the ratios of path lengths to scenario optima.
type ratios struct {
	n     int
	sum   float64
	worst float64
}

// add records a path of length cost whose optimum is opt; optima of 0
// (start and goal the same cell) are left out.
func (r *ratios) add(cost, opt float64) {
	if !(opt > 0) {
		return
	}
	q := cost / opt
	if r.n == 0 || q > r.worst {
		r.worst = q
	}
	r.n++
	r.sum += q
}

func (r *ratios) mean() float64 {
	if r.n == 0 {
		return 0
	}
	return r.sum / float64(r.n)
}
