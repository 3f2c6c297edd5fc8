package navmesh_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// FuzzRead feeds Read arbitrary bytes. With fix set, the trailing checksum
// is first made to match, so that the checks behind it are reached. Read
// must not panic; it must refuse with a *FormatError, and a mesh it accepts
// must write back the bytes it read, be accepted by ReadFor for the grid of
// its walkable cells, and answer queries on that grid with legal paths.
func FuzzRead(f *testing.F) {
	_, small := smallMap(f)
	g := blocky(3, 8, 6, 6)
	valid := encodeMesh(f, mustMesh(f, g), g)
	f.Add(small, false)
	f.Add(valid, false)
	f.Add(valid[:len(valid)-1], false)
	f.Add(valid[:60], false)
	f.Add([]byte{}, false)
	f.Add([]byte("CAIRNNAV"), false)
	for _, edit := range []func(f *meshFile){
		func(f *meshFile) { f.version = 2 },
		func(f *meshFile) { f.w++ },
		func(f *meshFile) { f.cells[1] ^= 4; f.refingerprint() },
		func(f *meshFile) { f.verts[2][1] += 1 },
		func(f *meshFile) { f.corners[0] ^= 2 },
		func(f *meshFile) { f.sizes[0]++ },
		func(f *meshFile) { f.edges[3][0] = int32(len(f.verts)) },
		func(f *meshFile) { f.edges[5][1] = -1 },
		func(f *meshFile) { f.edges[6][1] = 0 },
	} {
		mf := parseFile(f, valid)
		edit(mf)
		f.Add(mf.bytes(), true)
	}
	f.Add(craft([]string{"..", ".."}, [][][2]float64{
		{{0, 0}, {0, 1}, {0, 2}, {1, 2}, {1, 1}, {1, 0}},
		{{1, 0}, {1, 1}, {1, 2}, {2, 2}, {2, 1}, {2, 0}},
	}, [][]int32{{-1, -1, -1, 1, 1, -1}, {0, 0, -1, -1, -1, -1}}).bytes(), false)
	empty := craft([]string{"##"}, nil, nil)
	empty.source = 3
	f.Add(empty.bytes(), false)
	f.Add(cellTriangles(blocky(5, 6, 5, 3), testmap.NewRand(5)).bytes(), false)
	tg := blocky(7, 12, 9, 8)
	if tm, err := navmesh.FromGrid(tg, navmesh.Options{TileSize: 4}); err == nil {
		f.Add(encodeMesh(f, tm, tg), false)
	}
	ag := areaGrid(4, 9, 7)
	withAreas := encodeMesh(f, mustMesh(f, ag), ag)
	f.Add(withAreas, false)
	af := parseFile(f, withAreas)
	af.areas[1] = grid.AreaSolid
	f.Add(af.bytes(), true)
	af = parseFile(f, withAreas)
	af.version = 1
	f.Add(af.bytes(), true)
	for _, b := range landmarkFiles(f) {
		f.Add(b, true)
	}
	poly := smallPolyFile(f)
	f.Add(poly, false)
	pf := parsePolyFile(f, poly)
	pf.edges[2][1] = -1
	f.Add(pf.bytes(), true)
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		if fix {
			data = slices.Clone(data)
			fixCRC(data)
		}
		m, err := navmesh.Read(bytes.NewReader(data))
		if err != nil {
			if _, ok := errors.AsType[*navmesh.FormatError](err); !ok {
				t.Fatalf("error %v is not a *FormatError", err)
			}
			if !strings.HasPrefix(err.Error(), "navmesh: ") {
				t.Fatalf("error %q does not start with navmesh: ", err)
			}
			return
		}
		var out bytes.Buffer
		if _, err := m.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, out.Bytes()) {
			t.Fatalf("accepted %d bytes but writes back %d different ones", len(data), out.Len())
		}
		if binary.LittleEndian.Uint32(data[12:]) == 2 {
			fuzzPolyQueries(t, m, data)
			return
		}
		g := walkableGrid(t, data, m)
		if _, err := navmesh.ReadFor(bytes.NewReader(data), g, navmesh.Options{}); err != nil {
			t.Fatalf("ReadFor the grid of its own cells: %v", err)
		}
		// Read as a mesh of tiles: refused with a FormatError, or updated
		// after an edit as a fresh build of the edited grid.
		for _, size := range []int{3, 4} {
			tm, err := navmesh.ReadFor(bytes.NewReader(data), g, navmesh.Options{TileSize: size})
			if err != nil {
				if _, ok := errors.AsType[*navmesh.FormatError](err); !ok {
					t.Fatalf("ReadFor with tiles of %d: error %v is not a *FormatError", size, err)
				}
				continue
			}
			eg := g.WithCells(image.Rect(0, 0, 2, 1), false)
			um, err := tm.Update(eg, image.Rect(0, 0, 2, 1))
			if err != nil {
				t.Fatalf("Update of a mesh read with tiles of %d: %v", size, err)
			}
			// A file may hold other tiles than FromGrid's, stitched alike;
			// for FromGrid's, the update is a fresh build's.
			built, err := navmesh.FromGrid(g, navmesh.Options{TileSize: size})
			if err != nil {
				t.Fatal(err)
			}
			if !samePolygons(built, tm) {
				continue
			}
			fm, err := navmesh.FromGrid(eg, navmesh.Options{TileSize: size})
			if err != nil {
				t.Fatal(err)
			}
			if um.NumPolys() != fm.NumPolys() || um.NumPortals() != fm.NumPortals() {
				t.Fatalf("tiles of %d: the update has %d polygons and %d portals, a fresh build %d and %d", size, um.NumPolys(), um.NumPortals(), fm.NumPolys(), fm.NumPortals())
			}
			if fm.NumPolys() > 0 && !bytes.Equal(encodeMesh(t, um, eg), encodeMesh(t, fm, eg)) {
				t.Fatalf("tiles of %d: the update writes other bytes than a fresh build", size)
			}
		}
		if m.NumPolys() == 0 {
			return
		}
		q := navmesh.NewSearcher(m)
		r := testmap.NewRand(int64(len(data)))
		point := func() mgl64.Vec2 {
			return mgl64.Vec2{float64(r.IntN(4*g.Width()+1)) / 4, float64(r.IntN(4*g.Height()+1)) / 4}
		}
		for range 20 {
			from, to := point(), point()
			m.Raycast(from, to)
			path, res, err := q.AppendPath(nil, from, to, navmesh.Query{})
			if err != nil || res.Status != core.Found {
				continue // off the mesh, or unreachable
			}
			if _, err := checkPath(g, path, from, to); err != nil {
				t.Fatalf("%v→%v: %v\npath %v", from, to, err, path)
			}
		}
	})
}

// walkableGrid returns the grid whose free cells are the walkable cells of
// a mesh file that Read accepted as m, with the area types of m's
// polygons.
func walkableGrid(tb testing.TB, data []byte, m *navmesh.Mesh) *grid.Grid {
	tb.Helper()
	le := binary.LittleEndian
	w, h := int(le.Uint32(data[16:])), int(le.Uint32(data[20:]))
	free := make([]bool, w*h)
	areas := make([]uint8, w*h)
	for i := range free {
		free[i] = data[44+i/8]&(1<<(i%8)) != 0
		areas[i] = grid.AreaSolid
		if id, ok := m.Locate(mgl64.Vec2{float64(i%w) + 0.5, float64(i/w) + 0.5}); free[i] && ok {
			areas[i] = m.Area(id)
		}
	}
	g, err := grid.New(w, h, free, grid.Options{Areas: areas})
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// fuzzPolyQueries checks a mesh from polygons that Read accepted: ReadFor
// refuses it, and queries between its vertices and random points do not
// panic.
func fuzzPolyQueries(t *testing.T, m *navmesh.Mesh, data []byte) {
	if _, err := navmesh.ReadFor(bytes.NewReader(data), blocky(1, 4, 4, 0), navmesh.Options{}); err == nil {
		t.Fatal("ReadFor accepted a mesh built from polygons")
	}
	var vs []mgl64.Vec2
	for id := navmesh.PolyID(0); int(id) < m.NumPolys(); id++ {
		vs = m.AppendPolygon(vs, id)
	}
	q := navmesh.NewSearcher(m)
	r := testmap.NewRand(int64(len(data)))
	point := func() mgl64.Vec2 {
		a, b := vs[r.IntN(len(vs))], vs[r.IntN(len(vs))]
		return a.Add(b.Sub(a).Mul(float64(r.IntN(5)) / 4))
	}
	for range 20 {
		from, to := point(), point()
		m.Locate(from)
		m.Nearest(from)
		m.Raycast(from, to)
		q.AppendPath(nil, from, to, navmesh.Query{})
	}
}

// samePolygons reports whether a and b have the same polygons, in order.
func samePolygons(a, b *navmesh.Mesh) bool {
	if a.NumPolys() != b.NumPolys() {
		return false
	}
	for id := navmesh.PolyID(0); int(id) < a.NumPolys(); id++ {
		if !slices.Equal(a.AppendPolygon(nil, id), b.AppendPolygon(nil, id)) {
			return false
		}
	}
	return true
}
