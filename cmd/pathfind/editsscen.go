package main

import (
	"fmt"
	"slices"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
)

// timeScenarios answers each scenario of the file at path after the
// edits: with the exact search of mesh, the navmesh that Update made, from
// centre to centre, and with the grid search (jump points where g has its
// table) on g; and sets sum's medians of each. A mesh path longer than
// the grid's (the 8-connected optimum, which an any-angle path is never
// longer than), or none where the grid finds one, is an error: the timing
// would be of a wrong answer.
func timeScenarios(path string, g *grid.Grid, mesh *navmesh.Mesh, sum *editsSummary) error {
	scens, err := grid.LoadScenarios(path)
	if err != nil {
		return err
	}
	if len(scens) == 0 {
		return fmt.Errorf("-scen %s: no scenarios", path)
	}
	for i, s := range scens {
		if err := s.Check(g); err != nil {
			return fmt.Errorf("-scen %s: scenario %d does not fit the map: %w", path, i, err)
		}
	}
	ms, gs := navmesh.NewSearcher(mesh), grid.NewSearcher(g)
	var meshT, gridT []float64
	centre := func(x, y int) mgl64.Vec2 { return mgl64.Vec2{float64(x) + 0.5, float64(y) + 0.5} }
	for i, s := range scens {
		t0 := time.Now()
		_, mr, err := ms.AppendPath(nil, centre(s.Start.X, s.Start.Y), centre(s.Goal.X, s.Goal.Y), navmesh.Query{})
		meshT = append(meshT, micros(time.Since(t0)))
		if err != nil {
			return fmt.Errorf("-scen %s: scenario %d: navmesh: %w", path, i, err)
		}
		t0 = time.Now()
		_, gr, err := gs.AppendPath(nil, s.Start, s.Goal, grid.Query{})
		gridT = append(gridT, micros(time.Since(t0)))
		if err != nil {
			return fmt.Errorf("-scen %s: scenario %d: grid: %w", path, i, err)
		}
		if (mr.Status == core.Found) != (gr.Status == core.Found) {
			return fmt.Errorf("-scen %s: scenario %d: navmesh %v, grid %v", path, i, mr.Status, gr.Status)
		}
		if mr.Status == core.Found && !(mr.Length <= gr.Cost*(1+1e-9)) {
			return fmt.Errorf("-scen %s: scenario %d: navmesh length %g against the grid's %g", path, i, mr.Length, gr.Cost)
		}
	}
	sum.ScenMeshMedianUS, sum.ScenGridMedianUS = median(meshT), median(gridT)
	sum.Scenarios = len(scens)
	return nil
}

// median returns the median of xs, which it sorts.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}
