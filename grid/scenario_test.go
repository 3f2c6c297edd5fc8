package grid_test

import (
	"image"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
)

// movingAI is where the Moving AI benchmark maps live, outside the
// repository; tests and benchmarks that need them skip when it is absent.
const movingAI = "../../shared/benchmarks/movingai"

func loadBench(tb testing.TB, name string) (*grid.Grid, []grid.Scenario) {
	tb.Helper()
	mapPath := filepath.Join(movingAI, name)
	if _, err := os.Stat(mapPath); err != nil {
		tb.Skipf("Moving AI data not available: %v", err)
	}
	g, err := grid.LoadMap(mapPath, grid.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	scen, err := grid.LoadScenarios(mapPath + ".scen")
	if err != nil {
		tb.Fatal(err)
	}
	return g, scen
}

// TestMovingAIScenarios runs every scenario of several Moving AI maps with
// jump point search and plain A*, and checks each path is legal and of the
// published optimal length.
func TestMovingAIScenarios(t *testing.T) {
	maps := []string{"den520d.map", "AR0011SR.map", "Berlin_0_1024.map", "maze512-1-0.map", "random512-10-0.map", "8room_000.map", "ArcticStation.map", "brc202d.map", "ost003d.map", "CatwalkAlley.map", "Boston_0_1024.map"}
	if testing.Short() {
		maps = maps[:3]
	}
	for _, name := range maps {
		t.Run(name, func(t *testing.T) {
			g, scens := loadBench(t, name)
			s := grid.NewSearcher(g)
			var path []image.Point
			for _, plain := range []bool{false, true} {
				every := 1
				if plain && !testing.Short() {
					every = 7 // plain A* is the slower reference; sample it
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
