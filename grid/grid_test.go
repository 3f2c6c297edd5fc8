package grid_test

import (
	"image"
	"math"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
)

// TestNewTerrainBounds checks the range of terrain multipliers. Values near
// the largest float64 were accepted and made a single step cost +Inf.
func TestNewTerrainBounds(t *testing.T) {
	free := []bool{true, true, true, true}
	for _, c := range []float64{0, 0.5, -1, math.NaN(), math.Inf(1), math.MaxFloat64, math.Nextafter(grid.MaxCost, math.Inf(1))} {
		_, err := grid.New(2, 2, free, grid.Options{Costs: []float64{1, c, 1, 1}})
		if err == nil || !strings.Contains(err.Error(), "terrain cost") || !strings.Contains(err.Error(), "(1,0)") {
			t.Errorf("cost %v: error %v, want one naming the terrain cost at (1,0)", c, err)
		}
	}
	g, err := grid.New(2, 2, free, grid.Options{Costs: []float64{1, grid.MaxCost, 1, grid.MaxCost}})
	if err != nil {
		t.Fatal(err)
	}
	if c := g.StepCost(image.Pt(1, 0), image.Pt(1, 1)); c != grid.MaxCost {
		t.Errorf("step between two cells of the largest cost costs %v, want %v", c, float64(grid.MaxCost))
	}
	path, res, err := grid.NewSearcher(g).AppendPath(nil, image.Pt(1, 0), image.Pt(1, 1), grid.Query{})
	if err != nil || len(path) != 2 || math.IsInf(res.Cost, 0) {
		t.Errorf("path %v, result %+v, error %v; want two cells of finite cost", path, res, err)
	}
}
