package navmesh

import (
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/cairn-nav/cairn/grid"
	"github.com/go-gl/mathgl/mgl64"
)

// Options tunes how a mesh is built. The zero value is a mesh for a point
// agent.
type Options struct {
	// Radius is the agent's radius: the mesh keeps only the cells every
	// point of which is at least Radius from every blocked cell and from the
	// map's edge, so paths keep that distance from walls (see erode). 0 is
	// a point agent; negative, NaN or infinite values are an error.
	Radius float64
}

// rect is a rectangle of cells [x0, x1) × [y0, y1).
type rect struct{ x0, y0, x1, y1 int32 }

// FromGrid builds the mesh of the free cells of g: axis-aligned rectangles
// of whole cells (see the package documentation), with a portal for every
// segment of positive length that two rectangles share. It ignores g's
// connectivity and terrain costs: every free cell is walkable at unit cost,
// and the paths are any-angle. It costs O(width·height) time and memory.
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
	for i, r := range rects {
		b.rectangle(PolyID(i), r)
	}
	m.reflex = make([]bool, len(m.verts))
	for i, v := range m.verts {
		x, y := int(v[0]), int(v[1])
		blocked := 0
		for _, c := range [4][2]int{{x - 1, y - 1}, {x, y - 1}, {x - 1, y}, {x, y}} {
			if m.cellPoly(c[0], c[1]) < 0 {
				blocked++
			}
		}
		m.reflex[i] = blocked == 1
	}
	m.twins()
	m.label()
	return m, nil
}

// decompose cuts the free cells of g into rectangles: each row's maximal
// runs of free cells, each grown down while the next row has the same run.
// Rectangles come out sorted by top row, then by column.
func decompose(g *grid.Grid) []rect {
	w, h := g.Width(), g.Height()
	var rects []rect
	var open, next []int32 // rectangles reaching the row above, by column
	for y := 0; y < h; y++ {
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
	type key struct{ a, b int32 }
	at := make(map[key]int32, len(m.ev))
	for _, p := range m.polys {
		for i := range p.ne {
			if m.enb[p.e0+i] >= 0 {
				at[key{m.ev[p.e0+i], m.ev[p.e0+(i+1)%p.ne]}] = i
			}
		}
	}
	m.etwin = make([]int32, len(m.ev))
	for id := range m.polys {
		p := &m.polys[id]
		for i := range p.ne {
			m.etwin[p.e0+i] = -1
			if m.enb[p.e0+i] >= 0 {
				m.etwin[p.e0+i] = at[key{m.ev[p.e0+(i+1)%p.ne], m.ev[p.e0+i]}]
				p.nport++
				m.nport++
			}
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
