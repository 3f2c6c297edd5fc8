package navmesh_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// polyFileMeshes are meshes from polygons to write and read back.
func polyFileMeshes(tb testing.TB) []struct {
	name string
	m    *navmesh.Mesh
} {
	tb.Helper()
	var out []struct {
		name string
		m    *navmesh.Mesh
	}
	add := func(name string, mp orb.MultiPolygon) {
		m, err := navmesh.FromPolygons(mp, navmesh.Options{})
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		out = append(out, struct {
			name string
			m    *navmesh.Mesh
		}{name, m})
	}
	for _, c := range handPolygons() {
		add(c.name, c.mp)
	}
	rnd := rand.New(rand.NewPCG(7, 11))
	for i := range 8 {
		add(fmt.Sprintf("random %d", i), orb.MultiPolygon{randomPolygon(rnd)})
	}
	for i := range 3 {
		add(fmt.Sprintf("star %d", i), orb.MultiPolygon{{star(rnd, orb.Point{0, 0}, 50+100*i, 10, 40)}})
	}
	return out
}

// encodePolyMesh writes m and checks the documented size.
func encodePolyMesh(tb testing.TB, m *navmesh.Mesh) []byte {
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
	if want := 48 + 16*m.NumVertices() + 4*m.NumPolys() + 8*edges; n != int64(buf.Len()) || buf.Len() != want {
		tb.Fatalf("WriteTo returned %d and wrote %d bytes, want %d", n, buf.Len(), want)
	}
	return buf.Bytes()
}

// samePolyMesh checks that b answers queries as a does, on random points
// round the mesh's bounds.
func samePolyMesh(t *testing.T, a, b *navmesh.Mesh, seed uint64) {
	t.Helper()
	if !navmesh.SameInternals(a, b) {
		t.Fatal("read mesh differs from the written one")
	}
	lo, hi := mgl64.Vec2{math.Inf(1), math.Inf(1)}, mgl64.Vec2{math.Inf(-1), math.Inf(-1)}
	for id := navmesh.PolyID(0); int(id) < a.NumPolys(); id++ {
		for _, v := range a.AppendPolygon(nil, id) {
			lo = mgl64.Vec2{math.Min(lo[0], v[0]), math.Min(lo[1], v[1])}
			hi = mgl64.Vec2{math.Max(hi[0], v[0]), math.Max(hi[1], v[1])}
		}
	}
	rnd := rand.New(rand.NewPCG(seed, 1))
	verts := a.AppendPolygon(nil, 0)
	point := func() mgl64.Vec2 {
		if rnd.IntN(8) == 0 {
			return verts[rnd.IntN(len(verts))]
		}
		return mgl64.Vec2{lo[0] - 1 + (hi[0]-lo[0]+2)*rnd.Float64(), lo[1] - 1 + (hi[1]-lo[1]+2)*rnd.Float64()}
	}
	qa, qb := navmesh.NewSearcher(a), navmesh.NewSearcher(b)
	for range 200 {
		p, q := point(), point()
		ia, oka := a.Locate(p)
		ib, okb := b.Locate(p)
		if ia != ib || oka != okb {
			t.Fatalf("Locate(%v): read %d %v, written %d %v", p, ib, okb, ia, oka)
		}
		ha, aa := a.Raycast(p, q)
		hb, ab := b.Raycast(p, q)
		if ha != hb || aa != ab {
			t.Fatalf("Raycast(%v, %v): read %v %v, written %v %v", p, q, hb, ab, ha, aa)
		}
		pa, ra, erra := qa.AppendPath(nil, p, q, navmesh.Query{})
		pb, rb, errb := qb.AppendPath(nil, p, q, navmesh.Query{})
		if !slices.Equal(pa, pb) || ra != rb || fmt.Sprint(erra) != fmt.Sprint(errb) {
			t.Fatalf("%v→%v: read %v %+v %v, written %v %+v %v", p, q, pb, rb, errb, pa, ra, erra)
		}
	}
}

func TestFilePolygonsRoundTrip(t *testing.T) {
	for i, c := range polyFileMeshes(t) {
		t.Run(c.name, func(t *testing.T) {
			data := encodePolyMesh(t, c.m)
			if s := binary.LittleEndian.Uint32(data[12:]); s != 2 {
				t.Fatalf("source %d, want 2", s)
			}
			m, err := navmesh.Read(bytes.NewReader(append(slices.Clone(data), "trailing"...)))
			if err != nil {
				t.Fatal(err)
			}
			if again := encodePolyMesh(t, m); !bytes.Equal(again, data) {
				t.Fatal("read mesh writes different bytes")
			}
			samePolyMesh(t, c.m, m, uint64(i))
			_, err = navmesh.ReadFor(bytes.NewReader(data), blocky(1, 4, 4, 0), navmesh.Options{})
			if fe, ok := errors.AsType[*navmesh.FormatError](err); !ok || fe.Offset != 12 || !strings.Contains(fe.Msg, "built from polygons") {
				t.Fatalf("ReadFor of a polygon mesh: %v", err)
			}
			for n := range len(data) {
				if _, err := navmesh.Read(bytes.NewReader(data[:n])); err == nil {
					t.Fatalf("read %d of %d bytes", n, len(data))
				}
			}
		})
	}
}

// polyFile is a parsed mesh file of source 2.
type polyFile struct {
	verts [][2]float64
	sizes []uint32
	edges [][2]int32
}

func parsePolyFile(tb testing.TB, b []byte) *polyFile {
	tb.Helper()
	le := binary.LittleEndian
	f := &polyFile{}
	nv, np, ne := int(le.Uint32(b[32:])), int(le.Uint32(b[36:])), int(le.Uint32(b[40:]))
	at := 44
	for range nv {
		f.verts = append(f.verts, [2]float64{math.Float64frombits(le.Uint64(b[at:])), math.Float64frombits(le.Uint64(b[at+8:]))})
		at += 16
	}
	for range np {
		f.sizes = append(f.sizes, le.Uint32(b[at:]))
		at += 4
	}
	for range ne {
		f.edges = append(f.edges, [2]int32{int32(le.Uint32(b[at:])), int32(le.Uint32(b[at+4:]))})
		at += 8
	}
	if at+4 != len(b) {
		tb.Fatalf("parsed %d of %d bytes", at+4, len(b))
	}
	return f
}

func (f *polyFile) bytes() []byte {
	le := binary.LittleEndian
	b := []byte("CAIRNNAV")
	b = le.AppendUint32(b, 1)
	b = le.AppendUint32(b, 2)
	b = append(b, make([]byte, 16)...)
	for _, v := range []int{len(f.verts), len(f.sizes), len(f.edges)} {
		b = le.AppendUint32(b, uint32(v))
	}
	for _, v := range f.verts {
		b = le.AppendUint64(b, math.Float64bits(v[0]))
		b = le.AppendUint64(b, math.Float64bits(v[1]))
	}
	for _, s := range f.sizes {
		b = le.AppendUint32(b, s)
	}
	for _, e := range f.edges {
		b = le.AppendUint32(b, uint32(e[0]))
		b = le.AppendUint32(b, uint32(e[1]))
	}
	return le.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
}

// smallPolyFile is the file of a square with a square hole.
func smallPolyFile(tb testing.TB) []byte {
	tb.Helper()
	m, err := navmesh.FromPolygon(orb.Polygon{square(0, 0, 10), square(3, 3, 4)}, navmesh.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return encodePolyMesh(tb, m)
}

// TestFilePolygonsCorrupt edits the file of a square with a hole, mends
// the checksum, and checks that Read refuses it, saying what and where.
func TestFilePolygonsCorrupt(t *testing.T) {
	valid := smallPolyFile(t)
	base := parsePolyFile(t, valid)
	nv := len(base.verts)
	sizeAt := int64(44 + 16*nv)
	edgeAt := sizeAt + 4*int64(len(base.sizes))
	// portal returns the index of an edge with a neighbour, and that of its
	// twin.
	portal := func(f *polyFile) (int, int) {
		e0 := make([]int, len(f.sizes)+1)
		for p, s := range f.sizes {
			e0[p+1] = e0[p] + int(s)
		}
		for p := range f.sizes {
			for i := e0[p]; i < e0[p+1]; i++ {
				nb := f.edges[i][1]
				if nb < 0 {
					continue
				}
				a := f.edges[i][0]
				for j := e0[nb]; j < e0[nb+1]; j++ {
					next := e0[nb] + (j-e0[nb]+1)%int(f.sizes[nb])
					if f.edges[next][0] == a {
						return i, j
					}
				}
			}
		}
		t.Fatal("no portal")
		return 0, 0
	}
	tests := []struct {
		name   string
		edit   func(f *polyFile) []byte
		offset int64 // −1: any
		msg    string
	}{
		{"half a grid size", func(f *polyFile) []byte {
			b := f.bytes()
			b[20] = 1
			fixCRC(b)
			return b
		}, 16, "grid size 0×1"},
		{"fingerprint without a grid", func(f *polyFile) []byte {
			b := f.bytes()
			b[30] = 1
			fixCRC(b)
			return b
		}, 24, "fingerprint without a grid size"},
		{"too few vertices", func(f *polyFile) []byte { f.verts = f.verts[:2]; f.sizes, f.edges = nil, nil; return nil }, 32, "2 vertices"},
		{"too many edges", func(f *polyFile) []byte {
			for range 6 * nv {
				f.edges = append(f.edges, [2]int32{0, -1})
			}
			return nil
		}, 40, "edges, more than"},
		{"NaN coordinate", func(f *polyFile) []byte { f.verts[3][1] = math.NaN(); return nil }, 44 + 16*3, "not finite or out of range"},
		{"huge coordinate", func(f *polyFile) []byte { f.verts[1][0] = 1e101; return nil }, 44 + 16, "out of range"},
		{"repeated vertex", func(f *polyFile) []byte { f.verts[5] = f.verts[2]; return nil }, -1, "repeats vertex"},
		{"bad vertex index", func(f *polyFile) []byte { f.edges[4][0] = int32(nv); return nil }, edgeAt + 8*4, fmt.Sprintf("starts at vertex %d, want one of the %d", nv, nv)},
		{"negative vertex index", func(f *polyFile) []byte { f.edges[0][0] = -1; return nil }, edgeAt, "starts at vertex 4294967295"},
		{"bad neighbour", func(f *polyFile) []byte { f.edges[2][1] = int32(len(f.sizes)); return nil }, edgeAt + 8*2 + 4, "want −1 or another"},
		{"polygon of two", func(f *polyFile) []byte { f.sizes[0] = 2; return nil }, sizeAt, "has 2 vertices, want 3"},
		{"sizes short", func(f *polyFile) []byte { f.sizes[len(f.sizes)-1]--; return nil }, 40, "polygon sizes add up"},
		{"non-convex", func(f *polyFile) []byte {
			// Pull one vertex into its polygon's interior... or out: a
			// wrong-way turn either way for some polygon.
			e := f.edges[f.sizes[0]]
			f.verts[e[0]] = [2]float64{5, 5}
			return nil
		}, -1, "turns the wrong way"},
		{"wrong winding", func(f *polyFile) []byte {
			k := int(f.sizes[0])
			vs := make([]int32, k)
			for i := range k {
				vs[i] = f.edges[i][0]
			}
			slices.Reverse(vs)
			for i := range k {
				f.edges[i][0] = vs[i]
			}
			return nil
		}, sizeAt, "turns the wrong way"},
		{"broken twin", func(f *polyFile) []byte {
			i, _ := portal(f)
			f.edges[i][1] = -1
			return nil
		}, -1, "is a wall, but polygon"},
		{"twin points elsewhere", func(f *polyFile) []byte {
			_, j := portal(f)
			f.edges[j][1] = -1
			return nil
		}, -1, "whose same edge has neighbour -1"},
		{"neighbour without the edge", func(f *polyFile) []byte {
			i, _ := portal(f)
			// Point the portal at a polygon that does not have its twin.
			own := 0
			for p, s := range f.sizes {
				if i < own+int(s) {
					own = p
					break
				}
				own += int(s)
			}
			for nb := range int32(len(f.sizes)) {
				if nb != f.edges[i][1] && int(nb) != own {
					f.edges[i][1] = nb
					break
				}
			}
			return nil
		}, -1, "which does not have the same edge"},
		{"repeated polygon", func(f *polyFile) []byte {
			k := f.sizes[0]
			f.sizes = append(f.sizes, k)
			f.edges = append(f.edges, f.edges[:k]...)
			return nil
		}, -1, "both have the edge"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := parsePolyFile(t, valid)
			b := tc.edit(f)
			if b == nil {
				b = f.bytes()
			}
			_, err := navmesh.Read(bytes.NewReader(b))
			fe, ok := errors.AsType[*navmesh.FormatError](err)
			if !ok {
				t.Fatalf("Read: %v, want a *FormatError", err)
			}
			if (tc.offset >= 0 && fe.Offset != tc.offset) || !strings.Contains(fe.Msg, tc.msg) {
				t.Fatalf("Read: %v, want %q at byte %d", err, tc.msg, tc.offset)
			}
		})
	}
}
