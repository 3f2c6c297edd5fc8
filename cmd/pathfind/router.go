package main

import (
	"flag"
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/baseline"
)

// Route statuses, as core.Status spells them.
const (
	statusFound       = "found"
	statusUnreachable = "unreachable"
	statusBudget      = "budget spent"
)

// stats describes one answered query.
type stats struct {
	cost     float64
	expanded int
	status   string // statusFound, statusUnreachable or statusBudget
	// turns is set when the path holds turning points joined by straight
	// legs (smoothed) rather than cells joined by single moves; cost is
	// then its Euclidean length.
	turns bool
}

// router answers path queries on one map. It appends the path's cells, start
// and goal included, to dst. "No path" is a status, not an error; an error
// means the query itself was bad. A router is used by one goroutine.
type router interface {
	route(dst []image.Point, from, to image.Point) ([]image.Point, stats, error)
}

// trace records what a query's searches looked at, for pictures. A router
// fills the parts it knows and leaves the others empty.
type trace struct {
	// expanded holds the cells a grid search expanded, in order; under jump
	// point search only the jump points are expanded.
	expanded []image.Point
	// open holds the cells left on a grid search's open list.
	open []image.Point
	// graph is the HPA* graph searched, for its cluster borders and nodes.
	graph *hpa.Graph
	// abstract holds the abstract path, start and goal included; it is
	// empty when HPA* answered within a window of clusters.
	abstract []image.Point
	// cells holds the cell path that a smoothed path was made from.
	cells []image.Point
}

// tracer is a router that can also record a trace of a query. traceRoute
// answers like route and fills t; it may be slower than route (it collects
// every expansion), so timings come from route.
type tracer interface {
	router
	traceRoute(dst []image.Point, from, to image.Point, t *trace) ([]image.Point, stats, error)
}

// routerFlags holds the flags every command that routes shares. Later layers
// (hpa, navmesh) add theirs here: -graph, -smooth, -radius.
type routerFlags struct {
	algo          string
	maxExpansions int
	plain         bool
	graph         string // -graph: an hpabuild file to load instead of building
	smooth        bool
}

func addRouterFlags(fs *flag.FlagSet) *routerFlags {
	rf := &routerFlags{}
	fs.StringVar(&rf.algo, "algo", "astar", "search `algorithm`: "+algoHelp())
	fs.IntVar(&rf.maxExpansions, "max-expansions", 0, "stop a grid search after `N` expansions with a partial path (0: no limit)")
	fs.BoolVar(&rf.plain, "plain", false, "grid search expands every neighbour instead of jump points")
	fs.StringVar(&rf.graph, "graph", "", "for -algo hpa, load the graph from `file` (written by hpabuild) instead of building it")
	fs.BoolVar(&rf.smooth, "smooth", false, "for -algo hpa, smooth the path by line of sight; paths then hold the turning points")
	return rf
}

// check validates the flags before any file is read.
func (rf *routerFlags) check() error {
	a, ok := lookupAlgo(rf.algo)
	if !ok {
		return usagef("unknown -algo %q (want %s)", rf.algo, algoNames())
	}
	if rf.maxExpansions < 0 {
		return usagef("-max-expansions %d, want 0 or more", rf.maxExpansions)
	}
	if !a.gridQuery && (rf.maxExpansions > 0 || rf.plain) {
		return usagef("-algo %s takes neither -max-expansions nor -plain", a.name)
	}
	if !a.graphFlags && (rf.graph != "" || rf.smooth) {
		return usagef("-algo %s takes neither -graph nor -smooth", a.name)
	}
	return nil
}

// build returns the router the flags select, for g.
func (rf *routerFlags) build(g *grid.Grid) (router, error) {
	if err := rf.check(); err != nil {
		return nil, err
	}
	a, _ := lookupAlgo(rf.algo)
	return a.build(g, rf)
}

// algo is one entry of the -algo table.
type algo struct {
	name string
	doc  string
	// gridQuery is set for algorithms that honour -max-expansions and -plain.
	gridQuery bool
	// graphFlags is set for algorithms that honour -graph and -smooth.
	graphFlags bool
	// approx is set for algorithms whose paths may be longer than optimal;
	// scen reports their suboptimality.
	approx bool
	build  func(g *grid.Grid, rf *routerFlags) (router, error)
}

// algos is the -algo table, in the order the help lists it.
var algos = []algo{
	{name: "astar", doc: "grid A*, octile heuristic, jump points where the map allows", gridQuery: true, build: newGridRouter(grid.Auto)},
	{name: "dijkstra", doc: "Dijkstra over every cell", gridQuery: true, build: newGridRouter(grid.Zero)},
	{name: "baseline", doc: "plain reference A* for comparison", build: newBaselineRouter},
	{name: "hpa", doc: "HPA* over clusters of " + strconv.Itoa(hpa.DefaultClusterSize) + " cells, or those of the -graph file; paths a few per cent longer than optimal", graphFlags: true, approx: true, build: newHPARouter},
}

func lookupAlgo(name string) (algo, bool) {
	for _, a := range algos {
		if a.name == name {
			return a, true
		}
	}
	return algo{}, false
}

func algoNames() string {
	names := make([]string, len(algos))
	for i, a := range algos {
		names[i] = a.name
	}
	return strings.Join(names, ", ")
}

func algoHelp() string {
	docs := make([]string, len(algos))
	for i, a := range algos {
		docs[i] = a.name + " (" + a.doc + ")"
	}
	return strings.Join(docs, ", ")
}

// gridRouter runs grid.Searcher queries.
type gridRouter struct {
	s *grid.Searcher
	q grid.Query
}

func newGridRouter(h grid.Heuristic) func(*grid.Grid, *routerFlags) (router, error) {
	return func(g *grid.Grid, rf *routerFlags) (router, error) {
		// Dijkstra is the reference: it always expands every neighbour.
		q := grid.Query{Heuristic: h, MaxExpansions: rf.maxExpansions, Plain: rf.plain || h == grid.Zero}
		return &gridRouter{s: grid.NewSearcher(g), q: q}, nil
	}
}

func (r *gridRouter) route(dst []image.Point, from, to image.Point) ([]image.Point, stats, error) {
	dst, res, err := r.s.AppendPath(dst, from, to, r.q)
	if err != nil {
		return dst, stats{}, err
	}
	return dst, stats{cost: res.Cost, expanded: res.Expanded, status: res.Status.String()}, nil
}

func (r *gridRouter) traceRoute(dst []image.Point, from, to image.Point, t *trace) ([]image.Point, stats, error) {
	q := r.q
	q.OnExpand = func(p image.Point, _ float64) { t.expanded = append(t.expanded, p) }
	dst, res, err := r.s.AppendPath(dst, from, to, q)
	if err != nil {
		return dst, stats{}, err
	}
	t.open = r.s.AppendOpen(t.open)
	return dst, stats{cost: res.Cost, expanded: res.Expanded, status: res.Status.String()}, nil
}

// baselineRouter runs the plain reference A* of internal/baseline.
type baselineRouter struct {
	s *baseline.Searcher
}

func newBaselineRouter(g *grid.Grid, _ *routerFlags) (router, error) {
	return &baselineRouter{s: baseline.New(g)}, nil
}

func (r *baselineRouter) route(dst []image.Point, from, to image.Point) ([]image.Point, stats, error) {
	dst, cost, expanded, found := r.s.AppendPath(dst, from, to)
	st := stats{cost: cost, expanded: expanded, status: statusFound}
	if !found {
		st.status = statusUnreachable
	}
	return dst, st, nil
}

// checkEnd reports whether p may start or end a path on g.
func checkEnd(g *grid.Grid, p image.Point, what string) error {
	if !g.In(p) {
		return fmt.Errorf("%s %s is outside the %d×%d map", what, pointString(p), g.Width(), g.Height())
	}
	if !g.Passable(p) {
		return fmt.Errorf("%s %s is a blocked cell", what, pointString(p))
	}
	return nil
}

// verify checks a router's answer against the map: a found path runs from
// from to to by legal moves and costs what the router says; a partial one
// starts at from. It is how the command catches a router's bugs.
func verify(g *grid.Grid, path []image.Point, from, to image.Point, st stats) error {
	switch st.status {
	case statusFound, statusBudget:
	case statusUnreachable:
		if g.Connected(from, to) {
			return fmt.Errorf("reported unreachable, but %s and %s are connected", pointString(from), pointString(to))
		}
		return nil
	default:
		return fmt.Errorf("unknown status %q", st.status)
	}
	if len(path) == 0 {
		return fmt.Errorf("status %s with an empty path", st.status)
	}
	if path[0] != from {
		return fmt.Errorf("path starts at %s, want %s", pointString(path[0]), pointString(from))
	}
	if last := path[len(path)-1]; st.status == statusFound && last != to {
		return fmt.Errorf("path ends at %s, want %s", pointString(last), pointString(to))
	}
	if st.turns {
		return verifyTurns(g, path, st)
	}
	cost, err := g.PathCost(path)
	if err != nil {
		return err
	}
	if math.Abs(cost-st.cost) > 1e-6*max(1, cost) {
		return fmt.Errorf("reported cost %v, but the path costs %v", st.cost, cost)
	}
	return nil
}
