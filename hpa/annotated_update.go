package hpa

import (
	"image"
	"slices"

	"github.com/cairn-nav/cairn/core"
)

// Update brings a up to date after the cells of the rectangle changed of
// its source grid were edited in place ([grid.Grid.SetCells]): the
// classes' grids are derived again there ([grid.Grid.UpdateDerived]), and
// the graph is rebuilt where the edit reaches, as [Graph.Update] rebuilds
// a graph: the borders within one cell of what changed on any class's grid
// are scanned again, the clusters within one cell of it and those on both
// sides of a border whose transitions moved get their nodes and edges
// again (a node whose cell stays keeps its ID), and so do the clusters of
// each level above that hold one of those; each class's landmarks are
// then repaired on the top level (measured again where they cannot be). Queries then answer as on BuildAnnotated of the
// edited grid with the same classes and options, and [Annotated.WriteTo]
// writes the same bytes.
//
// Queries wait while it runs, and fail with [ErrStale] between the edit
// and the Update. Update must not overlap an edit of the source grid.
// Parts of changed outside the grid are ignored. Its cost is the
// derivations and border scans of the rectangle, the searches of the
// clusters it rebuilds (for each class that a cluster's nodes serve), and
// the landmarks' searches of the top level for each class, which on a
// large map cost more than the rest (see the README).
func (a *Annotated) Update(changed image.Rectangle) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	src := a.cl.src
	r := changed.Intersect(src.Bounds())
	reach := r
	for i := range a.cl.cls {
		e := &a.cl.cls[i]
		if e.changed = r; e.g == src || r.Empty() {
			continue
		}
		ch, err := e.g.UpdateDerived(src, e.k, e.df, r)
		if err != nil {
			return err
		}
		e.changed = ch
		reach = reach.Union(ch)
	}
	src.RLock()
	defer src.RUnlock()
	if !reach.Empty() {
		a.update(reach)
	}
	a.version = src.Version()
	return nil
}

// Changed returns the cells of class i's grid that the latest Update
// changed (empty before any), as [Classes.Changed] does: the rectangle to
// check that class's paths against. It panics when i is out of range.
func (a *Annotated) Changed(i int) image.Rectangle {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.cl.cls[i].changed
}

// update rebuilds what cells in c (changed on some class's grid) reach.
func (a *Annotated) update(c image.Rectangle) {
	h := a.base
	dirty := h.rescan(c, a.borderTransitions, &a.entrances)
	slices.Sort(dirty)
	u := a.updateScratch()
	u.changed = u.changed[:0]
	top := h.Levels()
	if top == 1 { // the landmarks' level: the nodes of the clusters rebuilt, old and new
		for _, c := range dirty {
			u.changed = append(u.changed, h.cnodes[c]...)
		}
	}
	for _, c := range dirty {
		a.renode(c)
	}
	for _, x := range a.ctx { // the node array may have grown
		x.nodes = h.nodes
	}
	for _, c := range dirty {
		a.relink(c)
		if top == 1 {
			u.changed = append(u.changed, h.cnodes[c]...)
		}
	}
	for l := 2; l <= top && len(dirty) > 0; l++ {
		dirty = a.relevel(l, dirty)
	}
	if u.sr == nil {
		u.sr = newAnnotatedSearcher(a)
	}
	a.repairLandmarks(u.sr, &u.lm, u.changed)
}

// renode gives cluster c the nodes of its current transitions, as
// Graph.renode does, and clears the masks of the IDs it frees; the masks
// grow with the node array.
func (a *Annotated) renode(c int32) {
	h := a.base
	old := slices.Clone(h.cnodes[c])
	h.renode(c)
	nn := len(h.nodes)
	for l := 1; l <= h.Levels(); l++ {
		a.masks[l] = grow(a.masks[l], nn)
	}
	a.nmask = grow(a.nmask, nn)
	for i := range h.levels {
		a.lmask[i] = grow(a.lmask[i], nn)
	}
	for _, n := range old {
		if h.nodes[n].cluster >= 0 {
			continue // kept, or taken again by a new cell
		}
		a.nmask[n] = 0
		for l := 1; l <= h.Levels(); l++ {
			a.masks[l][n] = nil
		}
		for i := range h.levels {
			a.lmask[i][n] = 0
		}
	}
}

// relink gives the nodes of cluster c their level-1 edges and masks, in
// the order a build gives them: per transition of the node, in the order
// of its borders, one edge per distinct cost of the step; then those
// inside the cluster, merged over the classes.
func (a *Annotated) relink(c int32) {
	h := a.base
	ids := h.cnodes[c]
	adj := make([][]core.Edge, len(ids))
	ms := make([][]uint64, len(ids))
	var cms []costMask
	for _, bs := range h.bordersOf(c) {
		for _, t := range h.bts[bs.b] {
			here, there := t.a, t.b
			if !bs.own {
				here, there = t.b, t.a
			}
			k := h.localIndex(c, h.nodeAt(here))
			to := h.nodeAt(there)
			for _, cm := range a.stepCosts(cms[:0], t) {
				adj[k] = append(adj[k], core.Edge{To: to, Cost: cm.cost})
				ms[k] = append(ms[k], cm.mask)
			}
		}
	}
	for k, id := range ids {
		a.nmask[id] = 0
		for _, m := range ms[k] {
			a.nmask[id] |= m
		}
	}
	u := a.updateScratch()
	u.buf = u.buf[:0]
	for k := range a.ctx {
		bit := uint64(1) << k
		u.ids = u.ids[:0]
		for _, n := range ids {
			if a.nmask[n]&bit != 0 {
				u.ids = append(u.ids, n)
			}
		}
		if len(u.ids) < 2 {
			continue
		}
		u.buf = u.cls[k].connectAmong(u.buf, c, u.ids, h.nodes, bit)
	}
	for _, e := range mergeMasks(u.buf, func(n int32) int { return h.localIndex(c, n) }) {
		i, j := h.localIndex(c, e.from), h.localIndex(c, e.to)
		adj[i] = append(adj[i], core.Edge{To: e.to, Cost: e.cost})
		ms[i] = append(ms[i], e.mask)
		adj[j] = append(adj[j], core.Edge{To: e.from, Cost: e.cost})
		ms[j] = append(ms[j], e.mask)
	}
	for k, id := range ids {
		h.nedges += len(adj[k]) - len(h.adj[id])
		h.adj[id], a.masks[1][id] = slices.Clip(adj[k]), slices.Clip(ms[k])
	}
	for _, x := range a.ctx {
		x.cpaths[c].Store(nil) // found again when a query needs them
	}
}

// relevel rebuilds the clusters of level l that hold one of the dirty
// level-1 clusters, as Graph.relevel does, with the masks, and returns
// the level-1 clusters at the corners of those it changed.
func (a *Annotated) relevel(l int, dirty []int32) (changed []int32) {
	h := a.base
	lv := &h.levels[l-2]
	lmask, masks, below := a.lmask[l-2], a.masks[l], a.masks[l-1]
	var cs []int32
	for _, c := range dirty {
		if lc := h.clusterAt(l, h.clusterRect(c).Min); !slices.Contains(cs, lc) {
			cs = append(cs, lc)
		}
	}
	type was struct {
		adj  []core.Edge
		mask []uint64
	}
	oldCM := make([][]int32, len(cs))
	old := map[int32]was{}
	for i, lc := range cs {
		oldCM[i] = lv.cm[lc]
		for _, m := range lv.cm[lc] {
			old[m] = was{lv.adj[m], masks[m]}
		}
	}
	for _, lc := range cs { // an ID may have moved from one to another
		for _, m := range lv.cm[lc] {
			lv.nedges -= len(lv.adj[m])
			lv.adj[m], masks[m], lmask[m] = nil, nil, 0
		}
		lv.nmembers -= len(lv.cm[lc])
		lv.cm[lc] = nil
		for k := range a.ctx {
			a.lpaths[(l-2)*len(a.ctx)+k][lc].Store(nil)
		}
	}
	u := a.updateScratch()
	for _, lc := range cs {
		var ms []int32
		type interEdges struct {
			adj  []core.Edge
			mask []uint64
		}
		inter := map[int32]interEdges{}
		r := h.levelClusterRect(l, lc)
		for cy := r.Min.Y / h.cs; cy*h.cs < r.Max.Y; cy++ {
			for cx := r.Min.X / h.cs; cx*h.cs < r.Max.X; cx++ {
				for _, n := range h.cnodes[cy*h.ncx+cx] {
					var ie interEdges
					for i, e := range h.edgesAt(l-1, n) {
						if h.clusterAt(l, h.nodes[e.To].cell()) != lc {
							ie.adj, ie.mask = append(ie.adj, e), append(ie.mask, below[n][i])
							lmask[n] |= below[n][i]
						}
					}
					if len(ie.adj) > 0 {
						ms = append(ms, n)
						inter[n] = ie
					}
				}
			}
		}
		lv.cm[lc] = ms
		lv.nmembers += len(ms)
		adj := map[int32]interEdges{}
		for _, n := range ms {
			adj[n] = inter[n]
		}
		if len(ms) >= 2 {
			for _, e := range a.levelIntra(&u.level, l, lc, ms, lmask) {
				f, t := adj[e.from], adj[e.to]
				f.adj, f.mask = append(f.adj, core.Edge{To: e.to, Cost: e.cost}), append(f.mask, e.mask)
				t.adj, t.mask = append(t.adj, core.Edge{To: e.from, Cost: e.cost}), append(t.mask, e.mask)
				adj[e.from], adj[e.to] = f, t
			}
		}
		for _, n := range ms {
			lv.adj[n], masks[n] = slices.Clip(adj[n].adj), slices.Clip(adj[n].mask)
			lv.nedges += len(lv.adj[n])
		}
	}
	for i, lc := range cs {
		same := slices.Equal(oldCM[i], lv.cm[lc])
		for _, m := range lv.cm[lc] {
			if !same {
				break
			}
			same = slices.Equal(old[m].adj, lv.adj[m]) && slices.Equal(old[m].mask, masks[m])
		}
		if !same {
			r := h.levelClusterRect(l, lc)
			changed = append(changed, int32((r.Min.Y/h.cs)*h.ncx+r.Min.X/h.cs))
			if l == h.Levels() {
				// The landmarks lose what lies below the nodes whose edges
				// or masks changed, and the nodes that came or went.
				for _, ns := range [2][]int32{oldCM[i], lv.cm[lc]} {
					for _, m := range ns {
						if !slices.Equal(old[m].adj, lv.adj[m]) || !slices.Equal(old[m].mask, masks[m]) ||
							!slices.Contains(oldCM[i], m) || !slices.Contains(lv.cm[lc], m) {
							u.changed = append(u.changed, m)
						}
					}
				}
			}
		}
	}
	return changed
}

// annUpdateScratch is the search scratch of an annotated graph's updates,
// kept from one to the next.
type annUpdateScratch struct {
	cls   []*clusterSearch // per class, on its grid
	ids   []int32
	buf   []intraEdge
	level annLevelScratch
	// The landmarks' repair: the old and new nodes of the top level whose
	// edges changed, a searcher for the landmarks' joins and the scratch
	// of their searches.
	changed []int32
	sr      *AnnotatedSearcher
	lm      landmarkScratch
}

// updateScratch returns a's update scratch, made at the first update.
func (a *Annotated) updateScratch() *annUpdateScratch {
	if a.upd == nil {
		a.upd = &annUpdateScratch{}
		for _, x := range a.ctx {
			a.upd.cls = append(a.upd.cls, newSpanSearch(x, 1))
		}
	}
	return a.upd
}
