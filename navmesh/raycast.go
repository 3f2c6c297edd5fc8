package navmesh

import (
	"math"
	"slices"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// Raycast walks the straight segment from from to to across the mesh and
// reports whether it leaves the mesh, and where: at is the first point
// where it does, or to when it does not. The segment stays on the mesh
// when it lies in the union of the closed polygons, walls included, and
// passes from polygon to polygon only through portals: it may run along a
// wall or a portal and touch or end at a corner, but it may not pass
// between two polygons that meet only at a point (the grid's
// no-corner-cutting rule) unless a chain of polygons round the point, each
// sharing a portal with the next, joins them. A from off the mesh is a
// hit at from; a from where polygons meet starts in any of them that the
// segment goes into. A to with an infinite coordinate makes the segment a
// ray (toward +x for (+Inf, 5), along the diagonal for (+Inf, −Inf)),
// which always hits: at is where it leaves the mesh. A from or to with a
// NaN coordinate, or an infinite from, is a hit at from.
//
// The answer is exact: every decision is a sign of an orientation
// determinant of the segment's ends and the mesh's vertices, evaluated
// exactly (see package geom), so it is the answer of exact arithmetic on
// the float64 coordinates as given whenever no product of two coordinates
// overflows or underflows (magnitudes between about 10⁻¹⁵⁰ and 10¹⁵⁰, or
// 0). In particular Raycast(a, b) and Raycast(b, a) agree on hit. A hit at
// a corner returns the corner itself; a hit through the middle of a wall
// returns the crossing with the wall's line, a point of the segment to
// rounding.
//
// It visits the polygons along the segment, O(k·d) for k polygons of at
// most d vertices (a corner the segment passes through costs O(d) for each
// polygon round it), and does not allocate.
func (m *Mesh) Raycast(from, to mgl64.Vec2) (hit bool, at mgl64.Vec2) {
	return m.raycast(from, to, nil)
}

// RaycastFilter is [Mesh.Raycast] on the part of the mesh that filter f
// lets a query into ([Query.Filter]): the polygons of the areas f
// excludes count as walls. A nil f is Raycast. Costs and Include do not
// matter to it. It costs what Raycast costs and does not allocate.
func (m *Mesh) RaycastFilter(from, to mgl64.Vec2, f *grid.Filter) (hit bool, at mgl64.Vec2) {
	if f == nil || m.area == nil && !f.Exclude[grid.AreaGround] {
		return m.raycast(from, to, nil)
	}
	return m.raycast(from, to, &f.Exclude)
}

// raycast is Raycast with the polygons of the areas marked in excl, when
// not nil, for walls.
func (m *Mesh) raycast(from, to mgl64.Vec2, excl *[256]bool) (hit bool, at mgl64.Vec2) {
	if !finite(from) || math.IsNaN(to[0]) || math.IsNaN(to[1]) {
		return true, from
	}
	var buf [16]PolyID
	ps := m.appendAround(buf[:0], from)
	if excl != nil {
		ps = slices.DeleteFunc(ps, func(p PolyID) bool { return excl[m.Area(p)] })
	}
	if len(ps) == 0 {
		return true, from
	}
	if !finite(to) {
		to = m.beyond(from, to)
	}
	if from == to {
		return false, to
	}
	// From a point several polygons share, start in one the segment goes
	// into: the others may touch it only at that point.
	cur := PolyID(-1)
	for _, p := range ps {
		if m.enters(p, from, to) {
			cur = p
			break
		}
	}
	if cur < 0 {
		return true, from
	}
	// Each polygon holds an interval of the segment's line, so once left
	// it is not met again: the walk takes at most one step per polygon.
	// The bound guards against inputs beyond the predicates' exact range.
	for range len(m.polys) {
		p := m.polys[cur]
		i, corner := m.exit(p, from, to)
		switch {
		case i < 0:
			return true, from // not reached with exact predicates
		case corner:
			// The segment leaves cur at its vertex v unless it ends
			// first: to, on the line through v, is in cur when it is
			// inside both edges at v.
			v := m.verts[m.ev[p.e0+i]]
			u := m.verts[m.ev[p.e0+prevIndex(p, i)]]
			w := m.verts[m.ev[p.e0+nextIndex(p, i)]]
			if geom.Orient(u, v, to) <= 0 && geom.Orient(v, w, to) <= 0 {
				return false, to
			}
			if cur = m.turn(cur, i, to, excl); cur < 0 {
				return true, v
			}
			continue
		}
		// The segment leaves cur through the inside of its edge i
		// unless it ends first, inside that edge.
		a, b := m.edge(p, i)
		if geom.Orient(a, b, to) <= 0 {
			return false, to
		}
		if nb := m.enb[p.e0+i]; nb >= 0 && (excl == nil || !excl[m.Area(nb)]) {
			cur = nb
			continue
		}
		return true, crossing(a, b, from, to)
	}
	return true, from
}

// exit returns where the segment from from to to leaves polygon p, which
// it goes into from a point of p: through the inside of edge i, or at
// vertex i (corner true). Let s(v) = Orient(from, to, v), the side of the
// segment's line that vertex v is on. Walking p's vertices in order, the
// line leaves p where they pass from its left (s > 0) to its right:
// across an edge with s > 0 at its start and s < 0 at its end, or at a
// vertex with s = 0 between the two. When p lies on one side of the line,
// the segment runs along edges of p, and leaves p at the far end of their
// run of vertices with s = 0: the first of the run when p lies on the
// left (its edges then run against the segment), the last when it lies
// on the right. So the exit is the edge with s > 0 at its start and s < 0
// at its end, or the vertex with s = 0 after one with s > 0 or before one
// with s < 0, and p has exactly one. (It returns −1 when p has none: then
// the segment does not go into p.)
func (m *Mesh) exit(p poly, from, to mgl64.Vec2) (i int32, corner bool) {
	side := func(k int32) int { return geom.Orient(from, to, m.verts[m.ev[p.e0+k]]) }
	last := side(p.ne - 1)
	prev, cur := last, side(0)
	first := cur
	for i = 0; i < p.ne; i++ {
		var next int
		switch i + 1 {
		case p.ne - 1:
			next = last
		case p.ne:
			next = first
		default:
			next = side(i + 1)
		}
		switch {
		case cur == 0 && (prev > 0 || next < 0):
			return i, true
		case cur > 0 && next < 0:
			return i, false
		}
		prev, cur = cur, next
	}
	// Not reached for a polygon the segment goes into, which has vertices
	// on both sides of its line or on it; a touch at a single vertex is
	// caught above.
	return -1, false
}

// enters reports whether the segment from from to to, from ≠ to, goes
// into polygon id from from: from is in it, and every edge whose line
// holds from has to on its inner side or its line.
func (m *Mesh) enters(id PolyID, from, to mgl64.Vec2) bool {
	p := m.polys[id]
	for i := range p.ne {
		a, b := m.edge(p, i)
		switch geom.Orient(a, b, from) {
		case 1:
			return false
		case 0:
			if geom.Orient(a, b, to) > 0 {
				return false
			}
		}
	}
	return true
}

// turn finds a polygon that the segment toward to goes into from vertex i
// of polygon cur, where it leaves cur: one reached from cur through
// portals that end at the vertex, and their portals that end there in
// turn (so never across a point where polygons only touch). It returns −1
// when there is none. The polygons of the areas excl marks, when not nil,
// are walls.
func (m *Mesh) turn(cur PolyID, i int32, to mgl64.Vec2, excl *[256]bool) PolyID {
	// At most four cells, so few polygons, meet at a point of a grid mesh;
	// a vertex of a mesh from polygons may have more, and only then does
	// seen leave the stack.
	type corner struct {
		id PolyID
		i  int32 // the vertex's index in the polygon
	}
	var buf [16]corner
	seen := append(buf[:0], corner{cur, i})
	v := m.verts[m.ev[m.polys[cur].e0+i]]
	for k := 0; k < len(seen); k++ {
		id, i := seen[k].id, seen[k].i
		p := m.polys[id]
		pi, ni := prevIndex(p, i), nextIndex(p, i)
		if k > 0 {
			// The vertex's neighbours bound the polygon's wedge there: the
			// segment goes in when to is on the inner side of both edges
			// or on their lines (to lies beyond v on its line from v).
			u, w := m.verts[m.ev[p.e0+pi]], m.verts[m.ev[p.e0+ni]]
			if geom.Orient(u, v, to) <= 0 && geom.Orient(v, w, to) <= 0 {
				return id
			}
		}
		// Edge i runs from the vertex, edge pi to it; across edge e the
		// twin runs the other way, so the vertex is its end or its start.
	edges:
		for _, e := range [2]struct {
			k     int32
			start bool
		}{{i, true}, {pi, false}} {
			nb := m.enb[p.e0+e.k]
			if nb < 0 || excl != nil && excl[m.Area(nb)] {
				continue
			}
			for _, s := range seen {
				if s.id == nb {
					continue edges
				}
			}
			t := m.etwin[p.e0+e.k]
			if e.start {
				t = nextIndex(m.polys[nb], t)
			}
			seen = append(seen, corner{nb, t})
		}
	}
	return -1
}

// prevIndex returns the index of the vertex before vertex i of p (which
// starts the edge that ends at vertex i).
func prevIndex(p poly, i int32) int32 {
	if i == 0 {
		return p.ne - 1
	}
	return i - 1
}

// nextIndex returns the index of the vertex after vertex i of p (which
// ends the edge that starts at vertex i).
func nextIndex(p poly, i int32) int32 {
	if i+1 == p.ne {
		return 0
	}
	return i + 1
}

// crossing returns the point where the segment from from to to crosses
// the line of the wall from a to b, which it leaves through: its
// parameter on the segment comes from cross products accurate to 2⁻⁴⁰
// (geom.Cross), which a nearly parallel crossing needs, and the point is
// measured from the nearer end.
func crossing(a, b, from, to mgl64.Vec2) mgl64.Vec2 {
	t := geom.Cross(a, b, from, a) / geom.Cross(a, b, from, to)
	d := to.Sub(from)
	switch {
	case !(t > 0): // also NaN
		return from
	case t >= 1:
		return to
	case t > 0.5:
		return to.Sub(d.Mul(1 - t))
	}
	return from.Add(d.Mul(t))
}

func finite(p mgl64.Vec2) bool {
	return !math.IsNaN(p[0]) && !math.IsInf(p[0], 0) && !math.IsNaN(p[1]) && !math.IsInf(p[1], 0)
}

// beyond returns a point off the mesh on the ray from from, a point of the
// mesh, toward to, which has an infinite coordinate: each infinite
// coordinate gives the ray's direction along its axis, and a finite one
// none.
func (m *Mesh) beyond(from, to mgl64.Vec2) mgl64.Vec2 {
	b := m.loc.bounds()
	far := 2 * (b.Max[0] - b.Min[0] + b.Max[1] - b.Min[1] + 1)
	var dir mgl64.Vec2
	for i := range 2 {
		if math.IsInf(to[i], 0) {
			dir[i] = math.Copysign(1, to[i])
		}
	}
	return from.Add(dir.Mul(far))
}
