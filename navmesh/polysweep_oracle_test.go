package navmesh

import (
	"fmt"
	"math"

	"github.com/cairn-nav/cairn/navmesh/internal/bucket"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// This file keeps the two oracles the sweep of checkSegments is checked
// against: the check it replaced, and every pair of segments tested in
// turn; and the check of nesting that checkNesting replaced.

// seg is a segment of the input: from point i to point i+1 of ring ring.
type seg struct{ ring, i int32 }

// checkSegmentsBrute is checkSegments as it was before the sweep, kept
// as it was: candidate pairs from a bucket grid, about linear on evenly
// spread segments but quadratic when many share buckets (three quarters
// of the 11 s FromPolygons took on a million-point circle). Of several
// faults it reports the pair whose earlier segment comes first in input
// order, where checkSegments reports the pair whose later one does; the
// two agree whenever one pair comes first both ways.
func (in *polyIn) checkSegmentsBrute() error {
	var segs []seg
	bx := geom.Box{Min: in.verts[0], Max: in.verts[0]}
	for ri, r := range in.rings {
		for j := range r.n {
			a, b := in.point(ri, j), in.point(ri, j+1)
			segs = append(segs, seg{ring: int32(ri), i: j})
			bx = bx.Grow(a)
			// Neighbours overlap only where the ring turns back.
			c := in.point(ri, j+2)
			if geom.Orient(a, b, c) == 0 && geom.SameSide(a, b, c) {
				i1, i2 := j, (j+1)%r.n
				if i2 < i1 {
					i1, i2 = i2, i1
				}
				return in.meetError(ri, i1, ri, i2, geom.MeetOverlap, b, closer(b, a, c))
			}
		}
	}
	g := bucket.New(bx, len(segs))
	mg := bucket.Margin(g.Step, bx.Mag())
	ends := func(s seg) (mgl64.Vec2, mgl64.Vec2) { return in.point(int(s.ring), s.i), in.point(int(s.ring), s.i+1) }
	g.Fill(func(emit func(int, int32)) {
		for k, s := range segs {
			a, b := ends(s)
			g.Segment(a, b, mg, func(c int) { emit(c, int32(k)) })
		}
	})
	stamp := make([]int32, len(segs))
	for k := range stamp {
		stamp[k] = -1
	}
	for k, s := range segs {
		a, b := ends(s)
		n := in.rings[s.ring].n
		best, bestKind := int32(-1), geom.MeetNone
		var bestP, bestQ mgl64.Vec2
		g.Segment(a, b, mg, func(c int) {
			for _, t := range g.Bucket(c) {
				if t <= int32(k) || stamp[t] == int32(k) || (best >= 0 && t > best) {
					continue
				}
				stamp[t] = int32(k)
				u := segs[t]
				if u.ring == s.ring && ((u.i+1)%n == s.i || (s.i+1)%n == u.i) {
					continue // neighbours, checked above
				}
				c, d := ends(u)
				if kind, p, q := geom.Meet(a, b, c, d); kind != geom.MeetNone {
					best, bestKind, bestP, bestQ = t, kind, p, q
				}
			}
		})
		if best >= 0 {
			// Name the later ring first; in one ring, the lower segment.
			t := segs[best]
			if t.ring == s.ring {
				return in.meetError(int(s.ring), s.i, int(t.ring), t.i, bestKind, bestP, bestQ)
			}
			return in.meetError(int(t.ring), t.i, int(s.ring), s.i, bestKind, bestP, bestQ)
		}
	}
	return nil
}

// checkSegmentsPairs tests every pair of segments, O(n²), and reports the
// first fault as checkSegments does when byLater (the least later segment
// of a meeting pair, then the least earlier one), or as
// checkSegmentsBrute does otherwise (the least earlier segment, then the
// least later one).
func (in *polyIn) checkSegmentsPairs(byLater bool) error {
	if err := in.checkTurns(); err != nil {
		return err
	}
	type end struct {
		ring, i int32
		a, b    mgl64.Vec2
	}
	var segs []end
	for ri, r := range in.rings {
		for j := range r.n {
			segs = append(segs, end{int32(ri), j, in.point(ri, j), in.point(ri, j+1)})
		}
	}
	meet := func(k, t int) error {
		s, u := segs[k], segs[t]
		if n := in.rings[s.ring].n; s.ring == u.ring && ((u.i+1)%n == s.i || (s.i+1)%n == u.i) {
			return nil
		}
		if math.Max(s.a[0], s.b[0]) < math.Min(u.a[0], u.b[0]) || math.Max(u.a[0], u.b[0]) < math.Min(s.a[0], s.b[0]) {
			return nil // apart in x
		}
		kind, p, q := geom.Meet(s.a, s.b, u.a, u.b)
		switch {
		case kind == geom.MeetNone:
			return nil
		case s.ring == u.ring:
			return in.meetError(int(s.ring), s.i, int(u.ring), u.i, kind, p, q)
		}
		return in.meetError(int(u.ring), u.i, int(s.ring), s.i, kind, p, q)
	}
	for x := range segs {
		for y := range segs {
			k, t := x, y // earlier, later
			if byLater {
				k, t = y, x
			}
			if k >= t {
				continue
			}
			if err := meet(k, t); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkNestingBrute is checkNesting as it was before the sweep, kept as
// it was: a point of each hole tested against its outer ring and every
// other hole of its polygon, then the outer ring of each polygon against
// the area of every other; O(h²) box tests for h holes, and a test O(m)
// for a ring of m points whose box holds the point. On a square with
// 24 964 holes it took 2.5 s of the 2.7 s of FromPolygons; on one with
// 250 000 holes, 1 000 000 points, most of 260 s.
func (in *polyIn) checkNestingBrute() error {
	boxes := make([]geom.Box, len(in.rings))
	for ri, r := range in.rings {
		boxes[ri] = in.box(r)
	}
	within := func(ri, rj int) bool {
		p := in.verts[in.rings[ri].first]
		return boxes[rj].Holds(p) && in.inside(in.rings[rj], p)
	}
	np := len(in.first) - 1
	for i := range np {
		o := in.first[i]
		for ri := o + 1; ri < in.first[i+1]; ri++ {
			if !within(ri, o) {
				return &PolygonError{Polygon: i, Ring: ri - o, Problem: "not inside the outer ring"}
			}
			for rj := o + 1; rj < ri; rj++ {
				if within(ri, rj) {
					return &PolygonError{Polygon: i, Ring: ri - o, Problem: fmt.Sprintf("inside hole %d", rj-o)}
				}
				if within(rj, ri) {
					return &PolygonError{Polygon: i, Ring: ri - o, Problem: fmt.Sprintf("encloses hole %d", rj-o)}
				}
			}
		}
	}
	// inArea reports whether ring ri lies in the area of polygon j.
	inArea := func(ri, j int) bool {
		if !within(ri, in.first[j]) {
			return false
		}
		for rh := in.first[j] + 1; rh < in.first[j+1]; rh++ {
			if within(ri, rh) {
				return false
			}
		}
		return true
	}
	for i := range np {
		for j := range i {
			if inArea(in.first[i], j) {
				return &PolygonError{Polygon: i, Ring: -1, Problem: fmt.Sprintf("lies inside polygon %d", j)}
			}
			if inArea(in.first[j], i) {
				return &PolygonError{Polygon: i, Ring: -1, Problem: fmt.Sprintf("encloses polygon %d", j)}
			}
		}
	}
	return nil
}

// box returns the bounding box of ring r.
func (in *polyIn) box(r ringIn) geom.Box {
	b := geom.Box{Min: in.verts[r.first], Max: in.verts[r.first]}
	for _, v := range in.verts[r.first : r.first+r.n] {
		b = b.Grow(v)
	}
	return b
}

// inside reports whether p, which is on no segment of ring r, is inside it:
// whether a ray from p towards +x crosses r an odd number of times.
func (in *polyIn) inside(r ringIn, p mgl64.Vec2) bool {
	odd := false
	vs := in.verts[r.first : r.first+r.n]
	a := vs[len(vs)-1]
	for _, b := range vs {
		if (a[1] > p[1]) != (b[1] > p[1]) {
			// The edge straddles the ray's line; it crosses the ray
			// when p is on the left of the edge taken upward.
			if o := geom.Orient(a, b, p); (b[1] > a[1]) == (o > 0) {
				odd = !odd
			}
		}
		a = b
	}
	return odd
}
