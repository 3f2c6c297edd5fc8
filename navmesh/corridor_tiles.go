package navmesh

import (
	"math"
	"slices"
	"sync/atomic"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/internal/parallel"
	"github.com/cairn-nav/cairn/internal/radix"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// The corridor search over tiles. On a tiled mesh a long corridor query
// (ends corridorTileRange apart or more, no filter, no budget) searches
// the same graph of midpoint chains as the flat corridor search (see
// corridor.go) in two stages, as HPA* does over clusters:
//
//  1. An abstract A* over the crossings of the tile borders alone. A
//     crossing into tile U by border side a has an edge to the crossing
//     out of U by each other border side b, costing the shortest midpoint
//     chain from a to b that stays inside U, which U's table holds
//     (tileTable, found by a search inside U the first time a query needs
//     it, and kept by the mesh for every later query and Searcher). The
//     start has edges to the crossings out of its tile, and the crossings
//     into the goal's tile an edge to the goal, found by searches inside
//     those tiles for each query.
//  2. Refinement: each leg of the abstract path, from a crossing into U to
//     the next crossing out of it, is searched again inside U alone (A*
//     with the straight distance to the leg's end), and the legs' chains
//     joined make the corridor, which is pulled taut as the flat search's.
//
// Every chain from the start to the goal falls into legs inside tiles
// between border crossings, so the abstract graph's shortest path costs
// what the flat graph's does: with corridorTileWeight 1 both find a
// shortest midpoint chain (up to the tables' rounding to float32). The
// abstract search reads a tile's table row where the flat search would
// expand the crossings inside the tile one by one, and the refinement
// searches only the tiles on the path, so the query expands far fewer
// crossings. The bridge and back-crossing prunings apply at both stages
// with the same argument as in corridor.go.

// corridorTileRange is the least straight distance between a query's ends
// for the corridor search to run over the tiles (a variable for the
// tests). On the 4096² demo world in tiles of 64, with its tables filled,
// 200 random pairs 150 to 1 000 apart took 0.51–0.56 ms a query over the
// tiles against 1.42 ms flat (510 crossings expanded against 3 745, the
// same lengths to 0.01 %); pairs 10 to 150 apart took about as long
// either way (127–170 µs against 156–165 µs, one run each), 0.14 % longer
// over the tiles: the searches inside the ends' tiles cost what they save.
var corridorTileRange = 256.0

// corridorTileWeight, when not 0, weighs the abstract search's heuristic
// instead of the flat search's weight (corridorWeight, or
// corridorWeightLandmarks), which it takes by default: a variable for the
// tests, which set it to 1.
var corridorTileWeight = 0.0

// corridorTables are a tiled mesh's tables for the corridor search: per
// tile, where its polygons begin, and its table once a query has needed
// it. The tiling holds them, so that every Searcher of the mesh shares
// them; they are filled concurrently, each table by whichever query needs
// it first.
type corridorTables struct {
	first []int32 // per tile, its first polygon; then the number of polygons
	tab   []atomic.Pointer[tileTable]
}

// tileTable is the table of one tile: its border sides, the edge slots of
// its polygons whose neighbour lies in another tile, as offsets from the
// tile's first slot, ascending; and for each pair (a, b) of them the cost
// of the shortest midpoint chain inside the tile from the midpoint of side
// a, entered from the other tile, to leaving the tile by side b:
// cost[a·len(side)+b], +Inf where there is none and for a = b.
type tileTable struct {
	side []int32
	cost []float32
}

// corridorTables returns m's tables for the corridor search over tiles,
// or nil when m is not a tiled mesh of convex polygons in its tiles'
// numbering.
func (m *Mesh) corridorTables() *corridorTables {
	t := m.tiles
	if m.kind != convexGridMesh || t == nil || t.rowPoly == nil {
		return nil
	}
	if ct := t.corr.Load(); ct != nil {
		return ct
	}
	ct := &corridorTables{first: make([]int32, 0, len(t.tiles)+1), tab: make([]atomic.Pointer[tileTable], len(t.tiles))}
	n := int32(0)
	for _, tp := range t.tiles {
		ct.first = append(ct.first, n)
		n += int32(max(len(tp.start)-1, 0))
	}
	ct.first = append(ct.first, n)
	if n != int32(len(m.polys)) {
		return nil // cannot happen: the tiles' polygons are the mesh's
	}
	t.corr.CompareAndSwap(nil, ct)
	return t.corr.Load()
}

// tileOf returns the tile that holds polygon p.
func (ct *corridorTables) tileOf(p PolyID) int {
	k, _ := slices.BinarySearch(ct.first, int32(p)+1)
	return k - 1
}

// tileSearch is a Dijkstra search of the midpoint chains inside one tile.
// A node is an edge slot e of a polygon of the tile that is a portal:
// standing at the midpoint of e inside the polygon that owns e. Leaving
// the polygon by another portal j costs the distance between the
// midpoints; j's neighbour inside the tile is then reached at the slot of
// j's twin, and leaving by a border side ends the chain there (exit).
type tileSearch struct {
	m      *Mesh
	tile   int
	p0, p1 PolyID // the tile's polygons
	e0     int32  // its first edge slot; its slots are e0 to e0+len(mid)−1
	mid    []mgl64.Vec2
	owner  []PolyID
	dist   []float64
	exit   []float64
	done   []bool
	heap   radix.Heap // of local slots
	side   []int32    // the tile's border sides (tileTable.side)
}

// load readies ts for searches inside tile k of m.
func (ts *tileSearch) load(m *Mesh, ct *corridorTables, k int) {
	ts.m, ts.tile = m, k
	ts.p0, ts.p1 = PolyID(ct.first[k]), PolyID(ct.first[k+1])
	ts.mid, ts.owner, ts.side = ts.mid[:0], ts.owner[:0], ts.side[:0]
	if ts.p0 == ts.p1 {
		return
	}
	ts.e0 = m.polys[ts.p0].e0
	for id := ts.p0; id < ts.p1; id++ {
		p := m.polys[id]
		for i := range p.ne {
			ts.mid = append(ts.mid, m.mid(p, i))
			ts.owner = append(ts.owner, id)
			if nb := m.enb[p.e0+i]; nb >= 0 && !ts.inside(nb) {
				ts.side = append(ts.side, p.e0+i-ts.e0)
			}
		}
	}
	n := len(ts.mid)
	ts.dist = slices.Grow(ts.dist[:0], n)[:n]
	ts.exit = slices.Grow(ts.exit[:0], n)[:n]
	ts.done = slices.Grow(ts.done[:0], n)[:n]
}

func (ts *tileSearch) inside(p PolyID) bool { return ts.p0 <= p && p < ts.p1 }

// reset clears the search's distances.
func (ts *tileSearch) reset() {
	for i := range ts.dist {
		ts.dist[i], ts.exit[i], ts.done[i] = math.Inf(1), math.Inf(1), false
	}
	ts.heap.Reset()
}

// leave relaxes the ways out of polygon id, standing at at with cost d,
// by every portal but slot skip.
func (ts *tileSearch) leave(id PolyID, at mgl64.Vec2, d float64, skip int32) {
	m := ts.m
	p := m.polys[id]
	for e := p.e0; e < p.e0+p.ne; e++ {
		nb := m.enb[e]
		if e == skip || nb < 0 {
			continue
		}
		c := d + geom.Dist(at, ts.mid[e-ts.e0])
		if !ts.inside(nb) {
			ts.exit[e-ts.e0] = min(ts.exit[e-ts.e0], c)
			continue
		}
		ts.relax(m.polys[nb].e0+m.etwin[e]-ts.e0, c)
	}
}

func (ts *tileSearch) relax(e int32, d float64) {
	if d < ts.dist[e] {
		ts.dist[e] = d
		ts.heap.Push(math.Float64bits(d), e)
	}
}

// pop returns the next slot to settle and its distance, or false when
// none is left.
func (ts *tileSearch) pop() (int32, float64, bool) {
	for ts.heap.Len() > 0 {
		x := ts.heap.Pop()
		if d := math.Float64frombits(x.Key); !ts.done[x.Node] && d <= ts.dist[x.Node] {
			ts.done[x.Node] = true
			return x.Node, d, true
		}
	}
	return 0, 0, false
}

// run ends a forward search: the least costs of leaving the tile are then
// in exit.
func (ts *tileSearch) run() {
	for {
		e, d, ok := ts.pop()
		if !ok {
			return
		}
		ts.leave(ts.owner[e], ts.mid[e], d, ts.e0+e)
	}
}

// toGoal runs the reverse search from the goal polygons gps that lie in
// the tile: dist then holds, at each slot, the least cost from standing
// there to the goal to, and in particular at each border side, entered
// from the other tile.
func (ts *tileSearch) toGoal(gps []PolyID, to mgl64.Vec2) {
	m := ts.m
	for _, id := range gps {
		if !ts.inside(id) {
			continue
		}
		p := m.polys[id]
		for e := p.e0; e < p.e0+p.ne; e++ {
			if m.enb[e] >= 0 {
				ts.relax(e-ts.e0, geom.Dist(ts.mid[e-ts.e0], to))
			}
		}
	}
	for {
		le, d, ok := ts.pop()
		if !ok {
			return
		}
		// Standing at slot le inside P is reached from inside the
		// neighbour Q by its twin t, from any other portal f of Q.
		e := ts.e0 + le
		q := m.enb[e]
		if q < 0 || !ts.inside(q) {
			continue
		}
		qp := m.polys[q]
		t := qp.e0 + m.etwin[e]
		for f := qp.e0; f < qp.e0+qp.ne; f++ {
			if f != t && m.enb[f] >= 0 {
				ts.relax(f-ts.e0, d+geom.Dist(ts.mid[f-ts.e0], ts.mid[le]))
			}
		}
	}
}

// table returns tile k's table, finding it with c's tile search the first
// time.
func (c *corridor) table(k int) *tileTable {
	if t := c.ct.tab[k].Load(); t != nil {
		return t
	}
	return c.ct.fill(c.m, k, &c.ts)
}

// fill finds tile k's table with the tile search ts, keeps it unless
// another query kept one first, and returns the one kept.
func (ct *corridorTables) fill(m *Mesh, k int, ts *tileSearch) *tileTable {
	ts.load(m, ct, k)
	n := len(ts.side)
	t := &tileTable{side: slices.Clone(ts.side), cost: make([]float32, n*n)}
	for a, s := range t.side {
		ts.reset()
		ts.leave(ts.owner[s], ts.mid[s], 0, ts.e0+s)
		ts.run()
		for b, x := range t.side {
			t.cost[a*n+b] = float32(ts.exit[x])
			if a == b {
				t.cost[a*n+b] = float32(math.Inf(1))
			}
		}
	}
	ct.tab[k].CompareAndSwap(nil, t)
	return ct.tab[k].Load()
}

// FillCorridorTables finds, on GOMAXPROCS goroutines, the tables that the
// corridor search over tiles ([Query.Corridor] on a tiled mesh) keeps of
// every tile, so that no query pays for them: without it the first query
// to need a tile's table finds it, some 0.4 ms for a tile of 64×64 cells
// of the 4096² demo world (all 4 096 of its tiles took 1.8 s on one core,
// 1.0 s on two). The tables take 4 bytes for each pair of a tile's border
// sides and 4 for each side (4.0 MB on that world). [Mesh.Update] keeps
// them but for the tiles it built again and the four beside each, so
// that on an updated mesh it finds only those (five tables for an edit
// inside one tile, some 2 ms on that world): a game can call it on the
// updated mesh before handing it to its agents. It finds only the tables
// not yet found, and may run while queries do. On a mesh that is not
// tiled it does nothing.
func (m *Mesh) FillCorridorTables() {
	ct := m.corridorTables()
	if ct == nil {
		return
	}
	parallel.ForEach(len(ct.tab), func() *tileSearch { return new(tileSearch) }, func(ts *tileSearch, k int32) {
		if ct.tab[k].Load() == nil {
			ct.fill(m, int(k), ts)
		}
	})
}

// carryCorridorTables gives nm, which Update made of m by building again
// tiles tx0 to tx1 of rows r0 to r1, m's corridor tables, if it has any,
// for every tile whose polygons and sides are the same in both: all but
// the tiles built again and those that share a side with one, whose
// sides on the line between may be cut otherwise (the stitch cuts a side
// only at corners strictly inside it, so a tile that meets the rebuilt
// ones at a corner alone keeps its sides).
func carryCorridorTables(m, nm *Mesh, r0, r1, tx0, tx1 int) {
	ot := m.tiles.corr.Load()
	if ot == nil {
		return
	}
	ct := nm.corridorTables()
	if ct == nil || len(ct.tab) != len(ot.tab) {
		return
	}
	nx := nm.tiles.nx
	for k := range ct.tab {
		ty, tx := k/nx, k%nx
		if r0 <= ty && ty <= r1 && tx0-1 <= tx && tx <= tx1+1 || tx0 <= tx && tx <= tx1 && r0-1 <= ty && ty <= r1+1 {
			continue
		}
		if t := ot.tab[k].Load(); t != nil {
			ct.tab[k].Store(t)
		}
	}
}

// Modes of the corridor search's graph.
const (
	corridorFlat     uint8 = iota // the graph of corridor.go
	corridorAbstract              // border crossings and the tables
	corridorConfined              // one leg: inside tile [lo, hi) to the crossing target
)

// goalTile is what a query knows of a tile that holds a goal polygon: per
// border side of its table, the cost from entering by it to the goal.
type goalTile struct {
	tile int
	d    []float64
}

// beginTiled starts the corridor search over tiles, when the query allows
// it, and reports whether it did.
func (c *corridor) beginTiled(q Query) bool {
	g := c.g
	c.mode = corridorFlat
	if c.ct = c.m.corridorTables(); c.ct == nil || q.MaxExpansions > 0 || g.fl.f != nil ||
		geom.Dist(c.from, c.to) < corridorTileRange {
		return false
	}
	c.goals = c.goals[:0]
	for _, id := range g.gps {
		k := c.ct.tileOf(id)
		for _, s := range g.sps {
			if c.ct.tileOf(s) == k {
				return false // the ends share a tile
			}
		}
		if slices.ContainsFunc(c.goals, func(gt goalTile) bool { return gt.tile == k }) {
			continue
		}
		ts := &c.ts
		ts.load(c.m, c.ct, k) // its sides in the order of the tile's table
		ts.reset()
		ts.toGoal(g.gps, c.to)
		var d []float64
		if i := len(c.goals); i < cap(c.goals) {
			d = c.goals[:i+1][i].d[:0]
		}
		for _, s := range ts.side {
			d = append(d, ts.dist[s])
		}
		c.goals = append(c.goals, goalTile{tile: k, d: d})
	}
	c.mode, c.phase, c.base = corridorAbstract, -1, 0
	c.starts = c.starts[:0]
	c.started = false
	w := c.w
	if corridorTileWeight != 0 {
		w = corridorTileWeight
	}
	c.cs.Begin(corridorStart, corridorGoal, c, core.Query{Weight: w})
	return true
}

// stepTiled runs at most n expansions of the search over tiles and
// reports whether it has ended; c.ids then holds the chain, from the start
// to the goal, or c.mode is corridorFlat again and the flat search has
// begun, when a stage failed (which should not happen).
func (c *corridor) stepTiled(n int) bool {
	for {
		before := c.cs.Expanded()
		st := c.cs.Step(n)
		n -= c.cs.Expanded() - before
		if st == core.InProgress {
			return false
		}
		c.base += c.cs.Expanded()
		if st != core.Found {
			return c.fallBack()
		}
		if c.phase < 0 {
			c.abs = c.cs.AppendPath(c.abs[:0], corridorGoal)
			c.ids = append(c.ids[:0], corridorStart)
		} else {
			// The leg's path begins with the chain's last node.
			at := len(c.ids)
			c.ids = c.cs.AppendPath(c.ids, c.target)
			c.ids = append(c.ids[:at], c.ids[at+1:]...)
		}
		c.phase++
		if c.phase >= len(c.abs)-1 {
			c.mode, c.joined = corridorFlat, true
			return true
		}
		c.beginLeg()
		if n <= 0 {
			return false
		}
	}
}

// fallBack begins the flat search instead, and returns false: the search
// has not ended.
func (c *corridor) fallBack() bool {
	c.mode = corridorFlat
	c.newGen()
	c.cs.Begin(corridorStart, corridorGoal, c, core.Query{Weight: c.w})
	return false
}

// beginLeg begins the search of leg c.phase of the abstract path.
func (c *corridor) beginLeg() {
	u, v := c.abs[c.phase], c.abs[c.phase+1]
	var k int
	if u == corridorStart {
		k = c.ct.tileOf(c.cr[(v-corridorPortal)^1].into) // the polygon v leaves
	} else {
		k = c.ct.tileOf(c.cr[u-corridorPortal].into)
	}
	c.lo, c.hi = PolyID(c.ct.first[k]), PolyID(c.ct.first[k+1])
	c.mode, c.target, c.targetAt = corridorConfined, v, c.point(v)
	c.newGen()
	if u != corridorStart {
		r := &c.cr[u-corridorPortal]
		r.h, r.gen = float32(geom.Dist(c.point(u), c.targetAt)), c.gen
	}
	c.cs.Begin(u, v, c, core.Query{Weight: 1})
}

// newGen makes every crossing's heuristic stale.
func (c *corridor) newGen() {
	if c.gen++; c.gen == 0 {
		for i := range c.cr {
			c.cr[i].gen = 0
		}
		c.gen = 1
	}
}

// abstractEdges appends the edges out of crossing n into a tile, read
// from the tile's table, and to the goal when the tile holds it.
func (c *corridor) abstractEdges(dst []core.Edge, n int32) []core.Edge {
	m := c.m
	x := &c.cr[n-corridorPortal]
	k := c.ct.tileOf(x.into)
	tab := c.table(k)
	e0 := m.polys[c.ct.first[k]].e0
	a, ok := slices.BinarySearch(tab.side, m.polys[x.into].e0+x.in-e0)
	if !ok {
		return dst // cannot happen: a crossing between tiles enters by a border side
	}
	ns := len(tab.side)
	for _, gt := range c.goals {
		if gt.tile == k && !math.IsInf(gt.d[a], 1) {
			dst = append(dst, core.Edge{To: corridorGoal, Cost: gt.d[a]})
		}
	}
	row := tab.cost[a*ns : (a+1)*ns]
	for b, cost := range row {
		if math.IsInf(float64(cost), 1) {
			continue
		}
		e := e0 + tab.side[b]
		pid := c.cr[c.port[e]^1].into // the polygon e leaves
		x, ok := c.open(pid, e)
		if !ok {
			continue
		}
		p := m.polys[pid]
		i := e - p.e0
		c.setH(x, p, i, m.mid(p, i))
		dst = append(dst, core.Edge{To: corridorPortal + x, Cost: float64(cost)})
	}
	return dst
}

// startEdges appends the edges out of the start in the abstract graph: to
// the crossings out of each tile that holds a start polygon, found by a
// search of each such tile the first time, kept for the query (core asks
// again when it sums the cost of a path through a reopened node).
func (c *corridor) startEdges(dst []core.Edge) []core.Edge {
	if c.started {
		return append(dst, c.starts...)
	}
	c.started = true
	at := len(dst)
	dst = c.startSearch(dst)
	c.starts = append(c.starts[:0], dst[at:]...)
	return dst
}

// startSearch appends the edges of startEdges.
func (c *corridor) startSearch(dst []core.Edge) []core.Edge {
	ts := &c.ts
	sps := c.g.sps
	for i, id := range sps {
		k := c.ct.tileOf(id)
		if slices.ContainsFunc(sps[:i], func(s PolyID) bool { return c.ct.tileOf(s) == k }) {
			continue // searched with an earlier polygon of its tile
		}
		ts.load(c.m, c.ct, k)
		ts.reset()
		for _, s := range sps[i:] {
			if ts.inside(s) {
				ts.leave(s, c.from, 0, -1)
			}
		}
		ts.run()
		for _, s := range ts.side {
			if d := ts.exit[s]; !math.IsInf(d, 1) {
				e := ts.e0 + s
				pid := ts.owner[s]
				if x, ok := c.open(pid, e); ok {
					p := c.m.polys[pid]
					c.setH(x, p, e-p.e0, ts.mid[s])
					dst = append(dst, core.Edge{To: corridorPortal + x, Cost: d})
				}
			}
		}
	}
	return dst
}

// cutLoops drops from the corridor every stretch between two visits of
// one polygon, which legs joined from different tiles could make (a
// shortest chain makes none, by the triangle inequality inside the
// polygon, but ties and the weight may): the corridor left still joins
// the start's polygon to the goal's, each polygon a neighbour of the one
// before.
func (c *corridor) cutLoops() {
	if len(c.seen) < len(c.m.polys) {
		c.seen = make([]int32, len(c.m.polys))
	}
	out := 0
	for i, p := range c.polys {
		if j := int(c.seen[p]) - 1; j >= 0 && j < out && c.polys[j] == p {
			out = j + 1 // back to the first visit, with its portal in
			continue
		}
		if out > 0 {
			c.portals[out-1] = c.portals[i-1]
		}
		c.polys[out] = p
		c.seen[p] = int32(out + 1)
		out++
	}
	c.polys, c.portals = c.polys[:out], c.portals[:out-1]
}
