package main

import (
	"fmt"
	"image"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
)

// traceLimit is the default of serveLimits.Trace: the most expansions a
// trace records. A trace answer holds about 20 bytes of JSON an expansion,
// so the longest is some 4 MB.
const traceLimit = 200_000

// Weights of the traced searches: weighted A* takes one in
// [1, traceMaxWeight] (2 by default), and greedy best-first is weighted A*
// of greedyWeight, so large that the cost so far only breaks ties.
const (
	traceMaxWeight = 10
	greedyWeight   = 1e6
)

// traceAlgos are the searches GET /api/trace plays: plain A*, Dijkstra
// (the zero heuristic), weighted A*, greedy best-first (weighted A* of
// greedyWeight) and jump point search (whose expansions are jump points).
var traceAlgos = []string{"astar", "dijkstra", "weighted", "greedy", "jps"}

// traceHeuristics are the heuristics a trace may name; Dijkstra takes none.
var traceHeuristics = []grid.Heuristic{grid.OctileDistance, grid.ManhattanDistance, grid.EuclideanDistance, grid.ChebyshevDistance}

// traceRequest is a parsed GET /api/trace.
type traceRequest struct {
	algo     string
	from, to image.Point
	q        grid.Query
}

// traceResponse is the answer of GET /api/trace: one search, its
// expansions in order and what it left.
type traceResponse struct {
	Version   uint64  `json:"version"`
	Algo      string  `json:"algo"`
	Heuristic string  `json:"heuristic"` // as grid.Heuristic spells it: zero for Dijkstra
	Weight    float64 `json:"weight"`
	// Jump is set when the expansions are jump points (jps on an
	// 8-connected map without terrain costs), not every cell touched.
	Jump bool `json:"jump"`
	// Connectivity is 8 or 4: the moves of the map, which the page needs to
	// draw the frontier of a plain search as it plays.
	Connectivity int    `json:"connectivity"`
	From         [2]int `json:"from"`
	To           [2]int `json:"to"`
	Status       string `json:"status"` // found, unreachable or budget spent
	// Cost is the path's cost, or null when no path was found.
	Cost     *float64 `json:"cost"`
	Expanded int      `json:"expanded"` // as grid.Result counts them: len(g)
	// Limit is the most expansions a trace records; a search that reaches
	// it stops there, Truncated set and status "budget spent".
	Limit     int  `json:"limit"`
	Truncated bool `json:"truncated"`
	// Cells is x0, y0, x1, y1, …: the expanded cells in the order of
	// their expansion, and G the cost from the start of each, rounded down
	// to a thousandth.
	Cells []int32   `json:"cells"`
	G     []float64 `json:"g"`
	// Open is x0, y0, …: the cells left on the open list at the end.
	Open []int32 `json:"open"`
	// Path is x0, y0, …: the path's cells, start and goal included; empty
	// unless found.
	Path []int32 `json:"path"`
	// Micros is the search's time, recording included.
	Micros float64 `json:"micros"`
}

// parseTrace reads the parameters of GET /api/trace: algo, from=x,y, to=x,y,
// heuristic (any but for dijkstra; octile by default) and weight (weighted
// only).
func parseTrace(v url.Values, limit int) (traceRequest, error) {
	known := map[string]bool{"algo": true, "from": true, "to": true, "heuristic": true, "weight": true}
	for k, vs := range v {
		if !known[k] {
			return traceRequest{}, fmt.Errorf("unknown parameter %q: want algo, from, to, heuristic, weight", k)
		}
		if len(vs) > 1 {
			return traceRequest{}, fmt.Errorf("parameter %s given %d times", k, len(vs))
		}
	}
	r := traceRequest{algo: v.Get("algo"), q: grid.Query{MaxExpansions: limit, Plain: true}}
	switch {
	case r.algo == "":
		return r, fmt.Errorf("algo is required: one of %s", strings.Join(traceAlgos, ", "))
	case !slices.Contains(traceAlgos, r.algo):
		return r, fmt.Errorf("unknown algo %q: want one of %s", r.algo, strings.Join(traceAlgos, ", "))
	}
	var err error
	if r.from, err = cellParam(v, "from"); err != nil {
		return r, err
	}
	if r.to, err = cellParam(v, "to"); err != nil {
		return r, err
	}
	r.q.Heuristic = grid.OctileDistance
	if h := v.Get("heuristic"); r.algo == "dijkstra" {
		if v.Has("heuristic") {
			return r, fmt.Errorf("heuristic %q: dijkstra takes none", h)
		}
		r.q.Heuristic = grid.Zero
	} else if v.Has("heuristic") {
		if r.q.Heuristic, err = heuristicParam(h); err != nil {
			return r, err
		}
	}
	switch w := v.Get("weight"); {
	case r.algo == "weighted":
		r.q.Weight = 2
		if v.Has("weight") {
			r.q.Weight, err = strconv.ParseFloat(w, 64)
			if err != nil || !(r.q.Weight >= 1 && r.q.Weight <= traceMaxWeight) {
				return r, fmt.Errorf("weight %q, want a number from 1 to %d", w, traceMaxWeight)
			}
		}
	case v.Has("weight"):
		return r, fmt.Errorf("weight %q: only algo=weighted takes one", w)
	case r.algo == "greedy":
		r.q.Weight = greedyWeight
	}
	r.q.Plain = r.algo != "jps"
	return r, nil
}

// cellParam reads the cell "x,y" of parameter name.
func cellParam(v url.Values, name string) (image.Point, error) {
	s := v.Get(name)
	if !v.Has(name) {
		return image.Point{}, fmt.Errorf("%s is required: a cell x,y", name)
	}
	xs, ys, ok := strings.Cut(s, ",")
	x, errx := strconv.Atoi(xs)
	y, erry := strconv.Atoi(ys)
	if !ok || errx != nil || erry != nil {
		return image.Point{}, fmt.Errorf("%s %q, want a cell x,y of two whole numbers", name, s)
	}
	return image.Pt(x, y), nil
}

// heuristicParam reads a heuristic by the name grid.Heuristic gives it.
func heuristicParam(s string) (grid.Heuristic, error) {
	names := make([]string, len(traceHeuristics))
	for i, h := range traceHeuristics {
		if h.String() == s {
			return h, nil
		}
		names[i] = h.String()
	}
	return 0, fmt.Errorf("unknown heuristic %q: want one of %s", s, strings.Join(names, ", "))
}

// handleTrace runs one search with every expansion recorded, on a worker of
// routes (waiting for one as a route does), and answers the expansions in
// order, the open list at the end and the path. The search stops at the
// server's trace limit.
func (s *server) handleTrace(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet) {
		return
	}
	tr, err := parseTrace(r.URL.Query(), s.traceLimit)
	if err == nil {
		err = checkEnds(s.cur.Load().g, tr.from, tr.to)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	sl, err := s.routes.acquire(r.Context())
	if err != nil {
		writeBusy(w, s.routes.refusal(err))
		return
	}
	defer s.routes.release(sl)
	wd := s.cur.Load() // again after the wait, as a route does
	if err := checkEnds(wd.g, tr.from, tr.to); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	wk := s.routes.worker(sl, wd)
	g := wd.g
	resp := traceResponse{
		Version:      wd.version,
		Algo:         tr.algo,
		Heuristic:    tr.q.Heuristic.String(),
		Weight:       max(tr.q.Weight, 1),
		Jump:         !tr.q.Plain && g.Connectivity() == grid.Eight && !g.HasCosts(),
		Connectivity: 8,
		From:         [2]int{tr.from.X, tr.from.Y},
		To:           [2]int{tr.to.X, tr.to.Y},
		Limit:        s.traceLimit,
		Cells:        []int32{},
		G:            []float64{},
		Path:         []int32{},
	}
	if g.Connectivity() == grid.Four {
		resp.Connectivity = 4
	}
	q := tr.q
	q.OnExpand = func(p image.Point, c float64) {
		resp.Cells = append(resp.Cells, int32(p.X), int32(p.Y))
		resp.G = append(resp.G, math.Floor(c*1000)/1000)
	}
	t0 := time.Now()
	path, res, err := wk.gs.AppendPath(wk.path[:0], tr.from, tr.to, q)
	resp.Micros = roundMicros(time.Since(t0))
	wk.path = path
	if err != nil {
		// The ends were checked above: this is a bug, not bad input.
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	resp.Status = res.Status.String()
	resp.Expanded = res.Expanded
	resp.Truncated = res.Status == core.BudgetSpent
	if res.Status == core.Found {
		resp.Cost = &res.Cost
		resp.Path = appendXY(resp.Path, path)
	}
	resp.Open = appendXY([]int32{}, wk.gs.AppendOpen(nil))
	writeJSON(w, http.StatusOK, resp)
}

// appendXY appends the coordinates of cells to dst, x then y.
func appendXY(dst []int32, cells []image.Point) []int32 {
	for _, p := range cells {
		dst = append(dst, int32(p.X), int32(p.Y))
	}
	return dst
}
