package navmesh

import (
	"errors"
	"fmt"
	"math"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/internal/parallel"
	"github.com/cairn-nav/cairn/internal/radix"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// MaxLandmarks is the most landmarks [Mesh.WithLandmarks] measures.
const MaxLandmarks = 32

// landmarks holds, for a few vertices of a mesh (the landmarks), the length
// of the shortest path from each to every vertex, for the bound of ALT
// (Goldberg and Harrelson's A* with landmarks and the triangle
// inequality): the distance from a root r to the goal t is at least
// d(L, t) − d(L, r), and at least d(L, r) − d(L, t), for every landmark L.
//
// An edit that only blocks cells makes no distance shorter, so the
// distances measured before it still give lower bounds after it, at the
// points where there were vertices then (see carry).
type landmarks struct {
	k  int
	at []int32 // the landmarks' vertices
	// The distances, in chunks of vertices: chunk c holds those of vertices
	// from[c] to from[c+1]−1, d[c][(v−from[c])·k + i] vertex v's distance
	// from landmark i, NaN where it has none. A mesh measured or read has
	// one chunk; one that [Mesh.Update] made has one a tile row, shared
	// with the mesh it came from but for the rows it built again.
	from []int32
	d    [][]float32
	blk  []*lmBlock // per chunk, the array it lies in (landmarks_update.go)
	// first, with several chunks, holds the chunk of each vertex that is a
	// multiple of 2^lmShift: the one of any vertex v is first[v>>lmShift]
	// or a later one (several later where rows are empty or small).
	first []int32
	// walk holds the cells of the grid that were walkable where the
	// distances were measured (or fewer), the mesh's own when nil.
	walk []uint64
}

// newLandmarks returns the landmarks of a mesh of n vertices, with the
// distances d in one chunk.
func newLandmarks(k int, at []int32, n int, d []float32) *landmarks {
	return &landmarks{k: k, at: at, from: []int32{0, int32(n)}, d: [][]float32{d}, blk: []*lmBlock{{d: d, refs: 1, whole: true}}}
}

// lmShift sets the vertices that landmarks.first looks up: one in 2^10,
// fewer than a tile row of the meshes that are worth landmarks has.
const lmShift = 10

// of returns vertex v's distances from the landmarks.
func (lm *landmarks) of(v int32) []float32 {
	c := int32(0)
	if lm.first != nil {
		c = lm.first[v>>lmShift]
		for v >= lm.from[c+1] {
			c++
		}
	}
	o := int(v-lm.from[c]) * lm.k
	return lm.d[c][o : o+lm.k]
}

// setFirst sets lm.first from lm.from.
func (lm *landmarks) setFirst() {
	n := lm.from[len(lm.from)-1]
	lm.first = make([]int32, n>>lmShift+1)
	c := int32(0)
	for i := range lm.first {
		for int32(i)<<lmShift >= lm.from[c+1] && int(c) < len(lm.d)-1 {
			c++
		}
		lm.first[i] = c
	}
}

// WithLandmarks returns a mesh that answers every query as m does, with
// the same polygons, vertices and paths, whose exact search is guided by k
// landmarks: wall corners of the mesh's largest component, spread round
// its bounding box, whose distances to every vertex it measures once. A
// node's estimate is then the larger of the straight line's and the
// triangle inequality's bound through each landmark (ALT, Goldberg and
// Harrelson), which sees the detours round rivers and walls that the
// straight line does not, so a long search expands fewer nodes; paths and
// lengths are the same. The corridor search uses them too, on queries
// whose ends are 1 024 units apart or more, bounding each portal
// crossing's distance through the portal's ends (on the 4096² demo
// world's long pairs, with 16, 21 000 crossings a query instead of 88 000
// and half the time); on shorter ones they cost more than they save.
//
// Measured (the README has the commands): on the 4096² demo world (1.8 M
// vertices) 8 landmarks took 45 s on two cores and 58 MB (4·k bytes a
// vertex), and cut the long queries' expansions from 679 000 to 317 000
// and their median time from 619–658 ms to 228–236 ms (16: 65 s,
// 219 000 expansions, 177–182 ms); on Moving AI maps of
// 512² and 1024² they took 0.1 to 7 s and cut expansions by 9 % (random
// obstacles) to 60 % (rooms). Measuring a landmark is one search from it to every
// vertex, which takes O(M log M) for the M nodes it makes, in memory for
// its open list only; the landmarks are measured in parallel on
// runtime.GOMAXPROCS goroutines. [Mesh.WriteTo] keeps them, and [Read]
// reads them back.
//
// k = 0 gives a mesh without landmarks; k must not exceed MaxLandmarks. A
// mesh with no corner in its largest component gets none. The meshes share
// their arrays: the returned mesh takes over m's part in [Mesh.Recycle]
// (recycling m afterwards only empties it), and must not be used once it,
// or m, has been recycled. [Mesh.Update] keeps them for as long as the
// edits block only cells that were walkable when they were measured, or
// free such cells again: their distances then still bound those of the
// edited map (see landmarks_update.go), if less tightly where walls went
// up, and a vertex the edit made gets none. An edit that frees a cell
// that was blocked then gives a mesh without landmarks: measure them
// again for it when its queries should have them. A mesh file does not
// keep the cells walkable at measurement: after [Read] or [ReadFor], the
// cells walkable when the file was written stand in for them, so taking
// down a wall that was up then drops the landmarks too. It is safe for
// concurrent use with queries on m, but not with a Recycle of m.
func (m *Mesh) WithLandmarks(k int) (*Mesh, error) {
	if k < 0 || k > MaxLandmarks {
		return nil, fmt.Errorf("navmesh: %d landmarks, want 0 to %d", k, MaxLandmarks)
	}
	if m.loc == nil {
		return nil, errors.New("navmesh: landmarks of the zero Mesh")
	}
	n := new(Mesh)
	*n = *m
	m.lmHeld = m.lmHeld || m.own // m's landmarks, if any, stay m's
	m.own = false
	n.lm = nil
	n.lmHeld = false // n.own, or the next line, says
	if k > 0 {
		n.lm = m.measureLandmarks(k)
		if m.tiles != nil {
			n.lm = n.lm.byRows(m.tiles.rowVert)
		}
		n.lmHeld = true
	}
	return n, nil
}

// Landmarks returns the number of landmarks of m's exact search (see
// [Mesh.WithLandmarks]).
func (m *Mesh) Landmarks() int {
	if m.lm == nil {
		return 0
	}
	return m.lm.k
}

// distSlack widens a distance read from float32 into bounds that hold:
// float32 rounds to within 2⁻²⁴ of the value.
const distSlack = 2e-7

// apart returns the least that two distances from one landmark, one in
// [alo, ahi] and the other in [blo, bhi], can differ by: by the triangle
// inequality, a lower bound on the distance between their points
// (negative where the intervals overlap).
func apart(alo, ahi, blo, bhi float64) float64 { return max(alo-bhi, blo-ahi) }

// rootBound returns the landmarks' lower bound on the distance from vertex
// v to the goal; 0 without landmarks or where they know nothing.
func (s *search) rootBound(v int32) float32 {
	lm := s.lm
	if lm == nil {
		return 0
	}
	b := 0.0
	for i, d := range lm.of(v) {
		if x := float64(d); !math.IsNaN(x) { // NaN: no distance for v
			b = max(b, apart(s.glo[i], s.ghi[i], x*(1-distSlack), x*(1+distSlack)))
		}
	}
	// Round down to float32, less a little, so the stored bound stays one.
	return float32(b * (1 - distSlack))
}

// maxWedgePolys is the most polygons round a query's end whose wedges
// wedgesOf tells apart; past it each polygon counts as its own wedge.
const maxWedgePolys = 16

// wedgeSet labels the polygons round a point by wedge: two share one when
// a chain of portals between polygons round the point joins them. A point
// with two wedges or more is a corner between two diagonal walls, which a
// path may leave into any wedge but never pass through from one to
// another.
type wedgeSet struct {
	n     int                 // the number of wedges
	each  bool                // every polygon is a wedge of its own
	label [maxWedgePolys]int8 // the first polygon of each one's wedge
}

// same reports whether polygons j and k are in one wedge.
func (w *wedgeSet) same(j, k int) bool {
	if w.each {
		return j == k
	}
	return w.label[j] == w.label[k]
}

// wedgesOf sets w to the wedges of polygons ps round a point.
func (m *Mesh) wedgesOf(ps []PolyID, w *wedgeSet) {
	n := len(ps)
	w.n, w.each = n, n > maxWedgePolys
	if w.each {
		return
	}
	l := &w.label
	for i := range n {
		l[i] = int8(i)
	}
	root := func(i int8) int8 {
		for l[i] != i {
			i = l[i]
		}
		return i
	}
	for i, id := range ps {
		pl := m.polys[id]
		for e := range pl.ne {
			nb := m.enb[pl.e0+e]
			for j := i + 1; j < n && nb >= 0; j++ {
				if ps[j] != nb {
					continue
				}
				if a, b := root(int8(i)), root(int8(j)); a != b {
					l[max(a, b)] = min(a, b)
					w.n--
				}
			}
		}
	}
	for i := range n {
		l[i] = root(int8(i))
	}
}

// pointBounds returns, for a point p in polygons ps (in wedges w), lower
// and upper bounds on its distance from landmark i: through each corner c
// of the polygons whose distance is known, which p sees, d(L, p) ≤
// d(L, c) + |cp| and d(L, p) ≥ d(L, c) − |cp|. With no such corner they
// are −Inf and +Inf.
//
// When ps make several wedges, p's distance depends on the wedge a path
// reaches it through, and a corner bounds only the distance through its
// own wedge. The bounds are then the loosest of the wedges': below the
// least and above the greatest, so that they hold whichever wedge a path
// leaves or enters p by.
func (lm *landmarks) pointBounds(m *Mesh, p mgl64.Vec2, ps []PolyID, w *wedgeSet, i int) (lo, hi float64) {
	if w.n <= 1 {
		return lm.cornerBounds(m, p, ps, i)
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for k := range ps {
		if !w.each && int(w.label[k]) != k {
			continue // not the first polygon of its wedge
		}
		wlo, whi := math.Inf(-1), math.Inf(1)
		for j := k; j < len(ps); j++ {
			if w.same(j, k) {
				a, b := lm.cornerBounds(m, p, ps[j:j+1], i)
				wlo, whi = max(wlo, a), min(whi, b)
			}
		}
		lo, hi = min(lo, wlo), max(hi, whi)
	}
	return lo, hi
}

// cornerBounds is pointBounds through the corners of polygons ps.
func (lm *landmarks) cornerBounds(m *Mesh, p mgl64.Vec2, ps []PolyID, i int) (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	for _, id := range ps {
		pl := m.polys[id]
		for e := range pl.ne {
			v := m.ev[pl.e0+e]
			x := float64(lm.of(v)[i])
			if math.IsNaN(x) {
				continue
			}
			r := geom.Dist(m.verts[v], p)
			lo = max(lo, x*(1-distSlack)-r)
			hi = min(hi, x*(1+distSlack)+r)
		}
	}
	return lo, hi
}

// beginBounds sets the goal's bounds and the start's bound of a query
// whose ends settle has located. Each end's bounds allow for its wedges
// (pointBounds): d(s, g) ≥ d(L, g) − d(L, s) needs an upper bound on the
// distance to s through the wedge the path leaves by, and a lower bound
// on the distance to g through any, and so on for the other terms.
func (s *search) beginBounds() {
	lm := s.m.lm
	s.lm, s.startBound = lm, 0
	if lm == nil || s.exhaust {
		s.lm = nil
		return
	}
	var gw, sw wedgeSet
	s.m.wedgesOf(s.gps, &gw)
	s.m.wedgesOf(s.sps, &sw)
	s.glo, s.ghi = s.glo[:0], s.ghi[:0]
	for i := range lm.k {
		lo, hi := lm.pointBounds(s.m, s.goal, s.gps, &gw, i)
		s.glo, s.ghi = append(s.glo, lo), append(s.ghi, hi)
		slo, shi := lm.pointBounds(s.m, s.start, s.sps, &sw, i)
		s.startBound = max(s.startBound, apart(lo, hi, slo, shi))
	}
}

// portalBound returns the landmarks' lower bound on the distance from the
// midpoint x of edge i of polygon p to the goal, for the corridor search:
// x lies between the edge's ends a and b, which it sees, so d(L, x) is
// within |ab|/2 of each end's distance, and the goal's bounds (beginBounds)
// then bound d(x, t) as rootBound does a vertex's; 0 where the ends'
// distances are unknown.
func (s *search) portalBound(p poly, i int32) float64 {
	m, lm := s.m, s.lm
	a, b := m.edgeIDs(p, i)
	da, db := lm.of(a), lm.of(b)
	half := geom.Dist(m.verts[a], m.verts[b]) / 2
	bound := 0.0
	for j := range lm.k {
		x, y := float64(da[j]), float64(db[j])
		if math.IsNaN(x) || math.IsNaN(y) {
			continue
		}
		lo := max(x*(1-distSlack), y*(1-distSlack)) - half
		hi := min(x*(1+distSlack), y*(1+distSlack)) + half
		bound = max(bound, apart(s.glo[j], s.ghi[j], lo, hi))
	}
	return bound * (1 - distSlack)
}

// zeroEstimate is the heuristic of a search with no goal: Dijkstra's.
type zeroEstimate struct{}

func (zeroEstimate) Estimate(int32) float64 { return 0 }

// distancesFrom runs the exact search from vertex v with no goal, crossing
// every bridge, until it has nothing left, and returns the length of the
// shortest path from v to each vertex (+Inf for those it cannot reach)
// and the expansions. Each is the least, over the nodes expanded, of the
// length to a node's root plus the straight line from the root to a
// vertex of the node's polygon that it sees (observe): the last leg of a
// shortest path to a vertex is such a line. The search runs its own loop
// over a heap of nodes, by their root's cost, and forgets each node once
// expanded, so its memory is its open list, not every node it made.
func (m *Mesh) distancesFrom(v int32) ([]float64, int) {
	g := &search{m: m, limit: math.MaxInt32, best: make([]rootCost, len(m.verts)), exhaust: true}
	g.fl.reset(nil)
	p := m.verts[v]
	g.sps = m.appendAround(nil, p)
	g.begin(p, p)
	g.obs = make([]float64, len(m.verts))
	for u := range g.obs {
		g.obs[u] = math.Inf(1)
	}
	g.obs[v] = 0
	// The open list: the nodes in a pool whose slots are reused, keyed in
	// a radix heap by their root's cost, which never falls along a path.
	var open radix.Heap
	pool := []snode{g.nodes[0]}
	var free []int32
	open.Push(math.Float64bits(0), 0)
	var dst []core.Edge
	exp := 0
	for open.Len() > 0 {
		at := open.Pop().Node
		g.nodes = append(g.nodes[:2], pool[at])
		free = append(free, at)
		dst = g.AppendEdges(dst[:0], 2)
		exp++
		for _, e := range dst {
			if e.To <= 2 {
				continue
			}
			n := g.nodes[e.To]
			var slot int32
			if k := len(free); k > 0 {
				slot, free = free[k-1], free[:k-1]
				pool[slot] = n
			} else {
				slot = int32(len(pool))
				pool = append(pool, n)
			}
			open.Push(math.Float64bits(n.g), slot)
		}
	}
	return g.obs, exp
}

// observe records, in a search with no goal, the paths that node n gives
// to the vertices of its polygon (of the start's polygons for the start)
// that its root sees: of length g + |rv| to vertex v.
func (s *search) observe(n *snode) {
	m := s.m
	r := s.start
	if n.root >= 0 {
		r = m.verts[n.root]
		s.obs[n.root] = min(s.obs[n.root], n.g)
	}
	polys := s.sps
	if n.kind != kindStart {
		polys = []PolyID{n.poly}
	}
	all := n.kind == kindStart || n.kind == kindPoint
	for _, id := range polys {
		pl := m.polys[id]
		for j := range pl.ne {
			v := m.ev[pl.e0+j]
			q := m.verts[v]
			if all || sees(r, n.left, n.right, q) {
				s.obs[v] = min(s.obs[v], n.g+geom.Dist(q, r))
			}
		}
	}
}

// measureLandmarks chooses k landmarks and measures their distances: the
// corners of the largest component nearest k points spread round the
// mesh's bounding box.
func (m *Mesh) measureLandmarks(k int) *landmarks {
	flat := make([]float32, len(m.verts)*k)
	for i := range flat {
		flat[i] = float32(math.NaN())
	}
	lm := newLandmarks(k, nil, len(m.verts), flat)
	// The largest component, by polygons (a tiled mesh's comp numbers
	// groups, not components, so label them here).
	label := make([]int32, len(m.polys))
	for i := range label {
		label[i] = -1
	}
	big, nbig := int32(-1), 0
	var stack []PolyID
	for id := range m.polys {
		if label[id] >= 0 {
			continue
		}
		c, size := int32(id), 0
		label[id] = c
		stack = append(stack[:0], PolyID(id))
		for len(stack) > 0 {
			p := m.polys[stack[len(stack)-1]]
			stack = stack[:len(stack)-1]
			size++
			for _, nb := range m.enb[p.e0 : p.e0+p.ne] {
				if nb >= 0 && label[nb] < 0 {
					label[nb] = c
					stack = append(stack, nb)
				}
			}
		}
		if size > nbig {
			big, nbig = c, size
		}
	}
	in := make([]bool, len(m.verts))
	lo, hi := mgl64.Vec2{math.Inf(1), math.Inf(1)}, mgl64.Vec2{math.Inf(-1), math.Inf(-1)}
	for id, p := range m.polys {
		if label[id] != big {
			continue
		}
		for j := range p.ne {
			v := m.ev[p.e0+j]
			in[v] = m.reflex[v]
			q := m.verts[v]
			lo = mgl64.Vec2{min(lo[0], q[0]), min(lo[1], q[1])}
			hi = mgl64.Vec2{max(hi[0], q[0]), max(hi[1], q[1])}
		}
	}
	c, r := lo.Add(hi).Mul(0.5), hi.Sub(lo).Mul(0.5)
	for i := range k {
		a := 2 * math.Pi * (float64(i)/float64(k) + 0.125)
		t := c.Add(mgl64.Vec2{r[0] * math.Cos(a) * 1.5, r[1] * math.Sin(a) * 1.5})
		best, bd := int32(-1), math.Inf(1)
		for v, q := range m.verts {
			if d := geom.Dist(q, t); in[v] && d < bd {
				best, bd = int32(v), d
			}
		}
		lm.at = append(lm.at, best)
	}
	if len(lm.at) == 0 || lm.at[0] < 0 {
		return nil
	}
	pinched := m.pinched()
	parallel.ForEach(k, func() struct{} { return struct{}{} }, func(_ struct{}, i int32) {
		d, _ := m.distancesFrom(lm.at[i])
		for v, x := range d {
			if !math.IsInf(x, 1) && !pinched[v] {
				flat[v*k+int(i)] = float32(x)
			}
		}
	})
	return lm
}

// pinched reports, per vertex, whether the polygons round it make two
// wedges or more, apart but for the vertex: a grid corner between two
// diagonally opposite blocked cells, which no path may pass through. Its
// distance from a landmark depends on the wedge it is seen from, so the
// landmarks keep none for it. A vertex with w wedges has w more polygon
// corners than portals ending at it (none more when the polygons go all
// the way round).
func (m *Mesh) pinched() []bool {
	excess := make([]int32, len(m.verts)) // corners, less half the portal ends
	for _, p := range m.polys {
		for i := range p.ne {
			a, b := m.edgeIDs(p, i)
			excess[a] += 2
			if m.enb[p.e0+i] >= 0 {
				excess[a]--
				excess[b]--
			}
		}
	}
	out := make([]bool, len(m.verts))
	for v, e := range excess {
		out[v] = e >= 4
	}
	return out
}
