package navmesh_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/funnel"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/gridcheck"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// This file checks the corridor search (Query.Corridor): every path legal
// by package gridcheck, never shorter than the exact search's and on
// average within a few per cent of it, and its corridor a chain of
// neighbouring polygons from the start's to the goal's that pulls taut
// into the path.

var (
	corridorQ = navmesh.Query{Corridor: true}
	shortcutQ = navmesh.Query{Corridor: true, Shortcut: true}
)

// polyHolds reports whether polygon id of m holds p (its sides included),
// within rounding of the cross products: exactly on grid meshes.
func polyHolds(m *navmesh.Mesh, id navmesh.PolyID, p mgl64.Vec2) bool {
	vs := m.AppendPolygon(nil, id)
	for i, a := range vs {
		b := vs[(i+1)%len(vs)]
		c := (b[0]-a[0])*(p[1]-a[1]) - (b[1]-a[1])*(p[0]-a[0])
		if c > 1e-12*b.Sub(a).Len()*(1+p.Sub(a).Len()) {
			return false
		}
	}
	return true
}

// checkCorridor checks the corridor polys of a path from from to to: it
// runs from a polygon holding from to one holding to, each polygon a
// neighbour of the one before and none twice, and, unless the path took
// shortcuts, its portals pulled taut are the path.
func checkCorridor(m *navmesh.Mesh, polys []navmesh.PolyID, path []mgl64.Vec2, from, to mgl64.Vec2, shortcut bool) error {
	if len(polys) == 0 {
		return fmt.Errorf("empty corridor")
	}
	if !polyHolds(m, polys[0], from) {
		return fmt.Errorf("corridor %v starts in polygon %d, which does not hold the start %v", polys, polys[0], from)
	}
	if last := polys[len(polys)-1]; !polyHolds(m, last, to) {
		return fmt.Errorf("corridor %v ends in polygon %d, which does not hold the end %v", polys, last, to)
	}
	var portals []funnel.Portal
	var nbs []navmesh.Neighbor
	for i := 1; i < len(polys); i++ {
		if slices.Contains(polys[:i], polys[i]) {
			return fmt.Errorf("corridor %v holds polygon %d twice", polys, polys[i])
		}
		nbs = m.AppendNeighbors(nbs[:0], polys[i-1])
		k := slices.IndexFunc(nbs, func(nb navmesh.Neighbor) bool { return nb.Poly == polys[i] })
		if k < 0 {
			return fmt.Errorf("corridor %v: polygon %d is not a neighbour of %d", polys, polys[i], polys[i-1])
		}
		portals = append(portals, nbs[k].Portal)
	}
	if pulled := funnel.Pull(nil, from, to, portals); !shortcut && !slices.Equal(pulled, path) {
		return fmt.Errorf("corridor %v pulls into %v, not the path", polys, pulled)
	}
	return nil
}

// excess accumulates the relative excess of corridor paths over the exact
// search's.
type excess struct {
	ratios
	worstAt string
}

func (x *excess) add(length, exact float64, where string) {
	if exact <= 0 {
		return
	}
	v := length/exact - 1
	if x.n == 0 || v > x.max {
		x.worstAt = where
	}
	x.ratios.add(v)
}

func (x *excess) String() string {
	if x.n == 0 {
		return "no paths"
	}
	return fmt.Sprintf("%d paths, excess over the exact search mean %.3f %%, worst %.3f %% (%s)", x.n, 100*x.mean(), 100*x.max, x.worstAt)
}

// compareCorridor runs the query from→to exactly and with q (Corridor set)
// on searcher s of mesh m (built from g), checks the corridor answer
// against the exact one, and returns the two lengths (0 when none).
func compareCorridor(c *gridcheck.Checker, m *navmesh.Mesh, s *navmesh.Searcher, from, to mgl64.Vec2, q navmesh.Query) (got, exact float64, err error) {
	_, want, werr := s.AppendPath(nil, from, to, navmesh.Query{})
	path, res, err := s.AppendPath(nil, from, to, q)
	polys := s.AppendCorridor(nil)
	switch {
	case werr != nil:
		if err == nil || err.Error() != werr.Error() {
			return 0, 0, fmt.Errorf("error %v, the exact search's %v", err, werr)
		}
		if len(polys) != 0 {
			return 0, 0, fmt.Errorf("corridor %v after an error", polys)
		}
		return 0, 0, nil
	case err != nil:
		return 0, 0, err
	case res.Status != want.Status:
		return 0, 0, fmt.Errorf("status %v, the exact search's %v", res.Status, want.Status)
	case res.Status == core.Unreachable:
		if len(path) != 0 || len(polys) != 0 || res.End != from {
			return 0, 0, fmt.Errorf("unreachable with path %v, corridor %v, end %v", path, polys, res.End)
		}
		return 0, 0, nil
	}
	length, err := c.Path(path, from, to)
	if err != nil {
		return 0, 0, fmt.Errorf("path %v: %w", path, err)
	}
	if d := length - res.Length; d > 1e-9*max(1, length) || -d > 1e-9*max(1, length) {
		return 0, 0, fmt.Errorf("Result.Length %v, path %v is %v long", res.Length, path, length)
	}
	if res.End != to {
		return 0, 0, fmt.Errorf("Result.End %v, want the goal", res.End)
	}
	if length < want.Length*(1-1e-9) {
		return 0, 0, fmt.Errorf("path %v is %v long, shorter than the exact search's %v", path, length, want.Length)
	}
	if err := checkCorridor(m, polys, path, from, to, q.Shortcut); err != nil {
		return 0, 0, fmt.Errorf("path %v: %w", path, err)
	}
	return length, want.Length, nil
}

func TestCorridorDrawn(t *testing.T) {
	v := func(x, y float64) mgl64.Vec2 { return mgl64.Vec2{x, y} }
	tests := []struct {
		name    string
		drawing string
		want    []mgl64.Vec2 // nil: unreachable
		polys   int          // corridor length; 0: any
	}{
		{"open", `
			S....
			.....
			....G`, []mgl64.Vec2{v(0.5, 0.5), v(4.5, 2.5)}, 1},
		{"wall", `
			S.#..
			..#..
			....G`, []mgl64.Vec2{v(0.5, 0.5), v(2, 2), v(4.5, 2.5)}, 0},
		{"no squeezing through a pinched corner", `
			S.#.
			.#..
			...G`, []mgl64.Vec2{v(0.5, 0.5), v(1, 2), v(3.5, 2.5)}, 0},
		{"u-turn", `
			S......
			######.
			G......`, []mgl64.Vec2{v(0.5, 0.5), v(6, 1), v(6, 2), v(0.5, 2.5)}, 0},
		{"same cell", `
			#G#
			...`, []mgl64.Vec2{v(1.5, 0.5)}, 1},
		{"unreachable", `
			S.#..
			..#.G`, nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, s, e := fromDrawing(t, tc.drawing)
			if tc.name == "same cell" {
				s = e
			}
			m := mustMesh(t, g)
			q := navmesh.NewSearcher(m)
			from, to := centre(s), centre(e)
			for _, cq := range []navmesh.Query{corridorQ, shortcutQ} {
				got, res, err := q.AppendPath(nil, from, to, cq)
				if err != nil {
					t.Fatal(err)
				}
				polys := q.AppendCorridor(nil)
				if tc.want == nil {
					if res.Status != core.Unreachable || len(got) != 0 || len(polys) != 0 {
						t.Fatalf("%+v: got %v, %+v, corridor %v, want no path, unreachable\n%s", cq, got, res, polys, tc.drawing)
					}
					continue
				}
				if res.Status != core.Found || !slices.Equal(got, tc.want) {
					t.Fatalf("%+v: got %v (%v)\nwant %v\n%s", cq, got, res.Status, tc.want, tc.drawing)
				}
				if err := checkCorridor(m, polys, got, from, to, false); err != nil {
					t.Fatalf("%+v: %v\n%s", cq, err, tc.drawing)
				}
				if tc.polys > 0 && len(polys) != tc.polys {
					t.Fatalf("%+v: corridor %v, want %d polygons\n%s", cq, polys, tc.polys, tc.drawing)
				}
			}
		})
	}
}

// corridorGrids returns the seeded grids the corridor tests search: random
// ones of densities 0 to 0.35, blocky ones and mazes with and without
// loops.
// corridorMesh is a mesh of one of corridorGrids, at index in their list.
type corridorMesh struct {
	gridCase struct {
		name string
		g    *grid.Grid
	}
	index int
	m     *navmesh.Mesh
}

// corridorMeshes returns the meshes of kind "convex" or "rectangles" of
// corridorGrids, less those without polygons.
func corridorMeshes(t *testing.T, kind string) []corridorMesh {
	t.Helper()
	var ms []corridorMesh
	for gi, gc := range corridorGrids() {
		m := mustMesh(t, gc.g)
		if kind == "rectangles" {
			m = rectMesh(t, gc.g)
		}
		if m.NumPolys() > 0 {
			ms = append(ms, corridorMesh{gridCase: gc, index: gi, m: m})
		}
	}
	return ms
}

func corridorGrids() []struct {
	name string
	g    *grid.Grid
} {
	type gridCase = struct {
		name string
		g    *grid.Grid
	}
	var gs []gridCase
	for seed := int64(1); seed <= 5; seed++ {
		for _, d := range []float64{0, 0.05, 0.1, 0.2, 0.35} {
			gs = append(gs, gridCase{fmt.Sprintf("random seed %d density %v", seed, d), testmap.Random(seed, 48, 36, d, grid.Options{})})
		}
		gs = append(gs,
			gridCase{fmt.Sprintf("blocky seed %d", seed), blocky(seed, 48, 36, 30)},
			gridCase{fmt.Sprintf("maze seed %d loops %d", seed, 2*(seed-1)), testmap.Maze(seed, 8, 6, 1+int(seed%3), 2*int(seed-1))})
	}
	return gs
}

// endPair draws the ends of a query on m: cell centres of random free
// cells of g, or points of the 1/4 lattice in random polygons, often on
// their sides and corners.
func endPair(g *grid.Grid, m *navmesh.Mesh, r *rand.Rand) (mgl64.Vec2, mgl64.Vec2) {
	if r.IntN(2) == 0 {
		p := testmap.RandomPairs(r, g, 1)[0]
		return centre(p[0]), centre(p[1])
	}
	a, b := navmesh.PolyID(r.IntN(m.NumPolys())), navmesh.PolyID(r.IntN(m.NumPolys()))
	return pointIn(m, a, r), pointIn(m, b, r)
}

// TestCorridorRandomGrids compares the corridor search with the exact one
// on the convex meshes and the meshes of rectangles of seeded grids.
func TestCorridorRandomGrids(t *testing.T) {
	for _, kind := range []string{"convex", "rectangles"} {
		meshes := corridorMeshes(t, kind)
		for _, q := range []navmesh.Query{corridorQ, shortcutQ} {
			var all excess
			unreachable := 0
			for _, cm := range meshes {
				gc, gi, m := cm.gridCase, cm.index, cm.m
				s := navmesh.NewSearcher(m)
				c := gridcheck.New(gc.g, 0)
				seed := int64(100 + gi)
				r := testmap.NewRand(seed)
				for i := range 60 {
					from, to := endPair(gc.g, m, r)
					where := fmt.Sprintf("%s mesh of %s, rand seed %d, query %d %v→%v, %+v", kind, gc.name, seed, i, from, to, q)
					got, exact, err := compareCorridor(c, m, s, from, to, q)
					if err != nil {
						t.Fatalf("%s: %v\n%s", where, err, testmap.Render(gc.g, nil))
					}
					if got == 0 && exact == 0 && from != to {
						unreachable++
					}
					all.add(got, exact, where)
				}
			}
			t.Logf("%s meshes, shortcut %v: %v; %d unreachable", kind, q.Shortcut, &all, unreachable)
			if all.n < 1000 || unreachable == 0 {
				t.Fatalf("%d paths, %d unreachable: the test checks too little", all.n, unreachable)
			}
			if all.mean() > 0.10 {
				t.Fatalf("mean excess %.2f %%, want at most 10 %%", 100*all.mean())
			}
		}
	}
}

// TestCorridorMovingAI compares the corridor search with the exact one on
// every 20th scenario of den520d, every 50th of Berlin_0_1024 and of
// maze512-1-0, between cell centres, when the benchmarks are present.
func TestCorridorMovingAI(t *testing.T) {
	for _, tc := range []struct {
		name  string
		every int
	}{{"den520d.map", 20}, {"Berlin_0_1024.map", 50}, {"maze512-1-0.map", 50}} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && tc.name != "den520d.map" {
				t.Skip("short")
			}
			g, scens := testmap.MovingAI(t, tc.name)
			m := mustMesh(t, g)
			s := navmesh.NewSearcher(m)
			c := gridcheck.New(g, 0)
			for _, q := range []navmesh.Query{corridorQ, shortcutQ} {
				var all excess
				for i := 0; i < len(scens); i += tc.every {
					sc := scens[i]
					from, to := centre(sc.Start), centre(sc.Goal)
					where := fmt.Sprintf("scenario %d %v→%v", i, sc.Start, sc.Goal)
					got, exact, err := compareCorridor(c, m, s, from, to, q)
					if err != nil {
						t.Fatalf("%s, %+v: %v", where, q, err)
					}
					if got == 0 && sc.Optimal > 0 {
						t.Fatalf("%s: no path", where)
					}
					all.add(got, exact, where)
				}
				t.Logf("shortcut %v: %v", q.Shortcut, &all)
				if all.mean() > 0.10 {
					t.Fatalf("shortcut %v: mean excess %.2f %%, want at most 10 %%", q.Shortcut, 100*all.mean())
				}
			}
		})
	}
}

// TestCorridorOffMesh checks that ends off the mesh are the exact search's
// errors, and leave the corridor empty.
func TestCorridorOffMesh(t *testing.T) {
	g, s, e := fromDrawing(t, `
		S.#..
		..#.G`)
	q := navmesh.NewSearcher(mustMesh(t, g))
	on, wall, out := centre(s), mgl64.Vec2{2.5, 0.5}, mgl64.Vec2{-3, 1}
	for _, ends := range [][2]mgl64.Vec2{{wall, on}, {on, wall}, {out, on}, {on, out}, {on, mgl64.Vec2{5.5, 0.5}}} {
		if _, _, err := q.AppendPath(nil, on, centre(e), corridorQ); err != nil {
			t.Fatal(err) // fills the corridor
		}
		_, _, want := q.AppendPath(nil, ends[0], ends[1], navmesh.Query{})
		path, res, err := q.AppendPath(nil, ends[0], ends[1], corridorQ)
		if want == nil || err == nil || err.Error() != want.Error() {
			t.Errorf("%v→%v: error %v, the exact search's %v", ends[0], ends[1], err, want)
		}
		if polys := q.AppendCorridor(nil); len(path) != 0 || res.Status != core.NotSearched || len(polys) != 0 {
			t.Errorf("%v→%v: path %v, %v, corridor %v beside the error", ends[0], ends[1], path, res.Status, polys)
		}
	}
}

// TestCorridorRadius checks corridor paths on meshes built for an agent of
// a radius: they keep it from every wall, as the exact search's do.
func TestCorridorRadius(t *testing.T) {
	for _, r := range []float64{0.5, 1} {
		for seed := int64(1); seed <= 3; seed++ {
			g := testmap.Random(seed, 50, 40, 0.02, grid.Options{})
			m, err := navmesh.FromGrid(g, navmesh.Options{Radius: r})
			if err != nil {
				t.Fatal(err)
			}
			s := navmesh.NewSearcher(m)
			c := gridcheck.New(g, r)
			found := 0
			for i, p := range testmap.RandomPairs(testmap.NewRand(seed), g, 100) {
				from, to := centre(p[0]), centre(p[1])
				got, _, err := compareCorridor(c, m, s, from, to, shortcutQ)
				if err != nil {
					t.Fatalf("radius %v, seed %d, query %d %v→%v: %v", r, seed, i, from, to, err)
				}
				if got > 0 {
					found++
				}
			}
			if found < 20 {
				t.Fatalf("radius %v, seed %d: only %d paths found; the test checks too little", r, seed, found)
			}
		}
	}
}

// TestCorridorBudget runs corridor queries with budgets of expansions: a
// budget the search does not need changes nothing; one that its second
// pass needs leaves the first pass's path, legal and no shorter; one that
// its first pass needs gives a legal partial path from the start to
// Result.End, through the corridor.
func TestCorridorBudget(t *testing.T) {
	spent, firstOnly := 0, 0
	for seed := int64(1); seed <= 4; seed++ {
		g := testmap.Random(seed, 40, 30, 0.2, grid.Options{})
		m := mustMesh(t, g)
		s := navmesh.NewSearcher(m)
		c := gridcheck.New(g, 0)
		for i, p := range testmap.RandomPairs(testmap.NewRand(seed), g, 40) {
			from, to := centre(p[0]), centre(p[1])
			want, wantRes, err := s.AppendPath(nil, from, to, corridorQ)
			if err != nil || wantRes.Status != core.Found {
				continue
			}
			for _, budget := range budgets {
				q := corridorQ
				q.MaxExpansions = budget
				got, res, err := s.AppendPath(nil, from, to, q)
				where := fmt.Sprintf("seed %d query %d %v→%v budget %d", seed, i, from, to, budget)
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if wantRes.Expanded <= budget {
					if res != wantRes || !slices.Equal(got, want) {
						t.Fatalf("%s, not needed: got %v %+v, want %v %+v", where, got, res, want, wantRes)
					}
					continue
				}
				if res.Status == core.Found {
					// The first pass ended within the budget, the second not.
					length, err := c.Path(got, from, to)
					if err == nil && (res.Expanded > budget || res.Length < wantRes.Length-1e-9 || math.Abs(length-res.Length) > 1e-9) {
						err = fmt.Errorf("%+v, path %v long, against %+v with no budget", res, length, wantRes)
					}
					if err == nil {
						err = checkCorridor(m, s.AppendCorridor(nil), got, from, to, false)
					}
					if err != nil {
						t.Fatalf("%s: %v", where, err)
					}
					firstOnly++
					continue
				}
				spent++
				if res.Status != core.BudgetSpent || res.Expanded > budget || len(got) == 0 || got[len(got)-1] != res.End {
					t.Fatalf("%s: got %v, %+v", where, got, res)
				}
				length, err := c.Path(got, from, res.End)
				if err == nil && (length-res.Length > 1e-9 || res.Length-length > 1e-9) {
					err = fmt.Errorf("Result.Length %v, path %v long", res.Length, length)
				}
				if err == nil {
					err = checkCorridor(m, s.AppendCorridor(nil), got, from, res.End, false)
				}
				if err != nil {
					t.Fatalf("%s: partial path %v: %v", where, got, err)
				}
			}
		}
	}
	if spent < 20 || firstOnly < 5 {
		t.Fatalf("only %d budgets spent, %d in the second pass: the test checks too little", spent, firstOnly)
	}
}

// TestCorridorAllocs checks that a warm corridor query allocates nothing,
// with or without shortcuts, the corridor included.
func TestCorridorAllocs(t *testing.T) {
	g := testmap.Random(3, 60, 40, 0.2, grid.Options{})
	s := navmesh.NewSearcher(mustMesh(t, g))
	pairs := testmap.RandomPairs(testmap.NewRand(3), g, 20)
	path := make([]mgl64.Vec2, 0, 256)
	polys := make([]navmesh.PolyID, 0, 1024)
	run := func(q navmesh.Query) {
		for _, p := range pairs {
			path, _, _ = s.AppendPath(path[:0], centre(p[0]), centre(p[1]), q)
			polys = s.AppendCorridor(polys[:0])
		}
	}
	for _, q := range []navmesh.Query{corridorQ, shortcutQ} {
		run(q) // grow the scratch
		if n := testing.AllocsPerRun(20, func() { run(q) }); n != 0 {
			t.Errorf("%+v: %v allocations per run of %d queries, want 0", q, n, len(pairs))
		}
	}
}

// TestCorridorPolygons compares the corridor search with the exact one on
// meshes built from the hand-made and random polygons of poly_test.go,
// checking paths against the walkable region itself.
func TestCorridorPolygons(t *testing.T) {
	type polyInput struct {
		name string
		mp   orb.MultiPolygon
	}
	var inputs []polyInput
	for _, h := range handPolygons() {
		inputs = append(inputs, polyInput{h.name, h.mp})
	}
	for seed := int64(1); seed <= 20; seed++ {
		inputs = append(inputs, polyInput{fmt.Sprintf("random polygon seed %d", seed), orb.MultiPolygon{randomPolygon(testmap.NewRand(seed))}})
	}
	var all excess
	for i, in := range inputs {
		pc := newPolyCase(t, in.name, in.mp)
		s := navmesh.NewSearcher(pc.m)
		seed := int64(200 + i)
		pts := pc.points(testmap.NewRand(seed), 120)
		for k := 0; k < len(pts); k += 2 {
			from, to := pts[k], pts[k+1]
			where := fmt.Sprintf("%s, points seed %d, %v→%v", in.name, seed, from, to)
			_, want, err := s.AppendPath(nil, from, to, navmesh.Query{})
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			path, res, err := s.AppendPath(nil, from, to, corridorQ)
			if err != nil || res.Status != want.Status {
				t.Fatalf("%s: %v, %v; the exact search %v", where, res.Status, err, want.Status)
			}
			if res.Status != core.Found {
				continue
			}
			length, err := pc.r.checkPath(path, from, to)
			if err == nil && length < want.Length*(1-1e-9) {
				err = fmt.Errorf("%v long, shorter than the exact search's %v", length, want.Length)
			}
			if err == nil {
				err = checkCorridor(pc.m, s.AppendCorridor(nil), path, from, to, false)
			}
			if err != nil {
				t.Fatalf("%s: path %v: %v", where, path, err)
			}
			all.add(length, want.Length, where)
		}
	}
	t.Logf("%v", &all)
	if all.n < 500 || all.mean() > 0.10 {
		t.Fatalf("%v: want 500 paths or more, and a mean excess of at most 10 %%", &all)
	}
}
