package hpa_test

import (
	"bytes"
	"fmt"
	"image"
	"strings"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

func ExampleBuildAnnotated() {
	// The map of ExampleBuildClasses: a wall across the middle with a gap
	// one cell wide on the left and one two cells wide on the right.
	rows := []string{
		"........@...............",
		"........@...............",
		"..SSSS..@.......@.......",
		"..SSSS..@.......@.......",
		"..SSSS..........@.......",
		"..SSSS..........@.......",
		"........@.......@..WWW..",
		"........@.......@..WWW..",
		"@@@@@.@@@@@@..@@@.......",
		"........@.......@.......",
		"........@.......@.......",
		"........@...............",
	}
	text := fmt.Sprintf("type octile\nheight %d\nwidth %d\nmap\n%s\n", len(rows), len(rows[0]), strings.Join(rows, "\n"))
	g, err := grid.ReadMap(strings.NewReader(text), "example.map", grid.Options{})
	if err != nil {
		panic(err)
	}
	scout := new(grid.Filter)
	scout.Exclude[grid.AreaWater] = true
	scout.Cost[grid.AreaSwamp] = 3
	names := []string{"infantry", "tank", "scout"}
	// One graph for the three classes: their nodes and edges are shared
	// (their own graphs in ExampleBuildClasses have 14, 10 and 14 nodes,
	// and 36, 24 and 36 edges). The paths are those of ExampleBuildClasses.
	a, err := hpa.BuildAnnotated(g, []hpa.Class{{Size: 1}, {Size: 2}, {Size: 1, Filter: scout}}, hpa.Options{ClusterSize: 8})
	if err != nil {
		panic(err)
	}
	q := hpa.NewAnnotatedSearcher(a)
	for i, name := range names {
		path, res, err := q.AppendPath(nil, i, image.Pt(1, 1), image.Pt(21, 10), hpa.Query{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %v, %d cells, cost %.4f\n", name, res.Status, len(path), res.Cost)
	}
	st := a.Stats()
	fmt.Printf("%d nodes (per class %v), %d edges (per class %v)\n", st.Nodes, st.ClassNodes, st.Edges, st.ClassEdges)
	// Output:
	// infantry: found, 22 cells, cost 25.1421
	// tank: found, 29 cells, cost 31.7279
	// scout: found, 23 cells, cost 25.7279
	// 14 nodes (per class [14 10 14]), 52 edges (per class [36 24 36])
}

func ExampleReadAnnotated() {
	g, err := grid.ReadMap(strings.NewReader("type octile\nheight 4\nwidth 12\nmap\n......@.....\n......@.....\n............\n......@.....\n"), "gate.map", grid.Options{})
	if err != nil {
		panic(err)
	}
	classes := []hpa.Class{{Size: 1}, {Size: 2}}
	a, err := hpa.BuildAnnotated(g, classes, hpa.Options{ClusterSize: 4})
	if err != nil {
		panic(err)
	}
	// Offline: write the graph (a tool would write a file atomically).
	var file bytes.Buffer
	if _, err := a.WriteTo(&file); err != nil {
		panic(err)
	}
	// In the game: read it back for the same map, and query.
	b, err := hpa.ReadAnnotated(&file, "gate.hpn", g)
	if err != nil {
		panic(err)
	}
	q := hpa.NewAnnotatedSearcher(b)
	for i := range classes {
		_, res, err := q.AppendPath(nil, i, image.Pt(0, 0), image.Pt(10, 2), hpa.Query{})
		if err != nil {
			panic(err)
		}
		fmt.Printf("size %d: %v\n", classes[i].Size, res.Status)
	}
	// Output:
	// size 1: found
	// size 2: unreachable
}
