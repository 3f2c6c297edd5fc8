package navmesh

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// This file checks the input of FromPolygons: finite coordinates in range,
// rings of positive area without repeated points, no two segments
// meeting, and the rings nested as polygons with holes.

// readPolygons validates mp; see FromPolygons for the rules.
func readPolygons(mp orb.MultiPolygon) (*polyIn, error) {
	in, err := readRings(mp)
	if err != nil {
		return nil, err
	}
	if err := in.checkSegments(); err != nil {
		return nil, err
	}
	for ri := range in.rings {
		in.rings[ri].ccw = in.ccw(in.rings[ri])
	}
	if err := in.checkNesting(); err != nil {
		return nil, err
	}
	return in, nil
}

// readRings checks each ring of mp on its own: coordinates, size, no
// repeated point, positive area; and gathers the rings.
func readRings(mp orb.MultiPolygon) (*polyIn, error) {
	if len(mp) == 0 {
		return nil, fmt.Errorf("navmesh: no polygons")
	}
	in := &polyIn{}
	for i, pg := range mp {
		in.first = append(in.first, len(in.rings))
		if len(pg) == 0 {
			return nil, &PolygonError{Polygon: i, Ring: -1, Problem: "no outer ring"}
		}
		for k, r := range pg {
			fail := func(format string, a ...any) error {
				return &PolygonError{Polygon: i, Ring: k, Problem: fmt.Sprintf(format, a...)}
			}
			if n := len(r); n >= 2 && r[0] == r[n-1] {
				r = r[:n-1]
			}
			for j, p := range r {
				for _, c := range p {
					if math.IsNaN(c) || math.IsInf(c, 0) {
						return nil, fail("point %d %s is not finite", j, at(p))
					}
					if a := math.Abs(c); a != 0 && (a < minCoord || a > maxCoord) {
						return nil, fail("point %d %s: coordinate out of range (0, or magnitude 1e-100 to 1e100)", j, at(p))
					}
				}
			}
			if len(r) < 3 {
				return nil, fail("%d points, want at least 3", len(r))
			}
			if len(in.verts)+len(r) > math.MaxInt32/4 {
				return nil, fail("too many points")
			}
			if a, b, ok := repeated(r); ok {
				return nil, fail("points %d and %d are both %s", a, b, at(r[a]))
			}
			collinear := true
			for j := 2; j < len(r) && collinear; j++ {
				collinear = geom.Orient(vec(r[0]), vec(r[1]), vec(r[j])) == 0
			}
			if collinear {
				return nil, fail("zero area: all points on one line")
			}
			in.rings = append(in.rings, ringIn{first: int32(len(in.verts)), n: int32(len(r)), hole: k > 0})
			in.ids = append(in.ids, [2]int{i, k})
			for _, p := range r {
				in.verts = append(in.verts, vec(p))
			}
		}
	}
	in.first = append(in.first, len(in.rings))
	return in, nil
}

func vec(p orb.Point) mgl64.Vec2 { return mgl64.Vec2{p[0], p[1]} }

// at formats a point for messages.
func at(p [2]float64) string { return fmt.Sprintf("(%g, %g)", p[0], p[1]) }

// repeated returns the first pair of indices a < b with r[a] == r[b].
func repeated(r orb.Ring) (a, b int, ok bool) {
	idx := make([]int, len(r))
	for j := range idx {
		idx[j] = j
	}
	slices.SortFunc(idx, func(x, y int) int {
		if c := cmp.Compare(r[x][0], r[y][0]); c != 0 {
			return c
		}
		if c := cmp.Compare(r[x][1], r[y][1]); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	found := false
	for j := 1; j < len(idx); j++ {
		if r[idx[j]] == r[idx[j-1]] {
			x, y := idx[j-1], idx[j]
			if !found || x < a || (x == a && y < b) {
				a, b, found = x, y, true
			}
		}
	}
	return a, b, found
}

// point returns point j of ring ri, indices taken round the ring.
func (in *polyIn) point(ri int, j int32) mgl64.Vec2 {
	r := in.rings[ri]
	return in.verts[r.first+(j%r.n+r.n)%r.n]
}

// ccw reports whether ring r runs counter-clockwise (y up). Its least
// vertex in (x, y) order is a strict corner of the convex hull, so the turn
// there decides; validated rings have no turn back on themselves.
func (in *polyIn) ccw(r ringIn) bool {
	lo := r.first
	for v := r.first + 1; v < r.first+r.n; v++ {
		if p, q := in.verts[v], in.verts[lo]; p[0] < q[0] || (p[0] == q[0] && p[1] < q[1]) {
			lo = v
		}
	}
	prev, next := lo-1, lo+1
	if lo == r.first {
		prev = r.first + r.n - 1
	}
	if next == r.first+r.n {
		next = r.first
	}
	return geom.Orient(in.verts[prev], in.verts[lo], in.verts[next]) > 0
}

// checkSegments refuses any two segments that meet, except neighbours in
// a ring at their shared point. A ring turning back on itself is found
// first, by checkTurns; other meetings by the sweep of segSweep, in
// O(n log n) expected for n vertices whatever their layout. Of several
// faults it reports the one reading the input in order comes to first:
// the first segment that meets an earlier one, and the first of those it
// meets. Finding that segment takes O(log n) more sweeps of the segments
// up to some point, O(n log² n) at worst, and two for a single fault.
func (in *polyIn) checkSegments() error {
	if err := in.checkTurns(); err != nil {
		return err
	}
	s := newSegSweep(in)
	a, b, ok := s.run(int32(len(in.verts) - 1))
	if !ok {
		return nil
	}
	// The least t such that segments 0 to t hold a meeting pair: a pair
	// found by a sweep of 0 to m bounds it by its later segment. Gallop
	// down from the first pair found, then halve.
	lo, hi := 0, int(max(a, b))
	for step := 1; lo < hi; step *= 2 {
		m := hi - step
		if m < lo {
			break
		}
		x, y, ok := s.run(int32(m))
		if !ok {
			lo = m + 1
			break
		}
		hi = int(max(x, y))
	}
	for lo < hi {
		m := lo + (hi-lo)/2
		if x, y, ok := s.run(int32(m)); ok {
			hi = int(max(x, y))
		} else {
			lo = m + 1
		}
	}
	t := int32(hi)
	for k := range t {
		if s.meets(k, t) {
			return in.segmentError(s, k, t)
		}
	}
	return in.segmentError(s, min(a, b), max(a, b)) // not reached
}

// checkTurns refuses a ring of which two neighbouring segments overlap,
// the first in ring order: three points on a line, the third on the same
// side of the second as the first.
func (in *polyIn) checkTurns() error {
	for ri, r := range in.rings {
		for j := range r.n {
			a, b, c := in.point(ri, j), in.point(ri, j+1), in.point(ri, j+2)
			if geom.Orient(a, b, c) == 0 && geom.SameSide(a, b, c) {
				i1, i2 := j, (j+1)%r.n
				if i2 < i1 {
					i1, i2 = i2, i1
				}
				return in.meetError(ri, i1, ri, i2, geom.MeetOverlap, b, closer(b, a, c))
			}
		}
	}
	return nil
}

// segmentError describes segments k < t of s meeting: naming the later
// ring first, or in one ring the lower segment.
func (in *polyIn) segmentError(s *segSweep, k, t int32) error {
	ring := func(v int32) int {
		i, _ := slices.BinarySearchFunc(in.rings, v+1, func(r ringIn, v int32) int { return cmp.Compare(r.first, v) })
		return i - 1
	}
	rk, rt := ring(k), ring(t)
	ik, it := k-in.rings[rk].first, t-in.rings[rt].first
	kind, p, q := geom.Meet(s.verts[k], s.verts[s.next[k]], s.verts[t], s.verts[s.next[t]])
	if rk == rt {
		return in.meetError(rk, ik, rt, it, kind, p, q)
	}
	return in.meetError(rt, it, rk, ik, kind, p, q)
}

// closer returns whichever of a and c is nearer to b.
func closer(b, a, c mgl64.Vec2) mgl64.Vec2 {
	if a.Sub(b).LenSqr() < c.Sub(b).LenSqr() {
		return a
	}
	return c
}

// meetError describes segment i of ring r meeting segment j of ring s.
func (in *polyIn) meetError(r int, i int32, s int, j int32, kind geom.Meeting, p, q mgl64.Vec2) error {
	pi, rk := in.ids[r][0], in.ids[r][1]
	var msg string
	if r == s {
		switch kind {
		case geom.MeetCross:
			msg = fmt.Sprintf("segments %d and %d cross at %s", i, j, at(p))
		case geom.MeetTouch:
			msg = fmt.Sprintf("segments %d and %d touch at %s", i, j, at(p))
		default:
			msg = fmt.Sprintf("segments %d and %d overlap along %s–%s", i, j, at(p), at(q))
		}
		return &PolygonError{Polygon: pi, Ring: rk, Problem: msg}
	}
	other := ringName(in.ids[s][0], in.ids[s][1])
	if in.ids[s][0] == pi {
		other = "outer ring"
		if k := in.ids[s][1]; k > 0 {
			other = fmt.Sprintf("hole %d", k)
		}
	}
	switch kind {
	case geom.MeetCross:
		msg = fmt.Sprintf("segment %d crosses %s segment %d at %s", i, other, j, at(p))
	case geom.MeetTouch:
		msg = fmt.Sprintf("segment %d touches %s segment %d at %s", i, other, j, at(p))
	default:
		msg = fmt.Sprintf("segment %d overlaps %s segment %d along %s–%s", i, other, j, at(p), at(q))
	}
	return &PolygonError{Polygon: pi, Ring: rk, Problem: msg}
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

// checkNesting refuses holes outside their outer ring or inside another
// hole, and polygons inside another. As no two rings meet, one point of a
// ring tells which side of another ring all of it lies on.
func (in *polyIn) checkNesting() error {
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
