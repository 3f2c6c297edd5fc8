package navmesh_test

import (
	"cmp"
	"math/big"
	"slices"

	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// This file holds the exact oracle Raycast is measured against, the rules
// of cmd/pathfind's meshcheck.go on the mesh's polygons alone: the walkable
// area is the union of the closed polygons, and a segment on it may pass
// from the polygons holding it just before a point to those holding it
// just after only through polygons that share, edge to edge, a side
// holding the point (no corner cutting). It reads the polygons through
// AppendPolygon and decides everything in rational arithmetic on the
// float64 coordinates as they are.

// rayOracle answers for one mesh. It is not safe for concurrent use.
type rayOracle struct {
	first  []int32 // polygon p's vertices are verts[first[p]:first[p+1]]
	verts  []mgl64.Vec2
	lo, hi []mgl64.Vec2 // bounding box of each polygon
	sides  []oracleSide // every polygon side, sorted by its end points
}

// oracleSide is side a→b of polygon poly.
type oracleSide struct {
	a, b mgl64.Vec2
	poly int32
}

func cmpSide(s, t oracleSide) int {
	return cmp.Or(cmp.Compare(s.a[0], t.a[0]), cmp.Compare(s.a[1], t.a[1]), cmp.Compare(s.b[0], t.b[0]), cmp.Compare(s.b[1], t.b[1]))
}

func newRayOracle(m *navmesh.Mesh) *rayOracle {
	n := m.NumPolys()
	o := &rayOracle{first: make([]int32, 1, n+1), lo: make([]mgl64.Vec2, n), hi: make([]mgl64.Vec2, n)}
	for id := range navmesh.PolyID(n) {
		start := len(o.verts)
		o.verts = m.AppendPolygon(o.verts, id)
		o.first = append(o.first, int32(len(o.verts)))
		vs := o.verts[start:]
		lo, hi := vs[0], vs[0]
		for i, v := range vs {
			lo = mgl64.Vec2{min(lo[0], v[0]), min(lo[1], v[1])}
			hi = mgl64.Vec2{max(hi[0], v[0]), max(hi[1], v[1])}
			o.sides = append(o.sides, oracleSide{a: v, b: vs[(i+1)%len(vs)], poly: int32(id)})
		}
		o.lo[id], o.hi[id] = lo, hi
	}
	slices.SortFunc(o.sides, cmpSide)
	return o
}

func (o *rayOracle) poly(p int32) []mgl64.Vec2 { return o.verts[o.first[p]:o.first[p+1]] }

// across returns the polygon that lists side a→b of polygon p as b→a, or
// −1 for none.
func (o *rayOracle) across(p int32, a, b mgl64.Vec2) int32 {
	key := oracleSide{a: b, b: a}
	i, _ := slices.BinarySearchFunc(o.sides, key, cmpSide)
	for ; i < len(o.sides) && cmpSide(o.sides[i], key) == 0; i++ {
		if q := o.sides[i].poly; q != p {
			return q
		}
	}
	return -1
}

func qrat(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }

// qpoint is a point with rational coordinates.
type qpoint struct{ x, y *big.Rat }

func qvec(v mgl64.Vec2) qpoint { return qpoint{qrat(v[0]), qrat(v[1])} }

// qalong returns a + t·(b − a).
func qalong(a, b mgl64.Vec2, t *big.Rat) qpoint {
	x := new(big.Rat).Mul(new(big.Rat).Sub(qrat(b[0]), qrat(a[0])), t)
	y := new(big.Rat).Mul(new(big.Rat).Sub(qrat(b[1]), qrat(a[1])), t)
	return qpoint{x.Add(x, qrat(a[0])), y.Add(y, qrat(a[1]))}
}

func (p qpoint) vec() mgl64.Vec2 {
	x, _ := p.x.Float64()
	y, _ := p.y.Float64()
	return mgl64.Vec2{x, y}
}

// qcross returns (ex, ey) × (dx, dy), overwriting ex and ey.
func qcross(ex, ey, dx, dy *big.Rat) *big.Rat {
	ex.Mul(ex, dy)
	ey.Mul(ey, dx)
	return ex.Sub(ex, ey)
}

// qside returns (v − u) × (p − u): 0 on the line u–v, above 0 off the
// side of a polygon (in the package's order) that has the side u→v.
func qside(u, v mgl64.Vec2, p qpoint) *big.Rat {
	ux, uy := qrat(u[0]), qrat(u[1])
	return qcross(new(big.Rat).Sub(qrat(v[0]), ux), new(big.Rat).Sub(qrat(v[1]), uy), new(big.Rat).Sub(p.x, ux), new(big.Rat).Sub(p.y, uy))
}

// holds reports whether the closed polygon p holds x.
func (o *rayOracle) holds(p int32, x qpoint) bool {
	vs := o.poly(p)
	for i, u := range vs {
		if qside(u, vs[(i+1)%len(vs)], x).Sign() > 0 {
			return false
		}
	}
	return true
}

// onMesh reports whether some polygon holds v.
func (o *rayOracle) onMesh(v mgl64.Vec2) bool {
	x := qvec(v)
	for p := range int32(len(o.lo)) {
		if o.lo[p][0] <= v[0] && v[0] <= o.hi[p][0] && o.lo[p][1] <= v[1] && v[1] <= o.hi[p][1] && o.holds(p, x) {
			return true
		}
	}
	return false
}

// oracleSpan is the closed interval [lo, hi] of t in [0, 1] for which
// a + t·(b − a) lies in polygon poly.
type oracleSpan struct {
	poly   int32
	lo, hi *big.Rat
}

// clip returns the span of polygon p on the segment from a to b
// (Cyrus–Beck, exactly), and false when the segment misses it.
func (o *rayOracle) clip(p int32, a, b mgl64.Vec2) (oracleSpan, bool) {
	lo, hi := new(big.Rat), big.NewRat(1, 1)
	ra := qvec(a)
	dx, dy := new(big.Rat).Sub(qrat(b[0]), ra.x), new(big.Rat).Sub(qrat(b[1]), ra.y)
	vs := o.poly(p)
	for i, u := range vs {
		v := vs[(i+1)%len(vs)]
		// a + t·d is inside this side's half-plane when c0 + t·c1 ≤ 0.
		c0 := qside(u, v, ra)
		c1 := qcross(new(big.Rat).Sub(qrat(v[0]), qrat(u[0])), new(big.Rat).Sub(qrat(v[1]), qrat(u[1])), dx, dy)
		switch c1.Sign() {
		case 0:
			if c0.Sign() > 0 {
				return oracleSpan{}, false
			}
		case -1:
			if t := c0.Quo(c0, c1).Neg(c0); t.Cmp(lo) > 0 {
				lo = t
			}
		default:
			if t := c0.Quo(c0, c1).Neg(c0); t.Cmp(hi) < 0 {
				hi = t
			}
		}
		if lo.Cmp(hi) > 0 {
			return oracleSpan{}, false
		}
	}
	return oracleSpan{poly: p, lo: lo, hi: hi}, true
}

// leave returns whether the segment from a to b leaves the mesh, and the
// parameter t of the first point where it does: where no polygon holds it
// just after, or where it passes between polygons that meet only there.
// A segment from a point off the mesh leaves it at t = 0.
func (o *rayOracle) leave(a, b mgl64.Vec2) (bool, *big.Rat) {
	if a == b {
		return !o.onMesh(a), new(big.Rat)
	}
	if !o.onMesh(a) {
		return true, new(big.Rat)
	}
	var spans []oracleSpan
	bmin, bmax := mgl64.Vec2{min(a[0], b[0]), min(a[1], b[1])}, mgl64.Vec2{max(a[0], b[0]), max(a[1], b[1])}
	for p := range int32(len(o.lo)) {
		if o.lo[p][0] > bmax[0] || o.hi[p][0] < bmin[0] || o.lo[p][1] > bmax[1] || o.hi[p][1] < bmin[1] {
			continue
		}
		if s, ok := o.clip(p, a, b); ok {
			spans = append(spans, s)
		}
	}
	// Between consecutive ends of spans, each stretch is held whole by a
	// span or not at all.
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
		if len(cover) == 0 || (j > 0 && !o.linked(prev, cover, qalong(a, b, ts[j]))) {
			return true, ts[j]
		}
		prev = cover
	}
	return false, big.NewRat(1, 1)
}

// onSide reports whether x lies on the closed segment from u to v.
func onSide(u, v mgl64.Vec2, x qpoint) bool {
	if qside(u, v, x).Sign() != 0 {
		return false
	}
	for i, xc := range [2]*big.Rat{x.x, x.y} {
		if xc.Cmp(qrat(min(u[i], v[i]))) < 0 || xc.Cmp(qrat(max(u[i], v[i]))) > 0 {
			return false
		}
	}
	return true
}

// linked reports whether a segment at x may pass from polygons from to
// polygons to: they share one, or a chain of polygons joins them, each
// sharing with the next a side that holds x.
func (o *rayOracle) linked(from, to []int32, x qpoint) bool {
	seen := slices.Clone(from)
	for i := 0; i < len(seen); i++ {
		p := seen[i]
		if slices.Contains(to, p) {
			return true
		}
		vs := o.poly(p)
		for k, u := range vs {
			v := vs[(k+1)%len(vs)]
			if !onSide(u, v, x) {
				continue
			}
			if q := o.across(p, u, v); q >= 0 && !slices.Contains(seen, q) {
				seen = append(seen, q)
			}
		}
	}
	return false
}
