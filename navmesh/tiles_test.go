package navmesh_test

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// tiledMesh is mustMesh with tiles of size cells.
func tiledMesh(tb testing.TB, g *grid.Grid, size int) *navmesh.Mesh {
	tb.Helper()
	m, err := navmesh.FromGrid(g, navmesh.Options{TileSize: size})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// checkInTiles checks that no polygon of m crosses a tile line.
func checkInTiles(t *testing.T, m *navmesh.Mesh, size int, where string) {
	t.Helper()
	for id := navmesh.PolyID(0); int(id) < m.NumPolys(); id++ {
		vs := m.AppendPolygon(nil, id)
		lo, hi := vs[0], vs[0]
		for _, v := range vs {
			lo = mgl64.Vec2{math.Min(lo[0], v[0]), math.Min(lo[1], v[1])}
			hi = mgl64.Vec2{math.Max(hi[0], v[0]), math.Max(hi[1], v[1])}
		}
		s := float64(size)
		if math.Floor(lo[0]/s) != math.Ceil(hi[0]/s)-1 || math.Floor(lo[1]/s) != math.Ceil(hi[1]/s)-1 {
			t.Fatalf("%s: polygon %d %v crosses a tile line", where, id, vs)
		}
	}
}

// TestTiledStructure checks tiled meshes of random grids as
// TestFromGridStructure checks untiled ones, that no polygon crosses a
// tile line, and that they round-trip through a file: read back (with
// every check Read makes of a mesh of convex polygons), they answer every
// query as the mesh written does.
func TestTiledStructure(t *testing.T) {
	for seed := int64(1); seed <= 32; seed++ {
		g := testmap.Random(seed, 30+int(seed%5), 20+int(seed%3), 0.1*float64(seed%4), grid.Options{})
		size := []int{1, 3, 8, 16}[seed%4]
		rects := seed > 24
		m, err := navmesh.FromGrid(g, navmesh.Options{TileSize: size, Rectangles: rects})
		if err != nil {
			t.Fatal(err)
		}
		where := fmt.Sprintf("seed %d tile %d rectangles %v", seed, size, rects)
		checkStructure(t, g, m, seed)
		checkInTiles(t, m, size, where)
		b := encodeMesh(t, m, g)
		rm, err := navmesh.ReadFor(bytes.NewReader(b), g, navmesh.Options{TileSize: size, Rectangles: rects})
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if m.NumPolys() > 0 {
			sameMesh(t, m, rm, g, seed)
		}
	}
}

// TestTiledErrors checks the options FromGrid refuses with tiles.
func TestTiledErrors(t *testing.T) {
	g := testmap.Random(1, 10, 10, 0.2, grid.Options{})
	for _, opt := range []navmesh.Options{{TileSize: -1}, {TileSize: 8, Radius: 0.5}} {
		if _, err := navmesh.FromGrid(g, opt); err == nil {
			t.Errorf("FromGrid with %+v: no error", opt)
		}
	}
	if _, err := navmesh.FromGrid(g, navmesh.Options{TileSize: 4, Radius: 0.5, Rectangles: true}); err != nil {
		t.Errorf("FromGrid with tiles of rectangles for a radius: %v", err)
	}
}

// tilePoint returns a point of g's free area near cell c: its centre, a
// corner, a random point, or, as often, a point on a tile line through it
// (its tile's corner, or a point of the tile's top or left side) when the
// cell touches one.
func tilePoint(r interface{ IntN(int) int }, c image.Point, size int) mgl64.Vec2 {
	x, y := float64(c.X), float64(c.Y)
	switch r.IntN(6) {
	case 0:
		return centre(c)
	case 1:
		return mgl64.Vec2{x + float64(r.IntN(2)), y + float64(r.IntN(2))}
	case 2:
		return mgl64.Vec2{x + float64(r.IntN(1025))/1024, y + float64(r.IntN(1025))/1024}
	}
	// The cell's top left corner on a line if it is on one.
	p := mgl64.Vec2{x + float64(r.IntN(1025))/1024, y + float64(r.IntN(1025))/1024}
	if c.X%size == 0 {
		p[0] = x
	}
	if c.Y%size == 0 {
		p[1] = y
	}
	return p
}

// TestTiledRandomGrids checks, on seeded random and blocky grids, that
// paths on tiled meshes are legal and exactly as long as on the untiled
// mesh (the search is exact on any mesh of the same area), between cell
// centres, corners and points on the tile lines, corners of tiles
// included.
func TestTiledRandomGrids(t *testing.T) {
	for seed := int64(1); seed <= 24; seed++ {
		g := testmap.Random(seed, 40, 30, 0.1*float64(seed%4), grid.Options{})
		if seed%3 == 0 {
			g = blocky(seed, 40, 30, 25)
		}
		size := []int{8, 16, 5}[seed%3]
		plain := navmesh.NewSearcher(mustMesh(t, g))
		q := navmesh.NewSearcher(tiledMesh(t, g, size))
		r := testmap.NewRand(seed)
		for _, pr := range testmap.RandomPairs(r, g, 150) {
			from, to := tilePoint(r, pr[0], size), tilePoint(r, pr[1], size)
			where := fmt.Sprintf("seed %d tile %d %v→%v", seed, size, from, to)
			path, res, err := q.AppendPath(nil, from, to, navmesh.Query{})
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			_, want, _ := plain.AppendPath(nil, from, to, navmesh.Query{})
			if res.Status != want.Status {
				t.Fatalf("%s: %v, untiled %v\n%s", where, res.Status, want.Status, testmap.Render(g, nil))
			}
			if res.Status != core.Found {
				continue
			}
			length, err := checkPath(g, path, from, to)
			if err != nil {
				t.Fatalf("%s: %v\npath %v\n%s", where, err, path, testmap.Render(g, nil))
			}
			if math.Abs(length-want.Length) > 1e-9 || math.Abs(res.Length-want.Length) > 1e-9 {
				t.Fatalf("%s: length %v (reported %v), untiled %v\npath %v\n%s", where, length, res.Length, want.Length, path, testmap.Render(g, nil))
			}
		}
	}
}

// TestTiledAnyAngleOracle compares paths on tiled meshes of small grids
// with the exact any-angle shortest paths of the visibility-graph oracle.
func TestTiledAnyAngleOracle(t *testing.T) {
	for seed := int64(1); seed <= 30; seed++ {
		var g *grid.Grid
		switch seed % 3 {
		case 0:
			g = blocky(seed, 20+int(seed%7), 14+int(seed%5), 10+int(seed%20))
		case 1:
			g = testmap.Random(seed, 18+int(seed%9), 12+int(seed%7), 0.05+0.05*float64(seed%7), grid.Options{})
		default:
			g = testmap.Maze(seed, 5+int(seed%3), 4+int(seed%2), 1+int(seed%4), int(seed%5))
		}
		size := []int{2, 4, 7}[seed%3]
		o := newAnyAngle(g)
		q := navmesh.NewSearcher(tiledMesh(t, g, size))
		r := testmap.NewRand(seed)
		for _, pr := range testmap.RandomPairs(r, g, 30) {
			from, to := tilePoint(r, pr[0], size), tilePoint(r, pr[1], size)
			where := fmt.Sprintf("seed %d tile %d %v→%v", seed, size, from, to)
			path, res, err := q.AppendPath(nil, from, to, navmesh.Query{})
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			best := o.dist(from, to)
			if res.Status != core.Found {
				if !math.IsInf(best, 1) {
					t.Fatalf("%s: %v, but the oracle has a path of length %v", where, res.Status, best)
				}
				continue
			}
			length, err := checkPath(g, path, from, to)
			if err != nil {
				t.Fatalf("%s: %v\npath %v\n%s", where, err, path, testmap.Render(g, nil))
			}
			if math.Abs(length-best) > 1e-9*max(1, best) {
				t.Fatalf("%s: length %v, any-angle optimum %v\npath %v\n%s", where, length, best, path, testmap.Render(g, nil))
			}
		}
	}
}

// BenchmarkQueryTiles runs the 10 longest scenarios of Berlin_0_1024 and
// of maze512-1-0 in turn, between cell centres, on the mesh without tiles
// and with tiles of 64 and 128 cells, which have more polygons for a path
// to cross (and find their bridges tile by tile: tileprune.go).
func BenchmarkQueryTiles(b *testing.B) {
	for _, name := range []string{"Berlin_0_1024", "maze512-1-0"} {
		b.Run(name, func(b *testing.B) { benchmarkQueryTiles(b, name+".map") })
	}
}

func benchmarkQueryTiles(b *testing.B, name string) {
	g, scens := testmap.MovingAI(b, name)
	scens = slices.Clone(scens)
	slices.SortStableFunc(scens, func(x, y grid.Scenario) int { return cmp.Compare(y.Optimal, x.Optimal) })
	scens = scens[:10]
	for _, size := range []int{0, 64, 128} {
		b.Run(fmt.Sprintf("tile%d", size), func(b *testing.B) {
			m := tiledMesh(b, g, size)
			q := navmesh.NewSearcher(m)
			path := make([]mgl64.Vec2, 0, 256)
			b.ReportAllocs()
			i, expanded := 0, 0
			for b.Loop() {
				sc := scens[i%len(scens)]
				i++
				var res navmesh.Result
				path, res, _ = q.AppendPath(path[:0], centre(sc.Start), centre(sc.Goal), navmesh.Query{})
				if res.Length > sc.Optimal+1e-6 || len(path) < 2 {
					b.Fatalf("%v→%v: length %v, octile optimum %v", sc.Start, sc.Goal, res.Length, sc.Optimal)
				}
				expanded += res.Expanded
			}
			b.ReportMetric(float64(expanded)/float64(i), "expanded/op")
			b.ReportMetric(float64(m.NumPolys()), "polygons")
		})
	}
}

// TestTiledMovingAI runs every 50th scenario of Berlin_0_1024 between cell
// centres on meshes with tiles of 64 and 128 cells: each path is legal and
// exactly as long as on the mesh without tiles.
func TestTiledMovingAI(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	g, scens := testmap.MovingAI(t, "Berlin_0_1024.map")
	plain := navmesh.NewSearcher(mustMesh(t, g))
	for _, size := range []int{64, 128} {
		q := navmesh.NewSearcher(tiledMesh(t, g, size))
		for i := 0; i < len(scens); i += 50 {
			sc := scens[i]
			from, to := centre(sc.Start), centre(sc.Goal)
			path, res, err := q.AppendPath(nil, from, to, navmesh.Query{})
			_, want, _ := plain.AppendPath(nil, from, to, navmesh.Query{})
			if err != nil || res.Status != core.Found {
				t.Fatalf("tile %d scenario %d: %v, %v", size, i, res.Status, err)
			}
			length, err := checkPath(g, path, from, to)
			if err != nil || math.Abs(length-want.Length) > 1e-9 {
				t.Fatalf("tile %d scenario %d %v→%v: length %v, untiled %v, %v\npath %v", size, i, sc.Start, sc.Goal, length, want.Length, err, path)
			}
		}
	}
}

// TestTiledConcurrentBuild checks that a tiled mesh built with its tiles on
// several goroutines writes the same bytes as one built on a single one
// (run under -race by CI).
func TestTiledConcurrentBuild(t *testing.T) {
	g := testmap.Random(3, 150, 110, 0.25, grid.Options{})
	opt := navmesh.Options{TileSize: 16}
	prev := runtime.GOMAXPROCS(1)
	one, err := navmesh.FromGrid(g, opt)
	runtime.GOMAXPROCS(max(prev, 4))
	if err != nil {
		runtime.GOMAXPROCS(prev)
		t.Fatal(err)
	}
	many, err := navmesh.FromGrid(g, opt)
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encodeMesh(t, one, g), encodeMesh(t, many, g)) {
		t.Fatal("the mesh built on several goroutines writes other bytes than the one built on one")
	}
}
