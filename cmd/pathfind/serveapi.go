package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"mime"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/navmesh"
)

// maxBody is the most bytes a request body of the API may hold; its JSON is
// a few numbers.
const maxBody = 4 << 10

// server keeps the current world of "pathfind serve". Routes and traces
// read it without waiting for edits and run on the workers of routes;
// edits and resets take turns on edit, each building the next world from
// the current one, and apply themselves to the crowd, if one runs, while
// they hold that turn.
type server struct {
	name       string
	orig       *world // as loaded, for /api/reset
	routes     *routePool
	edit       chan struct{} // holds a token while an edit, a reset or a crowd's start runs
	cur        atomic.Pointer[world]
	traceLimit int // the most expansions a trace records
	crowd      serveCrowd
}

// newServer returns the server of g, named name, with hg its HPA* graph and
// l its limits. It builds the navmesh of g (BenchmarkFromGrid in navmesh
// measures that).
func newServer(name string, g *grid.Grid, hg *hpa.Graph, l serveLimits) (*server, error) {
	return newServerMesh(name, g, hg, nil, l)
}

// newServerMesh is [newServer] with nm the navmesh of g for a point agent,
// read from a file (see openServer), or nil to build it. The mesh, like
// the grid and the graph, is shared read-only by every worker, each with
// a navmesh.Searcher of its own; edits build the edited map's mesh, and a
// reset goes back to nm.
func newServerMesh(name string, g *grid.Grid, hg *hpa.Graph, nm *navmesh.Mesh, l serveLimits) (*server, error) {
	if nm == nil {
		var err error
		if nm, err = navmesh.FromGrid(g, navmesh.Options{}); err != nil {
			return nil, err
		}
	}
	l = l.withDefaults()
	s := &server{name: name, orig: newWorld(0, g, hg, nm), routes: newRoutePool(l), edit: make(chan struct{}, 1), traceLimit: l.Trace}
	s.cur.Store(s.orig)
	return s, nil
}

// close makes requests waiting for their turn, and those that come later,
// answer 503 at once, so that a graceful shutdown waits only for the
// requests running.
func (s *server) close() { s.routes.close() }

// mapResponse is the answer of GET /api/map.
type mapResponse struct {
	Name    string `json:"name"`
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Version uint64 `json:"version"`
	// Blocked is the base64 of a bitset of width×height bits, bit y·width+x
	// (least significant bit of each byte first) set for a blocked cell.
	Blocked     string        `json:"blocked"`
	ClusterSize int           `json:"clusterSize"`
	Levels      int           `json:"levels"`
	Algos       []legendEntry `json:"algos"`
}

// legendEntry is an entry of serveAlgos as GET /api/map lists it. Every
// entry has a search, so Available is always true; the page no longer reads
// it, and it stays so that the answer is as it was.
type legendEntry struct {
	serveAlgo
	Available bool `json:"available"`
}

// serveLegend is serveAlgos as GET /api/map lists it.
var serveLegend = func() []legendEntry {
	l := make([]legendEntry, len(serveAlgos))
	for i, a := range serveAlgos {
		l[i] = legendEntry{serveAlgo: a, Available: true}
	}
	return l
}()

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
	Status string `json:"status"` // found or unreachable, as core.Status spells them
	// Length is the path's cost (the Euclidean length of the legs when
	// Turns), or null when no path was found.
	Length   *float64 `json:"length"`
	Expanded int      `json:"expanded"`
	Micros   float64  `json:"micros"`
	// Turns is set when Path holds turning points joined by straight legs
	// rather than cells joined by single moves.
	Turns bool `json:"turns"`
	// World is set when Path holds waypoints in world coordinates, joined
	// by straight legs from the centre of the start cell to that of the
	// goal cell (the navmesh), rather than cells, whose centres the legs
	// join.
	World bool `json:"world"`
	// Path is x0, y0, x1, y1, …: start and goal included, empty when no
	// path was found. Cells are whole numbers; waypoints may not be.
	Path []float64 `json:"path"`
}

// editRequest is the body of POST /api/edit: the cells of the half-open
// rectangle [x0, x1) × [y0, y1), clipped to the map, become blocked or free.
type editRequest struct {
	Rect    []int `json:"rect"`
	Blocked *bool `json:"blocked"`
}

// editResponse is the answer of POST /api/edit and POST /api/reset.
type editResponse struct {
	Version uint64 `json:"version"`
	Rect    [4]int `json:"rect"`    // the edit's rectangle clipped to the map
	Blocked bool   `json:"blocked"` // what the rectangle's cells became
	Changed int    `json:"changed"` // cells whose state changed
	// Micros is the time of the whole edit: the grid copy, the HPA* update
	// and the navmesh rebuild, which MeshMicros gives alone.
	Micros     float64 `json:"micros"`
	MeshMicros float64 `json:"meshMicros"`
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
		Algos:       serveLegend,
	})
}

// handleRoute answers a route with every entry of serveAlgos, on a worker
// of the pool: at once when one is free, after waiting in the queue
// otherwise, or 503 with Retry-After when the queue is full or no worker
// comes free in time (see [routePool]).
func (s *server) handleRoute(w http.ResponseWriter, r *http.Request) {
	var req routeRequest
	if !decodeRequest(w, r, &req) {
		return
	}
	from, err := cellArg(req.From, "from")
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	to, err := cellArg(req.To, "to")
	if err == nil {
		// Bad ends are answered without waiting for a worker.
		err = checkEnds(s.cur.Load().g, from, to)
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
	// The world is taken again after the wait, so that a route runs on the
	// map as it is when it starts, and only once: the ends are checked on
	// the world that the searches then read.
	wd := s.cur.Load()
	if err := checkEnds(wd.g, from, to); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	wk := s.routes.worker(sl, wd)
	if !wk.warm {
		// A new worker allocates its scratch on its first searches; run them
		// once so that the times below are those of warm searchers.
		for _, a := range serveAlgos {
			a.run(wk, from, to)
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
		if r.Context().Err() != nil {
			return // the client went away: free the worker for the next
		}
		sv, err := a.run(wk, from, to)
		if err != nil {
			// The ends were checked above: this is a bug, not bad input.
			writeError(w, http.StatusInternalServerError, fmt.Sprintf("%s: %v", a.ID, err))
			return
		}
		resp.Results = append(resp.Results, sv.result(a.ID))
	}
	writeJSON(w, http.StatusOK, resp)
}

// checkEnds checks the ends of a route on g.
func checkEnds(g *grid.Grid, from, to image.Point) error {
	if err := checkEnd(g, from, "start"); err != nil {
		return err
	}
	return checkEnd(g, to, "goal")
}

// lockEdits waits for the turn of an edit or reset, for at most the wait
// of routes; on success the caller must call unlockEdits. An edit holds no
// worker of routes, and routes never wait for edits.
func (s *server) lockEdits(ctx context.Context) error {
	select {
	case s.edit <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(s.routes.wait)
	defer t.Stop()
	select {
	case s.edit <- struct{}{}:
		return nil
	case <-t.C:
		return fmt.Errorf("busy: the edits before this one took over %v; try again shortly", s.routes.wait)
	case <-s.routes.closing:
		return errors.New("the server is shutting down")
	case <-ctx.Done():
		return fmt.Errorf("request cancelled while waiting for an edit: %w", ctx.Err())
	}
}

func (s *server) unlockEdits() { <-s.edit }

// handleEdit changes the cells of a rectangle. Edits and resets take turns,
// each waiting at most the wait of routes (503 with Retry-After after
// that); an edit copies the grid, updates the touched HPA* clusters and
// builds the navmesh again (BenchmarkServeEdit measures it), then makes
// the new world current, and edits the crowd's grid and repairs its
// agents' paths (see [serveCrowd.edit]). It waits for no route and no
// route waits for it, but it shares the cores with them, so under load it
// takes longer (the README gives figures); it waits for a crowd's step in
// progress. The first route on each worker after an edit makes that
// worker's searchers again.
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

	if err := s.lockEdits(r.Context()); err != nil {
		writeBusy(w, err.Error())
		return
	}
	defer s.unlockEdits()
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
	var meshTook time.Duration
	if changed > 0 {
		g := cur.g.WithCells(rect, !blocked)
		hg, err := cur.hg.Update(g, rect)
		if err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		// The navmesh has no local update: it is built again, most of an
		// edit's time (BenchmarkServeEdit).
		t1 := time.Now()
		nm, err := navmesh.FromGrid(g, navmesh.Options{})
		meshTook = time.Since(t1)
		if err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		next = newWorld(cur.version+1, g, hg, nm)
		s.cur.Store(next)
	}
	took := time.Since(t0)
	if changed > 0 {
		// Before the answer, so that a crowd step after it sees the edit;
		// its time is the crowd's own, not the edit's.
		s.crowd.edit(next.version, rect, !blocked)
	}
	writeJSON(w, http.StatusOK, editResponse{
		Version:    next.version,
		Rect:       [4]int{rect.Min.X, rect.Min.Y, rect.Max.X, rect.Max.Y},
		Blocked:    blocked,
		Changed:    changed,
		Micros:     roundMicros(took),
		MeshMicros: roundMicros(meshTook),
	})
}

// handleReset restores the map as loaded, as a new version, and moves the
// crowd, if one runs, onto it (see [serveCrowd.rebase]).
func (s *server) handleReset(w http.ResponseWriter, r *http.Request) {
	var req struct{}
	if !decodeRequest(w, r, &req) {
		return
	}
	if err := s.lockEdits(r.Context()); err != nil {
		writeBusy(w, err.Error())
		return
	}
	defer s.unlockEdits()
	next := newWorld(s.cur.Load().version+1, s.orig.g, s.orig.hg, s.orig.nm)
	s.cur.Store(next)
	s.crowd.rebase(next)
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

// writeBusy answers 503 with Retry-After and a JSON error.
func writeBusy(w http.ResponseWriter, msg string) {
	w.Header().Set("Retry-After", retryAfter)
	writeError(w, http.StatusServiceUnavailable, msg)
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
