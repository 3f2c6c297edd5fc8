package navmesh

import (
	"math"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/funnel"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// The corridor search (Query.Corridor) is Detour's model: A* over the
// polygons finds a corridor, the chain of polygons from the start's to the
// goal's, and funnel.Pull pulls it taut.
//
// The A* runs on core over a fixed graph. Its nodes are the start (node
// 0), the goal (node 1) and, for every polygon edge slot e that is a
// portal, the crossing of that portal out of its polygon into m.enb[e]
// (node corridorPortal+port[e]): a polygon is entered by one of its
// portals, so a crossing says both where the path is and which polygon it
// is in. A crossing stands at its portal's midpoint (in the first pass;
// a second pass stands it elsewhere, see corridor_passes.go). The two
// crossings of one portal are numbered side by side (see corridor.port), so that the
// search finds one's state next to the other's and works out their
// heuristic once. Edges join the start to the
// crossings out of the polygons that hold it, a crossing into polygon p to
// the crossings out of p by its other portals and, when p holds the goal,
// to the goal; each costs the Euclidean distance between the two points.
// The heuristic, the distance from a node's point to the goal, is
// consistent on this graph (but for its rounding to float32); the second
// pass (corridor_passes.go), whose crossings stand elsewhere, keeps it
// and the prunings below without that argument. Under a
// query's filter each leg costs its length times the cost multiplier of
// the polygon it runs in, and the heuristic is scaled by the least
// multiplier when that is below 1, so it stays consistent. A chain of
// midpoints is a legal path (each leg joins two points of one convex
// polygon), so its length bounds the pulled path's from above; but it is
// not the taut length, and the heuristic is not admissible for that: the
// corridor found need not hold the shortest path. A portal is long where a polygon spans a street, and its midpoint
// is then a poor stand-in for where the path crosses it.
//
// Two prunings keep the search small. As in the exact search, bridges into
// a part of the mesh that holds neither end are not crossed (see bridges).
// And a crossing from q into p through a portal is not made once the
// crossing the other way, from p into q, has been expanded: that one was
// made by the expansion of a node standing in p (the start, or a crossing
// into p), which made every crossing out of p, and the goal when p holds
// it, from a point no farther along; by the triangle inequality a chain
// that goes back into p is never shorter. Without it a search expands most
// portals twice, once each way.
//
// The search weighs the heuristic by corridorWeight, as the midpoint
// chain overstates the taut length anyway. With the weight it returns a
// chain at most that factor longer than the shortest one, and the second
// pruning, which assumes nodes leave the open list in the order of their
// cost, may cost a little more; the pulled paths come out about as short
// (see corridorWeight).
//
// On a tiled mesh a long query runs the same search over the tiles
// instead (corridor_tiles.go): an abstract search over the crossings of
// the tile borders, read from a table per tile, then each leg of it
// searched again inside its tile.
//
// A shortcut pass (Query.Shortcut) may then drop waypoints: the pulled
// path is taut within the corridor, and it can only be shortened by
// leaving it, where a corridor wraps round polygons it does not hold.

// corridorWeight multiplies the corridor search's heuristic. Against a
// weight of 1, on 300 scenarios of each of 11 Moving AI maps and on 20
// long queries of the 4096² demo world, 1.1 took from 9 % (den520d) to 97
// % (random512-10-0: 4 315 expansions a query to 147) of the expansions
// away, 30 % on the world, and changed the mean excess of the pulled path
// over the exact search's by less than 0.15 percentage points either way.
// 1.2 takes a fifth more away on the world (69 000 expansions a query
// against 86 000; median 41 ms against 77 in one run) and adds 0.8 points
// to its excess (2.1 % over the exact search's length, within the 3 % the
// corridor search is held to); on every 10th scenario of den520d,
// Berlin_0_1024, random512-10-0, AR0011SR and brc202d the excess moved by
// less than 0.1 point (0.07 % to 0.76 %). 1.3 went over 3 % on the world
// (3.2 %).
const corridorWeight = 1.2

// corridorWeightLandmarks is corridorWeight on a mesh with landmarks,
// whose bounds (portalBound) join the straight line in the heuristic. It
// is tighter, and the weight then makes the search greedier: on the 4096²
// demo world's 20 long pairs with 16 landmarks, 1.2 expanded 13 000
// crossings a query and left paths 3.1 % over the exact search's, 1.15
// 21 000 and 2.4 %, 1.1 52 000 and 2.1 %, and 1 125 000 and 1.9 %,
// against 88 000 and 2.5 % for 1.2 without landmarks (one pinned run each).
const corridorWeightLandmarks = 1.15

// corridorLandmarkRange is the least straight distance between a query's
// ends for the corridor search to use the mesh's landmarks (a variable for
// the tests). Their bounds cost a look-up of both ends' distances at each
// crossing, and on shorter queries they save too few crossings for it: on every 10th scenario of den520d, AR0011SR and
// random512-10-0 (512², 8 landmarks, each query timed by the median of 5
// runs) they took the median from 3.5, 4.4 and 29 µs to 6.1, 6.4 and
// 46 µs; on Berlin_0_1024 they changed it little (16.1 against 16.7 µs),
// and on the 4096² demo world's long pairs, with 16, they halve it.
var corridorLandmarkRange = 1024.0

// Node numbers of the corridor search.
const (
	corridorStart  int32 = 0
	corridorGoal   int32 = 1
	corridorPortal int32 = 2 // the crossing of edge slot e is corridorPortal+port[e]
)

// corridor is the graph and the scratch of the corridor search. It reads
// the ends' polygons from the exact search's state, which AppendPath fills
// for either search.
type corridor struct {
	m        *Mesh
	g        *search
	cs       *core.Sliced // a blocking query is one Step without a limit
	from, to mgl64.Vec2
	ids      []int32
	polys    []PolyID // the last corridor
	portals  []funnel.Portal
	// The numbering of the crossings: per edge slot e that is a portal,
	// port[e] is its crossing's number less corridorPortal (−1 for a
	// wall), and cr[port[e]] describes it. The two crossings of a portal
	// are 2k and 2k+1, so that x^1 is the crossing of x's portal the other
	// way, and their records share a cache line.
	port []int32
	cr   []crossRec
	gen  uint32  // the query's, for crossRec.gen
	w    float64 // the flat search's weight
	// The search over tiles (corridor_tiles.go): the graph's mode, the
	// mesh's tables, the search inside a tile, the goal's tiles, the
	// stage (−1 the abstract search, else the leg being refined), the
	// expansions of the stages ended, the abstract path, and the leg's
	// tile's polygons, end node and its point.
	mode     uint8
	ct       *corridorTables
	ts       tileSearch
	goals    []goalTile
	phase    int
	base     int
	abs      []int32
	lo, hi   PolyID
	target   int32
	targetAt mgl64.Vec2
	joined   bool        // c.ids holds the chain the search over tiles joined
	starts   []core.Edge // the abstract graph's edges out of the start, once found
	started  bool
	seen     []int32 // per polygon, its place in the corridor being made + 1
	// The second pass (corridor_passes.go): whether it runs, its number
	// (for nearAt.pass), and per crossing the point it stands at, valid
	// where its pass is the pass's; and the first pass's path, result and
	// corridor, once passes is 1.
	near      bool
	pass      uint32
	passes    int
	at        []nearAt
	kept      []mgl64.Vec2
	keptRes   Result
	keptPolys []PolyID
}

// crossRec is what the corridor search keeps of a crossing: the polygon
// it enters and the portal's edge there, and the heuristic at its
// midpoint, valid where gen is the query's: written when either crossing
// of the portal is made, before core can ask for it. The heuristic is
// rounded to float32 (within 4·10⁻⁴ on a map 4096 cells wide), to keep
// the scratch small.
type crossRec struct {
	into PolyID
	in   int32
	h    float32
	gen  uint32
}

func newCorridor(sr *Searcher) *corridor {
	m := sr.m
	n := 0
	for _, nb := range m.enb {
		if nb >= 0 {
			n++
		}
	}
	c := &corridor{m: m, g: &sr.g, port: make([]int32, len(m.ev)), cr: make([]crossRec, 0, n)}
	for _, p := range m.polys {
		for i := range p.ne {
			e := p.e0 + i
			nb := m.enb[e]
			if nb < 0 {
				c.port[e] = -1
				continue
			}
			if t := m.polys[nb].e0 + m.etwin[e]; e < t {
				k := int32(len(c.cr))
				c.port[e], c.port[t] = k, k+1
				c.cr = append(c.cr, crossRec{into: nb, in: m.etwin[e]}, crossRec{into: m.enb[t], in: m.etwin[t]})
			}
		}
	}
	c.cs = core.NewSliced(c)
	return c
}

func (c *corridor) NumNodes() int { return len(c.cr) + int(corridorPortal) }

// mid returns the midpoint of edge i of p.
func (m *Mesh) mid(p poly, i int32) mgl64.Vec2 {
	a, b := m.edge(p, i)
	return mgl64.Vec2{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2}
}

// point returns where node n stands.
func (c *corridor) point(n int32) mgl64.Vec2 {
	switch n {
	case corridorStart:
		return c.from
	case corridorGoal:
		return c.to
	}
	k := n - corridorPortal
	x := &c.cr[k]
	if c.near {
		if p := &c.at[k]; p.pass == c.pass {
			return mgl64.Vec2{float64(p.x), float64(p.y)}
		}
	}
	return c.m.mid(c.m.polys[x.into], x.in)
}

// Estimate is the heuristic of the corridor search: the distance from node
// n's point to the goal.
func (c *corridor) Estimate(n int32) float64 {
	switch n {
	case corridorStart:
		if c.mode == corridorConfined {
			return geom.Dist(c.targetAt, c.from)
		}
		return max(geom.Dist(c.to, c.from), c.g.startBound) * c.g.fl.low
	case corridorGoal:
		return 0
	}
	return float64(c.cr[n-corridorPortal].h)
}

// AppendEdges appends the edges out of node n (see above).
func (c *corridor) AppendEdges(dst []core.Edge, n int32) []core.Edge {
	m := c.m
	switch n {
	case corridorStart:
		if c.mode == corridorAbstract {
			return c.startEdges(dst)
		}
		for _, pid := range c.g.sps {
			if c.mode != corridorConfined || c.lo <= pid && pid < c.hi {
				dst = c.leave(dst, pid, -1, c.from)
			}
		}
		return dst
	case corridorGoal:
		return dst
	}
	if c.mode == corridorAbstract {
		return c.abstractEdges(dst, n)
	}
	x := &c.cr[n-corridorPortal]
	pid, in := x.into, x.in
	at := m.mid(m.polys[pid], in)
	if c.g.isGoalPoly(pid) && (c.mode != corridorConfined || c.target == corridorGoal) {
		dst = append(dst, core.Edge{To: corridorGoal, Cost: geom.Dist(c.to, at) * c.g.fl.cost[m.Area(pid)]})
	}
	return c.leave(dst, pid, in, at)
}

// leave appends the crossings out of polygon pid from the point at, by
// every portal but its edge in, less those pruned (see above).
func (c *corridor) leave(dst []core.Edge, pid PolyID, in int32, at mgl64.Vec2) []core.Edge {
	m := c.m
	p := m.polys[pid]
	mult := c.g.fl.cost[m.Area(pid)] // the legs run inside pid
	for i := range p.ne {
		e := p.e0 + i
		nb := m.enb[e]
		if i == in || nb < 0 {
			continue
		}
		if c.mode == corridorConfined && (nb < c.lo || c.hi <= nb) && corridorPortal+c.port[e] != c.target {
			continue // out of the leg's tile, but by the leg's end
		}
		x, ok := c.open(pid, e)
		if !ok {
			continue
		}
		a, b := m.edge(p, i)
		mp := mgl64.Vec2{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2}
		c.setH(x, p, i, mp)
		to := mp
		if c.near && c.mode != corridorAbstract {
			to = nearest(a, b, at)
		}
		dst = append(dst, core.Edge{To: corridorPortal + x, Cost: geom.Dist(to, at) * mult})
	}
	return dst
}

// open returns the crossing out of polygon pid by its edge slot e, and
// false when it is pruned (see above).
func (c *corridor) open(pid PolyID, e int32) (int32, bool) {
	if !c.g.crosses(pid, e) {
		return 0, false
	}
	x := c.port[e]
	if _, back := c.cs.Dist(corridorPortal + (x ^ 1)); back {
		return 0, false // the crossing the other way was expanded
	}
	return x, true
}

// setH sets the heuristic of crossing x, out of polygon p by its edge i
// whose midpoint is mp, and of the crossing the other way, unless this
// query has set them.
func (c *corridor) setH(x int32, p poly, i int32, mp mgl64.Vec2) {
	r := &c.cr[x]
	if r.gen == c.gen {
		return
	}
	var h float64
	if c.mode == corridorConfined {
		h = geom.Dist(c.targetAt, mp)
	} else {
		h = geom.Dist(c.to, mp)
		if c.g.lm != nil {
			h = max(h, c.g.portalBound(p, i))
		}
		h *= c.g.fl.low
	}
	r.h, r.gen = float32(h), c.gen
	r2 := &c.cr[x^1]
	r2.h, r2.gen = r.h, c.gen
}

// crossing returns the polygon that a crossing into polygon into by its
// edge in leaves, and the portal, oriented for the walker crossing it.
func (m *Mesh) crossing(into PolyID, in int32) (PolyID, funnel.Portal) {
	q := m.polys[into]
	// The same edge in the polygon entered runs the other way round.
	a, b := m.edge(q, in)
	return m.enb[q.e0+in], funnel.Portal{Left: a, Right: b}
}

// appendCorridorPath answers AppendPath with Query.Corridor set.
func (sr *Searcher) appendCorridorPath(dst []mgl64.Vec2, from, to mgl64.Vec2, q Query) ([]mgl64.Vec2, Result, error) {
	c, ok, dst, res, err := sr.beginCorridor(dst, from, to, q)
	if !ok {
		return dst, res, err
	}
	for {
		for !c.step(math.MaxInt) {
		}
		if sr.secondPass(q) {
			break
		}
	}
	dst, res = sr.passesPath(dst, q)
	return dst, res, nil
}

// step runs at most n expansions of the corridor search begun, and
// reports whether it has ended.
func (c *corridor) step(n int) bool {
	if c.mode != corridorFlat {
		return c.stepTiled(n)
	}
	return c.cs.Step(n) != core.InProgress
}

// expanded returns the corridor search's expansions so far.
func (c *corridor) expanded() int {
	n := c.base + c.cs.Expanded()
	if c.near {
		n += c.keptRes.Expanded
	}
	return n
}

// beginCorridor starts the corridor search from from to to, with the
// corridor emptied, and reports whether it did: a query that settle
// answers, or an error, is returned with the path appended to dst, and the
// corridor of a straight line in one polygon is that polygon.
func (sr *Searcher) beginCorridor(dst []mgl64.Vec2, from, to mgl64.Vec2, q Query) (*corridor, bool, []mgl64.Vec2, Result, error) {
	if sr.c == nil {
		sr.c = newCorridor(sr)
	}
	c := sr.c
	c.polys = c.polys[:0]
	c.mode, c.joined = corridorFlat, false
	c.near, c.passes = false, 0
	dst, res, common, err := sr.settle(dst, from, to, q)
	if err != nil || res.Status != core.NotSearched {
		if common >= 0 {
			c.polys = append(c.polys, common)
		}
		return c, false, dst, res, err
	}
	c.from, c.to = from, to
	c.newGen()
	g := &sr.g
	g.start, g.goal = from, to
	g.lm, g.startBound = nil, 0
	if geom.Dist(from, to) >= corridorLandmarkRange {
		g.beginBounds() // the landmarks' bounds, when the mesh has them
	}
	c.w = corridorWeight
	if g.lm != nil {
		c.w = corridorWeightLandmarks
	}
	c.base, c.joined = 0, false
	if !c.beginTiled(q) {
		c.cs.Begin(corridorStart, corridorGoal, c, core.Query{MaxExpansions: max(q.MaxExpansions, 0), Weight: c.w})
	}
	return c, true, dst, Result{}, nil
}

// corridorPath makes the corridor of the corridor search, which has ended,
// pulls it taut into a path appended to dst, and returns that with its
// description.
func (sr *Searcher) corridorPath(dst []mgl64.Vec2, q Query) ([]mgl64.Vec2, Result) {
	c, m, g := sr.c, sr.m, &sr.g
	from := c.from
	r := c.cs.Result()
	if c.joined {
		// The search over tiles ended: c.ids holds its chain.
		r = core.Result{Status: core.Found, End: corridorGoal, Expanded: c.base}
	} else {
		r.Expanded += c.base
		if r.Status != core.Found && r.Status != core.BudgetSpent {
			return dst, Result{Status: core.Unreachable, Expanded: r.Expanded, End: from}
		}
		c.ids = c.cs.AppendPath(c.ids[:0], r.End)
	}
	c.portals = c.portals[:0]
	last := c.point(r.End)
	for _, id := range c.ids {
		if id < corridorPortal {
			continue
		}
		x := c.cr[id-corridorPortal]
		out, portal := m.crossing(x.into, x.in)
		if len(c.polys) == 0 {
			c.polys = append(c.polys, out)
		}
		c.polys = append(c.polys, x.into)
		c.portals = append(c.portals, portal)
	}
	if len(c.polys) == 0 {
		c.polys = append(c.polys, g.sps[0]) // a budget spent at the start
	}
	if c.joined {
		c.cutLoops()
	}
	base := len(dst)
	dst = funnel.Pull(dst, from, last, c.portals)
	if q.Shortcut && !g.fl.weighted {
		dst = m.shortcut(dst, base, g.fl.excl)
	}
	res := Result{Status: r.Status, Expanded: r.Expanded, End: last}
	for i := base + 1; i < len(dst); i++ {
		res.Length += geom.Dist(dst[i], dst[i-1])
	}
	return dst, res
}

// shortcut drops the inner points of the path path[base:] that a straight
// leg on the mesh from the point kept before them to the point after them
// makes needless, and returns the shortened slice: a leg may not enter
// the polygons of the areas excl marks, when not nil. It walks the path
// once, with one [Mesh.Raycast] per inner point.
func (m *Mesh) shortcut(path []mgl64.Vec2, base int, excl *[256]bool) []mgl64.Vec2 {
	if len(path)-base < 3 {
		return path
	}
	w := base + 1 // path[w-1] is the last point kept
	for j := base + 1; j < len(path)-1; j++ {
		if hit, _ := m.raycast(path[w-1], path[j+1], excl); hit {
			path[w] = path[j]
			w++
		}
	}
	path[w] = path[len(path)-1]
	return path[:w+1]
}

// AppendCorridor appends to dst the corridor of the last query made with
// [Query.Corridor] (a sliced one's once [Searcher.Step] has ended it; it
// is empty while the search goes on) and returns the extended slice: the polygons it
// searched through, from one that holds the start to one that holds the
// goal, each a neighbour of the one before and none twice. Pulling the
// portals between them taut (funnel.Pull) gives the path AppendPath
// returned, unless [Query.Shortcut] cut across polygons outside the
// corridor. When the start and goal share a polygon the corridor is that
// polygon alone; when the query's budget ran out it ends in the polygon
// the partial path ends in (the path ends at the midpoint of its entry
// portal); after an error or an unreachable goal it is empty, and before
// any corridor query too. An agent layer keeps it to steer along and to
// mend after the start or goal moves, as Detour's path corridor does. It
// costs O(n) for n polygons and allocates only when dst lacks room.
//
// The corridor search is A* on core over the portals: a node is the
// crossing of a portal into a polygon, standing at the portal's midpoint,
// and an edge costs the distance between the midpoints of two portals of
// one polygon (from the start, and to the goal, the distance from that
// end). Its heuristic, the straight distance to the goal, is consistent on
// that graph; it is weighted by 1.2, which lets the chain of midpoints
// found be up to 20 % longer than the shortest. The chain is a
// stand-in for the taut length, not a bound on it, so the corridor need
// not hold the shortest path: the pulled path is never shorter than the
// exact search's, and on the Moving AI maps it was on average 0.07 % to
// 0.8 % longer, on the 4096² demo world's long queries 2.1 % (7 % on
// meshes of rectangles of small random grids, whose portals are long).
// Unless [Query.OnePass] is set, or a Filter has cost multipliers, a
// corridor through a portal 2 units long or more is searched for a second
// time, each crossing standing at the point of its portal nearest the
// crossing before it, and the shorter of the two pulled paths is kept (and
// its corridor): on every scenario of
// Boston_0_1024 the paths longer than the 8-connected optimum went from
// 137 to 38, the worst from 1.57× to 1.12×, for 2 to 3.3 times the time. On a mesh built for an
// agent radius it keeps the radius, as the exact search does: the mesh
// holds only the points the agent may stand on. The search never crosses
// a bridge into a part of the mesh that holds neither end, nor back
// through a portal it has crossed the other way, so it makes O(k)
// crossings for the k portals near the path and costs O(k log k). The
// first corridor query of a Searcher numbers the crossings and allocates
// its scratch, 4 bytes per polygon side and 32 per crossing (64 MB for the
// 693 179 polygons of the demo world's mesh in tiles of 64, 0.95 MB for
// Berlin_0_1024's), and the first that makes a second pass 8 bytes more
// per crossing and room for the first pass's path and corridor; later
// ones allocate nothing beyond dst.
//
// On a tiled mesh, for ends 256 units apart or more and a query with
// neither a filter nor a budget, the search runs over the tiles: A* over
// the crossings of the tile borders alone, each tile's shortest chains
// between its border sides read from a table, then each leg of the path
// found searched again inside its tile (with the straight distance to the
// leg's end, unweighted), the legs joined into the corridor. Both stages
// search the graph above, so the chain found is as short as the flat
// search's would be for the same weight (equal with weight 1), with far
// fewer crossings expanded: on the 4096² demo world's long queries some
// 2 700 against 21 000. The tables are found the first time a query
// needs a tile's, once for the mesh and all its Searchers (some 0.4 ms a
// tile of 64×64 cells), or all at once by [Mesh.FillCorridorTables]; the
// first such query of a Searcher also allocates 4 bytes a polygon.
// Like the rest of the Searcher, it is not safe for concurrent use.
func (sr *Searcher) AppendCorridor(dst []PolyID) []PolyID {
	if sr.c == nil {
		return dst
	}
	return append(dst, sr.c.polys...)
}
