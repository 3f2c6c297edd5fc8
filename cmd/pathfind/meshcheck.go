package main

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/navmesh"
)

// This file checks continuous paths against a mesh's polygons alone, for
// "pathfind route -mesh FILE" without a map, where internal/gridcheck has
// no grid to judge by. It reads the polygons through navmesh's exported
// accessors (Mesh.AppendPolygon) and uses none of the mesh's own geometry:
// no Locate, Raycast or neighbour lists. Every decision is exact, in
// rational arithmetic (math/big) on the float64 coordinates as they are.
//
// The walkable area is the union of the closed polygons. A path is legal
// when each leg lies in that union and it never passes from polygon to
// polygon through a point where they only touch: a leg, or a turn at a
// waypoint, may move from the polygons holding the path just before a
// point to those holding it just after only through polygons that share,
// edge to edge, a side holding the point (the grid's no-corner-cutting
// rule, as Mesh.Raycast states it). Two polygons share a side when one
// lists it from a to b and the other from b to a; the mesh format splits
// sides wherever a neighbour's corner meets them, so that is every portal.

// meshChecker checks paths on one mesh. It is not safe for concurrent use.
type meshChecker struct {
	first  []int32 // polygon p's vertices are verts[first[p]:first[p+1]]
	verts  []mgl64.Vec2
	lo, hi []mgl64.Vec2 // bounding box of each polygon
	sides  []int8       // each polygon's orientation: 0 not yet known, ±1, or 2 for no area
	edges  []sideRec    // every polygon side, sorted by its end points
	comp   []int32      // component of each polygon by shared sides; made when first needed
}

// sideRec is side a→b of polygon poly.
type sideRec struct {
	a, b mgl64.Vec2
	poly int32
}

func cmpVec(a, b mgl64.Vec2) int {
	return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]))
}

func cmpSide(s, t sideRec) int { return cmp.Or(cmpVec(s.a, t.a), cmpVec(s.b, t.b)) }

// newMeshChecker copies the polygons of m. It costs O(E log E) for the E
// polygon sides.
func newMeshChecker(m *navmesh.Mesh) *meshChecker {
	n := m.NumPolys()
	c := &meshChecker{first: make([]int32, 1, n+1), lo: make([]mgl64.Vec2, n), hi: make([]mgl64.Vec2, n), sides: make([]int8, n)}
	for id := range navmesh.PolyID(n) {
		start := len(c.verts)
		c.verts = m.AppendPolygon(c.verts, id)
		c.first = append(c.first, int32(len(c.verts)))
		poly := c.verts[start:]
		lo, hi := poly[0], poly[0]
		for i, v := range poly {
			lo = mgl64.Vec2{min(lo[0], v[0]), min(lo[1], v[1])}
			hi = mgl64.Vec2{max(hi[0], v[0]), max(hi[1], v[1])}
			c.edges = append(c.edges, sideRec{a: v, b: poly[(i+1)%len(poly)], poly: int32(id)})
		}
		c.lo[id], c.hi[id] = lo, hi
	}
	slices.SortFunc(c.edges, cmpSide)
	return c
}

func (c *meshChecker) poly(p int32) []mgl64.Vec2 { return c.verts[c.first[p]:c.first[p+1]] }

// across returns the polygon that shares side a→b of polygon p, listing it
// b→a, or −1 for none.
func (c *meshChecker) across(p int32, a, b mgl64.Vec2) int32 {
	key := sideRec{a: b, b: a}
	i, _ := slices.BinarySearchFunc(c.edges, key, cmpSide)
	for ; i < len(c.edges) && cmpSide(c.edges[i], key) == 0; i++ {
		if q := c.edges[i].poly; q != p {
			return q
		}
	}
	return -1
}

// rat returns v as an exact rational; v must be finite.
func rat(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }

// rpoint is a point with rational coordinates.
type rpoint struct{ x, y *big.Rat }

func ratPoint(v mgl64.Vec2) rpoint { return rpoint{rat(v[0]), rat(v[1])} }

// along returns a + t·(b − a).
func along(a, b mgl64.Vec2, t *big.Rat) rpoint {
	x := new(big.Rat).Mul(new(big.Rat).Sub(rat(b[0]), rat(a[0])), t)
	y := new(big.Rat).Mul(new(big.Rat).Sub(rat(b[1]), rat(a[1])), t)
	return rpoint{x.Add(x, rat(a[0])), y.Add(y, rat(a[1]))}
}

func (p rpoint) vec() mgl64.Vec2 {
	x, _ := p.x.Float64()
	y, _ := p.y.Float64()
	return mgl64.Vec2{x, y}
}

// ratCross returns (v − u) × (p − u), exactly.
func ratCross(u, v mgl64.Vec2, p rpoint) *big.Rat {
	ux, uy := rat(u[0]), rat(u[1])
	return crossOf(new(big.Rat).Sub(rat(v[0]), ux), new(big.Rat).Sub(rat(v[1]), uy), new(big.Rat).Sub(p.x, ux), new(big.Rat).Sub(p.y, uy))
}

// crossOf returns (ex, ey) × (dx, dy), overwriting ex and ey.
func crossOf(ex, ey, dx, dy *big.Rat) *big.Rat {
	ex.Mul(ex, dy)
	ey.Mul(ey, dx)
	return ex.Sub(ex, ey)
}

// side returns the orientation of polygon p: the sign of its shoelace sum,
// or 2 when it has no area (and so holds nothing for this check).
func (c *meshChecker) side(p int32) int8 {
	if c.sides[p] != 0 {
		return c.sides[p]
	}
	poly := c.poly(p)
	sum := new(big.Rat)
	for i := 1; i+1 < len(poly); i++ {
		sum.Add(sum, ratCross(poly[0], poly[i], ratPoint(poly[i+1])))
	}
	s := int8(sum.Sign())
	if s == 0 {
		s = 2
	}
	c.sides[p] = s
	return s
}

// holds reports whether the closed polygon p holds point x.
func (c *meshChecker) holds(p int32, x rpoint) bool {
	s := c.side(p)
	if s == 2 {
		return false
	}
	poly := c.poly(p)
	for i, u := range poly {
		if ratCross(u, poly[(i+1)%len(poly)], x).Sign()*int(s) < 0 {
			return false
		}
	}
	return true
}

// holding appends to dst the polygons that hold the point v.
func (c *meshChecker) holding(dst []int32, v mgl64.Vec2) []int32 {
	x := ratPoint(v)
	for p := range int32(len(c.lo)) {
		if c.lo[p][0] <= v[0] && v[0] <= c.hi[p][0] && c.lo[p][1] <= v[1] && v[1] <= c.hi[p][1] && c.holds(p, x) {
			dst = append(dst, p)
		}
	}
	return dst
}

// span is the closed interval [lo, hi] of t in [0, 1] for which a + t·(b − a)
// lies in polygon poly.
type span struct {
	poly   int32
	lo, hi *big.Rat
}

// clip returns the span of polygon p on the leg from a to b (Cyrus–Beck,
// exactly), and false when the leg misses it.
func (c *meshChecker) clip(p int32, a, b mgl64.Vec2) (span, bool) {
	s := c.side(p)
	if s == 2 {
		return span{}, false
	}
	lo, hi := new(big.Rat), big.NewRat(1, 1)
	ra := ratPoint(a)
	d := rpoint{new(big.Rat).Sub(rat(b[0]), ra.x), new(big.Rat).Sub(rat(b[1]), ra.y)}
	poly := c.poly(p)
	for i, u := range poly {
		v := poly[(i+1)%len(poly)]
		// a + t·d is inside this side's half-plane when c0 + t·c1 ≥ 0.
		c0 := ratCross(u, v, ra)
		c1 := crossOf(new(big.Rat).Sub(rat(v[0]), rat(u[0])), new(big.Rat).Sub(rat(v[1]), rat(u[1])), d.x, d.y)
		if s < 0 {
			c0.Neg(c0)
			c1.Neg(c1)
		}
		switch c1.Sign() {
		case 0:
			if c0.Sign() < 0 {
				return span{}, false
			}
		case 1:
			if t := c0.Quo(c0, c1).Neg(c0); t.Cmp(lo) > 0 {
				lo = t
			}
		default:
			if t := c0.Quo(c0, c1).Neg(c0); t.Cmp(hi) < 0 {
				hi = t
			}
		}
		if lo.Cmp(hi) > 0 {
			return span{}, false
		}
	}
	return span{poly: p, lo: lo, hi: hi}, true
}

// leg checks the leg from a to b, a ≠ b, and returns the polygons that
// hold its first and its last stretch.
func (c *meshChecker) leg(a, b mgl64.Vec2) (first, last []int32, err error) {
	var spans []span
	bmin, bmax := mgl64.Vec2{min(a[0], b[0]), min(a[1], b[1])}, mgl64.Vec2{max(a[0], b[0]), max(a[1], b[1])}
	for p := range int32(len(c.lo)) {
		if c.lo[p][0] > bmax[0] || c.hi[p][0] < bmin[0] || c.lo[p][1] > bmax[1] || c.hi[p][1] < bmin[1] {
			continue
		}
		if s, ok := c.clip(p, a, b); ok {
			spans = append(spans, s)
		}
	}
	// The stretches between consecutive ends of spans: each is held whole
	// by a span or not at all.
	ts := []*big.Rat{new(big.Rat), big.NewRat(1, 1)}
	for _, s := range spans {
		ts = append(ts, s.lo, s.hi)
	}
	slices.SortFunc(ts, (*big.Rat).Cmp)
	ts = slices.CompactFunc(ts, func(x, y *big.Rat) bool { return x.Cmp(y) == 0 })
	var prev []int32
	for j := 0; j+1 < len(ts); j++ {
		var cover []int32
		for _, s := range spans {
			if s.lo.Cmp(ts[j]) <= 0 && s.hi.Cmp(ts[j+1]) >= 0 {
				cover = append(cover, s.poly)
			}
		}
		if len(cover) == 0 {
			return nil, nil, fmt.Errorf("leg %s to %s leaves the mesh after %s", vecString(a), vecString(b), vecString(along(a, b, ts[j]).vec()))
		}
		if j == 0 {
			first = cover
		} else if x := along(a, b, ts[j]); !c.linked(prev, cover, x) {
			return nil, nil, fmt.Errorf("leg %s to %s passes between polygons that meet only at %s", vecString(a), vecString(b), vecString(x.vec()))
		}
		prev = cover
	}
	return first, prev, nil
}

// onSide reports whether x lies on the closed segment from u to v.
func onSide(u, v mgl64.Vec2, x rpoint) bool {
	if ratCross(u, v, x).Sign() != 0 {
		return false
	}
	for i, xc := range [2]*big.Rat{x.x, x.y} {
		if xc.Cmp(rat(min(u[i], v[i]))) < 0 || xc.Cmp(rat(max(u[i], v[i]))) > 0 {
			return false
		}
	}
	return true
}

// linked reports whether a path at x may pass from polygons from to
// polygons to: they share one, or a chain of polygons joins them, each
// sharing with the next a side that holds x.
func (c *meshChecker) linked(from, to []int32, x rpoint) bool {
	seen := slices.Clone(from)
	for i := 0; i < len(seen); i++ {
		p := seen[i]
		if slices.Contains(to, p) {
			return true
		}
		poly := c.poly(p)
		for k, u := range poly {
			v := poly[(k+1)%len(poly)]
			if !onSide(u, v, x) {
				continue
			}
			if q := c.across(p, u, v); q >= 0 && !slices.Contains(seen, q) {
				seen = append(seen, q)
			}
		}
	}
	return false
}

// path checks that path runs from from to to on the mesh, legally, and
// returns its length.
func (c *meshChecker) path(path []mgl64.Vec2, from, to mgl64.Vec2) (float64, error) {
	if len(path) == 0 {
		return 0, fmt.Errorf("empty path")
	}
	for i, p := range path {
		if !finiteVec(p) {
			return 0, fmt.Errorf("waypoint %d (%v, %v) is not finite", i, p[0], p[1])
		}
	}
	if path[0] != from {
		return 0, fmt.Errorf("path starts at %s, want %s", vecString(path[0]), vecString(from))
	}
	if last := path[len(path)-1]; last != to {
		return 0, fmt.Errorf("path ends at %s, want %s", vecString(last), vecString(to))
	}
	if len(c.holding(nil, from)) == 0 {
		return 0, fmt.Errorf("start %s is on no polygon", vecString(from))
	}
	length := 0.0
	var arriving []int32
	for i := 1; i < len(path); i++ {
		a, b := path[i-1], path[i]
		if a == b {
			continue
		}
		first, last, err := c.leg(a, b)
		if err != nil {
			return 0, err
		}
		if arriving != nil && !c.linked(arriving, first, ratPoint(a)) {
			return 0, fmt.Errorf("path turns at %s between polygons that meet only there", vecString(a))
		}
		arriving = last
		length += math.Hypot(b[0]-a[0], b[1]-a[1])
	}
	return length, nil
}

// components labels the polygons by the chains of shared sides that join
// them, once.
func (c *meshChecker) components() []int32 {
	if c.comp != nil {
		return c.comp
	}
	c.comp = make([]int32, len(c.lo))
	for i := range c.comp {
		c.comp[i] = -1
	}
	var stack []int32
	for p0 := range int32(len(c.lo)) {
		if c.comp[p0] >= 0 {
			continue
		}
		c.comp[p0] = p0
		stack = append(stack[:0], p0)
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			poly := c.poly(p)
			for k, u := range poly {
				if q := c.across(p, u, poly[(k+1)%len(poly)]); q >= 0 && c.comp[q] < 0 {
					c.comp[q] = p0
					stack = append(stack, q)
				}
			}
		}
	}
	return c.comp
}

// verifyMeshPoints checks a navmesh answer on a mesh read without its map,
// from point from to point to, against the mesh's polygons: a found path
// runs from from to to by legs inside them (see meshChecker) and is as long
// as reported; "unreachable" is answered only between ends that no chain
// of polygons sharing sides joins.
func verifyMeshPoints(c *meshChecker, path []mgl64.Vec2, from, to mgl64.Vec2, st stats) error {
	switch st.status {
	case core.Found:
	case core.Unreachable:
		if len(path) > 0 {
			return fmt.Errorf("reported unreachable with a path of %d points", len(path))
		}
		comp := c.components()
		for _, p := range c.holding(nil, from) {
			for _, q := range c.holding(nil, to) {
				if comp[p] == comp[q] {
					return fmt.Errorf("reported unreachable, but polygons %d and %d, which hold start and goal, are joined by shared sides", p, q)
				}
			}
		}
		return nil
	default:
		return fmt.Errorf("unknown status %q", st.status)
	}
	length, err := c.path(path, from, to)
	if err != nil {
		return err
	}
	if math.Abs(length-st.cost) > 1e-9*max(1, length) {
		return fmt.Errorf("reported length %v, but the waypoints are %v apart", st.cost, length)
	}
	return nil
}

func finiteVec(p mgl64.Vec2) bool {
	return !math.IsNaN(p[0]) && !math.IsInf(p[0], 0) && !math.IsNaN(p[1]) && !math.IsInf(p[1], 0)
}
