package navmesh

import (
	"fmt"
	"slices"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh/internal/tri"
)

// This file gives a mesh read from a file the tiling that [Mesh.Update]
// needs, when [ReadFor] is told the tile size it was built with. The file
// holds the stitched mesh only, but the tiles' polygons before stitching
// follow from it and the grid: a polygon lies in one tile, the polygons
// come tile by tile in row-major order, and stitching added to a polygon's
// sides on a tile line exactly the vertices that its own tile dropped
// there, those between two free cells of the tile of one area along the
// line (see openBorder). Taking those out of each polygon gives its tile's
// polygon back; their edges inside the tile are paired again as buildTile
// pairs them. Stitching the recovered tiles must then give the mesh read,
// polygon for polygon, or the mesh was not built with those tiles.

// retile recovers the tiling of side size of m, a mesh of convex polygons
// that ReadFor read for grid g, and sets m.tiles; it returns a
// *FormatError when m is not the mesh of such a tiling.
func (m *Mesh) retile(g *grid.Grid, size int) error {
	w, h := m.w, m.h
	t := &tiling{size: size, nx: (w + size - 1) / size, ny: (h + size - 1) / size, rec: &recycler{}}
	t.tiles = make([]tilePolys, t.nx*t.ny)
	local := make([][]int32, len(t.tiles)) // per tile, its corners as vertices of m
	stride := int32(w + 1)
	last := 0 // the tile of the polygon before
	for id := range m.polys {
		c := m.centroid(PolyID(id))
		tx, ty := min(int(c[0])/size, t.nx-1), min(int(c[1])/size, t.ny-1)
		k := ty*t.nx + tx
		if k < last {
			return &FormatError{36, fmt.Sprintf("polygon %d is in tile (%d,%d), before the tile of the polygon before it: the mesh was not built in tiles of %d cells", id, tx, ty, size)}
		}
		last = k
		b := t.tileRect(tx, ty, w, h)
		tp := &t.tiles[k]
		tp.start = append(tp.start, int32(len(tp.corner)))
		p := m.polys[id]
		for _, v := range m.ev[p.e0 : p.e0+p.ne] {
			x, y := int(m.verts[v][0]), int(m.verts[v][1])
			if x < b.Min.X || x > b.Max.X || y < b.Min.Y || y > b.Max.Y {
				return &FormatError{36, fmt.Sprintf("polygon %d crosses the border of tile (%d,%d) at (%d,%d): the mesh was not built in tiles of %d cells", id, tx, ty, x, y, size)}
			}
			if openAt(g, b, x-b.Min.X, y-b.Min.Y) {
				continue
			}
			tp.corner = append(tp.corner, int32(y)*stride+int32(x))
			local[k] = append(local[k], v)
		}
		if m.area != nil {
			tp.area = append(tp.area, m.area[id])
		}
	}
	// The tile's vertices, numbered from 0 in the tile (PairEdges takes
	// time and room in the number of vertices).
	num := make([]int32, len(m.verts))
	for i := range num {
		num[i] = -1
	}
	var of []int32        // the polygon of each corner of a tile
	var ids, seen []int32 // its corners' numbers in the tile, and its vertices
	for k := range t.tiles {
		tp := &t.tiles[k]
		if len(tp.start) == 0 {
			continue
		}
		tp.start = append(tp.start, int32(len(tp.corner)))
		of = of[:0]
		for i := range len(tp.start) - 1 {
			for range tp.start[i+1] - tp.start[i] {
				of = append(of, int32(i))
			}
		}
		ids = ids[:0]
		for _, v := range local[k] {
			if num[v] < 0 {
				num[v] = int32(len(seen))
				seen = append(seen, v)
			}
			ids = append(ids, num[v])
		}
		tp.twin = tri.PairEdges(len(seen), int32(len(ids)), func(j int32) (int32, int32) {
			next := j + 1
			if next == tp.start[of[j]+1] {
				next = tp.start[of[j]]
			}
			return ids[j], ids[next]
		})
		for _, v := range seen {
			num[v] = -1
		}
		seen = seen[:0]
		tp.prune(t.tileRect(k%t.nx, k/t.nx, w, h), w, h)
	}
	x := tileIndex(w, h)
	for k := range t.tiles {
		t.tiles[k].bucketize(x, stride)
	}
	s := t.mesh(w, h, m.walk)
	if err := sameStitch(m, s); err != nil {
		return err
	}
	if !slices.Equal(m.ev, s.ev) || !slices.Equal(m.verts, s.verts) || !slices.Equal(m.area, s.area) {
		// The same polygons, numbered otherwise or with other areas than
		// the map's tiles give: Update stitches the whole mesh again
		// rather than splice rows of its tiles into the file's arrays.
		t.rowPoly, t.rowEdge, t.rowVert = nil, nil, nil
	} else {
		// Numbered as the tiles number it: prune as a tiled mesh does.
		m.pre, m.end, m.bridge, m.tree = s.pre, s.end, s.bridge, s.tree
		for id := range m.polys {
			m.polys[id].comp = s.polys[id].comp
		}
	}
	m.tiles = t
	m.loc = s.loc // the tiled meshes' index, as FromGrid's has
	return nil
}

// sameStitch returns a *FormatError unless s, the stitch of the tiles
// recovered from m, has m's polygons, vertex for vertex.
func sameStitch(m, s *Mesh) error {
	if len(s.polys) != len(m.polys) {
		return &FormatError{36, fmt.Sprintf("%d polygons, but its tiles stitch into %d: the mesh was not built in these tiles", len(m.polys), len(s.polys))}
	}
	for id, p := range m.polys {
		q := s.polys[id]
		if p.ne != q.ne {
			return &FormatError{36, fmt.Sprintf("polygon %d has %d corners, but %d when its tiles are stitched: the mesh was not built in these tiles", id, p.ne, q.ne)}
		}
		for i := range p.ne {
			if m.verts[m.ev[p.e0+i]] != s.verts[s.ev[q.e0+i]] {
				return &FormatError{36, fmt.Sprintf("polygon %d differs from its tiles' stitch at corner %d: the mesh was not built in these tiles", id, i)}
			}
		}
	}
	return nil
}
