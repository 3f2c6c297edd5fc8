package navmesh_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// The oracles of this file know nothing of area types on meshes: a filter
// that excludes an area must answer as a mesh built from the grid with
// that area's cells blocked, whose exact lengths the visibility-graph
// oracle (legal_test.go) gives and whose legality package gridcheck
// decides.

// areaGrid returns a w×h grid with random walls and random rectangles
// of areas 1 and 2.
func areaGrid(seed int64, w, h int) *grid.Grid { return testmap.RandomAreas(seed, w, h, 0.15) }

// without returns g with the cells of area a blocked.
func without(g *grid.Grid, a uint8) *grid.Grid { return testmap.Without(g, a) }

// randomPoint returns a random point of one of cells, on the lattice of
// 1/65536 that package gridcheck decides exactly.
func randomPoint(r *rand.Rand, cells []image.Point) mgl64.Vec2 {
	c := cells[r.IntN(len(cells))]
	return mgl64.Vec2{float64(c.X) + float64(r.IntN(1<<16))/(1<<16), float64(c.Y) + float64(r.IntN(1<<16))/(1<<16)}
}

func TestMeshAreas(t *testing.T) {
	for seed := range int64(6) {
		g := areaGrid(seed, 40, 30)
		for _, opt := range []navmesh.Options{{}, {Rectangles: true}, {TileSize: 8}, {TileSize: 7, Rectangles: true}} {
			m, err := navmesh.FromGrid(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			// Every cell's polygons, at its centre and at its corners
			// inside it, have the cell's area: no polygon spans two.
			for _, c := range testmap.FreeCells(g) {
				for _, d := range []mgl64.Vec2{{0.5, 0.5}, {0.01, 0.01}, {0.99, 0.01}, {0.01, 0.99}, {0.99, 0.99}} {
					p := mgl64.Vec2{float64(c.X) + d[0], float64(c.Y) + d[1]}
					id, ok := m.Locate(p)
					if !ok {
						t.Fatalf("seed %d %+v: %v not on the mesh", seed, opt, p)
					}
					if got, want := m.Area(id), g.Area(c); got != want {
						t.Fatalf("seed %d %+v: polygon %d at %v has area %d, cell %v has %d", seed, opt, id, p, got, want, c)
					}
				}
			}
			// Areas do not cut the mesh: free cells that share a side are
			// joined, whatever their areas.
			o, err := navmesh.FromGrid(without(g, 255), opt) // the same cells, one area
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range testmap.FreeCells(g) {
				a, _ := m.Locate(mgl64.Vec2{float64(c.X) + 0.5, float64(c.Y) + 0.5})
				for _, d := range []image.Point{{1, 0}, {0, 1}} {
					n := c.Add(d)
					if !g.Passable(n) {
						continue
					}
					b, _ := m.Locate(mgl64.Vec2{float64(n.X) + 0.5, float64(n.Y) + 0.5})
					if !m.Connected(a, b) {
						t.Fatalf("seed %d %+v: cells %v and %v are not connected", seed, opt, c, n)
					}
				}
			}
			if o.NumPolys() > m.NumPolys() {
				t.Errorf("seed %d %+v: %d polygons with areas, %d without", seed, opt, m.NumPolys(), o.NumPolys())
			}
		}
	}
}

func TestFilterExcludeOracle(t *testing.T) {
	seeds := int64(8)
	if testing.Short() {
		seeds = 3
	}
	var f grid.Filter
	f.Exclude[1] = true
	for seed := range seeds {
		g := areaGrid(seed, 28, 22)
		gx := without(g, 1)
		oracle := newAnyAngle(gx)
		cells := testmap.FreeCells(gx)
		for _, opt := range []navmesh.Options{{}, {Rectangles: true}, {TileSize: 8}} {
			m, err := navmesh.FromGrid(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			sr := navmesh.NewSearcher(m)
			r := testmap.NewRand(seed)
			for range 40 {
				from, to := randomPoint(r, cells), randomPoint(r, cells)
				want := oracle.dist(from, to)
				for _, corr := range []bool{false, true} {
					path, res, err := sr.AppendPath(nil, from, to, navmesh.Query{Filter: &f, Corridor: corr})
					if err != nil {
						t.Fatal(err)
					}
					if math.IsInf(want, 1) {
						if res.Status != core.Unreachable {
							t.Fatalf("seed %d %+v corridor %v: %v to %v: status %v, the oracle finds no path", seed, opt, corr, from, to, res.Status)
						}
						continue
					}
					if res.Status != core.Found {
						t.Fatalf("seed %d %+v corridor %v: %v to %v: status %v, the oracle finds %g", seed, opt, corr, from, to, res.Status, want)
					}
					l, err := checkPath(gx, path, from, to)
					if err != nil {
						t.Fatalf("seed %d %+v corridor %v: %v to %v: illegal with the area blocked: %v", seed, opt, corr, from, to, err)
					}
					if !corr && math.Abs(l-want) > 1e-9*max(1, want) {
						t.Fatalf("seed %d %+v: %v to %v: length %.12g, the oracle's %.12g", seed, opt, from, to, l, want)
					}
					if corr && l < want*(1-1e-9) {
						t.Fatalf("seed %d %+v: corridor %v to %v: length %.12g below the optimum %.12g", seed, opt, from, to, l, want)
					}
				}
			}
			// An end in the excluded area alone is an error.
			for _, c := range testmap.FreeCells(g) {
				if g.Area(c) != 1 || !isolated(g, c) {
					continue
				}
				p := mgl64.Vec2{float64(c.X) + 0.5, float64(c.Y) + 0.5}
				if _, _, err := sr.AppendPath(nil, p, randomPoint(r, cells), navmesh.Query{Filter: &f}); err == nil {
					t.Fatalf("seed %d: a start in the excluded area at %v is not an error", seed, p)
				}
				break
			}
		}
	}
}

// isolated reports whether every cell round c (and c) has c's area.
func isolated(g *grid.Grid, c image.Point) bool {
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if n := c.Add(image.Pt(dx, dy)); g.Passable(n) && g.Area(n) != g.Area(c) {
				return false
			}
		}
	}
	return true
}

func TestRaycastFilterOracle(t *testing.T) {
	var f grid.Filter
	f.Exclude[2] = true
	for seed := range int64(5) {
		g := areaGrid(seed, 30, 24)
		gx := without(g, 2)
		cells := testmap.FreeCells(gx)
		m, err := navmesh.FromGrid(g, navmesh.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := testmap.NewRand(seed)
		for i := range 400 {
			a, b := randomPoint(r, cells), randomPoint(r, cells)
			if i%4 == 0 { // corners and sides, where polygons meet
				a, b = mgl64.Vec2{math.Floor(a[0]), math.Floor(a[1])}, mgl64.Vec2{math.Floor(b[0]), b[1]}
			}
			if !gx.Passable(image.Pt(int(a[0]), int(a[1]))) {
				continue
			}
			hit, _ := m.RaycastFilter(a, b, &f)
			legal := legalLeg(gx, a, b) == nil
			if hit == legal {
				t.Fatalf("seed %d: RaycastFilter(%v, %v) hit %v, but the leg is legal with area 2 blocked: %v", seed, a, b, hit, legal)
			}
		}
	}
}

func TestFilterCosts(t *testing.T) {
	// A straight street of swamp, or the long way round on ground.
	rows := []string{
		"..............................",
		".############################.",
		".############################.",
		"..............................", // swamp from column 1 to 28
		".############################.",
		".############################.",
		"..............................",
	}
	w, h := len(rows[0]), len(rows)
	free := make([]bool, w*h)
	areas := make([]uint8, w*h)
	for y, row := range rows {
		for x, c := range row {
			free[y*w+x] = c == '.'
			if c != '.' {
				areas[y*w+x] = grid.AreaSolid
			} else if y == 3 && x >= 1 && x <= 28 {
				areas[y*w+x] = grid.AreaSwamp
			}
		}
	}
	g, err := grid.New(w, h, free, grid.Options{Areas: areas})
	if err != nil {
		t.Fatal(err)
	}
	m, err := navmesh.FromGrid(g, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sr := navmesh.NewSearcher(m)
	from, to := mgl64.Vec2{0.5, 3.5}, mgl64.Vec2{29.5, 3.5}
	swampIn := func() bool {
		for _, id := range sr.AppendCorridor(nil) {
			if m.Area(id) == grid.AreaSwamp {
				return true
			}
		}
		return false
	}
	for _, tc := range []struct {
		cost  float64
		swamp bool
	}{{0, true}, {1, true}, {1.2, true}, {2, false}, {50, false}} {
		var f grid.Filter
		f.Cost[grid.AreaSwamp] = tc.cost
		path, res, err := sr.AppendPath(nil, from, to, navmesh.Query{Corridor: true, Filter: &f})
		if err != nil || res.Status != core.Found {
			t.Fatalf("cost %g: %v %v", tc.cost, res.Status, err)
		}
		if _, err := checkPath(g, path, from, to); err != nil {
			t.Fatalf("cost %g: %v", tc.cost, err)
		}
		if got := swampIn(); got != tc.swamp {
			t.Errorf("cost %g: the corridor crosses the swamp: %v, want %v (length %.2f)", tc.cost, got, tc.swamp, res.Length)
		}
		if tc.swamp && math.Abs(res.Length-29) > 1e-9 || !tc.swamp && res.Length < 33 {
			t.Errorf("cost %g: length %.4f", tc.cost, res.Length)
		}
	}

	// The exact search cannot weigh, and no mesh opens blocked cells.
	var f grid.Filter
	f.Cost[grid.AreaSwamp] = 3
	if _, _, err := sr.AppendPath(nil, from, to, navmesh.Query{Filter: &f}); !errors.Is(err, navmesh.ErrFilterCost) {
		t.Errorf("exact search with costs: error %v, want ErrFilterCost", err)
	}
	if err := sr.BeginSliced(from, to, navmesh.Query{Filter: &f}); !errors.Is(err, navmesh.ErrFilterCost) {
		t.Errorf("sliced exact search with costs: error %v, want ErrFilterCost", err)
	}
	f = grid.Filter{}
	f.Include[grid.AreaWater] = true
	if _, _, err := sr.AppendPath(nil, from, to, navmesh.Query{Filter: &f, Corridor: true}); err == nil {
		t.Error("a filter that includes blocked cells is not an error")
	}
	f = grid.Filter{}
	f.Cost[grid.AreaSwamp] = -1
	if _, _, err := sr.AppendPath(nil, from, to, navmesh.Query{Filter: &f, Corridor: true}); err == nil {
		t.Error("a negative cost is not an error")
	}
	// After an error, a query without a filter is unfiltered.
	if _, res, err := sr.AppendPath(nil, from, to, navmesh.Query{}); err != nil || math.Abs(res.Length-29) > 1e-9 {
		t.Errorf("unfiltered after an error: %v, length %g", err, res.Length)
	}
	f = grid.Filter{}
	f.Exclude[grid.AreaSwamp] = true
	if _, res, err := sr.AppendPath(nil, from, to, navmesh.Query{Filter: &f}); err != nil || res.Length < 33 {
		t.Errorf("swamp excluded: %v, length %g", err, res.Length)
	}
}

func TestFilterSlicedAndAllocs(t *testing.T) {
	g := areaGrid(3, 60, 40)
	m, err := navmesh.FromGrid(g, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var f grid.Filter
	f.Exclude[1] = true
	f.Cost[2] = 2.5
	cells := testmap.FreeCells(without(g, 1))
	r := testmap.NewRand(9)
	sr, sl := navmesh.NewSearcher(m), navmesh.NewSearcher(m)
	var path, spath []mgl64.Vec2
	for range 30 {
		from, to := randomPoint(r, cells), randomPoint(r, cells)
		for _, q := range []navmesh.Query{{Corridor: true, Filter: &f}, {Corridor: true, Filter: &f, Shortcut: true}} {
			var res navmesh.Result
			path, res, err = sr.AppendPath(path[:0], from, to, q)
			if err != nil {
				t.Fatal(err)
			}
			if err := sl.BeginSliced(from, to, q); err != nil {
				t.Fatal(err)
			}
			var sres navmesh.Result
			for sres, _ = sl.Step(3); sres.Status == core.InProgress; sres, _ = sl.Step(3) {
			}
			spath, sres = sl.AppendSlicedPath(spath[:0])
			if sres.Status != res.Status || sres.Length != res.Length || len(spath) != len(path) {
				t.Fatalf("%v to %v: sliced %v %g (%d points), blocking %v %g (%d points)", from, to, sres.Status, sres.Length, len(spath), res.Status, res.Length, len(path))
			}
		}
	}
	from, to := randomPoint(r, cells), randomPoint(r, cells)
	for _, q := range []navmesh.Query{{Filter: &grid.Filter{Exclude: f.Exclude}}, {Corridor: true, Filter: &f}} {
		path, _, _ = sr.AppendPath(path[:0], from, to, q)
		if n := testing.AllocsPerRun(20, func() { path, _, _ = sr.AppendPath(path[:0], from, to, q) }); n != 0 {
			t.Errorf("%+v: %v allocations a warm query", q, n)
		}
	}
}

func TestFilterPinch(t *testing.T) {
	// Kept cells that meet only at a corner, the other two excluded: no
	// path and no ray passes between them (the grid's no-corner-cutting
	// rule), though the unfiltered mesh joins them.
	areas := []uint8{
		0, 0, 1, 1,
		0, 0, 1, 1,
		1, 1, 0, 0,
		1, 1, 0, 0,
	}
	free := make([]bool, 16)
	for i := range free {
		free[i] = true
	}
	g, err := grid.New(4, 4, free, grid.Options{Areas: areas})
	if err != nil {
		t.Fatal(err)
	}
	var f grid.Filter
	f.Exclude[1] = true
	for _, opt := range []navmesh.Options{{}, {Rectangles: true}} {
		m, err := navmesh.FromGrid(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		sr := navmesh.NewSearcher(m)
		from, to := mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{3.5, 3.5}
		for _, q := range []navmesh.Query{{Filter: &f}, {Filter: &f, Corridor: true}} {
			if _, res, err := sr.AppendPath(nil, from, to, q); err != nil || res.Status != core.Unreachable {
				t.Errorf("%+v %+v: status %v, error %v; want unreachable", opt, q, res.Status, err)
			}
		}
		if _, res, _ := sr.AppendPath(nil, from, to, navmesh.Query{}); res.Status != core.Found {
			t.Errorf("%+v: unfiltered status %v", opt, res.Status)
		}
		for _, b := range []mgl64.Vec2{to, {2, 2}, {2.5, 2.5}} {
			hit, _ := m.RaycastFilter(from, b, &f)
			if want := b != (mgl64.Vec2{2, 2}); hit != want {
				t.Errorf("%+v: RaycastFilter to %v hit %v, want %v", opt, b, hit, want)
			}
		}
		// From the pinch point itself, both kept cells are in reach.
		if _, res, err := sr.AppendPath(nil, mgl64.Vec2{2, 2}, to, navmesh.Query{Filter: &f}); err != nil || res.Status != core.Found {
			t.Errorf("%+v: from the pinch: %v %v", opt, res.Status, err)
		}
	}
}

func TestFileAreas(t *testing.T) {
	g := areaGrid(2, 30, 20)
	for _, opt := range []navmesh.Options{{}, {Rectangles: true}} {
		m, err := navmesh.FromGrid(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		data := encodeMesh(t, m, g)
		if v := binary.LittleEndian.Uint32(data[8:]); v != 2 {
			t.Fatalf("%+v: a mesh with areas is written as version %d, want 2", opt, v)
		}
		got, err := navmesh.ReadFor(bytes.NewReader(data), g, opt)
		if err != nil {
			t.Fatal(err)
		}
		sameMesh(t, m, got, g, 1)
		// A map of the same cells with other areas, or none, refuses it.
		if _, err := navmesh.ReadFor(bytes.NewReader(data), without(g, 255), opt); err == nil {
			t.Errorf("%+v: ReadFor accepted a mesh with areas for a map without", opt)
		}
		// A polygon's area changed, or solid.
		f := parseFile(t, data)
		f.areas[0] = 7
		if _, err := navmesh.ReadFor(bytes.NewReader(f.bytes()), g, opt); err == nil || !strings.Contains(err.Error(), "area") {
			t.Errorf("%+v: ReadFor of a wrong area: %v", opt, err)
		}
		if _, err := navmesh.Read(bytes.NewReader(f.bytes())); err != nil {
			t.Errorf("%+v: Read cannot know the area is wrong, but refused it: %v", opt, err)
		}
		f.areas[0] = grid.AreaSolid
		if _, err := navmesh.Read(bytes.NewReader(f.bytes())); err == nil {
			t.Errorf("%+v: Read accepted a solid polygon", opt)
		}
	}
	// A mesh of one area is version 1, as before; ReadFor refuses it for a
	// map with areas.
	plain := without(g, 255)
	m, err := navmesh.FromGrid(plain, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data := encodeMesh(t, m, plain)
	if v := binary.LittleEndian.Uint32(data[8:]); v != 1 {
		t.Fatalf("a mesh without areas is written as version %d, want 1", v)
	}
	if _, err := navmesh.ReadFor(bytes.NewReader(data), g, navmesh.Options{}); err == nil || !strings.Contains(err.Error(), "no area types") {
		t.Errorf("ReadFor of a mesh without areas for a map with: %v", err)
	}
}

func TestUpdateAreas(t *testing.T) {
	// A tiled mesh with areas, updated after edits, is the mesh FromGrid
	// builds afresh, areas included.
	for seed := range int64(4) {
		g := areaGrid(seed, 36, 28)
		opt := navmesh.Options{TileSize: 8}
		m, err := navmesh.FromGrid(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		editAndCompare(t, g, m, opt, seed, 12)
	}
}

// editAndCompare makes n random edits of g, small rectangles blocked or
// freed, each followed by m.Update, and checks after each that m answers
// as a fresh FromGrid of the edited g with opt does.
func editAndCompare(t *testing.T, g *grid.Grid, m *navmesh.Mesh, opt navmesh.Options, seed int64, n int) {
	t.Helper()
	r := testmap.NewRand(seed)
	for k := range n {
		x, y := r.IntN(g.Width()-2), r.IntN(g.Height()-2)
		rc := image.Rect(x, y, x+1+r.IntN(4), y+1+r.IntN(4))
		g.SetCells(rc, k%3 == 2)
		var err error
		if m, err = m.Update(g, rc); err != nil {
			t.Fatal(err)
		}
		fresh, err := navmesh.FromGrid(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		sameMesh(t, fresh, m, g, seed)
	}
}

// BenchmarkFilter measures queries on a 512² map with areas, without a
// filter and with one (an area excluded; for the corridor search, an area
// weighed too), over the same 100 random pairs.
func BenchmarkFilter(b *testing.B) {
	g := testmap.RandomAreas(5, 512, 512, 0.15)
	m, err := navmesh.FromGrid(g, navmesh.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var excl, weigh grid.Filter
	excl.Exclude[1] = true
	weigh.Exclude[1] = true
	weigh.Cost[2] = 3
	cells := testmap.FreeCells(testmap.Without(g, 1))
	r := testmap.NewRand(5)
	pairs := make([][2]mgl64.Vec2, 100)
	for i := range pairs {
		pairs[i] = [2]mgl64.Vec2{randomPoint(r, cells), randomPoint(r, cells)}
	}
	for _, bc := range []struct {
		name string
		q    navmesh.Query
	}{
		{"exact", navmesh.Query{}},
		{"exact/exclude", navmesh.Query{Filter: &excl}},
		{"corridor", navmesh.Query{Corridor: true}},
		{"corridor/exclude", navmesh.Query{Corridor: true, Filter: &excl}},
		{"corridor/exclude+weigh", navmesh.Query{Corridor: true, Filter: &weigh}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			sr := navmesh.NewSearcher(m)
			var path []mgl64.Vec2
			var res navmesh.Result
			i, expanded, length := 0, 0, 0.0
			for b.Loop() {
				p := pairs[i%len(pairs)]
				i++
				if path, res, err = sr.AppendPath(path[:0], p[0], p[1], bc.q); err != nil {
					b.Fatal(err)
				}
				expanded += res.Expanded
				length += res.Length
			}
			b.ReportMetric(float64(expanded)/float64(i), "expanded/op")
			b.ReportMetric(length/float64(i), "length/op")
		})
	}
}
