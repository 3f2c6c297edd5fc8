package hpa_test

import (
	"fmt"
	"image"
	"slices"
	"strings"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

// longMap is a map of 5×2 clusters of 8×8 cells. The wall down the
// middle has a gap one cell wide near the top, and one two cells wide near
// the bottom, the only one a unit two cells wide gets through.
var longMap = []string{
	"...................@....................",
	"...................@....................",
	"........................................",
	"...................@....................",
	"...................@....................",
	"....@@@@@@@@@@.....@....@@@@@@@@@@......",
	"...................@....................",
	"...................@....................",
	"...................@....................",
	"........................................",
	"........................................",
	"...................@....................",
}

func readLongMap() (*grid.Grid, error) {
	text := fmt.Sprintf("type octile\nheight %d\nwidth %d\nmap\n%s\n", len(longMap), len(longMap[0]), strings.Join(longMap, "\n"))
	return grid.ReadMap(strings.NewReader(text), "long.map", grid.Options{})
}

// An agent starts walking as soon as the abstract path is known: Begin
// searches the abstract graph, and Next refines the path into cells a few
// at a time, as the agent needs them.
func ExampleSearcher_Begin() {
	g, err := readLongMap()
	if err != nil {
		panic(err)
	}
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8})
	if err != nil {
		panic(err)
	}
	sr := hpa.NewSearcher(hg)
	from, to := image.Pt(0, 0), image.Pt(38, 0)
	res, err := sr.Begin(from, to, hpa.Query{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("begin: %v, abstract cost %.2f\n", res.Status, res.Cost)
	// Ask for 10 cells at a time: Next refines whole abstract edges, so
	// it may give a few more.
	var cells []image.Point
	for {
		n := len(cells)
		if cells, res, err = sr.Next(cells, 10); err != nil {
			panic(err)
		}
		fmt.Printf("next: %d cells, %v\n", len(cells)-n, res.Status)
		if res.Status != core.InProgress {
			break
		}
	}
	fmt.Printf("%d cells, cost %.2f\n", len(cells), res.Cost)
	whole, _, err := sr.AppendPath(nil, from, to, hpa.Query{})
	if err != nil {
		panic(err)
	}
	fmt.Println("same cells as AppendPath:", slices.Equal(cells, whole))
	// Output:
	// begin: found, abstract cost 41.31
	// next: 16 cells, in progress
	// next: 16 cells, in progress
	// next: 7 cells, found
	// 39 cells, cost 41.31
	// same cells as AppendPath: true
}

// A game with a budget per frame runs a query a slice at a time:
// BeginSliced, then Step with a bounded number of expansions each frame
// until the searches end, then Next for the cells.
func ExampleSearcher_BeginSliced() {
	g, err := readLongMap()
	if err != nil {
		panic(err)
	}
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8})
	if err != nil {
		panic(err)
	}
	sr := hpa.NewSearcher(hg)
	if err := sr.BeginSliced(image.Pt(0, 0), image.Pt(38, 0), hpa.Query{}); err != nil {
		panic(err)
	}
	steps := 0
	for {
		// A frame's share: at most 4 expansions of a graph search; the
		// searches that join the ends to the graph run whole.
		res, err := sr.Step(4)
		if err != nil {
			panic(err)
		}
		steps++
		if res.Status != core.InProgress {
			fmt.Printf("%v after %d steps, %d expanded\n", res.Status, steps, res.Expanded)
			break
		}
	}
	cells, res, err := sr.Next(nil, 0)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%v: %d cells, cost %.2f\n", res.Status, len(cells), res.Cost)
	// Output:
	// found after 4 steps, 28 expanded
	// found: 39 cells, cost 41.31
}

// The sliced query of an annotated graph takes the unit's class: a tank
// two cells wide and a soldier share one graph, and each query is run a
// slice at a time.
func ExampleAnnotatedSearcher_BeginSliced() {
	g, err := readLongMap()
	if err != nil {
		panic(err)
	}
	a, err := hpa.BuildAnnotated(g, []hpa.Class{{Size: 1}, {Size: 2}}, hpa.Options{ClusterSize: 8})
	if err != nil {
		panic(err)
	}
	sr := hpa.NewAnnotatedSearcher(a)
	for class, name := range []string{"soldier", "tank"} {
		if err := sr.BeginSliced(class, image.Pt(0, 0), image.Pt(38, 0), hpa.Query{}); err != nil {
			panic(err)
		}
		steps := 0
		for {
			res, err := sr.Step(4)
			if err != nil {
				panic(err)
			}
			steps++
			if res.Status != core.InProgress {
				break
			}
		}
		cells, res, err := sr.Next(nil, 0)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: %d steps, %v, %d cells, cost %.2f\n", name, steps, res.Status, len(cells), res.Cost)
	}
	// Output:
	// soldier: 4 steps, found, 39 cells, cost 40.49
	// tank: 5 steps, found, 46 cells, cost 49.56
}
