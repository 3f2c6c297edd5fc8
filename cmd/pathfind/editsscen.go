package main

import (
	"fmt"
	"time"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
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
	var meshT, gridT []time.Duration
	for i, s := range scens {
		t0 := time.Now()
		_, mr, err := ms.AppendPath(nil, picture.Centre(s.Start), picture.Centre(s.Goal), navmesh.Query{})
		meshT = append(meshT, time.Since(t0))
		if err != nil {
			return fmt.Errorf("-scen %s: scenario %d: navmesh: %w", path, i, err)
		}
		t0 = time.Now()
		_, gr, err := gs.AppendPath(nil, s.Start, s.Goal, grid.Query{})
		gridT = append(gridT, time.Since(t0))
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
	sum.ScenMeshMedianUS, sum.ScenGridMedianUS = medianUS(meshT), medianUS(gridT)
	sum.Scenarios = len(scens)
	return nil
}
