package agent_test

import (
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/go-gl/mathgl/mgl64"
)

// One agent walks from spawn to arrival across an edit: a wall goes up
// across its path halfway, Repair mends the stretch it broke, and the
// agent walks around it.
func Example() {
	g, _ := grid.FromRows([]string{
		"..........",
		"..........",
		"..........",
		"..........",
		"..........",
	}, grid.Options{})
	pl := agent.NewPlanner(g)
	var p agent.Path
	p.Lookahead = 3
	pl.Plan(&p, image.Pt(0, 2), image.Pt(9, 2))
	fmt.Println(p.Status(), len(p.Cells()), "cells")

	pos := agent.Centre(image.Pt(0, 2))
	for frame := 0; ; frame++ {
		if frame == 6 { // a wall across the path, ahead of the agent
			wall := image.Rect(6, 0, 7, 4)
			g.SetCells(wall, false)
			fmt.Println("wall up at", agent.CellOf(pos), "path", pl.Repair(&p, wall))
		}
		target, done := p.Steer(pos)
		if done {
			fmt.Println("arrived at", agent.CellOf(pos), "after", frame, "frames")
			break
		}
		// Move at most half a cell a frame toward the target.
		if d := target.Sub(pos); d.Len() > 0.5 {
			target = pos.Add(d.Mul(0.5 / d.Len()))
		}
		pos = target
		if !g.Passable(agent.CellOf(pos)) {
			fmt.Println("walked into a wall at", pos)
			return
		}
	}
	// Output:
	// following 10 cells
	// wall up at (3,2) path mended
	// arrived at (9,2) after 21 frames
}

// A queue spreads the searches of many agents over frames, under a budget
// of expansions per frame.
func ExampleQueue() {
	g, _ := grid.FromRows([]string{
		"........",
		".######.",
		"........",
	}, grid.Options{})
	q := agent.NewQueue(g)
	paths := make([]agent.Path, 3)
	q.Request(&paths[0], image.Pt(0, 0), image.Pt(7, 2), 0)
	q.Request(&paths[1], image.Pt(7, 0), image.Pt(0, 2), 5) // more urgent
	q.Request(&paths[2], image.Pt(0, 1), image.Pt(7, 1), 0)
	for frame := 0; q.Len() > 0; frame++ {
		// A search that ends by reaching its goal in a frame expands
		// nothing more in it (frame 2).
		expanded, finished := q.Run(agent.Budget{Expansions: 4})
		fmt.Println("frame", frame, "expanded", expanded, "finished", finished, "waiting", q.Len())
	}
	for i := range paths {
		fmt.Println(i, paths[i].Status(), paths[i].End())
	}
	// Output:
	// frame 0 expanded 4 finished 1 waiting 2
	// frame 1 expanded 4 finished 1 waiting 1
	// frame 2 expanded 0 finished 1 waiting 0
	// 0 following (7,2)
	// 1 following (0,2)
	// 2 following (7,1)
}

// A game whose units live in world units, not cells, converts at the
// boundary with a grid.Transform: world positions to grid coordinates
// before Steer, targets back to world units after.
func ExamplePath_Steer_worldUnits() {
	g, _ := grid.FromRows([]string{
		"......",
		".####.",
		"......",
	}, grid.Options{})
	// Cells of 2.5 world units; the map's corner at world (100, 40).
	t := grid.Transform{CellSize: 2.5, Origin: mgl64.Vec2{100, 40}}
	pl := agent.NewPlanner(g)
	var p agent.Path
	p.Lookahead = 8
	unit := mgl64.Vec2{101.25, 41.25} // the centre of cell (0,0)
	goal := mgl64.Vec2{113.75, 46.25} // the centre of cell (5,2)
	pl.Plan(&p, t.ToCell(unit), t.ToCell(goal))
	for range 100 {
		target, done := p.Steer(t.ToGrid(unit))
		if done {
			break
		}
		// Two world units a tick toward the target, in world units.
		w := t.ToWorld(target)
		if d := w.Sub(unit); d.Len() > 2 {
			w = unit.Add(d.Mul(2 / d.Len()))
		}
		unit = w
	}
	fmt.Printf("arrived at world (%.2f, %.2f), cell %v\n", unit.X(), unit.Y(), t.ToCell(unit))
	// Output:
	// arrived at world (113.75, 46.25), cell (5,2)
}
