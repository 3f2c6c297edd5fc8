package baseline_test

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/baseline"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestAgainstOracle checks the baseline's costs and paths against the
// gonum Dijkstra oracle on seeded random maps: a yardstick must be right.
func TestAgainstOracle(t *testing.T) {
	for _, density := range []float64{0, 0.1, 0.25, 0.4} {
		for seed := int64(1); seed <= 3; seed++ {
			g := testmap.Random(seed, 40, 30, density, grid.Options{})
			o := testmap.NewOracle(g)
			s := baseline.New(g)
			for _, p := range testmap.RandomPairs(testmap.NewRand(seed), g, 60) {
				path, cost, _, found := s.AppendPath(nil, p[0], p[1])
				want, ok := o.Dist(p[0], p[1])
				if found != ok {
					t.Fatalf("seed %d density %v %v→%v: found %v, oracle %v", seed, density, p[0], p[1], found, ok)
				}
				if !found {
					continue
				}
				pc, err := testmap.CheckPath(g, path, p[0], p[1])
				if err != nil || math.Abs(cost-want) > 1e-9 || math.Abs(pc-cost) > 1e-9 {
					t.Fatalf("seed %d density %v %v→%v: cost %v (path %v, %v), want %v\n%s",
						seed, density, p[0], p[1], cost, pc, err, want, testmap.Render(g, path))
				}
			}
		}
	}
}

func Example() {
	g, err := grid.FromRows([]string{
		"S....",
		".###.",
		"....G",
	}, grid.Options{})
	if err != nil {
		panic(err)
	}
	path, cost, expanded, found := baseline.New(g).AppendPath(nil, image.Pt(0, 0), image.Pt(4, 2))
	fmt.Println(found, len(path), fmt.Sprintf("%.4f", cost), expanded > 0)
	// Output: true 7 6.0000 true
}
