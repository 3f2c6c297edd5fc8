package navmesh_test

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/mapgen"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// polygonSet returns m's polygons, each turned to start at its least
// vertex, sorted: equal for meshes of the same polygons in any order.
func polygonSet(m *navmesh.Mesh) [][]mgl64.Vec2 {
	less := func(a, b mgl64.Vec2) int { return cmp.Or(cmp.Compare(a[1], b[1]), cmp.Compare(a[0], b[0])) }
	ps := make([][]mgl64.Vec2, m.NumPolys())
	for id := range ps {
		vs := m.AppendPolygon(nil, navmesh.PolyID(id))
		k := 0
		for i, v := range vs {
			if less(v, vs[k]) < 0 {
				k = i
			}
		}
		ps[id] = append(vs[k:], vs[:k]...)
	}
	slices.SortFunc(ps, func(a, b []mgl64.Vec2) int { return slices.CompareFunc(a, b, less) })
	return ps
}

// copyGrid returns a grid of g's free cells that the caller may edit.
func copyGrid(tb testing.TB, g *grid.Grid) *grid.Grid {
	tb.Helper()
	free := make([]bool, g.Width()*g.Height())
	for y := range g.Height() {
		for x := range g.Width() {
			free[y*g.Width()+x] = g.Passable(image.Pt(x, y))
		}
	}
	c, err := grid.New(g.Width(), g.Height(), free, grid.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// randomEdit returns a random rectangle of up to 6×6 cells of a w×h grid,
// often on a tile line, and whether to free it.
func randomEdit(r interface{ IntN(int) int }, w, h, size int) (image.Rectangle, bool) {
	x, y := r.IntN(w), r.IntN(h)
	if r.IntN(2) == 0 {
		// Across a tile line, or a tile corner.
		x = max(0, min(w-1, (x/size)*size-r.IntN(3)))
		if r.IntN(2) == 0 {
			y = max(0, min(h-1, (y/size)*size-r.IntN(3)))
		}
	}
	return image.Rect(x, y, x+1+r.IntN(6), y+1+r.IntN(6)), r.IntN(3) == 0
}

// TestUpdate edits random grids in random sequences and checks, after each
// edit, that Update's mesh has the polygons of a fresh FromGrid's (up to
// order, and in fact in the same order), writes the same bytes, has the
// same point index and answers a random set of queries as it does, with
// lengths equal to 10⁻⁹; and that the mesh updated from stays as it was.
// Half the sequences recycle each mesh once it is two edits old, its
// arrays filled with garbage first, which the next Update must overwrite.
func TestUpdate(t *testing.T) {
	recycled := 0
	for seed := int64(1); seed <= 12; seed++ {
		w, h := 36+int(seed%5), 28+int(seed%3)
		g := testmap.Random(seed, w, h, 0.05*float64(seed%5), grid.Options{})
		if seed%3 == 0 {
			g = copyGrid(t, blocky(seed, w, h, 20))
		}
		size := []int{8, 16, 5, 3}[seed%4]
		opt := navmesh.Options{TileSize: size}
		m := tiledMesh(t, g, size)
		var prev *navmesh.Mesh
		r := testmap.NewRand(seed)
		for step := range 25 {
			before := polygonSet(m)
			rc, free := randomEdit(r, w, h, size)
			g.SetCells(rc, free)
			where := fmt.Sprintf("seed %d tile %d step %d: SetCells(%v, %v)", seed, size, step, rc, free)
			um, err := m.Update(g, rc)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			fm, err := navmesh.FromGrid(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := polygonSet(um), polygonSet(fm); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("%s: Update's mesh has %d polygons, FromGrid's %d, not the same\n%s", where, len(got), len(want), testmap.Render(g, nil))
			}
			if um.NumPolys() > 0 && !bytes.Equal(encodeMesh(t, um, g), encodeMesh(t, fm, g)) {
				t.Fatalf("%s: Update's mesh writes other bytes than FromGrid's", where)
			}
			if !navmesh.SameIndex(um, fm) {
				t.Fatalf("%s: Update's point index differs from FromGrid's", where)
			}
			if !navmesh.SamePruning(um, fm) {
				t.Fatalf("%s: Update's bridges, numbers or components differ from FromGrid's", where)
			}
			if !slices.EqualFunc(polygonSet(m), before, slices.Equal) {
				t.Fatalf("%s: Update changed the mesh it updated", where)
			}
			checkInTiles(t, um, size, where)
			if !navmesh.PairedAsWhole(um) || !navmesh.PairedAsWhole(fm) {
				t.Fatalf("%s: the tiles' pairing of edges differs from tri.PairEdges'", where)
			}
			sameAnswers(t, um, fm, g, r, where)
			// Odd seeds recycle the mesh before m, poisoned, for the
			// next Update.
			if seed%2 == 1 && prev != nil {
				prev.Recycle()
				if prev.NumPolys() != 0 {
					t.Fatalf("%s: a recycled mesh has %d polygons", where, prev.NumPolys())
				}
				if navmesh.PoisonSpare(m) {
					recycled++
				}
			}
			prev, m = m, um
		}
	}
	if recycled < 100 {
		t.Errorf("only %d Updates had a recycled mesh's arrays", recycled)
	}
}

// sameAnswers checks that meshes a and b of g locate points and find paths
// alike, with lengths equal to 10⁻⁹, for random points of the 1/4 lattice.
func sameAnswers(t *testing.T, a, b *navmesh.Mesh, g *grid.Grid, r interface{ IntN(int) int }, where string) {
	t.Helper()
	point := func() mgl64.Vec2 {
		return mgl64.Vec2{float64(r.IntN(4*g.Width()+1)) / 4, float64(r.IntN(4*g.Height()+1)) / 4}
	}
	qa, qb := navmesh.NewSearcher(a), navmesh.NewSearcher(b)
	for range 40 {
		p, q := point(), point()
		_, oka := a.Locate(p)
		_, okb := b.Locate(p)
		if oka != okb {
			t.Fatalf("%s: at %v Update's mesh locates %v, FromGrid's %v", where, p, oka, okb)
		}
		_, ra, erra := qa.AppendPath(nil, p, q, navmesh.Query{})
		_, rb, errb := qb.AppendPath(nil, p, q, navmesh.Query{})
		if ra.Status != rb.Status || math.Abs(ra.Length-rb.Length) > 1e-9 || fmt.Sprint(erra) != fmt.Sprint(errb) {
			t.Fatalf("%s: %v→%v: Update's mesh %+v %v, FromGrid's %+v %v", where, p, q, ra, erra, rb, errb)
		}
	}
}

// TestUpdateErrors checks the meshes and grids Update refuses, and that an
// edit outside the grid returns the mesh itself.
func TestUpdateErrors(t *testing.T) {
	g := testmap.Random(1, 20, 10, 0.2, grid.Options{})
	m := tiledMesh(t, g, 8)
	rm, err := navmesh.Read(bytes.NewReader(encodeMesh(t, m, g)))
	if err != nil {
		t.Fatal(err)
	}
	rects, err := navmesh.FromGrid(g, navmesh.Options{TileSize: 8, Rectangles: true})
	if err != nil {
		t.Fatal(err)
	}
	other := testmap.Random(1, 21, 10, 0.2, grid.Options{})
	for _, tc := range []struct {
		name string
		m    *navmesh.Mesh
		g    *grid.Grid
	}{
		{"untiled", mustMesh(t, g), g},
		{"read from a file", rm, g},
		{"rectangles", rects, g},
		{"nil grid", m, nil},
		{"another size", m, other},
	} {
		if _, err := tc.m.Update(tc.g, image.Rect(0, 0, 1, 1)); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if um, err := m.Update(g, image.Rect(30, 0, 40, 5)); um != m || err != nil {
		t.Errorf("edit off the grid: got %p, %v, want the mesh itself", um, err)
	}
}

// BenchmarkUpdate compares, on Berlin_0_1024, an Update after an edit of
// 4×4 cells at a random place (blocking them and freeing them in turn)
// with FromGrid of the whole grid, untiled and tiled.
func BenchmarkUpdate(b *testing.B) {
	g0, _ := testmap.MovingAI(b, "Berlin_0_1024.map")
	for _, size := range []int{0, 64, 128} {
		b.Run(fmt.Sprintf("FromGrid/tile%d", size), func(b *testing.B) {
			b.ReportAllocs()
			var m *navmesh.Mesh
			for b.Loop() {
				var err error
				if m, err = navmesh.FromGrid(g0, navmesh.Options{TileSize: size}); err != nil || m.NumPolys() == 0 {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(m.NumPolys()), "polygons")
		})
	}
	for _, size := range []int{64, 128} {
		b.Run(fmt.Sprintf("Update/tile%d", size), func(b *testing.B) {
			g := copyGrid(b, g0)
			m := tiledMesh(b, g, size)
			r := testmap.NewRand(1)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				rc := image.Rect(r.IntN(1020), r.IntN(1020), 0, 0)
				rc.Max = rc.Min.Add(image.Pt(4, 4))
				g.SetCells(rc, i%2 == 1)
				i++
				var err error
				if m, err = m.Update(g, rc); err != nil || m.NumPolys() == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkUpdateWorld times Update on the 4096² demo world of mapgen
// (seed 0, as `mapgen world -size 4096` makes it) in tiles of 64, after a
// wall of 12×1 or 1×12 cells put up at a random place where all its cells
// are free, then taken down again: one op is one Update. The build, some
// seconds, is not timed. In fresh, each Update writes into new arrays; in
// recycled, into those of the mesh two edits old (Mesh.Recycle), which
// holds the rows above both edits and, as the second takes down the
// first's wall, below them too. In recycled-apart, each Update puts up a
// new wall or takes down the one put up two walls before, far from the
// last edit: the rows below are never held.
func BenchmarkUpdateWorld(b *testing.B) {
	g, err := mapgen.World(mapgen.WorldOptions{Width: 4096, Height: 4096})
	if err != nil {
		b.Fatal(err)
	}
	m := tiledMesh(b, g, 64)
	r := testmap.NewRand(1)
	var walls []image.Rectangle // standing, oldest first
	i := 0
	for _, mode := range []string{"fresh", "recycled", "recycled-apart"} {
		b.Run(mode, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var wall image.Rectangle
				free := false
				switch {
				case len(walls) > 0 && (mode != "recycled-apart" && i%2 == 1 || len(walls) > 2):
					// Take down the last wall, or the one before it.
					k := len(walls) - 1
					if mode == "recycled-apart" {
						k = 0
					}
					wall, free = walls[k], true
					walls = slices.Delete(walls, k, k+1)
				default: // a new wall where every cell is free
					b.StopTimer()
					wall = testmap.FreeWall(r, g, 12)
					walls = append(walls, wall)
					b.StartTimer()
				}
				g.SetCells(wall, free)
				i++
				old := m
				if m, err = m.Update(g, wall); err != nil || m.NumPolys() == 0 {
					b.Fatal(err)
				}
				if mode != "fresh" {
					old.Recycle()
				}
			}
			b.ReportMetric(float64(m.NumPolys()), "polygons")
		})
	}
}

// TestUpdateConcurrentEdits runs Update on a goroutine of its own while
// another edits the grid in place, as a game that updates its mesh in the
// background would (run under -race by CI: Update holds the grid's read
// lock, so SetCells waits for it). Queries run on the meshes meanwhile.
// Once the edits stop, one more Update gives a fresh build's bytes.
func TestUpdateConcurrentEdits(t *testing.T) {
	g := copyGrid(t, testmap.Random(5, 60, 40, 0.1, grid.Options{}))
	opt := navmesh.Options{TileSize: 8}
	m := tiledMesh(t, g, 8)
	wall := image.Rect(20, 5, 22, 30)
	var cur atomic.Pointer[navmesh.Mesh]
	cur.Store(m)
	done := make(chan struct{})
	var wg sync.WaitGroup
	var pairs [][2]image.Point // free cells away from the wall
	for _, p := range testmap.RandomPairs(testmap.NewRand(5), g, 40) {
		if near := wall.Inset(-1); !p[0].In(near) && !p[1].In(near) {
			pairs = append(pairs, p)
		}
	}
	centre := func(p image.Point) mgl64.Vec2 { return mgl64.Vec2{float64(p.X) + 0.5, float64(p.Y) + 0.5} }
	wg.Go(func() { // the game: edits, and queries on the current mesh
		defer close(done)
		for i := range 40 {
			g.SetCells(wall, i%2 == 1)
			p := pairs[i%len(pairs)]
			if _, _, err := navmesh.NewSearcher(cur.Load()).AppendPath(nil, centre(p[0]), centre(p[1]), navmesh.Query{}); err != nil {
				t.Error(err)
				return
			}
		}
	})
	wg.Go(func() { // the background updater
		for {
			select {
			case <-done:
				return
			default:
			}
			um, err := cur.Load().Update(g, wall)
			if err != nil {
				t.Error(err)
				return
			}
			cur.Store(um)
		}
	})
	wg.Wait()
	um, err := cur.Load().Update(g, wall)
	if err != nil {
		t.Fatal(err)
	}
	fm, err := navmesh.FromGrid(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(encodeMesh(t, um, g), encodeMesh(t, fm, g)) {
		t.Fatal("after the edits, Update's mesh writes other bytes than FromGrid's")
	}
}

// TestRecycleConcurrent runs Updates of one mesh on several goroutines at
// once, each recycling the meshes it makes, so that they share the line's
// spare arrays and scratch memory (run under -race by CI): every mesh must
// write a fresh build's bytes, and the mesh updated from stays as it was.
func TestRecycleConcurrent(t *testing.T) {
	g := testmap.Random(5, 45, 33, 0.15, grid.Options{})
	m := tiledMesh(t, g, 8)
	before := polygonSet(m)
	wall := image.Rect(17, 9, 29, 10)
	g.SetCells(wall, false)
	fm, err := navmesh.FromGrid(g, navmesh.Options{TileSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if _, err := fm.WriteTo(&want); err != nil {
		t.Fatal(err)
	}
	updateConcurrently(t, m, g, wall, func(um *navmesh.Mesh) error {
		var got bytes.Buffer
		if _, err := um.WriteTo(&got); err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) {
			return fmt.Errorf("other bytes than a fresh build's (%v)", err)
		}
		return nil
	})
	if !slices.EqualFunc(polygonSet(m), before, slices.Equal) {
		t.Fatal("Update changed the mesh it updated")
	}
}

// updateConcurrently runs 25 Updates of m for the edit wall of g on each of
// four goroutines, checking each mesh with check before recycling it.
func updateConcurrently(t *testing.T, m *navmesh.Mesh, g *grid.Grid, wall image.Rectangle, check func(um *navmesh.Mesh) error) {
	t.Helper()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 25 {
				um, err := m.Update(g, wall)
				if err != nil {
					t.Error(err)
					return
				}
				if err := check(um); err != nil {
					t.Errorf("goroutine %d, update %d: %v", w, i, err)
					return
				}
				um.Recycle()
			}
		})
	}
	wg.Wait()
}
