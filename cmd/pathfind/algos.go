package main

import (
	"strconv"
	"strings"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

// algo is one entry of the algorithm table: a value of -algo for route and
// scen, and the entries of serve's legend that answer with it.
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
	// radius is set for algorithms that honour -radius.
	radius bool
	// heuristic is set for algorithms that honour -heuristic.
	heuristic bool
	// build makes the router of a cell-path algorithm; buildPoints, set
	// instead, the pointRouter of an any-angle one, whose scenario
	// summaries report length ratios and paths longer than optimal.
	build       func(g *grid.Grid, rf *routerFlags) (router, error)
	buildPoints func(g *grid.Grid, rf *routerFlags) (pointRouter, error)
	// serve holds the entries of serve's legend that answer with this
	// algorithm, in the legend's order; none for one the page leaves out.
	serve []serveAlgo
}

// serveAlgo is one entry of serve's legend: a path the page compares, with
// the run function that answers it on a worker's searchers.
type serveAlgo struct {
	ID     string `json:"id"`
	Label  string `json:"label"`
	Colour string `json:"colour"`
	run    runFunc
}

// algos is the algorithm table, in the order the help of -algo lists it and
// serve's legend shows the entries of its serve fields.
var algos = []algo{
	{
		name: "astar", doc: "grid A*, octile heuristic, jump points where the map allows",
		gridQuery: true, heuristic: true, build: newGridRouter(grid.Auto, false),
		serve: []serveAlgo{{ID: "astar", Label: "A* (jump points)", Colour: "#d62728", run: runGrid(grid.Auto)}},
	},
	{
		name: "jps", doc: "astar's jump point search scanning the rows instead of reading the JPS+ table, for comparison: the same paths",
		gridQuery: true, heuristic: true, build: newGridRouter(grid.Auto, true),
	},
	{
		name: "dijkstra", doc: "Dijkstra over every cell",
		gridQuery: true, build: newGridRouter(grid.Zero, false),
		serve: []serveAlgo{{ID: "dijkstra", Label: "Dijkstra", Colour: "#1f77b4", run: runGrid(grid.Zero)}},
	},
	{
		name: "baseline", doc: "plain reference A* for comparison",
		build: newBaselineRouter,
	},
	{
		name: "hpa", doc: "HPA* over clusters of " + strconv.Itoa(hpa.DefaultClusterSize) + " cells, or those of the -graph file; paths a few per cent longer than optimal",
		graphFlags: true, approx: true, build: newHPARouter,
		serve: []serveAlgo{
			{ID: "hpa", Label: "HPA*", Colour: "#ff7f0e", run: runHPA(false)},
			{ID: "hpa-smooth", Label: "HPA* + smoothing", Colour: "#2ca02c", run: runHPA(true)},
		},
	},
	{
		name: "navmesh", doc: "shortest any-angle paths on a navmesh of the free cells, cell centre to cell centre, for a point agent or one of -radius R; never longer than the 8-connected optimum",
		radius: true, buildPoints: newNavmeshRouter,
		serve: []serveAlgo{{ID: "navmesh", Label: "Navmesh (any-angle)", Colour: "#9467bd", run: runNavmesh}},
	},
	{
		name: "corridor", doc: "navmesh's corridor search: A* over the polygons, the corridor pulled taut (Detour's model); paths about 1 % longer than navmesh's, found several times faster; takes -radius R",
		radius: true, buildPoints: newCorridorRouter,
	},
}

// serveAlgos is the legend of serve's page: the serve entries of algos, in
// order.
var serveAlgos = legend(algos)

func legend(as []algo) []serveAlgo {
	var l []serveAlgo
	for _, a := range as {
		l = append(l, a.serve...)
	}
	return l
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
