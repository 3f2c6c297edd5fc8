package navmesh_test

import (
	"fmt"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

func ExampleSearcher_BeginSliced() {
	// A winding way from S to G (y grows down, row 0 at the top):
	//
	//	    0 1 2 3 4 5 6 7 8 9
	//	  0 S . . . # . . . . .
	//	  1 # # # . # . # # # .
	//	  2 . . . . # . . . # .
	//	  3 . # # # # # # . # .
	//	  4 . . . . . . . . # G
	//
	// A game with a budget of 3 expansions a frame for this query steps it
	// once a frame until it ends, then reads the path: AppendPath's.
	g, err := grid.FromRows([]string{
		"S...#.....",
		"###.#.###.",
		"....#...#.",
		".######.#.",
		"........#G",
	}, grid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := navmesh.FromGrid(g, navmesh.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := navmesh.NewSearcher(m)
	if err := s.BeginSliced(mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{9.5, 4.5}, navmesh.Query{}); err != nil {
		fmt.Println(err)
		return
	}
	const budget = 3 // expansions per frame
	for frame := 1; ; frame++ {
		res, _ := s.Step(budget)
		fmt.Printf("frame %d: %v, %d expanded\n", frame, res.Status, res.Expanded)
		if res.Status != core.InProgress {
			break
		}
	}
	path, res := s.AppendSlicedPath(nil)
	fmt.Printf("%v, length %.4f, path %v\n", res.Status, res.Length, path)
	// Output:
	// frame 1: in progress, 3 expanded
	// frame 2: in progress, 6 expanded
	// frame 3: in progress, 9 expanded
	// frame 4: in progress, 12 expanded
	// frame 5: found, 12 expanded
	// found, length 22.7353, path [[0.5 0.5] [3 1] [3 2] [1 3] [1 4] [7 4] [7 3] [6 2] [6 1] [9 1] [9.5 4.5]]
}
