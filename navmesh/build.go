package navmesh

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"

	"github.com/cairn-nav/cairn/grid"
	"github.com/go-gl/mathgl/mgl64"
)

// Options tunes how a mesh is built. The zero value is a mesh of convex
// polygons for a point agent.
type Options struct {
	// Radius is the agent's radius: the mesh keeps only the cells every
	// point of which is at least Radius from every blocked cell and from the
	// map's edge, so paths keep that distance from walls (see erode; for
	// [FromPolygons], from the input's rings, see there). 0 is a point
	// agent; negative, NaN or infinite values are an error.
	Radius float64
	// CellSize is, for [FromPolygons] with a Radius above 0, the side of
	// the square cells the walkable area is rasterized into before it is
	// eroded (see FromPolygons), rounded down to a power of two; 0 means
	// Radius/2. Smaller cells keep more of the narrow passages and cost
	// more: the area may span at most 2²⁴ cells. FromGrid ignores it.
	CellSize float64
	// Rectangles makes [FromGrid] stop at its first step and return the
	// rectangles of cells (see the package documentation): built in a
	// third of the time, with point location by a cell lookup, but
	// searched several times more slowly, as a path crosses many more
	// polygons. FromPolygons ignores it.
	Rectangles bool
}

// rect is a rectangle of cells [x0, x1) × [y0, y1).
type rect struct{ x0, y0, x1, y1 int32 }

// FromGrid builds the mesh of the free cells of g (see the package
// documentation): rectangles of whole cells, cut into triangles, made
// constrained Delaunay and merged into convex polygons, whose corners are
// grid corners on the walls. It ignores g's connectivity and terrain costs:
// every free cell is walkable at unit cost, and the paths are any-angle.
// It costs O(width·height) time and memory for the rectangles, and for the
// convex polygons O(n log n) more in the n rectangle corners (plus the
// Delaunay flips, linear on typical maps); BenchmarkFromGrid measures it on
// Moving AI maps.
func FromGrid(g *grid.Grid, opt Options) (*Mesh, error) {
	if g == nil {
		return nil, errors.New("navmesh: nil grid")
	}
	if opt.Radius != 0 {
		var err error
		if g, err = erode(g, opt.Radius); err != nil {
			return nil, err
		}
	}
	w, h := g.Width(), g.Height()
	if (w+1)*(h+1) > math.MaxInt32 {
		return nil, fmt.Errorf("navmesh: grid of %d×%d cells is too large", w, h)
	}
	m := rectangles(g)
	if opt.Rectangles {
		m.finishRects()
		return m, nil
	}
	return m.convex(), nil
}

// rectangles cuts the free cells of g into rectangles: the cell index, the
// polygons, their vertices and their edges with the polygon across each
// (see finishRects for the rest).
func rectangles(g *grid.Grid) *Mesh {
	w, h := g.Width(), g.Height()
	rects := decompose(g)
	m := &Mesh{w: w, h: h, cell: make([]PolyID, w*h)}
	for i := range m.cell {
		m.cell[i] = -1
	}
	for i, r := range rects {
		for y := r.y0; y < r.y1; y++ {
			row := m.cell[int(y)*w:]
			for x := r.x0; x < r.x1; x++ {
				row[x] = PolyID(i)
			}
		}
	}
	b := builder{m: m, vid: make([]int32, (w+1)*(h+1))}
	for i := range b.vid {
		b.vid[i] = -1
	}
	m.polys = make([]poly, len(rects))
	// Room for the usual counts, so that the slices rarely grow: about 4
	// corners and 6 edges a rectangle on game maps.
	m.verts = make([]mgl64.Vec2, 0, 4*len(rects)+4)
	m.ev = make([]int32, 0, 6*len(rects))
	m.enb = make([]PolyID, 0, 6*len(rects))
	for i, r := range rects {
		b.rectangle(PolyID(i), r)
	}
	return m
}

// finishRects makes the rectangle mesh m ready for queries: its corner
// flags, twins, components and bridges. The convex mesh made from it needs
// none of them.
func (m *Mesh) finishRects() {
	m.reflex = make([]bool, len(m.verts))
	for i, v := range m.verts {
		m.reflex[i] = m.gridCorner(v)
	}
	m.twins()
	m.label()
}

// gridCorner reports whether grid corner v of a mesh with a cell index is
// a convex corner of the walls: exactly one of the four cells round it is
// blocked (or off the map).
func (m *Mesh) gridCorner(v mgl64.Vec2) bool {
	x, y := int(v[0]), int(v[1])
	blocked := 0
	for _, c := range [4][2]int{{x - 1, y - 1}, {x, y - 1}, {x - 1, y}, {x, y}} {
		if !m.walkableAt(c[0], c[1]) {
			blocked++
		}
	}
	return blocked == 1
}

// walkableAt reports whether cell (x, y) of a mesh built from a grid is
// covered by the mesh; cells off the map are not.
func (m *Mesh) walkableAt(x, y int) bool {
	if uint(x) >= uint(m.w) || uint(y) >= uint(m.h) {
		return false
	}
	return m.walkable(y*m.w + x)
}

// steps are the four directions along cell sides, in screen terms: +x, +y,
// −x, −y.
var steps = [4][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}

// convex returns the mesh of convex polygons made from the rectangle mesh
// m: each rectangle (with the corners of its neighbours on its sides) cut
// into triangles, the triangles flipped into the constrained Delaunay
// triangulation of the rectangles' corners, and merged by Hertel and
// Mehlhorn's method. The corners all lie on the walls, so no vertex is
// left in the open, and the walls are m's. The new mesh keeps m's grid
// size and walkable cells, but locates points as a mesh from polygons does.
func (m *Mesh) convex() *Mesh {
	if len(m.polys) == 0 {
		m.finishRects()
		return m // no free cells
	}
	tris, adj := m.delaunay()
	c := faceMesh(m.verts, mergeConvex(m.verts, tris, adj), nil)
	c.w, c.h = m.w, m.h
	c.walk = make([]uint64, (len(m.cell)+63)/64)
	for i, id := range m.cell {
		if id >= 0 {
			c.walk[i/64] |= 1 << (i % 64)
		}
	}
	for i, v := range c.verts {
		c.reflex[i] = c.gridCorner(v)
	}
	return c
}

// delaunay returns the triangles of the rectangle mesh m, flipped into the
// constrained Delaunay triangulation of its corners, and their neighbours.
func (m *Mesh) delaunay() ([][3]int32, []int32) {
	ntri := 0
	for _, p := range m.polys {
		ntri += int(p.ne) - 2
	}
	tris := make([][3]int32, 0, ntri)
	var vs []int32
	for _, p := range m.polys {
		// The package's order is clockwise (y up); triangles are made
		// counter-clockwise.
		vs = append(vs[:0], m.ev[p.e0:p.e0+p.ne]...)
		slices.Reverse(vs)
		tris = stripRect(m.verts, vs, tris)
	}
	adj := triangleNeighbors(len(m.verts), tris)
	delaunayInt(m.verts, tris, adj)
	return tris, adj
}

// stripRect appends the triangles of an axis-aligned rectangle to dst: vs
// are its corners and the points along its sides, counter-clockwise (y up).
// It zig-zags between the two chains of sides from one corner to the
// opposite one, at each step taking the shorter of the two diagonals that
// it may, so the strip is already close to Delaunay and the flips after it
// are few. No triangle is flat: a chain's next point is never on the line
// of the other chain's current side but at the two shared corners, where
// the first and last triangles are taken as a pair of perpendicular sides
// allows. It costs O(k) for k points, where cutting ears from the convex
// polygon cost O(k²) and left a fan that O(k²) flips had to undo.
func stripRect(pos []mgl64.Vec2, vs []int32, dst [][3]int32) [][3]int32 {
	k := len(vs)
	lo, hi := pos[vs[0]], pos[vs[0]]
	for _, v := range vs {
		lo = mgl64.Vec2{math.Min(lo[0], pos[v][0]), math.Min(lo[1], pos[v][1])}
		hi = mgl64.Vec2{math.Max(hi[0], pos[v][0]), math.Max(hi[1], pos[v][1])}
	}
	s, e := slices.IndexFunc(vs, func(v int32) bool { return pos[v] == lo }), slices.IndexFunc(vs, func(v int32) bool { return pos[v] == hi })
	if s < 0 || e < 0 {
		panic("navmesh: a rectangle without its corners") // cannot happen
	}
	// Two chains from corner lo to corner hi: forward and backward in vs.
	n1, n2 := (e-s+k)%k+1, (s-e+k)%k+1
	c1 := func(i int) int32 { return vs[(s+i)%k] }
	c2 := func(j int) int32 { return vs[(s-j+k)%k] }
	tri := func(a, b, c int32) [3]int32 {
		switch o := orient(pos[a], pos[b], pos[c]); {
		case o > 0:
			return [3]int32{a, b, c}
		case o < 0:
			return [3]int32{a, c, b}
		}
		panic("navmesh: a flat triangle in a rectangle") // cannot happen
	}
	dst = append(dst, tri(c1(0), c1(1), c2(1)))
	i, j := 1, 1
	for i < n1-2 || j < n2-2 {
		// Neither chain may reach hi before the other is one short of it.
		p := i < n1-2
		if p && j < n2-2 {
			p = dist(pos[c1(i+1)], pos[c2(j)]) <= dist(pos[c1(i)], pos[c2(j+1)])
		}
		if p {
			dst = append(dst, tri(c1(i), c1(i+1), c2(j)))
			i++
		} else {
			dst = append(dst, tri(c1(i), c2(j), c2(j+1)))
			j++
		}
	}
	return append(dst, tri(c1(i), c2(j), c1(n1-1)))
}

// decompose cuts the free cells of g into rectangles: each row's maximal
// runs of free cells, each grown down while the next row has the same run.
// Rectangles come out sorted by top row, then by column.
func decompose(g *grid.Grid) []rect {
	w, h := g.Width(), g.Height()
	var rects []rect
	var open, next []int32 // rectangles reaching the row above, by column
	for y := range h {
		next = next[:0]
		k := 0
		for x := 0; x < w; {
			if !g.Passable(image.Pt(x, y)) {
				x++
				continue
			}
			x0 := x
			for x < w && g.Passable(image.Pt(x, y)) {
				x++
			}
			for k < len(open) && rects[open[k]].x0 < int32(x0) {
				k++
			}
			if k < len(open) && rects[open[k]].x0 == int32(x0) && rects[open[k]].x1 == int32(x) {
				rects[open[k]].y1 = int32(y + 1)
				next = append(next, open[k])
				continue
			}
			next = append(next, int32(len(rects)))
			rects = append(rects, rect{int32(x0), int32(y), int32(x), int32(y + 1)})
		}
		open, next = next, open
	}
	return rects
}

type builder struct {
	m   *Mesh
	vid []int32 // per grid corner: its vertex, or −1
}

// vertex returns the vertex at grid corner (x, y), adding it if new.
func (b *builder) vertex(x, y int32) int32 {
	i := int(y)*(b.m.w+1) + int(x)
	if b.vid[i] < 0 {
		b.vid[i] = int32(len(b.m.verts))
		b.m.verts = append(b.m.verts, mgl64.Vec2{float64(x), float64(y)})
	}
	return b.vid[i]
}

// rectangle adds the edges of rectangle r, polygon id: counter-clockwise on
// screen (down the west side, east along the south side, up the east side,
// west along the north side), with a vertex wherever the polygon across the
// side changes.
func (b *builder) rectangle(id PolyID, r rect) {
	m := b.m
	e0 := int32(len(m.ev))
	add := func(x, y int32, nb PolyID) {
		m.ev = append(m.ev, b.vertex(x, y))
		m.enb = append(m.enb, nb)
	}
	for y := r.y0; y < r.y1; {
		nb, y0 := m.cellPoly(int(r.x0)-1, int(y)), y
		for y < r.y1 && m.cellPoly(int(r.x0)-1, int(y)) == nb {
			y++
		}
		add(r.x0, y0, nb)
	}
	for x := r.x0; x < r.x1; {
		nb, x0 := m.cellPoly(int(x), int(r.y1)), x
		for x < r.x1 && m.cellPoly(int(x), int(r.y1)) == nb {
			x++
		}
		add(x0, r.y1, nb)
	}
	for y := r.y1; y > r.y0; {
		nb, y0 := m.cellPoly(int(r.x1), int(y)-1), y
		for y > r.y0 && m.cellPoly(int(r.x1), int(y)-1) == nb {
			y--
		}
		add(r.x1, y0, nb)
	}
	for x := r.x1; x > r.x0; {
		nb, x0 := m.cellPoly(int(x)-1, int(r.y0)-1), x
		for x > r.x0 && m.cellPoly(int(x)-1, int(r.y0)-1) == nb {
			x--
		}
		add(x0, r.y0, nb)
	}
	m.polys[id] = poly{e0: e0, ne: int32(len(m.ev)) - e0}
}

// twins finds, for every portal edge, the same edge in the polygon across.
func (m *Mesh) twins() {
	// The polygon of each edge.
	of := make([]PolyID, len(m.ev))
	for id, p := range m.polys {
		for i := range p.ne {
			of[p.e0+i] = PolyID(id)
		}
	}
	tw := pairEdges(len(m.verts), int32(len(m.ev)), func(e int32) (int32, int32) {
		p := m.polys[of[e]]
		return m.edgeIDs(p, e-p.e0)
	})
	m.etwin = make([]int32, len(m.ev))
	m.nport = 0
	for e, nb := range m.enb {
		m.etwin[e] = -1
		if nb >= 0 {
			m.etwin[e] = tw[e] - m.polys[nb].e0
			m.nport++
		}
	}
	m.nport /= 2
}

// label numbers the connected components of polygons and finds the
// bridges between them.
func (m *Mesh) label() {
	defer m.bridges()
	for i := range m.polys {
		m.polys[i].comp = -1
	}
	var stack []PolyID
	var comp int32
	for i := range m.polys {
		if m.polys[i].comp >= 0 {
			continue
		}
		m.polys[i].comp = comp
		stack = append(stack[:0], PolyID(i))
		for len(stack) > 0 {
			p := m.polys[stack[len(stack)-1]]
			stack = stack[:len(stack)-1]
			for _, nb := range m.enb[p.e0 : p.e0+p.ne] {
				if nb >= 0 && m.polys[nb].comp < 0 {
					m.polys[nb].comp = comp
					stack = append(stack, nb)
				}
			}
		}
		comp++
	}
}
