package grid_test

import (
	"fmt"
	"image"
	"strings"

	"github.com/cairn-nav/cairn/grid"
)

// A filter per query: a walker avoids the swamp when it can, a boat keeps
// to the water that the map itself calls blocked.
func ExampleFilter() {
	g, _ := grid.ReadMap(strings.NewReader("type octile\nheight 3\nwidth 7\nmap\n"+
		"..SSS..\n"+
		"..@@@..\n"+
		"..WWW..\n"), "lake.map", grid.Options{})
	s := grid.NewSearcher(g)
	from, to := image.Pt(0, 1), image.Pt(6, 1)

	var avoid grid.Filter
	avoid.Cost[grid.AreaSwamp] = 3 // wading costs three times as much
	_, res, _ := s.AppendPath(nil, from, to, grid.Query{Filter: &avoid})
	fmt.Printf("walker: %v, cost %.2f\n", res.Status, res.Cost)

	var boat grid.Filter
	boat.Include[grid.AreaWater] = true
	boat.Exclude[grid.AreaSwamp] = true
	path, res, _ := s.AppendPath(nil, from, to, grid.Query{Filter: &boat})
	fmt.Printf("boat: %v, cost %.2f, through %v\n", res.Status, res.Cost, path[3])
	// Output:
	// walker: found, cost 12.83
	// boat: found, cost 6.83, through (3,2)
}
