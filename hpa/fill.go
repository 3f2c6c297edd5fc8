package hpa

import (
	"sync"

	"github.com/cairn-nav/cairn/internal/parallel"
)

// FillTables fills the table of every cluster above the first (the
// distances by which queries join their ends to the levels; see
// [Searcher.AppendPath]), which queries otherwise fill as they first need
// them, on runtime.GOMAXPROCS goroutines: a game can pay for them when it
// loads a map, rather than in the frames of its first queries. At 4096²
// with the default options they take about 1.6 bytes a cell and, on one
// core, half a second. An in-place update drops the tables of the clusters
// it rebuilds, and queries fill those again. It waits for an update in
// progress, and queries may run meanwhile.
func (h *Graph) FillTables() {
	h.mu.RLock()
	defer h.mu.RUnlock()
	for l := 2; l <= h.Levels(); l++ {
		parallel.ForEach(len(h.levels[l-2].cm), func() *clusterAPSP { return &clusterAPSP{} }, func(a *clusterAPSP, c int32) {
			h.endTable(a, l, c)
		})
	}
}

// FillPaths finds and keeps the path of every edge inside a cluster, at
// every level (at level 1 its cells, above it its nodes of the level
// below), which refinement otherwise searches the first time a query
// follows the edge: with FillTables, a game pays at load for what its
// first queries would, and every query is then as fast as a repeated one.
// It runs on runtime.GOMAXPROCS goroutines, each with a Searcher of its
// own, and queries may run meanwhile. At 4096² (a city map scaled ×4) it
// took 4.7 s on one core and keeps 1.7 bytes a cell. An in-place update
// drops the paths of the clusters it
// rebuilds, and queries find those again. It returns [ErrStale] on a graph
// whose grid has changed since the graph was made, and an internal error a
// refinement reports.
func (h *Graph) FillPaths() error {
	var mu sync.Mutex
	var first error
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if first == nil {
			first = err
		}
	}
	for l := 1; l <= h.Levels(); l++ {
		n := h.ncx * h.ncy
		if l > 1 {
			n = len(h.levels[l-2].cm)
		}
		parallel.ForEach(n, func() *Searcher { return NewSearcher(h) }, func(sr *Searcher, c int32) {
			if err := sr.fillCluster(l, c); err != nil {
				fail(err)
			}
		})
		if first != nil {
			return first
		}
	}
	return nil
}

// fillCluster refines every edge between two nodes of level-l cluster c,
// so that the graph keeps their paths.
func (sr *Searcher) fillCluster(l int, c int32) error {
	sr.rlock()
	defer sr.runlock()
	if err := sr.fresh(); err != nil {
		return err
	}
	return sr.fillLocked(l, c)
}

// fillLocked is fillCluster for a caller that holds sr.rlock and has
// checked the graph is fresh.
func (sr *Searcher) fillLocked(l int, c int32) error {
	h := sr.h
	ms := h.cnodes[c]
	if l > 1 {
		ms = h.levels[l-2].cm[c]
	}
	for _, a := range ms {
		for _, e := range h.edgesAt(l, a) {
			if h.clusterAt(l, h.nodes[e.To].cell()) != c {
				continue // a step across a border: nothing to keep
			}
			sr.frames = append(sr.frames[:0], refineFrame{level: l, path: []int32{a, e.To}, k: 1})
			var err error
			if sr.pending, _, err = sr.refine(sr.pending[:0], 0); err != nil {
				return err
			}
		}
	}
	return nil
}

// Refill fills, on the calling goroutine, what an in-place [Graph.Update]
// dropped: the table of every cluster above the first that has none, and
// the paths of every cluster, at every level, that has kept none (those
// the update rebuilt, once [Graph.FillTables] and [Graph.FillPaths] filled
// the rest at load). A game that calls it after each Update, in the frame
// of the edit, keeps its later queries from finding and allocating them
// in the frames that follow. It checks every cluster, O(clusters), and
// costs the fills of those it finds empty (on a graph never filled, all of
// them, on one core); it uses sr's scratch and allocates what it keeps. It
// returns [ErrStale] on a graph whose grid has changed since the graph was
// made, and an internal error a refinement reports. A cluster whose paths
// queries filled only in part keeps what it has.
func (sr *Searcher) Refill() error {
	h := sr.h
	sr.rlock()
	defer sr.runlock()
	if err := sr.fresh(); err != nil {
		return err
	}
	for l := 2; l <= h.Levels(); l++ {
		lv := &h.levels[l-2]
		for c := range lv.cm {
			if lv.tables[c].Load() == nil {
				h.endTable(&sr.ap, l, int32(c))
			}
		}
	}
	for l := 1; l <= h.Levels(); l++ {
		n := h.ncx * h.ncy
		if l > 1 {
			n = len(h.levels[l-2].cm)
		}
		for c := range int32(n) {
			var empty bool
			if l == 1 {
				empty = h.cpaths[c].Load() == nil
			} else {
				empty = h.levels[l-2].paths[c].Load() == nil
			}
			if !empty {
				continue
			}
			if err := sr.fillLocked(l, c); err != nil {
				return err
			}
		}
	}
	return nil
}
