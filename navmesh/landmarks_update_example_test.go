package navmesh_test

import (
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// A tiled mesh keeps its landmarks across Updates while the edits open no
// cell that was blocked when they were measured: a wall put up and taken
// down again leaves the exact search guided. Opening a cell of the map's
// own walls drops them, until the game measures them again.
func ExampleMesh_Update_landmarks() {
	g, err := grid.FromRows([]string{
		"S.......#.......",
		"######..#..####.",
		".....#..#..#....",
		".....#.....#..G.",
	}, grid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := navmesh.FromGrid(g, navmesh.Options{TileSize: 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	if m, err = m.WithLandmarks(4); err != nil {
		fmt.Println(err)
		return
	}
	from, to := mgl64.Vec2{0.5, 0.5}, mgl64.Vec2{14.5, 3.5}
	for _, e := range []struct {
		what string
		at   image.Rectangle
		free bool
	}{
		{"wall put up", image.Rect(7, 1, 8, 3), false},
		{"wall taken down", image.Rect(7, 1, 8, 3), true},
		{"map wall opened", image.Rect(8, 0, 9, 1), true},
	} {
		g.SetCells(e.at, e.free)
		next, err := m.Update(g, e.at)
		if err != nil {
			fmt.Println(err)
			return
		}
		m.Recycle()
		m = next
		_, res, err := navmesh.NewSearcher(m).AppendPath(nil, from, to, navmesh.Query{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %d landmarks, length %.4f\n", e.what, m.Landmarks(), res.Length)
	}
	// Output:
	// wall put up: 4 landmarks, length 19.1683
	// wall taken down: 4 landmarks, length 18.7607
	// map wall opened: 0 landmarks, length 17.0898
}
