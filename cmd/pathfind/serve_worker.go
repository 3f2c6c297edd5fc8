package main

import (
	"image"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/cairn-nav/cairn/smooth"
)

// world is one version of the map: a grid, the HPA* graph and the navmesh
// (for a point agent) built for it, all immutable and shared by every
// request. An edit makes a new world and never changes an old one: a route
// takes the current world once, checks its ends and searches on that world
// alone, so an edit while it runs cannot tear its view of the map; it
// answers for the version it names.
type world struct {
	version uint64
	g       *grid.Grid
	hg      *hpa.Graph
	nm      *navmesh.Mesh
}

func newWorld(version uint64, g *grid.Grid, hg *hpa.Graph, nm *navmesh.Mesh) *world {
	return &world{version: version, g: g, hg: hg, nm: nm}
}

// worker owns the searchers and buffers of one route at a time, on one
// world. The [routePool] keeps one per slot.
type worker struct {
	w      *world
	gs     *grid.Searcher
	hq     *hpa.Searcher
	nq     *navmesh.Searcher
	cells  []image.Point
	path   []image.Point
	points []mgl64.Vec2
	warm   bool // the searchers' scratch has been allocated
	// The HPA* query of the current request, which the smoothed entry
	// smooths instead of asking again.
	hpaOK          bool
	hpaFrom, hpaTo image.Point
	hpaRes         hpa.Result
	hpaTook        time.Duration
}

// newWorker returns a worker for w. Its grid searcher takes about 16 bytes
// per cell at once; the other searchers' scratch grows on the first routes.
func newWorker(w *world) *worker {
	return &worker{w: w, gs: grid.NewSearcher(w.g), hq: hpa.NewSearcher(w.hg), nq: navmesh.NewSearcher(w.nm)}
}

// runFunc answers one query with a worker's searchers. The paths it
// returns are the worker's until its next query.
type runFunc = func(wk *worker, from, to image.Point) (served, error)

// served is one entry's answer to a query: a path of cells, or of
// waypoints in world coordinates, its figures and how long it took.
type served struct {
	cells  []image.Point
	points []mgl64.Vec2 // set instead of cells by any-angle entries
	st     stats
	took   time.Duration
}

// runGrid answers with a grid search of heuristic h, as -algo does (with
// no budget, and jump points where h and the map allow).
func runGrid(h grid.Heuristic) runFunc {
	q := gridQueryOf(h, 0, false)
	return func(wk *worker, from, to image.Point) (served, error) {
		t0 := time.Now()
		path, res, err := wk.gs.AppendPath(wk.path[:0], from, to, q)
		took := time.Since(t0)
		wk.path = path
		return served{cells: path, st: gridStats(res), took: took}, err
	}
}

// runNavmesh answers with the world's navmesh, from the centre of cell from
// to that of cell to.
func runNavmesh(wk *worker, from, to image.Point) (served, error) {
	t0 := time.Now()
	pts, res, err := wk.nq.AppendPath(wk.points[:0], picture.Centre(from), picture.Centre(to), navmesh.Query{})
	took := time.Since(t0)
	wk.points = pts
	return served{points: pts, st: meshStats(res), took: took}, err
}

// runHPA answers with HPA*. The smoothed entry smooths the cells of the
// request's HPA* query when there was one (its time is then the query's
// plus the smoothing's), so that both entries show the same query.
func runHPA(smoothed bool) runFunc {
	return func(wk *worker, from, to image.Point) (served, error) {
		if !smoothed || !wk.hpaOK || wk.hpaFrom != from || wk.hpaTo != to {
			t0 := time.Now()
			cells, res, err := wk.hq.AppendPath(wk.cells[:0], from, to, hpa.Query{})
			took := time.Since(t0)
			wk.cells = cells
			if err != nil {
				wk.hpaOK = false
				return served{took: took}, err
			}
			wk.hpaOK, wk.hpaFrom, wk.hpaTo, wk.hpaRes, wk.hpaTook = true, from, to, res, took
		}
		res := wk.hpaRes
		st := hpaStats(res)
		if !smoothed {
			return served{cells: wk.cells, st: st, took: wk.hpaTook}, nil
		}
		t0 := time.Now()
		st.turns = true
		wk.path = wk.path[:0]
		if res.Status == core.Found {
			wk.path = smooth.AppendCornerTurns(wk.path, wk.cells, wk.w.g.LineOfSight)
			st.cost = smooth.Length(wk.path)
		}
		return served{cells: wk.path, st: st, took: wk.hpaTook + time.Since(t0)}, nil
	}
}

// result returns the answer's entry in the response of a route, as entry id
// of serveAlgos.
func (sv served) result(id string) routeResult {
	st := sv.st
	res := routeResult{
		Algo:     id,
		Status:   st.status.String(),
		Expanded: st.expanded,
		Micros:   roundMicros(sv.took),
		Turns:    st.turns,
		World:    sv.points != nil,
		Path:     []float64{},
	}
	if st.status == core.Found {
		res.Length = &st.cost
		res.Path = make([]float64, 0, 2*(len(sv.cells)+len(sv.points)))
		for _, p := range sv.cells {
			res.Path = append(res.Path, float64(p.X), float64(p.Y))
		}
		for _, p := range sv.points {
			res.Path = append(res.Path, p[0], p[1])
		}
	}
	return res
}
