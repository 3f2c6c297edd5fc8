package testmap_test

import (
	"image"
	"math"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

func TestParse(t *testing.T) {
	m, err := testmap.Parse(`
		S.#
		.*3
		@.G
	`, grid.Options{Connectivity: grid.Four})
	if err != nil {
		t.Fatal(err)
	}
	g := m.Grid
	if g.Width() != 3 || g.Height() != 3 || g.Connectivity() != grid.Four {
		t.Fatalf("got %dx%d %v, want 3x3 4-connected", g.Width(), g.Height(), g.Connectivity())
	}
	if m.Start != image.Pt(0, 0) || m.Goal != image.Pt(2, 2) {
		t.Errorf("got start %v goal %v, want (0,0) (2,2)", m.Start, m.Goal)
	}
	if !testmap.SameCells(m.Path, []image.Point{{0, 0}, {1, 1}, {2, 2}}) {
		t.Errorf("got path %v, want S, (1,1), G", m.Path)
	}
	for _, p := range []image.Point{{2, 0}, {0, 2}} {
		if g.Passable(p) {
			t.Errorf("%v free, want blocked", p)
		}
	}
	if g.Cost(image.Pt(2, 1)) != 3 || g.Cost(image.Pt(1, 1)) != 1 {
		t.Errorf("costs got %v and %v, want 3 and 1", g.Cost(image.Pt(2, 1)), g.Cost(image.Pt(1, 1)))
	}
	want := "S.#\n.*3\n#.G\n"
	if got := testmap.Render(g, []image.Point{{0, 0}, {1, 1}, {2, 2}}); got != want {
		t.Errorf("Render got\n%s\nwant\n%s", got, want)
	}
}

func TestParseNoPath(t *testing.T) {
	m, err := testmap.Parse("..\n..", grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Path != nil || m.Start != image.Pt(-1, -1) || m.Goal != image.Pt(-1, -1) || m.Grid.HasCosts() {
		t.Errorf("got %+v, want no path, start, goal or costs", m)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, ascii, want string }{
		{"empty", "\n  \n", "empty"},
		{"ragged", "...\n..", "row 1"},
		{"unknown", ".x.", "unknown"},
		{"two starts", "S.S", "second S"},
		{"two goals", "G\nG", "second G"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := testmap.Parse(tt.ascii, grid.Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestRandom(t *testing.T) {
	a := testmap.Random(5, 20, 10, 0.3, grid.Options{})
	b := testmap.Random(5, 20, 10, 0.3, grid.Options{})
	c := testmap.RandomCosts(5, 20, 10, 0.3, 4, grid.Eight)
	if testmap.Render(a, nil) != testmap.Render(b, nil) {
		t.Errorf("seed 5 gave two grids:\n%s\n%s", testmap.Render(a, nil), testmap.Render(b, nil))
	}
	blocked, varied := 0, false
	for y := range 10 {
		for x := range 20 {
			p := image.Pt(x, y)
			if a.Passable(p) != c.Passable(p) {
				t.Fatalf("seed 5: Random and RandomCosts differ at %v", p)
			}
			if !a.Passable(p) {
				blocked++
			}
			if m := c.Cost(p); m < 1 || m > 4 {
				t.Errorf("seed 5: cost %v at %v, want in [1, 4]", m, p)
			} else if m != 1 {
				varied = true
			}
		}
	}
	if blocked < 30 || blocked > 90 || !varied {
		t.Errorf("seed 5: %d of 200 cells blocked at density 0.3, costs varied %v", blocked, varied)
	}
	if d := testmap.Random(1, 8, 8, 0, grid.Options{}); len(testmap.FreeCells(d)) != 64 {
		t.Errorf("density 0: %d free cells, want 64", len(testmap.FreeCells(d)))
	}
	if d := testmap.Random(1, 8, 8, 1, grid.Options{}); len(testmap.FreeCells(d)) != 0 {
		t.Errorf("density 1: %d free cells, want 0", len(testmap.FreeCells(d)))
	}
}

// TestMaze checks that a maze without loops is a tree of rooms: all its
// free cells joined, and exactly one opening per room but the first.
func TestMaze(t *testing.T) {
	for _, c := range []struct{ nx, ny, corridor int }{{1, 1, 1}, {7, 5, 1}, {6, 9, 3}} {
		g := testmap.Maze(int64(c.nx), c.nx, c.ny, c.corridor, 0)
		free := testmap.FreeCells(g)
		rooms := c.nx * c.ny
		if want := rooms*c.corridor*c.corridor + (rooms-1)*c.corridor; len(free) != want {
			t.Errorf("%v: %d free cells, want %d", c, len(free), want)
		}
		for _, p := range free {
			if !g.Connected(free[0], p) {
				t.Fatalf("%v: %v and %v are not joined\n%s", c, free[0], p, testmap.Render(g, nil))
			}
		}
		if w, h := g.Width(), g.Height(); w != c.nx*(c.corridor+1)+1 || h != c.ny*(c.corridor+1)+1 {
			t.Errorf("%v: grid of %d×%d", c, w, h)
		}
	}
	if a, b := testmap.Maze(3, 8, 8, 2, 10), testmap.Maze(3, 8, 8, 2, 0); len(testmap.FreeCells(a)) <= len(testmap.FreeCells(b)) {
		t.Errorf("loops knocked through no wall: %d free cells, %d without", len(testmap.FreeCells(a)), len(testmap.FreeCells(b)))
	}
}

func TestOracle(t *testing.T) {
	m, err := testmap.Parse(`
		S..#.
		.#.#.
		...#G`, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := testmap.NewOracle(m.Grid)
	tests := []struct {
		from, to image.Point
		want     float64
		ok       bool
	}{
		{m.Start, m.Start, 0, true},
		{m.Start, image.Pt(2, 2), 4, true},        // round the pillar, no corner cutting
		{image.Pt(2, 0), image.Pt(0, 2), 4, true}, // likewise
		{m.Start, image.Pt(2, 1), 3, true},        // the diagonal would cut the pillar
		{image.Pt(0, 1), image.Pt(2, 0), 3, true}, // likewise
		{m.Start, m.Goal, math.Inf(1), false},
		{m.Start, image.Pt(3, 0), math.Inf(1), false}, // a wall
	}
	open := testmap.Random(1, 3, 3, 0, grid.Options{})
	if got, ok := testmap.NewOracle(open).Dist(image.Pt(0, 0), image.Pt(2, 1)); !ok || got != 1+math.Sqrt2 {
		t.Errorf("open 3x3: Dist((0,0), (2,1)) got %v, %v\nwant %v, true", got, ok, 1+math.Sqrt2)
	}
	four := testmap.Random(1, 3, 3, 0, grid.Options{Connectivity: grid.Four})
	if got, ok := testmap.NewOracle(four).Dist(image.Pt(0, 0), image.Pt(2, 1)); !ok || got != 3 {
		t.Errorf("open 3x3, 4-connected: Dist((0,0), (2,1)) got %v, %v\nwant 3, true", got, ok)
	}
	for _, tt := range tests {
		got, ok := o.Dist(tt.from, tt.to)
		if ok != tt.ok || math.Abs(got-tt.want) > 1e-12 && !(math.IsInf(got, 1) && math.IsInf(tt.want, 1)) {
			t.Errorf("Dist(%v, %v) got %v, %v\nwant %v, %v\n%s", tt.from, tt.to, got, ok, tt.want, tt.ok,
				testmap.Render(m.Grid, []image.Point{tt.from, tt.to}))
		}
	}
}

func TestCheckPath(t *testing.T) {
	m, err := testmap.Parse(`
		S.
		#G`, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := m.Grid
	tests := []struct {
		name string
		path []image.Point
		want string // "" for a good path
		cost float64
	}{
		{"good", []image.Point{{0, 0}, {1, 0}, {1, 1}}, "", 2},
		{"empty", nil, "empty", 0},
		{"wrong start", []image.Point{{1, 0}, {1, 1}}, "starts", 0},
		{"wrong end", []image.Point{{0, 0}, {1, 0}}, "ends", 0},
		{"corner cut", []image.Point{{0, 0}, {1, 1}}, "step 1", 0},
		{"jump", []image.Point{{0, 0}, {1, 0}, {1, 0}, {1, 1}}, "step 2", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cost, err := testmap.CheckPath(g, tt.path, m.Start, m.Goal)
			if tt.want == "" {
				if err != nil || cost != tt.cost {
					t.Errorf("got %v, %v; want %v, nil", cost, err, tt.cost)
				}
			} else if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}
