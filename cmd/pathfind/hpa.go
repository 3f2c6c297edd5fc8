package main

import (
	"fmt"
	"image"
	"math"
	"os"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/smooth"
)

// hpaRouter answers queries with HPA*, and smooths the paths by line of
// sight when asked.
type hpaRouter struct {
	g      *grid.Grid
	hg     *hpa.Graph
	q      *hpa.Searcher
	smooth bool
	query  hpa.Query
	cells  []image.Point // the cell path, before smoothing
}

// newHPARouter loads the graph from -graph, or builds it with the default
// options.
func newHPARouter(g *grid.Grid, rf *routerFlags) (router, error) {
	hg, err := loadGraph(g, rf.graph)
	if err != nil {
		return nil, err
	}
	r := newHPARouterFor(g, hg, rf.smooth)
	r.query.Weight = rf.hpaWeight
	return r, nil
}

// newHPARouterFor returns a router that answers with hg, a graph of g.
func newHPARouterFor(g *grid.Grid, hg *hpa.Graph, smooth bool) *hpaRouter {
	return &hpaRouter{g: g, hg: hg, q: hpa.NewSearcher(hg), smooth: smooth}
}

func loadGraph(g *grid.Grid, path string) (*hpa.Graph, error) {
	if path == "" {
		return hpa.Build(g, hpa.Options{})
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("-graph %w", err)
	}
	defer f.Close()
	hg, err := hpa.Read(f, g)
	if err == nil {
		err = atEnd(f, "graph")
	}
	if err != nil {
		return nil, fmt.Errorf("-graph %s: %w", path, err)
	}
	return hg, nil
}

func (r *hpaRouter) route(dst []image.Point, from, to image.Point) ([]image.Point, stats, error) {
	if !r.smooth {
		dst, res, err := r.q.AppendPath(dst, from, to, r.query)
		return dst, hpaStats(res), err
	}
	var res hpa.Result
	var err error
	r.cells, res, err = r.q.AppendPath(r.cells[:0], from, to, r.query)
	if err != nil {
		return dst, stats{}, err
	}
	st := stats{expanded: res.Expanded, status: res.Status, turns: true}
	if res.Status == core.Found {
		n0 := len(dst)
		dst = smooth.AppendCornerTurns(dst, r.cells, r.g.LineOfSight)
		st.cost = smooth.Length(dst[n0:])
	}
	return dst, st, nil
}

// hpaStats returns the figures of an HPA* query's result.
func hpaStats(res hpa.Result) stats {
	return stats{cost: res.Cost, expanded: res.Expanded, status: res.Status}
}

func (r *hpaRouter) traceRoute(dst []image.Point, from, to image.Point, t *trace) ([]image.Point, stats, error) {
	dst, st, err := r.route(dst, from, to)
	if err != nil {
		return dst, st, err
	}
	t.graph = r.hg
	t.abstract, _ = r.q.AppendAbstract(t.abstract)
	if r.smooth {
		t.cells = append(t.cells, r.cells...)
	}
	return dst, st, nil
}

// verifyTurns checks a smoothed path, whose ends verify has checked: each
// leg has line of sight on g, and the reported cost is the Euclidean length.
func verifyTurns(g *grid.Grid, path []image.Point, st stats) error {
	for i := 1; i < len(path); i++ {
		if !g.LineOfSight(path[i-1], path[i]) {
			return fmt.Errorf("leg %d from %s to %s has no line of sight", i, pointString(path[i-1]), pointString(path[i]))
		}
	}
	if length := smooth.Length(path); math.Abs(length-st.cost) > 1e-6*max(1, length) {
		return fmt.Errorf("reported length %v, but the turning points are %v apart", st.cost, length)
	}
	return nil
}

// subopt accumulates the relative excess of path costs over scenario optima.
type subopt struct {
	n     int
	sum   float64
	worst float64
}

// add records excess e of a path whose optimum is opt; optima of 0 (start
// and goal the same cell) are left out.
func (s *subopt) add(e, opt float64) {
	if !(opt > 0) {
		return
	}
	if s.n == 0 || e > s.worst {
		s.worst = e
	}
	s.n++
	s.sum += e
}

func (s *subopt) mean() float64 {
	if s.n == 0 {
		return 0
	}
	return s.sum / float64(s.n)
}
