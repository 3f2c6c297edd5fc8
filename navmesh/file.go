package navmesh

import (
	"cmp"
	"encoding/binary"
	"errors"
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

// This file writes a [Mesh] to a binary file and reads it back. Version 1
// of the format, all integers little-endian, floats as IEEE 754 bits:
//
//	offset  size  field
//	     0     8  magic "CAIRNNAV"
//	     8     4  version, uint32 = 1
//	    12     4  source, uint32: 1 = rectangles cut from a grid's cells
//	              by [FromGrid] with Options.Rectangles, 3 = convex
//	              polygons built from a grid by FromGrid, 2 = built from
//	              polygons by [FromPolygons] (laid out below)
//	    16     4  W, the grid's width, uint32
//	    20     4  H, the grid's height, uint32
//	    24     8  fingerprint of the walkable cells, uint64: the
//	              [Fingerprint] of the grid the mesh was cut from, which
//	              for an agent of radius r > 0 is the grid eroded by r
//	    32     4  V, the number of vertices, uint32
//	    36     4  P, the number of polygons, uint32
//	    40     4  E, the number of polygon edges, uint32
//	    44     B  walkable cells, B = ⌈W·H/8⌉ bytes: cell y·W + x is bit
//	              i%8 of byte i/8, 1 when a polygon covers it; the last
//	              byte padded with zeros
//	  44+B   16V  vertices: x, y float64
//	        ⌈V/8⌉ corners: bit i%8 of byte i/8 is 1 when vertex i is a
//	              convex corner of the walls, where paths may turn
//	          4P  polygon sizes: the number of vertices (= edges) of each
//	              polygon, uint32
//	          8E  edges, polygon by polygon, in each in the package's
//	              vertex order: the edge's first vertex, uint32, and the
//	              polygon across it, int32 (−1 for a wall)
//	  end−4    4  CRC-32C (Castagnoli) of every byte before it
//
// Sources 1 and 3 share that layout: they differ in the shapes of the
// polygons and in how Read checks that they cover the walkable cells.
//
// A mesh of source 2 (polygons) has no grid, so no walkable cells and no
// corner flags:
//
//	offset  size  field
//	     0    16  magic, version and source = 2, as above
//	    16    16  reserved, zero (where a grid mesh has W, H and the
//	              fingerprint)
//	    32     4  V, the number of vertices, uint32
//	    36     4  P, the number of polygons, uint32
//	    40     4  E, the number of polygon edges, uint32
//	    44   16V  vertices: x, y float64, each finite and 0 or of a
//	              magnitude within [1e-100, 1e100], as FromPolygons
//	              accepts them
//	          4P  polygon sizes, as above
//	          8E  edges, as above
//	  end−4    4  CRC-32C (Castagnoli) of every byte before it
//
// Its walls (the edges with neighbour −1) are the input's rings, so the
// corner flags follow from them; Read recomputes them, the twins, the
// portal counts, the connected components and the point-location index
// exactly as FromPolygons does.
//
// Everything else a mesh holds is recomputed by Read: which polygon covers
// each cell (source 1) or the point-location index (source 3), the twin of
// each portal edge, the portal counts and the connected components. The
// walkable cells are redundant with the polygons too, but they bound the
// memory of the cell index by the bytes read, and Read checks that the
// polygons cover exactly those cells: rectangles cell by cell; convex
// polygons by their walls, which must run along cell sides between a
// walkable cell inside and a blocked one (or the map's edge) outside, and
// together cover every such side once, and by their areas, which must add
// up to the number of walkable cells. The fingerprint
// is redundant with the walkable cells, and checked against them; it lets
// [ReadFor] refuse a mesh of another map before reading past the header.

const (
	fileMagic      = "CAIRNNAV"
	fileVersion    = 1
	fileHeaderSize = 44
	sourceGrid     = 1
	sourcePolygons = 2
	sourceConvex   = 3
	vertexSize     = 16
	polySizeSize   = 4
	edgeRecordSize = 8
)

// FormatError reports a mesh file that [Read] or [ReadFor] refuses: where in
// the file (a byte offset; for counts and checksums, the offset of the
// field) and what is wrong.
type FormatError struct {
	Offset int64
	Msg    string
}

// Error returns "navmesh: MSG (byte OFFSET)".
func (e *FormatError) Error() string {
	return fmt.Sprintf("navmesh: %s (byte %d)", e.Msg, e.Offset)
}

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

// WriteTo writes m to w in Cairn's binary mesh format, version 1, and
// returns the number of bytes written. For a mesh built by [FromGrid] that
// is 48 + ⌈W·H/8⌉ + 16·V + ⌈V/8⌉ + 4·P + 8·E for a W×H grid and V
// vertices, P polygons and E polygon edges; the file records which cells
// the mesh covers and their [Fingerprint], so that [ReadFor] can refuse it
// for another map or agent radius, but not the grid itself. For a mesh
// built by [FromPolygons] it is 48 + 16·V + 4·P + 8·E: the vertices,
// polygons and neighbours, from which [Read] rebuilds the rest.
//
// Meshes built otherwise cannot be written; for them WriteTo returns an
// error and writes nothing. It costs one pass over the mesh, allocates a
// 64 KiB buffer, and is safe for concurrent use, since it only reads m.
func (m *Mesh) WriteTo(w io.Writer) (int64, error) {
	source := uint32(sourceGrid)
	switch {
	case m.walk != nil:
		source = sourceConvex
	case m.idx != nil:
		return m.writePolygons(w)
	case m.cell == nil || len(m.cell) != m.w*m.h:
		return 0, errors.New("navmesh: only meshes built from a grid or from polygons can be written")
	}
	e := binfile.NewWriter(w)
	fp := binfile.NewFNV()
	fp.U32(uint32(m.w))
	fp.U32(uint32(m.h))
	m.cellBits(func(b byte) { fp.Byte(b) })

	e.Bytes([]byte(fileMagic))
	e.U32(fileVersion)
	e.U32(source)
	e.U32(uint32(m.w))
	e.U32(uint32(m.h))
	e.U64(fp.Sum)
	e.U32(uint32(len(m.verts)))
	e.U32(uint32(len(m.polys)))
	e.U32(uint32(len(m.ev)))
	m.cellBits(e.Byte)
	for _, v := range m.verts {
		e.U64(math.Float64bits(v[0]))
		e.U64(math.Float64bits(v[1]))
	}
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

// writePolys writes the polygon sizes and the edges.
func (m *Mesh) writePolys(e *binfile.Writer) {
	for _, p := range m.polys {
		e.U32(uint32(p.ne))
	}
	for i, v := range m.ev {
		e.U32(uint32(v))
		e.U32(uint32(m.enb[i]))
	}
}

// writePolygons writes a mesh built from polygons (source 2).
func (m *Mesh) writePolygons(w io.Writer) (int64, error) {
	e := binfile.NewWriter(w)
	e.Bytes([]byte(fileMagic))
	e.U32(fileVersion)
	e.U32(sourcePolygons)
	e.U32(0)
	e.U32(0)
	e.U64(0)
	e.U32(uint32(len(m.verts)))
	e.U32(uint32(len(m.polys)))
	e.U32(uint32(len(m.ev)))
	for _, v := range m.verts {
		e.U64(math.Float64bits(v[0]))
		e.U64(math.Float64bits(v[1]))
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

// walkable reports whether cell i (row-major) of a mesh built from a grid
// is covered by the mesh.
func (m *Mesh) walkable(i int) bool {
	if m.walk != nil {
		return m.walk[i/64]&(1<<(i%64)) != 0
	}
	return m.cell[i] >= 0
}

// Read reads a mesh that [Mesh.WriteTo] wrote, for any map, and returns it
// ready for queries: its polygons, vertices and neighbours, in the same
// order, answer every query as the mesh written did. [ReadFor] also checks
// that the mesh was built for a given grid.
//
// It refuses, with a [*FormatError] giving the byte offset, a file that is
// not a mesh file, of an unknown version or source, truncated, failing its
// checksum, or holding a mesh that [FromGrid] could not have built: counts
// too large for the grid, a fingerprint that does not match the walkable
// cells, vertices that are not distinct grid corners or that no polygon
// uses, corner flags that do not match the cells, polygons that are not
// axis-aligned rectangles listed once round counter-clockwise on screen,
// that overlap, or that do not cover exactly the walkable cells, vertex and
// polygon indices out of range, and edges whose neighbour is not the
// polygon across them (a portal must be an edge of both polygons, listed
// the other way round in the other; a wall must face blocked cells). A
// mesh of convex polygons (source 3) must instead have convex polygons, as
// a mesh built from polygons must (below), whose walls and areas cover the
// walkable cells as the format describes; that admits meshes FromGrid does
// not build, with vertices in the open, say, and no mesh without polygons. A
// failed read of r is returned wrapped. Read never panics on any bytes, and
// its memory grows with the bytes actually read, never with a count that a
// header merely claims: the cell index it builds for rectangles, 4 bytes a
// cell, is 32 times the walkable-cells section, and the point index of a
// mesh of convex polygons (sources 2 and 3) holds at most 8 entries per
// polygon edge, taking coarser buckets for meshes of long slivers.
//
// A mesh built by [FromPolygons] has no grid; Read refuses, likewise, a
// reserved header field that is not zero, counts that no input of V
// vertices could give (fewer than 3 vertices, more than 6V edges, a
// polygon with fewer than 3), vertices that are not finite, not 0 or of a
// magnitude within [1e-100, 1e100], repeated or on no wall, polygons that
// are not convex with positive area and listed once round
// counter-clockwise on screen (turning only one way or straight on, never
// back), indices out of range, polygons that share an edge listed the
// same way round (a polygon repeated), portals whose twin edge is missing
// from the neighbour or does not point back, and walls that do not form
// rings (a vertex starting or ending two). It does not check that the
// polygons do not overlap. It rebuilds the corner flags, twins, portal
// counts, components and point index as FromPolygons does.
//
// Read reads exactly the bytes WriteTo wrote, so a mesh may be followed by
// other data in r. It costs O(W·H + E log E) for a W×H grid and E polygon
// edges, O(E log E) for a mesh built from polygons, and allocates the
// mesh, its cell or point index and a 64 KiB buffer.
func Read(r io.Reader) (*Mesh, error) {
	return readMesh(r, nil)
}

// ReadFor is [Read] for the mesh that [FromGrid] builds from g with opt: it
// also refuses, with a [*FormatError] naming both fingerprints, a mesh whose
// walkable cells are not the cells FromGrid keeps, which are g's free cells
// for a point agent and fewer for a larger radius. A mesh of another map or
// for another radius, or one built by [FromPolygons], is refused before
// ReadFor reads past the header. It
// first computes, as FromGrid does, the cells an agent of radius
// opt.Radius may occupy (an invalid radius is an error, not a
// FormatError), and their [Fingerprint]: O(W·H) for a point agent.
func ReadFor(r io.Reader, g *grid.Grid, opt Options) (*Mesh, error) {
	if g == nil {
		return nil, errors.New("navmesh: nil grid")
	}
	if opt.Radius != 0 {
		var err error
		if g, err = erode(g, opt.Radius); err != nil {
			return nil, err
		}
	}
	return readMesh(r, g)
}

// meshFile is what readMesh has read of a file, with the offsets of its
// sections.
type meshFile struct {
	w, h    int
	convex  bool // source 3
	fp      uint64
	cells   []byte // walkable-cells bits
	verts   []mgl64.Vec2
	corners []byte
	sizes   []int32
	ev      []int32
	enb     []PolyID

	cellsAt, vertAt, cornerAt, sizeAt, edgeAt int64
}

func readMesh(r io.Reader, g *grid.Grid) (*Mesh, error) {
	d := binfile.NewReader(r, "navmesh", func(off int64, msg string) error { return &FormatError{off, msg} })
	hdr := d.Scratch(fileHeaderSize)
	err := d.Read(hdr[:len(fileMagic)], "magic")
	if got := hdr[:d.Offset()]; string(got) != fileMagic[:d.Offset()] {
		return nil, &FormatError{0, fmt.Sprintf("not a mesh file: it starts %q, want %q", got, fileMagic)}
	}
	if err != nil {
		return nil, err
	}
	if err := d.Read(hdr[len(fileMagic):], "header"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	if v := le.Uint32(hdr[8:]); v != fileVersion {
		return nil, &FormatError{8, fmt.Sprintf("unknown version %d, want %d", v, fileVersion)}
	}
	switch s := le.Uint32(hdr[12:]); {
	case s == sourcePolygons && g != nil:
		return nil, &FormatError{12, "mesh was built from polygons, not from a grid: read it with Read, not ReadFor"}
	case s == sourcePolygons:
		return readPolyFile(d, hdr)
	case s != sourceGrid && s != sourceConvex:
		return nil, &FormatError{12, fmt.Sprintf("unknown source %d, want %d (rectangles from a grid), %d (polygons) or %d (convex polygons from a grid)", s, sourceGrid, sourcePolygons, sourceConvex)}
	}
	w32, h32 := le.Uint32(hdr[16:]), le.Uint32(hdr[20:])
	if w32 == 0 || h32 == 0 || uint64(w32)*uint64(h32) > grid.MaxCells || (uint64(w32)+1)*(uint64(h32)+1) > math.MaxInt32 {
		return nil, &FormatError{16, fmt.Sprintf("grid of %d×%d cells, want a positive size of at most %d cells", w32, h32, grid.MaxCells)}
	}
	f := meshFile{w: int(w32), h: int(h32), fp: le.Uint64(hdr[24:]), convex: le.Uint32(hdr[12:]) == sourceConvex}
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
	if f.convex {
		perCell = 2
	}
	if uint64(np) > perCell*ncells {
		what := "the"
		if f.convex {
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

	// Read everything, check the sum, then check the content, so that a
	// damaged file reads as such rather than as some odd mesh.
	f.cells = make([]byte, 0, min(nbytes, 1<<16))
	f.verts = make([]mgl64.Vec2, 0, min(n, 1<<16))
	f.corners = make([]byte, 0, min((n+7)/8, 1<<16))
	f.sizes = make([]int32, 0, min(p, 1<<16))
	f.ev = make([]int32, 0, min(e, 1<<16))
	f.enb = make([]PolyID, 0, min(e, 1<<16))
	err = d.Records(nbytes, 1, "walkable cells", func(b []byte) { f.cells = append(f.cells, b[0]) })
	if err == nil {
		err = f.readVertices(d, n)
	}
	if err == nil {
		err = d.Records((n+7)/8, 1, "corners", func(b []byte) { f.corners = append(f.corners, b[0]) })
	}
	if err == nil {
		err = f.readPolygons(d, p, e)
	}
	if err == nil {
		err = readSum(d)
	}
	if err != nil {
		return nil, err
	}
	return f.mesh(g)
}

// readVertices reads n vertices, float64 pairs, into f.
func (f *meshFile) readVertices(d *binfile.Reader, n int) error {
	le := binary.LittleEndian
	return d.Records(n, vertexSize, "vertices", func(b []byte) {
		f.verts = append(f.verts, mgl64.Vec2{math.Float64frombits(le.Uint64(b)), math.Float64frombits(le.Uint64(b[8:]))})
	})
}

// readPolygons reads the sizes of p polygons and their e edge records
// (vertex, neighbour) into f.
func (f *meshFile) readPolygons(d *binfile.Reader, p, e int) error {
	le := binary.LittleEndian
	err := d.Records(p, polySizeSize, "polygon sizes", func(b []byte) { f.sizes = append(f.sizes, int32(le.Uint32(b))) })
	if err != nil {
		return err
	}
	return d.Records(e, edgeRecordSize, "edges", func(b []byte) {
		f.ev = append(f.ev, int32(le.Uint32(b)))
		f.enb = append(f.enb, PolyID(int32(le.Uint32(b[4:]))))
	})
}

// readSum reads the checksum and checks it against the bytes before it.
func readSum(d *binfile.Reader) error {
	sumAt, want := d.Offset(), d.CRC()
	sum := d.Scratch(4)
	if err := d.Read(sum, "checksum"); err != nil {
		return err
	}
	if got := binary.LittleEndian.Uint32(sum); got != want {
		return &FormatError{sumAt, fmt.Sprintf("checksum %08x, want %08x: the file is damaged", got, want)}
	}
	return nil
}

// readPolyFile reads the rest of a mesh file of source 2 (polygons), whose
// header is hdr, and checks and assembles the mesh.
func readPolyFile(d *binfile.Reader, hdr []byte) (*Mesh, error) {
	le := binary.LittleEndian
	for at := 16; at < 32; at += 4 {
		if v := le.Uint32(hdr[at:]); v != 0 {
			return nil, &FormatError{int64(at), fmt.Sprintf("reserved field is %d, want 0 in a mesh built from polygons", v)}
		}
	}
	nv, np, ne := le.Uint32(hdr[32:]), le.Uint32(hdr[36:]), le.Uint32(hdr[40:])
	// Bounds from FromPolygons: at least one ring of 3 points and at most
	// 2³¹/4 points; n points with h ≤ n/3 holes make n+2h−2 < 2n
	// triangles, so fewer than 6n edges, and a polygon has at least 3.
	if nv < 3 || nv > math.MaxInt32/4 {
		return nil, &FormatError{32, fmt.Sprintf("%d vertices, want 3 to %d", nv, math.MaxInt32/4)}
	}
	if maxE := 6 * uint64(nv); uint64(ne) > maxE {
		return nil, &FormatError{40, fmt.Sprintf("%d edges, more than the %d that %d vertices allow", ne, maxE, nv)}
	}
	if np == 0 || 3*uint64(np) > uint64(ne) {
		return nil, &FormatError{36, fmt.Sprintf("%d polygons, want 1 to a third of the %d edges", np, ne)}
	}
	n, p, e := int(nv), int(np), int(ne)
	f := meshFile{vertAt: fileHeaderSize}
	f.sizeAt = f.vertAt + vertexSize*int64(n)
	f.edgeAt = f.sizeAt + polySizeSize*int64(p)
	f.verts = make([]mgl64.Vec2, 0, min(n, 1<<16))
	f.sizes = make([]int32, 0, min(p, 1<<16))
	f.ev = make([]int32, 0, min(e, 1<<16))
	f.enb = make([]PolyID, 0, min(e, 1<<16))
	err := f.readVertices(d, n)
	if err == nil {
		err = f.readPolygons(d, p, e)
	}
	if err == nil {
		err = readSum(d)
	}
	if err != nil {
		return nil, err
	}
	return f.polyMesh()
}

// polyMesh checks what was read of a mesh built from polygons and
// assembles it as FromPolygons does.
func (f *meshFile) polyMesh() (*Mesh, error) {
	nv := len(f.verts)
	// Vertices: finite, in FromPolygons' range, distinct.
	order := make([]int32, nv)
	for i, v := range f.verts {
		for _, c := range v {
			if a := math.Abs(c); math.IsNaN(c) || math.IsInf(c, 0) || (a != 0 && (a < minCoord || a > maxCoord)) {
				return nil, &FormatError{f.vertOffset(i), fmt.Sprintf("vertex %d at (%g,%g): coordinate not finite or out of range (0, or magnitude 1e-100 to 1e100)", i, v[0], v[1])}
			}
		}
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		p, q := f.verts[a], f.verts[b]
		return cmp.Or(cmp.Compare(p[0], q[0]), cmp.Compare(p[1], q[1]), cmp.Compare(a, b))
	})
	for k := 1; k < nv; k++ {
		if i, j := order[k], order[k-1]; f.verts[i] == f.verts[j] {
			return nil, &FormatError{f.vertOffset(int(i)), fmt.Sprintf("vertex %d at (%g,%g) repeats vertex %d", i, f.verts[i][0], f.verts[i][1], j)}
		}
	}

	// Polygons: sizes adding up to the edges, indices in range, convex.
	m := &Mesh{verts: f.verts, ev: f.ev, enb: f.enb}
	m.polys = make([]poly, len(f.sizes))
	var e0 int64
	ne := int64(len(f.ev))
	for id, k := range f.sizes {
		at := f.sizeOffset(id)
		if k < 3 || int64(k) > ne-e0 {
			return nil, &FormatError{at, fmt.Sprintf("polygon %d has %d vertices, want 3 to the %d edges left", id, uint32(k), ne-e0)}
		}
		m.polys[id] = poly{e0: int32(e0), ne: k}
		for i := e0; i < e0+int64(k); i++ {
			if v := f.ev[i]; v < 0 || int(v) >= nv {
				return nil, &FormatError{f.edgeOffset(int(i)), fmt.Sprintf("edge %d of polygon %d starts at vertex %d, want one of the %d", i-e0, id, uint32(v), nv)}
			}
			if nb := f.enb[i]; nb < -1 || int(nb) >= len(f.sizes) || int(nb) == id {
				return nil, &FormatError{f.edgeOffset(int(i)) + 4, fmt.Sprintf("edge %d of polygon %d has neighbour %d, want −1 or another of the %d polygons", i-e0, id, nb, len(f.sizes))}
			}
		}
		if msg := m.checkConvex(m.polys[id]); msg != "" {
			return nil, &FormatError{at, fmt.Sprintf("polygon %d %s", id, msg)}
		}
		e0 += int64(k)
	}
	if e0 != ne {
		return nil, &FormatError{40, fmt.Sprintf("%d edges, but the polygon sizes add up to %d", ne, e0)}
	}
	if err := f.link(m); err != nil {
		return nil, err
	}

	// The walls are the input's rings: each vertex starts one wall edge
	// and ends another. A vertex where the walkable angle exceeds 180° is
	// a turning point, as FromPolygons flags it.
	in, out := make([]int32, nv), make([]int32, nv)
	for i := range in {
		in[i], out[i] = -1, -1
	}
	for _, p := range m.polys {
		for i := range p.ne {
			if m.enb[p.e0+i] >= 0 {
				continue
			}
			a, b := m.edgeIDs(p, i)
			if out[a] >= 0 {
				return nil, &FormatError{f.edgeOffset(int(p.e0 + i)), fmt.Sprintf("vertex %d starts two walls, to vertices %d and %d", a, out[a], b)}
			}
			if in[b] >= 0 {
				return nil, &FormatError{f.edgeOffset(int(p.e0 + i)), fmt.Sprintf("vertex %d ends two walls, from vertices %d and %d", b, in[b], a)}
			}
			out[a], in[b] = b, a
		}
	}
	m.reflex = make([]bool, nv)
	for v := range nv {
		if in[v] < 0 || out[v] < 0 {
			return nil, &FormatError{f.vertOffset(v), fmt.Sprintf("vertex %d is not on a wall, or ends one without starting another", v)}
		}
		// In the package's order the walls run the rings backwards.
		m.reflex[v] = orient(m.verts[in[v]], m.verts[v], m.verts[out[v]]) > 0
	}
	m.label()
	m.idx = newPolyIndex(m)
	return m, nil
}

// checkConvex returns what is wrong with polygon p as a polygon of a mesh
// built from polygons, or "": its vertices must run once round a convex
// polygon of positive area, counter-clockwise on screen (see the package
// documentation), each turn exactly to the same side or straight on, never
// back. Turning that way only, the edges' direction rotates one way in
// steps below 180°, and it has gone round once when it has passed the +x
// direction once.
func (m *Mesh) checkConvex(p poly) string {
	// upper reports whether direction d is at an angle in [0°, 180°).
	upper := func(d mgl64.Vec2) bool { return d[1] > 0 || (d[1] == 0 && d[0] > 0) }
	// The signs of rounded differences are exact.
	opposite := func(x, y float64) bool { return x < 0 && y > 0 || x > 0 && y < 0 }
	rounds := 0
	for i := range p.ne {
		a, b := m.edge(p, i)
		_, c := m.edge(p, (i+1)%p.ne)
		d, e := b.Sub(a), c.Sub(b)
		if a == b {
			return fmt.Sprintf("repeats vertex (%g,%g)", a[0], a[1])
		}
		switch o := orient(a, b, c); {
		case o > 0:
			return fmt.Sprintf("turns the wrong way at (%g,%g): it is not convex, or not counter-clockwise on screen", b[0], b[1])
		case o == 0 && (opposite(d[0], e[0]) || opposite(d[1], e[1])):
			return fmt.Sprintf("turns back at (%g,%g)", b[0], b[1])
		}
		if upper(d) && !upper(e) {
			rounds++
		}
	}
	if rounds != 1 {
		return fmt.Sprintf("goes round %d times, want once", rounds)
	}
	return ""
}

// Offsets of records.
func (f *meshFile) vertOffset(i int) int64 { return f.vertAt + vertexSize*int64(i) }
func (f *meshFile) sizeOffset(i int) int64 { return f.sizeAt + polySizeSize*int64(i) }
func (f *meshFile) edgeOffset(i int) int64 { return f.edgeAt + edgeRecordSize*int64(i) }

// mesh checks what was read and assembles the mesh.
func (f *meshFile) mesh(g *grid.Grid) (*Mesh, error) {
	w, h := f.w, f.h
	ncells := w * h
	if pad := f.cells[len(f.cells)-1] >> (ncells - 8*(len(f.cells)-1)); ncells&7 != 0 && pad != 0 {
		return nil, &FormatError{f.vertAt - 1, "padding bits after the last cell are set"}
	}
	if fp := bitmapFingerprint(w, h, f.cells); fp != f.fp {
		return nil, &FormatError{24, fmt.Sprintf("fingerprint %016x, but the walkable cells have %016x", f.fp, fp)}
	}
	if g != nil {
		// Equal fingerprints; make sure, cell by cell.
		for y := range h {
			for x := range w {
				if i := y*w + x; g.Passable(image.Pt(x, y)) != (f.cells[i>>3]&(1<<(i&7)) != 0) {
					return nil, &FormatError{f.cellsAt + int64(i>>3), fmt.Sprintf("cell (%d,%d) is walkable in the mesh but not on the map, or the other way round, despite equal fingerprints", x, y)}
				}
			}
		}
	}
	free := 0
	for _, b := range f.cells {
		free += bits.OnesCount8(b)
	}
	if f.convex && len(f.sizes) > 2*free || !f.convex && len(f.sizes) > free {
		return nil, &FormatError{36, fmt.Sprintf("%d polygons for %d walkable cells", len(f.sizes), free)}
	}
	nv := len(f.verts)
	if nv&7 != 0 && f.corners[len(f.corners)-1]>>(nv&7) != 0 {
		return nil, &FormatError{f.sizeAt - 1, "padding bits after the last corner flag are set"}
	}

	// Vertices: distinct grid corners. Sorting their corner numbers
	// (below 2³¹) with their indices finds repeats.
	keys := make([]uint64, nv)
	for i, v := range f.verts {
		x, y := v[0], v[1]
		if !(x >= 0 && x <= float64(w) && y >= 0 && y <= float64(h)) || x != math.Trunc(x) || y != math.Trunc(y) {
			return nil, &FormatError{f.vertOffset(i), fmt.Sprintf("vertex %d at (%g,%g) is not a corner of the %d×%d grid", i, x, y, w, h)}
		}
		keys[i] = uint64(int(y)*(w+1)+int(x))<<32 | uint64(i)
	}
	slices.Sort(keys)
	for k := 1; k < len(keys); k++ {
		if keys[k]>>32 == keys[k-1]>>32 {
			i, j := int(uint32(keys[k])), int(uint32(keys[k-1]))
			return nil, &FormatError{f.vertOffset(i), fmt.Sprintf("vertex %d at (%g,%g) repeats vertex %d", i, f.verts[i][0], f.verts[i][1], j)}
		}
	}

	// Polygons: sizes adding up to the edges, indices in range, shapes.
	m := &Mesh{verts: f.verts, ev: f.ev, enb: f.enb, w: w, h: h}
	if f.convex {
		m.walk = make([]uint64, (ncells+63)/64)
		for i := range ncells {
			if f.cells[i>>3]&(1<<(i&7)) != 0 {
				m.walk[i/64] |= 1 << (i % 64)
			}
		}
	} else {
		m.cell = make([]PolyID, ncells)
		for i := range m.cell {
			m.cell[i] = -1
		}
	}
	least := int32(4)
	if f.convex {
		least = 3
	}
	m.polys = make([]poly, len(f.sizes))
	used := make([]bool, nv)
	var e0 int64
	ne := int64(len(f.ev))
	for id, k := range f.sizes {
		at := f.sizeOffset(id)
		if k < least || int64(k) > ne-e0 {
			return nil, &FormatError{at, fmt.Sprintf("polygon %d has %d vertices, want %d to the %d edges left", id, uint32(k), least, ne-e0)}
		}
		m.polys[id] = poly{e0: int32(e0), ne: k}
		for i := e0; i < e0+int64(k); i++ {
			if v := f.ev[i]; v < 0 || int(v) >= nv {
				return nil, &FormatError{f.edgeOffset(int(i)), fmt.Sprintf("edge %d of polygon %d starts at vertex %d, want one of the %d", i-e0, id, uint32(v), nv)}
			}
			if nb := f.enb[i]; nb < -1 || int(nb) >= len(f.sizes) || int(nb) == id {
				return nil, &FormatError{f.edgeOffset(int(i)) + 4, fmt.Sprintf("edge %d of polygon %d has neighbour %d, want −1 or another of the %d polygons", i-e0, id, nb, len(f.sizes))}
			}
			used[f.ev[i]] = true
		}
		check := m.checkRect
		if f.convex {
			check = m.checkConvex
		}
		if msg := check(m.polys[id]); msg != "" {
			return nil, &FormatError{at, fmt.Sprintf("polygon %d %s", id, msg)}
		}
		e0 += int64(k)
	}
	if e0 != ne {
		return nil, &FormatError{40, fmt.Sprintf("%d edges, but the polygon sizes add up to %d", ne, e0)}
	}
	if i := slices.Index(used, false); i >= 0 {
		return nil, &FormatError{f.vertOffset(i), fmt.Sprintf("vertex %d is a corner of no polygon", i)}
	}

	if f.convex {
		return f.convexMesh(m, free)
	}

	// The polygons cover exactly the walkable cells, once.
	covered := 0
	for id, p := range m.polys {
		lo, hi := m.bounds(p)
		for y := int(lo[1]); y < int(hi[1]); y++ {
			for x := int(lo[0]); x < int(hi[0]); x++ {
				i := y*w + x
				if f.cells[i>>3]&(1<<(i&7)) == 0 {
					return nil, &FormatError{f.sizeOffset(id), fmt.Sprintf("polygon %d covers cell (%d,%d), which is not walkable", id, x, y)}
				}
				if o := m.cell[i]; o >= 0 {
					return nil, &FormatError{f.sizeOffset(id), fmt.Sprintf("polygon %d overlaps polygon %d at cell (%d,%d)", id, o, x, y)}
				}
				m.cell[i] = PolyID(id)
				covered++
			}
		}
	}
	if covered != free {
		for i, id := range m.cell {
			if id < 0 && f.cells[i>>3]&(1<<(i&7)) != 0 {
				return nil, &FormatError{f.cellsAt + int64(i>>3), fmt.Sprintf("walkable cell (%d,%d) is in no polygon", i%w, i/w)}
			}
		}
	}

	if err := f.checkCorners(m); err != nil {
		return nil, err
	}
	if err := f.link(m); err != nil {
		return nil, err
	}
	m.label()
	return m, nil
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

// convexMesh checks that the convex polygons of m, a mesh of source 3 whose
// vertices and polygon shapes have been checked, cover exactly the free
// walkable cells (see the format), and finishes it.
func (f *meshFile) convexMesh(m *Mesh, free int) (*Mesh, error) {
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
		return nil, &FormatError{36, fmt.Sprintf("the polygons' areas add up to %g, but %d cells are walkable", -float64(twice)/2, free)}
	}
	if len(m.polys) == 0 {
		// The point index needs a vertex; FromGrid writes a mesh of no
		// walkable cells as rectangles.
		return nil, &FormatError{12, "mesh of convex polygons (source 3) without polygons: a mesh of no walkable cells is written as rectangles (source 1)"}
	}
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
				return nil, &FormatError{at, fmt.Sprintf("edge %d of polygon %d, a wall from (%g,%g) to (%g,%g), does not run along cell sides", i, id, a[0], a[1], b[0], b[1])}
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
					return nil, &FormatError{at, fmt.Sprintf("edge %d of polygon %d is a wall, but the cell sides from (%d,%d) along it do not part a walkable cell inside from a blocked one outside", i, id, x, y)}
				}
				if sides[bit/64]&(1<<(bit%64)) != 0 {
					return nil, &FormatError{at, fmt.Sprintf("edge %d of polygon %d is a wall along the cell side from (%d,%d), which another wall covers too", i, id, x, y)}
				}
				sides[bit/64] |= 1 << (bit % 64)
				walls++
			}
		}
	}
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
	if walls != boundary {
		return nil, &FormatError{40, fmt.Sprintf("the walls cover %d cell sides, but the walkable cells have %d sides on the boundary", walls, boundary)}
	}
	if err := f.checkCorners(m); err != nil {
		return nil, err
	}
	if err := f.link(m); err != nil {
		return nil, err
	}
	m.label()
	m.idx = newPolyIndex(m)
	return m, nil
}

// checkRect returns what is wrong with polygon p as a polygon of a grid
// mesh, or "": its vertices must run once round an axis-aligned rectangle,
// counter-clockwise on screen (see the package documentation), with no
// vertex repeated in a row and no edge turning back.
func (m *Mesh) checkRect(p poly) string {
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

// link checks that each edge's neighbour is the polygon across it and
// fills the twins and portal counts, as [Mesh.twins] does for a built mesh.
func (f *meshFile) link(m *Mesh) error {
	type dirEdge struct {
		a, b int32 // vertices, in the polygon's order
		e    int32 // index into ev
	}
	all := make([]dirEdge, 0, len(m.ev))
	owner := make([]PolyID, len(m.ev))
	for id, p := range m.polys {
		for i := range p.ne {
			a, b := m.edgeIDs(p, i)
			all = append(all, dirEdge{a, b, p.e0 + i})
			owner[p.e0+i] = PolyID(id)
		}
	}
	key := func(a, b int32) uint64 { return uint64(a)<<32 | uint64(uint32(b)) }
	slices.SortFunc(all, func(x, y dirEdge) int { return cmp.Compare(key(x.a, x.b), key(y.a, y.b)) })
	for i := 1; i < len(all); i++ {
		if all[i].a == all[i-1].a && all[i].b == all[i-1].b {
			x, y := all[i-1].e, all[i].e
			return &FormatError{f.edgeOffset(int(max(x, y))), fmt.Sprintf("polygons %d and %d both have the edge from vertex %d to vertex %d", owner[x], owner[y], all[i].a, all[i].b)}
		}
	}
	find := func(a, b int32) int32 {
		k := key(a, b)
		i, ok := slices.BinarySearchFunc(all, k, func(x dirEdge, k uint64) int { return cmp.Compare(key(x.a, x.b), k) })
		if !ok {
			return -1
		}
		return all[i].e
	}
	m.etwin = make([]int32, len(m.ev))
	for id, p := range m.polys {
		for i := range p.ne {
			e := p.e0 + i
			a, b := m.edgeIDs(p, i)
			nb := m.enb[e]
			t := find(b, a)
			at := f.edgeOffset(int(e)) + 4
			switch {
			case nb < 0 && t >= 0:
				return &FormatError{at, fmt.Sprintf("edge %d of polygon %d is a wall, but polygon %d has the same edge", i, id, owner[t])}
			case nb >= 0 && (t < 0 || owner[t] != nb):
				return &FormatError{at, fmt.Sprintf("edge %d of polygon %d has neighbour %d, which does not have the same edge", i, id, nb)}
			case nb >= 0 && m.enb[t] != PolyID(id):
				return &FormatError{at, fmt.Sprintf("edge %d of polygon %d has neighbour %d, whose same edge has neighbour %d", i, id, nb, m.enb[t])}
			}
			if m.cell == nil {
				// A mesh built from polygons has no cells to check.
			} else if msg := m.across(PolyID(id), a, b, nb); msg != "" {
				return &FormatError{at, fmt.Sprintf("edge %d of polygon %d %s", i, id, msg)}
			}
			m.etwin[e] = -1
			if nb >= 0 {
				m.etwin[e] = t - m.polys[nb].e0
				m.nport++
			}
		}
	}
	m.nport /= 2
	return nil
}

// across returns what is wrong with the cells across the edge from vertex
// a to vertex b of polygon id, whose neighbour there is nb, or "": a wall
// faces blocked cells or the map's edge, a portal cells of nb only.
func (m *Mesh) across(id PolyID, a, b int32, nb PolyID) string {
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
			if c := m.cellPoly(x, y); c != nb {
				if nb < 0 {
					return fmt.Sprintf("is a wall, but cell (%d,%d) across it is in polygon %d", x, y, c)
				}
				return fmt.Sprintf("has neighbour %d, but cell (%d,%d) across it is in polygon %d", nb, x, y, c)
			}
		}
	}
	return ""
}
