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
	c.Marker(path[0], c.MarkerWidth(), picture.Start)
	c.Marker(path[len(path)-1], c.MarkerWidth(), picture.Goal)
	fmt.Println(c.ScaleNote())
	fmt.Println(c.Pixel(picture.Centre(image.Pt(2, 1))))
	// Output:
	// 64×48 pixels, 16×16 a cell
	// (40,24)
}
