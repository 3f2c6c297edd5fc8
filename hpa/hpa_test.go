package hpa_test

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// subopt accumulates the relative excess cost of paths over the optimum.
type subopt struct {
	n, longer  int
	sum, worst float64
}

func (s *subopt) add(cost, opt float64) {
	if opt <= 0 {
		return
	}
	e := max(0, cost/opt-1)
	s.n++
	s.sum += e
	s.worst = max(s.worst, e)
	if e > 1e-9 {
		s.longer++
	}
}

func (s *subopt) mean() float64 {
	if s.n == 0 {
		return 0
	}
	return s.sum / float64(s.n)
}

func (s *subopt) String() string {
	return fmt.Sprintf("%d paths, %d longer than optimal, mean +%.2f%%, max +%.2f%%", s.n, s.longer, 100*s.mean(), 100*s.worst)
}

// check runs one query through q and the exact grid searcher and compares
// them. It returns the HPA* and optimal costs, and whether a path exists.
func check(t *testing.T, q *hpa.Searcher, s *grid.Searcher, from, to image.Point, what string) (float64, float64, bool) {
	t.Helper()
	g := s.Grid()
	want, wr, err := s.AppendPath(nil, from, to, grid.Query{})
	if err != nil {
		t.Fatalf("%s: grid %v→%v: %v", what, from, to, err)
	}
	path, r, err := q.AppendPath(nil, from, to, hpa.Query{})
	if err != nil {
		t.Fatalf("%s: %v→%v: %v", what, from, to, err)
	}
	if r.Status != wr.Status {
		t.Fatalf("%s: %v→%v: status %v, want %v", what, from, to, r.Status, wr.Status)
	}
	if r.Status != core.Found {
		if len(path) != 0 {
			t.Fatalf("%s: %v→%v: unreachable with %d cells appended", what, from, to, len(path))
		}
		return 0, 0, false
	}
	cost, err := testmap.CheckPath(g, path, from, to)
	if err != nil {
		t.Fatalf("%s: %v→%v: %v\ngot:\n%s\nwant:\n%s", what, from, to, err, testmap.Render(g, path), testmap.Render(g, want))
	}
	if cost != r.Cost {
		t.Fatalf("%s: %v→%v: result cost %v, path cost %v", what, from, to, r.Cost, cost)
	}
	if cost < wr.Cost-1e-9 {
		t.Fatalf("%s: %v→%v: cost %v below the optimum %v", what, from, to, cost, wr.Cost)
	}
	return cost, wr.Cost, true
}

func TestRandomMaps(t *testing.T) {
	const w, h, pairs = 97, 61, 250
	// Bounds on the mean excess cost of unsmoothed paths. Clusters of 8 on
	// these small maps cost about 5 %, as in Botea et al. (2004) before
	// smoothing; transitions placed without regard to terrain cost more.
	kinds := []struct {
		name  string
		build func(seed int64, density float64) *grid.Grid
		bound [2]float64 // for clusters of 8 and 16
	}{
		{"8-connected", func(seed int64, d float64) *grid.Grid {
			return testmap.Random(seed, w, h, d, grid.Options{})
		}, [2]float64{0.06, 0.05}},
		{"4-connected", func(seed int64, d float64) *grid.Grid {
			return testmap.Random(seed, w, h, d, grid.Options{Connectivity: grid.Four})
		}, [2]float64{0.05, 0.05}},
		{"terrain", func(seed int64, d float64) *grid.Grid {
			return testmap.RandomCosts(seed, w, h, d, 3, grid.Eight)
		}, [2]float64{0.12, 0.08}},
	}
	for _, k := range kinds {
		for ci, cs := range []int{8, 16} {
			t.Run(fmt.Sprintf("%s/cluster%d", k.name, cs), func(t *testing.T) {
				var st subopt
				unreachable := 0
				for _, density := range []float64{0, 0.1, 0.2, 0.3} {
					for seed := int64(1); seed <= 2; seed++ {
						g := k.build(seed, density)
						hg, err := hpa.Build(g, hpa.Options{ClusterSize: cs})
						if err != nil {
							t.Fatal(err)
						}
						q, s := hpa.NewSearcher(hg), grid.NewSearcher(g)
						what := fmt.Sprintf("seed %d density %v", seed, density)
						for _, p := range testmap.RandomPairs(testmap.NewRand(seed), g, pairs) {
							cost, opt, ok := check(t, q, s, p[0], p[1], what)
							if !ok {
								unreachable++
								continue
							}
							st.add(cost, opt)
						}
					}
				}
				t.Logf("%v; %d unreachable pairs", &st, unreachable)
				if bound := k.bound[ci]; st.mean() > bound {
					t.Errorf("mean suboptimality %.2f%%, want ≤ %g%%", 100*st.mean(), 100*bound)
				}
			})
		}
	}
}

// TestSmallMaps checks queries between every pair of free cells of small
// maps drawn by hand, where clusters of 4 cells make most queries abstract.
func TestSmallMaps(t *testing.T) {
	tests := []struct {
		name string
		rows []string
	}{
		{"open", []string{
			"................",
			"................",
			"................",
			"................",
			"................",
			"................",
			"................",
			"................",
			"................",
			"................",
			"..........",
		}},
		{"walls with gaps", []string{
			"...#.......#....",
			"...#.......#....",
			"...#..#....#....",
			"......#.........",
			"###.#####.#####.",
			"......#.........",
			"...#..#....#....",
			"...#..#....#....",
			"...#########....",
			"...........#....",
			"...#.......#....",
			"...#.......#....",
			"...#.......#####",
		}},
		{"pockets", []string{
			"....#.....#.....",
			".##.#.###.#.###.",
			".#..#...#...#...",
			".#.####.#####.##",
			".#......#.......",
			".######.#.#####.",
			"........#.....#.",
			"#######.#####.#.",
			"..............#.",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := len(tc.rows[0])
			free := make([]bool, w*len(tc.rows))
			for y, row := range tc.rows {
				for x := range w {
					free[y*w+x] = x < len(row) && row[x] != '#'
				}
			}
			for _, opt := range []grid.Options{{}, {Connectivity: grid.Four}} {
				g, err := grid.New(w, len(tc.rows), free, opt)
				if err != nil {
					t.Fatal(err)
				}
				hg, err := hpa.Build(g, hpa.Options{ClusterSize: 4, MaxEntrance: 2})
				if err != nil {
					t.Fatal(err)
				}
				q, s := hpa.NewSearcher(hg), grid.NewSearcher(g)
				cells := testmap.FreeCells(g)
				for _, a := range cells {
					for _, b := range cells {
						check(t, q, s, a, b, fmt.Sprint(opt.Connectivity))
					}
				}
			}
		})
	}
}

func TestMovingAI(t *testing.T) {
	for _, name := range []string{"den520d.map", "Berlin_0_1024.map"} {
		t.Run(name, func(t *testing.T) {
			g, scens := testmap.MovingAI(t, name)
			hg, err := hpa.Build(g, hpa.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%+v", hg.Stats())
			q := hpa.NewSearcher(hg)
			var st subopt
			var path []image.Point
			for i := 0; i < len(scens); i += 10 {
				sc := scens[i]
				var r hpa.Result
				path, r, err = q.AppendPath(path[:0], sc.Start, sc.Goal, hpa.Query{})
				if err != nil {
					t.Fatalf("scenario %d: %v", i, err)
				}
				if r.Status != core.Found {
					t.Fatalf("scenario %d: %v→%v: %v", i, sc.Start, sc.Goal, r.Status)
				}
				cost, err := testmap.CheckPath(g, path, sc.Start, sc.Goal)
				if err != nil {
					t.Fatalf("scenario %d: %v", i, err)
				}
				if cost != r.Cost {
					t.Fatalf("scenario %d: result cost %v, path cost %v", i, r.Cost, cost)
				}
				if cost < sc.Optimal && !sc.Matches(cost) {
					t.Fatalf("scenario %d: cost %v below the optimum %v", i, cost, sc.Optimal)
				}
				st.add(cost, sc.Optimal)
			}
			t.Logf("every 10th scenario: %v", &st)
			if st.mean() > 0.05 {
				t.Errorf("mean suboptimality %.2f%%, want ≤ 5%%", 100*st.mean())
			}
		})
	}
}

// TestConcurrent runs queries on one Graph from 4 goroutines and checks
// each gets what a lone query gets.
func TestConcurrent(t *testing.T) {
	g := testmap.Random(7, 200, 150, 0.2, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	pairs := testmap.RandomPairs(testmap.NewRand(7), g, 200)
	type answer struct {
		path []image.Point
		res  hpa.Result
	}
	want := make([]answer, len(pairs))
	q := hpa.NewSearcher(hg)
	for i, p := range pairs {
		path, r, err := q.AppendPath(nil, p[0], p[1], hpa.Query{})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = answer{path, r}
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for k := range errs {
		wg.Go(func() {
			q := hpa.NewSearcher(hg)
			var path []image.Point
			for n := range 3 * len(pairs) {
				i := (n*(k+1) + k) % len(pairs)
				var r hpa.Result
				var err error
				path, r, err = q.AppendPath(path[:0], pairs[i][0], pairs[i][1], hpa.Query{})
				if err == nil && (!hpa.SameAnswer(r, want[i].res) || !slices.Equal(path, want[i].path)) {
					err = fmt.Errorf("pair %d %v: got %+v, want %+v", i, pairs[i], r, want[i].res)
				}
				if err != nil {
					errs[k] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			t.Errorf("goroutine %d: %v", k, err)
		}
	}
}

func TestAllocs(t *testing.T) {
	g := testmap.Random(3, 300, 200, 0.2, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if allocs := warmAllocs(t, hpa.NewSearcher(hg), testmap.RandomPairs(testmap.NewRand(3), g, 100)); allocs != 0 {
		t.Errorf("a steady-state query allocates %v times, want 0", allocs)
	}
}

// warmAllocs runs the queries of pairs on q once to grow its scratch, then
// returns the allocations a query makes on average, the pairs in turn.
func warmAllocs(t *testing.T, q *hpa.Searcher, pairs [][2]image.Point) float64 {
	t.Helper()
	path := make([]image.Point, 0, 4096)
	for _, p := range pairs { // grow the scratch
		path, _, _ = q.AppendPath(path[:0], p[0], p[1], hpa.Query{})
	}
	i := 0
	return testing.AllocsPerRun(len(pairs), func() {
		p := pairs[i%len(pairs)]
		i++
		var err error
		if path, _, err = q.AppendPath(path[:0], p[0], p[1], hpa.Query{}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestErrors(t *testing.T) {
	g := testmap.Random(1, 40, 30, 0, grid.Options{})
	free := make([]bool, 40*30)
	for i := range free {
		free[i] = i != 5
	}
	walled, err := grid.New(40, 30, free, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		g    *grid.Grid
		opt  hpa.Options
		want string
	}{
		{"nil grid", nil, hpa.Options{}, "hpa: nil grid"},
		{"negative cluster size", g, hpa.Options{ClusterSize: -1}, "hpa: cluster size -1"},
		{"huge cluster size", g, hpa.Options{ClusterSize: hpa.MaxClusterSize + 1}, "hpa: cluster size"},
		{"negative entrance", g, hpa.Options{MaxEntrance: -2}, "hpa: max entrance -2"},
		{"level factor 1", g, hpa.Options{LevelFactor: 1}, "hpa: level factor 1, want 0 or 2 to 8"},
		{"level factor 9", g, hpa.Options{LevelFactor: hpa.MaxLevelFactor + 1}, "hpa: level factor 9, want 0 or 2 to 8"},
		{"negative levels", g, hpa.Options{Levels: -1}, "hpa: -1 levels, want 0 to 4"},
		{"levels 5", g, hpa.Options{Levels: hpa.MaxLevels + 1}, "hpa: 5 levels, want 0 to 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := hpa.Build(tc.g, tc.opt)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v, want one starting %q", err, tc.want)
			}
		})
	}
	hg, err := hpa.Build(walled, hpa.Options{ClusterSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	q := hpa.NewSearcher(hg)
	dst := []image.Point{{9, 9}}
	for _, tc := range []struct {
		name     string
		from, to image.Point
		want     string
	}{
		{"start outside", image.Pt(-1, 0), image.Pt(1, 1), "hpa: start (-1,0) is outside the 40×30 grid"},
		{"goal outside", image.Pt(1, 1), image.Pt(40, 0), "hpa: goal (40,0) is outside the 40×30 grid"},
		{"start blocked", image.Pt(5, 0), image.Pt(1, 1), "hpa: start (5,0) is a blocked cell"},
		{"goal blocked", image.Pt(30, 20), image.Pt(5, 0), "hpa: goal (5,0) is a blocked cell"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := q.AppendPath(dst, tc.from, tc.to, hpa.Query{})
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
			if !slices.Equal(got, dst) {
				t.Errorf("dst changed to %v", got)
			}
		})
	}
	path, r, err := q.AppendPath(dst, image.Pt(3, 3), image.Pt(3, 3), hpa.Query{})
	if err != nil || r.Status != core.Found || r.Cost != 0 || !slices.Equal(path, []image.Point{{9, 9}, {3, 3}}) {
		t.Errorf("from = to: got %v %+v %v", path, r, err)
	}
}

func TestUnreachable(t *testing.T) {
	// A wall across the map at x = 20 splits it in two.
	const w, h = 40, 30
	free := make([]bool, w*h)
	for i := range free {
		free[i] = i%w != 20
	}
	g, err := grid.New(w, h, free, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	path, r, err := hpa.NewSearcher(hg).AppendPath(nil, image.Pt(0, 0), image.Pt(39, 29), hpa.Query{})
	if err != nil || r.Status != core.Unreachable || len(path) != 0 || r.Expanded != 0 {
		t.Errorf("got %v %+v %v, want nothing, status unreachable", path, r, err)
	}
	if math.IsNaN(r.Cost) {
		t.Error("NaN cost")
	}
}

// TestClusterSizes checks degenerate cluster sizes and entrance lengths:
// clusters of one cell, clusters narrower than entrances, one cluster for
// the whole map. On this 31×23 map, clusters of 1, 3 or 5 with the level
// factor 2, and of 1 or 2 with 3, leave higher-level clusters at the map's
// edge that hold a single cluster of the level below, some with a single
// node.
func TestClusterSizes(t *testing.T) {
	for _, cs := range []int{1, 2, 3, 5, 64} {
		for _, me := range []int{1, 3} {
			for _, lf := range []int{2, 3, 4} {
				for _, opt := range []grid.Options{{}, {Connectivity: grid.Four}} {
					g := testmap.Random(int64(cs), 31, 23, 0.25, opt)
					hg, err := hpa.Build(g, hpa.Options{ClusterSize: cs, MaxEntrance: me, LevelFactor: lf})
					if err != nil {
						t.Fatal(err)
					}
					q, s := hpa.NewSearcher(hg), grid.NewSearcher(g)
					what := fmt.Sprintf("cluster %d, max entrance %d, level factor %d, %d levels, %v", cs, me, lf, hg.Levels(), opt.Connectivity)
					for _, p := range testmap.RandomPairs(testmap.NewRand(5), g, 300) {
						check(t, q, s, p[0], p[1], what)
					}
				}
			}
		}
	}
}

// TestLevels checks multi-level graphs against the exact grid search on
// random maps, with clusters of 4 cells so that levels 2 and 3 (clusters of
// 16 and 64 cells) have work to do; with level factors 2 and 3 too (up to
// four levels), where each level's clusters must be f times the side of
// the level below.
func TestLevels(t *testing.T) {
	const w, h, pairs = 97, 61, 200
	type shape struct{ levels, factor int }
	var shapes []shape
	for levels := 1; levels <= 3; levels++ {
		shapes = append(shapes, shape{levels, 0})
	}
	shapes = append(shapes, shape{3, 2}, shape{4, 2}, shape{4, 3})
	for _, conn := range []grid.Connectivity{grid.Eight, grid.Four} {
		for _, sh := range shapes {
			levels := sh.levels
			t.Run(fmt.Sprintf("%v/levels%d/factor%d", conn, levels, sh.factor), func(t *testing.T) {
				var st subopt
				for _, density := range []float64{0, 0.1, 0.2, 0.3} {
					for seed := int64(1); seed <= 2; seed++ {
						g := testmap.Random(seed, w, h, density, grid.Options{Connectivity: conn})
						hg, err := hpa.Build(g, hpa.Options{ClusterSize: 4, Levels: levels, LevelFactor: sh.factor})
						if err != nil {
							t.Fatal(err)
						}
						if hg.Levels() != levels {
							t.Fatalf("Levels() = %d, want %d", hg.Levels(), levels)
						}
						f, _ := hpa.ChooseLevels(w, h, 4, levels, sh.factor)
						if hg.LevelFactor() != f || hg.Options().LevelFactor != f {
							t.Fatalf("LevelFactor() = %d, Options().LevelFactor = %d, want %d", hg.LevelFactor(), hg.Options().LevelFactor, f)
						}
						for l, side := 2, 4*f; l <= levels; l, side = l+1, side*f {
							want := ((w + side - 1) / side) * ((h + side - 1) / side)
							if c, _, _ := hg.LevelStats(l); c != want {
								t.Fatalf("level %d has %d clusters, want %d of side %d", l, c, want, side)
							}
						}
						q, s := hpa.NewSearcher(hg), grid.NewSearcher(g)
						what := fmt.Sprintf("seed %d density %v levels %d", seed, density, levels)
						for _, p := range testmap.RandomPairs(testmap.NewRand(seed), g, pairs) {
							if cost, opt, ok := check(t, q, s, p[0], p[1], what); ok {
								st.add(cost, opt)
							}
						}
					}
				}
				t.Logf("%v", &st)
				if st.mean() > 0.10 {
					t.Errorf("mean suboptimality %.2f%%, want ≤ 10%%", 100*st.mean())
				}
			})
		}
	}
}

// TestUpdate edits random rectangles of random maps and checks that the
// updated graph answers every query exactly as a graph built afresh.
func TestUpdate(t *testing.T) {
	const w, h = 90, 70
	for seed := int64(1); seed <= 10; seed++ {
		for _, levels := range []int{1, 2, 3} {
			g := testmap.Random(seed, w, h, 0.2, grid.Options{})
			opt := hpa.Options{ClusterSize: 4 + 4*(levels%2), Levels: levels}
			hg, err := hpa.Build(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			r := testmap.NewRand(seed)
			for edit := range 3 {
				x, y := r.IntN(w), r.IntN(h)
				rect := image.Rect(x, y, x+1+r.IntN(12), y+1+r.IntN(12))
				free := edit%2 == 1
				g = g.WithCells(rect, free)
				up, err := hg.Update(g, rect)
				if err != nil {
					t.Fatal(err)
				}
				fresh, err := hpa.Build(g, opt)
				if err != nil {
					t.Fatal(err)
				}
				if up.Stats() != fresh.Stats() {
					t.Fatalf("seed %d levels %d edit %d (%v free=%v): stats %+v, fresh build %+v", seed, levels, edit, rect, free, up.Stats(), fresh.Stats())
				}
				sameAnswers(t, up, fresh, testmap.RandomPairs(r, g, 80), fmt.Sprintf("seed %d levels %d edit %d (%v free=%v)", seed, levels, edit, rect, free))
				hg = up
			}
		}
	}
	g := testmap.Random(1, 20, 20, 0, grid.Options{})
	hg, _ := hpa.Build(g, hpa.Options{ClusterSize: 5})
	if _, err := hg.Update(testmap.Random(1, 21, 20, 0, grid.Options{}), image.Rect(0, 0, 1, 1)); err == nil {
		t.Error("Update accepted a grid of another size")
	}
}

// TestUpdateInPlace edits the grid in place with SetCells, sometimes twice
// before one Update of the union of the rectangles: the stale graph refuses
// queries, and the updated one answers as a fresh build.
func TestUpdateInPlace(t *testing.T) {
	const w, h = 90, 70
	stale := 0
	for seed := int64(1); seed <= 6; seed++ {
		for _, levels := range []int{1, 2} {
			g := testmap.Random(seed, w, h, 0.2, grid.Options{})
			opt := hpa.Options{ClusterSize: 8, Levels: levels}
			hg, err := hpa.Build(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			r := testmap.NewRand(seed)
			for edit := range 4 {
				var changed image.Rectangle
				before := g.Version()
				for k := range 1 + edit%2 {
					x, y := r.IntN(w), r.IntN(h)
					rect := image.Rect(x, y, x+1+r.IntN(12), y+1+r.IntN(12))
					g.SetCells(rect, (edit+k)%2 == 1)
					changed = changed.Union(rect)
				}
				what := fmt.Sprintf("seed %d levels %d edit %d (%v)", seed, levels, edit, changed)
				p := testmap.FreeCells(g)
				_, _, err := hpa.NewSearcher(hg).AppendPath(nil, p[0], p[len(p)-1], hpa.Query{})
				if edited := g.Version() != before; edited != errors.Is(err, hpa.ErrStale) {
					t.Fatalf("%s: grid edited %v; query on the graph before the edit: %v", what, edited, err)
				}
				stale += int(g.Version() - before)
				up, err := hg.Update(g, changed)
				if err != nil {
					t.Fatal(err)
				}
				fresh, err := hpa.Build(g, opt)
				if err != nil {
					t.Fatal(err)
				}
				if up.Stats() != fresh.Stats() {
					t.Fatalf("%s: stats %+v, fresh build %+v", what, up.Stats(), fresh.Stats())
				}
				sameAnswers(t, up, fresh, testmap.RandomPairs(r, g, 80), what)
				hg = up
			}
		}
	}
	if stale == 0 {
		t.Error("no edit changed a cell: the test checked nothing")
	}
}

// sameAnswers fails the test unless up, an updated graph, answers every
// pair as fresh, a graph built afresh, does.
func sameAnswers(t *testing.T, up, fresh *hpa.Graph, pairs [][2]image.Point, what string) {
	t.Helper()
	qu, qf := hpa.NewSearcher(up), hpa.NewSearcher(fresh)
	for _, p := range pairs {
		pu, ru, eu := qu.AppendPath(nil, p[0], p[1], hpa.Query{})
		pf, rf, ef := qf.AppendPath(nil, p[0], p[1], hpa.Query{})
		if (eu == nil) != (ef == nil) || !hpa.SameAnswer(ru, rf) || !slices.Equal(pu, pf) {
			t.Fatalf("%s: %v→%v after Update: %+v %v, fresh build: %+v %v", what, p[0], p[1], ru, eu, rf, ef)
		}
	}
}

// TestUpdateHugeRectangle passes Update rectangles far beyond the map.
// Growing them by a cell once overflowed to an empty rectangle, so every
// cluster was reused and queries through the edit went wrong.
func TestUpdateHugeRectangle(t *testing.T) {
	const w, h = 60, 50
	for i, changed := range []image.Rectangle{
		image.Rect(0, 0, math.MaxInt, math.MaxInt),
		image.Rect(math.MinInt, math.MinInt, math.MaxInt, math.MaxInt),
		image.Rect(-1<<62, -1<<62, 1<<62, 1<<62),
		image.Rect(math.MinInt, 0, math.MaxInt, 25),
	} {
		g := testmap.Random(int64(i+1), w, h, 0.15, grid.Options{})
		opt := hpa.Options{ClusterSize: 8, Levels: 2}
		hg, err := hpa.Build(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		// Walls and openings inside clusters, away from their borders.
		g = g.WithCells(image.Rect(10, 2, 13, 22), false).WithCells(image.Rect(26, 1, 31, 6), true).WithCells(image.Rect(41, 9, 46, 12), false)
		up, err := hg.Update(g, changed)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := hpa.Build(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		sameAnswers(t, up, fresh, testmap.RandomPairs(testmap.NewRand(int64(i)), g, 300), fmt.Sprintf("Update(%v)", changed))
	}
}

func TestAppendAbstract(t *testing.T) {
	g := testmap.Random(3, 97, 61, 0.1, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8, Levels: 2})
	if err != nil {
		t.Fatal(err)
	}
	q := hpa.NewSearcher(hg)
	from, to := image.Pt(0, 0), image.Pt(96, 60)
	for !g.Passable(from) {
		from.X++
	}
	for !g.Passable(to) {
		to.X--
	}
	if _, r, err := q.AppendPath(nil, from, to, hpa.Query{}); err != nil || r.Status != core.Found {
		t.Fatal(err, r.Status)
	}
	abs, level := q.AppendAbstract(nil)
	if level != 2 || len(abs) < 3 || abs[0] != from || abs[len(abs)-1] != to {
		t.Fatalf("abstract path %v at level %d, want one from %v to %v at level 2", abs, level, from, to)
	}
	for i, p := range abs[1 : len(abs)-1] {
		n := hpa.NodeID(-1)
		for k := range hpa.NodeID(hg.Stats().Nodes) {
			if hg.NodeCell(k) == p {
				n = k
			}
		}
		// Within the level-2 cluster (32 cells a side) of an end the
		// search follows level-1 edges; elsewhere level 2's.
		want := 2
		if sameCluster := func(a image.Point) bool { return a.X/32 == p.X/32 && a.Y/32 == p.Y/32 }; sameCluster(from) || sameCluster(to) {
			want = 1
		}
		if n < 0 || hg.NodeLevel(n) < want {
			t.Fatalf("abstract cell %d %v is not a level-%d node", i+1, p, want)
		}
	}
	if _, r, _ := q.AppendPath(nil, from, from.Add(image.Pt(1, 0)), hpa.Query{}); r.Status == core.Found {
		if _, level := q.AppendAbstract(nil); level != 0 {
			t.Fatalf("a window query reports abstract level %d, want 0", level)
		}
	}
}

func TestAppendAbstractAfterNoSearch(t *testing.T) {
	g := testmap.Random(3, 97, 61, 0.1, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	q := hpa.NewSearcher(hg)
	free := testmap.FreeCells(g)
	from, to := free[0], free[len(free)-1]
	if _, r, err := q.AppendPath(nil, from, to, hpa.Query{}); err != nil || r.Status != core.Found {
		t.Fatal(err, r.Status)
	}
	if _, level := q.AppendAbstract(nil); level == 0 {
		t.Fatal("a long query reports no abstract path; the test checks nothing")
	}
	if _, _, err := q.AppendPath(nil, image.Pt(-1, 0), to, hpa.Query{}); err == nil {
		t.Fatal("no error for a start outside the grid")
	}
	if abs, level := q.AppendAbstract(nil); level != 0 || len(abs) != 0 {
		t.Fatalf("after an error: abstract path %v at level %d, want none", abs, level)
	}
}

// TestNewSearcherNil checks the documented panic of a nil graph.
func TestNewSearcherNil(t *testing.T) {
	if msg := testmap.Panic(func() { hpa.NewSearcher(nil) }); msg != "hpa: NewSearcher of a nil graph" {
		t.Errorf("NewSearcher(nil): panic %q", msg)
	}
}

// TestMaxLevel checks that a query capped at level l answers as on a graph
// built with l levels: the same status and cost, and a legal path of that
// cost (the cells may differ between paths of equal cost, as only the
// graph's top level has landmarks to guide the abstract search).
func TestMaxLevel(t *testing.T) {
	g := testmap.Random(6, 130, 110, 0.15, grid.Options{})
	opt := hpa.Options{ClusterSize: 6, Levels: 3}
	full, err := hpa.Build(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	pairs := testmap.RandomPairs(testmap.NewRand(6), g, 150)
	for _, l := range []int{1, 2, 3} {
		opt.Levels = l
		fewer, err := hpa.Build(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		sc, sf := hpa.NewSearcher(full), hpa.NewSearcher(fewer)
		for _, p := range pairs {
			pc, rc, ec := sc.AppendPath(nil, p[0], p[1], hpa.Query{MaxLevel: l})
			_, rf, ef := sf.AppendPath(nil, p[0], p[1], hpa.Query{})
			if (ec == nil) != (ef == nil) || !hpa.SameAnswer(rc, rf) {
				t.Fatalf("MaxLevel %d: %v→%v: %+v %v, on a graph of %d levels: %+v %v", l, p[0], p[1], rc, ec, l, rf, ef)
			}
			if c, err := g.PathCost(pc); ec == nil && rc.Status == core.Found && (err != nil || c != rc.Cost || pc[0] != p[0] || pc[len(pc)-1] != p[1]) {
				t.Fatalf("MaxLevel %d: %v→%v: a path of cost %v (%v) for the result's %v", l, p[0], p[1], c, err, rc.Cost)
			}
		}
	}
}

// TestChooseLevels checks the levels and level factor that zero options
// choose from the map's size, and that given ones are kept.
func TestChooseLevels(t *testing.T) {
	for _, tc := range []struct {
		w, h, cs, levels, factor int
		wantFactor, wantLevels   int
	}{
		{512, 512, 32, 0, 0, 4, 2},     // a top level of 128 cells
		{1024, 1024, 32, 0, 0, 4, 2},   // 128
		{1024, 768, 32, 0, 0, 4, 2},    // 128
		{2048, 2048, 32, 0, 0, 2, 4},   // 4 would give 512: 2 gives 256
		{4096, 4096, 32, 0, 0, 2, 4},   // 256, four levels at most
		{8192, 8192, 32, 0, 0, 4, 4},   // 2 would leave 32×32 top-level clusters: 2048
		{16384, 16384, 32, 0, 0, 4, 4}, // 2 would leave 64×64: 2048
		{4096, 4096, 32, 0, 4, 4, 3},   // the factor given: 512
		{4096, 4096, 32, 0, 3, 3, 4},   // 288
		{1024, 1024, 32, 3, 0, 2, 3},   // three levels given: 4 would give 512
		{1024, 1024, 32, 1, 0, 4, 1},   // one level: the factor plays no part
		{4096, 4096, 256, 0, 0, 2, 2},  // 4 would give 1024 (16 clusters a row)
		{100, 50, 8, 0, 0, 4, 2},       // 32
		{31, 23, 1, 0, 0, 4, 2},        // 4
		{20000, 300, 32, 0, 0, 2, 4},   // 4 would give 512
	} {
		f, l := hpa.ChooseLevels(tc.w, tc.h, tc.cs, tc.levels, tc.factor)
		if f != tc.wantFactor || l != tc.wantLevels {
			t.Errorf("%d×%d, clusters of %d, levels %d, factor %d: factor %d and %d levels, want %d and %d",
				tc.w, tc.h, tc.cs, tc.levels, tc.factor, f, l, tc.wantFactor, tc.wantLevels)
		}
	}
	// A graph built with zero options records the factor it chose.
	g := testmap.Random(1, 31, 23, 0.2, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	if hg.LevelFactor() != 4 || hg.Levels() != 2 || hg.Options().LevelFactor != 4 {
		t.Errorf("zero options on 31×23, clusters of 1: factor %d, %d levels, options %+v; want 4 and 2", hg.LevelFactor(), hg.Levels(), hg.Options())
	}
}
