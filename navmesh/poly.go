package navmesh

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// PolygonError reports input that [FromPolygons] refuses: which ring of
// which polygon, and what is wrong with it.
type PolygonError struct {
	// Polygon is the index of the polygon in the MultiPolygon.
	Polygon int
	// Ring is the ring of the polygon, as orb numbers them: 0 is the outer
	// ring and k ≥ 1 is hole k. −1 means the polygon as a whole.
	Ring int
	// Problem says what is wrong, naming segments (segment i runs from
	// point i to point i+1 of the ring, the last back to point 0) and
	// points by their index in the ring as given.
	Problem string
}

func (e *PolygonError) Error() string {
	return fmt.Sprintf("navmesh: %s: %s", ringName(e.Polygon, e.Ring), e.Problem)
}

// ringName names ring k of polygon i for messages.
func ringName(i, k int) string {
	switch {
	case k < 0:
		return fmt.Sprintf("polygon %d", i)
	case k == 0:
		return fmt.Sprintf("polygon %d outer ring", i)
	}
	return fmt.Sprintf("polygon %d hole %d", i, k)
}

// Coordinates of polygon input must be 0 or of a magnitude within
// [minCoord, maxCoord]: there the orientation predicate is exact, since no
// product of two coordinates overflows or loses bits to underflow.
const (
	minCoord = 1e-100
	maxCoord = 1e100
)

// FromPolygon builds the mesh of the area inside polygon pg: its outer
// ring minus its holes. See [FromPolygons].
func FromPolygon(pg orb.Polygon, opt Options) (*Mesh, error) {
	return FromPolygons(orb.MultiPolygon{pg}, opt)
}

// FromPolygons builds the mesh of the walkable area mp: the union of its
// polygons, each the area inside its outer ring (orb's ring 0) and outside
// its holes. The boundary is wall; the mesh is closed, so a path may run
// along it. Rings may be closed (the first point repeated at the end, as
// GeoJSON and orb write them) or not, and either way round; mesh polygons
// come out in the order the package documentation gives.
//
// The input must be simple, and is checked with exact predicates: every
// coordinate finite and 0 or of a magnitude within [1e-100, 1e100]; every
// ring at least 3 distinct points, of positive area, without a repeated
// point; no two segments of the whole input meeting, except neighbours in a
// ring at their shared point (a crossing, a touch at a point, and a
// collinear overlap are all refused, also between rings); each hole inside
// its outer ring and outside the other holes; no polygon inside another
// (a polygon may lie in a hole of another). Anything else is a
// [*PolygonError] saying which ring, which segments or points, and where.
//
// With Options.Radius r > 0 the mesh is of the area an agent of radius r
// may stand in, eroded as Recast erodes it: the area is rasterized into
// square cells (Options.CellSize, by default r/2, rounded down to a power
// of two c), a cell is kept when it lies inside the area and no wall comes
// within r of it, and the cells kept are meshed as [FromGrid] meshes a
// grid. Every point of the mesh, so every path on it, keeps at least r
// from every wall; the mesh's walls run along cell sides, so paths pass
// up to about 2c further from walls than they must, and passages up to
// about 2(r + c) wide may close. Its vertices are exact multiples of c.
// An area of more than 2²⁴ cells, cells below 1e-100 or too small for the
// coordinates to hold their corners exactly, and an area of which nothing
// is r from the walls are errors. Eroding costs about O((L/c)·(r/c) + n)
// for walls of total length L and n cells.
//
// Each polygon is cut into triangles by ear clipping, its holes first
// joined to the outer ring by bridges between mutually visible vertices
// (Eberly's method, each bridge checked exactly). Lawson's edge flips,
// with exact orientation and in-circle tests, then make the triangles the
// constrained Delaunay triangulation of the points (fewer, fatter convex
// polygons and faster queries than from the ear-clipped triangles), and
// the triangles are merged into convex polygons
// by Hertel and Mehlhorn's method, longest diagonals first: a shared edge
// is dropped whenever the union of the two polygons is still convex,
// which leaves at most four times the fewest convex pieces of a polygon
// without holes (2r−h+1 pieces for r reflex vertices and h holes, against
// at least ⌈r/2⌉−h+1 for any convex partition). Mesh vertices
// are the input's points; there are no Steiner points, and the portals are
// the diagonals that remain. A mesh vertex is a turning point of paths (a
// convex corner of the walls) when the walkable angle there exceeds 180°.
//
// Bucket grids of segments and vertices find what lies near each segment,
// ear and bridge, so on input of n points spread about evenly the
// checking, the ear clipping and the merge cost about O(n log n), and
// bridging h holes O(n + h²) with a small constant for the h²; the worst
// case, for clustered or spiky input, is O(n²). BenchmarkFromPolygons
// measures inputs of about 5,000 points: a spiky star, and a star with
// about 1,000 small holes.
func FromPolygons(mp orb.MultiPolygon, opt Options) (*Mesh, error) {
	if err := checkRadius(opt.Radius); err != nil {
		return nil, err
	}
	in, err := readPolygons(mp)
	if err != nil {
		return nil, err
	}
	var tris [][3]int32
	for i := range mp {
		rs := in.rings[in.first[i]:in.first[i+1]]
		outer := in.walk(rs[0])
		holes := make([][]int32, len(rs)-1)
		for k := range holes {
			holes[k] = in.walk(rs[k+1])
		}
		if tris, err = triangulate(in.verts, outer, holes, tris); err != nil {
			return nil, &PolygonError{Polygon: i, Ring: -1, Problem: err.Error()}
		}
	}
	adj := triangleNeighbors(len(in.verts), tris)
	delaunay(in.verts, tris, adj)
	f := mergeConvex(in.verts, tris, adj)
	m := in.mesh(f)
	if opt.Radius > 0 {
		return erodePolygons(in, m, opt)
	}
	return m, nil
}

// ringIn is a validated ring: its points are verts[first:first+n], in the
// order given; ccw says whether that order is counter-clockwise in the
// textbook y-up sense (positive shoelace sum).
type ringIn struct {
	first, n int32
	ccw      bool
	hole     bool
}

// polyIn is validated input: distinct vertices and rings. The rings of
// polygon i are rings[first[i]:first[i+1]], the outer ring first.
type polyIn struct {
	verts []mgl64.Vec2
	rings []ringIn
	first []int
	ids   [][2]int // per ring: polygon and ring index, for messages
}

// walk returns the vertices of r with the walkable area on the left in the
// y-up sense: counter-clockwise for an outer ring, clockwise for a hole.
func (in *polyIn) walk(r ringIn) []int32 {
	vs := make([]int32, r.n)
	for j := range vs {
		vs[j] = r.first + int32(j)
	}
	if r.ccw == r.hole {
		slices.Reverse(vs)
	}
	return vs
}

// readPolygons validates mp; see FromPolygons for the rules.
func readPolygons(mp orb.MultiPolygon) (*polyIn, error) {
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
				collinear = orient(vec(r[0]), vec(r[1]), vec(r[j])) == 0
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
	return orient(in.verts[prev], in.verts[lo], in.verts[next]) > 0
}

// seg is a segment of the input: from point i to point i+1 of ring ring.
type seg struct{ ring, i int32 }

// checkSegments refuses any two segments that meet, except neighbours in
// a ring at their shared point. Candidate pairs come from a bucket grid
// that lists each segment in the buckets it passes through, so the cost is
// about linear for evenly spread input. Of several faults, it reports the
// pair first in input order.
func (in *polyIn) checkSegments() error {
	var segs []seg
	bx := box{in.verts[0], in.verts[0]}
	for ri, r := range in.rings {
		for j := range r.n {
			a, b := in.point(ri, j), in.point(ri, j+1)
			segs = append(segs, seg{ring: int32(ri), i: j})
			bx = bx.grow(a)
			// Neighbours overlap only where the ring turns back.
			c := in.point(ri, j+2)
			if orient(a, b, c) == 0 && sameSide(a, b, c) {
				i1, i2 := j, (j+1)%r.n
				if i2 < i1 {
					i1, i2 = i2, i1
				}
				return in.meetError(ri, i1, ri, i2, meetOverlap, b, closer(b, a, c))
			}
		}
	}
	g := newBuckets(bx, len(segs))
	mg := margin(g.step, bx.mag())
	ends := func(s seg) (mgl64.Vec2, mgl64.Vec2) { return in.point(int(s.ring), s.i), in.point(int(s.ring), s.i+1) }
	g.fill(func(emit func(int, int32)) {
		for k, s := range segs {
			a, b := ends(s)
			g.segment(a, b, mg, func(c int) { emit(c, int32(k)) })
		}
	})
	stamp := make([]int32, len(segs))
	for k := range stamp {
		stamp[k] = -1
	}
	for k, s := range segs {
		a, b := ends(s)
		n := in.rings[s.ring].n
		best, bestKind := int32(-1), meetNone
		var bestP, bestQ mgl64.Vec2
		g.segment(a, b, mg, func(c int) {
			for _, t := range g.items[g.start[c]:g.start[c+1]] {
				if t <= int32(k) || stamp[t] == int32(k) || (best >= 0 && t > best) {
					continue
				}
				stamp[t] = int32(k)
				u := segs[t]
				if u.ring == s.ring && ((u.i+1)%n == s.i || (s.i+1)%n == u.i) {
					continue // neighbours, checked above
				}
				c, d := ends(u)
				if kind, p, q := meet(a, b, c, d); kind != meetNone {
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

// Ways two segments meet.
const (
	meetNone    = iota
	meetCross   // at a single point inside both
	meetTouch   // at a single point, an end of one or both
	meetOverlap // along a collinear piece of positive length
)

// meet classifies how segments a–b and c–d meet, exactly, and where: at p,
// or along p–q for an overlap.
func meet(a, b, c, d mgl64.Vec2) (kind int, p, q mgl64.Vec2) {
	o1, o2 := orient(c, d, a), orient(c, d, b)
	o3, o4 := orient(a, b, c), orient(a, b, d)
	if o1*o2 > 0 || o3*o4 > 0 {
		return meetNone, p, q
	}
	if o1 == 0 && o2 == 0 && o3 == 0 && o4 == 0 {
		// Collinear: compare positions along the line, by x unless the
		// line is vertical.
		ax := 0
		if a[0] == b[0] && c[0] == d[0] {
			ax = 1
		}
		lo1, hi1 := a, b
		if lo1[ax] > hi1[ax] {
			lo1, hi1 = hi1, lo1
		}
		lo2, hi2 := c, d
		if lo2[ax] > hi2[ax] {
			lo2, hi2 = hi2, lo2
		}
		lo, hi := lo1, hi1
		if lo2[ax] > lo[ax] {
			lo = lo2
		}
		if hi2[ax] < hi[ax] {
			hi = hi2
		}
		switch {
		case lo[ax] > hi[ax]:
			return meetNone, p, q
		case lo[ax] == hi[ax]:
			return meetTouch, lo, lo
		}
		return meetOverlap, lo, hi
	}
	switch {
	case o1 == 0:
		return meetTouch, a, a
	case o2 == 0:
		return meetTouch, b, b
	case o3 == 0:
		return meetTouch, c, c
	case o4 == 0:
		return meetTouch, d, d
	}
	// A proper crossing; where, to rounding.
	e, f := b.Sub(a), d.Sub(c)
	t := (c.Sub(a)[0]*f[1] - c.Sub(a)[1]*f[0]) / (e[0]*f[1] - e[1]*f[0])
	return meetCross, a.Add(e.Mul(t)), p
}

// sameSide reports whether a and c, on a line through b, are on the same
// side of b.
func sameSide(a, b, c mgl64.Vec2) bool {
	ax := 0
	if a[0] == b[0] {
		ax = 1
	}
	return (a[ax] < b[ax]) == (c[ax] < b[ax])
}

// closer returns whichever of a and c is nearer to b.
func closer(b, a, c mgl64.Vec2) mgl64.Vec2 {
	if a.Sub(b).LenSqr() < c.Sub(b).LenSqr() {
		return a
	}
	return c
}

// meetError describes segment i of ring r meeting segment j of ring s.
func (in *polyIn) meetError(r int, i int32, s int, j int32, kind int, p, q mgl64.Vec2) error {
	pi, rk := in.ids[r][0], in.ids[r][1]
	var msg string
	if r == s {
		switch kind {
		case meetCross:
			msg = fmt.Sprintf("segments %d and %d cross at %s", i, j, at(p))
		case meetTouch:
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
	case meetCross:
		msg = fmt.Sprintf("segment %d crosses %s segment %d at %s", i, other, j, at(p))
	case meetTouch:
		msg = fmt.Sprintf("segment %d touches %s segment %d at %s", i, other, j, at(p))
	default:
		msg = fmt.Sprintf("segment %d overlaps %s segment %d along %s–%s", i, other, j, at(p), at(q))
	}
	return &PolygonError{Polygon: pi, Ring: rk, Problem: msg}
}

// box is a bounding box.
type box struct{ min, max mgl64.Vec2 }

// mag returns the largest magnitude of a coordinate in b.
func (b box) mag() float64 {
	return math.Max(math.Max(math.Abs(b.min[0]), math.Abs(b.max[0])), math.Max(math.Abs(b.min[1]), math.Abs(b.max[1])))
}

func (b box) grow(p mgl64.Vec2) box {
	return box{mgl64.Vec2{math.Min(b.min[0], p[0]), math.Min(b.min[1], p[1])},
		mgl64.Vec2{math.Max(b.max[0], p[0]), math.Max(b.max[1], p[1])}}
}

func (b box) holds(p mgl64.Vec2) bool {
	return p[0] >= b.min[0] && p[0] <= b.max[0] && p[1] >= b.min[1] && p[1] <= b.max[1]
}

func (in *polyIn) box(r ringIn) box {
	b := box{in.verts[r.first], in.verts[r.first]}
	for _, v := range in.verts[r.first : r.first+r.n] {
		b.min = mgl64.Vec2{math.Min(b.min[0], v[0]), math.Min(b.min[1], v[1])}
		b.max = mgl64.Vec2{math.Max(b.max[0], v[0]), math.Max(b.max[1], v[1])}
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
			if o := orient(a, b, p); (b[1] > a[1]) == (o > 0) {
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
	boxes := make([]box, len(in.rings))
	for ri, r := range in.rings {
		boxes[ri] = in.box(r)
	}
	within := func(ri, rj int) bool {
		p := in.verts[in.rings[ri].first]
		return boxes[rj].holds(p) && in.inside(in.rings[rj], p)
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

// mesh assembles the mesh of the convex faces f.
func (in *polyIn) mesh(f faces) *Mesh {
	rings := make([][]int32, len(in.rings))
	for i, r := range in.rings {
		rings[i] = in.walk(r)
	}
	return faceMesh(in.verts, f, rings)
}

// faceMesh assembles the mesh of the convex faces f on the vertices verts,
// whose walls are rings: vertex ids with the walkable area on the left
// (y up).
func faceMesh(verts []mgl64.Vec2, f faces, rings [][]int32) *Mesh {
	m := &Mesh{verts: verts}
	nf := len(f.start) - 1
	m.polys = make([]poly, nf)
	m.ev = make([]int32, 0, len(f.verts))
	m.enb = make([]PolyID, 0, len(f.verts))
	for id := range nf {
		// Faces run counter-clockwise (y up); the package's order is
		// the reverse, whose edge j is face edge k−1−j taken backwards.
		vs, nb := f.verts[f.start[id]:f.start[id+1]], f.nb[f.start[id]:f.start[id+1]]
		k := len(vs)
		e0 := int32(len(m.ev))
		for j := range k {
			m.ev = append(m.ev, vs[(k-j)%k])
			m.enb = append(m.enb, nb[(2*k-j-1)%k])
		}
		m.polys[id] = poly{e0: e0, ne: int32(k)}
	}
	m.reflex = make([]bool, len(m.verts))
	for _, ws := range rings {
		for j, v := range ws {
			a, b := ws[(j+len(ws)-1)%len(ws)], ws[(j+1)%len(ws)]
			m.reflex[v] = orient(m.verts[a], m.verts[v], m.verts[b]) < 0
		}
	}
	m.twins()
	m.label()
	m.idx = newPolyIndex(m)
	return m
}

// Exact orientation.
//
// orient returns the sign of the cross product (b−a) × (c−a): +1 when c is
// to the left of the directed line a→b in the textbook y-up sense
// (a counter-clockwise turn), −1 to the right, 0 on the line. (With y down,
// as on screen, left and right swap; the package's cross has the same sign.)
// It is exact when no product of two coordinates overflows or underflows:
// a float64 evaluation settles almost every case, and the rest are summed
// exactly from error-free products.
func orient(a, b, c mgl64.Vec2) int {
	l := float64((b[0] - a[0]) * (c[1] - a[1]))
	r := float64((b[1] - a[1]) * (c[0] - a[0]))
	det := l - r
	bound := orientErr * (math.Abs(l) + math.Abs(r))
	switch {
	case det > bound:
		return 1
	case det < -bound:
		return -1
	}
	return orientExact(a, b, c)
}

// orientErr bounds the relative error of the float64 determinant in orient
// (Shewchuk's ccwerrboundA).
const orientErr = (3 + 16*0x1p-53) * 0x1p-53

// orientExact returns the sign of (b−a) × (c−a) computed exactly as the sum
// of six products, each split into two float64s, added into a
// non-overlapping expansion (Shewchuk 1997) whose largest part has the sign
// of the sum.
func orientExact(a, b, c mgl64.Vec2) int {
	var t [12]float64
	prods := [6][2]float64{
		{b[0], c[1]}, {-b[0], a[1]}, {-a[0], c[1]},
		{-b[1], c[0]}, {a[0], b[1]}, {a[1], c[0]},
	}
	for i, p := range prods {
		x := float64(p[0] * p[1])
		t[2*i], t[2*i+1] = x, math.FMA(p[0], p[1], -x)
	}
	var e [12]float64
	n := 0
	for _, x := range t {
		q, k := x, 0
		for _, h := range e[:n] {
			s := q + h
			bv := s - q
			err := (q - (s - bv)) + (h - bv)
			if err != 0 {
				e[k] = err
				k++
			}
			q = s
		}
		if q != 0 {
			e[k] = q
			k++
		}
		n = k
	}
	switch {
	case n == 0:
		return 0
	case e[n-1] > 0:
		return 1
	}
	return -1
}
