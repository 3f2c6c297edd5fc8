package mapgen_test

import (
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/mapgen"
)

func ExampleScale() {
	g, err := grid.FromRows([]string{
		".#.",
		"...",
	}, grid.Options{})
	if err != nil {
		panic(err)
	}
	s, err := mapgen.Scale(g, 3)
	if err != nil {
		panic(err)
	}
	for y := range s.Height() {
		for x := range s.Width() {
			c := '#'
			if s.Passable(image.Pt(x, y)) {
				c = '.'
			}
			fmt.Printf("%c", c)
		}
		fmt.Println()
	}
	// Output:
	// ...###...
	// ...###...
	// ...###...
	// .........
	// .........
	// .........
}

func ExampleWorld() {
	g, err := mapgen.World(mapgen.WorldOptions{Seed: 42, Width: 1024, Height: 1024})
	if err != nil {
		panic(err)
	}
	a, b, ok := mapgen.FarPair(g)
	if !ok {
		panic("no free cell")
	}
	_, res, err := grid.NewSearcher(g).AppendPath(nil, a, b, grid.Query{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d×%d, %d regions\n", g.Width(), g.Height(), g.NumRegions())
	fmt.Printf("from %v to %v: %v, cost %.1f\n", a, b, res.Status, res.Cost)
	// Output:
	// 1024×1024, 4 regions
	// from (0,0) to (1023,1023): found, cost 1677.5
}
