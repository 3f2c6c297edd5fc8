package smooth_test

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/smooth"
)

// parse builds a grid from a drawing ('#' blocked; '.', 'S', 'G' free) and
// returns it with the cells drawn as S and G.
func parse(t testing.TB, drawing string, opt grid.Options) (g *grid.Grid, s, goal image.Point) {
	t.Helper()
	var rows []string
	for line := range strings.Lines(drawing) {
		if line = strings.TrimSpace(line); line != "" {
			rows = append(rows, line)
		}
	}
	w, h := len(rows[0]), len(rows)
	free := make([]bool, w*h)
	for y, row := range rows {
		if len(row) != w {
			t.Fatalf("row %d has %d cells, want %d", y, len(row), w)
		}
		for x, c := range []byte(row) {
			free[y*w+x] = c != '#'
			switch c {
			case 'S':
				s = image.Pt(x, y)
			case 'G':
				goal = image.Pt(x, y)
			}
		}
	}
	g, err := grid.New(w, h, free, opt)
	if err != nil {
		t.Fatal(err)
	}
	return g, s, goal
}

// render draws g with the cells of path as '*' and the points of turns as
// 'o', for failure messages.
func render(g *grid.Grid, path, turns []image.Point) string {
	var sb strings.Builder
	for y := range g.Height() {
		for x := range g.Width() {
			p := image.Pt(x, y)
			c := byte('#')
			switch {
			case slices.Contains(turns, p):
				c = 'o'
			case slices.Contains(path, p):
				c = '*'
			case g.Passable(p):
				c = '.'
			}
			sb.WriteByte(c)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

func findPath(t testing.TB, g *grid.Grid, from, to image.Point) ([]image.Point, grid.Result) {
	t.Helper()
	path, res, err := grid.NewSearcher(g).AppendPath(nil, from, to, grid.Query{})
	if err != nil {
		t.Fatal(err)
	}
	return path, res
}

func TestAppendTurnsDrawn(t *testing.T) {
	tests := []struct {
		name    string
		drawing string
		want    []image.Point
	}{
		{
			name: "straight corridor",
			drawing: `
				##########
				#S......G#
				##########`,
			want: []image.Point{{1, 1}, {8, 1}},
		},
		{
			name: "L-shaped corridor",
			drawing: `
				#####
				#S..#
				###.#
				###.#
				###G#
				#####`,
			want: []image.Point{{1, 1}, {3, 1}, {3, 4}},
		},
		{
			name: "open room",
			drawing: `
				S......
				.......
				......G`,
			want: []image.Point{{0, 0}, {6, 2}},
		},
		{
			// S cannot see past (3,4): legs to (4,4) or (5,4) would touch the wall at (4,3).
			name: "round a corner",
			drawing: `
				S.....
				......
				....##
				....#G
				......`,
			want: []image.Point{{0, 0}, {3, 4}, {5, 4}, {5, 3}},
		},
		{
			name: "neighbours",
			drawing: `
				SG`,
			want: []image.Point{{0, 0}, {1, 0}},
		},
		{
			name: "one cell",
			drawing: `
				#S#`,
			want: []image.Point{{1, 0}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, s, goal := parse(t, tt.drawing, grid.Options{})
			if tt.name == "one cell" {
				goal = s
			}
			path, _ := findPath(t, g, s, goal)
			for _, f := range []struct {
				name   string
				append func(dst, path []image.Point, los smooth.LineOfSight) []image.Point
			}{{"AppendTurns", smooth.AppendTurns}, {"AppendTaut", smooth.AppendTaut}} {
				got := f.append(nil, path, g.LineOfSight)
				if !slices.Equal(got, tt.want) {
					t.Errorf("%s\ngot  %v\nwant %v\n%s", f.name, got, tt.want, render(g, path, got))
				}
			}
		})
	}
}

func TestAppendTurnsShort(t *testing.T) {
	noCalls := func(a, b image.Point) bool {
		t.Fatalf("los(%v, %v) called for a short path", a, b)
		return false
	}
	prefix := []image.Point{{9, 9}}
	for _, path := range [][]image.Point{nil, {}, {{1, 2}}, {{1, 2}, {5, 7}}} {
		for _, f := range []func([]image.Point, []image.Point, smooth.LineOfSight) []image.Point{smooth.AppendTurns, smooth.AppendTaut} {
			if got := f(nil, path, noCalls); !slices.Equal(got, path) {
				t.Errorf("path %v: got %v, want it copied", path, got)
			}
			want := append(slices.Clone(prefix), path...)
			if got := f(slices.Clone(prefix), path, noCalls); !slices.Equal(got, want) {
				t.Errorf("path %v after %v: got %v, want %v", path, prefix, got, want)
			}
		}
	}
}

// pairs returns a LineOfSight that holds only between the given pairs, in
// either order, and counts its calls.
func pairs(calls *int, vis ...[2]image.Point) smooth.LineOfSight {
	return func(a, b image.Point) bool {
		*calls++
		return slices.Contains(vis, [2]image.Point{a, b}) || slices.Contains(vis, [2]image.Point{b, a})
	}
}

func TestAppendTurnsBlindNeighbours(t *testing.T) {
	// Nothing is visible, not even neighbours: every point is kept.
	path := []image.Point{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}}
	var calls int
	los := pairs(&calls)
	if got := smooth.AppendTurns(nil, path, los); !slices.Equal(got, path) {
		t.Errorf("AppendTurns: got %v, want %v", got, path)
	}
	if calls > len(path)-2 {
		t.Errorf("AppendTurns: %d los calls, want at most %d", calls, len(path)-2)
	}
	if got := smooth.AppendTaut(nil, path, los); !slices.Equal(got, path) {
		t.Errorf("AppendTaut: got %v, want %v", got, path)
	}

	// (1,0) cannot be reached from (0,0), yet it is kept, and smoothing
	// resumes from it.
	var n int
	los = pairs(&n, [2]image.Point{{1, 0}, {3, 0}}, [2]image.Point{{1, 0}, {4, 0}})
	want := []image.Point{{0, 0}, {1, 0}, {4, 0}}
	if got := smooth.AppendTurns(nil, path, los); !slices.Equal(got, want) {
		t.Errorf("AppendTurns: got %v, want %v", got, want)
	}
}

func TestAppendTautBeatsGreedy(t *testing.T) {
	// Neighbours see each other, and so do p1–p3 and p0–p3, but not p0–p2:
	// the greedy pass keeps p1 and p3; the taut pass then drops p1.
	p := []image.Point{{0, 0}, {1, 0}, {2, 1}, {3, 3}, {6, 3}}
	vis := [][2]image.Point{{p[0], p[1]}, {p[1], p[2]}, {p[2], p[3]}, {p[3], p[4]}, {p[1], p[3]}, {p[0], p[3]}}
	var calls int
	los := pairs(&calls, vis...)
	turns := smooth.AppendTurns(nil, p, los)
	if want := []image.Point{p[0], p[1], p[3], p[4]}; !slices.Equal(turns, want) {
		t.Errorf("AppendTurns: got %v, want %v", turns, want)
	}
	taut := smooth.AppendTaut(nil, p, los)
	if want := []image.Point{p[0], p[3], p[4]}; !slices.Equal(taut, want) {
		t.Errorf("AppendTaut: got %v, want %v", taut, want)
	}
	if smooth.Length(taut) >= smooth.Length(turns) {
		t.Errorf("taut length %v, want less than greedy %v", smooth.Length(taut), smooth.Length(turns))
	}
}

func TestAppendInPlace(t *testing.T) {
	g, path := randomPath(t, 3, 0.15)
	for _, f := range []struct {
		name   string
		append func(dst, path []image.Point, los smooth.LineOfSight) []image.Point
	}{{"AppendTurns", smooth.AppendTurns}, {"AppendTaut", smooth.AppendTaut}} {
		want := f.append(nil, path, g.LineOfSight)
		inPlace := slices.Clone(path)
		inPlace = f.append(inPlace[:0], inPlace, g.LineOfSight)
		if !slices.Equal(inPlace, want) {
			t.Errorf("%s in place\ngot  %v\nwant %v", f.name, inPlace, want)
		}
		// Appending after existing points leaves them alone.
		pre := []image.Point{{-1, -1}, {-2, -2}}
		after := f.append(slices.Clone(pre), path, g.LineOfSight)
		if !slices.Equal(after[:2], pre) || !slices.Equal(after[2:], want) {
			t.Errorf("%s after %v: got %v", f.name, pre, after)
		}
	}
}

func TestLength(t *testing.T) {
	tests := []struct {
		pts  []image.Point
		want float64
	}{
		{nil, 0},
		{[]image.Point{{3, 4}}, 0},
		{[]image.Point{{0, 0}, {3, 4}}, 5},
		{[]image.Point{{0, 0}, {1, 1}, {1, 3}, {-2, -1}}, math.Sqrt2 + 2 + 5},
	}
	for _, tt := range tests {
		if got := smooth.Length(tt.pts); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Length(%v) = %v, want %v", tt.pts, got, tt.want)
		}
	}
}

// randomGrid returns a w × h grid whose cells are blocked with probability
// density, drawn from a generator seeded with seed.
func randomGrid(seed uint64, w, h int, density float64, opt grid.Options) (*grid.Grid, *rand.Rand) {
	r := rand.New(rand.NewPCG(seed, 0x736d_6f6f_7468))
	free := make([]bool, w*h)
	for i := range free {
		free[i] = r.Float64() >= density
	}
	g, err := grid.New(w, h, free, opt)
	if err != nil {
		panic(err)
	}
	return g, r
}

func randomCell(r *rand.Rand, g *grid.Grid) image.Point {
	for {
		if p := image.Pt(r.IntN(g.Width()), r.IntN(g.Height())); g.Passable(p) {
			return p
		}
	}
}

// randomPath returns a random grid and an optimal path of at least 20 cells
// on it.
func randomPath(t testing.TB, seed uint64, density float64) (*grid.Grid, []image.Point) {
	t.Helper()
	g, r := randomGrid(seed, 64, 64, density, grid.Options{})
	for {
		path, res := findPath(t, g, randomCell(r, g), randomCell(r, g))
		if res.Status == core.Found && len(path) >= 20 {
			return g, path
		}
	}
}

// indexIn returns the index in path of each point of sub, which must be a
// subsequence of path, or nil when it is not.
func indexIn(sub, path []image.Point) []int {
	idx := make([]int, 0, len(sub))
	j := 0
	for _, p := range sub {
		for j < len(path) && path[j] != p {
			j++
		}
		if j == len(path) {
			return nil
		}
		idx = append(idx, j)
		j++
	}
	return idx
}

func TestRandomMaps(t *testing.T) {
	for _, conn := range []grid.Connectivity{grid.Eight, grid.Four} {
		for _, density := range []float64{0.1, 0.2, 0.3, 0.35} {
			var sumCost, sumTurns, sumTaut float64
			var queries, tauter int
			for seed := uint64(1); seed <= 6; seed++ {
				g, r := randomGrid(seed, 48, 40, density, grid.Options{Connectivity: conn})
				for range 40 {
					from, to := randomCell(r, g), randomCell(r, g)
					path, res := findPath(t, g, from, to)
					if res.Status != core.Found {
						continue
					}
					where := fmt.Sprintf("%v density %.2f seed %d, %v → %v", conn, density, seed, from, to)
					turns := smooth.AppendTurns(nil, path, g.LineOfSight)
					taut := smooth.AppendTaut(nil, path, g.LineOfSight)
					checkTurns(t, where, g, path, res.Cost, turns)
					checkTaut(t, where, g, path, turns, taut)
					queries++
					sumCost += res.Cost
					sumTurns += smooth.Length(turns)
					sumTaut += smooth.Length(taut)
					if len(taut) < len(turns) {
						tauter++
					}
				}
			}
			t.Logf("%v density %.2f: %d paths, mean length grid %.3f, turns %.3f, taut %.3f; taut shorter on %d",
				conn, density, queries, sumCost/float64(queries), sumTurns/float64(queries), sumTaut/float64(queries), tauter)
			if queries < 100 {
				t.Errorf("%v density %.2f: only %d paths found", conn, density, queries)
			}
			if density <= 0.2 && !(sumTurns < sumCost-1e-6) {
				t.Errorf("%v density %.2f: smoothed paths total %v, want shorter than the grid's %v", conn, density, sumTurns, sumCost)
			}
		}
	}
}

// checkTurns checks turns against the definition of the greedy pass over
// path, whose octile cost is cost.
func checkTurns(t *testing.T, where string, g *grid.Grid, path []image.Point, cost float64, turns []image.Point) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s: %s\ngot  %v\nfrom %v\n%s", where, fmt.Sprintf(format, args...), turns, path, render(g, path, turns))
	}
	if got := smooth.Length(path); math.Abs(got-cost) > 1e-9 {
		fail("cell path length %v, want its cost %v", got, cost)
	}
	if len(path) <= 2 {
		if !slices.Equal(turns, path) {
			fail("short path not copied")
		}
		return
	}
	if turns[0] != path[0] || turns[len(turns)-1] != path[len(path)-1] {
		fail("ends differ from the path's")
		return
	}
	idx := indexIn(turns, path)
	if idx == nil {
		fail("not a subsequence of the path")
		return
	}
	for k := 1; k < len(turns); k++ {
		i, j := idx[k-1], idx[k]
		if !g.LineOfSight(turns[k-1], turns[k]) {
			fail("no line of sight on leg %v → %v", turns[k-1], turns[k])
		}
		for m := i + 2; m <= j; m++ {
			if !g.LineOfSight(path[i], path[m]) {
				fail("leg from %v skips %v, which it cannot see", path[i], path[m])
			}
		}
		if j+1 < len(path) && g.LineOfSight(path[i], path[j+1]) {
			fail("leg from %v stops at %v though it sees %v", path[i], path[j], path[j+1])
		}
	}
	if l := smooth.Length(turns); l > cost+1e-9 {
		fail("length %v, want at most the grid cost %v", l, cost)
	}
}

// checkTaut checks the result of AppendTaut against that of AppendTurns.
func checkTaut(t *testing.T, where string, g *grid.Grid, path, turns, taut []image.Point) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s: taut: %s\ngot  %v\nwant %v\n%s", where, fmt.Sprintf(format, args...), taut, turns, render(g, path, taut))
	}
	if indexIn(taut, turns) == nil || taut[0] != turns[0] || taut[len(taut)-1] != turns[len(turns)-1] {
		fail("not a subsequence of the greedy turns with the same ends")
		return
	}
	for k := 1; k < len(taut); k++ {
		if !g.LineOfSight(taut[k-1], taut[k]) {
			fail("no line of sight on leg %v → %v", taut[k-1], taut[k])
		}
	}
	for k := 1; k+1 < len(taut); k++ {
		if g.LineOfSight(taut[k-1], taut[k+1]) {
			fail("keeps %v though %v sees %v", taut[k], taut[k-1], taut[k+1])
		}
	}
	if l, lt := smooth.Length(taut), smooth.Length(turns); l > lt+1e-9 {
		fail("length %v, want at most the greedy %v", l, lt)
	}
}

func TestAllocs(t *testing.T) {
	g, path := randomPath(t, 5, 0.2)
	los := smooth.LineOfSight(g.LineOfSight)
	dst := make([]image.Point, 0, len(path))
	var length float64
	for _, f := range []struct {
		name string
		fn   func()
	}{
		{"AppendTurns", func() { dst = smooth.AppendTurns(dst[:0], path, los) }},
		{"AppendTaut", func() { dst = smooth.AppendTaut(dst[:0], path, los) }},
		{"Length", func() { length = smooth.Length(path) }},
	} {
		if n := testing.AllocsPerRun(100, f.fn); n != 0 {
			t.Errorf("%s: %v allocations per run, want 0", f.name, n)
		}
	}
	if len(dst) < 2 || length <= 0 {
		t.Fatalf("smoothed %v, length %v", dst, length)
	}
}

func BenchmarkAppendTurns(b *testing.B) {
	for _, density := range []float64{0.1, 0.3} {
		g, path := randomPath(b, 7, density)
		los := smooth.LineOfSight(g.LineOfSight)
		dst := make([]image.Point, 0, len(path))
		for _, f := range []struct {
			name   string
			append func(dst, path []image.Point, los smooth.LineOfSight) []image.Point
		}{{"Turns", smooth.AppendTurns}, {"Taut", smooth.AppendTaut}} {
			b.Run(fmt.Sprintf("%s/density=%.1f/cells=%d", f.name, density, len(path)), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					dst = f.append(dst[:0], path, los)
					if dst[len(dst)-1] != path[len(path)-1] {
						b.Fatal("wrong end")
					}
				}
			})
		}
	}
}

// TestAppendCornerTurns smooths optimal paths of random maps with corners
// only: every leg has line of sight, the points are corners of the path in
// order, the result is no longer than the path, and on average it is close
// to the greedy pass over every cell.
func TestAppendCornerTurns(t *testing.T) {
	var sumTurns, sumCorners float64
	for _, density := range []float64{0, 0.1, 0.2, 0.3} {
		for seed := uint64(1); seed <= 4; seed++ {
			g, r := randomGrid(seed, 60, 45, density, grid.Options{})
			for range 40 {
				from, to := randomCell(r, g), randomCell(r, g)
				path, res := findPath(t, g, from, to)
				if res.Status != core.Found {
					continue
				}
				where := fmt.Sprintf("density %.2f seed %d, %v → %v", density, seed, from, to)
				c := smooth.AppendCornerTurns(nil, path, g.LineOfSight)
				if len(path) <= 2 {
					if !slices.Equal(c, path) {
						t.Fatalf("%s: got %v, want the path unchanged", where, c)
					}
					continue
				}
				if c[0] != path[0] || c[len(c)-1] != path[len(path)-1] {
					t.Fatalf("%s: turns %v do not keep the ends of the path", where, c)
				}
				k := 0
				for i, p := range c {
					for k < len(path) && path[k] != p {
						k++
					}
					if k == len(path) {
						t.Fatalf("%s: turn %d %v is not on the path after the previous turn", where, i, p)
					}
					if k > 0 && k < len(path)-1 && path[k+1].Sub(path[k]) == path[k].Sub(path[k-1]) {
						t.Fatalf("%s: turn %d %v is not a corner of the path", where, i, p)
					}
					if i > 0 && !g.LineOfSight(c[i-1], p) {
						t.Fatalf("%s: leg %v → %v has no line of sight", where, c[i-1], p)
					}
				}
				if l := smooth.Length(c); l > res.Cost+1e-9 {
					t.Fatalf("%s: length %v, longer than the path's %v", where, l, res.Cost)
				}
				sumTurns += smooth.Length(smooth.AppendTurns(nil, path, g.LineOfSight))
				sumCorners += smooth.Length(c)
			}
		}
	}
	t.Logf("total length: every cell %.1f, corners only %.1f (%+.2f%%)", sumTurns, sumCorners, 100*(sumCorners/sumTurns-1))
	if sumCorners > 1.02*sumTurns {
		t.Errorf("corner turns %.1f, more than 2%% longer than greedy turns %.1f", sumCorners, sumTurns)
	}
}

// TestAppendCornerTurnsCalls counts the line-of-sight calls on a staircase
// of 2 000 corners in open space, which one leg covers: a corner-by-corner
// pass would make one call per corner, the doubling strides make about
// log₂ of that.
func TestAppendCornerTurnsCalls(t *testing.T) {
	var path []image.Point
	p := image.Pt(0, 0)
	for i := range 2000 {
		path = append(path, p)
		if i%2 == 0 {
			p.X++
		} else {
			p.Y++
		}
	}
	calls := 0
	open := func(a, b image.Point) bool { calls++; return true }
	got := smooth.AppendCornerTurns(nil, path, open)
	if want := []image.Point{path[0], path[len(path)-1]}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want the two ends", got)
	}
	if calls > 2*11 {
		t.Errorf("%d line-of-sight calls for one leg over 2 000 corners, want about log₂(2 000) = 11", calls)
	}
	// A wall halfway: the leg must stop at a corner before it, and the
	// halving keeps the calls logarithmic.
	calls = 0
	wall := func(a, b image.Point) bool { calls++; return a.X < 500 == (b.X < 500) }
	got = smooth.AppendCornerTurns(nil, path, wall)
	if len(got) < 3 || got[1].X >= 500 {
		t.Fatalf("got %v, want a turn before x = 500", got[:min(len(got), 3)])
	}
	if calls > 4*11 {
		t.Errorf("%d line-of-sight calls with one wall, want O(log₂ 2 000)", calls)
	}
}

// TestLengthExtremes measures a polyline between the most distant
// coordinates an image.Point holds; their difference once overflowed an
// int and gave a length of 1.
func TestLengthExtremes(t *testing.T) {
	pts := []image.Point{{math.MinInt, 0}, {math.MaxInt, 0}, {math.MaxInt, math.MinInt}}
	want := float64(math.MaxInt) - 2*float64(math.MinInt) // 2⁶⁴ + 2⁶³
	if got := smooth.Length(pts); got != want {
		t.Errorf("Length(%v) = %v, want %v", pts, got, want)
	}
}

// TestNilLineOfSight checks the documented panic of a nil line-of-sight
// function, for paths short enough never to call it too.
func TestNilLineOfSight(t *testing.T) {
	for name, f := range map[string]func([]image.Point, []image.Point, smooth.LineOfSight) []image.Point{
		"AppendTurns": smooth.AppendTurns, "AppendCornerTurns": smooth.AppendCornerTurns, "AppendTaut": smooth.AppendTaut,
	} {
		for n := range 4 {
			path := make([]image.Point, n)
			for i := range path {
				path[i] = image.Pt(i, i%2)
			}
			if msg := testmap.Panic(func() { f(nil, path, nil) }); msg != "smooth: nil line-of-sight function" {
				t.Errorf("%s of %d points with a nil function: panic %q", name, n, msg)
			}
		}
	}
}
