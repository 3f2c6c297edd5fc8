package navmesh_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"image"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// encodeMesh writes m to memory and checks the byte count WriteTo returns
// against the documented size.
func encodeMesh(tb testing.TB, m *navmesh.Mesh, g *grid.Grid) []byte {
	tb.Helper()
	var buf bytes.Buffer
	n, err := m.WriteTo(&buf)
	if err != nil {
		tb.Fatal(err)
	}
	edges := 0
	for id := navmesh.PolyID(0); int(id) < m.NumPolys(); id++ {
		edges += len(m.AppendPolygon(nil, id))
	}
	cells := g.Width() * g.Height()
	want := 48 + (cells+7)/8 + 16*m.NumVertices() + (m.NumVertices()+7)/8 + 4*m.NumPolys() + 8*edges
	for id := navmesh.PolyID(0); int(id) < m.NumPolys(); id++ {
		if m.Area(id) != grid.AreaGround {
			want += m.NumPolys() // version 2: a byte of area type a polygon
			break
		}
	}
	if n != int64(buf.Len()) || buf.Len() != want {
		tb.Fatalf("WriteTo returned %d and wrote %d bytes, want %d", n, buf.Len(), want)
	}
	return buf.Bytes()
}

// sameMesh checks that b answers everything as a does: polygons,
// neighbours, point location, raycasts and path queries, on points of the
// 1/4 lattice over g and a margin round it.
func sameMesh(t *testing.T, a, b *navmesh.Mesh, g *grid.Grid, seed int64) {
	t.Helper()
	if a.NumPolys() != b.NumPolys() || a.NumPortals() != b.NumPortals() || a.NumVertices() != b.NumVertices() {
		t.Fatalf("read mesh has %d polygons, %d portals, %d vertices; written %d, %d, %d",
			b.NumPolys(), b.NumPortals(), b.NumVertices(), a.NumPolys(), a.NumPortals(), a.NumVertices())
	}
	for id := navmesh.PolyID(0); int(id) < a.NumPolys(); id++ {
		if a.Area(id) != b.Area(id) {
			t.Fatalf("polygon %d: read area %d, written %d", id, b.Area(id), a.Area(id))
		}
		if pa, pb := a.AppendPolygon(nil, id), b.AppendPolygon(nil, id); !slices.Equal(pa, pb) {
			t.Fatalf("polygon %d: read %v, written %v", id, pb, pa)
		}
		if na, nb := a.AppendNeighbors(nil, id), b.AppendNeighbors(nil, id); !slices.Equal(na, nb) {
			t.Fatalf("neighbours of %d: read %v, written %v", id, nb, na)
		}
	}
	r := testmap.NewRand(seed)
	point := func() mgl64.Vec2 {
		return mgl64.Vec2{float64(r.IntN(4*g.Width()+9)-4) / 4, float64(r.IntN(4*g.Height()+9)-4) / 4}
	}
	qa, qb := navmesh.NewSearcher(a), navmesh.NewSearcher(b)
	for range 300 {
		p, q := point(), point()
		ia, oka := a.Locate(p)
		ib, okb := b.Locate(p)
		na, ata := a.Nearest(p)
		nb, atb := b.Nearest(p)
		if ia != ib || oka != okb || na != nb || ata != atb {
			t.Fatalf("at %v: read mesh locates %d %v, nearest %d %v; written %d %v, %d %v", p, ib, okb, nb, atb, ia, oka, na, ata)
		}
		ha, aa := a.Raycast(p, q)
		hb, ab := b.Raycast(p, q)
		if ha != hb || aa != ab {
			t.Fatalf("Raycast(%v, %v): read %v %v, written %v %v", p, q, hb, ab, ha, aa)
		}
		pa, ra, erra := qa.AppendPath(nil, p, q, navmesh.Query{})
		pb, rb, errb := qb.AppendPath(nil, p, q, navmesh.Query{})
		if !slices.Equal(pa, pb) || ra != rb || fmt.Sprint(erra) != fmt.Sprint(errb) {
			t.Fatalf("%v→%v: read mesh gives %v %+v %v, written %v %+v %v", p, q, pb, rb, errb, pa, ra, erra)
		}
	}
	for range 100 {
		x, y := navmesh.PolyID(r.IntN(a.NumPolys()+2)-1), navmesh.PolyID(r.IntN(a.NumPolys()+2)-1)
		if a.Connected(x, y) != b.Connected(x, y) {
			t.Fatalf("Connected(%d, %d): read %v, written %v", x, y, b.Connected(x, y), a.Connected(x, y))
		}
	}
}

func fileGrids() []struct {
	name string
	g    *grid.Grid
} {
	gs := []struct {
		name string
		g    *grid.Grid
	}{
		{"open", testmap.Random(1, 13, 7, 0, grid.Options{})},
		{"walls only", testmap.Random(2, 9, 5, 1, grid.Options{})},
		{"one cell", testmap.Random(3, 1, 1, 0, grid.Options{})},
		{"blocky", blocky(4, 40, 30, 30)},
		{"4-connected", testmap.Random(5, 31, 17, 0.25, grid.Options{Connectivity: grid.Four})},
	}
	for seed := int64(6); seed < 12; seed++ {
		gs = append(gs, struct {
			name string
			g    *grid.Grid
		}{fmt.Sprintf("random seed %d", seed), testmap.Random(seed, 20+int(seed), 15, 0.05*float64(seed-5), grid.Options{})})
	}
	return gs
}

func TestFileRoundTrip(t *testing.T) {
	for _, gc := range fileGrids() {
		t.Run(gc.name, func(t *testing.T) {
			m := mustMesh(t, gc.g)
			b := encodeMesh(t, m, gc.g)
			rm, err := navmesh.Read(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if again := encodeMesh(t, rm, gc.g); !bytes.Equal(again, b) {
				t.Error("the read mesh writes different bytes")
			}
			fm, err := navmesh.ReadFor(bytes.NewReader(b), gc.g, navmesh.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if m.NumPolys() > 0 {
				sameMesh(t, m, rm, gc.g, 7)
				sameMesh(t, m, fm, gc.g, 8)
			}
		})
	}
}

// TestFileReadExact checks that Read stops at the end of the mesh, so that
// meshes can follow each other in one stream.
func TestFileReadExact(t *testing.T) {
	var files [][]byte
	var grids []*grid.Grid
	var stream bytes.Buffer
	for seed := int64(1); seed <= 3; seed++ {
		g := testmap.Random(seed, 10+int(seed), 9, 0.2, grid.Options{})
		grids = append(grids, g)
		files = append(files, encodeMesh(t, mustMesh(t, g), g))
		stream.Write(files[len(files)-1])
	}
	stream.WriteString("tail")
	r := iotest.OneByteReader(&stream)
	for i, want := range files {
		m, err := navmesh.ReadFor(r, grids[i], navmesh.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := encodeMesh(t, m, grids[i]); !bytes.Equal(got, want) {
			t.Errorf("mesh %d read from a stream differs", i)
		}
	}
	if rest, _ := io.ReadAll(r); string(rest) != "tail" {
		t.Errorf("left %q, want tail", rest)
	}
}

// fingerprint is navmesh.Fingerprint as documented, from the bits of the
// walkable-cells section.
func fingerprint(w, h uint32, cells []byte) uint64 {
	f := fnv.New64a()
	binary.Write(f, binary.LittleEndian, [2]uint32{w, h})
	f.Write(cells)
	return f.Sum64()
}

func TestFingerprint(t *testing.T) {
	seen := map[uint64]string{}
	for _, gc := range fileGrids() {
		g := gc.g
		cells := make([]byte, (g.Width()*g.Height()+7)/8)
		for y := range g.Height() {
			for x := range g.Width() {
				if i := y*g.Width() + x; g.Passable(image.Pt(x, y)) {
					cells[i/8] |= 1 << (i % 8)
				}
			}
		}
		fp := navmesh.Fingerprint(g)
		if want := fingerprint(uint32(g.Width()), uint32(g.Height()), cells); fp != want {
			t.Errorf("%s: Fingerprint %016x, want %016x", gc.name, fp, want)
		}
		if other, ok := seen[fp]; ok {
			t.Errorf("%s and %s have the same fingerprint", gc.name, other)
		}
		seen[fp] = gc.name
	}
	// The fingerprint ignores connectivity and terrain costs, as FromGrid does.
	a := testmap.Random(5, 31, 17, 0.25, grid.Options{Connectivity: grid.Four})
	b := testmap.RandomCosts(5, 31, 17, 0.25, 3, grid.Eight)
	if navmesh.Fingerprint(a) != navmesh.Fingerprint(b) {
		t.Error("fingerprints differ with connectivity or costs")
	}
	if allocs := testing.AllocsPerRun(10, func() { navmesh.Fingerprint(a) }); allocs != 0 {
		t.Errorf("Fingerprint: %v allocations, want 0", allocs)
	}
}

// smallMap is the map of the funnel's U-turn bug and its mesh file: three
// rectangles A = [0,1]², C = [2,3]×[0,1] and B = [0,3]×[1,2].
//
//	  0 1 2
//	0 A # C
//	1 B B B
func smallMap(tb testing.TB) (*grid.Grid, []byte) {
	tb.Helper()
	g, err := grid.FromRows([]string{".#.", "..."}, grid.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return g, encodeMesh(tb, rectMesh(tb, g), g)
}

// TestFileLayout reads the small map's file field by field, as the format
// documentation lays it out.
func TestFileLayout(t *testing.T) {
	g, b := smallMap(t)
	le := binary.LittleEndian
	f := parseFile(t, b)
	if string(b[:8]) != "CAIRNNAV" || le.Uint32(b[8:]) != 1 || le.Uint32(b[12:]) != 1 || f.w != 3 || f.h != 2 ||
		f.fp != navmesh.Fingerprint(g) || b[44] != f.cells[0] {
		t.Fatalf("header % x", b[:45])
	}
	// Cells 0, 2, 3, 4, 5 are walkable: 0b111101.
	if !bytes.Equal(f.cells, []byte{0x3d}) {
		t.Errorf("walkable cells % x, want 3d", f.cells)
	}
	if len(f.verts) != 10 || len(f.sizes) != 3 || len(f.edges) != 4+4+6 {
		t.Fatalf("%d vertices, %d polygons, %d edges; want 10, 3, 14", len(f.verts), len(f.sizes), len(f.edges))
	}
	// Polygon 0 is A, from its top-left corner down the west side; its
	// south side is the portal to B (polygon 2).
	a := [][2]float64{f.verts[f.edges[0][0]], f.verts[f.edges[1][0]], f.verts[f.edges[2][0]], f.verts[f.edges[3][0]]}
	if f.sizes[0] != 4 || !slices.Equal(a, [][2]float64{{0, 0}, {0, 1}, {1, 1}, {1, 0}}) {
		t.Errorf("polygon 0: %d vertices %v", f.sizes[0], a)
	}
	if nb := []int32{f.edges[0][1], f.edges[1][1], f.edges[2][1], f.edges[3][1]}; !slices.Equal(nb, []int32{-1, 2, -1, -1}) {
		t.Errorf("polygon 0's neighbours %v, want [-1 2 -1 -1]", nb)
	}
	// The convex corners of the walls are (1,1) and (2,1), round the
	// blocked cell (1,0).
	var corners [][2]float64
	for i, v := range f.verts {
		if f.corners[i/8]&(1<<(i%8)) != 0 {
			corners = append(corners, v)
		}
	}
	slices.SortFunc(corners, func(p, q [2]float64) int { return int(p[0] - q[0]) })
	if !slices.Equal(corners, [][2]float64{{1, 1}, {2, 1}}) {
		t.Errorf("corners %v, want (1,1) and (2,1)", corners)
	}
	if got, want := le.Uint32(b[len(b)-4:]), crc32.Checksum(b[:len(b)-4], crc32.MakeTable(crc32.Castagnoli)); got != want {
		t.Errorf("checksum %08x, want %08x", got, want)
	}
}

// meshFile is a mesh file taken apart, to be edited and put together again
// with a fresh checksum.
type meshFile struct {
	magic           string
	version, source uint32
	w, h            uint32
	fp              uint64
	cells           []byte
	verts           [][2]float64
	corners         []byte
	sizes           []uint32
	edges           [][2]int32 // vertex, neighbour
	areas           []byte     // version 2
}

func parseFile(tb testing.TB, b []byte) *meshFile {
	tb.Helper()
	le := binary.LittleEndian
	f := &meshFile{magic: string(b[:8]), version: le.Uint32(b[8:]), source: le.Uint32(b[12:]),
		w: le.Uint32(b[16:]), h: le.Uint32(b[20:]), fp: le.Uint64(b[24:])}
	nv, np, ne := int(le.Uint32(b[32:])), int(le.Uint32(b[36:])), int(le.Uint32(b[40:]))
	at := 44
	nc := (int(f.w)*int(f.h) + 7) / 8
	f.cells = slices.Clone(b[at : at+nc])
	at += nc
	for range nv {
		f.verts = append(f.verts, [2]float64{math.Float64frombits(le.Uint64(b[at:])), math.Float64frombits(le.Uint64(b[at+8:]))})
		at += 16
	}
	f.corners = slices.Clone(b[at : at+(nv+7)/8])
	at += (nv + 7) / 8
	for range np {
		f.sizes = append(f.sizes, le.Uint32(b[at:]))
		at += 4
	}
	for range ne {
		f.edges = append(f.edges, [2]int32{int32(le.Uint32(b[at:])), int32(le.Uint32(b[at+4:]))})
		at += 8
	}
	if f.version == 2 {
		f.areas = slices.Clone(b[at : at+np])
		at += np
	}
	if at+4 != len(b) {
		tb.Fatalf("parsed %d of %d bytes", at+4, len(b))
	}
	return f
}

func (f *meshFile) bytes() []byte {
	le := binary.LittleEndian
	b := []byte(f.magic)
	for _, v := range []uint32{f.version, f.source, f.w, f.h} {
		b = le.AppendUint32(b, v)
	}
	b = le.AppendUint64(b, f.fp)
	for _, v := range []int{len(f.verts), len(f.sizes), len(f.edges)} {
		b = le.AppendUint32(b, uint32(v))
	}
	b = append(b, f.cells...)
	for _, v := range f.verts {
		b = le.AppendUint64(b, math.Float64bits(v[0]))
		b = le.AppendUint64(b, math.Float64bits(v[1]))
	}
	b = append(b, f.corners...)
	for _, s := range f.sizes {
		b = le.AppendUint32(b, s)
	}
	for _, e := range f.edges {
		b = le.AppendUint32(b, uint32(e[0]))
		b = le.AppendUint32(b, uint32(e[1]))
	}
	b = append(b, f.areas...)
	return le.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
}

// refingerprint makes the fingerprint match the walkable cells.
func (f *meshFile) refingerprint() { f.fp = fingerprint(f.w, f.h, f.cells) }

// fixCRC makes the trailing checksum of b match the bytes before it.
func fixCRC(b []byte) {
	if len(b) >= 4 {
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], crc32.MakeTable(crc32.Castagnoli)))
	}
}

// vertexAt returns the index of the vertex at (x, y).
func (f *meshFile) vertexAt(tb testing.TB, x, y float64) int32 {
	i := slices.Index(f.verts, [2]float64{x, y})
	if i < 0 {
		tb.Fatalf("no vertex at (%v, %v)", x, y)
	}
	return int32(i)
}

// edgeFrom returns the index of polygon p's edge from vertex v.
func (f *meshFile) edgeFrom(tb testing.TB, p int, v int32) int {
	e0 := 0
	for _, s := range f.sizes[:p] {
		e0 += int(s)
	}
	for i := e0; i < e0+int(f.sizes[p]); i++ {
		if f.edges[i][0] == v {
			return i
		}
	}
	tb.Fatalf("polygon %d has no edge from vertex %d", p, v)
	return -1
}

// TestFileCorrupt edits the small map's file, mends the checksum, and
// checks that Read refuses it, saying what and where.
func TestFileCorrupt(t *testing.T) {
	_, valid := smallMap(t)
	base := parseFile(t, valid)
	nc := len(base.cells)
	vertAt := int64(44 + nc)
	sizeAt := vertAt + 16*int64(len(base.verts)) + int64(len(base.corners))
	edgeAt := sizeAt + 4*int64(len(base.sizes))
	put32 := func(b []byte, at int, v uint32) []byte { binary.LittleEndian.PutUint32(b[at:], v); fixCRC(b); return b }
	tests := []struct {
		name   string
		edit   func(t *testing.T, f *meshFile) []byte // nil: f.bytes()
		offset int64                                  // −1: any
		msg    string
	}{
		{"magic", func(t *testing.T, f *meshFile) []byte { f.magic = "CAIRNHPA"; return nil }, 0, "not a mesh file"},
		{"version", func(t *testing.T, f *meshFile) []byte { f.version = 5; return nil }, 8, "unknown version 5"},
		{"source", func(t *testing.T, f *meshFile) []byte { f.source = 0; return nil }, 12, "unknown source 0"},
		{"zero width", func(t *testing.T, f *meshFile) []byte { f.w = 0; return nil }, 16, "grid of 0×2 cells"},
		{"huge grid", func(t *testing.T, f *meshFile) []byte { f.w, f.h = 1<<20, 1<<20; return nil }, 16, "grid of 1048576×1048576 cells"},
		{"fingerprint", func(t *testing.T, f *meshFile) []byte { f.fp++; return nil }, 24, "fingerprint"},
		{"too many vertices", func(t *testing.T, f *meshFile) []byte { return put32(f.bytes(), 32, 13) }, 32, "13 vertices, more than the 12 corners"},
		{"too many polygons", func(t *testing.T, f *meshFile) []byte { return put32(f.bytes(), 36, 7) }, 36, "7 polygons, more than the 6 cells"},
		{"more polygons than walkable cells", func(t *testing.T, f *meshFile) []byte {
			f.sizes = append(f.sizes, 4, 4, 4)
			return nil
		}, 36, "6 polygons for 5 walkable cells"},
		{"too many edges", func(t *testing.T, f *meshFile) []byte { return put32(f.bytes(), 40, 25) }, 40, "25 edges, more than the 24"},
		{"vertex count off by one", func(t *testing.T, f *meshFile) []byte { return put32(f.bytes(), 32, 11) }, -1, ""},
		{"edge count off by one", func(t *testing.T, f *meshFile) []byte { return put32(f.bytes(), 40, 15) }, -1, ""},
		{"padding bit", func(t *testing.T, f *meshFile) []byte { f.cells[0] |= 0x80; f.refingerprint(); return nil }, vertAt - 1, "padding bits after the last cell"},
		{"blocked cell made walkable", func(t *testing.T, f *meshFile) []byte { f.cells[0] |= 0x02; f.refingerprint(); return nil }, 44, "walkable cell (1,0) is in no polygon"},
		{"walkable cell made blocked", func(t *testing.T, f *meshFile) []byte { f.cells[0] &^= 0x01; f.refingerprint(); return nil }, sizeAt, "polygon 0 covers cell (0,0), which is not walkable"},
		{"vertex off the lattice", func(t *testing.T, f *meshFile) []byte { f.verts[3][0] += 0.5; return nil }, vertAt + 3*16, "vertex 3 at"},
		{"vertex off the grid", func(t *testing.T, f *meshFile) []byte { f.verts[0][1] = -1; return nil }, vertAt, "is not a corner of the 3×2 grid"},
		{"NaN vertex", func(t *testing.T, f *meshFile) []byte { f.verts[1][0] = math.NaN(); return nil }, vertAt + 16, "vertex 1 at (NaN"},
		{"infinite vertex", func(t *testing.T, f *meshFile) []byte { f.verts[1][0] = math.Inf(1); return nil }, vertAt + 16, "vertex 1 at (+Inf"},
		{"repeated vertex", func(t *testing.T, f *meshFile) []byte { f.verts[5] = f.verts[2]; return nil }, vertAt + 5*16, "vertex 5 at (1,1) repeats vertex 2"},
		{"corner flag", func(t *testing.T, f *meshFile) []byte { f.corners[0] ^= 1; return nil }, vertAt + 16*10, "vertex 0 at (0,0) is flagged true"},
		{"corner padding", func(t *testing.T, f *meshFile) []byte { f.corners[1] |= 0x80; return nil }, sizeAt - 1, "padding bits after the last corner flag"},
		{"triangle", func(t *testing.T, f *meshFile) []byte { f.sizes[0], f.sizes[1] = 3, 5; return nil }, sizeAt, "polygon 0 has 3 vertices"},
		{"sizes too large", func(t *testing.T, f *meshFile) []byte { f.sizes[1] = 20; return nil }, sizeAt + 4, "polygon 1 has 20 vertices, want 4 to the 10"},
		{"sizes too small", func(t *testing.T, f *meshFile) []byte { f.sizes[2] = 4; f.edges = f.edges[:12]; return nil }, -1, ""},
		{"negative size", func(t *testing.T, f *meshFile) []byte { f.sizes[0] = 1 << 31; return nil }, sizeAt, "polygon 0 has 2147483648 vertices"},
		{"vertex index", func(t *testing.T, f *meshFile) []byte { f.edges[2][0] = 10; return nil }, edgeAt + 2*8, "edge 2 of polygon 0 starts at vertex 10, want one of the 10"},
		{"negative vertex index", func(t *testing.T, f *meshFile) []byte { f.edges[2][0] = -1; return nil }, edgeAt + 2*8, "starts at vertex 4294967295"},
		{"neighbour out of range", func(t *testing.T, f *meshFile) []byte { f.edges[1][1] = 3; return nil }, edgeAt + 8 + 4, "edge 1 of polygon 0 has neighbour 3, want −1 or another of the 3 polygons"},
		{"own neighbour", func(t *testing.T, f *meshFile) []byte { f.edges[1][1] = 0; return nil }, edgeAt + 8 + 4, "has neighbour 0, want"},
		{"neighbour below −1", func(t *testing.T, f *meshFile) []byte { f.edges[1][1] = -2; return nil }, edgeAt + 8 + 4, "has neighbour -2"},
		{"portal made a wall", func(t *testing.T, f *meshFile) []byte { f.edges[1][1] = -1; return nil }, edgeAt + 8 + 4, "edge 1 of polygon 0 is a wall, but polygon 2 has the same edge"},
		{"wall made a portal", func(t *testing.T, f *meshFile) []byte { f.edges[0][1] = 2; return nil }, edgeAt + 4, "edge 0 of polygon 0 has neighbour 2, which does not have the same edge"},
		{"wrong portal back", func(t *testing.T, f *meshFile) []byte {
			// B's edge to A names C instead.
			e := f.edgeFrom(t, 2, f.vertexAt(t, 1, 1))
			f.edges[e][1] = 1
			return nil
		}, edgeAt + 8 + 4, "edge 1 of polygon 0 has neighbour 2, whose same edge has neighbour 1"},
		{"reversed polygon", func(t *testing.T, f *meshFile) []byte {
			slices.Reverse(f.edges[4:8])
			return nil
		}, sizeAt + 4, "polygon 1 turns right"},
		{"turning back", func(t *testing.T, f *meshFile) []byte {
			f.edges[5][0], f.edges[6][0] = f.edges[6][0], f.edges[5][0]
			return nil
		}, sizeAt + 4, "polygon 1"},
		{"vertex no polygon uses", func(t *testing.T, f *meshFile) []byte {
			f.verts = append(f.verts, [2]float64{1, 2})
			return nil
		}, -1, "vertex 10 is a corner of no polygon"},
		{"checksum", func(t *testing.T, f *meshFile) []byte {
			b := f.bytes()
			b[len(b)-1] ^= 1
			return b
		}, int64(len(valid) - 4), "checksum"},
		{"damage", func(t *testing.T, f *meshFile) []byte {
			b := f.bytes()
			b[60] ^= 1
			return b
		}, int64(len(valid) - 4), "the file is damaged"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parseFile(t, valid)
			b := tt.edit(t, f)
			if b == nil {
				if len(f.verts) > len(base.verts) {
					f.corners = append(f.corners, 0)[:(len(f.verts)+7)/8]
				}
				b = f.bytes()
			}
			_, err := navmesh.Read(bytes.NewReader(b))
			fe, ok := errors.AsType[*navmesh.FormatError](err)
			if !ok {
				t.Fatalf("Read: %v, want a *FormatError", err)
			}
			if !strings.Contains(fe.Msg, tt.msg) || (tt.offset >= 0 && fe.Offset != tt.offset) {
				t.Fatalf("Read: %v\nwant %q at byte %d", err, tt.msg, tt.offset)
			}
			if !strings.HasPrefix(err.Error(), "navmesh: ") {
				t.Errorf("error %q does not start with navmesh: ", err)
			}
		})
	}
}

// convexMap returns a 3×3 map, whose convex mesh is two hexagons either
// side of the diagonal from (2,1) to (1,2), and the mesh's file:
//
//	  0 1 2
//	0 . . #
//	1 . . .
//	2 # . .
func convexMap(tb testing.TB) (*grid.Grid, []byte) {
	tb.Helper()
	g, err := grid.FromRows([]string{"..#", "...", "#.."}, grid.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return g, encodeMesh(tb, mustMesh(tb, g), g)
}

// TestFileCorruptConvex edits the file of a mesh of convex polygons (source
// 3) in ways only its checks catch, and checks that Read refuses it.
func TestFileCorruptConvex(t *testing.T) {
	_, valid := convexMap(t)
	base := parseFile(t, valid)
	if base.source != 3 || len(base.sizes) != 2 || base.sizes[0] != 6 || base.sizes[1] != 6 {
		t.Fatalf("source %d, polygon sizes %v: want source 3 and two hexagons", base.source, base.sizes)
	}
	vertAt := int64(44 + len(base.cells))
	sizeAt := vertAt + 16*int64(len(base.verts)) + int64(len(base.corners))
	edgeAt := sizeAt + 4*int64(len(base.sizes))
	// portal returns the edges of polygons 0 and 1 along the diagonal.
	portal := func(t *testing.T, f *meshFile) (int, int) {
		return f.edgeFrom(t, 0, f.vertexAt(t, 1, 2)), f.edgeFrom(t, 1, f.vertexAt(t, 2, 1))
	}
	tests := []struct {
		name   string
		edit   func(t *testing.T, f *meshFile)
		offset func(t *testing.T, f *meshFile) int64 // nil: any
		msg    string
	}{
		{"diagonal wall", func(t *testing.T, f *meshFile) {
			a, b := portal(t, f)
			f.edges[a][1], f.edges[b][1] = -1, -1
		}, func(t *testing.T, f *meshFile) int64 { a, _ := portal(t, f); return edgeAt + 8*int64(a) + 4 },
			"a wall from (1,2) to (2,1), does not run along cell sides"},
		{"wall made a portal", func(t *testing.T, f *meshFile) { f.edges[0][1] = 1 }, nil,
			"the walls cover 11 cell sides, but the walkable cells have 12 sides on the boundary"},
		{"blocked cell made walkable", func(t *testing.T, f *meshFile) { f.cells[0] |= 1 << 2; f.refingerprint() }, nil,
			"the polygons' areas add up to 7, but 8 cells are walkable"},
		{"walkable cell made blocked", func(t *testing.T, f *meshFile) { f.cells[0] &^= 1 << 4; f.refingerprint() }, nil,
			"the polygons' areas add up to 7, but 6 cells are walkable"},
		{"corner flag", func(t *testing.T, f *meshFile) {
			v := f.vertexAt(t, 2, 1)
			f.corners[v/8] ^= 1 << (v % 8)
		}, nil, "at (2,1) is flagged false as a convex corner of the walls, want true"},
		{"reversed polygon", func(t *testing.T, f *meshFile) { slices.Reverse(f.edges[6:12]) },
			func(t *testing.T, f *meshFile) int64 { return sizeAt + 4 }, "polygon 1 turns"},
		{"rectangles claimed", func(t *testing.T, f *meshFile) { f.source = 1 },
			func(t *testing.T, f *meshFile) int64 { return sizeAt }, "is not axis-aligned"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parseFile(t, valid)
			tt.edit(t, f)
			_, err := navmesh.Read(bytes.NewReader(f.bytes()))
			fe, ok := errors.AsType[*navmesh.FormatError](err)
			if !ok {
				t.Fatalf("Read: %v, want a *FormatError", err)
			}
			if !strings.Contains(fe.Msg, tt.msg) || (tt.offset != nil && fe.Offset != tt.offset(t, f)) {
				t.Fatalf("Read: %v\nwant %q", err, tt.msg)
			}
		})
	}
	// A mesh of rectangles is a mesh of convex polygons too.
	g, rects := smallMap(t)
	f := parseFile(t, rects)
	f.source = 3
	m, err := navmesh.Read(bytes.NewReader(f.bytes()))
	if err != nil {
		t.Fatalf("rectangles read as convex polygons: %v", err)
	}
	q := navmesh.NewSearcher(m)
	path, _, err := q.AppendPath(nil, mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{2.5, 0.5}, navmesh.Query{})
	if want := []mgl64.Vec2{{0.5, 0.5}, {1, 1}, {2, 1}, {2.5, 0.5}}; err != nil || !slices.Equal(path, want) {
		t.Fatalf("path %v, %v; want %v", path, err, want)
	}
	if _, err := navmesh.ReadFor(bytes.NewReader(f.bytes()), g, navmesh.Options{}); err != nil {
		t.Fatalf("ReadFor: %v", err)
	}
}

// TestFileAccepts edits the small map's file in ways that keep it a valid
// mesh of the same cells.
func TestFileAccepts(t *testing.T) {
	g, valid := smallMap(t)
	m := mustMesh(t, g)
	f := parseFile(t, valid)
	// Start B's list at another vertex: the polygon is the same.
	e0 := int(f.sizes[0] + f.sizes[1])
	b := f.edges[e0 : e0+int(f.sizes[2])]
	rot := append(slices.Clone(b[3:]), b[:3]...)
	copy(b, rot)
	rm, err := navmesh.Read(bytes.NewReader(f.bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if rm.NumPolys() != m.NumPolys() || rm.NumPortals() != m.NumPortals() {
		t.Fatalf("%d polygons, %d portals; want %d, %d", rm.NumPolys(), rm.NumPortals(), m.NumPolys(), m.NumPortals())
	}
	q := navmesh.NewSearcher(rm)
	path, _, err := q.AppendPath(nil, mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{2.5, 0.5}, navmesh.Query{})
	if want := []mgl64.Vec2{{0.5, 0.5}, {1, 1}, {2, 1}, {2.5, 0.5}}; err != nil || !slices.Equal(path, want) {
		t.Fatalf("path %v, %v; want %v", path, err, want)
	}
}

func TestFileReadFor(t *testing.T) {
	g, b := smallMap(t)
	if _, err := navmesh.ReadFor(bytes.NewReader(b), g, navmesh.Options{}); err != nil {
		t.Fatal(err)
	}
	refused := func(b []byte, g *grid.Grid, opt navmesh.Options, what string) {
		t.Helper()
		_, err := navmesh.ReadFor(bytes.NewReader(b), g, opt)
		fe, ok := errors.AsType[*navmesh.FormatError](err)
		if !ok || fe.Offset != 24 || !strings.Contains(fe.Msg, "built for another map or agent radius") {
			t.Errorf("%s: ReadFor = %v, want a *FormatError at byte 24 about another map", what, err)
		}
	}
	for _, rows := range [][]string{{"...", "..."}, {".#.", "...", "..."}, {".#..", "...."}} {
		other, err := grid.FromRows(rows, grid.Options{})
		if err != nil {
			t.Fatal(err)
		}
		refused(b, other, navmesh.Options{}, fmt.Sprint(rows))
	}
	if _, err := navmesh.ReadFor(bytes.NewReader(b), nil, navmesh.Options{}); err == nil {
		t.Error("ReadFor with a nil grid succeeded")
	}

	// A mesh for an agent of radius 1 is of polygons on subcells, bound
	// to that map, that radius and those subcells only.
	g = testmap.Random(3, 30, 20, 0.05, grid.Options{})
	m, err := navmesh.FromGrid(g, navmesh.Options{Radius: 1})
	if err != nil {
		t.Fatal(err)
	}
	b = encodePolyMesh(t, m)
	rm, err := navmesh.ReadFor(bytes.NewReader(b), g, navmesh.Options{Radius: 1})
	if err != nil {
		t.Fatal(err)
	}
	sameMesh(t, m, rm, g, 9)
	refused(b, g, navmesh.Options{}, "radius 0")
	refused(b, g, navmesh.Options{Radius: 2.5}, "radius 2.5")
	refused(b, g, navmesh.Options{Radius: 1, CellSize: 1.0 / 32}, "radius 1 on subcells of 1/32")
	other := g.WithCells(image.Rect(3, 3, 4, 4), false)
	refused(b, other, navmesh.Options{Radius: 1}, "radius 1 on an edited map")
	if _, err := navmesh.Read(bytes.NewReader(b)); err != nil {
		t.Errorf("Read of a radius mesh: %v", err)
	}
	refused(encodeMesh(t, mustMesh(t, g), g), g, navmesh.Options{Radius: 1}, "a point agent's mesh for radius 1")
	_, err = navmesh.ReadFor(bytes.NewReader(b), g, navmesh.Options{Radius: -1})
	if _, ok := errors.AsType[*navmesh.FormatError](err); err == nil || ok {
		t.Errorf("ReadFor with radius -1 = %v, want an error that is not a *FormatError", err)
	}
}

func TestFileTruncated(t *testing.T) {
	_, b := smallMap(t)
	for n := range len(b) {
		_, err := navmesh.Read(bytes.NewReader(b[:n]))
		fe, ok := errors.AsType[*navmesh.FormatError](err)
		if !ok || fe.Offset != int64(n) || (n >= 8 && !strings.Contains(fe.Msg, "truncated")) {
			t.Fatalf("%d of %d bytes: %v, want a truncated file at byte %d", n, len(b), err, n)
		}
	}
	// A reader that fails is not a format problem: its error is wrapped.
	boom := errors.New("boom")
	_, err := navmesh.Read(io.MultiReader(bytes.NewReader(b[:30]), iotest.ErrReader(boom)))
	if !errors.Is(err, boom) {
		t.Errorf("Read = %v, want it to wrap %v", err, boom)
	}
	if _, ok := errors.AsType[*navmesh.FormatError](err); ok {
		t.Errorf("Read = %v, a *FormatError for a failing reader", err)
	}
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errors.New("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

func TestFileWriteErrors(t *testing.T) {
	g := testmap.Random(1, 300, 300, 0.3, grid.Options{}) // a file of several buffers
	m := mustMesh(t, g)
	n, err := m.WriteTo(&failWriter{n: 100000})
	if err == nil || n != 100000 {
		t.Errorf("WriteTo = %d, %v; want 100000 bytes and the writer's error", n, err)
	}
	if n, err := new(navmesh.Mesh).WriteTo(io.Discard); err == nil || n != 0 {
		t.Errorf("WriteTo of a mesh not built from a grid = %d, %v; want an error", n, err)
	}
}

func TestFileReadAllocs(t *testing.T) {
	// A header that claims the largest counts allocates no more than a
	// short file needs.
	_, valid := smallMap(t)
	f := parseFile(t, valid)
	f.w, f.h = 16000, 16000
	b := f.bytes()[:44]
	le := binary.LittleEndian
	le.PutUint32(b[32:], 16001*16001)
	le.PutUint32(b[36:], 16000*16000)
	le.PutUint32(b[40:], 1<<30)
	var before, after runtimeMem
	before.read()
	for range 10 {
		if _, err := navmesh.Read(bytes.NewReader(b)); err == nil {
			t.Fatal("Read accepted a header alone")
		}
	}
	after.read()
	if grew := after.total - before.total; grew > 10*(3<<20) {
		t.Errorf("10 reads of a 44-byte header allocated %d bytes", grew)
	}
}

type runtimeMem struct{ total uint64 }

func (m *runtimeMem) read() {
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	m.total = s.TotalAlloc
}

// craft makes the file of a w×h grid whose walkable cells are those of
// rows ('.' walkable) and whose polygons are the vertex lists polys, with
// the neighbours nbs (nil: walls all round), numbering vertices as they
// come and flagging convex corners as Read wants them.
func craft(rows []string, polys [][][2]float64, nbs [][]int32) *meshFile {
	w, h := len(rows[0]), len(rows)
	f := &meshFile{magic: "CAIRNNAV", version: 1, source: 1, w: uint32(w), h: uint32(h)}
	f.cells = make([]byte, (w*h+7)/8)
	walkable := func(x, y int) bool { return x >= 0 && y >= 0 && x < w && y < h && rows[y][x] == '.' }
	for y := range h {
		for x := range w {
			if i := y*w + x; walkable(x, y) {
				f.cells[i/8] |= 1 << (i % 8)
			}
		}
	}
	f.refingerprint()
	for p, vs := range polys {
		f.sizes = append(f.sizes, uint32(len(vs)))
		for i, v := range vs {
			k := slices.Index(f.verts, v)
			if k < 0 {
				k = len(f.verts)
				f.verts = append(f.verts, v)
			}
			nb := int32(-1)
			if nbs != nil {
				nb = nbs[p][i]
			}
			f.edges = append(f.edges, [2]int32{int32(k), nb})
		}
	}
	f.corners = make([]byte, (len(f.verts)+7)/8)
	for i, v := range f.verts {
		x, y := int(v[0]), int(v[1])
		blocked := 0
		for _, c := range [4][2]int{{x - 1, y - 1}, {x, y - 1}, {x - 1, y}, {x, y}} {
			if !walkable(c[0], c[1]) {
				blocked++
			}
		}
		if blocked == 1 {
			f.corners[i/8] |= 1 << (i % 8)
		}
	}
	return f
}

// TestFileCrafted reads files put together by hand: mistakes that editing a
// file FromGrid wrote cannot make, and one mesh that FromGrid would not
// build but Read accepts.
func TestFileCrafted(t *testing.T) {
	open3 := []string{"...", "...", "..."}
	rect := func(x0, y0, x1, y1 float64) [][2]float64 { return [][2]float64{{x0, y0}, {x0, y1}, {x1, y1}, {x1, y0}} }
	tests := []struct {
		name string
		f    *meshFile
		msg  string // "": accepted
	}{
		{"columns", craft([]string{"..", ".."}, [][][2]float64{
			{{0, 0}, {0, 1}, {0, 2}, {1, 2}, {1, 1}, {1, 0}},
			{{1, 0}, {1, 1}, {1, 2}, {2, 2}, {2, 1}, {2, 0}},
		}, [][]int32{{-1, -1, -1, 1, 1, -1}, {0, 0, -1, -1, -1, -1}}), ""},
		{"overlap", craft([]string{".."}, [][][2]float64{rect(0, 0, 2, 1), rect(0, 0, 1, 1)}, nil),
			"polygon 1 overlaps polygon 0 at cell (0,0)"},
		{"wall between walkable cells", craft([]string{"..", ".."}, [][][2]float64{
			{{0, 0}, {0, 1}, {2, 1}, {2, 0}}, rect(0, 1, 1, 2), rect(1, 1, 2, 2),
		}, nil), "edge 1 of polygon 0 is a wall, but cell (0,1) across it is in polygon 1"},
		{"repeated vertex", craft(open3, [][][2]float64{{{0, 0}, {0, 1}, {0, 1}, {1, 1}, {1, 0}}}, nil),
			"polygon 0 repeats vertex (0,1)"},
		{"turning back", craft(open3, [][][2]float64{{{0, 0}, {0, 1}, {1, 1}, {0, 1}}}, nil),
			"polygon 0 turns back at (1,1)"},
		{"twice round", craft(open3, [][][2]float64{append(rect(0, 0, 1, 1), rect(0, 0, 1, 1)...)}, nil),
			"polygon 0 turns 8 times a quarter"},
		{"diagonal edge", craft(open3, [][][2]float64{{{0, 0}, {0, 1}, {1, 1}, {2, 0}}}, nil),
			"polygon 0 edge 2 from (1,1) to (2,0) is not axis-aligned"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := navmesh.Read(bytes.NewReader(tt.f.bytes()))
			if tt.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				if m.NumPolys() != len(tt.f.sizes) {
					t.Fatalf("%d polygons, want %d", m.NumPolys(), len(tt.f.sizes))
				}
				return
			}
			fe, ok := errors.AsType[*navmesh.FormatError](err)
			if !ok || !strings.Contains(fe.Msg, tt.msg) {
				t.Fatalf("Read: %v\nwant %q", err, tt.msg)
			}
		})
	}
	// Edges that the polygon sizes do not account for.
	f := craft([]string{".."}, [][][2]float64{rect(0, 0, 2, 1)}, nil)
	f.edges = append(f.edges, f.edges[0])
	_, err := navmesh.Read(bytes.NewReader(f.bytes()))
	if fe, ok := errors.AsType[*navmesh.FormatError](err); !ok || fe.Offset != 40 || !strings.Contains(fe.Msg, "5 edges, but the polygon sizes add up to 4") {
		t.Errorf("Read: %v, want the edge count refused", err)
	}
}

func ExampleRead() {
	//	    0 1 2
	//	  0 . # .
	//	  1 . . .
	g, _ := grid.FromRows([]string{".#.", "..."}, grid.Options{})
	m, _ := navmesh.FromGrid(g, navmesh.Options{})
	var file bytes.Buffer
	n, err := m.WriteTo(&file)
	fmt.Println(n, err)

	// ReadFor refuses a mesh built for another map.
	other, _ := grid.FromRows([]string{"...", "..."}, grid.Options{})
	_, err = navmesh.ReadFor(bytes.NewReader(file.Bytes()), other, navmesh.Options{})
	fmt.Println(err)

	m, err = navmesh.ReadFor(&file, g, navmesh.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	path, _, _ := navmesh.NewSearcher(m).AppendPath(nil, mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{2.5, 0.5}, navmesh.Query{})
	fmt.Println(m.NumPolys(), path)
	// Output:
	// 335 <nil>
	// navmesh: mesh was built for another map or agent radius: file fingerprint 60114642be8ca51b (3×2), map fingerprint 60114842be8ca881 (3×2) (byte 24)
	// 3 [[0.5 0.5] [1 1] [2 1] [2.5 0.5]]
}
