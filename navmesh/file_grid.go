package navmesh

import (
	"encoding/binary"
	"fmt"
	"image"
	"io"
	"math"
	"math/bits"
	"slices"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/binfile"
	"github.com/go-gl/mathgl/mgl64"
)

// This file reads and writes what the meshes built from a grid, of
// rectangles (source 1) and of convex polygons (source 3), share: the
// grid's size and fingerprint, the walkable cells, vertices at grid
// corners and their corner flags (see file.go for the layout).

// Fingerprint returns a 64-bit FNV-1a hash of everything about g that a
// mesh built by [FromGrid] depends on, for binding a mesh file to its grid.
// The bytes hashed are the width and height as uint32 little-endian, then
// the passability of every cell as bits (cell y·width + x is bit i%8 of
// byte i/8, 1 when passable, the last byte padded with zeros). The grid's
// connectivity and terrain costs, which FromGrid ignores, are left out, so
// it differs from hpa.Fingerprint.
//
// It reads every cell once, O(width·height), and does not allocate. It is
// safe for concurrent use.
func Fingerprint(g *grid.Grid) uint64 {
	w, h := g.Width(), g.Height()
	f := binfile.NewFNV()
	f.U32(uint32(w))
	f.U32(uint32(h))
	var acc byte
	i := 0
	for y := range h {
		for x := range w {
			if g.Passable(image.Pt(x, y)) {
				acc |= 1 << (i & 7)
			}
			if i++; i&7 == 0 {
				f.Byte(acc)
				acc = 0
			}
		}
	}
	if i&7 != 0 {
		f.Byte(acc)
	}
	return f.Sum
}

// bitmapFingerprint is [Fingerprint] of the grid of w×h cells whose
// passability bits are cells.
func bitmapFingerprint(w, h int, cells []byte) uint64 {
	f := binfile.NewFNV()
	f.U32(uint32(w))
	f.U32(uint32(h))
	for _, b := range cells {
		f.Byte(b)
	}
	return f.Sum
}

// writeGrid writes a mesh built from a grid with the given source.
func (m *Mesh) writeGrid(w io.Writer, source uint32) (int64, error) {
	e := binfile.NewWriter(w)
	fp := binfile.NewFNV()
	fp.U32(uint32(m.w))
	fp.U32(uint32(m.h))
	m.cellBits(func(b byte) { fp.Byte(b) })

	m.writeHeader(e, source, uint32(m.w), uint32(m.h), fp.Sum)
	m.cellBits(e.Byte)
	m.writeVertices(e)
	var acc byte
	for i, r := range m.reflex {
		if r {
			acc |= 1 << (i & 7)
		}
		if i&7 == 7 {
			e.Byte(acc)
			acc = 0
		}
	}
	if len(m.reflex)&7 != 0 {
		e.Byte(acc)
	}
	m.writePolys(e)
	return e.Finish()
}

// cellBits passes the bytes of the walkable-cells section to fn.
func (m *Mesh) cellBits(fn func(byte)) {
	var acc byte
	n := m.w * m.h
	for i := range n {
		if m.walkable(i) {
			acc |= 1 << (i & 7)
		}
		if i&7 == 7 {
			fn(acc)
			acc = 0
		}
	}
	if n&7 != 0 {
		fn(acc)
	}
}

// readGridFile reads the rest of a mesh file of source 1 or 3 (built from
// a grid), whose header is hdr, and checks and assembles the mesh; with g
// not nil, for the walkable cells of g.
func readGridFile(d *binfile.Reader, hdr []byte, g *grid.Grid) (*Mesh, error) {
	le := binary.LittleEndian
	w32, h32 := le.Uint32(hdr[16:]), le.Uint32(hdr[20:])
	if w32 == 0 || h32 == 0 || uint64(w32)*uint64(h32) > grid.MaxCells || (uint64(w32)+1)*(uint64(h32)+1) > math.MaxInt32 {
		return nil, &FormatError{16, fmt.Sprintf("grid of %d×%d cells, want a positive size of at most %d cells", w32, h32, grid.MaxCells)}
	}
	f := meshFile{kind: rectMesh, w: int(w32), h: int(h32), fp: le.Uint64(hdr[24:])}
	f.areas, f.lms, _ = versionParts(le.Uint32(hdr[8:]))
	if le.Uint32(hdr[12:]) == sourceConvex {
		f.kind = convexGridMesh
	}
	convex := f.kind == convexGridMesh
	if g != nil {
		if fp := Fingerprint(g); fp != f.fp || g.Width() != f.w || g.Height() != f.h {
			return nil, &FormatError{24, fmt.Sprintf("mesh was built for another map or agent radius: file fingerprint %016x (%d×%d), map fingerprint %016x (%d×%d)",
				f.fp, f.w, f.h, fp, g.Width(), g.Height())}
		}
	}
	nv, np, ne := le.Uint32(hdr[32:]), le.Uint32(hdr[36:]), le.Uint32(hdr[40:])
	// Bounds from the grid alone: vertices are distinct grid corners,
	// rectangles cover at least a cell each, and a rectangle has at most
	// as many edges as unit segments round it, at most 4 per cell. A
	// convex polygon with corners on the grid covers at least half a
	// cell; its triangles, made from the rectangles, are fewer than their
	// edges, and it has at most three edges per triangle.
	ncells := uint64(f.w) * uint64(f.h)
	if maxV := (uint64(f.w) + 1) * (uint64(f.h) + 1); uint64(nv) > maxV {
		return nil, &FormatError{32, fmt.Sprintf("%d vertices, more than the %d corners of a %d×%d grid", nv, maxV, f.w, f.h)}
	}
	perCell := uint64(1)
	if convex {
		perCell = 2
	}
	if uint64(np) > perCell*ncells {
		what := "the"
		if convex {
			what = "twice the"
		}
		return nil, &FormatError{36, fmt.Sprintf("%d polygons, more than %s %d cells of the grid", np, what, ncells)}
	}
	if maxE := min(4*perCell*perCell*ncells, math.MaxInt32); uint64(ne) > maxE {
		return nil, &FormatError{40, fmt.Sprintf("%d edges, more than the %d a %d×%d grid allows", ne, maxE, f.w, f.h)}
	}
	n, p, e := int(nv), int(np), int(ne)
	nbytes := int((ncells + 7) / 8)
	f.cellsAt = fileHeaderSize
	f.vertAt = f.cellsAt + int64(nbytes)
	f.cornerAt = f.vertAt + vertexSize*int64(n)
	f.sizeAt = f.cornerAt + int64((n+7)/8)
	f.edgeAt = f.sizeAt + polySizeSize*int64(p)
	f.areaAt = f.edgeAt + edgeRecordSize*int64(e)

	if err := f.readSections(d, nbytes, n, p, e); err != nil {
		return nil, err
	}
	return f.mesh(g)
}

// mesh checks what was read of a mesh built from a grid and assembles it:
// the walkable cells, the vertices and the polygons' records, then, by
// source, how the polygons cover the cells.
func (f *meshFile) mesh(g *grid.Grid) (*Mesh, error) {
	free, err := f.checkCells(g)
	if err != nil {
		return nil, err
	}
	if err := f.checkGridVertices(); err != nil {
		return nil, err
	}
	m := &Mesh{kind: f.kind, verts: f.verts, ev: f.ev, enb: f.enb, w: f.w, h: f.h}
	m.walk = make([]uint64, (f.w*f.h+63)/64)
	for i := range f.w * f.h {
		if f.cells[i>>3]&(1<<(i&7)) != 0 {
			m.walk[i/64] |= 1 << (i % 64)
		}
	}
	least, shape := int32(4), checkRect
	if f.kind == convexGridMesh {
		least, shape = 3, checkConvex
	}
	if err := f.polygons(m, least, shape); err != nil {
		return nil, err
	}
	used := make([]bool, len(f.verts))
	for _, v := range f.ev {
		used[v] = true
	}
	if i := slices.Index(used, false); i >= 0 {
		return nil, &FormatError{f.vertOffset(i), fmt.Sprintf("vertex %d is a corner of no polygon", i)}
	}
	if f.kind == convexGridMesh {
		m, err = f.convexMesh(m, free)
	} else {
		m, err = f.rectMesh(m, free)
	}
	if err != nil {
		return nil, err
	}
	if err := f.checkAreas(m, g); err != nil {
		return nil, err
	}
	return m, f.checkLandmarks(m)
}

// checkAreas checks the polygons' area types and gives them to m: none is
// grid.AreaSolid, and with g not nil the polygon holding the centre of
// each walkable cell has the cell's area (a file of version 1, without
// areas, is refused for a g whose free cells are not all ground, as
// FromGrid would have given it areas). That costs a point location per
// cell, and only for a g or a file with areas.
func (f *meshFile) checkAreas(m *Mesh, g *grid.Grid) error {
	if i := slices.Index(f.area, grid.AreaSolid); i >= 0 {
		return &FormatError{f.areaAt + int64(i), fmt.Sprintf("polygon %d has area type %d (solid)", i, grid.AreaSolid)}
	}
	m.area = f.area
	m.areaCorners()
	if g == nil {
		return nil
	}
	for y := range f.h {
		for x := range f.w {
			c := image.Pt(x, y)
			if !g.Passable(c) || (f.area == nil && g.Area(c) == grid.AreaGround) {
				continue
			}
			if f.area == nil {
				return &FormatError{8, fmt.Sprintf("mesh has no area types, but cell (%d,%d) of the map has area %d: build it again", x, y, g.Area(c))}
			}
			id, _ := m.Locate(mgl64.Vec2{float64(x) + 0.5, float64(y) + 0.5})
			if id < 0 || m.area[id] != g.Area(c) {
				return &FormatError{f.areaAt + int64(max(id, 0)), fmt.Sprintf("polygon %d has area type %d, but it covers cell (%d,%d) of area %d", id, m.Area(max(id, 0)), x, y, g.Area(c))}
			}
		}
	}
	return nil
}

// checkCells checks the walkable cells and the corner flags' padding, and
// returns the number of walkable cells: no padding bits set, the
// fingerprint theirs, g's free cells (when g is not nil), and few polygons
// enough for them.
func (f *meshFile) checkCells(g *grid.Grid) (free int, err error) {
	w, h := f.w, f.h
	ncells := w * h
	if pad := f.cells[len(f.cells)-1] >> (ncells - 8*(len(f.cells)-1)); ncells&7 != 0 && pad != 0 {
		return 0, &FormatError{f.vertAt - 1, "padding bits after the last cell are set"}
	}
	if fp := bitmapFingerprint(w, h, f.cells); fp != f.fp {
		return 0, &FormatError{24, fmt.Sprintf("fingerprint %016x, but the walkable cells have %016x", f.fp, fp)}
	}
	if g != nil {
		// Equal fingerprints; make sure, cell by cell.
		for y := range h {
			for x := range w {
				if i := y*w + x; g.Passable(image.Pt(x, y)) != (f.cells[i>>3]&(1<<(i&7)) != 0) {
					return 0, &FormatError{f.cellsAt + int64(i>>3), fmt.Sprintf("cell (%d,%d) is walkable in the mesh but not on the map, or the other way round, despite equal fingerprints", x, y)}
				}
			}
		}
	}
	for _, b := range f.cells {
		free += bits.OnesCount8(b)
	}
	convex := f.kind == convexGridMesh
	if convex && len(f.sizes) > 2*free || !convex && len(f.sizes) > free {
		return 0, &FormatError{36, fmt.Sprintf("%d polygons for %d walkable cells", len(f.sizes), free)}
	}
	nv := len(f.verts)
	if nv&7 != 0 && f.corners[len(f.corners)-1]>>(nv&7) != 0 {
		return 0, &FormatError{f.sizeAt - 1, "padding bits after the last corner flag are set"}
	}
	return free, nil
}

// checkGridVertices checks that the vertices are distinct grid corners.
// Sorting their corner numbers (below 2³¹) with their indices finds
// repeats.
func (f *meshFile) checkGridVertices() error {
	w, h := f.w, f.h
	keys := make([]uint64, len(f.verts))
	for i, v := range f.verts {
		x, y := v[0], v[1]
		if !(x >= 0 && x <= float64(w) && y >= 0 && y <= float64(h)) || x != math.Trunc(x) || y != math.Trunc(y) {
			return &FormatError{f.vertOffset(i), fmt.Sprintf("vertex %d at (%g,%g) is not a corner of the %d×%d grid", i, x, y, w, h)}
		}
		keys[i] = uint64(int(y)*(w+1)+int(x))<<32 | uint64(i)
	}
	slices.Sort(keys)
	for k := 1; k < len(keys); k++ {
		if keys[k]>>32 == keys[k-1]>>32 {
			i, j := int(uint32(keys[k])), int(uint32(keys[k-1]))
			return &FormatError{f.vertOffset(i), fmt.Sprintf("vertex %d at (%g,%g) repeats vertex %d", i, f.verts[i][0], f.verts[i][1], j)}
		}
	}
	return nil
}

// checkCorners sets the corner flags of m as FromGrid does, and checks that the
// file's agree.
func (f *meshFile) checkCorners(m *Mesh) error {
	m.reflex = make([]bool, len(m.verts))
	for i, v := range m.verts {
		m.reflex[i] = m.gridCorner(v)
		if got := f.corners[i>>3]&(1<<(i&7)) != 0; got != m.reflex[i] {
			return &FormatError{f.cornerAt + int64(i>>3), fmt.Sprintf("vertex %d at (%g,%g) is flagged %v as a convex corner of the walls, want %v", i, v[0], v[1], got, m.reflex[i])}
		}
	}
	return nil
}
