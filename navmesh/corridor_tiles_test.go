package navmesh_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/gridcheck"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// This file checks the corridor search over tiles (corridor_tiles.go) on
// small tiled meshes, with the least distance for it lowered so that most
// queries take it: paths legal, never shorter than the exact search's and
// close to it, corridors sound, sliced queries alike, the tables kept by
// Update those of a fresh build, and no allocation once warm.

// tiledGrids returns seeded random and blocky grids with a tile size for
// each.
func tiledGrids(n int) (gs []*grid.Grid, sizes []int) {
	for seed := int64(1); seed <= int64(n); seed++ {
		g := testmap.Random(seed, 64+int(seed%9), 48+int(seed%7), 0.04*float64(seed%5), grid.Options{})
		if seed%3 == 0 {
			g = blocky(seed, 64, 48, 40)
		}
		gs = append(gs, g)
		sizes = append(sizes, []int{8, 5, 16, 11}[seed%4])
	}
	return gs, sizes
}

// TestCorridorTiles compares the corridor search over tiles with the exact
// search on tiled meshes, with and without landmarks, and each query with
// its sliced twin, stepped a few expansions at a time.
func TestCorridorTiles(t *testing.T) {
	defer navmesh.SetCorridorTileRange(0)()
	var x excess
	over := 0
	gs, sizes := tiledGrids(12)
	for i, g := range gs {
		m := tiledMesh(t, g, sizes[i])
		if i%2 == 1 {
			lm, err := m.WithLandmarks(4)
			if err != nil {
				t.Fatal(err)
			}
			m = lm
		}
		s, sl := navmesh.NewSearcher(m), navmesh.NewSearcher(m)
		c := gridcheck.New(g, 0)
		r := testmap.NewRand(int64(i))
		for k := range 80 {
			from, to := endPair(g, m, r)
			if k%4 == 0 {
				p := testmap.RandomPairs(r, g, 1)[0]
				from, to = tilePoint(r, p[0], sizes[i]), tilePoint(r, p[1], sizes[i])
			}
			where := fmt.Sprintf("grid %d tile %d query %d %v→%v", i, sizes[i], k, from, to)
			got, exact, err := compareCorridor(c, m, s, from, to, corridorQ)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			path, res, _ := s.AppendPath(nil, from, to, corridorQ)
			if !navmesh.CorridorOverTiles(s) {
				continue
			}
			over++
			x.add(got, exact, where)
			polys := s.AppendCorridor(nil)
			if err := sl.BeginSliced(from, to, corridorQ); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			steps := 0
			for {
				sr, _ := sl.Step(1 + k%5)
				if sr.Status != core.InProgress {
					break
				}
				if steps++; steps > 1e6 {
					t.Fatalf("%s: the sliced query does not end", where)
				}
			}
			spath, sres := sl.AppendSlicedPath(nil)
			if !slices.Equal(spath, path) || sres != res || !slices.Equal(sl.AppendCorridor(nil), polys) {
				t.Fatalf("%s: sliced %v %+v, blocking %v %+v", where, spath, sres, path, res)
			}
		}
	}
	t.Logf("%d queries over tiles: %v", over, &x)
	if over < 500 {
		t.Fatalf("%d queries ran over tiles: the test checks too little", over)
	}
	if x.mean() > 0.05 {
		t.Errorf("mean excess %.2f %%, want at most 5 %%", 100*x.mean())
	}
}

// TestCorridorTilesUpdate edits tiled meshes with every table filled and
// checks that Update keeps those of the tiles away from the edit, equal
// to a fresh build's, and that queries over tiles on the updated mesh
// answer as on the fresh build, path for path.
func TestCorridorTilesUpdate(t *testing.T) {
	defer navmesh.SetCorridorTileRange(0)()
	carried := 0
	for seed := int64(1); seed <= 6; seed++ {
		w, h := 60, 44
		g := copyGrid(t, testmap.Random(seed, w, h, 0.05*float64(seed%4), grid.Options{}))
		size := []int{8, 5, 11}[seed%3]
		m := tiledMesh(t, g, size)
		r := testmap.NewRand(seed)
		for step := range 12 {
			m.FillCorridorTables()
			rc, free := randomEdit(r, w, h, size)
			g.SetCells(rc, free)
			where := fmt.Sprintf("seed %d tile %d step %d: SetCells(%v, %v)", seed, size, step, rc, free)
			um, err := m.Update(g, rc)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			fm := tiledMesh(t, g, size)
			n, err := navmesh.CarriedCorridorTables(um, fm)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			carried += n
			a, b := navmesh.NewSearcher(um), navmesh.NewSearcher(fm)
			for _, pr := range testmap.RandomPairs(r, g, 20) {
				from, to := centre(pr[0]), centre(pr[1])
				p, pres, perr := a.AppendPath(nil, from, to, corridorQ)
				q, qres, qerr := b.AppendPath(nil, from, to, corridorQ)
				if (perr != nil) != (qerr != nil) || pres != qres || !slices.Equal(p, q) {
					t.Fatalf("%s: %v→%v: updated %v %+v %v, fresh %v %+v %v", where, from, to, p, pres, perr, q, qres, qerr)
				}
			}
			m = um
		}
	}
	if carried == 0 {
		t.Fatal("Update carried no table: the test checks nothing")
	}
}

// TestCorridorTilesAllocs checks that a warm query over tiles allocates
// nothing, and TestCorridorTilesConcurrent that Searchers of one mesh
// filling its tables at once answer as one alone (run under -race).
func TestCorridorTilesAllocs(t *testing.T) {
	defer navmesh.SetCorridorTileRange(0)()
	gs, sizes := tiledGrids(2)
	m := tiledMesh(t, gs[1], sizes[1])
	m.FillCorridorTables()
	s := navmesh.NewSearcher(m)
	pairs := testmap.RandomPairs(testmap.NewRand(3), gs[1], 8)
	var path []mgl64.Vec2
	run := func() {
		for _, p := range pairs {
			path, _, _ = s.AppendPath(path[:0], centre(p[0]), centre(p[1]), corridorQ)
		}
	}
	run()
	if !navmesh.CorridorOverTiles(s) {
		t.Fatal("the last query did not run over tiles")
	}
	if n := testing.AllocsPerRun(10, run); n != 0 {
		t.Errorf("%v allocations for %d queries over tiles, want 0", n, len(pairs))
	}
}

func TestCorridorTilesConcurrent(t *testing.T) {
	defer navmesh.SetCorridorTileRange(0)()
	gs, sizes := tiledGrids(3)
	g := gs[2]
	pairs := testmap.RandomPairs(testmap.NewRand(9), g, 60)
	want := make([][]mgl64.Vec2, len(pairs))
	alone := navmesh.NewSearcher(tiledMesh(t, g, sizes[2]))
	for i, p := range pairs {
		want[i], _, _ = alone.AppendPath(nil, centre(p[0]), centre(p[1]), corridorQ)
	}
	m := tiledMesh(t, g, sizes[2]) // its tables not yet found
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			s := navmesh.NewSearcher(m)
			for k := range pairs {
				i := (k + 15*w) % len(pairs)
				got, _, err := s.AppendPath(nil, centre(pairs[i][0]), centre(pairs[i][1]), corridorQ)
				if err != nil || !slices.Equal(got, want[i]) {
					t.Errorf("query %d: %v %v, alone %v", i, got, err, want[i])
					return
				}
			}
		})
	}
	wg.Go(m.FillCorridorTables)
	wg.Wait()
}
