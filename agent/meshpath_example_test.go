package agent_test

import (
	"fmt"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// One agent on a navmesh, from spawn to arrival: it plans once and walks
// its corridor without a search; when its goal moves past the end of the
// corridor, only the end is searched again, and the agent walks on. The
// map (spawn S, first goal G, moved goal M):
//
//	S...........
//	#########...
//	.G..........
//	...#########
//	...........M
func ExampleMeshPlanner() {
	g, _ := grid.FromRows([]string{
		"............",
		"#########...",
		"............",
		"...#########",
		"............",
	}, grid.Options{})
	m, _ := navmesh.FromGrid(g, navmesh.Options{})
	pl := agent.NewMeshPlanner(m)
	var p agent.MeshPath
	spawn := mgl64.Vec2{0.5, 0.5}
	pl.Plan(&p, spawn, mgl64.Vec2{1.5, 2.5})
	fmt.Println(p.Status(), "via", p.Waypoints()[1:])

	pos := spawn
	for frame := 0; ; frame++ {
		if frame == 10 {
			res, _ := pl.MoveGoal(&p, mgl64.Vec2{11.5, 4.5})
			fmt.Printf("frame %d at (%.2f, %.2f): goal moved, %d expanded, via %v\n", frame, pos.X(), pos.Y(), res.Expanded, p.Waypoints()[1:])
		}
		target, done := p.Steer(pos)
		if done {
			fmt.Printf("frame %d: arrived at (%.2f, %.2f) after %d searches\n", frame, pos.X(), pos.Y(), pl.Searches())
			break
		}
		// Move at most half a cell a frame toward the target.
		if d := target.Sub(pos); d.Len() > 0.5 {
			target = pos.Add(d.Mul(0.5 / d.Len()))
		}
		pos = target
	}
	// Output:
	// following via [[9 1] [9 2] [1.5 2.5]]
	// frame 10 at (5.49, 0.79): goal moved, 6 expanded, via [[9 1] [9 2] [3 3] [3 4] [11.5 4.5]]
	// frame 53: arrived at (11.50, 4.50) after 2 searches
}
