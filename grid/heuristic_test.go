package grid_test

import (
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestHeuristics checks each heuristic against Dijkstra's answer on random
// maps of both connectivities, with and without terrain: the admissible
// ones find the optimal cost, with jump points and with plain A*; the
// Manhattan distance on 8-connected grids finds a legal path no shorter
// than optimal, and on 4-connected ones the optimum.
func TestHeuristics(t *testing.T) {
	admissible := []grid.Heuristic{grid.Auto, grid.OctileDistance, grid.EuclideanDistance, grid.ChebyshevDistance}
	longer := 0
	for seed := int64(1); seed <= 6; seed++ {
		for _, conn := range []grid.Connectivity{grid.Eight, grid.Four} {
			g := testmap.Random(seed, 60, 45, 0.25, grid.Options{Connectivity: conn})
			if seed%3 == 0 {
				g = testmap.RandomCosts(seed, 60, 45, 0.25, 4, conn)
			}
			s := grid.NewSearcher(g)
			for _, p := range testmap.RandomPairs(testmap.NewRand(seed), g, 40) {
				_, want, err := s.AppendPath(nil, p[0], p[1], grid.Query{Heuristic: grid.Zero})
				if err != nil {
					t.Fatal(err)
				}
				hs := admissible
				if conn == grid.Four {
					hs = append(hs, grid.ManhattanDistance)
				}
				for _, h := range hs {
					for _, plain := range []bool{false, true} {
						what := fmt.Sprintf("seed %d %v %v plain %v %v→%v", seed, conn, h, plain, p[0], p[1])
						path, res, err := s.AppendPath(nil, p[0], p[1], grid.Query{Heuristic: h, Plain: plain})
						if err != nil || res.Status != want.Status {
							t.Fatalf("%s: %+v %v, Dijkstra %+v", what, res, err, want)
						}
						if res.Status == core.Found && math.Abs(res.Cost-want.Cost) > 1e-9 {
							t.Fatalf("%s: cost %v, Dijkstra's %v", what, res.Cost, want.Cost)
						}
						if c, err := g.PathCost(path); res.Status == core.Found && (err != nil || math.Abs(c-res.Cost) > 1e-9) {
							t.Fatalf("%s: path cost %v (%v), result %v", what, c, err, res.Cost)
						}
					}
				}
				if conn == grid.Eight && want.Status == core.Found {
					path, res, err := s.AppendPath(nil, p[0], p[1], grid.Query{Heuristic: grid.ManhattanDistance, Plain: true})
					c, cerr := g.PathCost(path)
					if err != nil || cerr != nil || res.Cost < want.Cost-1e-9 || math.Abs(c-res.Cost) > 1e-9 {
						t.Fatalf("seed %d Manhattan on 8-connected %v→%v: %+v (%v, %v), path cost %v; optimum %v", seed, p[0], p[1], res, err, cerr, c, want.Cost)
					}
					if res.Cost > want.Cost+1e-9 {
						longer++
					}
				}
			}
		}
	}
	if longer == 0 {
		t.Error("the Manhattan distance never gave a longer path on 8-connected grids: the test checks nothing there")
	}
}

func TestHeuristicErrorsAndNames(t *testing.T) {
	g, err := grid.New(4, 4, make4x4(), grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = grid.NewSearcher(g).AppendPath(nil, image.Pt(0, 0), image.Pt(3, 3), grid.Query{Heuristic: 42})
	if err == nil || !strings.Contains(err.Error(), "unknown heuristic 42") {
		t.Errorf("heuristic 42: %v", err)
	}
	for h, want := range map[grid.Heuristic]string{grid.Auto: "auto", grid.Zero: "zero", grid.OctileDistance: "octile",
		grid.ManhattanDistance: "manhattan", grid.EuclideanDistance: "euclidean", grid.ChebyshevDistance: "chebyshev", 42: "Heuristic(42)"} {
		if got := h.String(); got != want {
			t.Errorf("%d: %q, want %q", uint8(h), got, want)
		}
	}
}

func make4x4() []bool {
	free := make([]bool, 16)
	for i := range free {
		free[i] = true
	}
	return free
}
