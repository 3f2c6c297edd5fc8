package navmesh_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// This file checks sliced queries (BeginSliced, Step, AppendSlicedPath):
// run a few expansions at a time, they give AppendPath's answer bit for
// bit, with no step expanding more than it was allowed.

var (
	slicedSteps   = []int{1, 7, 1000}
	slicedQueries = []navmesh.Query{{}, corridorQ, shortcutQ}
)

// runSliced runs a sliced query from from to to, n expansions a step, and
// returns its path, its result and the steps it took; it checks that each
// step is in progress until the last and expands at most n more nodes
// (fewer when the exact search outgrows its room and begins again), and
// that Step after the end returns the same result.
func runSliced(s *navmesh.Searcher, dst []mgl64.Vec2, from, to mgl64.Vec2, q navmesh.Query, n int) ([]mgl64.Vec2, navmesh.Result, int, error) {
	if err := s.BeginSliced(from, to, q); err != nil {
		return dst, navmesh.Result{}, 0, err
	}
	prev := 0
	for steps := 1; ; steps++ {
		res, err := s.Step(n)
		if err != nil {
			return dst, res, steps, fmt.Errorf("step %d: %v", steps, err)
		}
		if res.Expanded > prev+max(n, 1) {
			return dst, res, steps, fmt.Errorf("step %d of %d expansions: %d expanded after %d", steps, n, res.Expanded, prev)
		}
		prev = res.Expanded
		if res.Status == core.InProgress {
			if got, gres := s.AppendSlicedPath(dst); len(got) != len(dst) || gres != res {
				return dst, res, steps, fmt.Errorf("step %d: AppendSlicedPath in progress appended %v, %+v", steps, got[len(dst):], gres)
			}
			if steps > 1e7 {
				return dst, res, steps, fmt.Errorf("no end after %d steps", steps)
			}
			continue
		}
		if again, _ := s.Step(n); again != res {
			return dst, res, steps, fmt.Errorf("Step after the end gave %+v, then %+v", res, again)
		}
		path, pres := s.AppendSlicedPath(dst)
		if pres != res {
			return path, pres, steps, fmt.Errorf("Step ended with %+v, AppendSlicedPath gives %+v", res, pres)
		}
		return path, res, steps, nil
	}
}

// compareSliced checks sliced runs of a query on s, with each of
// slicedSteps, against AppendPath on s: the same error, or the same path,
// result and (for a corridor query) corridor.
func compareSliced(s *navmesh.Searcher, from, to mgl64.Vec2, q navmesh.Query) (navmesh.Result, error) {
	want, wantRes, wantErr := s.AppendPath(nil, from, to, q)
	wantPolys := s.AppendCorridor(nil)
	for _, n := range slicedSteps {
		got, res, steps, err := runSliced(s, nil, from, to, q, n)
		if wantErr != nil || err != nil {
			if wantErr == nil || err == nil || err.Error() != wantErr.Error() {
				return wantRes, fmt.Errorf("Step(%d): error %v, AppendPath's %v", n, err, wantErr)
			}
			continue
		}
		if res != wantRes || !slices.Equal(got, want) {
			return wantRes, fmt.Errorf("Step(%d), %d steps: %v %+v\nAppendPath: %v %+v", n, steps, got, res, want, wantRes)
		}
		if q.Corridor {
			if polys := s.AppendCorridor(nil); !slices.Equal(polys, wantPolys) {
				return wantRes, fmt.Errorf("Step(%d): corridor %v, AppendPath's %v", n, polys, wantPolys)
			}
		}
		if wantRes.Expanded > 0 && n == 1 && steps < wantRes.Expanded {
			return wantRes, fmt.Errorf("Step(1): %d steps for %d expansions", steps, wantRes.Expanded)
		}
	}
	return wantRes, nil
}

// tally counts the outcomes of the queries a test compared, to show it
// checked searches that expand, end in every way, and run over budget.
type tally map[core.Status]int

func (t tally) add(r navmesh.Result) {
	t[r.Status]++
	if r.Expanded > 0 {
		t[core.InProgress]++ // here: searched
	}
}

// TestSlicedRandomGrids compares sliced queries with AppendPath on the
// convex meshes and meshes of rectangles of seeded random grids and mazes,
// between cell centres and points on polygon sides and corners.
func TestSlicedRandomGrids(t *testing.T) {
	type gridCase struct {
		name string
		g    *grid.Grid
	}
	var gs []gridCase
	for seed := int64(1); seed <= 3; seed++ {
		for _, d := range []float64{0.1, 0.25} {
			gs = append(gs, gridCase{fmt.Sprintf("random seed %d density %v", seed, d), testmap.Random(seed, 40, 30, d, grid.Options{})})
		}
		gs = append(gs, gridCase{fmt.Sprintf("maze seed %d", seed), testmap.Maze(seed, 7, 5, 1+int(seed%2), int(seed))})
	}
	seen := tally{}
	for gi, gc := range gs {
		for _, kind := range []string{"convex", "rectangles"} {
			m := mustMesh(t, gc.g)
			if kind == "rectangles" {
				m = rectMesh(t, gc.g)
			}
			s := navmesh.NewSearcher(m)
			seed := int64(300 + gi)
			r := testmap.NewRand(seed)
			for i := range 20 {
				from, to := endPair(gc.g, m, r)
				for _, q := range slicedQueries {
					res, err := compareSliced(s, from, to, q)
					if err != nil {
						t.Fatalf("%s mesh of %s, rand seed %d, query %d %v→%v, %+v: %v\n%s", kind, gc.name, seed, i, from, to, q, err, testmap.Render(gc.g, nil))
					}
					seen.add(res)
				}
			}
		}
	}
	t.Logf("outcomes (in progress: searched): %v", seen)
	if seen[core.InProgress] < 500 || seen[core.Unreachable] == 0 {
		t.Fatalf("outcomes %v: the test checks too little", seen)
	}
}

// TestSlicedPolygons compares sliced queries with AppendPath on meshes of
// the hand-made and a few random polygons with holes.
func TestSlicedPolygons(t *testing.T) {
	type polyInput struct {
		name string
		mp   orb.MultiPolygon
	}
	var inputs []polyInput
	for _, h := range handPolygons() {
		inputs = append(inputs, polyInput{h.name, h.mp})
	}
	for seed := int64(1); seed <= 5; seed++ {
		inputs = append(inputs, polyInput{fmt.Sprintf("random polygon seed %d", seed), orb.MultiPolygon{randomPolygon(testmap.NewRand(seed))}})
	}
	seen := tally{}
	for i, in := range inputs {
		pc := newPolyCase(t, in.name, in.mp)
		s := navmesh.NewSearcher(pc.m)
		seed := int64(400 + i)
		pts := pc.points(testmap.NewRand(seed), 60)
		for k := 0; k < len(pts); k += 2 {
			for _, q := range slicedQueries {
				res, err := compareSliced(s, pts[k], pts[k+1], q)
				if err != nil {
					t.Fatalf("%s, points seed %d, %v→%v, %+v: %v", in.name, seed, pts[k], pts[k+1], q, err)
				}
				seen.add(res)
			}
		}
	}
	t.Logf("outcomes (in progress: searched): %v", seen)
	if seen[core.InProgress] < 300 || seen[core.Unreachable] == 0 {
		t.Fatalf("outcomes %v: the test checks too little", seen)
	}
}

// TestSlicedMovingAI compares sliced queries with AppendPath on every
// 25th scenario of den520d, when the benchmarks are present.
func TestSlicedMovingAI(t *testing.T) {
	g, scens := testmap.MovingAI(t, "den520d.map")
	s := navmesh.NewSearcher(mustMesh(t, g))
	for i := 0; i < len(scens); i += 25 {
		from, to := centre(scens[i].Start), centre(scens[i].Goal)
		for _, q := range slicedQueries {
			if _, err := compareSliced(s, from, to, q); err != nil {
				t.Fatalf("scenario %d %v→%v, %+v: %v", i, from, to, q, err)
			}
		}
	}
}

// TestSlicedBudget checks that sliced queries with budgets of expansions
// give AppendPath's answers, partial paths included.
func TestSlicedBudget(t *testing.T) {
	spent := 0
	for seed := int64(1); seed <= 3; seed++ {
		g := testmap.Random(seed, 40, 30, 0.2, grid.Options{})
		s := navmesh.NewSearcher(mustMesh(t, g))
		for i, p := range testmap.RandomPairs(testmap.NewRand(seed), g, 30) {
			from, to := centre(p[0]), centre(p[1])
			for _, corridor := range []bool{false, true} {
				for _, b := range budgets {
					q := navmesh.Query{MaxExpansions: b, Corridor: corridor}
					res, err := compareSliced(s, from, to, q)
					if err != nil {
						t.Fatalf("seed %d query %d %v→%v, %+v: %v", seed, i, from, to, q, err)
					}
					if res.Status == core.BudgetSpent {
						spent++
					}
				}
			}
		}
	}
	if spent < 100 {
		t.Fatalf("only %d budgets spent: the test checks too little", spent)
	}
}

// TestSlicedGrows checks sliced queries on a Searcher with room for only a
// few search nodes: the room grows as the search makes nodes, the search
// never begins again (its expansions only rise, step by step), and the
// answer is still AppendPath's.
func TestSlicedGrows(t *testing.T) {
	g := testmap.Random(5, 40, 30, 0.2, grid.Options{})
	m := mustMesh(t, g)
	ref := navmesh.NewSearcher(m)
	grew := 0
	for i, p := range testmap.RandomPairs(testmap.NewRand(5), g, 20) {
		from, to := centre(p[0]), centre(p[1])
		want, wantRes, err := ref.AppendPath(nil, from, to, navmesh.Query{})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 7} {
			s := navmesh.NewSearcher(m)
			navmesh.SetNodeRoom(s, 8)
			if err := s.BeginSliced(from, to, navmesh.Query{}); err != nil {
				t.Fatal(err)
			}
			prev := 0
			var res navmesh.Result
			for res.Status = core.InProgress; res.Status == core.InProgress; {
				if res, err = s.Step(n); err != nil {
					t.Fatal(err)
				}
				if res.Expanded < prev {
					t.Fatalf("query %d %v→%v, Step(%d): expansions fell from %d to %d: the search began again", i, from, to, n, prev, res.Expanded)
				}
				prev = res.Expanded
			}
			got, res := s.AppendSlicedPath(nil)
			if res != wantRes || !slices.Equal(got, want) {
				t.Fatalf("query %d %v→%v, Step(%d): %v %+v\nAppendPath: %v %+v", i, from, to, n, got, res, want, wantRes)
			}
			if navmesh.NodeRoom(s) > 8 {
				grew++
			}
		}
	}
	if grew == 0 {
		t.Fatal("no query outgrew room for 8 nodes")
	}
}

// TestSlicedSettled checks the queries BeginSliced answers without a
// search, and a Searcher without a sliced query.
func TestSlicedSettled(t *testing.T) {
	// Two rooms, no door between them:
	//
	//	    0 1 2 3 4
	//	  0 . . # . .
	//	  1 . . # . .
	g, err := grid.FromRows([]string{"..#..", "..#.."}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := mustMesh(t, g)
	s := navmesh.NewSearcher(m)
	if res, err := s.Step(1); res != (navmesh.Result{}) || err != nil {
		t.Fatalf("Step before any query: %+v, %v; want the zero Result", res, err)
	}
	if path, res := s.AppendSlicedPath(nil); len(path) != 0 || res != (navmesh.Result{}) {
		t.Fatalf("AppendSlicedPath before any query: %v, %+v", path, res)
	}
	a, b, c := mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{1.5, 1.25}, mgl64.Vec2{3.5, 0.5}
	for _, tc := range []struct {
		name     string
		from, to mgl64.Vec2
		q        navmesh.Query
		want     navmesh.Result
		path     []mgl64.Vec2
		corridor int
	}{
		{"one polygon", a, b, navmesh.Query{}, navmesh.Result{Status: core.Found, Length: b.Sub(a).Len(), End: b}, []mgl64.Vec2{a, b}, 0},
		{"one polygon, corridor", a, b, corridorQ, navmesh.Result{Status: core.Found, Length: b.Sub(a).Len(), End: b}, []mgl64.Vec2{a, b}, 1},
		{"one point", a, a, navmesh.Query{MaxExpansions: 1}, navmesh.Result{Status: core.Found, End: a}, []mgl64.Vec2{a}, 0},
		{"other room", a, c, navmesh.Query{}, navmesh.Result{Status: core.Unreachable, End: a}, nil, 0},
		{"other room, corridor", a, c, corridorQ, navmesh.Result{Status: core.Unreachable, End: a}, nil, 0},
	} {
		if err := s.BeginSliced(tc.from, tc.to, tc.q); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		res, err := s.Step(1)
		path, pres := s.AppendSlicedPath(nil)
		if res != tc.want || err != nil || pres != tc.want || !slices.Equal(path, tc.path) {
			t.Fatalf("%s: Step %+v, %v; AppendSlicedPath %v, %+v\nwant %v, %+v", tc.name, res, err, path, pres, tc.path, tc.want)
		}
		if n := len(s.AppendCorridor(nil)); tc.q.Corridor && n != tc.corridor {
			t.Fatalf("%s: corridor of %d polygons, want %d", tc.name, n, tc.corridor)
		}
	}
}

// TestSlicedErrors checks that ends off the mesh are BeginSliced's errors,
// AppendPath's, and leave no query behind.
func TestSlicedErrors(t *testing.T) {
	g := testmap.Random(2, 20, 15, 0.2, grid.Options{})
	m := mustMesh(t, g)
	s := navmesh.NewSearcher(m)
	on := centre(testmap.RandomPairs(testmap.NewRand(2), g, 1)[0][0])
	for _, q := range []navmesh.Query{{}, corridorQ} {
		for _, ends := range [][2]mgl64.Vec2{{{-1, 3}, on}, {on, {25, 3}}} {
			_, _, want := s.AppendPath(nil, ends[0], ends[1], q)
			if err := s.BeginSliced(on, on, q); err != nil {
				t.Fatal(err)
			}
			err := s.BeginSliced(ends[0], ends[1], q)
			if err == nil || want == nil || err.Error() != want.Error() {
				t.Fatalf("%v→%v, %+v: BeginSliced %v, AppendPath %v", ends[0], ends[1], q, err, want)
			}
			res, serr := s.Step(5)
			path, pres := s.AppendSlicedPath(nil)
			if res != (navmesh.Result{}) || serr != nil || len(path) != 0 || pres != (navmesh.Result{}) {
				t.Fatalf("%v→%v, %+v: after the error, Step %+v, %v; AppendSlicedPath %v, %+v", ends[0], ends[1], q, res, serr, path, pres)
			}
		}
	}
}

// slicedPair returns the ends of a query on a random grid that takes many
// expansions, for the tests of dropped queries.
func slicedPair(t *testing.T, s *navmesh.Searcher, g *grid.Grid, r *rand.Rand, q navmesh.Query) (mgl64.Vec2, mgl64.Vec2) {
	t.Helper()
	for range 1000 {
		p := testmap.RandomPairs(r, g, 1)[0]
		from, to := centre(p[0]), centre(p[1])
		if _, res, err := s.AppendPath(nil, from, to, q); err == nil && res.Status == core.Found && res.Expanded >= 20 {
			return from, to
		}
	}
	t.Fatal("no query of 20 expansions or more")
	return mgl64.Vec2{}, mgl64.Vec2{}
}

// TestSlicedDropped checks that a BeginSliced replaces an unfinished query,
// and that AppendPath drops one, unfinished or ended.
func TestSlicedDropped(t *testing.T) {
	g := testmap.Random(4, 40, 30, 0.15, grid.Options{})
	m := mustMesh(t, g)
	s, ref := navmesh.NewSearcher(m), navmesh.NewSearcher(m)
	r := testmap.NewRand(4)
	for _, q := range []navmesh.Query{{}, corridorQ} {
		for i := range 10 {
			a0, a1 := slicedPair(t, ref, g, r, q)
			b0, b1 := slicedPair(t, ref, g, r, q)
			want, wantRes, _ := ref.AppendPath(nil, b0, b1, q)
			wantPolys := ref.AppendCorridor(nil)
			where := fmt.Sprintf("%+v, pair %d: %v→%v, then %v→%v", q, i, a0, a1, b0, b1)

			// Replaced: A half done, then B.
			if err := s.BeginSliced(a0, a1, q); err != nil {
				t.Fatal(err)
			}
			if res, _ := s.Step(5); res.Status != core.InProgress {
				t.Fatalf("%s: after 5 expansions %+v", where, res)
			}
			got, res, _, err := runSliced(s, nil, b0, b1, q, 3)
			if err != nil || res != wantRes || !slices.Equal(got, want) || q.Corridor && !slices.Equal(s.AppendCorridor(nil), wantPolys) {
				t.Fatalf("%s: B after A unfinished: %v %+v %v\nwant %v %+v", where, got, res, err, want, wantRes)
			}

			// Dropped by AppendPath, unfinished and ended.
			for _, steps := range []int{5, 1 << 20} {
				if err := s.BeginSliced(a0, a1, q); err != nil {
					t.Fatal(err)
				}
				s.Step(steps)
				got, res, err := s.AppendPath(nil, b0, b1, q)
				if err != nil || res != wantRes || !slices.Equal(got, want) {
					t.Fatalf("%s: AppendPath after Step(%d) of A: %v %+v %v\nwant %v %+v", where, steps, got, res, err, want, wantRes)
				}
				sres, _ := s.Step(5)
				path, pres := s.AppendSlicedPath(nil)
				if sres != (navmesh.Result{}) || len(path) != 0 || pres != (navmesh.Result{}) {
					t.Fatalf("%s: after AppendPath dropped A, Step %+v; AppendSlicedPath %v, %+v", where, sres, path, pres)
				}
			}
		}
	}
}

// TestSlicedAllocs checks that a warm sliced query, begun, stepped to its
// end and its path appended to a slice with room, allocates nothing, exact
// or corridor, with or without a budget.
func TestSlicedAllocs(t *testing.T) {
	g := testmap.Random(3, 60, 40, 0.2, grid.Options{})
	s := navmesh.NewSearcher(mustMesh(t, g))
	pairs := testmap.RandomPairs(testmap.NewRand(3), g, 20)
	path := make([]mgl64.Vec2, 0, 256)
	polys := make([]navmesh.PolyID, 0, 1024)
	run := func(q navmesh.Query) {
		for _, p := range pairs {
			if err := s.BeginSliced(centre(p[0]), centre(p[1]), q); err != nil {
				panic(err)
			}
			for {
				if res, _ := s.Step(7); res.Status != core.InProgress {
					break
				}
			}
			path, _ = s.AppendSlicedPath(path[:0])
			polys = s.AppendCorridor(polys[:0])
		}
	}
	for _, q := range []navmesh.Query{{}, {MaxExpansions: 20}, corridorQ, shortcutQ, {Corridor: true, MaxExpansions: 20}} {
		run(q) // grow the scratch
		if n := testing.AllocsPerRun(20, func() { run(q) }); n != 0 {
			t.Errorf("%+v: %v allocations per run of %d sliced queries, want 0", q, n, len(pairs))
		}
	}
}

// BenchmarkSliced runs den520d's 10 longest scenarios, exact and corridor,
// sliced at 1 and 64 expansions a step, beside AppendPath as the baseline:
// the cost of slicing is one call per step.
func BenchmarkSliced(b *testing.B) {
	g, scens := testmap.MovingAI(b, "den520d.map")
	scens = slices.Clone(scens)
	slices.SortStableFunc(scens, func(x, y grid.Scenario) int { return cmp.Compare(y.Optimal, x.Optimal) })
	scens = scens[:10]
	m := mustMesh(b, g)
	for _, q := range []navmesh.Query{{}, corridorQ} {
		kind := "exact"
		if q.Corridor {
			kind = "corridor"
		}
		for _, n := range []int{0, 1, 64} {
			name := fmt.Sprintf("%s/Step-%d", kind, n)
			if n == 0 {
				name = kind + "/AppendPath"
			}
			b.Run(name, func(b *testing.B) {
				s := navmesh.NewSearcher(m)
				path := make([]mgl64.Vec2, 0, 256)
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					sc := scens[i%len(scens)]
					i++
					var res navmesh.Result
					if n == 0 {
						path, res, _ = s.AppendPath(path[:0], centre(sc.Start), centre(sc.Goal), q)
					} else {
						_ = s.BeginSliced(centre(sc.Start), centre(sc.Goal), q)
						for res.Status = core.InProgress; res.Status == core.InProgress; {
							res, _ = s.Step(n)
						}
						path, res = s.AppendSlicedPath(path[:0])
					}
					if res.Status != core.Found || len(path) < 2 {
						b.Fatalf("%v→%v: %+v", sc.Start, sc.Goal, res)
					}
				}
			})
		}
	}
}
