package main

import (
	"flag"
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/baseline"
	"github.com/cairn-nav/cairn/internal/gridcheck"
)

// stats describes one answered query.
type stats struct {
	cost     float64
	expanded int
	status   core.Status // core.Found, core.Unreachable or core.BudgetSpent
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

// pointRouter answers path queries on one map with continuous paths: it
// appends waypoints in world coordinates joined by straight legs, from the
// centre of cell from to the centre of cell to, and cost is the path's
// Euclidean length. An -algo entry builds either a router or a pointRouter;
// commands reach both through an [answerer]. A pointRouter is used by one
// goroutine.
type pointRouter interface {
	routePoints(dst []mgl64.Vec2, from, to image.Point) ([]mgl64.Vec2, stats, error)
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

// routerFlags holds the flags every command that routes shares; layers add
// theirs here: -graph and -smooth (hpa), -radius (navmesh).
type routerFlags struct {
	algo          string
	maxExpansions int
	plain         bool
	graph         string // -graph: an hpabuild file to load instead of building
	smooth        bool
	hpaWeight     float64 // -hpa-weight: hpa.Query.Weight
	radius        float64 // -radius: the agent's radius for the navmesh
	mesh          string  // -mesh: a navbuild file to load instead of building
	tile          int     // -tile: the navmesh's tile side (0: untiled)
	onePass       bool    // -one-pass: navmesh.Query.OnePass
	heuristic     string  // -heuristic: the grid A*'s estimate, by name
	// filter is route's -filter for a navmesh (see meshFilter), not a
	// flag of its own: the mesh router's queries take it, and its answers
	// are checked against the cells it lets through.
	filter *grid.Filter
}

func addRouterFlags(fs *flag.FlagSet) *routerFlags {
	rf := &routerFlags{}
	fs.StringVar(&rf.algo, "algo", "astar", "search `algorithm`: "+algoHelp())
	fs.IntVar(&rf.maxExpansions, "max-expansions", 0, "stop a grid search after `N` expansions with a partial path (0: no limit)")
	fs.BoolVar(&rf.plain, "plain", false, "grid search expands every neighbour instead of jump points")
	fs.StringVar(&rf.heuristic, "heuristic", "auto", "for -algo astar and jps, the estimate `H`: "+heuristicNames()+
		" (manhattan overestimates on 8-connected maps: paths may be longer than optimal)")
	fs.StringVar(&rf.graph, "graph", "", "for -algo hpa, load the graph from `file` (written by hpabuild) instead of building it")
	fs.BoolVar(&rf.smooth, "smooth", false, "for -algo hpa, smooth the path by line of sight; paths then hold the turning points")
	fs.Float64Var(&rf.hpaWeight, "hpa-weight", 0, fmt.Sprintf("for -algo hpa, the weight `W` of the abstract search (hpa.Query.Weight): 1 finds the shortest abstract path,\n"+
		"more trades length for speed (1.05 about halves a long query's abstract search), up to %d (0: 1)", hpa.MaxWeight))
	fs.StringVar(&rf.mesh, "mesh", "", "for -algo navmesh or corridor, load the mesh from `file` (written by navbuild for this map and -radius)\n"+
		"instead of building it; a mesh built for another map or radius is refused (route without -map: any mesh file,\n"+
		"between points, the answer checked against its polygons)")
	fs.Float64Var(&rf.radius, "radius", 0, "for -algo navmesh or corridor, the agent's radius `R` in cells: the mesh keeps the points at least R from every\n"+
		"blocked cell and the map's edge (walls offset on subcells of R/4, their straight sides exactly but for 2⁻¹⁶: a door w cells wide stays open for R < w/2 − 2⁻¹⁶), and every leg is checked to keep R from them (0: a point agent)")
	fs.IntVar(&rf.tile, "tile", 0, "for -algo navmesh or corridor, build the mesh in tiles of `T` cells, or with -mesh read it as built so (0: untiled);\n"+
		"the exact search of a tiled mesh is guided by its tiles")
	fs.BoolVar(&rf.onePass, "one-pass", false, "for -algo corridor, leave out the corridor search's second pass (navmesh.Query.OnePass): the midpoints' corridor alone,\n"+
		"2 to 3 times faster, with some paths round the wrong side of a block")
	return rf
}

// check validates the flags before any file is read.
func (rf *routerFlags) check() error {
	a, ok := lookupAlgo(rf.algo)
	if !ok {
		return cli.Usagef("unknown -algo %q (want %s)", rf.algo, algoNames())
	}
	if rf.maxExpansions < 0 {
		return cli.Usagef("-max-expansions %d, want 0 or more", rf.maxExpansions)
	}
	if !a.gridQuery && (rf.maxExpansions > 0 || rf.plain) {
		return cli.Usagef("-algo %s takes neither -max-expansions nor -plain", a.name)
	}
	if _, ok := parseHeuristic(rf.heuristic); !ok {
		return cli.Usagef("unknown -heuristic %q (want %s)", rf.heuristic, heuristicNames())
	}
	if !a.heuristic && rf.heuristic != "auto" {
		return cli.Usagef("-algo %s takes no -heuristic (only astar and jps do)", a.name)
	}
	if !a.graphFlags && (rf.graph != "" || rf.smooth) {
		return cli.Usagef("-algo %s takes neither -graph nor -smooth", a.name)
	}
	if !a.graphFlags && rf.hpaWeight != 0 {
		return cli.Usagef("-algo %s takes no -hpa-weight (only hpa does)", a.name)
	}
	if w := rf.hpaWeight; w != 0 && !(w >= 1 && w <= hpa.MaxWeight) {
		return cli.Usagef("-hpa-weight %v, want 0 (meaning 1) or 1 to %d", w, hpa.MaxWeight)
	}
	if !a.radius && (rf.radius != 0 || rf.mesh != "") {
		return cli.Usagef("-algo %s takes neither -radius nor -mesh (only navmesh and corridor do)", a.name)
	}
	if err := rf.checkOnePass(a.name); err != nil {
		return err
	}
	if math.IsNaN(rf.radius) || math.IsInf(rf.radius, 0) || rf.radius < 0 {
		return cli.Usagef("-radius %v, want a finite value ≥ 0", rf.radius)
	}
	return nil
}

// checkOnePass refuses -one-pass with any -algo but corridor.
func (rf *routerFlags) checkOnePass(algo string) error {
	if rf.onePass && algo != "corridor" {
		return cli.Usagef("-algo %s takes no -one-pass (only corridor does)", algo)
	}
	return nil
}

// build returns an answerer with the router the flags select, for g.
func (rf *routerFlags) build(g *grid.Grid) (*answerer, error) {
	if err := rf.check(); err != nil {
		return nil, err
	}
	a, _ := lookupAlgo(rf.algo)
	ans := &answerer{g: g}
	var err error
	if a.buildPoints != nil {
		ans.points, err = a.buildPoints(g, rf)
		ans.check = gridcheck.New(g, rf.radius)
		if rf.filter != nil {
			ans.check = gridcheck.New(passableGrid(g, rf.filter), rf.radius)
		}
	} else {
		ans.cells, err = a.build(g, rf)
	}
	if err != nil {
		return nil, err
	}
	return ans, nil
}

// gridRouter runs grid.Searcher queries.
type gridRouter struct {
	s *grid.Searcher
	q grid.Query
}

func newGridRouter(h grid.Heuristic, scan bool) func(*grid.Grid, *routerFlags) (router, error) {
	return func(g *grid.Grid, rf *routerFlags) (router, error) {
		hq := h
		if hq == grid.Auto {
			hq, _ = parseHeuristic(rf.heuristic)
		}
		q := gridQueryOf(hq, rf.maxExpansions, rf.plain)
		q.Scan = scan
		return &gridRouter{s: grid.NewSearcher(g), q: q}, nil
	}
}

// gridQueryOf returns the query of a grid search with heuristic h and a
// budget of maxExpansions (0: none), which expands every neighbour rather
// than jump points when plain. Dijkstra (grid.Zero) is the reference: it
// always expands every neighbour.
func gridQueryOf(h grid.Heuristic, maxExpansions int, plain bool) grid.Query {
	return grid.Query{Heuristic: h, MaxExpansions: maxExpansions, Plain: plain || h == grid.Zero}
}

// gridStats returns the figures of a grid search's result.
func gridStats(res grid.Result) stats {
	return stats{cost: res.Cost, expanded: res.Expanded, status: res.Status}
}

func (r *gridRouter) route(dst []image.Point, from, to image.Point) ([]image.Point, stats, error) {
	dst, res, err := r.s.AppendPath(dst, from, to, r.q)
	if err != nil {
		return dst, stats{}, err
	}
	return dst, gridStats(res), nil
}

func (r *gridRouter) traceRoute(dst []image.Point, from, to image.Point, t *trace) ([]image.Point, stats, error) {
	q := r.q
	q.OnExpand = func(p image.Point, _ float64) { t.expanded = append(t.expanded, p) }
	dst, res, err := r.s.AppendPath(dst, from, to, q)
	if err != nil {
		return dst, stats{}, err
	}
	t.open = r.s.AppendOpen(t.open)
	return dst, gridStats(res), nil
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
	st := stats{cost: cost, expanded: expanded, status: core.Found}
	if !found {
		st.status = core.Unreachable
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
	case core.Found, core.BudgetSpent:
	case core.Unreachable:
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
	if last := path[len(path)-1]; st.status == core.Found && last != to {
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

// answerer runs a command's queries with the router the -algo table built,
// whether it gives cells or waypoints, and checks each answer against the
// map. It keeps the last path until the next query. It is used by one
// goroutine.
type answerer struct {
	g         *grid.Grid
	cells     router             // set for cell-path algorithms
	points    pointRouter        // set instead for any-angle ones
	check     *gridcheck.Checker // with points
	cellPath  []image.Point
	pointPath []mgl64.Vec2
}

// anyAngle reports whether the paths are waypoints in world coordinates.
func (a *answerer) anyAngle() bool { return a.points != nil }

// answer answers one query and keeps its path.
func (a *answerer) answer(from, to image.Point) (stats, error) {
	var st stats
	var err error
	if a.points != nil {
		a.pointPath, st, err = a.points.routePoints(a.pointPath[:0], from, to)
	} else {
		a.cellPath, st, err = a.cells.route(a.cellPath[:0], from, to)
	}
	return st, err
}

// verify checks the last answer, from from to to with st, against the map.
func (a *answerer) verify(from, to image.Point, st stats) error {
	if a.points != nil {
		return verifyPoints(a.check, a.pointPath, from, to, st)
	}
	return verify(a.g, a.cellPath, from, to, st)
}

// hasPath reports whether the last answer has a path, partial or whole.
func (a *answerer) hasPath() bool { return len(a.cellPath)+len(a.pointPath) > 0 }

// steps returns the number of moves (or legs) of the last path.
func (a *answerer) steps() int {
	return max(len(a.cellPath)+len(a.pointPath)-1, 0)
}

// appendPath appends the last path as one line of tokens: cells as "x,y",
// waypoints as "x,y" with six decimals; "none" when it is empty.
func (a *answerer) appendPath(dst []byte) []byte {
	if a.points != nil {
		return appendVecLine(dst, a.pointPath)
	}
	return appendPathLine(dst, a.cellPath)
}

// The values of -heuristic: the grid heuristics but Zero (that is -algo
// dijkstra).
var heuristics = []grid.Heuristic{grid.Auto, grid.OctileDistance, grid.ManhattanDistance, grid.EuclideanDistance, grid.ChebyshevDistance}

func parseHeuristic(name string) (grid.Heuristic, bool) {
	for _, h := range heuristics {
		if h.String() == name {
			return h, true
		}
	}
	return grid.Auto, false
}

func heuristicNames() string {
	names := make([]string, len(heuristics))
	for i, h := range heuristics {
		names[i] = h.String()
	}
	return strings.Join(names, ", ")
}
