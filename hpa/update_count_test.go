package hpa_test

import (
	"bytes"
	"image"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

// TestUpdateEntranceCount: an edit that splits an entrance longer than
// MaxEntrance into two of one cell each, at its ends, leaves the border's
// transitions as they were but not its entrance count, which Update must
// count again (and the file, which holds it, must equal a fresh build's).
func TestUpdateEntranceCount(t *testing.T) {
	rows := []string{
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"################",
	}
	g, err := grid.FromRows(rows, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opt := hpa.Options{ClusterSize: 8, MaxEntrance: 6, Levels: 1}
	hg, err := hpa.Build(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	if e := hg.Stats().Entrances; e != 1 {
		t.Fatalf("%d entrances before the edit, want 1", e)
	}
	// Leave the border open at rows 0 and 6 only: two entrances, with the
	// transitions of the one before.
	edit := image.Rect(7, 1, 8, 6)
	g.SetCells(edit, false)
	if _, err := hg.Update(g, edit); err != nil {
		t.Fatal(err)
	}
	fresh, err := hpa.Build(g, opt)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := hg.Stats(), fresh.Stats(); a != b {
		t.Fatalf("after the edit: %+v, a fresh build %+v", a, b)
	}
	if !bytes.Equal(fileBytes(t, hg), fileBytes(t, fresh)) {
		t.Fatal("the updated graph writes other bytes than a fresh build")
	}
}
