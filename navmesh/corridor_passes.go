package navmesh

import (
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// The corridor search's second pass. Midpoints stand in for where a path
// crosses each portal, which a long portal makes poor: the corridor whose
// midpoint chain is shortest can go round the wrong side of a block (on
// city maps a few per cent of paths came out more than 5 % longer than the
// exact search's, the worst 1.57× the 8-connected optimum). A query whose
// first pass found its goal through a portal of secondPassPortal units or
// more searches again with each crossing standing at the point of its
// portal nearest the crossing before it on the path searched (the start,
// for the first; a leg's first crossing in the search over tiles stands
// at its midpoint, as the tables were measured): a cost that depends on
// the path, a chain that follows the walls round corners more closely,
// with errors of its own (alone, it made the paths of some maps longer).
// Each pass's corridor is pulled taut, and the query keeps the shorter
// path (the first's on a tie). Over every scenario of the 11 Moving AI
// maps of the README this took the paths longer than the 8-connected
// optimum from 137 to 38 on Boston_0_1024 and from 96 to 32 on
// Berlin_0_1024, the worst from 1.57× and 1.28× to 1.12× and 1.10×, and
// lowered every map's mean, for 2–3.3 times the median time; see README.
//
// Query.OnePass leaves the second pass out, and so does a Filter with
// cost multipliers (the shorter of two paths may then be the dearer, and
// Result.Length is Euclidean). The second pass gets what the
// query's budget (Query.MaxExpansions) left, and does not run when nothing
// is left; a second pass that runs out of it, or does not reach the goal,
// leaves the first's path. On a tiled mesh it searches again the legs of
// the first pass's abstract path only, which it keeps.

// secondPassPortal is the length below which the first pass's portals
// must all lie for the second pass to be left out: a midpoint is then
// within a unit of any point of its portal. On maze512-1-0, whose
// corridors are a cell wide, the second pass found the same paths for
// twice the time; with portals of 2 units or more in the corridor
// (rooms, streets, open ground) it runs.
const secondPassPortal = 2

// longestPortal returns the length of the longest portal that the first
// pass's corridor crosses (c.portals, which corridorPath left).
func (c *corridor) longestPortal() float64 {
	long := 0.0
	for _, p := range c.portals {
		long = max(long, geom.Dist(p.Left, p.Right))
	}
	return long
}

// nearAt is where a crossing stands in the second pass, in single
// precision (a stand-in for the costs only: the path is pulled from the
// portals), and the pass that set it.
type nearAt struct {
	x, y float32
	pass uint32
}

// nearest returns the point of segment ab nearest q.
func nearest(a, b, q mgl64.Vec2) mgl64.Vec2 {
	d := b.Sub(a)
	l := d.Dot(d)
	if l == 0 {
		return a
	}
	t := max(0, min(1, q.Sub(a).Dot(d)/l))
	return a.Add(d.Mul(t))
}

// AppendEdgesFrom is AppendEdges, but for a crossing in the second pass,
// which stands where its parent's point puts it (see above).
func (c *corridor) AppendEdgesFrom(dst []core.Edge, n, parent int32) []core.Edge {
	if !c.near || c.mode == corridorAbstract || n < corridorPortal {
		return c.AppendEdges(dst, n)
	}
	m := c.m
	x := &c.cr[n-corridorPortal]
	pid, in := x.into, x.in
	p := m.polys[pid]
	var at mgl64.Vec2
	if parent < 0 { // a leg's first crossing
		at = m.mid(p, in)
	} else {
		a, b := m.edge(p, in)
		at = nearest(a, b, c.point(parent))
	}
	c.at[n-corridorPortal] = nearAt{float32(at[0]), float32(at[1]), c.pass}
	if c.g.isGoalPoly(pid) && (c.mode != corridorConfined || c.target == corridorGoal) {
		dst = append(dst, core.Edge{To: corridorGoal, Cost: geom.Dist(c.to, at) * c.g.fl.cost[m.Area(pid)]})
	}
	return c.leave(dst, pid, in, at)
}

// secondPass is called when a pass of the corridor search has ended, with
// the query q. After the first pass it keeps that pass's path and
// corridor, and begins the second when there is one to make (see above),
// returning false; else it returns true: the query has ended.
func (sr *Searcher) secondPass(q Query) bool {
	c := sr.c
	if c.near || q.OnePass || sr.g.fl.weighted {
		// Under cost multipliers the shorter path may be the dearer one:
		// the passes' lengths do not compare their costs.
		return true
	}
	c.kept, c.keptRes = sr.corridorPath(c.kept[:0], q)
	c.keptPolys = append(c.keptPolys[:0], c.polys...)
	c.passes = 1
	left := q.MaxExpansions - c.keptRes.Expanded
	if c.keptRes.Status != core.Found || q.MaxExpansions > 0 && left <= 0 {
		return true
	}
	if c.longestPortal() < secondPassPortal {
		return true // the midpoints were good stand-ins
	}
	if len(c.at) < len(c.cr) {
		c.at = make([]nearAt, len(c.cr))
	}
	if c.pass++; c.pass == 0 {
		clear(c.at)
		c.pass = 1
	}
	// The crossings keep the heuristics the first pass set (the same goal,
	// from the same midpoints); a leg over the tiles sets its own.
	c.near, c.polys, c.base = true, c.polys[:0], 0
	if c.joined { // the legs of the same abstract path again
		c.joined = false
		c.ids = append(c.ids[:0], corridorStart)
		c.phase, c.mode = 0, corridorConfined
		c.beginLeg()
		return false
	}
	c.cs.Begin(corridorStart, corridorGoal, c, core.Query{MaxExpansions: max(left, 0), Weight: c.w})
	return false
}

// passesPath appends the query's path to dst and returns it with its
// result, once its last pass has ended: the shorter of the two passes'
// paths, with the corridor pulled for it and the expansions of both.
func (sr *Searcher) passesPath(dst []mgl64.Vec2, q Query) ([]mgl64.Vec2, Result) {
	c := sr.c
	if c.passes == 0 {
		return sr.corridorPath(dst, q)
	}
	if !c.near { // the first pass was the last
		return append(dst, c.kept...), c.keptRes
	}
	base := len(dst)
	dst, res := sr.corridorPath(dst, q)
	res.Expanded += c.keptRes.Expanded
	if res.Status != core.Found || c.keptRes.Length <= res.Length {
		kept := c.keptRes
		kept.Expanded = res.Expanded
		c.polys = append(c.polys[:0], c.keptPolys...)
		return append(dst[:base], c.kept...), kept
	}
	return dst, res
}
