package navmesh_test

import (
	"fmt"
	"strings"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

func ExampleQuery_filter() {
	// A swamp (S) across the middle of a map, with ground round it; the
	// letters come from a Moving AI map, whose reader gives each cell its
	// area type.
	//
	//	    0 1 2 3 4 5 6 7
	//	  0 . . . . . . . .
	//	  1 . S S S S S S .
	//	  2 . S S S S S S .
	//	  3 . . . . . . . .
	g, err := grid.ReadMap(strings.NewReader("type octile\nheight 4\nwidth 8\nmap\n........\n.SSSSSS.\n.SSSSSS.\n........\n"), "swamp.map", grid.Options{})
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
	from, to := mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{7.5, 3.5}
	show := func(what string, q navmesh.Query) {
		path, res, err := s.AppendPath(nil, from, to, q)
		if err != nil {
			fmt.Printf("%s: %v\n", what, err)
			return
		}
		fmt.Printf("%s: length %.4f, path %v\n", what, res.Length, path)
	}
	// Round the swamp, by its south-west or its north-east corner, is as
	// long either way; each search takes one of them.
	show("straight across", navmesh.Query{})
	var keepOut grid.Filter
	keepOut.Exclude[grid.AreaSwamp] = true
	show("swamp excluded", navmesh.Query{Filter: &keepOut})
	var dear grid.Filter
	dear.Cost[grid.AreaSwamp] = 5
	show("swamp ×5, corridor", navmesh.Query{Filter: &dear, Corridor: true})
	show("swamp ×5, exact", navmesh.Query{Filter: &dear})
	// Output:
	// straight across: length 7.6158, path [[0.5 0.5] [7.5 3.5]]
	// swamp excluded: length 9.0687, path [[0.5 0.5] [1 3] [7.5 3.5]]
	// swamp ×5, corridor: length 9.0687, path [[0.5 0.5] [7 1] [7.5 3.5]]
	// swamp ×5, exact: navmesh: the exact search cannot weigh areas by cost: use Query.Corridor for a filter's cost multipliers
}
