package navmesh_test

import (
	"fmt"
	"image"
	"math"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

var budgets = []int{1, 5, 20}

// checkBudgeted compares a query run with a budget against the same query
// unbounded (path want, result wantRes): a budget the search does not need
// changes nothing; one it needs ends with BudgetSpent, no more expansions
// than the budget, and a path from from that ends no farther from to.
// legal checks the partial path and returns its length. It reports
// whether the partial path ends strictly nearer the goal.
func checkBudgeted(got, want []mgl64.Vec2, res, wantRes navmesh.Result, budget int, from, to mgl64.Vec2,
	legal func(path []mgl64.Vec2, end mgl64.Vec2) (float64, error)) (nearer bool, err error) {
	if wantRes.Expanded <= budget {
		if res.Status != wantRes.Status || res.Length != wantRes.Length || res.Expanded != wantRes.Expanded || !slices.Equal(got, want) {
			return false, fmt.Errorf("budget %d not needed (%d expansions): got %v %+v, want %v %+v", budget, wantRes.Expanded, got, res, want, wantRes)
		}
		return false, nil
	}
	if res.Status != core.BudgetSpent || res.Expanded > budget {
		return false, fmt.Errorf("budget %d, %d expansions unbounded: got %v after %d expansions", budget, wantRes.Expanded, res.Status, res.Expanded)
	}
	if len(got) == 0 || got[len(got)-1] != res.End {
		return false, fmt.Errorf("budget %d: partial path %v, Result.End %v", budget, got, res.End)
	}
	length, err := legal(got, res.End)
	if err != nil {
		return false, fmt.Errorf("budget %d: partial path %v: %w", budget, got, err)
	}
	if math.Abs(length-res.Length) > 1e-9*max(1, length) {
		return false, fmt.Errorf("budget %d: Result.Length %v, partial path %v is %v long", budget, res.Length, got, length)
	}
	d0, d := to.Sub(from).Len(), to.Sub(res.End).Len()
	if d > d0 {
		return false, fmt.Errorf("budget %d: partial path %v ends %v from the goal, farther than the start (%v)", budget, got, d, d0)
	}
	return d < d0, nil
}

// TestBudgetRandomGrids runs budgeted queries between cell centres on
// seeded random grids and checks them with checkBudgeted and, exactly,
// with package gridcheck.
func TestBudgetRandomGrids(t *testing.T) {
	for _, density := range []float64{0.1, 0.2, 0.3} {
		spent, nearer := make([]int, len(budgets)), make([]int, len(budgets))
		for seed := int64(1); seed <= 6; seed++ {
			g := testmap.Random(seed, 40, 30, density, grid.Options{})
			q := navmesh.NewSearcher(mustMesh(t, g))
			r := testmap.NewRand(seed)
			var want, got []mgl64.Vec2
			for _, pr := range testmap.RandomPairs(r, g, 100) {
				from, to := centre(pr[0]), centre(pr[1])
				var wantRes navmesh.Result
				var err error
				if want, wantRes, err = q.AppendPath(want[:0], from, to, navmesh.Query{}); err != nil {
					t.Fatal(err)
				}
				for i, b := range budgets {
					var res navmesh.Result
					if got, res, err = q.AppendPath(got[:0], from, to, navmesh.Query{MaxExpansions: b}); err != nil {
						t.Fatal(err)
					}
					legal := func(path []mgl64.Vec2, end mgl64.Vec2) (float64, error) { return checkPath(g, path, from, end) }
					closer, err := checkBudgeted(got, want, res, wantRes, b, from, to, legal)
					if err != nil {
						t.Fatalf("density %v seed %d %v→%v: %v\n%s", density, seed, pr[0], pr[1], err, testmap.Render(g, []image.Point{pr[0], pr[1]}))
					}
					if res.Status == core.BudgetSpent {
						spent[i]++
						if closer {
							nearer[i]++
						}
					}
				}
			}
		}
		for i, b := range budgets {
			t.Logf("density %.1f budget %2d: %d of 600 queries cut short, %d of them end nearer the goal", density, b, spent[i], nearer[i])
			// One expansion sees only the start's polygon: where the line
			// to the goal leaves it by a wall, no node beats the start.
			want := 0.9
			if b == 1 {
				want = 1.0 / 3
			}
			if spent[i] == 0 || float64(nearer[i]) < want*float64(spent[i]) {
				t.Errorf("density %.1f budget %d: %d of %d partial paths end nearer the goal, want ≥ %.0f %%", density, b, nearer[i], spent[i], 100*want)
			}
		}
	}
}

// TestBudgetPolygons runs budgeted queries on meshes of polygons with holes
// (FromPolygon). Legs between points of the 1/1024 lattice are checked
// exactly by the oracle's region; a last point off it (the foot of the
// perpendicular from the goal on a slanted portal) must be on the mesh and
// in sight of the point before.
func TestBudgetPolygons(t *testing.T) {
	for i, tc := range handPolygons() {
		if len(tc.mp) != 1 {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			c := newPolyCase(t, tc.name, tc.mp)
			m, err := navmesh.FromPolygon(tc.mp[0], navmesh.Options{})
			if err != nil {
				t.Fatal(err)
			}
			q := navmesh.NewSearcher(m)
			pts := c.points(testmap.NewRand(int64(i+1)), 120)
			legal := func(path []mgl64.Vec2, end mgl64.Vec2) (float64, error) {
				k := len(path)
				if _, err := toLattice(end); err != nil && k > 1 {
					length, err := c.r.checkPath(path[:k-1], path[0], path[k-2])
					if err != nil {
						return 0, err
					}
					if _, ok := m.Locate(end); !ok {
						return 0, fmt.Errorf("end %v is off the mesh", end)
					}
					if hit, at := m.Raycast(path[k-2], end); hit {
						return 0, fmt.Errorf("last leg blocked at %v", at)
					}
					return length + end.Sub(path[k-2]).Len(), nil
				}
				return c.r.checkPath(path, path[0], end)
			}
			var want, got []mgl64.Vec2
			spent, nearer := 0, 0
			for j := 0; j+1 < len(pts); j += 2 {
				from, to := pts[j], pts[j+1]
				var wantRes navmesh.Result
				if want, wantRes, err = q.AppendPath(want[:0], from, to, navmesh.Query{}); err != nil {
					t.Fatal(err)
				}
				for _, b := range budgets {
					var res navmesh.Result
					if got, res, err = q.AppendPath(got[:0], from, to, navmesh.Query{MaxExpansions: b}); err != nil {
						t.Fatal(err)
					}
					closer, err := checkBudgeted(got, want, res, wantRes, b, from, to, legal)
					if err != nil {
						t.Fatalf("%v→%v: %v", from, to, err)
					}
					if res.Status == core.BudgetSpent {
						spent++
						if closer {
							nearer++
						}
					}
				}
			}
			t.Logf("%d queries cut short, %d end nearer the goal", spent, nearer)
		})
	}
}

func TestBudgetAllocs(t *testing.T) {
	g := testmap.Random(7, 40, 30, 0.2, grid.Options{})
	q := navmesh.NewSearcher(mustMesh(t, g))
	pairs := testmap.RandomPairs(testmap.NewRand(7), g, 50)
	dst := make([]mgl64.Vec2, 0, 256)
	run := func() {
		for _, pr := range pairs {
			for _, b := range budgets {
				dst, _, _ = q.AppendPath(dst[:0], centre(pr[0]), centre(pr[1]), navmesh.Query{MaxExpansions: b})
			}
		}
	}
	run() // grow the buffers
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Errorf("AppendPath with a budget allocates %v times per 150 queries, want 0", n)
	}
}
