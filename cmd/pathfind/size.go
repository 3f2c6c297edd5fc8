package main

import (
	"flag"
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/grid"
)

// Unit sizes for "pathfind route -size K": a unit of size K at cell (x, y)
// covers the K×K cells from (x, y) to the right and down. Route searches
// the grid of the cells where it fits (grid.Grid.Sized), so the path
// printed is one of anchor (top-left) cells, and checks every step of it
// against the map's own cells.

// addSizeFlag defines -size on fs.
func addSizeFlag(fs *flag.FlagSet) *int {
	return fs.Int("size", 1, "route a unit of size `K`: it covers the K×K cells right of and below the cell it stands on, the\n"+
		"path holds those top-left cells, and every step keeps all K×K cells free without cutting corners (the\n"+
		"grid algorithms; -algo hpa builds its graph for the unit, or reads an annotated one with -graph, from hpabuild -sizes)")
}

// checkSize validates -size against the other flags, before any file is
// read.
func checkSize(size int, rf *routerFlags) error {
	if size < 1 || size > grid.MaxClearance {
		return cli.Usagef("-size %d, want 1 to %d", size, grid.MaxClearance)
	}
	if size == 1 {
		return nil
	}
	a, _ := lookupAlgo(rf.algo) // rf.check has found it
	if a.buildPoints != nil {
		return cli.Usagef("-algo %s takes no -size (it routes a point agent, or one of -radius R)", a.name)
	}
	return nil
}

// sizedGrid returns the grid to search for a unit of the given size on g:
// g itself for size 1. It is an error when the unit does not fit at the
// start or the goal, both free cells of g.
func sizedGrid(g *grid.Grid, size int, from, to image.Point) (*grid.Grid, error) {
	if size == 1 {
		return g, nil
	}
	s, err := g.Sized(size)
	if err != nil {
		return nil, err
	}
	for _, end := range []struct {
		what string
		p    image.Point
	}{{"start", from}, {"goal", to}} {
		if !s.Passable(end.p) {
			return nil, fmt.Errorf("%s %s leaves no room for a unit of size %d: the largest free square there is %d×%d",
				end.what, pointString(end.p), size, g.Clearance(end.p), g.Clearance(end.p))
		}
	}
	return s, nil
}

// routeWhy says why no path joins from and to for a unit of the given size
// (and, for navmesh, radius).
func routeWhy(g *grid.Grid, from, to image.Point, radius float64, size int) string {
	if size > 1 && g.Connected(from, to) {
		return fmt.Sprintf("every way from start to goal is too narrow for a unit of size %d", size)
	}
	return unreachableWhy(g, from, to, radius)
}

// verifySized checks the last answer of ans, from from to to with st, for
// a unit of the given size on g: on the grid searched ([answerer.verify]),
// then, for cell paths, against g's own cells ([verifySize]).
func verifySized(ans *answerer, g *grid.Grid, from, to image.Point, st stats, size int) error {
	if err := ans.verify(from, to, st); err != nil {
		return err
	}
	if ans.anyAngle() {
		return nil
	}
	return verifySize(g, ans.cellPath, size, st)
}

// verifySize checks a cell path of a unit of the given size against g's
// own cells, not its clearances: each of its anchors has its size×size
// cells free, and each
// diagonal step keeps both side footprints free. It is the command's check
// of grid.Grid.Sized, beside verify's on the sized grid; smoothed paths
// (turns) are left to verify.
func verifySize(g *grid.Grid, path []image.Point, size int, st stats) error {
	if size == 1 || st.turns {
		return nil
	}
	fits := func(p image.Point) bool {
		for y := p.Y; y < p.Y+size; y++ {
			for x := p.X; x < p.X+size; x++ {
				if !g.Passable(image.Pt(x, y)) {
					return false
				}
			}
		}
		return true
	}
	for i, p := range path {
		if !fits(p) {
			return fmt.Errorf("path cell %d, %s, does not leave room for a unit of size %d", i, pointString(p), size)
		}
		if i == 0 {
			continue
		}
		q := path[i-1]
		if q.X != p.X && q.Y != p.Y && (!fits(image.Pt(p.X, q.Y)) || !fits(image.Pt(q.X, p.Y))) {
			return fmt.Errorf("path step %d from %s to %s cuts a corner for a unit of size %d", i, pointString(q), pointString(p), size)
		}
	}
	return nil
}
