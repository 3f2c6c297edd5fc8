package navmesh_test

import (
	"fmt"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

func ExampleSearcher_AppendCorridor() {
	// A wall with a gap at its east end (y grows down, row 0 at the top):
	//
	//	    0 1 2 3 4 5 6
	//	  0 S . . . . . .
	//	  1 # # # # # # .
	//	  2 G . . . . . .
	//
	// The corridor search finds the chain of polygons round the wall's end
	// (the top row, the gap, the bottom row) and pulls it taut round the
	// wall's corners (6, 1) and (6, 2).
	g, err := grid.FromRows([]string{"S......", "######.", "G......"}, grid.Options{})
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
	path, res, err := s.AppendPath(nil, mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{0.5, 2.5}, navmesh.Query{Corridor: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v, length %.4f, path %v\n", res.Status, res.Length, path)
	for _, id := range s.AppendCorridor(nil) {
		fmt.Println("polygon", m.AppendPolygon(nil, id))
	}
	// Output:
	// found, length 12.0454, path [[0.5 0.5] [6 1] [6 2] [0.5 2.5]]
	// polygon [[0 0] [0 1] [6 1] [7 1] [7 0]]
	// polygon [[6 1] [6 2] [7 2] [7 1]]
	// polygon [[0 2] [0 3] [7 3] [7 2] [6 2]]
}
