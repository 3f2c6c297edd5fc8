package grid

import (
	"image"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
)

// TestQuerySize: a query of unit size k on a grid gives the status and
// optimal cost that a search of Sized(k) gives, with a path legal on
// Sized(k)'s grid (every anchor fits, every move is the unit's), on random
// grids 8- and 4-connected, with and without terrain costs, plain and
// sliced; ends where the unit does not fit, a negative size and a size
// with a filter are errors.
func TestQuerySize(t *testing.T) {
	found, refused := 0, 0
	for seed := uint64(1); seed <= 6; seed++ {
		r := rand.New(rand.NewPCG(seed, 9))
		w, h := 40+r.IntN(30), 30+r.IntN(20)
		free := make([]bool, w*h)
		for i := range free {
			free[i] = r.Float64() >= 0.12
		}
		opt := Options{}
		if seed%2 == 0 {
			opt.Costs = make([]float64, w*h)
			for i := range opt.Costs {
				opt.Costs[i] = float64(1 + r.IntN(4))
			}
		}
		if seed%3 == 0 {
			opt.Connectivity = Four
		}
		g, err := New(w, h, free, opt)
		if err != nil {
			t.Fatal(err)
		}
		s, sl := NewSearcher(g), NewSliced(g)
		for k := 2; k <= 3; k++ {
			sg, err := g.Sized(k)
			if err != nil {
				t.Fatal(err)
			}
			ref := NewSearcher(sg)
			var anchors []image.Point
			for y := range h {
				for x := range w {
					if sg.Passable(image.Pt(x, y)) {
						anchors = append(anchors, image.Pt(x, y))
					}
				}
			}
			for range 40 {
				a, b := anchors[r.IntN(len(anchors))], anchors[r.IntN(len(anchors))]
				want, wres, err := ref.AppendPath(nil, a, b, Query{})
				if err != nil {
					t.Fatal(err)
				}
				got, res, err := s.AppendPath(nil, a, b, Query{Size: k})
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != wres.Status || math.Abs(res.Cost-wres.Cost) > 1e-9*max(1, wres.Cost) {
					t.Fatalf("seed %d size %d %v→%v: %v cost %v, Sized's search %v cost %v (%d and %d cells)", seed, k, a, b, res.Status, res.Cost, wres.Status, wres.Cost, len(got), len(want))
				}
				if res.Status == core.Found {
					found++
					if c, err := sg.PathCost(got); err != nil || math.Abs(c-res.Cost) > 1e-9*max(1, c) {
						t.Fatalf("seed %d size %d %v→%v: the path costs %v on Sized's grid (%v), the result says %v", seed, k, a, b, c, err, res.Cost)
					}
				}
				if err := sl.Begin(a, b, Query{Size: k}); err != nil {
					t.Fatal(err)
				}
				for sl.Step(7) == core.InProgress {
				}
				if _, sres := sl.AppendPath(nil); sres.Status != res.Status || sres.Cost != res.Cost {
					t.Fatalf("seed %d size %d %v→%v: sliced %v %v, whole %v %v", seed, k, a, b, sres.Status, sres.Cost, res.Status, res.Cost)
				}
			}
			for _, p := range [][2]image.Point{{image.Pt(w-1, 0), anchors[0]}, {anchors[0], image.Pt(0, h-1)}} {
				if g.Passable(p[0]) && g.Passable(p[1]) && (g.Clearance(p[0]) < k || g.Clearance(p[1]) < k) {
					if _, _, err := s.AppendPath(nil, p[0], p[1], Query{Size: k}); err == nil || !strings.Contains(err.Error(), "too little for a unit") {
						t.Errorf("size %d %v→%v: %v, want an end without room refused", k, p[0], p[1], err)
					}
					refused++
				}
			}
		}
	}
	if found < 200 || refused == 0 {
		t.Fatalf("%d paths found, %d ends refused: the test tests too little", found, refused)
	}
	g, err := New(3, 2, []bool{true, true, true, true, true, true}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := NewSearcher(g)
	if _, _, err := s.AppendPath(nil, image.Pt(0, 0), image.Pt(1, 0), Query{Size: -1}); err == nil {
		t.Error("size −1 accepted")
	}
	if _, _, err := s.AppendPath(nil, image.Pt(0, 0), image.Pt(1, 0), Query{Size: 2, Filter: &Filter{}}); err == nil {
		t.Error("a size with a filter accepted")
	}
}

// TestQuerySizeAllocs: a warm query of unit size 2 allocates nothing.
func TestQuerySizeAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	g := randomGrid(t, r, 120, 90, 0.1)
	s := NewSearcher(g)
	a, b := image.Pt(1, 1), image.Pt(110, 80)
	for _, p := range []*image.Point{&a, &b} {
		for g.Clearance(*p) < 2 {
			p.X++
		}
	}
	dst := make([]image.Point, 0, 1024)
	query := func() {
		if _, _, err := s.AppendPath(dst[:0], a, b, Query{Size: 2}); err != nil {
			t.Fatal(err)
		}
	}
	query()
	if n := testing.AllocsPerRun(20, query); n != 0 {
		t.Errorf("a query of size 2 allocates %v times, want 0", n)
	}
}
