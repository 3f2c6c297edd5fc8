package navmesh_test

import (
	"bytes"
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// A mesh built offline in tiles (as navbuild -tile does), read back in a
// game with its tile size, and updated there after an edit: only the
// tiles the edit touches are built again.
func ExampleReadFor_tiles() {
	g, err := grid.FromRows([]string{
		"................",
		"................",
		"................",
		"................",
	}, grid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	opt := navmesh.Options{TileSize: 4}
	built, err := navmesh.FromGrid(g, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	var file bytes.Buffer
	if _, err := built.WriteTo(&file); err != nil {
		fmt.Println(err)
		return
	}

	m, err := navmesh.ReadFor(&file, g, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	wall := image.Rect(7, 0, 8, 3) // a wall with a gap at the bottom
	g.SetCells(wall, false)
	if m, err = m.Update(g, wall); err != nil {
		fmt.Println(err)
		return
	}
	_, res, err := navmesh.NewSearcher(m).AppendPath(nil, mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{15.5, 0.5}, navmesh.Query{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d polygons, path %v, length %.4f\n", m.NumPolys(), res.Status, res.Length)
	// Output:
	// 5 polygons, path found, length 15.8699
}
