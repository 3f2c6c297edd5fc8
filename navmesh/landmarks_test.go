package navmesh_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// landmarkGrids returns small maps of every kind the oracle tests use.
func landmarkGrids(n int) []*grid.Grid {
	var gs []*grid.Grid
	for seed := int64(1); seed <= int64(n); seed++ {
		switch seed % 3 {
		case 0:
			gs = append(gs, blocky(seed, 20+int(seed%7), 14+int(seed%5), 10+int(seed%20)))
		case 1:
			gs = append(gs, testmap.Random(seed, 18+int(seed%9), 12+int(seed%7), 0.05+0.05*float64(seed%7), grid.Options{}))
		default:
			gs = append(gs, testmap.Maze(seed, 5+int(seed%3), 4+int(seed%2), 1+int(seed%4), int(seed%5)))
		}
	}
	return gs
}

// withLandmarks returns g's mesh in tiles of tile cells (0: untiled), and
// the same mesh with k landmarks.
func withLandmarks(tb testing.TB, g *grid.Grid, tile, k int) (*navmesh.Mesh, *navmesh.Mesh) {
	tb.Helper()
	m, err := navmesh.FromGrid(g, navmesh.Options{TileSize: tile})
	if err != nil {
		tb.Fatal(err)
	}
	lm, err := m.WithLandmarks(k)
	if err != nil {
		tb.Fatal(err)
	}
	return m, lm
}

// TestLandmarkDistances checks every distance that WithLandmarks measures,
// on untiled and tiled meshes, against the visibility-graph oracle: the
// length of the shortest path from the landmark to each vertex, NaN for
// the vertices it cannot reach and for the corners between two diagonal
// walls, whose distance depends on the side a path comes from.
func TestLandmarkDistances(t *testing.T) {
	for i, g := range landmarkGrids(12) {
		o := newAnyAngle(g)
		for _, tile := range []int{0, 5} {
			_, lm := withLandmarks(t, g, tile, 3)
			if lm.Landmarks() != 3 {
				t.Fatalf("map %d: %d landmarks, want 3", i, lm.Landmarks())
			}
			at, verts, d := navmesh.LandmarkDistances(lm)
			for l, p := range at {
				for v, q := range verts {
					want, got := o.dist(p, q), d[l][v]
					where := fmt.Sprintf("map %d tile %d: landmark %d at %v to vertex %v", i, tile, l, p, q)
					switch {
					case pinch(g, q):
						if !math.IsNaN(got) {
							t.Fatalf("%s: %v at a corner between two diagonal walls, want NaN", where, got)
						}
					case math.IsInf(want, 1) && !math.IsNaN(got):
						t.Fatalf("%s: %v, but the oracle finds no path", where, got)
					case !math.IsInf(want, 1) && !(math.Abs(got-want) <= 1e-6*max(1, want)):
						t.Fatalf("%s: %v, oracle %v", where, got, want)
					}
				}
			}
		}
	}
}

// pinch reports whether grid corner q lies between two diagonally
// opposite blocked cells (the map's outside counts as blocked) and two
// free ones.
func pinch(g *grid.Grid, q mgl64.Vec2) bool {
	x, y := int(q[0]), int(q[1])
	wall := func(dx, dy int) bool { return !g.Passable(image.Pt(x+dx, y+dy)) }
	tl, tr, bl, br := wall(-1, -1), wall(0, -1), wall(-1, 0), wall(0, 0)
	return tl && br && !tr && !bl || tr && bl && !tl && !br
}

// TestLandmarkQueries checks that landmarks change no length: queries on
// meshes with and without them, against the oracle, and that they expand
// fewer nodes in all than without.
func TestLandmarkQueries(t *testing.T) {
	var with, without int
	for i, g := range landmarkGrids(18) {
		o := newAnyAngle(g)
		m := mustMesh(t, g)
		lm, err := m.WithLandmarks(4)
		if err != nil {
			t.Fatal(err)
		}
		plain, guided := navmesh.NewSearcher(m), navmesh.NewSearcher(lm)
		r := testmap.NewRand(int64(i))
		for _, pr := range testmap.RandomPairs(r, g, 40) {
			from, to := tilePoint(r, pr[0], 1), tilePoint(r, pr[1], 1)
			a, b := guidedQuery(t, guided, plain, g, o, from, to, fmt.Sprintf("map %d", i))
			with += a
			without += b
		}
	}
	t.Logf("expanded %d with landmarks, %d without", with, without)
	if with >= without {
		t.Errorf("expanded %d with landmarks, %d without: they guided nothing", with, without)
	}
}

// guidedQuery runs a query from from to to on guided, a searcher of a mesh
// with landmarks, and on plain, one of the same map's mesh without; checks
// that they agree on whether it has a path and that guided's is legal and
// of the oracle's length; and returns the expansions of each.
func guidedQuery(t *testing.T, guided, plain *navmesh.Searcher, g *grid.Grid, o *anyAngle, from, to mgl64.Vec2, where string) (int, int) {
	t.Helper()
	path, a, err := guided.AppendPath(nil, from, to, navmesh.Query{})
	if err != nil {
		t.Fatal(err)
	}
	_, b, err := plain.AppendPath(nil, from, to, navmesh.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != b.Status {
		t.Fatalf("%s: %v→%v: %v with landmarks, %v without", where, from, to, a.Status, b.Status)
	}
	if a.Status != core.Found {
		return 0, 0
	}
	length, err := checkPath(g, path, from, to)
	if err != nil {
		t.Fatalf("%s: %v→%v: %v", where, from, to, err)
	}
	if best := o.dist(from, to); math.Abs(length-best) > 1e-9*max(1, best) {
		t.Fatalf("%s: %v→%v: length %v with landmarks, any-angle optimum %v (%v without)", where, from, to, length, best, b.Length)
	}
	return a.Expanded, b.Expanded
}

// TestLandmarksFile checks that a mesh file keeps landmarks: read back, the
// mesh is the one written, of any source and with area types; and that
// Update gives a mesh without them.
func TestLandmarksFile(t *testing.T) {
	g := testmap.Random(3, 30, 20, 0.2, grid.Options{})
	ga := testmap.RandomAreas(4, 30, 20, 0.15)
	for _, c := range []struct {
		name string
		g    *grid.Grid
		opt  navmesh.Options
	}{
		{"convex", g, navmesh.Options{}},
		{"rectangles", g, navmesh.Options{Rectangles: true}},
		{"areas", ga, navmesh.Options{}},
		{"radius", g, navmesh.Options{Radius: 0.3}},
	} {
		m, err := navmesh.FromGrid(c.g, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		lm, err := m.WithLandmarks(2)
		if err != nil {
			t.Fatal(err)
		}
		var plain, buf bytes.Buffer
		if _, err := m.WriteTo(&plain); err != nil {
			t.Fatal(err)
		}
		if _, err := lm.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		if want := plain.Len() + 4 + 4*2 + 4*2*m.NumVertices(); buf.Len() != want {
			t.Errorf("%s: %d bytes with landmarks, want %d", c.name, buf.Len(), want)
		}
		back, err := navmesh.Read(&buf)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if back.Landmarks() != 2 {
			t.Fatalf("%s: read back with %d landmarks, want 2", c.name, back.Landmarks())
		}
		sameMesh(t, lm, back, c.g, 1)
		at, _, d := navmesh.LandmarkDistances(lm)
		atb, _, db := navmesh.LandmarkDistances(back)
		if !slices.Equal(at, atb) {
			t.Errorf("%s: landmarks %v read back as %v", c.name, at, atb)
		}
		for l := range d {
			for v := range d[l] {
				if math.Float64bits(d[l][v]) != math.Float64bits(db[l][v]) {
					t.Fatalf("%s: landmark %d, vertex %d: %v read back as %v", c.name, l, v, d[l][v], db[l][v])
				}
			}
		}
	}
	// Update keeps them across a wall put up and taken down, and drops
	// them when a cell blocked where they were measured is freed (see
	// TestLandmarkUpdate for more).
	m := tiledMesh(t, g, 8)
	lm, err := m.WithLandmarks(2)
	if err != nil {
		t.Fatal(err)
	}
	blocked := image.Point{-1, -1}
	for y := range g.Height() {
		for x := range g.Width() {
			if !g.Passable(image.Pt(x, y)) {
				blocked = image.Pt(x, y)
			}
		}
	}
	if !g.Passable(image.Pt(3, 3)) || blocked.X < 0 {
		t.Fatal("the map has changed: pick other cells")
	}
	next := lm
	for _, e := range []struct {
		at   image.Point
		free bool
		want int
	}{{image.Pt(3, 3), false, 2}, {image.Pt(3, 3), true, 2}, {blocked, true, 0}} {
		rc := image.Rectangle{e.at, e.at.Add(image.Pt(1, 1))}
		g.SetCells(rc, e.free)
		if next, err = next.Update(g, rc); err != nil {
			t.Fatal(err)
		}
		if next.Landmarks() != e.want {
			t.Errorf("SetCells(%v, %v): an update kept %d landmarks, want %d", rc, e.free, next.Landmarks(), e.want)
		}
	}
	if _, err := m.WithLandmarks(navmesh.MaxLandmarks + 1); err == nil {
		t.Error("WithLandmarks(MaxLandmarks+1) did not fail")
	}
}

// TestLandmarkAllocs checks that a warm query with landmarks allocates
// nothing.
func TestLandmarkAllocs(t *testing.T) {
	g := landmarkGrids(3)[2]
	m, err := mustMesh(t, g).WithLandmarks(4)
	if err != nil {
		t.Fatal(err)
	}
	s := navmesh.NewSearcher(m)
	r := testmap.NewRand(5)
	pairs := testmap.RandomPairs(r, g, 20)
	var path []mgl64.Vec2
	run := func() {
		for _, p := range pairs {
			path, _, _ = s.AppendPath(path[:0], centre(p[0]), centre(p[1]), navmesh.Query{})
		}
	}
	run()
	if a := testing.AllocsPerRun(10, run); a != 0 {
		t.Errorf("%v allocations a round of warm queries", a)
	}
}

// landmarkFile returns the file of a small mesh with 2 landmarks, the
// offset of its landmarks section, and its vertices.
func landmarkFile(tb testing.TB) ([]byte, int, int) {
	tb.Helper()
	g := blocky(3, 8, 6, 6)
	m, err := mustMesh(tb, g).WithLandmarks(2)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		tb.Fatal(err)
	}
	b := buf.Bytes()
	return b, len(b) - 4 - (4 + 8 + 8*m.NumVertices()), m.NumVertices()
}

// landmarkFiles returns the file of landmarkFile and damaged copies of
// it, for the fuzzer, checksums not yet fixed.
func landmarkFiles(tb testing.TB) [][]byte {
	b, at, _ := landmarkFile(tb)
	out := [][]byte{b}
	for _, edit := range []func(c []byte){
		func(c []byte) { binary.LittleEndian.PutUint32(c[at:], 0) },
		func(c []byte) { binary.LittleEndian.PutUint32(c[at:], 3) },
		func(c []byte) { binary.LittleEndian.PutUint32(c[at+4:], 1<<20) },
		func(c []byte) { binary.LittleEndian.PutUint32(c[at+12:], math.Float32bits(-1)) },
		func(c []byte) { c[8] = 1 },
	} {
		c := slices.Clone(b)
		edit(c)
		out = append(out, c)
	}
	return out
}

// TestLandmarksFileCorrupt checks that Read refuses a damaged landmarks
// section, saying where and what.
func TestLandmarksFileCorrupt(t *testing.T) {
	valid, at, nv := landmarkFile(t)
	le := binary.LittleEndian
	self := func(c []byte) int { // the offset of landmark 0's distance from itself
		v := int(le.Uint32(c[at+4:]))
		return at + 12 + 4*2*v
	}
	for _, c := range []struct {
		name   string
		edit   func(c []byte) []byte
		offset int
		msg    string
	}{
		{"no landmarks", func(c []byte) []byte { le.PutUint32(c[at:], 0); return c }, at, "0 landmarks, want 1 to 32"},
		{"too many", func(c []byte) []byte { le.PutUint32(c[at:], 33); return c }, at, "33 landmarks, want 1 to 32"},
		{"vertex out of range", func(c []byte) []byte { le.PutUint32(c[at+8:], uint32(nv)); return c }, at + 8, fmt.Sprintf("landmark 1 is vertex %d, want one of the %d", nv, nv)},
		{"not at 0 from itself", func(c []byte) []byte { le.PutUint32(c[self(c):], math.Float32bits(1)); return c }, -1, "landmark 0 is at distance 1 from itself, want 0"},
		{"negative", func(c []byte) []byte { le.PutUint32(c[at+12+4:], math.Float32bits(-2)); return c }, at + 16, "vertex 0 is at distance -2 from landmark 1"},
		{"infinite", func(c []byte) []byte { le.PutUint32(c[at+12:], math.Float32bits(float32(math.Inf(1)))); return c }, at + 12, "vertex 0 is at distance +Inf from landmark 0"},
		{"version 1", func(c []byte) []byte { le.PutUint32(c[8:], 1); return c }, -1, ""},
		{"truncated", func(c []byte) []byte { return c[:len(c)-12] }, -1, ""},
	} {
		b := c.edit(slices.Clone(valid))
		if c.name != "truncated" {
			fixCRC(b)
		}
		_, err := navmesh.Read(bytes.NewReader(b))
		fe, ok := errors.AsType[*navmesh.FormatError](err)
		if !ok {
			t.Errorf("%s: error %v, want a *FormatError", c.name, err)
			continue
		}
		if c.offset == -1 && c.name == "not at 0 from itself" {
			c.offset = self(b)
		}
		if (c.offset >= 0 && fe.Offset != int64(c.offset)) || !strings.Contains(fe.Msg, c.msg) {
			t.Errorf("%s: %v, want %q at byte %d", c.name, err, c.msg, c.offset)
		}
	}
}

// TestLandmarkPolygons checks queries with landmarks on meshes built from
// random polygons with holes against the polygon oracle.
func TestLandmarkPolygons(t *testing.T) {
	for seed := int64(1); seed <= 12; seed++ {
		rnd := testmap.NewRand(seed)
		c := newPolyCase(t, fmt.Sprintf("random %d", seed), orb.MultiPolygon{randomPolygon(rnd)})
		lm, err := c.m.WithLandmarks(3)
		if err != nil {
			t.Fatal(err)
		}
		q := navmesh.NewSearcher(lm)
		pts := c.points(rnd, 80)
		for i := 0; i < len(pts); i += 2 {
			if err := c.checkQuery(q, pts[i], pts[i+1]); err != nil {
				t.Fatalf("%s %v→%v with %d landmarks: %v", c.name, pts[i], pts[i+1], lm.Landmarks(), err)
			}
		}
	}
}

// BenchmarkLandmarks measures 8 landmarks of the mesh of random512-10-0,
// whose searches of the whole mesh are the dearest per vertex of the
// Moving AI maps here.
func BenchmarkLandmarks(b *testing.B) {
	g, _ := testmap.MovingAI(b, "random512-10-0.map")
	m := mustMesh(b, g)
	for b.Loop() {
		if _, err := m.WithLandmarks(8); err != nil {
			b.Fatal(err)
		}
	}
}
