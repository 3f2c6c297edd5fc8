package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/mapgen"
)

// TestEdits runs edits on a generated world with every stage and the
// check, and on the small wall map.
func TestEdits(t *testing.T) {
	dir := t.TempDir()
	g, err := mapgen.World(mapgen.WorldOptions{Width: 200, Height: 200, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := grid.WriteMap(&buf, g); err != nil {
		t.Fatal(err)
	}
	world := writeFile(t, dir, "world.map", buf.String())
	out, errOut, code := pathfind(t, "edits", "-map", world, "-n", "6", "-wall", "5x2", "-hpa", "-navmesh", "-check", "-json")
	if code != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	var sum editsSummary
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sum); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if sum.Edits != 12 || sum.Wall != "5x2" || !sum.Checked || sum.HPA == nil || sum.Navmesh == nil || sum.GraphNodes == 0 {
		t.Errorf("summary %+v", sum)
	}
	for name, st := range map[string]*editStage{"grid": &sum.Grid, "hpa": sum.HPA, "navmesh": sum.Navmesh} {
		if st == nil || !(st.MedianMS > 0) || st.MaxMS < st.MedianMS {
			t.Errorf("%s: %+v", name, st)
		}
	}

	m := writeFile(t, dir, "wall10.map", wall10)
	out, errOut, code = pathfind(t, "edits", "-map", m, "-n", "2", "-wall", "3x1", "-check")
	if code != 0 || errOut != "" {
		t.Fatalf("wall10: status %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"edits       4 in place (2 walls of 3x1", "check       fresh builds agree"} {
		if !strings.Contains(out, want) {
			t.Errorf("wall10: output lacks %q:\n%s", want, out)
		}
	}
}

func TestEditsErrors(t *testing.T) {
	dir := t.TempDir()
	m := writeFile(t, dir, "wall10.map", wall10)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"edits"}, 2, "edits: -map is required"},
		{[]string{"edits", "-map", m, "-n", "0"}, 2, "-n 0, want 1 or more"},
		{[]string{"edits", "-map", m, "-wall", "3"}, 2, `-wall "3", want WxH`},
		{[]string{"edits", "-map", m, "-wall", "0x2"}, 2, `-wall "0x2", want WxH`},
		{[]string{"edits", "-map", m, "-wall", "11x1"}, 2, "-wall 11x1 does not fit the 10×10 map"},
		{[]string{"edits", "-map", m, "-graph", "x.hpa"}, 2, "-graph needs -hpa"},
		{[]string{"edits", "-map", m, "-wall", "10x10"}, 1, "found free places for 0 of 20 walls of 10x10 cells"},
		{[]string{"edits", "-map", filepath.Join(dir, "none.map")}, 1, "no such file"},
	} {
		_, errOut, code := pathfind(t, tc.args...)
		if code != tc.code || !strings.HasPrefix(errOut, "pathfind: ") || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
}
