package main

import (
	"flag"
	"fmt"
	"image"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
)

// filterFlag is route's -filter: a grid.Filter by area, written as
// AREA=VALUE pairs.
type filterFlag struct {
	text string
	f    *grid.Filter
}

func addFilterFlag(fs *flag.FlagSet) *filterFlag {
	ff := &filterFlag{}
	fs.StringVar(&ff.text, "filter", "", "for -algo astar, dijkstra, hpa (with -size too), navmesh or corridor, weigh or exclude cells by area: `A=V,...`\nwith A a map "+
		"letter ('.' or G ground, S swamp, W water, T trees) or an area number 0-254, and V a cost multiplier (which also\n"+
		"lets a grid search into water or trees) or x to keep out; S=3,W=x, or W=1,.=x for a boat. -algo navmesh\n"+
		"takes exclusions only (its paths are shortest, not cheapest); corridor weighs its corridor by the multipliers;\n"+
		"hpa builds the graph of the class (filter and size) and takes multipliers of 1 or more")
	return ff
}

// letterArea maps the letters of -filter to area types.
var letterArea = map[string]uint8{".": grid.AreaGround, "G": grid.AreaGround, "S": grid.AreaSwamp, "W": grid.AreaWater, "T": grid.AreaTrees}

// parse reads the flag's text into a filter; an empty text gives none.
func (ff *filterFlag) parse() error {
	if ff.text == "" {
		return nil
	}
	f := &grid.Filter{}
	for item := range strings.SplitSeq(ff.text, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			return cli.Usagef("-filter item %q, want AREA=VALUE", item)
		}
		a, ok := letterArea[strings.ToUpper(k)]
		if !ok {
			n, err := strconv.Atoi(k)
			if err != nil || n < 0 || n >= int(grid.AreaSolid) {
				return cli.Usagef("-filter area %q, want '.', G, S, W, T or a number from 0 to 254", k)
			}
			a = uint8(n)
		}
		if strings.EqualFold(v, "x") {
			f.Exclude[a] = true
			continue
		}
		c, err := strconv.ParseFloat(v, 64)
		if err != nil || !(c >= 1e-3 && c <= grid.MaxCost) {
			return cli.Usagef("-filter value %q for area %q, want a multiplier from 0.001 to %g, or x", v, k, float64(grid.MaxCost))
		}
		f.Cost[a] = c
		f.Include[a] = true
	}
	ff.f = f
	return nil
}

// weighs reports whether the parsed filter gives an area a multiplier
// other than 1.
func (ff *filterFlag) weighs() bool {
	for _, c := range ff.f.Cost {
		if c != 0 && c != 1 {
			return true
		}
	}
	return false
}

// meshFilter returns the filter of -filter f for a navmesh of g: f
// without Include, as a mesh covers free cells only, which -filter sets
// for every area given a multiplier. An area so given that has blocked
// cells on g (water or trees, say) is an error: the mesh cannot let a
// unit into them.
func meshFilter(g *grid.Grid, f *grid.Filter) (*grid.Filter, error) {
	mf := &grid.Filter{Cost: f.Cost, Exclude: f.Exclude}
	for y := range g.Height() {
		for x := range g.Width() {
			p := image.Pt(x, y)
			if a := g.Area(p); !g.Passable(p) && a != grid.AreaSolid && f.Include[a] {
				return nil, fmt.Errorf("-filter lets units into area %d, blocked at %s and elsewhere, but a navmesh covers free cells only", a, pointString(p))
			}
		}
	}
	return mf, nil
}

// passableGrid returns the grid of the cells of g that filter f lets a
// query into, for checking a navmesh's filtered answers.
func passableGrid(g *grid.Grid, f *grid.Filter) *grid.Grid {
	w, h := g.Width(), g.Height()
	free := make([]bool, w*h)
	for y := range h {
		for x := range w {
			free[y*w+x] = f.Passable(g, image.Pt(x, y))
		}
	}
	out, err := grid.New(w, h, free, grid.Options{})
	if err != nil {
		panic(err) // not reached: g was built with this size
	}
	return out
}

// routeFiltered answers route's query with a filter: a grid search whose
// path is checked against the filter's own rules, step by step, and its
// cost recomputed from them.
func routeFiltered(stdout io.Writer, g *grid.Grid, f *grid.Filter, from, to image.Point, rf *routerFlags, showPath bool) error {
	h := grid.Auto
	if rf.algo == "dijkstra" {
		h = grid.Zero
	} else if hq, ok := parseHeuristic(rf.heuristic); ok {
		h = hq
	}
	s := grid.NewSearcher(g)
	q := grid.Query{Heuristic: h, MaxExpansions: rf.maxExpansions, Filter: f}
	t0 := time.Now()
	path, res, err := s.AppendPath(nil, from, to, q)
	elapsed := time.Since(t0)
	if err != nil {
		return err
	}
	if err := verifyFiltered(g, f, path, from, to, res); err != nil {
		return fmt.Errorf("-algo %s -filter answered %s to %s wrongly: %w", rf.algo, pointString(from), pointString(to), err)
	}
	cost := "-"
	if len(path) > 0 {
		cost = fmt.Sprintf("%.5f", res.Cost)
	}
	return printCellRoute(stdout, cellRoute{res.Status, "no path through the cells the filter lets through", cost, "", path, res.Expanded, elapsed}, showPath)
}

// cellRoute is what route prints of a cell path found with a filter.
type cellRoute struct {
	status        core.Status
	why           string // printed when unreachable
	cost, optimal string // "-" when there is no path; optimal "" for no line
	path          []image.Point
	expanded      int
	elapsed       time.Duration
}

// printCellRoute prints r as route's lines, with the path's cells when
// showPath is set.
func printCellRoute(stdout io.Writer, r cellRoute, showPath bool) error {
	fmt.Fprintf(stdout, "status    %s\n", r.status)
	if r.status == core.Unreachable {
		fmt.Fprintf(stdout, "why       %s\n", r.why)
	}
	fmt.Fprintf(stdout, "cost      %s\n", r.cost)
	if r.optimal != "" {
		fmt.Fprintf(stdout, "optimal   %s\n", r.optimal)
	}
	fmt.Fprintf(stdout, "steps     %d\n", max(len(r.path)-1, 0))
	fmt.Fprintf(stdout, "expanded  %d\n", r.expanded)
	fmt.Fprintf(stdout, "time      %s\n", formatMicros(r.elapsed))
	if showPath {
		if _, err := stdout.Write(append(appendPathLine([]byte("path      "), r.path), '\n')); err != nil {
			return err
		}
	}
	return nil
}

// verifyFiltered checks a filtered path: its ends, every step a move the
// filter allows, and its cost, base × (m(a)+m(b))/2 a step with
// m = terrain × the filter's multiplier.
func verifyFiltered(g *grid.Grid, f *grid.Filter, path []image.Point, from, to image.Point, res grid.Result) error {
	if res.Status == core.Unreachable {
		if len(path) != 0 {
			return fmt.Errorf("unreachable with %d cells", len(path))
		}
		return nil
	}
	if len(path) == 0 || path[0] != from || (res.Status == core.Found && path[len(path)-1] != to) {
		return fmt.Errorf("the path does not run from %s to %s", pointString(from), pointString(to))
	}
	mult := func(p image.Point) float64 {
		m := f.Cost[g.Area(p)]
		if m == 0 {
			m = 1
		}
		if g.HasCosts() {
			m *= g.Cost(p)
		}
		return m
	}
	var cost float64
	for i := 1; i < len(path); i++ {
		a, b := path[i-1], path[i]
		if !f.CanStep(g, a, b) {
			return fmt.Errorf("step %d from %s to %s is not a move the filter allows", i, pointString(a), pointString(b))
		}
		base := 1.0
		if a.X != b.X && a.Y != b.Y {
			base = math.Sqrt2
		}
		cost += base * (mult(a) + mult(b)) / 2
	}
	if math.Abs(cost-res.Cost) > 1e-6*max(1, cost) {
		return fmt.Errorf("reported cost %v, but the path costs %v under the filter", res.Cost, cost)
	}
	return nil
}
