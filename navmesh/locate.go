package navmesh

import (
	"math"

	"github.com/cairn-nav/cairn/navmesh/internal/bucket"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// locator finds the polygons of a mesh that hold a point, for Locate,
// appendAround and Nearest: the cell index of a mesh of rectangles, or the
// polygon index of a mesh of convex polygons. Its methods take the mesh
// they index, do not allocate, and are safe for concurrent use.
type locator interface {
	// around returns the first polygon that holds p at or after position
	// from of the locator's candidates for p, and the position to go on
	// from; −1 when there is none. From position 0 on, it lists each
	// polygon that holds p once. (A cursor rather than a slice to append
	// to: a slice passed through an interface escapes to the heap, and
	// Raycast's buffer is on its stack.)
	around(m *Mesh, p mgl64.Vec2, from int) (PolyID, int)
	// nearest returns the polygon nearest to p, which is off the mesh, and
	// its point nearest to p. The mesh has a polygon, and p no NaN.
	nearest(m *Mesh, p mgl64.Vec2) (PolyID, mgl64.Vec2)
	// bounds returns a box that holds the mesh.
	bounds() geom.Box
}

// cellIndex locates points on a mesh of rectangles cut from a grid of w×h
// cells: the polygon covering each cell, −1 for blocked cells, in
// row-major order.
type cellIndex struct {
	w, h int
	cell []PolyID
}

// newCellIndex returns the index of a w×h grid with no cell covered.
func newCellIndex(w, h int) *cellIndex {
	c := &cellIndex{w: w, h: h, cell: make([]PolyID, w*h)}
	for i := range c.cell {
		c.cell[i] = -1
	}
	return c
}

// poly returns the polygon covering cell (x, y), or −1.
func (c *cellIndex) poly(x, y int) PolyID {
	if uint(x) >= uint(c.w) || uint(y) >= uint(c.h) {
		return -1
	}
	return c.cell[y*c.w+x]
}

// holding returns the distinct polygons that contain p: those of the cells
// whose closed squares hold p, at most four.
func (c *cellIndex) holding(p mgl64.Vec2) (ps [4]PolyID, n int) {
	x, y := p[0], p[1]
	if !(x >= 0 && y >= 0 && x <= float64(c.w) && y <= float64(c.h)) {
		return ps, 0 // also NaN
	}
	cx, cy := int(x), int(y)
	// A point on a cell's left or top edge also touches the cell before.
	onX, onY := float64(cx) == x, float64(cy) == y
cells:
	for _, d := range [4][2]int{{0, 0}, {-1, 0}, {0, -1}, {-1, -1}} {
		if (d[0] != 0 && !onX) || (d[1] != 0 && !onY) {
			continue
		}
		id := c.poly(cx+d[0], cy+d[1])
		if id < 0 {
			continue
		}
		for _, q := range ps[:n] {
			if q == id {
				continue cells
			}
		}
		ps[n] = id
		n++
	}
	return ps, n
}

// around returns polygon from of those that hold p, and from+1; −1 when
// there is none.
func (c *cellIndex) around(_ *Mesh, p mgl64.Vec2, from int) (PolyID, int) {
	ps, n := c.holding(p)
	if from >= n {
		return -1, n
	}
	return ps[from], from + 1
}

func (c *cellIndex) bounds() geom.Box {
	return geom.Box{Max: mgl64.Vec2{float64(c.w), float64(c.h)}}
}

// nearest searches rings of cells round the cell under p's projection q
// onto the grid's rectangle. Projection onto a convex set does not
// lengthen distances, so every cell r rings away is at least r−1 from q,
// hence from p.
func (c *cellIndex) nearest(_ *Mesh, p mgl64.Vec2) (PolyID, mgl64.Vec2) {
	cx := min(max(int(math.Floor(math.Min(p[0], float64(c.w)))), 0), c.w-1)
	cy := min(max(int(math.Floor(math.Min(p[1], float64(c.h)))), 0), c.h-1)
	best, bestID, bestAt := math.Inf(1), PolyID(-1), p
	try := func(x, y int) {
		id := c.poly(x, y)
		if id < 0 {
			return
		}
		q := mgl64.Vec2{
			math.Min(math.Max(p[0], float64(x)), float64(x+1)),
			math.Min(math.Max(p[1], float64(y)), float64(y+1)),
		}
		if d := q.Sub(p).Len(); d < best || bestID < 0 {
			best, bestID, bestAt = d, id, q
		}
	}
	spiral(cx, cy, max(c.w, c.h), func(r int) bool { return float64(r-1) < best }, try)
	return bestID, bestAt
}

// spiral calls try with the cells of the square rings round cell (cx, cy),
// ring by ring from ring 0, the cell itself, to ring n, for as long as
// more(r) holds for the ring r to come.
func spiral(cx, cy, n int, more func(r int) bool, try func(x, y int)) {
	for r := 0; r <= n && more(r); r++ {
		if r == 0 {
			try(cx, cy)
			continue
		}
		for x := cx - r; x <= cx+r; x++ {
			try(x, cy-r)
			try(x, cy+r)
		}
		for y := cy - r + 1; y < cy+r; y++ {
			try(cx-r, y)
			try(cx+r, y)
		}
	}
}

// polyIndex locates points on a mesh of convex polygons: a bucket grid
// over the mesh's bounding box, about one bucket per polygon, each listing
// the polygons that overlap it. A point is then tested exactly against the
// few polygons of its bucket.
type polyIndex struct {
	bucket.Grid
	box geom.Box
}

func newPolyIndex(m *Mesh) *polyIndex {
	x := &polyIndex{}
	x.box = geom.Box{Min: m.verts[0], Max: m.verts[0]}
	for _, v := range m.verts {
		x.box = x.box.Grow(v)
	}
	// About one bucket per polygon; but a polygon is listed in every
	// bucket it crosses, and long thin ones (fans of slivers, from a file
	// say) can cross so many that the lists grow with the square of the
	// mesh. Then coarser grids are tried, each with a quarter of the
	// buckets, until the lists hold at most budget entries: the memory
	// stays in proportion to the mesh, and only such meshes lose speed.
	// The count stops at the budget, so that each try costs O(budget)
	// more than a pass over the edges, not the entries it would list, and
	// the count that passes is the first of the fill's two passes.
	budget := 8*len(m.ev) + 1024
	for n := len(m.polys); ; n = max(n/4, 1) {
		x.Grid = bucket.New(x.box, n)
		if n == 1 {
			budget = math.MaxInt
		}
		if x.FillWithin(budget, func(emit func(int, int32) bool) { x.visitPolys(m, emit) }) {
			return x
		}
	}
}

// visitPolys calls emit(bucket, polygon) for each bucket each polygon of m
// overlaps (with a margin for rounding), until emit returns false.
func (x *polyIndex) visitPolys(m *Mesh, emit func(int, int32) bool) {
	var buf []mgl64.Vec2
	for id, p := range m.polys {
		buf = buf[:0]
		for _, v := range m.ev[p.e0 : p.e0+p.ne] {
			buf = append(buf, m.verts[v])
		}
		if !x.visitPoly(buf, func(b int) bool { return emit(b, int32(id)) }) {
			return
		}
	}
}

// visitPoly calls emit(bucket) for each bucket that the convex polygon of
// vertices vs overlaps (with a margin for rounding), in row-major order,
// until emit returns false; it reports whether emit never did.
func (x *polyIndex) visitPoly(vs []mgl64.Vec2, emit func(int) bool) bool {
	mg := bucket.Margin(x.Step, x.box.Mag())
	// Row by row, the columns of the polygon's piece in the row's band:
	// its vertices there and its edges' crossings of the band's limits.
	lo, hi := vs[0][1], vs[0][1]
	for _, v := range vs {
		lo, hi = min(lo, v[1]), max(hi, v[1])
	}
	for by := x.Row(lo - mg); by <= x.Row(hi+mg); by++ {
		y0, y1 := x.Band(by, mg)
		x0, x1 := math.Inf(1), math.Inf(-1)
		for i, a := range vs {
			b := vs[(i+1)%len(vs)]
			if a[1] >= y0 && a[1] <= y1 {
				x0, x1 = min(x0, a[0]), max(x1, a[0])
			}
			for _, y := range [2]float64{y0, y1} {
				if (a[1] < y) != (b[1] < y) {
					c := a[0] + (y-a[1])*(b[0]-a[0])/(b[1]-a[1])
					x0, x1 = min(x0, c), max(x1, c)
				}
			}
		}
		if x0 > x1 {
			continue
		}
		for bx := x.Col(x0 - mg); bx <= x.Col(x1+mg); bx++ {
			if !emit(x.Index(bx, by)) {
				return false
			}
		}
	}
	return true
}

// Contains reports, exactly, whether polygon id holds p, its edges and
// corners included: no edge has p strictly on its outer side, by exact
// orientation signs. It panics if id is not a polygon of m.
func (m *Mesh) Contains(id PolyID, p mgl64.Vec2) bool {
	q := m.polys[id]
	for i := range q.ne {
		if a, b := m.edge(q, i); geom.Orient(a, b, p) > 0 {
			return false
		}
	}
	return true
}

// ContainsInterior reports, exactly, whether p lies in the interior of
// polygon id: strictly on the inner side of every edge (of positive
// length). It panics if id is not a polygon of m.
func (m *Mesh) ContainsInterior(id PolyID, p mgl64.Vec2) bool {
	q := m.polys[id]
	for i := range q.ne {
		if a, b := m.edge(q, i); a != b && geom.Orient(a, b, p) >= 0 {
			return false
		}
	}
	return true
}

// around returns the first polygon at or after position from of p's
// bucket that holds p, and the position after it; −1 when there is none.
func (x *polyIndex) around(m *Mesh, p mgl64.Vec2, from int) (PolyID, int) {
	if !x.box.Holds(p) {
		return -1, 0 // also NaN
	}
	ids := x.Bucket(x.Point(p))
	for i := from; i < len(ids); i++ {
		if m.Contains(PolyID(ids[i]), p) {
			return PolyID(ids[i]), i + 1
		}
	}
	return -1, len(ids)
}

// bounds returns the bounding box of the mesh's vertices.
func (x *polyIndex) bounds() geom.Box { return x.box }

// nearest returns the polygon nearest to p, which is off the mesh, and
// its point nearest to p, searching rings of buckets round the bucket of
// p's projection q onto the bounding box. Projection onto a convex set
// does not lengthen distances, so a bucket r rings away holds no point
// nearer p than (r−1)·step.
func (x *polyIndex) nearest(m *Mesh, p mgl64.Vec2) (PolyID, mgl64.Vec2) {
	q := mgl64.Vec2{
		math.Min(math.Max(p[0], x.box.Min[0]), x.box.Max[0]),
		math.Min(math.Max(p[1], x.box.Min[1]), x.box.Max[1]),
	}
	cx, cy := x.Col(q[0]), x.Row(q[1])
	best, bestID, bestAt := math.Inf(1), PolyID(-1), p
	try := func(bx, by int) {
		if bx < 0 || by < 0 || bx >= x.NX || by >= x.NY {
			return
		}
		for _, id := range x.Cell(bx, by) {
			at := m.closest(PolyID(id), p)
			if d := geom.Dist(at, p); d < best || bestID < 0 {
				best, bestID, bestAt = d, PolyID(id), at
			}
		}
	}
	spiral(cx, cy, max(x.NX, x.NY), func(r int) bool { return float64(r-1)*x.Step < best }, try)
	return bestID, bestAt
}

// closest returns the point of polygon id nearest to p, to rounding.
func (m *Mesh) closest(id PolyID, p mgl64.Vec2) mgl64.Vec2 {
	if m.Contains(id, p) {
		return p
	}
	q := m.polys[id]
	best, bestAt := math.Inf(1), p
	for i := range q.ne {
		a, b := m.edge(q, i)
		d := b.Sub(a)
		t := p.Sub(a).Dot(d) / d.Dot(d)
		if math.IsNaN(t) {
			t = 0 // p is infinitely far
		}
		t = math.Min(math.Max(t, 0), 1)
		c := a.Add(d.Mul(t))
		if t == 1 {
			c = b
		}
		if e := geom.Dist(c, p); e < best {
			best, bestAt = e, c
		}
	}
	return bestAt
}
