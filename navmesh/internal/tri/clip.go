package tri

import (
	"cmp"
	"errors"
	"math"
	"slices"

	"github.com/cairn-nav/cairn/navmesh/internal/bucket"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// clipper triangulates one polygon with holes by ear clipping. Its nodes
// form circular lists of vertices (ids into pos), with the walkable area on
// the left of each (y up); bridging a hole copies two vertices, so after
// bridging the list is a weakly simple polygon whose every position may
// appear twice.
type clipper struct {
	pos        []mgl64.Vec2
	v          []int32 // per node: its vertex
	prev, next []int32
	// The nodes of each vertex: occ[v−vlo] is the first, nextOcc[n] the
	// one after node n, −1 at the end.
	vlo     int32
	occ     []int32
	nextOcc []int32
}

var (
	errNoEar    = errors.New("triangulation failed: no ear left (this is a bug)")
	errNoBridge = errors.New("triangulation failed: no bridge to a hole (this is a bug)")
)

// clip appends to dst the triangles of polygon pg, whose rings are vertex
// ids into pos with the area on the left (y up): the outer ring
// counter-clockwise, the holes clockwise. The triangles are
// counter-clockwise and use no new vertices.
//
// Holes are joined to the outer ring one at a time, in order of their
// leftmost vertex M: a ray from M towards −x finds the nearest edge of the
// polygon so far, and the visible vertex near the hit (Eberly,
// "Triangulation by ear clipping", 2002) is joined to M by a pair of
// edges. Each bridge is checked exactly (it must leave both ends into the
// walkable area and meet no edge elsewhere); should the choice fail, the
// vertices are tried by distance from M (at once, with
// opt.BridgeByDistance). Bucket grids of the rings' edges and vertices
// keep each bridge about O(1 + h) for h holes. Ear clipping
// then cuts off, one at a time, a strictly convex vertex whose triangle
// holds no other vertex (positions equal to a corner aside), found through
// a bucket grid of the vertices: O(n) ear tests of O(1) each on evenly
// spread input, O(n²) in the worst case.
func clip(dst [][3]int32, pos []mgl64.Vec2, pg Polygon, opt Options) ([][3]int32, error) {
	outer, holes := pg.Outer, pg.Holes
	n := len(outer)
	c := &clipper{pos: pos, vlo: slices.Min(outer)}
	vhi := slices.Max(outer)
	for _, h := range holes {
		n += len(h)
		c.vlo, vhi = min(c.vlo, slices.Min(h)), max(vhi, slices.Max(h))
	}
	c.occ = make([]int32, vhi-c.vlo+1)
	for i := range c.occ {
		c.occ[i] = -1
	}
	c.v = make([]int32, 0, n+2*len(holes))
	c.prev = make([]int32, 0, n+2*len(holes))
	c.next = make([]int32, 0, n+2*len(holes))
	c.nextOcc = make([]int32, 0, n+2*len(holes))
	start := c.ring(outer)
	if len(holes) > 0 {
		if err := c.bridgeAll(start, outer, holes, opt); err != nil {
			return dst, err
		}
	}
	return c.cut(start, dst)
}

func (c *clipper) at(n int32) mgl64.Vec2 { return c.pos[c.v[n]] }

func (c *clipper) node(v int32) int32 {
	n := int32(len(c.v))
	c.v = append(c.v, v)
	c.prev = append(c.prev, n)
	c.next = append(c.next, n)
	c.nextOcc = append(c.nextOcc, c.occ[v-c.vlo])
	c.occ[v-c.vlo] = n
	return n
}

// ring makes a circular list of vs and returns its first node.
func (c *clipper) ring(vs []int32) int32 {
	first := int32(len(c.v))
	for i, v := range vs {
		n := c.node(v)
		if i > 0 {
			c.prev[n], c.next[n-1] = n-1, n
		}
	}
	last := int32(len(c.v)) - 1
	c.prev[first], c.next[last] = last, first
	return first
}

// split joins hole node m to outer node p by two edges, p → m … m′ → p′,
// where m′ and p′ are new copies: the list runs p, m, the rest of the hole,
// m′, p′, and on as before p.
func (c *clipper) split(p, m int32) {
	m2, p2 := c.node(c.v[m]), c.node(c.v[p])
	pn, mp := c.next[p], c.prev[m]
	c.next[p], c.prev[m] = m, p
	c.next[p2], c.prev[pn] = pn, p2
	c.next[m2], c.prev[p2] = p2, m2
	c.next[mp], c.prev[m2] = m2, mp
}

// bridger holds what joining holes needs: the rings' edges (vertex pairs
// in walking order) in a bucket grid, their vertices in another, which
// rings are joined to the outer ring so far, and the bridges made.
type bridger struct {
	c       *clipper
	edges   [][2]int32
	ringOf  []int32 // per edge
	vring   []int32 // per vertex−vlo: its ring
	joined  []bool  // per ring, 0 the outer ring
	bridges [][2]int32
	eg, vg  bucket.Grid
	mg      float64
	stamp   []int32 // per edge: the last check that looked at it
	check   int32
	// byDistance skips Eberly's choice (Options.BridgeByDistance).
	byDistance bool
}

// bridgeAll joins each hole to the outer ring, leftmost first.
func (c *clipper) bridgeAll(start int32, outer []int32, holes [][]int32, opt Options) error {
	b := &bridger{c: c, vring: make([]int32, len(c.occ)), joined: make([]bool, len(holes)+1), byDistance: opt.BridgeByDistance}
	b.joined[0] = true
	bx := geom.Box{Min: c.pos[outer[0]], Max: c.pos[outer[0]]}
	var verts []int32
	for k, r := range append([][]int32{outer}, holes...) {
		for i, v := range r {
			b.edges = append(b.edges, [2]int32{v, r[(i+1)%len(r)]})
			b.ringOf = append(b.ringOf, int32(k))
			b.vring[v-c.vlo] = int32(k)
			verts = append(verts, v)
			bx = bx.Grow(c.pos[v])
		}
	}
	b.eg = bucket.New(bx, len(b.edges))
	b.vg = bucket.New(bx, len(verts)/2)
	b.mg = bucket.Margin(b.eg.Step, bx.Mag())
	b.eg.Fill(func(emit func(int, int32)) {
		for e, ab := range b.edges {
			b.eg.Segment(c.pos[ab[0]], c.pos[ab[1]], b.mg, func(i int) { emit(i, int32(e)) })
		}
	})
	b.vg.Fill(func(emit func(int, int32)) {
		for _, v := range verts {
			p := c.pos[v]
			emit(b.vg.Point(p), v)
		}
	})
	b.stamp = make([]int32, len(b.edges))
	left := make([]int32, len(holes)) // per hole: its leftmost node
	for k, h := range holes {
		left[k] = c.leftmost(c.ring(h))
	}
	slices.SortFunc(left, func(x, y int32) int {
		p, q := c.at(x), c.at(y)
		if d := cmp.Compare(p[0], q[0]); d != 0 {
			return d
		}
		return cmp.Compare(p[1], q[1])
	})
	for _, m := range left {
		p := b.bridge(start, m)
		if p < 0 {
			return errNoBridge
		}
		c.split(p, m)
		b.joined[b.vring[c.v[m]-c.vlo]] = true
		b.bridges = append(b.bridges, [2]int32{c.v[m], c.v[p]})
	}
	return nil
}

// leftmost returns the node of least x, then least y, in first's list.
func (c *clipper) leftmost(first int32) int32 {
	best := first
	for n := c.next[first]; n != first; n = c.next[n] {
		if p, q := c.at(n), c.at(best); p[0] < q[0] || (p[0] == q[0] && p[1] < q[1]) {
			best = n
		}
	}
	return best
}

// bridge returns a node of the list from start that hole node m can be
// joined to, or −1.
func (b *bridger) bridge(start, m int32) int32 {
	c := b.c
	if p := b.eberly(m); !b.byDistance && p >= 0 && b.visible(m, p) {
		return p
	}
	var cands []int32
	for n := start; ; {
		cands = append(cands, n)
		if n = c.next[n]; n == start {
			break
		}
	}
	pm := c.at(m)
	slices.SortStableFunc(cands, func(x, y int32) int {
		return cmp.Compare(c.at(x).Sub(pm).LenSqr(), c.at(y).Sub(pm).LenSqr())
	})
	for _, p := range cands {
		if b.visible(m, p) {
			return p
		}
	}
	return -1
}

// eberly returns the node that Eberly's method picks for hole node m, or
// −1: cast a ray from m towards −x, take the nearest edge of the polygon so
// far that it hits and the end of it nearer the ray's direction, or, when
// vertices lie in the triangle between m, the hit and that end, the one of
// them at the least angle to the ray. The choice is made in floating point
// and checked after.
func (b *bridger) eberly(m int32) int32 {
	c := b.c
	h := c.at(m)
	qx, cand := math.Inf(-1), int32(-1)
	hit := func(u, v int32) {
		a, e := c.pos[u], c.pos[v]
		// Edges running down (y up) have the walkable area on their +x
		// side, facing m.
		if h[1] <= a[1] && h[1] >= e[1] && e[1] != a[1] {
			x := a[0] + (h[1]-a[1])*(e[0]-a[0])/(e[1]-a[1])
			if x <= h[0] && x > qx {
				qx, cand = x, u
				if e[0] < a[0] {
					cand = v
				}
			}
		}
	}
	row := b.eg.Row(h[1])
	for col := b.eg.Col(h[0]); col >= 0; col-- {
		if b.eg.Scale[0] > 0 && qx > b.eg.Min[0]+float64(col+1)/b.eg.Scale[0]+b.mg {
			break // no edge further left is nearer
		}
		for _, e := range b.eg.Cell(col, row) {
			if b.joined[b.ringOf[e]] {
				hit(b.edges[e][0], b.edges[e][1])
			}
		}
	}
	for _, br := range b.bridges {
		hit(br[0], br[1])
		hit(br[1], br[0])
	}
	if cand < 0 {
		return -1
	}
	if qx == h[0] {
		return b.facing(cand, h)
	}
	// Vertices in the triangle m, hit, cand may hide cand from m.
	i, p0 := mgl64.Vec2{qx, h[1]}, c.pos[cand]
	best, tanMin := cand, math.Inf(1)
	lo := mgl64.Vec2{p0[0], math.Min(p0[1], h[1])}
	hi := mgl64.Vec2{h[0], math.Max(p0[1], h[1])}
	for y := b.vg.Row(lo[1]); y <= b.vg.Row(hi[1]); y++ {
		for x := b.vg.Col(lo[0]); x <= b.vg.Col(hi[0]); x++ {
			for _, v := range b.vg.Cell(x, y) {
				q := c.pos[v]
				if !b.joined[b.vring[v-c.vlo]] || q[0] > h[0] || q[0] < p0[0] || q[0] == h[0] || !geom.InTriangle(h, i, p0, q) {
					continue
				}
				tan := math.Abs(h[1]-q[1]) / (h[0] - q[0])
				if tan < tanMin || (tan == tanMin && q[0] > c.pos[best][0]) {
					if b.facing(v, h) >= 0 {
						best, tanMin = v, tan
					}
				}
			}
		}
	}
	return b.facing(best, h)
}

// facing returns the node of vertex v from which the ray towards q starts
// into the walkable area, or −1.
func (b *bridger) facing(v int32, q mgl64.Vec2) int32 {
	for n := b.c.occ[v-b.c.vlo]; n >= 0; n = b.c.nextOcc[n] {
		if b.c.wedge(n, q) {
			return n
		}
	}
	return -1
}

// wedge reports whether the ray from node n's position towards q starts
// into the walkable area: strictly inside the angle that n's two edges
// bound on their left.
func (c *clipper) wedge(n int32, q mgl64.Vec2) bool {
	a, v, b := c.at(c.prev[n]), c.at(n), c.at(c.next[n])
	if geom.Orient(a, v, b) > 0 {
		return geom.Orient(a, v, q) > 0 && geom.Orient(v, b, q) > 0
	}
	return geom.Orient(a, v, q) > 0 || geom.Orient(v, b, q) > 0
}

// visible reports whether the segment from hole node m to node p is a
// valid bridge: leaving both into the walkable area and meeting no ring
// edge (of any ring) and no bridge except at its own ends.
func (b *bridger) visible(m, p int32) bool {
	c := b.c
	pm, pp := c.at(m), c.at(p)
	if !c.wedge(p, pm) || !c.wedge(m, pp) {
		return false
	}
	lo := mgl64.Vec2{math.Min(pm[0], pp[0]), math.Min(pm[1], pp[1])}
	hi := mgl64.Vec2{math.Max(pm[0], pp[0]), math.Max(pm[1], pp[1])}
	clear := func(u, v int32) bool {
		a, e := c.pos[u], c.pos[v]
		if (a[0] < lo[0] && e[0] < lo[0]) || (a[0] > hi[0] && e[0] > hi[0]) ||
			(a[1] < lo[1] && e[1] < lo[1]) || (a[1] > hi[1] && e[1] > hi[1]) {
			return true // their boxes are apart
		}
		kind, q, _ := geom.Meet(pm, pp, a, e)
		return kind == geom.MeetNone || (kind == geom.MeetTouch && (q == pm || q == pp) && (q == a || q == e))
	}
	b.check++
	ok := true
	b.eg.Segment(pm, pp, b.mg, func(i int) {
		for _, e := range b.eg.Bucket(i) {
			if ok && b.stamp[e] != b.check {
				b.stamp[e] = b.check
				ok = clear(b.edges[e][0], b.edges[e][1])
			}
		}
	})
	for _, br := range b.bridges {
		ok = ok && clear(br[0], br[1])
	}
	return ok
}

// cut cuts the list from start into triangles, appending them to dst.
func (c *clipper) cut(start int32, dst [][3]int32) ([][3]int32, error) {
	var nodes []int32
	bx := geom.Box{Min: c.at(start), Max: c.at(start)}
	for n := start; ; {
		nodes = append(nodes, n)
		bx = bx.Grow(c.at(n))
		if n = c.next[n]; n == start {
			break
		}
	}
	g := bucket.New(bx, len(nodes)/2)
	g.Fill(func(emit func(int, int32)) {
		for _, n := range nodes {
			emit(g.Point(c.at(n)), n)
		}
	})
	gone := make([]bool, len(c.v))
	ear, stop := start, start
	for c.prev[ear] != c.next[ear] {
		a, b := c.prev[ear], c.next[ear]
		if c.isEar(&g, gone, a, ear, b) {
			dst = append(dst, [3]int32{c.v[a], c.v[ear], c.v[b]})
			c.next[a], c.prev[b] = b, a
			gone[ear] = true
			ear = c.next[b]
			stop = ear
			continue
		}
		if ear = b; ear == stop {
			return dst, errNoEar
		}
	}
	return dst, nil
}

// isEar reports whether the triangle a, e, b can be cut off: e is strictly
// convex and no node still in the list, other than at the position of a
// corner, lies in the closed triangle.
func (c *clipper) isEar(g *bucket.Grid, gone []bool, a, e, b int32) bool {
	pa, pe, pb := c.at(a), c.at(e), c.at(b)
	if geom.Orient(pa, pe, pb) <= 0 {
		return false
	}
	lo := mgl64.Vec2{min(pa[0], pe[0], pb[0]), min(pa[1], pe[1], pb[1])}
	hi := mgl64.Vec2{max(pa[0], pe[0], pb[0]), max(pa[1], pe[1], pb[1])}
	for y := g.Row(lo[1]); y <= g.Row(hi[1]); y++ {
		for x := g.Col(lo[0]); x <= g.Col(hi[0]); x++ {
			for _, n := range g.Cell(x, y) {
				if gone[n] || n == a || n == e || n == b {
					continue
				}
				p := c.at(n)
				if p[0] < lo[0] || p[0] > hi[0] || p[1] < lo[1] || p[1] > hi[1] || p == pa || p == pe || p == pb {
					continue
				}
				if geom.Orient(pa, pe, p) >= 0 && geom.Orient(pe, pb, p) >= 0 && geom.Orient(pb, pa, p) >= 0 {
					return false
				}
			}
		}
	}
	return true
}
