package grid_test

import (
	"fmt"
	"image"
	"strings"

	"github.com/cairn-nav/cairn/grid"
)

func ExampleGrid_Derived() {
	// A Moving AI map with a pond ('W', blocked) and swamp ('S', free).
	// A boat goes only on water; a unit of size 2 keeps out of the swamp.
	// After an edit of g, s.UpdateDerived(g, k, f, edited) brings each
	// derived grid s up to date.
	text := "type octile\nheight 4\nwidth 8\nmap\n" +
		"..WWWW..\n" +
		"..WWWWSS\n" +
		"..WWW.SS\n" +
		"........\n"
	g, err := grid.ReadMap(strings.NewReader(text), "pond.map", grid.Options{})
	if err != nil {
		panic(err)
	}
	boat := new(grid.Filter)
	boat.Include[grid.AreaWater] = true
	boat.Exclude[grid.AreaGround], boat.Exclude[grid.AreaSwamp] = true, true
	dry := new(grid.Filter)
	dry.Exclude[grid.AreaSwamp] = true
	for _, c := range []struct {
		name string
		k    int
		f    *grid.Filter
	}{{"boat", 1, boat}, {"boat of size 2", 2, boat}, {"dry, size 2", 2, dry}} {
		s, err := g.Derived(c.k, c.f)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s (anchors '+'):\n", c.name)
		for y := range s.Height() {
			var b strings.Builder
			for x := range s.Width() {
				if s.Passable(image.Pt(x, y)) {
					b.WriteByte('+')
				} else {
					b.WriteByte('.')
				}
			}
			fmt.Println(b.String())
		}
	}
	// Output:
	// boat (anchors '+'):
	// ..++++..
	// ..++++..
	// ..+++...
	// ........
	// boat of size 2 (anchors '+'):
	// ..+++...
	// ..++....
	// ........
	// ........
	// dry, size 2 (anchors '+'):
	// +.......
	// +.......
	// +.......
	// ........
}
