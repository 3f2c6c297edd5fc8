// Package meshcheck checks straight segments and continuous paths against
// a navmesh's polygons alone, exactly: the oracle of "pathfind route -mesh
// FILE" without a map, where internal/gridcheck has no grid to judge by,
// and of navmesh's Raycast tests. It reads the polygons through navmesh's
// exported accessors (Mesh.AppendPolygon) and uses none of the mesh's own
// geometry: no Locate, Raycast or neighbour lists. Every decision is exact,
// in rational arithmetic (math/big) on the float64 coordinates as they
// are.
package meshcheck

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/navmesh"
)

// The walkable area is the union of the closed polygons. A path is legal
// when each leg lies in that union and it never passes from polygon to
// polygon through a point where they only touch: a leg, or a turn at a
// waypoint, may move from the polygons holding the path just before a
// point to those holding it just after only through polygons that share,
// edge to edge, a side holding the point (the grid's no-corner-cutting
// rule, as Mesh.Raycast states it). Two polygons share a side when one
// lists it from a to b and the other from b to a; the mesh format splits
// sides wherever a neighbour's corner meets them, so that is every portal.

// Checker checks segments and paths on one mesh. It is not safe for
// concurrent use.
type Checker struct {
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

// New copies the polygons of m. It costs O(E log E) for the E
// polygon sides.
func New(m *navmesh.Mesh) *Checker {
	n := m.NumPolys()
	c := &Checker{first: make([]int32, 1, n+1), lo: make([]mgl64.Vec2, n), hi: make([]mgl64.Vec2, n), sides: make([]int8, n)}
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

func (c *Checker) poly(p int32) []mgl64.Vec2 { return c.verts[c.first[p]:c.first[p+1]] }

// across returns the polygon that shares side a→b of polygon p, listing it
// b→a, or −1 for none.
func (c *Checker) across(p int32, a, b mgl64.Vec2) int32 {
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
func (c *Checker) side(p int32) int8 {
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
func (c *Checker) holds(p int32, x rpoint) bool {
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

// Holding appends to dst the polygons that hold the point v (their
// indices, which are the mesh's PolyIDs).
func (c *Checker) Holding(dst []int32, v mgl64.Vec2) []int32 {
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
func (c *Checker) clip(p int32, a, b mgl64.Vec2) (span, bool) {
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
// hold its first and its last stretch; on an error, t is the parameter of
// the first point where the leg leaves the mesh.
func (c *Checker) leg(a, b mgl64.Vec2) (first, last []int32, t *big.Rat, err error) {
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
			return nil, nil, ts[j], fmt.Errorf("leg %s to %s leaves the mesh after %s", vecString(a), vecString(b), vecString(along(a, b, ts[j]).vec()))
		}
		if j == 0 {
			first = cover
		} else if x := along(a, b, ts[j]); !c.linked(prev, cover, x) {
			return nil, nil, ts[j], fmt.Errorf("leg %s to %s passes between polygons that meet only at %s", vecString(a), vecString(b), vecString(x.vec()))
		}
		prev = cover
	}
	return first, prev, nil, nil
}

// Leave reports whether the segment from a to b leaves the mesh, and the
// parameter t in [0, 1] of the first point where it does: where no polygon
// holds it just after, or where it passes between polygons that meet only
// there (1 when it does not leave). A segment from a point off the mesh
// leaves it at t = 0. This is what navmesh's Raycast must answer.
func (c *Checker) Leave(a, b mgl64.Vec2) (bool, *big.Rat) {
	if len(c.Holding(nil, a)) == 0 {
		return true, new(big.Rat)
	}
	if a == b {
		return false, big.NewRat(1, 1)
	}
	if _, _, t, err := c.leg(a, b); err != nil {
		return true, t
	}
	return false, big.NewRat(1, 1)
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
func (c *Checker) linked(from, to []int32, x rpoint) bool {
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

// Path checks that path runs from from to to on the mesh, legally (its
// waypoints finite, each leg inside the polygons, no pass or turn between
// polygons that only touch), and returns its length.
func (c *Checker) Path(path []mgl64.Vec2, from, to mgl64.Vec2) (float64, error) {
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
	if len(c.Holding(nil, from)) == 0 {
		return 0, fmt.Errorf("start %s is on no polygon", vecString(from))
	}
	length := 0.0
	var arriving []int32
	for i := 1; i < len(path); i++ {
		a, b := path[i-1], path[i]
		if a == b {
			continue
		}
		first, last, _, err := c.leg(a, b)
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

// Components labels the polygons by the chains of shared sides that join
// them (two polygons have one label when such a chain joins them), once.
func (c *Checker) Components() []int32 {
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

func finiteVec(p mgl64.Vec2) bool {
	return !math.IsNaN(p[0]) && !math.IsInf(p[0], 0) && !math.IsNaN(p[1]) && !math.IsInf(p[1], 0)
}

// vecString formats p as x,y with six decimals, as pathfind prints points.
func vecString(p mgl64.Vec2) string {
	return strconv.FormatFloat(p[0], 'f', 6, 64) + "," + strconv.FormatFloat(p[1], 'f', 6, 64)
}

// Point returns a + t·(b − a), rounded to float64: where Leave's parameter
// lies.
func Point(a, b mgl64.Vec2, t *big.Rat) mgl64.Vec2 { return along(a, b, t).vec() }
