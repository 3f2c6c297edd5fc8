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
	under, err := in.checkSegments()
	if err != nil {
		return nil, err
	}
	for ri := range in.rings {
		in.rings[ri].ccw = in.ccw(in.rings[ri])
	}
	if err := in.checkNesting(under); err != nil {
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

// ring returns the ring of vertex v.
func (in *polyIn) ring(v int32) int {
	i, _ := slices.BinarySearchFunc(in.rings, v+1, func(r ringIn, v int32) int { return cmp.Compare(r.first, v) })
	return i - 1
}

// least returns the least vertex of ring r in (x, y) order, the first of
// it that the sweep meets.
func (in *polyIn) least(r ringIn) int32 {
	lo := r.first
	for v := r.first + 1; v < r.first+r.n; v++ {
		if before(in.verts[v], in.verts[lo]) {
			lo = v
		}
	}
	return lo
}

// ccw reports whether ring r runs counter-clockwise (y up). Its least
// vertex in (x, y) order is a strict corner of the convex hull, so the turn
// there decides; validated rings have no turn back on themselves.
func (in *polyIn) ccw(r ringIn) bool {
	lo := in.least(r)
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
// When it finds none, it returns under: for each vertex, the segment
// right below it (see segSweep), which checkNesting reads.
func (in *polyIn) checkSegments() (under []int32, err error) {
	if err := in.checkTurns(); err != nil {
		return nil, err
	}
	s := newSegSweep(in)
	a, b, ok := s.run(int32(len(in.verts) - 1))
	if !ok {
		return s.under, nil
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
			return nil, in.segmentError(s, k, t)
		}
	}
	return nil, in.segmentError(s, min(a, b), max(a, b)) // not reached
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
	rk, rt := in.ring(k), in.ring(t)
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

// checkNesting refuses rings nested otherwise than as polygons with holes
// and islands, given under from a checkSegments that found no fault. As
// no two rings meet, they nest as a forest (see enclosers), and the rules
// are of each ring's parent there: a hole's is its own outer ring, and an
// outer ring's is a hole of another polygon or none. These are the rules
// of the check this one replaced (kept in a test as checkNestingBrute):
// every hole inside its outer ring and in no other hole of its polygon,
// no outer ring in the area of another polygon. (Under the parent rules
// the rings around an outer ring alternate between holes and their outer
// rings, so it lies in a hole of each polygon around it. Conversely, an
// outer ring right inside another lies in its area, and a ring between a
// hole and its outer ring puts a hole in another of its polygon or a
// polygon in the area of another.) Of several faults it names the one
// that check named (see nestingError). It costs O(n) for n vertices and
// O(r log r) for r rings.
func (in *polyIn) checkNesting(under []int32) error {
	parent := in.enclosers(under)
	for ri, r := range in.rings {
		p := parent[ri]
		if r.hole && p != int32(in.first[in.ids[ri][0]]) || !r.hole && p >= 0 && !in.rings[p].hole {
			return in.nestingError(parent)
		}
	}
	return nil
}

// enclosers returns for each ring the ring that immediately encloses it,
// or −1, from under (see segSweep). The segment right below the least
// vertex v of a ring is the first a ray from v downwards crosses (tilted
// as the sweep is); if it is of ring s, v is inside s when the inside of s
// is above it, and otherwise in the ring that encloses s, whose least
// vertex comes before v in the sweep. Exact: the sides come from the
// orientation of s.
func (in *polyIn) enclosers(under []int32) []int32 {
	const unknown = -2
	parent := make([]int32, len(in.rings))
	for ri := range parent {
		parent[ri] = unknown
	}
	// below returns the ring of the segment under the least vertex of
	// ring x, or −1, and whether that vertex is inside it.
	below := func(x int32) (s int32, inside bool) {
		k := under[in.least(in.rings[x])]
		if k < 0 {
			return -1, false
		}
		s = int32(in.ring(k))
		r := in.rings[s]
		next := k + 1
		if next == r.first+r.n {
			next = r.first
		}
		// The inside of r is on the left of its segments if it runs
		// counter-clockwise: above k if k runs in sweep order.
		return s, r.ccw == before(in.verts[k], in.verts[next])
	}
	var chain []int32 // rings outside the ring below, waiting for its parent
	for ri := range in.rings {
		x := int32(ri)
		for parent[x] == unknown {
			if s, inside := below(x); s < 0 || inside {
				parent[x] = s
			} else {
				chain, x = append(chain, x), s
			}
		}
		for len(chain) > 0 {
			y := chain[len(chain)-1]
			chain = chain[:len(chain)-1]
			parent[y], x = parent[x], y
		}
	}
	return parent
}

// nestingError returns the error of the check checkNesting replaced on
// rings nested as parent says, or nil if there is none. That check took
// the holes in input order, each against its outer ring and then each
// earlier hole of its polygon; then, only if all passed, each polygon
// against each earlier one. So it names the first hole outside its outer
// ring or nested with an earlier hole of its polygon, and the first of
// those; failing that, the first polygon whose outer ring lies in the
// area of an earlier polygon or whose area holds the outer ring of an
// earlier one, and the first of those. It costs O(r log r) for r rings.
func (in *polyIn) nestingError(parent []int32) error {
	const none = math.MaxInt32
	f := newForest(parent)
	np, nr := len(in.first)-1, len(in.rings)
	// Holes: up is the nearest hole of the same polygon that encloses
	// each, inner the least of those it encloses and outer the least of
	// those that enclose it; top, for each polygon, the innermost of its
	// holes that the walk is in.
	up, inner, outer := make([]int32, nr), make([]int32, nr), make([]int32, nr)
	top := make([]int32, np)
	for i := range top {
		top[i] = -1
	}
	f.walk(func(x int32) {
		if in.rings[x].hole {
			i := in.ids[x][0]
			up[x], outer[x], inner[x] = top[i], none, none
			if u := top[i]; u >= 0 {
				outer[x] = min(u, outer[u])
			}
			top[i] = x
		}
	}, func(x int32) {
		if in.rings[x].hole {
			top[in.ids[x][0]] = up[x]
		}
	})
	for k := nr - 1; k >= 0; k-- {
		if x := f.order[k]; in.rings[x].hole && up[x] >= 0 {
			inner[up[x]] = min(inner[up[x]], x, inner[x])
		}
	}
	for ri, r := range in.rings {
		if !r.hole {
			continue
		}
		i, o := in.ids[ri][0], in.first[in.ids[ri][0]]
		if !f.encloses(int32(o), int32(ri)) {
			return &PolygonError{Polygon: i, Ring: ri - o, Problem: "not inside the outer ring"}
		}
		if rj := int(min(inner[ri], outer[ri])); rj < ri {
			what := "encloses"
			if int32(rj) == outer[ri] {
				what = "inside"
			}
			return &PolygonError{Polygon: i, Ring: ri - o, Problem: fmt.Sprintf("%s hole %d", what, rj-o)}
		}
	}
	// Polygons: now every hole is inside its outer ring and in no other
	// hole of its polygon. areas holds the polygons in whose area the
	// walk is, and lowest is, for each polygon, the least in whose area
	// its outer ring lies.
	areas, lowest := newMinSet(np), make([]int32, np)
	f.walk(func(x int32) {
		i := in.ids[x][0]
		if in.rings[x].hole {
			areas.put(i, false)
		} else {
			lowest[i] = areas.least()
			areas.put(i, true)
		}
	}, func(x int32) {
		areas.put(in.ids[x][0], in.rings[x].hole)
	})
	first := int32(none) // of pairs one in the other's area, the least later one
	for i, j := range lowest {
		if j != none {
			first = min(first, max(int32(i), j))
		}
	}
	if first == none {
		return nil
	}
	// The least polygon in the area of first: the descendants of its
	// outer ring but for those of its holes.
	o, held := int32(in.first[first]), int32(none)
	for k := f.pos[o] + 1; k < f.end[o]; {
		x := f.order[k]
		switch {
		case in.ids[x][0] == int(first): // a hole
			k = f.end[x]
			continue
		case !in.rings[x].hole:
			held = min(held, int32(in.ids[x][0]))
		}
		k++
	}
	if j := lowest[first]; j < held {
		return &PolygonError{Polygon: int(first), Ring: -1, Problem: fmt.Sprintf("lies inside polygon %d", j)}
	}
	return &PolygonError{Polygon: int(first), Ring: -1, Problem: fmt.Sprintf("encloses polygon %d", held)}
}

// forest is a forest of rings in preorder: ring order[k] has pos k, and
// its descendants are order[k+1:end[order[k]]].
type forest struct {
	order, pos, end []int32
}

// newForest returns the forest in which ring x has parent parent[x] (−1
// for a root), in O(r) for r rings.
func newForest(parent []int32) forest {
	n := len(parent)
	// The children of x (−1 for the roots) are kids[start[x+1]:start[x+2]].
	start := make([]int32, n+2)
	for _, p := range parent {
		start[p+2]++
	}
	for j := 1; j < len(start); j++ {
		start[j] += start[j-1]
	}
	kids, fill := make([]int32, n), slices.Clone(start[:n+1])
	for x, p := range parent {
		kids[fill[p+1]] = int32(x)
		fill[p+1]++
	}
	f := forest{order: make([]int32, 0, n), pos: make([]int32, n), end: make([]int32, n)}
	stack := slices.Clone(kids[start[0]:start[1]])
	slices.Reverse(stack)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		f.pos[x] = int32(len(f.order))
		f.order = append(f.order, x)
		for k := start[x+2] - 1; k >= start[x+1]; k-- {
			stack = append(stack, kids[k])
		}
	}
	// end holds sizes first: a ring's descendants come after it.
	for k := n - 1; k >= 0; k-- {
		x := f.order[k]
		f.end[x]++
		if p := parent[x]; p >= 0 {
			f.end[p] += f.end[x]
		}
	}
	for x := range f.end {
		f.end[x] += f.pos[x]
	}
	return f
}

// encloses reports whether ring a is an ancestor of ring x.
func (f forest) encloses(a, x int32) bool { return f.pos[a] < f.pos[x] && f.pos[x] < f.end[a] }

// walk calls enter for each ring in preorder, and leave for each once its
// descendants are done.
func (f forest) walk(enter, leave func(x int32)) {
	var open []int32
	for k, x := range f.order {
		for len(open) > 0 && f.end[open[len(open)-1]] <= int32(k) {
			leave(open[len(open)-1])
			open = open[:len(open)-1]
		}
		enter(x)
		open = append(open, x)
	}
	for k := len(open) - 1; k >= 0; k-- {
		leave(open[k])
	}
}

// minSet is a set of integers in [0, n) that tells its least: a segment
// tree of minima, O(log n) to put a member in or out, O(1) for the least.
type minSet []int32

func newMinSet(n int) minSet {
	m := 1
	for m < n {
		m *= 2
	}
	t := make(minSet, 2*m)
	for x := range t {
		t[x] = math.MaxInt32
	}
	return t
}

// put puts i in the set, or out of it.
func (t minSet) put(i int, in bool) {
	x := len(t)/2 + i
	t[x] = math.MaxInt32
	if in {
		t[x] = int32(i)
	}
	for x /= 2; x >= 1; x /= 2 {
		t[x] = min(t[2*x], t[2*x+1])
	}
}

// least returns the least member, or math.MaxInt32 for none.
func (t minSet) least() int32 { return t[1] }
