package navmesh

import (
	"fmt"
	"image"
	"math"
	"slices"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh/internal/tri"
	"github.com/go-gl/mathgl/mgl64"
)

// Options tunes how a mesh is built. The zero value is a mesh of convex
// polygons for a point agent.
type Options struct {
	// Radius is the agent's radius: the mesh keeps only the points at
	// least Radius from every blocked cell and from the map's edge, so
	// paths keep that distance from walls. [FromGrid] offsets the walls by
	// the radius on subcells of side CellSize, with lines of their own
	// where the straight walls' offsets fall, so that only the arcs round
	// the walls' corners are approximated (a door w cells wide stays open
	// for Radius < w/2 − 2⁻¹⁶, less a rounding margin of 2·10⁻¹⁵·Radius,
	// whatever CellSize), and returns a mesh of polygons whose vertices
	// are multiples of 2⁻¹⁶ (of a coarser power of two on maps over
	// 16 382 cells a side, as internal/gridcheck's lattice; with Rectangles, it
	// keeps only the whole cells every point of which is far enough: see
	// erode); [FromPolygons] offsets the input's rings on square cells,
	// whose vertices are multiples of CellSize. 0 is a point agent;
	// negative, NaN or infinite values are an error.
	Radius float64
	// CellSize is, with a Radius above 0, the side of the square subcells
	// the walkable area is rasterized into before its walls are offset,
	// rounded down to a power of two (and for FromGrid, at least 2⁻¹⁶);
	// 0 means Radius/2 for FromPolygons and Radius/4 for FromGrid. Smaller
	// cells follow the arcs round corners more closely, and so keep more
	// of the passages between corners (diagonal ones, say), and cost
	// more: the area may span at most 2²⁴ cells (FromGrid coarsens them
	// to fit, up to ½ a cell, and then has up to (1 + 2·CellSize)² times
	// as many subcells with the lines along the offsets; FromPolygons
	// refuses).
	CellSize float64
	// Rectangles makes [FromGrid] stop at its first step and return the
	// rectangles of cells (see the package documentation): built in a
	// third of the time, with point location by a cell lookup, but
	// searched several times more slowly, as a path crosses many more
	// polygons. FromPolygons ignores it.
	Rectangles bool
	// TileSize, when above 0, makes [FromGrid] cut the grid into square
	// tiles of TileSize cells, from the top left corner, and keep every
	// polygon inside one tile: none crosses the lines x = k·TileSize and
	// y = k·TileSize. Each tile is meshed from its own cells alone, so
	// that [Mesh.Update] can mesh again only the tiles an edit touches
	// (see tiles.go); the mesh has more polygons, and paths are as short.
	// 0 is one mesh for the whole grid; negative values are an error, and
	// so is a TileSize with a Radius above 0, unless with Rectangles.
	// FromPolygons ignores it.
	TileSize int
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
// Moving AI maps. It holds g's read lock ([grid.Grid.RLock]) while it reads
// g, so a [grid.Grid.SetCells] on another goroutine waits for it; the
// caller must not hold that lock itself.
func FromGrid(g *grid.Grid, opt Options) (*Mesh, error) {
	if err := checkTileSize(opt); err != nil {
		return nil, err
	}
	if g != nil {
		g.RLock() // one version of the grid throughout
		defer g.RUnlock()
	}
	if g != nil && opt.Radius > 0 && !opt.Rectangles {
		if err := checkRadius(opt.Radius); err != nil {
			return nil, err
		}
		return erodeGrid(g, opt)
	}
	g, err := erode(g, opt.Radius)
	if err != nil {
		return nil, err
	}
	w, h := g.Width(), g.Height()
	if (w+1)*(h+1) > math.MaxInt32 {
		return nil, fmt.Errorf("navmesh: grid of %d×%d cells is too large", w, h)
	}
	if opt.TileSize > 0 {
		return tiled(g, opt), nil
	}
	m := rectangles(g)
	if opt.Rectangles {
		m.finishRects()
		return m, nil
	}
	return m.convex(), nil
}

// rectangles cuts the free cells of g into rectangles: the walkable cells,
// the cell index, the polygons, their vertices and their edges with the
// polygon across each (see finishRects for the rest).
func rectangles(g *grid.Grid) *Mesh {
	rects := decompose(g, g.Bounds(), true)
	m := rectanglesOf(g, rects)
	m.area = rectAreas(g, image.Point{}, rects)
	return m
}

// rectAreas returns the area type of each of the rectangles of g's cells,
// one area each, in coordinates relative to origin, or nil when all are
// [grid.AreaGround].
func rectAreas(g *grid.Grid, origin image.Point, rects []rect) []uint8 {
	var area []uint8
	for i, r := range rects {
		a := g.Area(origin.Add(image.Pt(int(r.x0), int(r.y0))))
		if a != grid.AreaGround && area == nil {
			area = make([]uint8, len(rects))
		}
		if area != nil {
			area[i] = a
		}
	}
	return area
}

// rectanglesOf is rectangles for the given rectangles of g's free cells.
func rectanglesOf(g *grid.Grid, rects []rect) *Mesh {
	w, h := g.Width(), g.Height()
	cells := newCellIndex(w, h)
	m := &Mesh{kind: rectMesh, w: w, h: h, walk: make([]uint64, (w*h+63)/64), loc: cells}
	for i, r := range rects {
		for y := r.y0; y < r.y1; y++ {
			for x := r.x0; x < r.x1; x++ {
				k := int(y)*w + int(x)
				cells.cell[k] = PolyID(i)
				m.walk[k/64] |= 1 << (k % 64)
			}
		}
	}
	b := builder{m: m, cells: cells, vid: make([]int32, (w+1)*(h+1))}
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
	m.areaCorners()
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

// walkable reports whether cell i (row-major) of a mesh built from a grid
// is covered by the mesh.
func (m *Mesh) walkable(i int) bool {
	return m.walk[i/64]&(1<<(i%64)) != 0
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
	var f tri.Faces
	if m.area == nil {
		f = tri.Merge(m.verts, m.delaunay())
	} else {
		// Polygons keep to one area type: triangles of rectangles of
		// different areas are neither flipped nor merged into one another,
		// and are joined again afterwards.
		group := make([]int32, len(m.area))
		for i, a := range m.area {
			group[i] = int32(a)
		}
		f = tri.Merge(m.verts, tri.RectanglesApart(m.verts, m.rings(), group))
		tri.Rejoin(f, len(m.verts))
	}
	c := faceMesh(m.verts, f, nil)
	c.kind = convexGridMesh
	c.w, c.h, c.walk = m.w, m.h, m.walk
	for i, v := range c.verts {
		c.reflex[i] = c.gridCorner(v)
	}
	if m.area != nil {
		// A convex polygon's centroid lies inside it, in a cell of its own
		// area, that is of the rectangle under it.
		cells := m.loc.(*cellIndex)
		c.area = make([]uint8, len(c.polys))
		for id := range c.polys {
			p := c.centroid(PolyID(id))
			c.area[id] = m.area[cells.poly(int(p[0]), int(p[1]))]
		}
		c.areaCorners()
	}
	return c
}

// centroid returns the mean of polygon id's vertices, a point inside it.
func (m *Mesh) centroid(id PolyID) mgl64.Vec2 {
	p := m.polys[id]
	return mean(m.verts, m.ev[p.e0:p.e0+p.ne])
}

// mean returns the mean of the positions of vertices vs, one or more.
func mean(pos []mgl64.Vec2, vs []int32) mgl64.Vec2 {
	var s mgl64.Vec2
	for _, v := range vs {
		s = s.Add(pos[v])
	}
	return s.Mul(1 / float64(len(vs)))
}

// delaunay returns the triangles of the rectangle mesh m, flipped into the
// constrained Delaunay triangulation of its corners, with their neighbours.
func (m *Mesh) delaunay() tri.Triangles { return tri.Rectangles(m.verts, m.rings()) }

// rings returns the polygons of m as the triangulator's rings.
func (m *Mesh) rings() tri.Rings {
	// The package's order is clockwise (y up); the triangulator's rings
	// run counter-clockwise.
	rects := tri.Rings{Start: make([]int32, 0, len(m.polys)+1), Verts: make([]int32, 0, len(m.ev))}
	for _, p := range m.polys {
		rects.Start = append(rects.Start, int32(len(rects.Verts)))
		rects.Verts = append(rects.Verts, m.ev[p.e0:p.e0+p.ne]...)
		slices.Reverse(rects.Verts[len(rects.Verts)-int(p.ne):])
	}
	rects.Start = append(rects.Start, int32(len(rects.Verts)))
	return rects
}

// decompose cuts the free cells of g in the part b of its bounds into
// rectangles, in coordinates relative to b.Min: each row's maximal runs of
// free cells (with areas, of free cells of one area type), each grown down
// while the next row has the same run. Rectangles come out sorted by top
// row, then by column.
func decompose(g *grid.Grid, b image.Rectangle, areas bool) []rect {
	w, h := b.Dx(), b.Dy()
	free := func(x, y int) bool { return g.Passable(b.Min.Add(image.Pt(x, y))) }
	area := func(x, y int) uint8 {
		if !areas {
			return 0
		}
		return g.Area(b.Min.Add(image.Pt(x, y)))
	}
	var rects []rect
	var open, next []int32 // rectangles reaching the row above, by column
	for y := range h {
		next = next[:0]
		k := 0
		for x := 0; x < w; {
			if !free(x, y) {
				x++
				continue
			}
			x0 := x
			for x < w && free(x, y) && area(x, y) == area(x0, y) {
				x++
			}
			for k < len(open) && rects[open[k]].x0 < int32(x0) {
				k++
			}
			if k < len(open) && rects[open[k]].x0 == int32(x0) && rects[open[k]].x1 == int32(x) &&
				area(x0, y) == area(x0, int(rects[open[k]].y0)) {
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
	m     *Mesh
	cells *cellIndex
	vid   []int32 // per grid corner: its vertex, or −1
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
	m, c := b.m, b.cells
	e0 := int32(len(m.ev))
	add := func(x, y int32, nb PolyID) {
		m.ev = append(m.ev, b.vertex(x, y))
		m.enb = append(m.enb, nb)
	}
	for y := r.y0; y < r.y1; {
		nb, y0 := c.poly(int(r.x0)-1, int(y)), y
		for y < r.y1 && c.poly(int(r.x0)-1, int(y)) == nb {
			y++
		}
		add(r.x0, y0, nb)
	}
	for x := r.x0; x < r.x1; {
		nb, x0 := c.poly(int(x), int(r.y1)), x
		for x < r.x1 && c.poly(int(x), int(r.y1)) == nb {
			x++
		}
		add(x0, r.y1, nb)
	}
	for y := r.y1; y > r.y0; {
		nb, y0 := c.poly(int(r.x1), int(y)-1), y
		for y > r.y0 && c.poly(int(r.x1), int(y)-1) == nb {
			y--
		}
		add(r.x1, y0, nb)
	}
	for x := r.x1; x > r.x0; {
		nb, x0 := c.poly(int(x)-1, int(r.y0)-1), x
		for x > r.x0 && c.poly(int(x)-1, int(r.y0)-1) == nb {
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
	tw := tri.PairEdges(len(m.verts), int32(len(m.ev)), func(e int32) (int32, int32) {
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

// label numbers the connected components of polygons, in the order of
// their first polygons, and finds the bridges: both come from one
// depth-first search (bridges), whose roots are the components' first
// polygons.
func (m *Mesh) label() { m.bridges() }
