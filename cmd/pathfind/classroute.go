package main

import (
	"fmt"
	"image"
	"io"
	"math"
	"time"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

// routeClass answers route's query for -algo hpa with -filter (and maybe
// -size): HPA* on the graph of one agent class (hpa.BuildClasses), whose
// path is checked on the source map by the filter's and the footprint's
// rules, and its cost on the class's grid. It also prints the class's
// exact optimum (a grid search of the class's grid), to show how near
// HPA* came.
func routeClass(stdout io.Writer, g *grid.Grid, f *grid.Filter, size int, from, to image.Point, q hpa.Query, showPath bool) error {
	c, err := hpa.BuildClasses(g, []hpa.Class{{Size: size, Filter: f}}, hpa.Options{})
	if err != nil {
		return err
	}
	cg := c.Grid(0)
	for _, end := range []struct {
		what string
		p    image.Point
	}{{"start", from}, {"goal", to}} {
		if !cg.Passable(end.p) {
			return fmt.Errorf("%s %s is not a cell where a unit of size %d may stand under the filter", end.what, pointString(end.p), size)
		}
	}
	s := hpa.NewSearcher(c.Graph(0))
	t0 := time.Now()
	path, res, err := s.AppendPath(nil, from, to, q)
	elapsed := time.Since(t0)
	if err != nil {
		return err
	}
	if err := verifyClassPath(g, f, size, path, from, to, res.Status); err != nil {
		return fmt.Errorf("-algo hpa -filter answered %s to %s wrongly: %w", pointString(from), pointString(to), err)
	}
	_, opt, err := grid.NewSearcher(cg).AppendPath(nil, from, to, grid.Query{})
	if err != nil {
		return err
	}
	if opt.Status != res.Status {
		return fmt.Errorf("-algo hpa -filter answered %s to %s %v, but the class's grid search says %v", pointString(from), pointString(to), res.Status, opt.Status)
	}
	cost, optimal := "-", "-"
	if len(path) > 0 {
		pc, err := cg.PathCost(path)
		if err != nil {
			return fmt.Errorf("-algo hpa -filter answered %s to %s wrongly: %w", pointString(from), pointString(to), err)
		}
		if math.Abs(pc-res.Cost) > 1e-9*max(1, pc) {
			return fmt.Errorf("-algo hpa -filter reported cost %v, but the path costs %v", res.Cost, pc)
		}
		cost, optimal = fmt.Sprintf("%.5f", res.Cost), fmt.Sprintf("%.5f", opt.Cost)
	}
	why := fmt.Sprintf("no path for a unit of size %d through the cells the filter lets through", size)
	return printCellRoute(stdout, cellRoute{res.Status, why, cost, optimal, path, res.Expanded, elapsed}, showPath)
}

// verifyClassPath checks a path of a unit of the given size under filter
// f against the source map g alone: it runs from from to to by single
// steps, the unit's size×size cells from each anchor pass f, and a
// diagonal step keeps both side footprints passable too.
func verifyClassPath(g *grid.Grid, f *grid.Filter, size int, path []image.Point, from, to image.Point, st core.Status) error {
	if st == core.Unreachable {
		if len(path) != 0 {
			return fmt.Errorf("unreachable with %d cells", len(path))
		}
		return nil
	}
	if len(path) == 0 || path[0] != from || path[len(path)-1] != to {
		return fmt.Errorf("the path does not run from %s to %s", pointString(from), pointString(to))
	}
	fits := func(p image.Point) bool {
		for y := p.Y; y < p.Y+size; y++ {
			for x := p.X; x < p.X+size; x++ {
				if !f.Passable(g, image.Pt(x, y)) {
					return false
				}
			}
		}
		return true
	}
	for i, p := range path {
		if !fits(p) {
			return fmt.Errorf("cell %d, %s: the unit's %d×%d cells are not all passable under the filter", i, pointString(p), size, size)
		}
		if i == 0 {
			continue
		}
		d := p.Sub(path[i-1])
		if max(d.X, -d.X) > 1 || max(d.Y, -d.Y) > 1 || d == (image.Point{}) {
			return fmt.Errorf("step %d from %s to %s is not a single move", i, pointString(path[i-1]), pointString(p))
		}
		if d.X != 0 && d.Y != 0 && (!fits(path[i-1].Add(image.Pt(d.X, 0))) || !fits(path[i-1].Add(image.Pt(0, d.Y)))) {
			return fmt.Errorf("diagonal step %d from %s to %s cuts a corner for a unit of size %d", i, pointString(path[i-1]), pointString(p), size)
		}
	}
	return nil
}
