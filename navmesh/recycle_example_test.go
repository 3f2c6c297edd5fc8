package navmesh_test

import (
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// A game that edits its map swaps in each mesh Update makes and recycles
// the one it swapped out once no query uses it: the Update after writes
// into that mesh's arrays instead of new memory.
func ExampleMesh_Recycle() {
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
	cur, err := navmesh.FromGrid(g, navmesh.Options{TileSize: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	from, to := mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{15.5, 0.5}
	for i, wall := range []image.Rectangle{image.Rect(7, 0, 8, 3), image.Rect(7, 0, 8, 3), image.Rect(3, 1, 4, 4)} {
		g.SetCells(wall, i == 1) // put up, taken down, another put up
		next, err := cur.Update(g, wall)
		if err != nil {
			fmt.Println(err)
			return
		}
		// Between frames: no query runs on cur any more.
		cur.Recycle()
		cur = next
		_, res, err := navmesh.NewSearcher(cur).AppendPath(nil, from, to, navmesh.Query{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("edit %d: %d polygons, path %.2f\n", i+1, cur.NumPolys(), res.Length)
	}
	// Output:
	// edit 1: 5 polygons, path 15.87
	// edit 2: 4 polygons, path 15.00
	// edit 3: 5 polygons, path 15.00
}
