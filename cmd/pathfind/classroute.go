package main

import (
	"bufio"
	"fmt"
	"image"
	"io"
	"math"
	"os"
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
	if err := checkClassEnds(cg, size, "the filter", from, to); err != nil {
		return err
	}
	s := hpa.NewSearcher(c.Graph(0))
	t0 := time.Now()
	path, res, err := s.AppendPath(nil, from, to, q)
	if err != nil {
		return err
	}
	return reportClassRoute(stdout, "-algo hpa -filter", g, f, size, cg, from, to, path, res, time.Since(t0), showPath)
}

// checkClassEnds checks that a unit of the given size may stand at the
// start and the goal on cg, its class's grid; under says under what
// ("the filter"), empty for no filter.
func checkClassEnds(cg *grid.Grid, size int, under string, from, to image.Point) error {
	if under != "" {
		under = " under " + under
	}
	for _, end := range []struct {
		what string
		p    image.Point
	}{{"start", from}, {"goal", to}} {
		if !cg.Passable(end.p) {
			return fmt.Errorf("%s %s is not a cell where a unit of size %d may stand%s", end.what, pointString(end.p), size, under)
		}
	}
	return nil
}

// reportClassRoute checks path, which how (the flags, for errors) found
// with result res in the time elapsed for a unit of the given size under
// filter f (nil for none) from from to to, on the source map g and on the
// class's grid cg, and prints it with the class's exact optimum (a grid
// search of cg).
func reportClassRoute(stdout io.Writer, how string, g *grid.Grid, f *grid.Filter, size int, cg *grid.Grid, from, to image.Point, path []image.Point, res hpa.Result, elapsed time.Duration, showPath bool) error {
	if err := verifyClassPath(g, f, size, path, from, to, res.Status); err != nil {
		return fmt.Errorf("%s answered %s to %s wrongly: %w", how, pointString(from), pointString(to), err)
	}
	_, opt, err := grid.NewSearcher(cg).AppendPath(nil, from, to, grid.Query{})
	if err != nil {
		return err
	}
	if opt.Status != res.Status {
		return fmt.Errorf("%s answered %s to %s %v, but the class's grid search says %v", how, pointString(from), pointString(to), res.Status, opt.Status)
	}
	cost, optimal := "-", "-"
	if len(path) > 0 {
		pc, err := cg.PathCost(path)
		if err != nil {
			return fmt.Errorf("%s answered %s to %s wrongly: %w", how, pointString(from), pointString(to), err)
		}
		if math.Abs(pc-res.Cost) > 1e-9*max(1, pc) {
			return fmt.Errorf("%s reported cost %v, but the path costs %v", how, res.Cost, pc)
		}
		cost, optimal = fmt.Sprintf("%.5f", res.Cost), fmt.Sprintf("%.5f", opt.Cost)
	}
	why := fmt.Sprintf("no path for a unit of size %d through the cells the filter lets through", size)
	if f == nil {
		why = fmt.Sprintf("no path for a unit of size %d", size)
	}
	return printCellRoute(stdout, cellRoute{res.Status, why, cost, optimal, path, res.Expanded, elapsed}, showPath)
}

// annotatedMagic starts an annotated graph file (hpa.Annotated.WriteTo).
const annotatedMagic = "CAIRNHPN"

// isAnnotatedFile reports whether the file at path starts as an
// annotated graph file does; false when it cannot be read.
func isAnnotatedFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, len(annotatedMagic))
	_, err = io.ReadFull(f, b)
	return err == nil && string(b) == annotatedMagic
}

// routeAnnotated answers route's query for -algo hpa -graph FILE when
// FILE is an annotated graph (hpabuild -sizes): HPA* on it for a unit of
// the given size, checked and printed as routeClass's.
func routeAnnotated(stdout io.Writer, g *grid.Grid, path string, size int, from, to image.Point, q hpa.Query, showPath bool) error {
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("-graph %w", err)
	}
	defer file.Close()
	br := bufio.NewReader(file)
	a, err := hpa.ReadAnnotated(br, path, g)
	if err != nil {
		return fmt.Errorf("-graph %w", err)
	}
	if err := atEnd(br, "graph"); err != nil {
		return fmt.Errorf("-graph %s: %w", path, err)
	}
	var sizes []int
	class := -1
	for i := range a.Len() {
		if c := a.Class(i); c.Filter == nil {
			sizes = append(sizes, c.Size)
			if c.Size == size {
				class = i
			}
		}
	}
	if class < 0 {
		return fmt.Errorf("-graph %s serves units of sizes %v, not %d", path, sizes, size)
	}
	cg := a.Grid(class)
	if err := checkClassEnds(cg, size, "", from, to); err != nil {
		return err
	}
	s := hpa.NewAnnotatedSearcher(a)
	t0 := time.Now()
	cells, res, err := s.AppendPath(nil, class, from, to, q)
	if err != nil {
		return err
	}
	return reportClassRoute(stdout, "-algo hpa -graph", g, nil, size, cg, from, to, cells, res, time.Since(t0), showPath)
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
