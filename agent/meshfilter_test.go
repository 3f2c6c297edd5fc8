package agent_test

import (
	"fmt"
	"image"
	"testing"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// TestMeshFilterWalk plans with a filter that excludes an area and walks
// the agents to their goals: every target and step stays on the mesh of
// the grid with that area's cells blocked (built apart, the oracle), so no
// agent sets foot in the excluded area.
func TestMeshFilterWalk(t *testing.T) {
	var f grid.Filter
	f.Exclude[1] = true
	f.Cost[2] = 3
	for seed := int64(1); seed <= 3; seed++ {
		g := testmap.RandomAreas(seed, 48, 40, 0.15)
		gx := testmap.Without(g, 1)
		kept := gridMesh(t, gx, navmesh.Options{})
		for _, opt := range []navmesh.Options{{}, {TileSize: 16}} {
			m := gridMesh(t, g, opt)
			pl := agent.NewMeshPlanner(m)
			pl.Query.Filter = &f
			cells := testmap.FreeCells(gx)
			r := testmap.NewRand(seed)
			walked := 0
			for i := range 30 {
				c0, c1 := cells[r.IntN(len(cells))], cells[r.IntN(len(cells))]
				from := mgl64.Vec2{float64(c0.X) + 0.5, float64(c0.Y) + 0.5}
				to := mgl64.Vec2{float64(c1.X) + 0.5, float64(c1.Y) + 0.5}
				var p agent.MeshPath
				res, err := pl.Plan(&p, from, to)
				if err != nil {
					t.Fatal(err)
				}
				if p.Status() != agent.Following {
					continue
				}
				for _, id := range p.Corridor() {
					if m.Area(id) == 1 {
						t.Fatalf("seed %d %+v pair %d: the corridor holds polygon %d of the excluded area", seed, opt, i, id)
					}
				}
				where := fmt.Sprintf("seed %d %+v pair %d %v → %v", seed, opt, i, from, to)
				frames := int(res.Length/0.4) + len(p.Waypoints()) + 10
				pos, done := meshWalk(t, where, kept, &p, from, 0.4, frames, nil)
				if !done || !arrived(&p, pos, to) {
					t.Fatalf("%s: at %v after %d frames (done %v, lost %v), want arrival", where, pos, frames, done, p.Lost())
				}
				if c := image.Pt(int(pos[0]), int(pos[1])); g.Area(c) == 1 {
					t.Fatalf("%s: ends in cell %v of the excluded area", where, c)
				}
				walked++
			}
			if walked < 15 {
				t.Errorf("seed %d %+v: only %d walks", seed, opt, walked)
			}
		}
	}
}
