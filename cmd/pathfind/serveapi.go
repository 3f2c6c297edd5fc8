package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"mime"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/smooth"
)

// maxBody is the most bytes a request body of the API may hold; its JSON is
// a few numbers.
const maxBody = 4 << 10

// Route statuses the server adds to those of core.Status.
const statusUnavailable = "unavailable"

// world is one version of the map: a grid and the HPA* graph built for it,
// both immutable and shared by every request, and a pool of workers that
// search them. An edit makes a new world; requests that began on the old one
// finish on it.
type world struct {
	version uint64
	g       *grid.Grid
	hg      *hpa.Graph
	workers sync.Pool // of *worker for g and hg
}

func newWorld(version uint64, g *grid.Grid, hg *hpa.Graph) *world {
	w := &world{version: version, g: g, hg: hg}
	w.workers.New = func() any {
		return &worker{w: w, gs: grid.NewSearcher(g), hq: hpa.NewQuery(hg)}
	}
	return w
}

// worker owns the searchers and buffers of one request at a time.
type worker struct {
	w     *world
	gs    *grid.Searcher
	hq    *hpa.Query
	cells []image.Point
	path  []image.Point
	warm  bool // the searchers' scratch has been allocated
	// The HPA* query of the current request, which the smoothed entry
	// smooths instead of asking again.
	hpaOK          bool
	hpaFrom, hpaTo image.Point
	hpaRes         hpa.Result
	hpaTook        time.Duration
}

// server keeps the current world of "pathfind serve". Routes read it
// without waiting; edits and resets are serialised by mu, each building the
// next world from the current one.
type server struct {
	name string
	orig *world // as loaded, for /api/reset
	mu   sync.Mutex
	cur  atomic.Pointer[world]
}

func newServer(name string, g *grid.Grid, hg *hpa.Graph) *server {
	s := &server{name: name, orig: newWorld(0, g, hg)}
	s.cur.Store(s.orig)
	return s
}

// serveAlgo is one layer the page compares, in the order of its legend.
// run is nil for a layer that is not available yet: the page lists it with
// its note, and routes answer it with status "unavailable".
type serveAlgo struct {
	ID        string `json:"id"`
	Label     string `json:"label"`
	Colour    string `json:"colour"`
	Available bool   `json:"available"`
	Note      string `json:"note,omitempty"`
	run       runFunc
}

// serveAlgos is the legend of the page. The navmesh entry is the hook for
// the navmesh layer: give it a run function, and the world a mesh built from
// (and, after edits, rebuilt for) its grid.
var serveAlgos = func() []serveAlgo {
	as := []serveAlgo{
		{ID: "astar", Label: "A* (jump points)", Colour: "#d62728", run: runGrid(grid.Query{})},
		{ID: "dijkstra", Label: "Dijkstra", Colour: "#1f77b4", run: runGrid(grid.Query{Heuristic: grid.Zero, Plain: true})},
		{ID: "hpa", Label: "HPA*", Colour: "#ff7f0e", run: runHPA(false)},
		{ID: "hpa-smooth", Label: "HPA* + smoothing", Colour: "#2ca02c", run: runHPA(true)},
		{ID: "navmesh", Label: "Navmesh + funnel", Colour: "#9467bd", Note: "the navmesh layer is not wired into serve yet"},
	}
	for i := range as {
		as[i].Available = as[i].run != nil
	}
	return as
}()

// runFunc answers one query with a worker's searchers and says how long
// it took. The path it returns is the worker's until its next query.
type runFunc = func(wk *worker, from, to image.Point) ([]image.Point, stats, time.Duration, error)

func runGrid(q grid.Query) runFunc {
	return func(wk *worker, from, to image.Point) ([]image.Point, stats, time.Duration, error) {
		t0 := time.Now()
		path, res, err := wk.gs.AppendPath(wk.path[:0], from, to, q)
		took := time.Since(t0)
		wk.path = path
		return path, stats{cost: res.Cost, expanded: res.Expanded, status: res.Status.String()}, took, err
	}
}

// runHPA answers with HPA*. The smoothed entry smooths the cells of the
// request's HPA* query when there was one (its time is then the query's
// plus the smoothing's), so that both entries show the same query.
func runHPA(smoothed bool) runFunc {
	return func(wk *worker, from, to image.Point) ([]image.Point, stats, time.Duration, error) {
		if !smoothed || !wk.hpaOK || wk.hpaFrom != from || wk.hpaTo != to {
			t0 := time.Now()
			cells, res, err := wk.hq.AppendPath(wk.cells[:0], from, to)
			took := time.Since(t0)
			wk.cells = cells
			if err != nil {
				wk.hpaOK = false
				return nil, stats{}, took, err
			}
			wk.hpaOK, wk.hpaFrom, wk.hpaTo, wk.hpaRes, wk.hpaTook = true, from, to, res, took
		}
		res := wk.hpaRes
		st := stats{cost: res.Cost, expanded: res.Expanded, status: res.Status.String()}
		if !smoothed {
			return wk.cells, st, wk.hpaTook, nil
		}
		t0 := time.Now()
		st.turns = true
		wk.path = wk.path[:0]
		if res.Status == core.Found {
			wk.path = smooth.AppendCornerTurns(wk.path, wk.cells, wk.w.g.LineOfSight)
			st.cost = smooth.Length(wk.path)
		}
		return wk.path, st, wk.hpaTook + time.Since(t0), nil
	}
}

// mapResponse is the answer of GET /api/map.
type mapResponse struct {
	Name    string `json:"name"`
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Version uint64 `json:"version"`
	// Blocked is the base64 of a bitset of width×height bits, bit y·width+x
	// (least significant bit of each byte first) set for a blocked cell.
	Blocked     string      `json:"blocked"`
	ClusterSize int         `json:"clusterSize"`
	Levels      int         `json:"levels"`
	Algos       []serveAlgo `json:"algos"`
}

// routeRequest is the body of POST /api/route: two cells as [x, y].
type routeRequest struct {
	From []int `json:"from"`
	To   []int `json:"to"`
}

// routeResponse is the answer of POST /api/route, one result per entry of
// serveAlgos.
type routeResponse struct {
	Version uint64        `json:"version"`
	From    [2]int        `json:"from"`
	To      [2]int        `json:"to"`
	Results []routeResult `json:"results"`
}

type routeResult struct {
	Algo   string `json:"algo"`
	Status string `json:"status"` // found, unreachable or unavailable
	// Length is the path's cost (the Euclidean length of the legs when
	// Turns), or null when no path was found.
	Length   *float64 `json:"length"`
	Expanded int      `json:"expanded"`
	Micros   float64  `json:"micros"`
	// Turns is set when Path holds turning points joined by straight legs
	// rather than cells joined by single moves.
	Turns bool `json:"turns"`
	// Path is x0, y0, x1, y1, …: start and goal included, empty when no
	// path was found.
	Path []int `json:"path"`
}

// editRequest is the body of POST /api/edit: the cells of the half-open
// rectangle [x0, x1) × [y0, y1), clipped to the map, become blocked or free.
type editRequest struct {
	Rect    []int `json:"rect"`
	Blocked *bool `json:"blocked"`
}

// editResponse is the answer of POST /api/edit and POST /api/reset.
type editResponse struct {
	Version uint64  `json:"version"`
	Rect    [4]int  `json:"rect"`    // the edit's rectangle clipped to the map
	Blocked bool    `json:"blocked"` // what the rectangle's cells became
	Changed int     `json:"changed"` // cells whose state changed
	Micros  float64 `json:"micros"`  // time of the grid copy and HPA* update
}

type errorResponse struct {
	Error string `json:"error"`
}

func (s *server) handleMap(w http.ResponseWriter, r *http.Request) {
	if !allowMethod(w, r, http.MethodGet) {
		return
	}
	wd := s.cur.Load()
	g := wd.g
	bits := make([]byte, (g.Width()*g.Height()+7)/8)
	i := 0
	for y := range g.Height() {
		for x := range g.Width() {
			if !g.Passable(image.Pt(x, y)) {
				bits[i>>3] |= 1 << (i & 7)
			}
			i++
		}
	}
	writeJSON(w, http.StatusOK, mapResponse{
		Name:        s.name,
		Width:       g.Width(),
		Height:      g.Height(),
		Version:     wd.version,
		Blocked:     base64.StdEncoding.EncodeToString(bits),
		ClusterSize: wd.hg.ClusterSize(),
		Levels:      wd.hg.Levels(),
		Algos:       serveAlgos,
	})
}

func (s *server) handleRoute(w http.ResponseWriter, r *http.Request) {
	var req routeRequest
	if !decodeRequest(w, r, &req) {
		return
	}
	wd := s.cur.Load()
	from, err := cellArg(req.From, "from")
	if err == nil {
		err = checkEnd(wd.g, from, "start")
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	to, err := cellArg(req.To, "to")
	if err == nil {
		err = checkEnd(wd.g, to, "goal")
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}

	wk := wd.workers.Get().(*worker)
	defer wd.workers.Put(wk)
	if !wk.warm {
		// A new worker allocates its scratch on its first searches; run them
		// once so that the times below are those of warm searchers.
		for _, a := range serveAlgos {
			if a.run != nil {
				a.run(wk, from, to)
			}
		}
		wk.warm = true
	}
	wk.hpaOK = false
	resp := routeResponse{
		Version: wd.version,
		From:    [2]int{from.X, from.Y},
		To:      [2]int{to.X, to.Y},
		Results: make([]routeResult, 0, len(serveAlgos)),
	}
	for _, a := range serveAlgos {
		res := routeResult{Algo: a.ID, Status: statusUnavailable, Path: []int{}}
		if a.run != nil {
			path, st, took, err := a.run(wk, from, to)
			res.Micros = roundMicros(took)
			if err != nil {
				// The ends were checked above: this is a bug, not bad input.
				writeError(w, http.StatusInternalServerError, fmt.Sprintf("%s: %v", a.ID, err))
				return
			}
			res.Status, res.Expanded, res.Turns = st.status, st.expanded, st.turns
			if st.status == statusFound {
				res.Length = &st.cost
				for _, p := range path {
					res.Path = append(res.Path, p.X, p.Y)
				}
			}
		}
		resp.Results = append(resp.Results, res)
	}
	writeJSON(w, http.StatusOK, resp)
}

func (s *server) handleEdit(w http.ResponseWriter, r *http.Request) {
	var req editRequest
	if !decodeRequest(w, r, &req) {
		return
	}
	if len(req.Rect) != 4 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("rect has %d numbers, want [x0, y0, x1, y1]", len(req.Rect)))
		return
	}
	if req.Blocked == nil {
		writeError(w, http.StatusBadRequest, "blocked is required (true or false)")
		return
	}
	x0, y0, x1, y1 := req.Rect[0], req.Rect[1], req.Rect[2], req.Rect[3]
	if x0 >= x1 || y0 >= y1 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("rect [%d, %d, %d, %d] is empty: want x0 < x1 and y0 < y1", x0, y0, x1, y1))
		return
	}
	blocked := *req.Blocked

	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.cur.Load()
	rect := image.Rect(x0, y0, x1, y1).Intersect(cur.g.Bounds())
	if rect.Empty() {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("rect [%d, %d, %d, %d] is outside the %d×%d map", x0, y0, x1, y1, cur.g.Width(), cur.g.Height()))
		return
	}
	t0 := time.Now()
	changed := 0
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			if cur.g.Passable(image.Pt(x, y)) == blocked {
				changed++
			}
		}
	}
	next := cur
	if changed > 0 {
		g := cur.g.WithCells(rect, !blocked)
		hg, err := cur.hg.Update(g, rect)
		if err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		next = newWorld(cur.version+1, g, hg)
		s.cur.Store(next)
	}
	writeJSON(w, http.StatusOK, editResponse{
		Version: next.version,
		Rect:    [4]int{rect.Min.X, rect.Min.Y, rect.Max.X, rect.Max.Y},
		Blocked: blocked,
		Changed: changed,
		Micros:  roundMicros(time.Since(t0)),
	})
}

// handleReset restores the map as loaded, as a new version.
func (s *server) handleReset(w http.ResponseWriter, r *http.Request) {
	var req struct{}
	if !decodeRequest(w, r, &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	next := newWorld(s.cur.Load().version+1, s.orig.g, s.orig.hg)
	s.cur.Store(next)
	writeJSON(w, http.StatusOK, editResponse{Version: next.version, Rect: [4]int{0, 0, next.g.Width(), next.g.Height()}})
}

// roundMicros returns d in microseconds, rounded to a tenth.
func roundMicros(d time.Duration) float64 { return math.Round(float64(d.Nanoseconds())/100) / 10 }

// cellArg converts a JSON [x, y] to a point.
func cellArg(v []int, name string) (image.Point, error) {
	if len(v) != 2 {
		return image.Point{}, fmt.Errorf("%s has %d numbers, want [x, y]", name, len(v))
	}
	return image.Pt(v[0], v[1]), nil
}

// allowMethod answers 405 with a JSON error unless r uses method.
func allowMethod(w http.ResponseWriter, r *http.Request, method string) bool {
	if r.Method == method || (method == http.MethodGet && r.Method == http.MethodHead) {
		return true
	}
	w.Header().Set("Allow", method)
	writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s wants %s, not %s", r.URL.Path, method, r.Method))
	return false
}

// decodeRequest reads the JSON body of a POST into v and answers 400 when
// it is not one JSON object of v's fields, at most maxBody bytes long, sent
// as application/json. Requiring that content type also keeps other web
// pages from posting edits: a browser sends it across origins only after a
// preflight, which this server does not grant.
func decodeRequest(w http.ResponseWriter, r *http.Request, v any) bool {
	if !allowMethod(w, r, http.MethodPost) {
		return false
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeError(w, http.StatusBadRequest, "want Content-Type application/json")
		return false
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if err = dec.Decode(&struct{}{}); err == io.EOF {
			return true
		}
		if _, ok := errors.AsType[*http.MaxBytesError](err); !ok {
			err = errors.New("more than one JSON value")
		}
	}
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		err = fmt.Errorf("body over %d bytes", maxBody)
	}
	writeError(w, http.StatusBadRequest, "bad request body: "+err.Error())
	return false
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, errorResponse{Error: msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v) // a failed write means the client left
}
