package navmesh_test

import (
	"bytes"
	"image"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
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
		r := testmap.NewRand(seed)
		for k := range 10 {
			x, y := r.IntN(66), r.IntN(46)
			rc := image.Rect(x, y, x+1+r.IntN(4), y+1+r.IntN(4))
			g.SetCells(rc, k%3 == 2)
			if m, err = m.Update(g, rc); err != nil {
				t.Fatal(err)
			}
			fresh, err := navmesh.FromGrid(g, opt)
			if err != nil {
				t.Fatal(err)
			}
			sameMesh(t, fresh, m, g, seed)
		}
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
