package agent_test

import (
	"fmt"
	"image"
	"strings"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

// swampMap is the examples' map: a field with a swamp across its middle.
const swampMap = `type octile
height 6
width 40
map
........................................
........................................
....SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS....
....SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS....
........................................
........................................
`

// Units of two sizes and a swamp-shy scout share one map through
// hpa.Classes: each class's agents get a queue on its grid that plans by
// HPA* on its graph, and after an edit one Update brings every class up
// to date, Changed(i) saying what each class's agents repair against.
func ExampleQueue_classes() {
	g, err := grid.ReadMap(strings.NewReader(swampMap), "swamp.map", grid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var shy grid.Filter
	shy.Cost[grid.AreaSwamp] = 4
	c, err := hpa.BuildClasses(g, []hpa.Class{{Size: 1}, {Size: 2}, {Size: 1, Filter: &shy}}, hpa.Options{ClusterSize: 8})
	if err != nil {
		fmt.Println(err)
		return
	}
	queues := make([]*agent.Queue, c.Len())
	planners := make([]*agent.Planner, c.Len())
	paths := make([]agent.Path, c.Len())
	for i := range queues {
		queues[i], planners[i] = agent.NewQueue(c.Grid(i)), agent.NewPlanner(c.Grid(i))
		if err := queues[i].UseGraph(c.Graph(i)); err != nil {
			fmt.Println(err)
			return
		}
		queues[i].Request(&paths[i], image.Pt(0, 3), image.Pt(38, 3), 0)
		queues[i].Run(agent.Budget{})
	}
	for i := range paths {
		cl := c.Class(i)
		fmt.Printf("class %d (size %d, filter %v): %v, %d cells\n", i, cl.Size, cl.Filter != nil, paths[i].Status(), len(paths[i].Cells()))
	}
	// The scout goes round the swamp by the north; a wall goes up there.
	wall := image.Rect(20, 0, 21, 2)
	g.SetCells(wall, false)
	if err := c.Update(wall); err != nil {
		fmt.Println(err)
		return
	}
	for i := range paths {
		fmt.Printf("class %d: %v changed, path %v\n", i, c.Changed(i), planners[i].Repair(&paths[i], c.Changed(i)))
	}
	// Output:
	// class 0 (size 1, filter false): following, 39 cells
	// class 1 (size 2, filter false): following, 39 cells
	// class 2 (size 1, filter true): following, 47 cells
	// class 0: (20,0)-(21,2) changed, path intact
	// class 1: (19,0)-(21,2) changed, path intact
	// class 2: (20,0)-(21,2) changed, path mended
}

// The same units share one annotated graph (hpa.BuildAnnotated): one set
// of abstract nodes and edges, each marked with the classes it serves.
// Each class's queue plans through it by sliced queries, and one Update
// brings the graph and every class's grid up to date.
func ExampleQueue_UseAnnotated() {
	g, err := grid.ReadMap(strings.NewReader(swampMap), "swamp.map", grid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var shy grid.Filter
	shy.Cost[grid.AreaSwamp] = 4
	a, err := hpa.BuildAnnotated(g, []hpa.Class{{Size: 1}, {Size: 2}, {Size: 1, Filter: &shy}}, hpa.Options{ClusterSize: 8})
	if err != nil {
		fmt.Println(err)
		return
	}
	queues := make([]*agent.Queue, a.Len())
	planners := make([]*agent.Planner, a.Len())
	paths := make([]agent.Path, a.Len())
	for i := range queues {
		queues[i], planners[i] = agent.NewQueue(a.Grid(i)), agent.NewPlanner(a.Grid(i))
		if err := queues[i].UseAnnotated(a, i); err != nil {
			fmt.Println(err)
			return
		}
		queues[i].Request(&paths[i], image.Pt(0, 3), image.Pt(38, 3), 0)
		for queues[i].Len() > 0 {
			queues[i].Run(agent.Budget{Expansions: 20}) // a frame's share
		}
	}
	for i := range paths {
		fmt.Printf("class %d: %v, %d cells\n", i, paths[i].Status(), len(paths[i].Cells()))
	}
	wall := image.Rect(20, 0, 21, 2)
	g.SetCells(wall, false)
	if err := a.Update(wall); err != nil {
		fmt.Println(err)
		return
	}
	for i := range paths {
		fmt.Printf("class %d: %v changed, path %v\n", i, a.Changed(i), planners[i].Repair(&paths[i], a.Changed(i)))
	}
	// Output:
	// class 0: following, 39 cells
	// class 1: following, 39 cells
	// class 2: following, 47 cells
	// class 0: (20,0)-(21,2) changed, path intact
	// class 1: (19,0)-(21,2) changed, path intact
	// class 2: (20,0)-(21,2) changed, path mended
}
