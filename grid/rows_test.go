package grid_test

import (
	"image"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

func TestFromRows(t *testing.T) {
	g, err := grid.FromRows([]string{"S.#", "@TG"}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[image.Point]bool{{0, 0}: true, {1, 0}: true, {2, 0}: false, {0, 1}: false, {1, 1}: false, {2, 1}: true}
	for p, free := range want {
		if g.Passable(p) != free {
			t.Errorf("Passable(%v) = %v, want %v", p, !free, free)
		}
	}
	for _, tc := range []struct {
		name string
		rows []string
		want string
	}{
		{"no rows", nil, "no rows"},
		{"ragged", []string{"...", ".."}, "row 1 has 2 cells, want 3"},
		{"control character", []string{".\t."}, "row 0, column 1"},
		{"empty rows", []string{""}, "positive width"},
	} {
		if _, err := grid.FromRows(tc.rows, grid.Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestMovesMatchCanStep(t *testing.T) {
	for _, conn := range []grid.Connectivity{grid.Eight, grid.Four} {
		g := testmap.Random(5, 30, 20, 0.3, grid.Options{Connectivity: conn})
		for y := -1; y <= g.Height(); y++ {
			for x := -1; x <= g.Width(); x++ {
				p := image.Pt(x, y)
				m := g.Moves(p)
				for d := range 8 {
					s := grid.Step(d)
					if grid.StepDir(s) != d {
						t.Fatalf("StepDir(%v) = %d, want %d", s, grid.StepDir(s), d)
					}
					if got, want := m&(1<<d) != 0, g.CanStep(p, p.Add(s)); got != want {
						t.Fatalf("%v: Moves(%v) bit %d (step %v) = %v, CanStep says %v", conn, p, d, s, got, want)
					}
				}
			}
		}
	}
}
