package navmesh

import (
	"math"
	"slices"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// Search node kinds. Node 0 of every search is the start and node 1 the
// goal; the others are made as the search goes.
const (
	kindStart uint8 = iota
	kindGoal
	kindPoint // a turn at a wall corner into one polygon, all of which it sees
	kindCone  // a root and the interval of a portal it sees into a polygon
	kindFan   // a turn at a corner of a cone's portal, into its polygon's shadow
)

// snode is a search node. The path to it is taut and ends at its root (the
// start, or a vertex where the path turns), at cost g. A cone or fan node
// sees from its root the part of polygon poly between the rays from the
// root through right and through left: for a cone, the interval [left,
// right] of poly's entry edge edge; for a fan, the shadow that its root, a
// corner of the entry edge, casts for the root before. h is the node's
// heuristic, a lower bound on the length from its root to the goal.
type snode struct {
	left, right mgl64.Vec2
	g, h        float64
	root        int32 // vertex; −1 for the start
	poly        PolyID
	edge        int32 // the edge of poly the node came in by
	kind        uint8
}

// search is the graph core searches for one query. Its nodes are made while
// it is searched; NumNodes says there are limit of them, which doubles
// whenever the nodes made reach it, and core's scratch grows to follow
// (see [core.Graph]), so that a search never starts again.
type search struct {
	m           *Mesh
	nodes       []snode
	limit       int
	start, goal mgl64.Vec2
	sps, gps    []PolyID // polygons holding the start and the goal
	fl          filter   // the query's filter (filter.go)
	// The least cost at which each vertex has become a root this search,
	// valid where its gen is gen (one array, so that a look-up reads one
	// cache line).
	best []rootCost
	gen  uint32
	// exhaust crosses every bridge: a search with no goal (landmarks.go).
	exhaust bool
	obs     []float64 // of an exhaustive search: the least length seen to each vertex
	// The landmarks' bounds (landmarks.go): nil without; per landmark, a
	// lower and an upper bound on its distance to the goal; and the lower
	// bound on the distance from the start to the goal that they give.
	lm         *landmarks
	glo, ghi   []float64
	startBound float64
}

// Tolerances. sinEps is the sine of the angle below which three points count
// as collinear; costEps the relative difference below which two costs of a
// root count as equal.
const (
	sinEps  = 1e-10
	costEps = 1e-10
)

func (s *search) begin(from, to mgl64.Vec2) {
	s.start, s.goal = from, to
	s.gen++
	if s.gen == 0 {
		clear(s.best)
		s.gen = 1
	}
	s.nodes = append(s.nodes[:0],
		snode{kind: kindStart, root: -1, h: geom.Dist(to, from)},
		snode{kind: kindGoal, root: -1})
}

// rootCost is a vertex's least cost as a root, in the search of number gen,
// and the landmarks' lower bound on its distance to the goal (0 without
// landmarks).
type rootCost struct {
	g   float64
	gen uint32
	a   float32
}

func (s *search) NumNodes() int { return s.limit }

// add makes node n and returns its ID.
func (s *search) add(n snode) int32 {
	if len(s.nodes) >= s.limit {
		s.limit *= 2
	}
	s.nodes = append(s.nodes, n)
	return int32(len(s.nodes) - 1)
}

func (s *search) bestAt(v int32) float64 {
	if b := s.best[v]; b.gen == s.gen {
		return b.g
	}
	return math.Inf(1)
}

func (s *search) isGoalPoly(p PolyID) bool {
	return slices.Contains(s.gps, p)
}

// AppendEdges makes the successors of node id. The core asks only once per
// node: every node but the goal has one edge into it, made with it, so no
// node is ever improved, let alone reopened (see [core.Graph]).
func (s *search) AppendEdges(dst []core.Edge, id int32) []core.Edge {
	n := s.nodes[id] // a copy: expanding appends to s.nodes
	if n.root >= 0 && n.g > s.bestAt(n.root)*(1+costEps) {
		return dst // a cheaper way to this node's root was found since
	}
	base := len(dst)
	for {
		if s.exhaust {
			s.observe(&n)
		}
		switch n.kind {
		case kindStart:
			return s.expandPoint(dst, s.start, -1, 0, s.sps)
		case kindPoint:
			dst = s.expandPoint(dst, s.m.verts[n.root], n.root, n.g, []PolyID{n.poly})
			return s.pivot(dst, &n)
		}
		dst = s.expandCone(dst, &n)
		// A cone with a single successor, a cone of the same root, is only
		// a step through a polygon: expand that successor at once, without
		// a round through the open list (Polyanya's intermediate pruning).
		last := int32(len(s.nodes) - 1)
		if len(dst) != base+1 || dst[base].To != last || s.nodes[last].kind != kindCone || s.nodes[last].root != n.root {
			return dst
		}
		n = s.nodes[last]
		s.nodes = s.nodes[:last]
		dst = dst[:base]
	}
}

// pivot carries a turn at vertex n.root into polygon n.poly on round the
// root: into the polygon across n.poly's other edge at the root, which the
// root sees all of too. (A point node's edge is the edge of its polygon it
// came in by.) Going on the other way, back past where the path came from,
// would never make a taut path, and a wall ends the chain, as the root is
// a wall corner. A grid mesh has at most three polygons round a corner,
// so the chain is short there; a triangulated mesh may have many, and
// the shadow of a corner may span several of them (Polyanya's search steps
// round a vertex in the same way).
func (s *search) pivot(dst []core.Edge, n *snode) []core.Edge {
	m := s.m
	p := m.polys[n.poly]
	for i := range p.ne {
		nb := m.enb[p.e0+i]
		if nb < 0 || i == n.edge || !s.crosses(n.poly, p.e0+i) {
			continue
		}
		if ia, ib := m.edgeIDs(p, i); ia != n.root && ib != n.root {
			continue
		}
		id := s.add(snode{kind: kindPoint, root: n.root, poly: nb, edge: m.etwin[p.e0+i], g: n.g, h: n.h})
		dst = append(dst, core.Edge{To: id, Cost: 0})
	}
	return dst
}

// turn adds a node of kind point or fan with root v, reached straight from
// at (the position of a root of cost g), unless v has been reached more
// cheaply already.
func (s *search) turn(dst []core.Edge, n snode, at mgl64.Vec2, g float64) []core.Edge {
	pv := s.m.verts[n.root]
	step := geom.Dist(pv, at)
	n.g = g + step
	rc := &s.best[n.root]
	if rc.gen != s.gen {
		*rc = rootCost{n.g, s.gen, s.rootBound(n.root)}
	} else if n.g > rc.g*(1+costEps) {
		return dst
	} else if n.g < rc.g {
		rc.g = n.g
	}
	n.h = max(geom.Dist(s.goal, pv), float64(rc.a))
	return append(dst, core.Edge{To: s.add(n), Cost: step})
}

// cone adds a node looking from root (at position at, cost g) through the
// interval [left, right] of edge edge of polygon poly.
func (s *search) cone(dst []core.Edge, root int32, at mgl64.Vec2, g float64, poly PolyID, edge int32, left, right mgl64.Vec2) []core.Edge {
	h := 0.0 // a search with no goal (landmarks.go) has no estimate
	if !s.exhaust {
		a := s.startBound
		if root >= 0 {
			a = float64(s.best[root].a)
		}
		h = max(coneH(at, left, right, s.goal), a)
	}
	id := s.add(snode{kind: kindCone, root: root, g: g, h: h,
		poly: poly, edge: edge, left: left, right: right})
	return append(dst, core.Edge{To: id, Cost: 0})
}

// expandPoint expands a root at position at that lies in each of polys:
// everything in them is in sight.
func (s *search) expandPoint(dst []core.Edge, at mgl64.Vec2, root int32, g float64, polys []PolyID) []core.Edge {
	m := s.m
	for _, pid := range polys {
		if s.isGoalPoly(pid) {
			dst = append(dst, core.Edge{To: 1, Cost: geom.Dist(s.goal, at)})
		}
		p := m.polys[pid]
		for i := range p.ne {
			nb := m.enb[p.e0+i]
			if nb < 0 || !s.crosses(pid, p.e0+i) {
				continue
			}
			ia, ib := m.edgeIDs(p, i)
			a, b := m.verts[ia], m.verts[ib]
			if side(a, b, at) != 0 {
				// Leaving p through this edge, b is on the left.
				dst = s.cone(dst, root, at, g, nb, m.etwin[p.e0+i], b, a)
				continue
			}
			if b.Sub(a).Dot(at.Sub(a)) >= 0 && a.Sub(b).Dot(at.Sub(b)) >= 0 {
				continue // at is on the edge: nb is not seen through p
			}
			// The edge is on a line through at: the path can run along it
			// to its nearer end and turn there into nb.
			u := ia
			if b.Sub(at).LenSqr() < a.Sub(at).LenSqr() {
				u = ib
			}
			if s.corner(u) {
				dst = s.turn(dst, snode{kind: kindPoint, root: u, poly: nb, edge: m.etwin[p.e0+i]}, at, g)
			}
		}
	}
	return dst
}

// expandCone projects a cone or fan node across its polygon: to the goal
// when it is in sight, round the corners of a cone's entry edge (fans), and
// onto each other edge, the part of it between the two rays (cones) or,
// for an edge on a line through the root, along it (alongEdge).
func (s *search) expandCone(dst []core.Edge, n *snode) []core.Edge {
	m := s.m
	p := m.polys[n.poly]
	r := s.start
	if n.root >= 0 {
		r = m.verts[n.root]
	}
	L, R := n.left, n.right
	if s.isGoalPoly(n.poly) && sees(r, L, R, s.goal) {
		dst = append(dst, core.Edge{To: 1, Cost: geom.Dist(s.goal, r)})
	}
	if n.kind == kindCone {
		dst = s.fans(dst, n, r)
	}
	// The other edges, from the entry edge's end round to its start.
	for j := int32(1); j < p.ne; j++ {
		i := n.edge + j
		if i >= p.ne {
			i -= p.ne
		}
		nb := m.enb[p.e0+i]
		if nb < 0 || !s.crosses(n.poly, p.e0+i) {
			continue
		}
		ia, ib := m.edgeIDs(p, i)
		a, b := m.verts[ia], m.verts[ib]
		if side(a, b, r) == 0 {
			dst = s.alongEdge(dst, n, r, ia, ib, nb, m.etwin[p.e0+i])
			continue
		}
		if pa, pb, ok := project(r, L, R, a, b); ok {
			dst = s.cone(dst, n.root, r, n.g, nb, m.etwin[p.e0+i], pb, pa)
		}
	}
	return dst
}

// sees reports whether q is between the rays from r through right and
// through left, within the tolerance of side.
func sees(r, left, right, q mgl64.Vec2) bool {
	return side(r, right, q) <= 0 && side(r, left, q) >= 0
}

// fans adds the turns of cone n, seen from r, at the ends of its entry
// edge: where its interval ends at one of them and it is a wall corner
// that hides part of the polygon, the path may turn there, into a fan.
func (s *search) fans(dst []core.Edge, n *snode, r mgl64.Vec2) []core.Edge {
	m := s.m
	p := m.polys[n.poly]
	// The entry edge runs from vk (on the left seen from the root) to vk1.
	vk, vk1 := m.edgeIDs(p, n.edge)
	if v := m.verts[vk1]; n.right == v && s.corner(vk1) {
		_, next := m.edgeIDs(p, (n.edge+1)%p.ne)
		if side(r, n.right, m.verts[next]) > 0 {
			fan := snode{kind: kindFan, root: vk1, poly: n.poly, edge: n.edge,
				left: v.Add(v.Sub(r)), right: v.Add(v.Sub(m.verts[vk]))}
			dst = s.turn(dst, fan, r, n.g)
		}
	}
	if v := m.verts[vk]; n.left == v && s.corner(vk) {
		prev, _ := m.edgeIDs(p, (n.edge+p.ne-1)%p.ne)
		if side(r, n.left, m.verts[prev]) < 0 {
			fan := snode{kind: kindFan, root: vk, poly: n.poly, edge: n.edge,
				left: v.Add(v.Sub(m.verts[vk1])), right: v.Add(v.Sub(r))}
			dst = s.turn(dst, fan, r, n.g)
		}
	}
	return dst
}

// alongEdge handles the edge from vertex ia to ib of node n's polygon,
// which lies on a line through n's root r, with nb across it, entered by
// its edge twin. A fan's root may be one of its ends: then it sees all of
// nb. Otherwise the path can run along the edge to its nearer end and turn.
func (s *search) alongEdge(dst []core.Edge, n *snode, r mgl64.Vec2, ia, ib int32, nb PolyID, twin int32) []core.Edge {
	m := s.m
	a, b := m.verts[ia], m.verts[ib]
	if ia == n.root || ib == n.root {
		if sees(r, n.left, n.right, a) && sees(r, n.left, n.right, b) {
			id := s.add(snode{kind: kindPoint, root: n.root, poly: nb, edge: twin, g: n.g, h: n.h})
			dst = append(dst, core.Edge{To: id, Cost: 0})
		}
		return dst
	}
	u := ia
	if b.Sub(r).LenSqr() < a.Sub(r).LenSqr() {
		u = ib
	}
	if s.corner(u) && sees(r, n.left, n.right, m.verts[u]) {
		dst = s.turn(dst, snode{kind: kindPoint, root: u, poly: nb, edge: twin}, r, n.g)
	}
	return dst
}

// project returns the part pa–pb of the edge from a to b that the root r
// sees between the rays through right (side ≤ 0) and through left
// (side ≥ 0), and whether there is one of positive length.
func project(r, left, right, a, b mgl64.Vec2) (pa, pb mgl64.Vec2, ok bool) {
	t0, t1 := 0.0, 1.0
	// Keep the part on or left of the right ray...
	sa, sb := side(r, right, a), side(r, right, b)
	switch {
	case sa > 0 && sb > 0:
		return pa, pb, false
	case sa > 0:
		t0 = math.Max(t0, sa/(sa-sb))
	case sb > 0:
		t1 = math.Min(t1, sa/(sa-sb))
	}
	// ...and on or right of the left ray.
	sa, sb = side(r, left, a), side(r, left, b)
	switch {
	case sa < 0 && sb < 0:
		return pa, pb, false
	case sa < 0:
		t0 = math.Max(t0, sa/(sa-sb))
	case sb < 0:
		t1 = math.Min(t1, sa/(sa-sb))
	}
	if !(t0 < t1) {
		return pa, pb, false
	}
	pa, pb = a, b
	if t0 > 0 {
		pa = a.Add(b.Sub(a).Mul(t0))
	}
	if t1 < 1 {
		pb = a.Add(b.Sub(a).Mul(t1))
	}
	return pa, pb, true
}

// partial picks where the partial path of a search cut short by its
// budget ends, when the goal was not reached: the node of lowest heuristic
// made (all were seen by the core search), ties going to the one whose
// point is nearer the goal, and that point (see reach). The start is node
// 0; node 1, the goal, is skipped.
func (s *search) partial() (int32, mgl64.Vec2) {
	best, at := int32(0), s.start
	bestH, bestD := s.nodes[0].h, geom.Dist(s.goal, s.start)
	for i := 2; i < len(s.nodes); i++ {
		n := &s.nodes[i]
		if n.h > bestH {
			continue
		}
		p := s.reach(n)
		if d := geom.Dist(s.goal, p); n.h < bestH || d < bestD {
			best, at, bestH, bestD = int32(i), p, n.h, d
		}
	}
	return best, at
}

// reach returns the point a partial path through n ends at: its root, or
// for a cone the point of its interval nearest the goal when that is nearer
// the goal than the root and is exact: the foot of the perpendicular from
// the goal on a portal parallel to an axis, or an end of the portal. An
// interval end cut by the ray from the root past a wall corner is a rounded
// point, on a leg that would graze the corner.
func (s *search) reach(n *snode) mgl64.Vec2 {
	r := s.start
	if n.root >= 0 {
		r = s.m.verts[n.root]
	}
	if n.kind != kindCone {
		return r
	}
	c, atEnd, exact := nearestOn(n.left, n.right, s.goal)
	if !exact {
		return r
	}
	if atEnd {
		a, b := s.m.edgeIDs(s.m.polys[n.poly], n.edge)
		if c != s.m.verts[a] && c != s.m.verts[b] {
			return r
		}
	}
	if geom.Dist(s.goal, c) < geom.Dist(s.goal, r) {
		return c
	}
	return r
}

// nearestOn returns the point of the segment [a, b] nearest p, whether it
// is one of the ends, and whether it is exact: an end, or the foot of the
// perpendicular on a segment parallel to an axis (one coordinate of a, the
// other of p). Elsewhere the foot is rounded.
func nearestOn(a, b, p mgl64.Vec2) (c mgl64.Vec2, atEnd, exact bool) {
	d := b.Sub(a)
	t := p.Sub(a).Dot(d) / d.Dot(d) // NaN when a == b
	switch {
	case !(t > 0):
		return a, true, true
	case t >= 1:
		return b, true, true
	case d[0] == 0:
		return mgl64.Vec2{a[0], p[1]}, false, true
	case d[1] == 0:
		return mgl64.Vec2{p[0], a[1]}, false, true
	}
	return a.Add(d.Mul(t)), false, false
}

// edgeIDs returns the vertices of edge i of p, in p's order.
func (m *Mesh) edgeIDs(p poly, i int32) (int32, int32) {
	j := i + 1
	if j == p.ne {
		j = 0
	}
	return m.ev[p.e0+i], m.ev[p.e0+j]
}

// cross returns (a−o) × (p−o): negative when p is left of a walker at o
// facing a (y down), positive when right, 0 when collinear.
func cross(o, a, p mgl64.Vec2) float64 {
	return (a[0]-o[0])*(p[1]-o[1]) - (a[1]-o[1])*(p[0]-o[0])
}

// side is cross(o, a, p), or 0 when the angle at o between a and p is
// below sinEps: rounding cannot then tell the side.
func side(o, a, p mgl64.Vec2) float64 {
	ax, ay := a[0]-o[0], a[1]-o[1]
	px, py := p[0]-o[0], p[1]-o[1]
	c := ax*py - ay*px
	if c*c <= sinEps*sinEps*(ax*ax+ay*ay)*(px*px+py*py) {
		return 0
	}
	return c
}

// coneH is the length of the shortest path from r through the segment
// [left, right] to goal: straight when the line crosses it, else round the
// nearer end, with the goal mirrored to the far side when it lies on r's.
func coneH(r, left, right, goal mgl64.Vec2) float64 {
	if left == right {
		return geom.Dist(left, r) + geom.Dist(goal, left)
	}
	cr, cg := cross(left, right, r), cross(left, right, goal)
	if (cr > 0 && cg > 0) || (cr < 0 && cg < 0) {
		d := right.Sub(left)
		v := goal.Sub(left)
		goal = left.Add(d.Mul(2 * v.Dot(d) / d.Dot(d))).Sub(v)
	}
	a, b := cross(r, goal, left), cross(r, goal, right)
	if (a <= 0 && b >= 0) || (a >= 0 && b <= 0) {
		return geom.Dist(goal, r)
	}
	return math.Min(geom.Dist(left, r)+geom.Dist(goal, left), geom.Dist(right, r)+geom.Dist(goal, right))
}
