package grid_test

import (
	"image"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestMovingAIScenarios runs every scenario of three Moving AI maps with
// jump point search, a sample with plain A*, and a sample of a street map,
// and checks each path is legal and of the published optimal length. With
// CAIRN_ALL_SCENARIOS=1 it runs every scenario of every map in the folder,
// with both searches.
func TestMovingAIScenarios(t *testing.T) {
	type run struct {
		name      string
		every     int // for jump point search
		plainStep int // for plain A*
	}
	runs := []run{
		{"den520d.map", 1, 10},
		{"AR0011SR.map", 1, 10},
		{"random512-10-0.map", 1, 10},
		{"Berlin_0_1024.map", 25, 100},
	}
	if testing.Short() {
		runs = runs[:1]
	}
	if os.Getenv("CAIRN_ALL_SCENARIOS") == "1" {
		names, _ := filepath.Glob(filepath.Join(testmap.MovingAIDir(), "*.map"))
		runs = runs[:0]
		for _, n := range names {
			runs = append(runs, run{filepath.Base(n), 1, 1})
		}
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			g, scens := testmap.MovingAI(t, r.name)
			s := grid.NewSearcher(g)
			var path []image.Point
			for _, plain := range []bool{false, true} {
				every := r.every
				if plain {
					every = r.plainStep
				}
				for i := 0; i < len(scens); i += every {
					sc := scens[i]
					if err := sc.Check(g); err != nil {
						t.Fatalf("scenario %d: %v", i, err)
					}
					var res grid.Result
					var err error
					path, res, err = s.AppendPath(path[:0], sc.Start, sc.Goal, grid.Query{Plain: plain})
					if err != nil {
						t.Fatalf("scenario %d (plain=%v): %v", i, plain, err)
					}
					if res.Status != core.Found {
						t.Fatalf("scenario %d (plain=%v) %v→%v: status %v", i, plain, sc.Start, sc.Goal, res.Status)
					}
					cost, err := g.PathCost(path)
					if err != nil {
						t.Fatalf("scenario %d (plain=%v): %v", i, plain, err)
					}
					if path[0] != sc.Start || path[len(path)-1] != sc.Goal {
						t.Fatalf("scenario %d (plain=%v): path runs %v→%v, want %v→%v", i, plain, path[0], path[len(path)-1], sc.Start, sc.Goal)
					}
					if !sc.Matches(cost) || !sc.Matches(res.Cost) {
						t.Fatalf("scenario %d (plain=%v) %v→%v: cost %.8f (reported %.8f), want %.8f", i, plain, sc.Start, sc.Goal, cost, res.Cost, sc.Optimal)
					}
				}
			}
		})
	}
}
