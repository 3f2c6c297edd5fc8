package navmesh

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// This file checks a mesh file of source 1, rectangles cut from a grid's
// cells (see file.go for the layout and file_grid.go for what the grid
// sources share).

// rectMesh checks that the rectangles of m, a mesh of source 1 whose
// vertices and polygon shapes have been checked, cover exactly the free
// walkable cells, once, and that each edge's neighbour is the polygon
// across it, and finishes m with its cell index.
func (f *meshFile) rectMesh(m *Mesh, free int) (*Mesh, error) {
	w := m.w
	cells := newCellIndex(m.w, m.h)
	m.loc = cells
	covered := 0
	for id, p := range m.polys {
		lo, hi := m.bounds(p)
		for y := int(lo[1]); y < int(hi[1]); y++ {
			for x := int(lo[0]); x < int(hi[0]); x++ {
				i := y*w + x
				if f.cells[i>>3]&(1<<(i&7)) == 0 {
					return nil, &FormatError{f.sizeOffset(id), fmt.Sprintf("polygon %d covers cell (%d,%d), which is not walkable", id, x, y)}
				}
				if o := cells.cell[i]; o >= 0 {
					return nil, &FormatError{f.sizeOffset(id), fmt.Sprintf("polygon %d overlaps polygon %d at cell (%d,%d)", id, o, x, y)}
				}
				cells.cell[i] = PolyID(id)
				covered++
			}
		}
	}
	if covered != free {
		for i, id := range cells.cell {
			if id < 0 && f.cells[i>>3]&(1<<(i&7)) != 0 {
				return nil, &FormatError{f.cellsAt + int64(i>>3), fmt.Sprintf("walkable cell (%d,%d) is in no polygon", i%w, i/w)}
			}
		}
	}
	if err := f.checkCorners(m); err != nil {
		return nil, err
	}
	err := f.link(m, func(id PolyID, a, b int32, nb PolyID) string { return cells.across(m, id, a, b, nb) })
	if err != nil {
		return nil, err
	}
	m.label()
	return m, nil
}

// checkRect returns what is wrong with polygon p as a polygon of a grid
// mesh, or "": its vertices must run once round an axis-aligned rectangle,
// counter-clockwise on screen (see the package documentation), with no
// vertex repeated in a row and no edge turning back.
func checkRect(m *Mesh, p poly) string {
	turns := 0
	var twice float64
	for i := range p.ne {
		a, b := m.edge(p, i)
		_, c := m.edge(p, (i+1)%p.ne)
		d, e := b.Sub(a), c.Sub(b)
		if d[0] != 0 && d[1] != 0 {
			return fmt.Sprintf("edge %d from (%g,%g) to (%g,%g) is not axis-aligned", i, a[0], a[1], b[0], b[1])
		}
		if d == (mgl64.Vec2{}) {
			return fmt.Sprintf("repeats vertex (%g,%g)", a[0], a[1])
		}
		switch cr := d[0]*e[1] - d[1]*e[0]; {
		case cr > 0:
			return fmt.Sprintf("turns right at (%g,%g): it is not convex, or not counter-clockwise on screen", b[0], b[1])
		case cr == 0 && d.Dot(e) < 0:
			return fmt.Sprintf("turns back at (%g,%g)", b[0], b[1])
		case cr < 0:
			turns++
		}
		twice += a[0]*b[1] - b[0]*a[1]
	}
	// Axis-aligned edges turning left only: each turn is a quarter, so a
	// polygon that goes round once turns four times.
	if turns != 4 || twice >= 0 {
		return fmt.Sprintf("turns %d times a quarter, want 4 counter-clockwise on screen", turns)
	}
	return ""
}

// bounds returns the smallest and largest coordinates of p's vertices.
func (m *Mesh) bounds(p poly) (lo, hi mgl64.Vec2) {
	lo, hi = m.verts[m.ev[p.e0]], m.verts[m.ev[p.e0]]
	for _, v := range m.ev[p.e0 : p.e0+p.ne] {
		q := m.verts[v]
		lo = mgl64.Vec2{math.Min(lo[0], q[0]), math.Min(lo[1], q[1])}
		hi = mgl64.Vec2{math.Max(hi[0], q[0]), math.Max(hi[1], q[1])}
	}
	return lo, hi
}

// across returns what is wrong with the cells across the edge from vertex
// a to vertex b of polygon id, whose neighbour there is nb, or "": a wall
// faces blocked cells or the map's edge, a portal cells of nb only.
func (c *cellIndex) across(m *Mesh, id PolyID, a, b int32, nb PolyID) string {
	va, vb := m.verts[a], m.verts[b]
	ax, ay, bx, by := int(va[0]), int(va[1]), int(vb[0]), int(vb[1])
	// The polygon lies to the left of the edge; the cells across it, to
	// its right: west of an edge running south, east of one running
	// north, south of one running east, north of one running west.
	var x0, y0, x1, y1 int
	switch {
	case ax == bx && ay < by:
		x0, x1, y0, y1 = ax-1, ax, ay, by
	case ax == bx:
		x0, x1, y0, y1 = ax, ax+1, by, ay
	case ax < bx:
		x0, x1, y0, y1 = ax, bx, ay, ay+1
	default:
		x0, x1, y0, y1 = bx, ax, ay-1, ay
	}
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			if q := c.poly(x, y); q != nb {
				if nb < 0 {
					return fmt.Sprintf("is a wall, but cell (%d,%d) across it is in polygon %d", x, y, q)
				}
				return fmt.Sprintf("has neighbour %d, but cell (%d,%d) across it is in polygon %d", nb, x, y, q)
			}
		}
	}
	return ""
}
