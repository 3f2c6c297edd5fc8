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

func ExampleQuery_onePass() {
	// A thin wall (column 6, rows 2 to 6) between the ends, at the centres
	// of cells (5, 2) and (9, 2): the way round its top is short, the way
	// round its foot long. Round the top the corridor crosses the strip
	// along the map's top edge, entered by a portal 6 units long and left
	// by one 15 long, whose midpoints lie far west and east of the wall:
	// the chain of midpoints is shorter round the foot, and one pass takes
	// that corridor. The second pass stands each crossing at the point of
	// its portal nearest the one before, finds the corridor round the top,
	// and the shorter pulled path is kept, here the exact search's.
	g, err := grid.FromRows([]string{
		"........................",
		"........................",
		"......#...............##",
		"......#.................",
		"......#.................",
		"......#.................",
		"......#.................",
		"........................",
		"........................",
		"........................",
		".######..............###",
		".######...........######",
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
	from, to := mgl64.Vec2{5.5, 2.5}, mgl64.Vec2{9.5, 2.5}
	for _, q := range []navmesh.Query{{Corridor: true, OnePass: true}, {Corridor: true}, {}} {
		path, res, err := s.AppendPath(nil, from, to, q)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("corridor %v, one pass %v: length %.3f, path %v\n", q.Corridor, q.OnePass, res.Length, path)
	}
	// Output:
	// corridor true, one pass true: length 10.676, path [[5.5 2.5] [6 7] [7 7] [9.5 2.5]]
	// corridor true, one pass false: length 4.257, path [[5.5 2.5] [6 2] [7 2] [9.5 2.5]]
	// corridor false, one pass false: length 4.257, path [[5.5 2.5] [6 2] [7 2] [9.5 2.5]]
}
