package navmesh

import (
	"fmt"
	"math"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// Result describes a navmesh query.
type Result struct {
	// Status is core.Found, core.Unreachable, or core.BudgetSpent when the
	// query's [Query.MaxExpansions] ran out first; core.NotSearched beside
	// an error.
	Status core.Status
	// Length is the Euclidean length of the returned path, partial or
	// whole; 0 when none.
	Length float64
	// Expanded counts the search nodes taken from the open list (a cone
	// with a single successor is stepped through without counting); 0 when
	// the start and goal share a polygon or lie in different components.
	Expanded int
	// End is the last point of the returned path: the goal when Found, the
	// end of the partial path when BudgetSpent, the start when Unreachable.
	End mgl64.Vec2
}

// Query tunes one search. The zero value is an unbounded search for the
// shortest path.
type Query struct {
	// MaxExpansions caps the search nodes expanded, as Result.Expanded
	// counts them; 0 (or less) means no cap. A search that hits the cap
	// ends with status core.BudgetSpent and a partial path toward the goal.
	MaxExpansions int
	// Corridor asks for the fast approximate search instead of the exact
	// one: A* over the polygons finds a corridor, which funnel.Pull pulls
	// taut, as Detour does (see [Searcher.AppendCorridor]). Its paths are
	// legal and never shorter than the exact search's, on average 0.1 % to
	// 2 % longer (7 % on a mesh of rectangles, whose portals are long); on
	// long queries it is from 2 (mazes, rooms) to tens of times faster
	// (BenchmarkCorridor). On a tiled mesh a long query runs over the
	// tiles first (see [Searcher.AppendCorridor] and
	// [Mesh.FillCorridorTables]). Unless OnePass is set, or Filter has
	// cost multipliers, a query whose corridor crosses a portal 2 units
	// long or more searches a second time, each crossing at the point of
	// its portal nearest the one before instead of at its midpoint, and
	// keeps the shorter of the two pulled paths: the worst paths of city maps came down from 1.57× to
	// 1.12× the 8-connected optimum, for 2 to 3.3 times the time.
	Corridor bool
	// OnePass, with Corridor, leaves out the second pass: the corridor is
	// the one the search over the chains of portal midpoints finds (the
	// shortest chain, within the search's weight), as in Detour.
	OnePass bool
	// Filter, when not nil, weighs and excludes polygons by their area
	// types ([Mesh.Area]), as it does cells for a grid query: the search
	// never enters a polygon of an area marked in Filter.Exclude, whose
	// edges count as walls, and an end in no other polygon is an error.
	// The exact search finds the shortest path through the polygons left;
	// it cannot weigh lengths, so a Filter.Cost other than 0 or 1 is an
	// error without Corridor. The corridor search multiplies each leg of
	// its chain of portal midpoints by the Cost of the polygon the leg
	// crosses (0 means 1), as Detour's query filter does, and pulls the
	// corridor it finds taut; Result.Length stays Euclidean. Filter.Include
	// opens blocked cells, which a mesh does not cover, so it is an error.
	Filter *grid.Filter
	// Shortcut, with Corridor, drops the waypoints of the pulled path that
	// a straight leg on the mesh ([Mesh.Raycast]) from the point before to
	// the point after makes needless, at one raycast per waypoint. Only a
	// corridor that wraps round polygons it does not hold leaves any: on
	// grid meshes it shortened the paths by 0.02 % on average and took
	// up to 6 times as long (in a maze), so it is off by default. Under a
	// Filter a leg keeps out of excluded polygons ([Mesh.RaycastFilter]),
	// and a filter with cost multipliers turns Shortcut off, as a straight
	// leg may be shorter but dearer.
	Shortcut bool
}

// Searcher answers path queries on one mesh and owns their scratch
// memory. Make one per goroutine with [NewSearcher] and reuse it: once its
// buffers have grown, a query allocates nothing beyond the path it
// appends. It is not safe for concurrent use.
//
// A query may be given a budget of expansions ([Query.MaxExpansions]), for
// a game that must bound the time one query takes; when it runs out, the
// query returns the best partial path found so far, which an agent can
// start along while the rest is found later. A query may also be sliced
// ([Searcher.BeginSliced], [Searcher.Step]): the same search, exact or
// corridor, run a bounded number of expansions per call across frames.
type Searcher struct {
	m *Mesh
	// s runs the exact search. Both searches run on a core.Sliced: a
	// blocking query is one Step without a limit, so a sliced query runs
	// the very search a blocking one does, on the same scratch.
	s   *core.Sliced
	g   search
	h   estimate
	ids []int32
	c   *corridor // the corridor search's, made at its first query
	sl  sliced
}

// firstLimit is the number of search nodes a new Searcher makes room for
// at first; the room doubles as a search needs more, without beginning it
// again, and stays.
const firstLimit = 1 << 12

// NewSearcher returns a searcher for m. It allocates scratch in
// proportion to the mesh's vertices. It panics when m is nil.
func NewSearcher(m *Mesh) *Searcher {
	if m == nil {
		panic("navmesh: NewSearcher of a nil mesh")
	}
	sr := &Searcher{m: m}
	sr.g.m = m
	sr.g.limit = firstLimit
	sr.g.nodes = make([]snode, 0, firstLimit)
	sr.g.best = make([]rootCost, len(m.verts))
	sr.g.fl.reset(nil)
	sr.h.s = &sr.g
	sr.s = core.NewSliced(&sr.g)
	return sr
}

// AppendPath finds the shortest path from from to to on the mesh, appends
// its points to dst and returns the extended slice with a description. The
// path starts at from, ends at to, turns only at convex corners of the
// walls, and has no repeated points and no points where it runs straight
// on; with from == to it is the single point from. A goal in another
// component of the mesh is answered at once with status core.Unreachable
// and nothing appended. An end point off the mesh is an error (see
// [Mesh.Nearest] to move it on).
//
// The search (see the package documentation) costs O(k log k) for the k
// nodes it makes, which grow with the polygons near the shortest path rather
// than with its length. It allocates only while its buffers, or dst, grow.
//
// With a budget of expansions (q.MaxExpansions) that the search does not
// need, it returns the shortest path. When the budget runs out first, it
// returns status core.BudgetSpent, at most MaxExpansions expansions, and a
// partial path from from: a legal, taut path to the best point the search
// reached. That is the goal itself when some path to it was found, though maybe
// not the shortest; else the search node of lowest heuristic (ties go to
// the one whose point is nearer the goal), whose path ends at its root or,
// for a node looking through an interval of a portal, at the point of the
// interval nearest the goal when that is nearer still and exact: an end of
// the portal, or the foot of the perpendicular from the goal on a portal
// parallel to an axis. (An end cut by a ray past a wall corner, or a foot
// on a slanting portal, is a rounded point, and the path stops at the root
// instead.) The heuristic bounds the length still to go, so on all
// but a zero or tiny budget the partial path ends nearer the goal than
// from; with no node better than the start it is the single point from.
// Result.Length is the partial path's length and Result.End its last
// point. Picking the end costs O(k) for the k nodes made.
//
// With q.Corridor it runs the corridor search instead (see
// [Searcher.AppendCorridor]), with the same errors and statuses: a legal
// path that turns only at polygon corners, no shorter than the exact one;
// a partial path ends at the midpoint of a portal.
//
// It drops the sliced query of [Searcher.BeginSliced], finished or not.
func (sr *Searcher) AppendPath(dst []mgl64.Vec2, from, to mgl64.Vec2, q Query) ([]mgl64.Vec2, Result, error) {
	sr.dropSliced()
	if q.Corridor {
		return sr.appendCorridorPath(dst, from, to, q)
	}
	dst, res, _, err := sr.settle(dst, from, to, q)
	if err != nil || res.Status != core.NotSearched {
		return dst, res, err
	}
	sr.beginExact(from, to, q)
	for !sr.stepExact(math.MaxInt) {
	}
	dst, res = sr.exactPath(dst)
	return dst, res, nil
}

// settle locates the ends of a query (into sr.g.sps and sr.g.gps) and
// answers it when that takes no search: with status core.Found and the
// straight line appended to dst when a polygon, common, holds both ends;
// with core.Unreachable when the ends are in different components. Its
// status is core.NotSearched when a search must answer, and beside an
// error.
func (sr *Searcher) settle(dst []mgl64.Vec2, from, to mgl64.Vec2, q Query) (out []mgl64.Vec2, res Result, common PolyID, err error) {
	m, g := sr.m, &sr.g
	if err := sr.setFilter(q); err != nil {
		return dst, Result{}, -1, err
	}
	if err := sr.locateEnds(from, to); err != nil {
		return dst, Result{}, -1, err
	}
	connected := false
	for _, a := range g.sps {
		for _, b := range g.gps {
			if a == b {
				// Both in one convex polygon: the straight line.
				base := len(dst)
				dst = push(push(dst, base, from), base, to)
				return dst, Result{Status: core.Found, Length: geom.Dist(to, from), End: to}, a, nil
			}
			connected = connected || m.Connected(a, b)
		}
	}
	if !connected {
		return dst, Result{Status: core.Unreachable, End: from}, -1, nil
	}
	return dst, Result{}, -1, nil
}

// beginExact starts the exact search from from to to, whose polygons
// settle has located.
func (sr *Searcher) beginExact(from, to mgl64.Vec2, q Query) {
	sr.g.begin(from, to)
	sr.g.beginBounds()
	sr.s.Begin(0, 1, &sr.h, core.Query{MaxExpansions: max(q.MaxExpansions, 0)})
}

// stepExact runs at most n expansions of the exact search and reports
// whether it has ended.
func (sr *Searcher) stepExact(n int) bool {
	return sr.s.Step(n) != core.InProgress
}

// exactPath appends the path of the exact search, which has ended, to dst
// and returns it with its description.
func (sr *Searcher) exactPath(dst []mgl64.Vec2) ([]mgl64.Vec2, Result) {
	m, g := sr.m, &sr.g
	from, to := g.start, g.goal
	r := sr.s.Result()
	end, last := int32(1), to
	switch r.Status {
	case core.Found:
	case core.BudgetSpent:
		if r.End != 1 {
			end, last = g.partial()
		}
	default:
		return dst, Result{Status: core.Unreachable, Expanded: r.Expanded, End: from}
	}
	sr.ids = sr.s.AppendPath(sr.ids[:0], end)
	if len(sr.ids) == 0 {
		last = from // not reached by the core search: cannot happen
	}
	base := len(dst)
	dst = push(dst, base, from)
	for _, id := range sr.ids {
		if n := &g.nodes[id]; n.root >= 0 {
			dst = push(dst, base, m.verts[n.root])
		}
	}
	dst = push(dst, base, last)
	res := Result{Status: r.Status, Expanded: r.Expanded, End: last}
	for i := base + 1; i < len(dst); i++ {
		res.Length += geom.Dist(dst[i], dst[i-1])
	}
	return dst, res
}

// push appends p to the path dst[base:], dropping a repeat of the last
// point and a last point that p continues in a straight line.
func push(dst []mgl64.Vec2, base int, p mgl64.Vec2) []mgl64.Vec2 {
	k := len(dst)
	if k > base && dst[k-1] == p {
		return dst
	}
	if k-base >= 2 {
		a, b := dst[k-2], dst[k-1]
		if cross(a, b, p) == 0 && b.Sub(a).Dot(p.Sub(b)) > 0 {
			dst[k-1] = p
			return dst
		}
	}
	return append(dst, p)
}

// estimate is the heuristic of the search: each node's, stored with it.
type estimate struct{ s *search }

func (e *estimate) Estimate(n int32) float64 { return e.s.nodes[n].h }

// locateEnds finds the polygons holding a query's start and goal, into
// sr.g.sps and sr.g.gps; an end on no polygon is an error.
func (sr *Searcher) locateEnds(from, to mgl64.Vec2) error {
	m, g := sr.m, &sr.g
	g.sps = m.appendAround(g.sps[:0], from)
	if len(g.sps) == 0 {
		return fmt.Errorf("navmesh: start (%g,%g) is not on the mesh", from[0], from[1])
	}
	if g.sps = g.keep(g.sps); len(g.sps) == 0 {
		return fmt.Errorf("navmesh: start (%g,%g) is in an area the filter excludes", from[0], from[1])
	}
	g.gps = m.appendAround(g.gps[:0], to)
	if len(g.gps) == 0 {
		return fmt.Errorf("navmesh: goal (%g,%g) is not on the mesh", to[0], to[1])
	}
	if g.gps = g.keep(g.gps); len(g.gps) == 0 {
		return fmt.Errorf("navmesh: goal (%g,%g) is in an area the filter excludes", to[0], to[1])
	}
	return nil
}
