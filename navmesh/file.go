package navmesh

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/binfile"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
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
// Version 2 is version 1 for a mesh of a grid whose polygons have area
// types ([Mesh.Area]) other than ground: it is written only for such a
// mesh, and has one more section between the edges and the checksum:
//
//	offset  size  field
//	           P  areas: the area type of each polygon, a byte, never
//	              255 (grid.AreaSolid)
//
// A mesh whose polygons are all ground is written as version 1, as before
// area types existed, and a mesh built from polygons always is.
//
// Versions 3 and 4 are versions 1 and 2 for a mesh with landmarks
// ([Mesh.WithLandmarks]), of any source (3 only for polygons); they have
// one more section, after the areas if any and before the checksum:
//
//	offset  size  field
//	           4  K, the number of landmarks, uint32 (1 to MaxLandmarks)
//	          4K  the landmarks: a vertex index each, uint32
//	        4V·K  distances, float32, vertex by vertex, for each vertex
//	              its K distances from the landmarks in their order: NaN
//	              where it has none, else the length of the shortest
//	              path (0 to 10¹⁵; 0 for a landmark from itself)
//
// Read checks the section's shape and ranges but cannot check the
// distances without measuring them again: a file whose distances were
// changed by hand (and its checksum made again) gives legal paths that
// may be longer than the shortest.
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
// number of portals, the connected components and the point-location index
// exactly as FromPolygons does.
//
// Everything else a mesh holds is recomputed by Read: which polygon covers
// each cell (source 1) or the point-location index (source 3), the twin of
// each portal edge, the number of portals and the connected components. The
// walkable cells are redundant with the polygons too, but they bound the
// memory of the cell index by the bytes read, and Read checks that the
// polygons cover exactly those cells: rectangles cell by cell; convex
// polygons by their walls, which must run along cell sides between a
// walkable cell inside and a blocked one (or the map's edge) outside, and
// together cover every such side once, and by their areas, which must add
// up to the number of walkable cells. The fingerprint
// is redundant with the walkable cells, and checked against them; it lets
// [ReadFor] refuse a mesh of another map before reading past the header.
//
// This file holds what the sources share: the header, the records of
// vertices, polygon sizes and edges, the checks of the polygons' records
// and of their neighbours. file_grid.go reads and writes the grid sections
// of sources 1 and 3, file_rect.go checks rectangles (source 1),
// file_convex.go convex polygons of a grid (source 3), and file_poly.go
// reads and writes meshes built from polygons (source 2).

const (
	fileMagic      = "CAIRNNAV"
	fileVersion    = 1
	fileAreas      = 2 // the version of a mesh file with area types
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

// WriteTo writes m to w in Cairn's binary mesh format (version 1, or 2 to 4
// with area types or landmarks) and
// returns the number of bytes written. For a mesh built by [FromGrid] that
// is 48 + ⌈W·H/8⌉ + 16·V + ⌈V/8⌉ + 4·P + 8·E for a W×H grid and V
// vertices, P polygons and E polygon edges; the file records which cells
// the mesh covers and their [Fingerprint], so that [ReadFor] can refuse it
// for another map or agent radius, but not the grid itself. For a mesh
// built by [FromPolygons] it is 48 + 16·V + 4·P + 8·E: the vertices,
// polygons and neighbours, from which [Read] rebuilds the rest. A mesh of
// a grid with area types adds P bytes, and one with K landmarks 4 + 4·K +
// 4·V·K, their distances to every vertex, which Read gives back.
//
// Meshes built otherwise cannot be written; for them WriteTo returns an
// error and writes nothing. It costs one pass over the mesh, allocates a
// 64 KiB buffer, and is safe for concurrent use, since it only reads m.
func (m *Mesh) WriteTo(w io.Writer) (int64, error) {
	switch m.kind {
	case rectMesh:
		return m.writeGrid(w, sourceGrid)
	case convexGridMesh:
		return m.writeGrid(w, sourceConvex)
	case polygonMesh:
		return m.writePolygons(w)
	}
	return 0, errors.New("navmesh: only meshes built from a grid or from polygons can be written")
}

// writeHeader writes the header of m's file: the source, then the grid's
// size and fingerprint, zero for a mesh built from polygons, and the counts.
func (m *Mesh) writeHeader(e *binfile.Writer, source uint32, w, h uint32, fp uint64) {
	e.Bytes([]byte(fileMagic))
	e.U32(fileVersionOf(m.area != nil, m.lm != nil))
	e.U32(source)
	e.U32(w)
	e.U32(h)
	e.U64(fp)
	e.U32(uint32(len(m.verts)))
	e.U32(uint32(len(m.polys)))
	e.U32(uint32(len(m.ev)))
}

// writeVertices writes the vertices.
func (m *Mesh) writeVertices(e *binfile.Writer) {
	for _, v := range m.verts {
		e.U64(math.Float64bits(v[0]))
		e.U64(math.Float64bits(v[1]))
	}
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
	for _, a := range m.area {
		e.Byte(a)
	}
	m.writeLandmarks(e)
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
	return readMesh(r, nil, nil)
}

// ReadFor is [Read] for the mesh that [FromGrid] builds from g with opt: it
// also refuses, with a [*FormatError] naming both fingerprints, a mesh whose
// walkable cells are not the cells FromGrid keeps, which are g's free cells
// for a point agent and fewer for a larger radius. A mesh of another map or
// for another radius, or one built by [FromPolygons], is refused before
// ReadFor reads past the header. It
// first computes, as FromGrid does, the cells an agent of radius
// opt.Radius may occupy (an invalid radius is an error, not a
// FormatError), and their [Fingerprint]: O(W·H) for a point agent. For
// a radius the fingerprint covers the raster the walls are offset on
// (see [Options]), so a file built by a version of Cairn whose raster
// differs (before the lines along the walls' offsets, or with other
// default subcells) is refused as built for another radius: build it
// again.
//
// With opt.TileSize above 0 (and a point agent, not Rectangles), the mesh
// must be the one FromGrid builds in tiles of that side: ReadFor recovers
// its tiles from its polygons and the grid and checks that stitching them
// gives the mesh read (a *FormatError otherwise), which costs about one
// Update's stitching of all the tiles; [Mesh.Update] can then edit it as
// it edits a mesh FromGrid built. Like FromGrid, it holds g's read lock
// while it reads g.
func ReadFor(r io.Reader, g *grid.Grid, opt Options) (*Mesh, error) {
	if err := checkTileSize(opt); err != nil {
		return nil, err
	}
	if g != nil {
		g.RLock()
		defer g.RUnlock()
	}
	if g != nil && opt.Radius > 0 && !opt.Rectangles {
		if err := checkRadius(opt.Radius); err != nil {
			return nil, err
		}
		// FromGrid's mesh for a radius is of polygons, bound to the grid,
		// the radius and the subcells; one too large for any leaves no
		// room and is the empty grid mesh.
		if opt.Radius <= float64(min(g.Width(), g.Height()))/2 {
			c, err := subcell(g, opt)
			if err != nil {
				return nil, err
			}
			b := radiusBinding(g, opt.Radius, c)
			return readMesh(r, nil, &b)
		}
		return readMesh(r, blockedGrid(g.Width(), g.Height()), nil)
	}
	g, err := erode(g, opt.Radius)
	if err != nil {
		return nil, err
	}
	m, err := readMesh(r, g, nil)
	if err != nil || opt.TileSize == 0 || opt.Rectangles {
		return m, err
	}
	if m.kind != convexGridMesh && len(m.polys) > 0 {
		return nil, &FormatError{12, fmt.Sprintf("mesh of rectangles, not of the convex polygons of tiles of %d cells", opt.TileSize)}
	}
	if err := m.retile(g, opt.TileSize); err != nil {
		return nil, err
	}
	m.lm = m.lm.byRows(m.tiles.rowVert)
	m.lmHeld = m.lm != nil
	return m, nil
}

// meshFile is what readMesh has read of a file, with the offsets of its
// sections.
type meshFile struct {
	kind    meshKind // of the mesh the file holds
	w, h    int
	fp      uint64
	cells   []byte // walkable-cells bits
	verts   []mgl64.Vec2
	corners []byte
	sizes   []int32
	ev      []int32
	enb     []PolyID
	areas   bool    // versions 2 and 4: the file has an areas section
	area    []uint8 // its content
	// Versions 3 and 4: the file has a landmarks section (lms), with lmK
	// landmarks at vertices lmAt32 and their distances lmD.
	lms    bool
	lmK    int
	lmAt32 []int32
	lmD    []float32

	cellsAt, vertAt, cornerAt, sizeAt, edgeAt, areaAt, lmAt int64
}

// readMesh reads the header of a mesh file and the rest by its source; with
// g not nil, only a mesh built from a grid, for the walkable cells of g.
func readMesh(r io.Reader, g *grid.Grid, bound *binding) (*Mesh, error) {
	d := binfile.NewReader(r, "navmesh", func(off int64, msg string) error { return &FormatError{off, msg} })
	hdr := d.Scratch(fileHeaderSize)
	if err := d.Header(hdr, fileMagic, "mesh"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	version := le.Uint32(hdr[8:])
	areas, _, ok := versionParts(version)
	if !ok {
		return nil, &FormatError{8, fmt.Sprintf("unknown version %d, want %d to %d", version, fileVersion, fileAreasLandmarks)}
	}
	switch s := le.Uint32(hdr[12:]); {
	case s == sourcePolygons && areas:
		return nil, &FormatError{8, fmt.Sprintf("version %d (area types) of a mesh built from polygons, which has none", version)}
	case s == sourcePolygons && g != nil && le.Uint32(hdr[16:]) != 0:
		return nil, &FormatError{24, "mesh was built for another map or agent radius: it keeps an agent radius from the walls, and is read for a point agent (give ReadFor, or -radius, the radius it was built with)"}
	case s == sourcePolygons && g != nil:
		return nil, &FormatError{12, "mesh was built from polygons, not from a grid: read it with Read, not ReadFor"}
	case s == sourcePolygons:
		return readPolyFile(d, hdr, bound)
	case bound != nil:
		return nil, &FormatError{24, "mesh was built for another map or agent radius: it is a point agent's, and is read for an agent radius (build one with that radius, or read it without)"}
	case s != sourceGrid && s != sourceConvex:
		return nil, &FormatError{12, fmt.Sprintf("unknown source %d, want %d (rectangles from a grid), %d (polygons) or %d (convex polygons from a grid)", s, sourceGrid, sourcePolygons, sourceConvex)}
	}
	return readGridFile(d, hdr, g)
}

// readSections reads the sections after the header of a file of n
// vertices, p polygons and e edges, and the checksum: for a mesh built
// from a grid the walkable cells (nbytes bytes) and the corner flags too.
// It reads everything and checks the sum before the content is checked,
// so that a damaged file reads as such rather than as some odd mesh. The
// slices start with room for at most 2¹⁶ records each, so that memory
// grows with the bytes read, not with the counts a header claims.
func (f *meshFile) readSections(d *binfile.Reader, nbytes, n, p, e int) error {
	grid := f.kind != polygonMesh
	f.verts = make([]mgl64.Vec2, 0, min(n, 1<<16))
	f.sizes = make([]int32, 0, min(p, 1<<16))
	f.ev = make([]int32, 0, min(e, 1<<16))
	f.enb = make([]PolyID, 0, min(e, 1<<16))
	var err error
	if grid {
		f.cells = make([]byte, 0, min(nbytes, 1<<16))
		f.corners = make([]byte, 0, min((n+7)/8, 1<<16))
		err = d.Records(nbytes, 1, "walkable cells", func(b []byte) { f.cells = append(f.cells, b[0]) })
	}
	if err == nil {
		err = f.readVertices(d, n)
	}
	if err == nil && grid {
		err = d.Records((n+7)/8, 1, "corners", func(b []byte) { f.corners = append(f.corners, b[0]) })
	}
	if err == nil {
		err = f.readPolys(d, p, e)
	}
	if err == nil && f.areas {
		f.area = make([]uint8, 0, min(p, 1<<16))
		err = d.Records(p, 1, "areas", func(b []byte) { f.area = append(f.area, b[0]) })
	}
	if err == nil && f.lms {
		f.lmAt = d.Offset()
		err = f.readLandmarks(d, n)
	}
	if err == nil {
		err = d.Checksum()
	}
	return err
}

// readVertices reads n vertices, float64 pairs, into f.
func (f *meshFile) readVertices(d *binfile.Reader, n int) error {
	le := binary.LittleEndian
	return d.Records(n, vertexSize, "vertices", func(b []byte) {
		f.verts = append(f.verts, mgl64.Vec2{math.Float64frombits(le.Uint64(b)), math.Float64frombits(le.Uint64(b[8:]))})
	})
}

// readPolys reads the sizes of p polygons and their e edge records
// (vertex, neighbour) into f.
func (f *meshFile) readPolys(d *binfile.Reader, p, e int) error {
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

// Offsets of records.
func (f *meshFile) vertOffset(i int) int64 { return f.vertAt + vertexSize*int64(i) }
func (f *meshFile) sizeOffset(i int) int64 { return f.sizeAt + polySizeSize*int64(i) }
func (f *meshFile) edgeOffset(i int) int64 { return f.edgeAt + edgeRecordSize*int64(i) }

// polygons checks the polygon records read into f, for the mesh m that has
// f's vertices and edges, and sets m's polygons: sizes of at least least
// vertices adding up to the edges, vertex and neighbour indices in range,
// and shapes that shape (checkRect or checkConvex) finds nothing wrong
// with.
func (f *meshFile) polygons(m *Mesh, least int32, shape func(m *Mesh, p poly) string) error {
	nv := len(f.verts)
	m.polys = make([]poly, len(f.sizes))
	var e0 int64
	ne := int64(len(f.ev))
	for id, k := range f.sizes {
		at := f.sizeOffset(id)
		if k < least || int64(k) > ne-e0 {
			return &FormatError{at, fmt.Sprintf("polygon %d has %d vertices, want %d to the %d edges left", id, uint32(k), least, ne-e0)}
		}
		m.polys[id] = poly{e0: int32(e0), ne: k}
		for i := e0; i < e0+int64(k); i++ {
			if v := f.ev[i]; v < 0 || int(v) >= nv {
				return &FormatError{f.edgeOffset(int(i)), fmt.Sprintf("edge %d of polygon %d starts at vertex %d, want one of the %d", i-e0, id, uint32(v), nv)}
			}
			if nb := f.enb[i]; nb < -1 || int(nb) >= len(f.sizes) || int(nb) == id {
				return &FormatError{f.edgeOffset(int(i)) + 4, fmt.Sprintf("edge %d of polygon %d has neighbour %d, want −1 or another of the %d polygons", i-e0, id, nb, len(f.sizes))}
			}
		}
		if msg := shape(m, m.polys[id]); msg != "" {
			return &FormatError{at, fmt.Sprintf("polygon %d %s", id, msg)}
		}
		e0 += int64(k)
	}
	if e0 != ne {
		return &FormatError{40, fmt.Sprintf("%d edges, but the polygon sizes add up to %d", ne, e0)}
	}
	return nil
}

// checkConvex returns what is wrong with polygon p as a polygon of a mesh
// built from polygons, or "": its vertices must run once round a convex
// polygon of positive area, counter-clockwise on screen (see the package
// documentation), each turn exactly to the same side or straight on, never
// back. Turning that way only, the edges' direction rotates one way in
// steps below 180°, and it has gone round once when it has passed the +x
// direction once.
func checkConvex(m *Mesh, p poly) string {
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
		switch o := geom.Orient(a, b, c); {
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

// link checks that each edge's neighbour is the polygon across it and
// fills the twins and counts the portals, as [Mesh.twins] does for a built mesh.
// across, when not nil, checks each edge, from vertex a to vertex b of
// polygon id with neighbour nb, against what lies across it: what it
// returns, when not "", is what is wrong.
func (f *meshFile) link(m *Mesh, across func(id PolyID, a, b int32, nb PolyID) string) error {
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
			if across != nil {
				if msg := across(PolyID(id), a, b, nb); msg != "" {
					return &FormatError{at, fmt.Sprintf("edge %d of polygon %d %s", i, id, msg)}
				}
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
