package navmesh_test

import (
	"fmt"
	"image"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

func centre(p image.Point) mgl64.Vec2 { return mgl64.Vec2{float64(p.X) + 0.5, float64(p.Y) + 0.5} }

func mustMesh(tb testing.TB, g *grid.Grid) *navmesh.Mesh {
	tb.Helper()
	m, err := navmesh.FromGrid(g, navmesh.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// rectMesh is mustMesh for the mesh of rectangles.
func rectMesh(tb testing.TB, g *grid.Grid) *navmesh.Mesh {
	tb.Helper()
	m, err := navmesh.FromGrid(g, navmesh.Options{Rectangles: true})
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

func fromDrawing(tb testing.TB, drawing string) (*grid.Grid, image.Point, image.Point) {
	tb.Helper()
	var rows []string
	for line := range strings.Lines(drawing) {
		if line = strings.TrimSpace(line); line != "" {
			rows = append(rows, line)
		}
	}
	g, err := grid.FromRows(rows, grid.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	var s, e image.Point
	for y, row := range rows {
		if x := strings.IndexByte(row, 'S'); x >= 0 {
			s = image.Pt(x, y)
		}
		if x := strings.IndexByte(row, 'G'); x >= 0 {
			e = image.Pt(x, y)
		}
	}
	return g, s, e
}

func TestAppendPathDrawn(t *testing.T) {
	v := func(x, y float64) mgl64.Vec2 { return mgl64.Vec2{x, y} }
	tests := []struct {
		name    string
		drawing string
		want    []mgl64.Vec2 // nil: unreachable
	}{
		{"open", `
			S....
			.....
			....G`, []mgl64.Vec2{v(0.5, 0.5), v(4.5, 2.5)}},
		{"wall", `
			S.#..
			..#..
			....G`, []mgl64.Vec2{v(0.5, 0.5), v(2, 2), v(4.5, 2.5)}},
		{"no squeezing through a pinched corner", `
			S.#.
			.#..
			...G`, []mgl64.Vec2{v(0.5, 0.5), v(1, 2), v(3.5, 2.5)}},
		{"along a wall", `
			S...G
			#####`, []mgl64.Vec2{v(0.5, 0.5), v(4.5, 0.5)}},
		{"u-turn", `
			S......
			######.
			G......`, []mgl64.Vec2{v(0.5, 0.5), v(6, 1), v(6, 2), v(0.5, 2.5)}},
		{"same cell", `
			#G#
			...`, []mgl64.Vec2{v(1.5, 0.5)}},
		{"unreachable", `
			S.#..
			..#.G`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, s, e := fromDrawing(t, tc.drawing)
			if tc.name == "same cell" {
				s = e
			}
			q := navmesh.NewSearcher(mustMesh(t, g))
			from, to := centre(s), centre(e)
			got, res, err := q.AppendPath(nil, from, to, navmesh.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if res.Status != core.Unreachable || len(got) != 0 {
					t.Fatalf("got %v, %+v, want no path, unreachable\n%s", got, res, tc.drawing)
				}
				return
			}
			if res.Status != core.Found || !slices.Equal(got, tc.want) {
				t.Fatalf("got %v (%v)\nwant %v\n%s", got, res.Status, tc.want, tc.drawing)
			}
			length, err := checkPath(g, got, from, to)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(length-res.Length) > 1e-9 {
				t.Errorf("Result.Length = %v, path is %v long", res.Length, length)
			}
		})
	}
}

func TestAppendPathErrors(t *testing.T) {
	g, _, _ := fromDrawing(t, `
		..#
		...`)
	q := navmesh.NewSearcher(mustMesh(t, g))
	for _, tc := range []struct {
		from, to mgl64.Vec2
		want     string
	}{
		{mgl64.Vec2{2.5, 0.5}, mgl64.Vec2{0.5, 0.5}, "navmesh: start (2.5,0.5) is not on the mesh"},
		{mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{-1, 0.5}, "navmesh: goal (-1,0.5) is not on the mesh"},
		{mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{math.NaN(), 0.5}, "navmesh: goal (NaN,0.5) is not on the mesh"},
	} {
		dst, _, err := q.AppendPath(nil, tc.from, tc.to, navmesh.Query{})
		if err == nil || err.Error() != tc.want || len(dst) != 0 {
			t.Errorf("AppendPath(%v, %v) = %v, %v, want error %q", tc.from, tc.to, dst, err, tc.want)
		}
	}
	for _, r := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := navmesh.FromGrid(g, navmesh.Options{Radius: r}); err == nil {
			t.Errorf("FromGrid with Radius %v: no error", r)
		}
	}
}

// ratios accumulates length ratios.
type ratios struct {
	n        int
	sum, max float64
}

func (r *ratios) add(v float64) {
	r.n++
	r.sum += v
	r.max = math.Max(r.max, v)
}

func (r *ratios) mean() float64 { return r.sum / float64(r.n) }

// TestRandomGrids checks paths between cell centres on seeded random grids:
// legal, from start to goal, never longer than the octile optimum, and on
// average clearly shorter.
func TestRandomGrids(t *testing.T) {
	for _, density := range []float64{0.1, 0.2, 0.3} {
		var all ratios
		for seed := int64(1); seed <= 10; seed++ {
			g := testmap.Random(seed, 40, 30, density, grid.Options{})
			q := navmesh.NewSearcher(mustMesh(t, g))
			gs := grid.NewSearcher(g)
			r := testmap.NewRand(seed)
			var path []mgl64.Vec2
			for _, pr := range testmap.RandomPairs(r, g, 200) {
				a, b := pr[0], pr[1]
				from, to := centre(a), centre(b)
				var res navmesh.Result
				var err error
				path, res, err = q.AppendPath(path[:0], from, to, navmesh.Query{})
				if err != nil {
					t.Fatalf("density %v seed %d %v→%v: %v", density, seed, a, b, err)
				}
				if !g.Connected(a, b) {
					if res.Status != core.Unreachable || len(path) != 0 {
						t.Fatalf("density %v seed %d %v→%v: got %v, %v, want unreachable", density, seed, a, b, path, res.Status)
					}
					continue
				}
				length, err := checkPath(g, path, from, to)
				if err != nil {
					t.Fatalf("density %v seed %d %v→%v: %v\npath %v\n%s", density, seed, a, b, err, path, testmap.Render(g, []image.Point{a, b}))
				}
				_, gr, _ := gs.AppendPath(nil, a, b, grid.Query{})
				if length > gr.Cost+1e-9 || math.Abs(length-res.Length) > 1e-9 {
					t.Fatalf("density %v seed %d %v→%v: length %v (reported %v), octile optimum %v\npath %v\n%s",
						density, seed, a, b, length, res.Length, gr.Cost, path, testmap.Render(g, []image.Point{a, b}))
				}
				if gr.Cost > 0 {
					all.add(length / gr.Cost)
				}
			}
		}
		t.Logf("density %.1f: %d paths, length/octile mean %.4f, max %.4f", density, all.n, all.mean(), all.max)
		if density <= 0.2 && all.mean() > 0.97 {
			t.Errorf("density %.1f: mean length/octile %.4f, want ≤ 0.97", density, all.mean())
		}
	}
}

// blocky returns a w × h grid with n walls of random lengths, whose long
// straight sides and T-junctions random cells rarely make.
func blocky(seed int64, w, h, n int) *grid.Grid {
	r := testmap.NewRand(seed)
	rows := make([][]byte, h)
	for y := range rows {
		rows[y] = []byte(strings.Repeat(".", w))
	}
	for range n {
		x, y := r.IntN(w), r.IntN(h)
		bw, bh := 1+r.IntN(6), 1+r.IntN(2)
		if r.IntN(2) == 0 {
			bw, bh = bh, bw
		}
		for yy := y; yy < min(h, y+bh); yy++ {
			for xx := x; xx < min(w, x+bw); xx++ {
				rows[yy][xx] = '#'
			}
		}
	}
	s := make([]string, h)
	for y, row := range rows {
		s[y] = string(row)
	}
	g, err := grid.FromRows(s, grid.Options{})
	if err != nil {
		panic(err)
	}
	return g
}

// TestAnyAngleOracle compares paths on small grids, random, blocky and
// mazes, with the exact any-angle shortest paths. Ends are cell centres,
// cell corners and random points of free cells.
func TestAnyAngleOracle(t *testing.T) {
	var all ratios
	for seed := int64(1); seed <= 60; seed++ {
		var g *grid.Grid
		switch seed % 3 {
		case 0:
			g = blocky(seed, 20+int(seed%7), 14+int(seed%5), 10+int(seed%20))
		case 1:
			g = testmap.Random(seed, 18+int(seed%9), 12+int(seed%7), 0.05+0.05*float64(seed%7), grid.Options{})
		default:
			// Mazes, whose dead ends and bridges the search prunes.
			g = testmap.Maze(seed, 5+int(seed%3), 4+int(seed%2), 1+int(seed%4), int(seed%5))
		}
		o := newAnyAngle(g)
		q := navmesh.NewSearcher(mustMesh(t, g))
		r := testmap.NewRand(seed)
		point := func(c image.Point) mgl64.Vec2 {
			switch r.IntN(3) {
			case 0:
				return centre(c)
			case 1:
				return mgl64.Vec2{float64(c.X + r.IntN(2)), float64(c.Y + r.IntN(2))}
			}
			return mgl64.Vec2{float64(c.X) + float64(r.IntN(1025))/1024, float64(c.Y) + float64(r.IntN(1025))/1024}
		}
		for _, pr := range testmap.RandomPairs(r, g, 40) {
			from, to := point(pr[0]), point(pr[1])
			where := fmt.Sprintf("seed %d %v→%v", seed, from, to)
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
			if length < best-1e-9 {
				t.Fatalf("%s: length %v below the exact optimum %v: oracle or checker is wrong\npath %v", where, length, best, path)
			}
			if length > best+1e-9*max(1, best) {
				t.Fatalf("%s: length %v, any-angle optimum %v\npath %v\n%s", where, length, best, path, testmap.Render(g, nil))
			}
			if best > 0 {
				all.add(length / best)
			}
		}
	}
	t.Logf("%d paths: length/any-angle optimum mean %.9f, max %.9f", all.n, all.mean(), all.max)
}

func TestAppendPathAllocs(t *testing.T) {
	g := testmap.Random(7, 40, 30, 0.2, grid.Options{})
	q := navmesh.NewSearcher(mustMesh(t, g))
	pairs := testmap.RandomPairs(testmap.NewRand(7), g, 50)
	dst := make([]mgl64.Vec2, 0, 256)
	run := func() {
		for _, pr := range pairs {
			dst, _, _ = q.AppendPath(dst[:0], centre(pr[0]), centre(pr[1]), navmesh.Query{})
		}
	}
	run() // grow the buffers
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Errorf("AppendPath allocates %v times per 50 queries, want 0", n)
	}
}

// TestConcurrentQueries runs queries on one shared mesh from several
// goroutines, each with its own Query, and compares them with one Query run
// alone (go test -race checks the sharing).
func TestConcurrentQueries(t *testing.T) {
	g := testmap.Random(3, 40, 30, 0.2, grid.Options{})
	m := mustMesh(t, g)
	pairs := testmap.RandomPairs(testmap.NewRand(3), g, 100)
	want := make([]float64, len(pairs))
	q := navmesh.NewSearcher(m)
	for i, pr := range pairs {
		_, res, _ := q.AppendPath(nil, centre(pr[0]), centre(pr[1]), navmesh.Query{})
		want[i] = res.Length
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for range 4 {
		wg.Go(func() {
			q := navmesh.NewSearcher(m)
			for i, pr := range pairs {
				if _, res, _ := q.AppendPath(nil, centre(pr[0]), centre(pr[1]), navmesh.Query{}); res.Length != want[i] {
					errs <- fmt.Sprintf("%v→%v: length %v, alone %v", pr[0], pr[1], res.Length, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestNewSearcherNil checks the documented panic of a nil mesh.
func TestNewSearcherNil(t *testing.T) {
	if msg := testmap.Panic(func() { navmesh.NewSearcher(nil) }); msg != "navmesh: NewSearcher of a nil mesh" {
		t.Errorf("NewSearcher(nil): panic %q", msg)
	}
}
