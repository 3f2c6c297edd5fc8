package hpa

import (
	"sync"

	"github.com/cairn-nav/cairn/internal/parallel"
)

// FillPaths finds and keeps, for every class, the path of every edge of
// the class inside a cluster, at every level (at level 1 its cells, above
// it its nodes of the level below), which refinement otherwise searches
// the first time a query of the class follows the edge, allocating what it
// keeps: as [Graph.FillPaths] does, a game pays at load for what its first
// queries would, and every query is then as fast as a repeated one. It
// runs on runtime.GOMAXPROCS goroutines, each with a searcher of its own,
// and queries may run meanwhile. An Update drops the paths of the clusters
// it rebuilds, which queries find again, or [AnnotatedSearcher.Refill]. It
// returns [ErrStale] on a graph whose source grid has changed since the
// graph was built or updated, and an internal error a refinement reports.
func (a *Annotated) FillPaths() error {
	var mu sync.Mutex
	var first error
	for l := 1; l <= a.Levels(); l++ {
		n := a.clusters(l)
		parallel.ForEach(n*len(a.ctx), func() *AnnotatedSearcher { return NewAnnotatedSearcher(a) }, func(sr *AnnotatedSearcher, j int32) {
			if err := sr.fillCluster(int(j)/n, l, j%int32(n)); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		})
		if first != nil {
			return first
		}
	}
	return nil
}

// clusters returns the number of clusters of level l.
func (a *Annotated) clusters(l int) int {
	if l == 1 {
		return a.base.ncx * a.base.ncy
	}
	return len(a.base.levels[l-2].cm)
}

// Refill finds again, on the calling goroutine, what an [Annotated.Update]
// dropped, as [Searcher.Refill] does for a Graph: for each class, the
// paths of every cluster, at every level, whose paths it has kept none of
// (those the update rebuilt, once [Annotated.FillPaths] filled the rest
// at load), so that the queries of the frames after an edit neither
// search nor allocate them. It checks every cluster of every class and
// costs the fills of those it finds empty; a cluster whose paths queries
// filled in part since the Update keeps what it has, so call it right
// after the Update. It uses sr's scratch, drops sr's query in progress and
// allocates what it keeps. It returns [ErrStale] on a graph whose source
// grid has changed since its Update.
func (sr *AnnotatedSearcher) Refill() error {
	a := sr.a
	a.rlock()
	defer a.runlock()
	if err := a.fresh(); err != nil {
		return err
	}
	sr.drop()
	for l := 1; l <= a.Levels(); l++ {
		for k, x := range a.ctx {
			for c := range int32(a.clusters(l)) {
				var empty bool
				if l == 1 {
					empty = x.cpaths[c].Load() == nil
				} else {
					empty = a.lpaths[(l-2)*len(a.ctx)+k][c].Load() == nil
				}
				if !empty {
					continue
				}
				if err := sr.fillLocked(k, l, c); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// fillCluster refines every edge of class k between two nodes of level-l
// cluster c, so that the graph keeps their paths.
func (sr *AnnotatedSearcher) fillCluster(k, l int, c int32) error {
	a := sr.a
	a.rlock()
	defer a.runlock()
	if err := a.fresh(); err != nil {
		return err
	}
	return sr.fillLocked(k, l, c)
}

// fillLocked is fillCluster for a caller that holds a.mu and the source
// grid's read lock and has checked that the graph is fresh.
func (sr *AnnotatedSearcher) fillLocked(k, l int, c int32) error {
	a := sr.a
	h := a.base
	bit := uint64(1) << k
	ms := h.cnodes[c]
	if l > 1 {
		ms = h.levels[l-2].cm[c]
	}
	sr.use(k)
	sr.view.bit = bit
	for _, u := range ms {
		masks := a.masks[l][u]
		for i, e := range h.edgesAt(l, u) {
			if masks[i]&bit == 0 || h.clusterAt(l, a.cell(e.To)) != c {
				continue // not the class's, or a step across a border: nothing to keep
			}
			sr.pair = [2]int32{u, e.To}
			sr.frames = append(sr.frames[:0], refineFrame{level: l, path: sr.pair[:], k: 1})
			var ok bool
			if sr.pending, ok = sr.refine(sr.pending[:0], -1); !ok {
				return sr.lost()
			}
		}
	}
	sr.pending = sr.pending[:0]
	return nil
}
