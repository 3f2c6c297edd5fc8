package main

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

// TestAnnotated: -sizes writes an annotated graph that hpa.ReadAnnotated
// reads back for the map, with one class per size and the counts printed,
// whose queries agree with the grid search of each size's grid on being
// reachable; bad -sizes, and -sizes with -png, are usage errors.
func TestAnnotated(t *testing.T) {
	out := filepath.Join(t.TempDir(), "demo.hpn")
	stdout, stderr, code := hpabuild(t, "-map", demoMap, "-o", out, "-sizes", "1,2,3", "-cluster", "16")
	if code != 0 {
		t.Fatalf("status %d: %s", code, stderr)
	}
	g, err := grid.LoadMap(demoMap, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	a, err := hpa.ReadAnnotated(bytes.NewReader(data), out, g)
	if err != nil {
		t.Fatal(err)
	}
	st := a.Stats()
	if a.Len() != 3 || a.Class(2).Size != 3 || a.ClusterSize() != 16 {
		t.Fatalf("%d classes, the third of size %d, clusters of %d", a.Len(), a.Class(2).Size, a.ClusterSize())
	}
	if got := field(t, stdout, "file size"); !strings.HasPrefix(got, strconv.Itoa(len(data))+" bytes") {
		t.Errorf("file size %q, the file has %d bytes", got, len(data))
	}
	if got := field(t, stdout, "nodes"); !strings.HasPrefix(got, strconv.Itoa(st.Nodes)+" ") {
		t.Errorf("nodes %q, the graph has %d", got, st.Nodes)
	}
	q := hpa.NewAnnotatedSearcher(a)
	from, to := image.Pt(3, 3), image.Pt(60, 30)
	for i := range a.Len() {
		cg := a.Grid(i)
		if !cg.Passable(from) || !cg.Passable(to) {
			continue
		}
		_, res, err := q.AppendPath(nil, i, from, to, hpa.Query{})
		if err != nil || (res.Status == core.Found) != cg.Connected(from, to) {
			t.Errorf("size %d: %v (%v), connected %v", a.Class(i).Size, res.Status, err, cg.Connected(from, to))
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-sizes", "1,1"}, `-sizes "1,1", want distinct sizes`},
		{[]string{"-sizes", "0"}, "want distinct sizes from 1 to 8"},
		{[]string{"-sizes", "2", "-png", filepath.Join(t.TempDir(), "a.png")}, "-png draws a graph of one class"},
	} {
		_, stderr, code := hpabuild(t, append([]string{"-map", demoMap, "-o", filepath.Join(t.TempDir(), "x.hpn")}, tc.args...)...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: status %d, %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}
