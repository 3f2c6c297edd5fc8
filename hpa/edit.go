package hpa

import (
	"cmp"
	"errors"
	"fmt"
	"image"
	"slices"
	"sync/atomic"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
)

// Update brings the graph up to date after the cells of the rectangle
// changed (the union of the edits' rectangles) were edited, rebuilding only
// what the edit can reach: the borders within one cell of changed are
// scanned again; the clusters within one cell of it, and those on both
// sides of a border whose transitions moved, get their nodes and edges
// again; and so do the clusters of each level above that hold one of those.
// Queries then answer exactly as on Build(edited, h.Options()), and
// [Graph.WriteTo] writes the same bytes.
//
// When edited is h's own grid, edited in place with [grid.Grid.SetCells],
// h itself is updated and returned: its searchers stay valid, and queries
// wait while it runs (and fail with [ErrStale] between the grid's edit and
// the Update). When edited is another grid (an edited copy, such as
// [grid.Grid.WithCells] makes), h is left as it is and a copy is updated
// and returned; the copy shares h's unchanged edge lists and costs
// O(nodes + clusters) besides the rebuild.
//
// Parts of changed outside the grid are ignored, so any rectangle, however
// large, is safe. It is an error when edited is nil or not of h's grid's
// size, connectivity or terrain. Cells that differ outside changed make
// the result wrong; Update does not look for them. Its cost is the scans
// of the borders it reaches, the searches of the clusters it rebuilds (a
// few of level 1, one of each level above, the largest of which dominates),
// and O(nodes of those clusters); nothing in it grows with the map.
func (h *Graph) Update(edited *grid.Grid, changed image.Rectangle) (*Graph, error) {
	if edited == nil {
		return nil, errors.New("hpa: nil grid")
	}
	if edited.Width() != h.w || edited.Height() != h.h {
		return nil, fmt.Errorf("hpa: edited grid is %d×%d, the graph's is %d×%d", edited.Width(), edited.Height(), h.w, h.h)
	}
	if edited.Connectivity() != h.g.Connectivity() || edited.HasCosts() != h.costs {
		return nil, errors.New("hpa: edited grid differs from the graph's in connectivity or terrain")
	}
	t := h
	if edited != h.g {
		h.mu.RLock()
		t = h.clone(edited)
		h.mu.RUnlock()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	edited.RLock() // one version of the grid throughout
	defer edited.RUnlock()
	t.update(changed)
	t.version = edited.Version()
	return t, nil
}

// clone returns a copy of h for grid g that Update may change without
// touching h: the per-node, per-cluster and per-border lists are copied,
// the edge lists they hold shared (update replaces lists, never writes into
// them).
func (h *Graph) clone(g *grid.Grid) *Graph {
	n := &Graph{
		g: g, version: g.Version(), w: h.w, h: h.h, cs: h.cs, me: h.me, lf: h.lf, ncx: h.ncx, ncy: h.ncy,
		lsides: h.lsides, lncx: h.lncx, costs: h.costs, four: h.four,
		nodes: slices.Clone(h.nodes), adj: slices.Clone(h.adj), cnodes: slices.Clone(h.cnodes),
		cpaths: make([]atomic.Pointer[clusterPaths], len(h.cpaths)),
		bts:    slices.Clone(h.bts), bent: slices.Clone(h.bent), free: slices.Clone(h.free),
		nlive: h.nlive, nedges: h.nedges, entrances: h.entrances,
	}
	for c := range h.cpaths {
		n.cpaths[c].Store(h.cpaths[c].Load())
	}
	n.levels = make([]level, len(h.levels))
	for i, lv := range h.levels {
		n.levels[i] = lv
		n.levels[i].adj = slices.Clone(lv.adj)
		n.levels[i].cm = slices.Clone(lv.cm)
		n.levels[i].paths = make([]atomic.Pointer[levelPaths], len(lv.paths))
		n.levels[i].tables = make([]atomic.Pointer[endTable], len(lv.tables))
		for c := range lv.paths {
			n.levels[i].paths[c].Store(lv.paths[c].Load())
			n.levels[i].tables[c].Store(lv.tables[c].Load())
		}
	}
	return n
}

// update is Update in place, with h.mu held for writing.
func (h *Graph) update(changed image.Rectangle) {
	bounds := image.Rect(0, 0, h.w, h.h)
	c := changed.Intersect(bounds)
	if c.Empty() {
		return
	}
	dirty := h.rescan(c, func(dst []transition, b int32) ([]transition, int32) { return h.borderTransitions(dst, b, h.me) }, &h.entrances)
	slices.Sort(dirty)
	for _, c := range dirty {
		h.renode(c)
	}
	for _, c := range dirty {
		h.relink(c)
	}
	kept := h.keptLandmarks(c, dirty)
	// A level's clusters are rebuilt only where the level below changed:
	// a cluster rebuilt to the same nodes and edges leaves the level above
	// as it was.
	for l := 2; l <= h.Levels() && len(dirty) > 0; l++ {
		dirty = h.relevel(l, dirty)
	}
	u := h.scratch()
	if h.Levels() == 1 { // the landmarks are on level 1, which has no list of what changed
		h.measureLandmarks(&u.lm)
	} else {
		h.repairLandmarks(&u.lm, u.lmChanged, kept) // a clone, without landmarks, measures them
	}
	u.lmChanged = u.lmChanged[:0]
}

// rescan returns the level-1 clusters that an edit of the cells of c
// reaches, unsorted: those within one cell of c (a changed cell changes
// its neighbours' moves), and those on both sides of a border whose
// transitions moved. It scans again the borders with a side within one
// cell of c with scan, which returns a border's transitions and
// entrances, keeping them in h.bts and h.bent and the change of the
// entrance count in *entrances.
func (h *Graph) rescan(c image.Rectangle, scan func(dst []transition, b int32) ([]transition, int32), entrances *int) []int32 {
	reach := c.Inset(-1).Intersect(image.Rect(0, 0, h.w, h.h))
	cx0, cy0 := reach.Min.X/h.cs, reach.Min.Y/h.cs
	cx1, cy1 := (reach.Max.X-1)/h.cs, (reach.Max.Y-1)/h.cs
	var dirty []int32
	mark := func(c int32) {
		if !slices.Contains(dirty, c) {
			dirty = append(dirty, c)
		}
	}
	for cy := cy0; cy <= cy1; cy++ {
		for cx := cx0; cx <= cx1; cx++ {
			mark(int32(cy*h.ncx + cx))
		}
	}
	// The borders with a side in reach: those of the clusters it touches,
	// and the east and south borders of the clusters west and north of them.
	var ts []transition
	for cy := max(cy0-1, 0); cy <= cy1; cy++ {
		for cx := max(cx0-1, 0); cx <= cx1; cx++ {
			c := int32(cy*h.ncx + cx)
			for k := range int32(2) {
				b := 2*c + k
				var n int32
				ts, n = scan(ts[:0], b)
				// An entrance split into two at its ends keeps the
				// transitions, not the count.
				*entrances += int(n - h.bent[b])
				h.bent[b] = n
				if slices.Equal(ts, h.bts[b]) {
					continue
				}
				h.bts[b] = slices.Clone(ts)
				mark(c)
				if k == 0 {
					mark(c + 1)
				} else {
					mark(c + int32(h.ncx))
				}
			}
		}
	}
	return dirty
}

// clusterCells returns the transition cells of cluster c, from its four
// borders, by row then column, each once.
func (h *Graph) clusterCells(c int32) []image.Point {
	var ps []image.Point
	for _, bs := range h.bordersOf(c) {
		for _, t := range h.bts[bs.b] {
			if bs.own {
				ps = append(ps, t.a)
			} else {
				ps = append(ps, t.b)
			}
		}
	}
	slices.SortFunc(ps, func(a, b image.Point) int { return cmp.Or(cmp.Compare(a.Y, b.Y), cmp.Compare(a.X, b.X)) })
	return slices.Compact(ps)
}

// borderSide is one border of a cluster: the border's index, and whether it
// is the cluster's own (east or south: the cluster holds the transitions'
// first cells) or a neighbour's (west or north: their second cells).
type borderSide struct {
	b   int32
	own bool
}

// bordersOf returns the borders of cluster c in the order the build scans
// them: the north neighbour's south border, the west neighbour's east
// border, c's east border, c's south border.
func (h *Graph) bordersOf(c int32) []borderSide {
	cx, cy := int(c)%h.ncx, int(c)/h.ncx
	bs := make([]borderSide, 0, 4)
	if cy > 0 {
		bs = append(bs, borderSide{2*(c-int32(h.ncx)) + 1, false})
	}
	if cx > 0 {
		bs = append(bs, borderSide{2 * (c - 1), false})
	}
	return append(bs, borderSide{2 * c, true}, borderSide{2*c + 1, true})
}

// renode gives cluster c the nodes of its current transitions: a node whose
// cell stays keeps its ID, a node whose cell goes frees it, and a new cell
// takes a free ID or a new one.
func (h *Graph) renode(c int32) {
	cells := h.clusterCells(c)
	old := h.cnodes[c]
	ids := make([]int32, len(cells))
	i := 0
	for k, p := range cells {
		for i < len(old) && less(h.nodes[old[i]].cell(), p) {
			h.drop(old[i])
			i++
		}
		if i < len(old) && h.nodes[old[i]].cell() == p {
			ids[k] = old[i]
			i++
			continue
		}
		ids[k] = h.newNode(node{x: int32(p.X), y: int32(p.Y), cluster: c})
	}
	for ; i < len(old); i++ {
		h.drop(old[i])
	}
	h.cnodes[c] = ids
}

// less orders cells by row, then column.
func less(a, b image.Point) bool { return a.Y < b.Y || a.Y == b.Y && a.X < b.X }

// drop frees node n's ID and its edges at every level.
func (h *Graph) drop(n int32) {
	h.nedges -= len(h.adj[n])
	h.adj[n] = nil
	for i := range h.levels {
		lv := &h.levels[i]
		lv.nedges -= len(lv.adj[n])
		lv.adj[n] = nil
	}
	h.nodes[n] = node{x: -1, y: -1, cluster: -1}
	h.free = append(h.free, n)
	h.nlive--
}

// newNode gives n a free ID, or a new one, and returns it.
func (h *Graph) newNode(n node) int32 {
	h.nlive++
	if k := len(h.free); k > 0 {
		id := h.free[k-1]
		h.free = h.free[:k-1]
		h.nodes[id] = n
		return id
	}
	id := int32(len(h.nodes))
	h.nodes = append(h.nodes, n)
	h.adj = append(h.adj, nil)
	for i := range h.levels {
		h.levels[i].adj = append(h.levels[i].adj, nil)
	}
	return id
}

// relink gives the nodes of cluster c their level-1 edges, in the order a
// build gives them: one to the other cell of each of the node's
// transitions, in the order the build scans the borders, then those inside
// the cluster, to the other nodes in the cluster's order.
func (h *Graph) relink(c int32) {
	ids := h.cnodes[c]
	adj := make([][]core.Edge, len(ids))
	local := func(id int32) int { return slices.Index(ids, id) }
	for _, bs := range h.bordersOf(c) {
		for _, t := range h.bts[bs.b] {
			here, there := t.a, t.b
			if !bs.own {
				here, there = t.b, t.a
			}
			k := local(h.nodeAt(here))
			adj[k] = append(adj[k], core.Edge{To: h.nodeAt(there), Cost: h.g.StepCost(here, there)})
		}
	}
	u := h.scratch()
	u.intra = u.cs.connect(u.intra[:0], c)
	for _, e := range u.intra {
		a, b := local(e.from), local(e.to)
		adj[a] = append(adj[a], core.Edge{To: e.to, Cost: e.cost})
		adj[b] = append(adj[b], core.Edge{To: e.from, Cost: e.cost})
	}
	for k, id := range ids {
		h.nedges += len(adj[k]) - len(h.adj[id])
		h.adj[id] = slices.Clip(adj[k])
	}
	h.cpaths[c].Store(nil) // found again when a query needs them
}

// relevel rebuilds the clusters of level l that hold one of the dirty
// level-1 clusters: their nodes, the edges of those across the level's
// borders, and the edges inside them from searches of the level below.
func (h *Graph) relevel(l int, dirty []int32) (changed []int32) {
	lv := &h.levels[l-2]
	var cs []int32
	for _, c := range dirty {
		if lc := h.clusterAt(l, h.clusterRect(c).Min); !slices.Contains(cs, lc) {
			cs = append(cs, lc)
		}
	}
	// What the clusters held, to tell which of them change.
	oldCM := make([][]int32, len(cs))
	oldAdj := map[int32][]core.Edge{}
	for i, lc := range cs {
		oldCM[i] = lv.cm[lc]
		for _, m := range lv.cm[lc] {
			if m < int32(len(lv.adj)) {
				oldAdj[m] = lv.adj[m]
			}
		}
	}
	// Forget the old nodes of all these clusters first: an ID may have
	// moved from one to another.
	for _, lc := range cs {
		for _, m := range lv.cm[lc] {
			if m < int32(len(lv.adj)) {
				lv.nedges -= len(lv.adj[m])
				lv.adj[m] = nil
			}
		}
		lv.nmembers -= len(lv.cm[lc])
		lv.cm[lc] = nil
		lv.paths[lc].Store(nil) // found again when a query needs them
		lv.tables[lc].Store(nil)
	}
	u := h.scratch()
	if u.levels[l] == nil {
		u.levels[l] = h.newLevelScratch(l)
	}
	sc := u.levels[l]
	same := make([]bool, len(cs)) // per cluster, whether it kept its nodes and edges
	for ci, lc := range cs {
		// The nodes, in the order of a build's IDs: level-1 cluster by
		// cluster, row-major, each cluster's in its order; and the edges
		// of each across the level's borders, member i's at
		// ie[ioff[i]:ioff[i+1]].
		ms, ie, ioff := u.ms[:0], u.ie[:0], u.ioff[:0]
		r := h.levelClusterRect(l, lc)
		for cy := r.Min.Y / h.cs; cy*h.cs < r.Max.Y; cy++ {
			for cx := r.Min.X / h.cs; cx*h.cs < r.Max.X; cx++ {
				for _, n := range h.cnodes[cy*h.ncx+cx] {
					start := len(ie)
					for _, e := range h.edgesAt(l-1, n) {
						if h.clusterAt(l, h.nodes[e.To].cell()) != lc {
							ie = append(ie, e)
						}
					}
					if len(ie) > start {
						ms = append(ms, n)
						ioff = append(ioff, int32(start))
					}
				}
			}
		}
		ioff = append(ioff, int32(len(ie)))
		u.ms, u.ie, u.ioff = ms, ie, ioff
		lv.nmembers += len(ms)
		var intra []intraEdge
		if len(ms) >= 2 {
			sc.buf = sc.levelIntra(sc.buf[:0], lc, ms)
			intra = sc.buf
		}
		same[ci] = h.placeEdges(u, lv, lc, ms, ie, ioff, intra, oldCM[ci], oldAdj)
	}
	// A cluster changed when its nodes or one of their edges did; the
	// level above then rebuilds the cluster holding it, which it finds
	// from the level-1 cluster at its corner.
	for i, lc := range cs {
		if !same[i] {
			r := h.levelClusterRect(l, lc)
			changed = append(changed, int32((r.Min.Y/h.cs)*h.ncx+r.Min.X/h.cs))
			if l == h.Levels() {
				// The landmarks lose what lies below the nodes whose
				// edges changed (added and removed nodes included): a
				// path through the others crosses only edges as they were.
				for _, ms := range [2][]int32{oldCM[i], lv.cm[lc]} {
					for _, m := range ms {
						var now []core.Edge
						if m < int32(len(lv.adj)) {
							now = lv.adj[m]
						}
						if !slices.Equal(oldAdj[m], now) || !slices.Contains(oldCM[i], m) || !slices.Contains(lv.cm[lc], m) {
							u.lmChanged = append(u.lmChanged, m)
						}
					}
				}
			}
		}
	}
	return changed
}

// placeEdges sets the members ms of cluster lc of a level that relevel
// rebuilt and their edges: member i's edges across the level's borders,
// ie[ioff[i]:ioff[i+1]], then its edges inside the cluster in the order
// of intra, as a build lays them out. They share one block, made anew
// only when the members or their edges differ from what the cluster held
// (the members old, their edges oldAdj), whose lists it keeps otherwise;
// it reports whether it kept them.
func (h *Graph) placeEdges(u *updateScratch, lv *level, lc int32, ms []int32, ie []core.Edge, ioff []int32, intra []intraEdge, old []int32, oldAdj map[int32][]core.Edge) bool {
	if len(u.pos) < len(h.nodes) {
		u.pos = make([]int32, len(h.nodes)+len(h.nodes)/4)
	}
	fill := u.fill[:0] // where member i's next edge goes, once counted
	for i, n := range ms {
		u.pos[n] = int32(i)
		fill = append(fill, ioff[i+1]-ioff[i])
	}
	for _, e := range intra {
		fill[u.pos[e.from]]++
		fill[u.pos[e.to]]++
	}
	total := int32(0)
	for i, d := range fill {
		fill[i], total = total, total+d
	}
	if int(total) > cap(u.block) {
		u.block = make([]core.Edge, total+total/4)
	}
	block := u.block[:total]
	for i := range ms {
		fill[i] += int32(copy(block[fill[i]:], ie[ioff[i]:ioff[i+1]]))
	}
	for _, e := range intra {
		a, b := u.pos[e.from], u.pos[e.to]
		block[fill[a]] = core.Edge{To: e.to, Cost: e.cost}
		block[fill[b]] = core.Edge{To: e.from, Cost: e.cost}
		fill[a]++
		fill[b]++
	}
	u.fill = fill
	same := slices.Equal(ms, old)
	for i, start := 0, int32(0); same && i < len(ms); i++ {
		same = slices.Equal(block[start:fill[i]], oldAdj[ms[i]])
		start = fill[i]
	}
	if same {
		lv.cm[lc] = old
		for _, n := range ms {
			lv.adj[n] = oldAdj[n]
			lv.nedges += len(oldAdj[n])
		}
		return true
	}
	lv.cm[lc] = slices.Clone(ms)
	block = slices.Clone(block)
	start := int32(0)
	for i, n := range ms {
		lv.adj[n] = block[start:fill[i]:fill[i]]
		lv.nedges += int(fill[i] - start)
		start = fill[i]
	}
	return false
}

// updateScratch is the search scratch of in-place updates, kept by the
// graph so that an update allocates none of the size of the map.
type updateScratch struct {
	cs     *clusterSearch
	intra  []intraEdge
	levels [MaxLevels + 1]*levelScratch
	lm     landmarkScratch
	// The old and new nodes of the top-level clusters the update rebuilt
	// with other nodes or edges.
	lmChanged []int32
	// relevel's: the members of a cluster it rebuilds, their edges across
	// the level's borders and where each one's start; per node, its
	// index among the members (valid for the members only); per member,
	// where its next edge goes.
	ms, ioff, pos, fill []int32
	ie, block           []core.Edge
}

// scratch returns h's update scratch, made at the first update.
func (h *Graph) scratch() *updateScratch {
	if h.upd == nil {
		h.upd = &updateScratch{cs: newClusterSearch(h)}
	}
	return h.upd
}
