package navmesh

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// This file checks a mesh file of source 3, convex polygons built from a
// grid (see file.go for the layout and file_grid.go for what the grid
// sources share).

// convexMesh checks that the convex polygons of m, a mesh of source 3 whose
// vertices and polygon shapes have been checked, cover exactly the free
// walkable cells (see the format): by their areas, and by their walls,
// which must cover every cell side between a walkable cell and a blocked
// one once. It then finishes m.
func (f *meshFile) convexMesh(m *Mesh, free int) (*Mesh, error) {
	if err := f.checkArea(m, free); err != nil {
		return nil, err
	}
	walls, err := f.checkWalls(m)
	if err != nil {
		return nil, err
	}
	if boundary := m.boundarySides(); walls != boundary {
		return nil, &FormatError{40, fmt.Sprintf("the walls cover %d cell sides, but the walkable cells have %d sides on the boundary", walls, boundary)}
	}
	if err := f.checkCorners(m); err != nil {
		return nil, err
	}
	if err := f.link(m, nil); err != nil {
		return nil, err
	}
	m.label()
	m.loc = newPolyIndex(m)
	return m, nil
}

// checkArea checks that the polygons' areas add up to the free walkable
// cells, and that there are polygons.
func (f *meshFile) checkArea(m *Mesh, free int) error {
	// Twice the area, from the integer corners, in int64: a convex polygon
	// of the grid covers at most the grid (2²⁸ cells), and there are at
	// most 2²⁹ polygons, so the sum fits, and as int64 arithmetic wraps,
	// large terms along the way do not spoil it: it is exact.
	var twice int64
	for _, p := range m.polys {
		for i := range p.ne {
			a, b := m.edge(p, i)
			twice += int64(a[0])*int64(b[1]) - int64(b[0])*int64(a[1])
		}
	}
	// In the package's order polygons run clockwise in the y-up sense.
	if twice != -2*int64(free) {
		return &FormatError{36, fmt.Sprintf("the polygons' areas add up to %g, but %d cells are walkable", -float64(twice)/2, free)}
	}
	if len(m.polys) == 0 {
		// The point index needs a vertex; FromGrid writes a mesh of no
		// walkable cells as rectangles.
		return &FormatError{12, "mesh of convex polygons (source 3) without polygons: a mesh of no walkable cells is written as rectangles (source 1)"}
	}
	return nil
}

// checkWalls checks that every wall of m runs along cell sides, each
// between a walkable cell inside and a blocked one outside and covered by
// no other wall, and returns the number of cell sides they cover.
func (f *meshFile) checkWalls(m *Mesh) (int, error) {
	// Walls: unit cell sides, marked as covered, two bits per corner
	// (the side to its right and the side below it).
	w, h := m.w, m.h
	sides := make([]uint64, (2*(w+1)*(h+1)+63)/64)
	walls := 0
	for id, p := range m.polys {
		for i := range p.ne {
			if m.enb[p.e0+i] >= 0 {
				continue
			}
			a, b := m.edge(p, i)
			at := f.edgeOffset(int(p.e0+i)) + 4
			d := b.Sub(a)
			if d[0] != 0 && d[1] != 0 {
				return 0, &FormatError{at, fmt.Sprintf("edge %d of polygon %d, a wall from (%g,%g) to (%g,%g), does not run along cell sides", i, id, a[0], a[1], b[0], b[1])}
			}
			step := mgl64.Vec2{math.Copysign(math.Min(math.Abs(d[0]), 1), d[0]), math.Copysign(math.Min(math.Abs(d[1]), 1), d[1])}
			for q := a; q != b; q = q.Add(step) {
				x, y := int(q[0]), int(q[1])
				// The polygon is on the left of the edge (y down):
				// east of a side running south, west of one running
				// north, north of one running east, south of one
				// running west.
				var in, out [2]int
				bit := 2 * (y*(w+1) + x)
				switch {
				case step[1] > 0:
					in, out = [2]int{x, y}, [2]int{x - 1, y}
					bit++
				case step[1] < 0:
					in, out = [2]int{x - 1, y - 1}, [2]int{x, y - 1}
					bit = 2*((y-1)*(w+1)+x) + 1
				case step[0] > 0:
					in, out = [2]int{x, y - 1}, [2]int{x, y}
				default:
					in, out = [2]int{x - 1, y}, [2]int{x - 1, y - 1}
					bit = 2 * (y*(w+1) + x - 1)
				}
				if !m.walkableAt(in[0], in[1]) || m.walkableAt(out[0], out[1]) {
					return 0, &FormatError{at, fmt.Sprintf("edge %d of polygon %d is a wall, but the cell sides from (%d,%d) along it do not part a walkable cell inside from a blocked one outside", i, id, x, y)}
				}
				if sides[bit/64]&(1<<(bit%64)) != 0 {
					return 0, &FormatError{at, fmt.Sprintf("edge %d of polygon %d is a wall along the cell side from (%d,%d), which another wall covers too", i, id, x, y)}
				}
				sides[bit/64] |= 1 << (bit % 64)
				walls++
			}
		}
	}
	return walls, nil
}

// boundarySides returns the number of sides of walkable cells of m, a mesh
// built from a grid, that part them from a blocked cell or the map's edge.
func (m *Mesh) boundarySides() int {
	w, h := m.w, m.h
	boundary := 0
	for y := range h {
		for x := range w {
			if !m.walkableAt(x, y) {
				continue
			}
			for _, d := range steps {
				if !m.walkableAt(x+d[0], y+d[1]) {
					boundary++
				}
			}
		}
	}
	return boundary
}
