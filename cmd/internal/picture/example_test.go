package picture_test

import (
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/grid"
)

func Example() {
	// A 4×3 map with one wall; '#' is blocked. Small maps are scaled up to
	// at most 16×16 pixels a cell.
	g, err := grid.FromRows([]string{
		"....",
		".#..",
		"....",
	}, grid.Options{})
	if err != nil {
		panic(err)
	}
	c := picture.New(g)
	path := []image.Point{{0, 0}, {1, 0}, {2, 1}, {3, 2}}
	c.CellPath(path, c.LineWidth(false), picture.Path)
	c.Pin(path[0], picture.Start, "S")
	c.Pin(path[len(path)-1], picture.Goal, "G")
	fmt.Println(c.ScaleNote())
	fmt.Println(c.Pixel(picture.Centre(image.Pt(2, 1))))
	// Output:
	// 64×48 pixels, 16×16 a cell
	// (40,24)
}

func ExampleNewPanels() {
	// Two ways across the 4×3 map of the example above, a panel each: the
	// panel's own path in colour over the other in grey, both ends
	// pinned, and a title and a legend explaining the picture.
	g, err := grid.FromRows([]string{
		"....",
		".#..",
		"....",
	}, grid.Options{})
	if err != nil {
		panic(err)
	}
	paths := [][]image.Point{
		{{0, 0}, {1, 0}, {2, 1}, {3, 2}},
		{{0, 0}, {0, 1}, {1, 2}, {2, 2}, {3, 2}},
	}
	keys := []picture.Key{
		{Colour: picture.Path, Label: "over the wall · length 4.2"},
		{Colour: picture.Smooth, Label: "under it · length 4.4"},
	}
	panels := picture.NewPanels(g, len(paths), 2)
	for i, p := range panels {
		p.CellPath(paths[1-i], 1, picture.Ghost)
		p.CellPath(paths[i], p.LineWidth(false), keys[i].Colour)
		p.Pin(image.Pt(0, 0), picture.Start, "S")
		p.Pin(image.Pt(3, 2), picture.Goal, "G")
		p.Caption(keys[i])
	}
	c := panels[0]
	c.Title("4×3 map · 0,0 to 3,2")
	c.Legend(keys)
	c.Legend([]picture.Key{
		{Colour: picture.Start, Label: "start", Letter: "S"},
		{Colour: picture.Goal, Label: "goal", Letter: "G"},
	})
	fmt.Println(c.ScaleNote())
	fmt.Println(panels[1].Pixel(picture.Centre(image.Pt(0, 0))))
	// Output:
	// 248×188 pixels, 2 panels of 64×48, 16×16 a cell
	// (80,60)
}
