package navmesh

import (
	"slices"

	"github.com/cairn-nav/cairn/grid"
	"github.com/go-gl/mathgl/mgl64"
)

// Stitching (see the top of tiles.go). The polygons are emitted tile by
// tile in row-major order, each tile's in the order it was built, and the
// vertices are numbered in the order the polygons first use them. So the
// polygons, edges and vertices of a row of tiles are each one run of IDs,
// and a row's emission depends on its own tiles and on the corners of the
// rows above and below it on the lines it shares with them: [Mesh.Update]
// emits again only the rows round the tiles it builds again (splice).

// stitcher emits the polygons of rows of tiles into a mesh.
type stitcher struct {
	t            *tiling
	m            *Mesh
	w, h         int
	stride, size int32
	// The corners on each tile line inside the map, sorted, of the rows
	// the stitcher reads (lines): ys on the vertical line x = k·size at
	// vline[k], xs on y = k·size at hline[k].
	vline, hline [][]int32
	// vid numbers the corners of the grid rows vy0 to vy1: the vertex of
	// the corner, or −1 before its first use.
	vid      []int32
	vy0, vy1 int32
	// twin holds the twin of each edge from tw0 on (see link): −1 for a
	// wall, −2 for an edge whose neighbour stays as it was (splice).
	twin []int32
	tw0  int32
	line []lineEdge // the pieces on tile lines, to pair
	at   []int32    // per corner of the current tile, its edge in m
}

// newStitcher returns a stitcher of t's rows r0 to r1 for a mesh of a w×h
// grid, with the corners on tile lines of those rows and those of the
// rows next to them on the lines they share.
func newStitcher(t *tiling, w, h, r0, r1 int) *stitcher {
	s := &stitcher{t: t, w: w, h: h, stride: int32(w + 1), size: int32(t.size)}
	s.vline = make([][]int32, t.nx)
	s.hline = make([][]int32, t.ny)
	for r := max(r0-1, 0); r <= min(r1+1, t.ny-1); r++ {
		// A row next to r0…r1 adds only its corners on the line it shares.
		line := int32(-1)
		switch r {
		case r0 - 1:
			line = int32(r0) * s.size
		case r1 + 1:
			line = int32(r1+1) * s.size
		}
		for _, tp := range t.tiles[r*t.nx : (r+1)*t.nx] {
			for _, c := range tp.corner {
				x, y := c%s.stride, c/s.stride
				if line >= 0 {
					if y == line {
						s.hline[y/s.size] = append(s.hline[y/s.size], x)
					}
					continue
				}
				if x%s.size == 0 && x > 0 && int(x) < w {
					s.vline[x/s.size] = append(s.vline[x/s.size], y)
				}
				if y%s.size == 0 && y > 0 && int(y) < h {
					s.hline[y/s.size] = append(s.hline[y/s.size], x)
				}
			}
		}
	}
	for _, l := range [][][]int32{s.vline, s.hline} {
		for k := range l {
			slices.Sort(l[k])
			l[k] = slices.Compact(l[k])
		}
	}
	return s
}

// numbering sets vid up for the corners of grid rows y0 to y1, in the
// array vid holds when it has room.
func (s *stitcher) numbering(y0, y1 int32) {
	s.vy0, s.vy1 = y0, y1
	n := int(y1-y0+1) * int(s.stride)
	s.vid = reuse(s.vid, n, n)
	for i := range s.vid {
		s.vid[i] = -1
	}
}

// vertex returns the vertex of corner c, −1 before its first use.
func (s *stitcher) vertex(c int32) int32 { return s.vid[c-s.vy0*s.stride] }

// add appends corner c to m's edges, numbering it at its first use.
func (s *stitcher) add(c int32) {
	i := c - s.vy0*s.stride
	if s.vid[i] < 0 {
		s.vid[i] = int32(len(s.m.verts))
		s.m.verts = append(s.m.verts, mgl64.Vec2{float64(c % s.stride), float64(c / s.stride)})
	}
	s.m.ev = append(s.m.ev, s.vid[i])
}

// between adds the corners of line l strictly between a and b, in the
// order from a to b; on a vertical line (vertical) at x = at, else on a
// horizontal one at y = at.
func (s *stitcher) between(l []int32, a, b, at int32, vertical bool) {
	lo, hi := min(a, b), max(a, b)
	i, _ := slices.BinarySearch(l, lo+1)
	j, _ := slices.BinarySearch(l, hi)
	corner := func(q int32) int32 {
		if vertical {
			return q*s.stride + at
		}
		return at*s.stride + q
	}
	if a < b {
		for _, q := range l[i:j] {
			s.add(corner(q))
		}
		return
	}
	for k := j - 1; k >= i; k-- {
		s.add(corner(l[k]))
	}
}

// emitRows appends the polygons of tile rows r0 to r1 to m, with their
// edges' twins inside a tile and their pieces on tile lines (to pair), and
// records where the rows begin.
func (s *stitcher) emitRows(r0, r1 int) {
	t, m := s.t, s.m
	w, h, size := int32(s.w), int32(s.h), s.size
	for r := r0; r <= r1; r++ {
		t.rowPoly[r], t.rowEdge[r], t.rowVert[r] = int32(len(m.polys)), int32(len(m.ev)), int32(len(m.verts))
		for _, tp := range t.tiles[r*t.nx : (r+1)*t.nx] {
			s.at = s.at[:0]
			for i := range len(tp.start) - 1 {
				e0 := int32(len(m.ev))
				cs := tp.corner[tp.start[i]:tp.start[i+1]]
				for j, a := range cs {
					b := cs[(j+1)%len(cs)]
					s.at = append(s.at, int32(len(m.ev)))
					s.add(a)
					ax, ay, bx, by := a%s.stride, a/s.stride, b%s.stride, b/s.stride
					switch {
					case ax == bx && ax%size == 0 && ax > 0 && ax < w:
						s.between(s.vline[ax/size], ay, by, ax, true)
					case ay == by && ay%size == 0 && ay > 0 && ay < h:
						s.between(s.hline[ay/size], ax, bx, ay, false)
					default:
						continue
					}
					for e := s.at[len(s.at)-1]; e < int32(len(m.ev)); e++ {
						s.line = append(s.line, lineEdge{e: e})
					}
				}
				ne := int32(len(m.ev)) - e0
				if tp.area != nil && tp.area[i] != grid.AreaGround && m.area == nil {
					m.area = make([]uint8, len(m.polys), cap(m.polys))
				}
				if m.area != nil {
					a := grid.AreaGround
					if tp.area != nil {
						a = tp.area[i]
					}
					m.area = append(m.area, a)
				}
				m.polys = append(m.polys, poly{e0: e0, ne: ne})
				for k := len(s.line) - 1; k >= 0 && s.line[k].e >= e0; k-- {
					e := s.line[k].e
					next := e + 1
					if next == e0+ne {
						next = e0
					}
					s.line[k].a, s.line[k].b = m.ev[e], m.ev[next]
				}
			}
			for k, e := range s.at {
				for int32(len(s.twin))+s.tw0 < e {
					s.twin = append(s.twin, -1) // pieces on a line, set by pairLine
				}
				if tk := tp.twin[k]; tk >= 0 {
					s.twin = append(s.twin, s.at[tk])
				} else {
					s.twin = append(s.twin, -1)
				}
			}
		}
	}
	for int32(len(s.twin))+s.tw0 < int32(len(m.ev)) {
		s.twin = append(s.twin, -1)
	}
	r := r1 + 1
	t.rowPoly[r], t.rowEdge[r], t.rowVert[r] = int32(len(m.polys)), int32(len(m.ev)), int32(len(m.verts))
}

// mesh stitches the tiles' polygons into the mesh of a w×h grid whose
// walkable cells are walk (see the top of this file and of tiles.go). A
// grid without free cells gives the empty mesh of rectangles, as FromGrid
// does.
func (t *tiling) mesh(w, h int, walk []uint64) *Mesh {
	nc := t.corners()
	t.rowPoly, t.rowEdge, t.rowVert = nil, nil, nil
	if nc == 0 {
		m := &Mesh{kind: rectMesh, w: w, h: h, walk: walk, loc: newCellIndex(w, h), tiles: t}
		m.finishRects()
		return m
	}
	m := &Mesh{kind: convexGridMesh, w: w, h: h, walk: walk, tiles: t, own: true}
	s := newStitcher(t, w, h, 0, t.ny-1)
	s.m = m
	s.numbering(0, int32(h))
	m.verts = make([]mgl64.Vec2, 0, nc/2)
	m.ev = make([]int32, 0, nc+nc/8)
	m.polys = make([]poly, 0, nc/4)
	s.twin = make([]int32, 0, cap(m.ev))
	t.rowPoly, t.rowEdge, t.rowVert = make([]int32, t.ny+1), make([]int32, t.ny+1), make([]int32, t.ny+1)
	s.emitRows(0, t.ny-1)
	pairLine(s.line, s.twin, 0)
	m.setTwins(s.twin)
	m.reflex = make([]bool, len(m.verts))
	for i, v := range m.verts {
		m.reflex[i] = m.gridCorner(v)
	}
	m.finishTiled()
	return m
}

// corners counts the corners of the tiles' polygons: 0 when no tile has
// a polygon.
func (t *tiling) corners() int {
	n := 0
	for _, tp := range t.tiles {
		n += len(tp.corner)
	}
	return n
}

// finishTiled makes the tiled mesh m of convex polygons, whose polygons,
// neighbours and wall corners are set, ready for queries: its components
// and bridges, its point index (the merge of its tiles' bucket lists) and
// the areas round its vertices.
func (m *Mesh) finishTiled() {
	t := m.tiles
	m.labelTiled()
	x := tileIndex(m.w, m.h)
	x.Fill(func(emit func(int, int32)) {
		first := int32(0)
		for _, tp := range t.tiles {
			for _, r := range tp.bkt {
				emit(int(r.bucket), first+r.poly)
			}
			first += int32(max(len(tp.start)-1, 0))
		}
	})
	m.loc = x
	m.areaCorners()
}
