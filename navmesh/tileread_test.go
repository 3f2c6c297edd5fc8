package navmesh_test

import (
	"bytes"
	"image"
	"testing"

	"github.com/cairn-nav/cairn/navmesh"
)

// TestReadTiledUpdate: a tiled mesh written and read back with its tile
// size can be updated, and its updates equal fresh builds, areas
// included; read with another tile size, or untiled, it is refused.
func TestReadTiledUpdate(t *testing.T) {
	for seed := range int64(3) {
		g := areaGrid(seed, 70, 50)
		opt := navmesh.Options{TileSize: 16}
		built, err := navmesh.FromGrid(g, opt)
		if err != nil {
			t.Fatal(err)
		}
		data := encodeMesh(t, built, g)
		m, err := navmesh.ReadFor(bytes.NewReader(data), g, opt)
		if err != nil {
			t.Fatal(err)
		}
		sameMesh(t, built, m, g, seed)
		for _, other := range []navmesh.Options{{TileSize: 12}, {TileSize: 32}} {
			if _, err := navmesh.ReadFor(bytes.NewReader(data), g, other); err == nil {
				t.Errorf("seed %d: a mesh of tiles of 16 read as one of tiles of %d", seed, other.TileSize)
			}
		}
		whole, err := navmesh.FromGrid(g, navmesh.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := navmesh.ReadFor(bytes.NewReader(encodeMesh(t, whole, g)), g, opt); err == nil {
			t.Errorf("seed %d: an untiled mesh read as a tiled one", seed)
		}
		if _, err := navmesh.Read(bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
		editAndCompare(t, g, m, opt, seed, 10)
	}
	// A mesh read without its tile size cannot be updated.
	g := areaGrid(9, 40, 30)
	built, err := navmesh.FromGrid(g, navmesh.Options{TileSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	m, err := navmesh.ReadFor(bytes.NewReader(encodeMesh(t, built, g)), g, navmesh.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Update(g, image.Rect(0, 0, 1, 1)); err == nil {
		t.Error("a mesh read without TileSize was updated")
	}
}
