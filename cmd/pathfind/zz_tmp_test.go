package main

import (
	"testing"
	"time"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
)

func TestZZMesh(t *testing.T) {
	for _, n := range []string{"Berlin_0_1024", "Boston_0_1024", "random512-10-0", "maze512-1-0", "den520d", "AR0011SR"} {
		g, err := grid.LoadMap("../../../shared/benchmarks/movingai/"+n+".map", grid.Options{})
		if err != nil {
			t.Fatal(err)
		}
		best := time.Hour
		var m *navmesh.Mesh
		for range 5 {
			t0 := time.Now()
			m, _ = navmesh.FromGrid(g, navmesh.Options{})
			best = min(best, time.Since(t0))
		}
		t.Logf("%s %dx%d polys %d: %v", n, g.Width(), g.Height(), m.NumPolys(), best)
	}
}
