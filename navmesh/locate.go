package navmesh

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// buckets is a uniform grid of buckets over a box, each listing items.
type buckets struct {
	min    mgl64.Vec2
	scale  mgl64.Vec2 // buckets per unit of length along x and y
	step   float64    // the lesser side of a bucket
	nx, ny int
	start  []int32 // bucket i lists items[start[i]:start[i+1]]
	items  []int32
}

// newBuckets returns an empty grid of about n buckets over b, their shape
// as near square as b allows.
func newBuckets(b box, n int) buckets {
	n = max(n, 1)
	w, h := b.max[0]-b.min[0], b.max[1]-b.min[1]
	nx, ny := 1, 1
	switch {
	case w > 0 && h > 0:
		nx = int(math.Round(math.Sqrt(float64(n) * w / h)))
		nx = min(max(nx, 1), n)
		ny = min(max(int(math.Ceil(float64(n)/float64(nx))), 1), n)
	case w > 0:
		nx = n
	case h > 0:
		ny = n
	}
	g := buckets{min: b.min, nx: nx, ny: ny, step: math.Inf(1)}
	if w > 0 {
		g.scale[0] = float64(nx) / w
		g.step = w / float64(nx)
	}
	if h > 0 {
		g.scale[1] = float64(ny) / h
		g.step = math.Min(g.step, h/float64(ny))
	}
	return g
}

// col and row return the bucket column and row of x and y, clamped to the
// grid. Both are monotone, so a bucket range computed from a bounding box
// holds the bucket of every point in it.
func (g *buckets) col(x float64) int {
	return min(max(int((x-g.min[0])*g.scale[0]), 0), g.nx-1)
}

func (g *buckets) row(y float64) int {
	return min(max(int((y-g.min[1])*g.scale[1]), 0), g.ny-1)
}

func (g *buckets) index(x, y int) int { return y*g.nx + x }

// cell returns the items of bucket (x, y).
func (g *buckets) cell(x, y int) []int32 {
	i := g.index(x, y)
	return g.items[g.start[i]:g.start[i+1]]
}

// margin returns a distance far above the rounding error of positions in
// a box of magnitude mag divided into buckets of side step: rasterising
// with it never misses a bucket that a segment or polygon touches.
func margin(step, mag float64) float64 {
	if math.IsInf(step, 1) {
		return 1e-12 * mag
	}
	return 1e-9*step + 1e-12*mag
}

// band returns the y range of bucket row y, grown by margin.
func (g *buckets) band(y int, margin float64) (y0, y1 float64) {
	if g.scale[1] == 0 {
		return math.Inf(-1), math.Inf(1)
	}
	return g.min[1] + float64(y)/g.scale[1] - margin, g.min[1] + float64(y+1)/g.scale[1] + margin
}

// segment calls visit with every bucket that segment a–b may pass through:
// row by row, the columns of the piece of the segment in the row's band,
// each grown by margin. A point of the segment is always in one of them.
func (g *buckets) segment(a, b mgl64.Vec2, margin float64, visit func(int)) {
	lo := mgl64.Vec2{math.Min(a[0], b[0]), math.Min(a[1], b[1])}
	hi := mgl64.Vec2{math.Max(a[0], b[0]), math.Max(a[1], b[1])}
	for y := g.row(lo[1] - margin); y <= g.row(hi[1]+margin); y++ {
		y0, y1 := g.band(y, margin)
		y0, y1 = math.Max(y0, lo[1]), math.Min(y1, hi[1])
		x0, x1 := lo[0], hi[0]
		if a[1] != b[1] {
			s := (b[0] - a[0]) / (b[1] - a[1])
			u, v := a[0]+(y0-a[1])*s, a[0]+(y1-a[1])*s
			x0, x1 = math.Max(math.Min(u, v), lo[0]), math.Min(math.Max(u, v), hi[0])
		}
		for x := g.col(x0 - margin); x <= g.col(x1+margin); x++ {
			visit(g.index(x, y))
		}
	}
}

// fill lists the items: visit calls emit(bucket, item) for each, and is
// called twice, to count and to place.
func (g *buckets) fill(visit func(emit func(int, int32))) {
	g.start = make([]int32, g.nx*g.ny+1)
	visit(func(b int, _ int32) { g.start[b+1]++ })
	for i := 1; i < len(g.start); i++ {
		g.start[i] += g.start[i-1]
	}
	g.items = make([]int32, g.start[len(g.start)-1])
	at := make([]int32, g.nx*g.ny)
	copy(at, g.start)
	visit(func(b int, item int32) {
		g.items[at[b]] = item
		at[b]++
	})
}

// polyIndex locates points on a mesh built from polygons: a bucket grid
// over the mesh's bounding box, about one bucket per polygon, each listing
// the polygons that overlap it. A point is then tested exactly against the
// few polygons of its bucket.
type polyIndex struct {
	buckets
	bounds box
}

func newPolyIndex(m *Mesh) *polyIndex {
	x := &polyIndex{}
	x.bounds = box{m.verts[0], m.verts[0]}
	for _, v := range m.verts {
		x.bounds.min = mgl64.Vec2{math.Min(x.bounds.min[0], v[0]), math.Min(x.bounds.min[1], v[1])}
		x.bounds.max = mgl64.Vec2{math.Max(x.bounds.max[0], v[0]), math.Max(x.bounds.max[1], v[1])}
	}
	// About one bucket per polygon; but a polygon is listed in every
	// bucket it crosses, and long thin ones (fans of slivers, from a file
	// say) can cross so many that the lists grow with the square of the
	// mesh. Then coarser grids are tried, each with a quarter of the
	// buckets, until the lists hold at most budget entries: the memory
	// stays in proportion to the mesh, and only such meshes lose speed.
	// The count stops at the budget, so that each try costs O(budget)
	// more than a pass over the edges, not the entries it would list.
	budget := 8*len(m.ev) + 1024
	for n := len(m.polys); ; n = max(n/4, 1) {
		x.buckets = newBuckets(x.bounds, n)
		total := 0
		x.visitPolys(m, func(int, int32) bool { total++; return total <= budget })
		if total <= budget || n == 1 {
			break
		}
	}
	x.fill(func(emit func(int, int32)) {
		x.visitPolys(m, func(b int, id int32) bool { emit(b, id); return true })
	})
	return x
}

// visitPolys calls emit(bucket, polygon) for each bucket each polygon of m
// overlaps (with a margin for rounding), until emit returns false.
func (x *polyIndex) visitPolys(m *Mesh, emit func(int, int32) bool) {
	mg := margin(x.step, x.bounds.mag())
	for id, p := range m.polys {
		// Row by row, the columns of the polygon's piece in the
		// row's band: its vertices there and its edges' crossings
		// of the band's limits.
		vs := m.ev[p.e0 : p.e0+p.ne]
		lo, hi := m.verts[vs[0]][1], m.verts[vs[0]][1]
		for _, v := range vs {
			lo, hi = math.Min(lo, m.verts[v][1]), math.Max(hi, m.verts[v][1])
		}
		for by := x.row(lo - mg); by <= x.row(hi+mg); by++ {
			y0, y1 := x.band(by, mg)
			x0, x1 := math.Inf(1), math.Inf(-1)
			for i := range p.ne {
				a, b := m.edge(p, i)
				if a[1] >= y0 && a[1] <= y1 {
					x0, x1 = math.Min(x0, a[0]), math.Max(x1, a[0])
				}
				for _, y := range [2]float64{y0, y1} {
					if (a[1] < y) != (b[1] < y) {
						c := a[0] + (y-a[1])*(b[0]-a[0])/(b[1]-a[1])
						x0, x1 = math.Min(x0, c), math.Max(x1, c)
					}
				}
			}
			if x0 > x1 {
				continue
			}
			for bx := x.col(x0 - mg); bx <= x.col(x1+mg); bx++ {
				if !emit(x.index(bx, by), int32(id)) {
					return
				}
			}
		}
	}
}

// contains reports, exactly, whether polygon id holds p (edges included).
func (m *Mesh) contains(id PolyID, p mgl64.Vec2) bool {
	q := m.polys[id]
	for i := range q.ne {
		if a, b := m.edge(q, i); orient(a, b, p) > 0 {
			return false
		}
	}
	return true
}

// appendAround appends the polygons that hold p to dst.
func (x *polyIndex) appendAround(m *Mesh, dst []PolyID, p mgl64.Vec2) []PolyID {
	if !x.bounds.holds(p) {
		return dst // also NaN
	}
	for _, id := range x.cell(x.col(p[0]), x.row(p[1])) {
		if m.contains(PolyID(id), p) {
			dst = append(dst, PolyID(id))
		}
	}
	return dst
}

// locate returns a polygon that holds p.
func (x *polyIndex) locate(m *Mesh, p mgl64.Vec2) (PolyID, bool) {
	if !x.bounds.holds(p) {
		return -1, false
	}
	for _, id := range x.cell(x.col(p[0]), x.row(p[1])) {
		if m.contains(PolyID(id), p) {
			return PolyID(id), true
		}
	}
	return -1, false
}

// nearest returns the polygon nearest to p, which is off the mesh, and
// its point nearest to p, searching rings of buckets round the bucket of
// p's projection q onto the bounding box. Projection onto a convex set
// does not lengthen distances, so a bucket r rings away holds no point
// nearer p than (r−1)·step.
func (x *polyIndex) nearest(m *Mesh, p mgl64.Vec2) (PolyID, mgl64.Vec2) {
	q := mgl64.Vec2{
		math.Min(math.Max(p[0], x.bounds.min[0]), x.bounds.max[0]),
		math.Min(math.Max(p[1], x.bounds.min[1]), x.bounds.max[1]),
	}
	cx, cy := x.col(q[0]), x.row(q[1])
	best, bestID, bestAt := math.Inf(1), PolyID(-1), p
	try := func(bx, by int) {
		if bx < 0 || by < 0 || bx >= x.nx || by >= x.ny {
			return
		}
		for _, id := range x.cell(bx, by) {
			at := m.closest(PolyID(id), p)
			if d := dist(at, p); d < best || bestID < 0 {
				best, bestID, bestAt = d, PolyID(id), at
			}
		}
	}
	for r := 0; r <= max(x.nx, x.ny) && float64(r-1)*x.step < best; r++ {
		if r == 0 {
			try(cx, cy)
			continue
		}
		for bx := cx - r; bx <= cx+r; bx++ {
			try(bx, cy-r)
			try(bx, cy+r)
		}
		for by := cy - r + 1; by < cy+r; by++ {
			try(cx-r, by)
			try(cx+r, by)
		}
	}
	return bestID, bestAt
}

// closest returns the point of polygon id nearest to p, to rounding.
func (m *Mesh) closest(id PolyID, p mgl64.Vec2) mgl64.Vec2 {
	if m.contains(id, p) {
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
		if e := dist(c, p); e < best {
			best, bestAt = e, c
		}
	}
	return bestAt
}
