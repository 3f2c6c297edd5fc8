package main

import (
	"bytes"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

const demoMap = "../../testdata/demo.map"

// hpabuild runs the command and returns its stdout, stderr and status.
func hpabuild(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

// field returns the value of a "name   value" line of the output.
func field(t *testing.T, out, name string) string {
	t.Helper()
	for line := range strings.Lines(out) {
		if rest, ok := strings.CutPrefix(line, name+" "); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("no %q line in output:\n%s", name, out)
	return ""
}

// readGraph loads the demo map and the graph file written for it.
func readGraph(t *testing.T, path string) *hpa.Graph {
	t.Helper()
	g, err := grid.LoadMap(demoMap, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hg, err := hpa.Read(f, g)
	if err != nil {
		t.Fatal(err)
	}
	return hg
}

func TestBuild(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		args                  []string
		cluster, entr, factor int
	}{
		// The demo map is small: the level factor 0 chooses 4.
		{"defaults", nil, hpa.DefaultClusterSize, hpa.DefaultMaxEntrance, 4},
		{"options", []string{"-cluster", "8", "-max-entrance", "3"}, 8, 3, 4},
		{"one cluster", []string{"-cluster", "100"}, 100, hpa.DefaultMaxEntrance, 4},
		{"level factor", []string{"-cluster", "4", "-levels", "3", "-level-factor", "2"}, 4, 4, 2}, // no entrance is longer than a cluster
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "demo.hpa")
			if tc.name == "options" { // overwrite an old file
				if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			stdout, stderr, code := hpabuild(t, append([]string{"-map", demoMap, "-o", out}, tc.args...)...)
			if code != 0 || stderr != "" {
				t.Fatalf("status %d, stderr %q", code, stderr)
			}
			hg := readGraph(t, out)
			st, opt := hg.Stats(), hg.Options()
			if opt.ClusterSize != tc.cluster || opt.MaxEntrance != tc.entr || opt.LevelFactor != tc.factor {
				t.Errorf("graph options %+v, want cluster %d, max entrance %d, level factor %d", opt, tc.cluster, tc.entr, tc.factor)
			}
			fi, err := os.Stat(out)
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range map[string]string{
				"map":          demoMap + " (64×48, 8-connected)",
				"graph":        out,
				"cluster size": strconv.Itoa(tc.cluster),
				"max entrance": strconv.Itoa(tc.entr),
				"level factor": strconv.Itoa(tc.factor),
				"clusters":     strconv.Itoa(st.Clusters),
				"entrances":    strconv.Itoa(st.Entrances),
				"nodes":        strconv.Itoa(st.Nodes),
				"edges":        strconv.Itoa(st.Edges),
			} {
				if got := field(t, stdout, name); got != want {
					t.Errorf("%s %q, want %q", name, got, want)
				}
			}
			if got := field(t, stdout, "file size"); !strings.HasPrefix(got, strconv.FormatInt(fi.Size(), 10)+" bytes") {
				t.Errorf("file size %q, want %d bytes", got, fi.Size())
			}
			if got := field(t, stdout, "build"); !strings.HasSuffix(got, " ms") {
				t.Errorf("build %q, want a time in ms", got)
			}
			if fi.Mode().Perm() != 0o644 {
				t.Errorf("mode %v, want 0644", fi.Mode().Perm())
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("directory holds %d entries, want only demo.hpa (no temp files)", len(entries))
			}
			cs := hpa.DefaultClusterSize
			if want := ((64 + cs - 1) / cs) * ((48 + cs - 1) / cs); tc.name == "defaults" && (st.Clusters != want || st.Nodes == 0) {
				t.Errorf("stats %+v, want %d clusters of the 64×48 demo map and some nodes", st, want)
			}
		})
	}
}

// TestProgress draws the progress bar into a buffer as if it were a
// terminal.
func TestProgress(t *testing.T) {
	saved := isTerminal
	t.Cleanup(func() { isTerminal = saved })
	isTerminal = func(io.Writer) bool { return true }
	out := filepath.Join(t.TempDir(), "demo.hpa")
	_, stderr, code := hpabuild(t, "-map", demoMap, "-o", out, "-cluster", "4")
	if code != 0 {
		t.Fatalf("status %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stderr, "clusters") || !strings.Contains(stderr, "/192)") {
		t.Errorf("stderr %q, want a bar of 192 clusters", stderr)
	}
	readGraph(t, out)

	// Without a terminal, nothing goes to stderr.
	isTerminal = saved
	var e bytes.Buffer
	if code := run([]string{"-map", demoMap, "-o", out}, io.Discard, &e); code != 0 || e.Len() != 0 {
		t.Errorf("status %d, stderr %q; want 0 and nothing", code, e.String())
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.hpa")
	bad := filepath.Join(dir, "bad.map")
	if err := os.WriteFile(bad, []byte("type octile\nheight 2\nwidth 3\nmap\n...\n..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.map")
	args := func(more ...string) []string { return append([]string{"-map", demoMap, "-o", out}, more...) }
	tests := []struct {
		name string
		args []string
		code int
		want string // in the stderr line
	}{
		{"no arguments", nil, 2, "-map is required"},
		{"no output", []string{"-map", demoMap}, 2, "-o is required"},
		{"unknown flag", args("-fast"), 2, "-fast"},
		{"extra argument", args("more"), 2, `unexpected argument "more"`},
		{"cluster 0", args("-cluster", "0"), 2, "-cluster 0, want 1 to 1024"},
		{"cluster huge", args("-cluster", "5000"), 2, "-cluster 5000"},
		{"cluster not a number", args("-cluster", "big"), 2, "-cluster"},
		{"max entrance 0", args("-max-entrance", "0"), 2, "-max-entrance 0, want 1 or more"},
		{"level factor 1", args("-level-factor", "1"), 2, "-level-factor 1, want 0 or 2 to 8"},
		{"level factor 9", args("-level-factor", "9"), 2, "-level-factor 9, want 0 or 2 to 8"},
		{"output is the map", []string{"-map", bad, "-o", bad}, 2, "is the map itself"},
		{"missing map", []string{"-map", missing, "-o", out}, 1, "missing.map"},
		{"malformed map", []string{"-map", bad, "-o", out}, 1, "bad.map:6"},
		// The output is checked before the build, which once ran to its end
		// and failed in the rename or in making the temporary file.
		{"output folder missing", []string{"-map", demoMap, "-o", filepath.Join(missing, "x.hpa")}, 1, "-o " + filepath.Join(missing, "x.hpa") + ": stat "},
		{"output is a folder", []string{"-map", demoMap, "-o", dir}, 1, "-o " + dir + ": is a directory, want a file"},
		{"output is the root", []string{"-map", demoMap, "-o", "/"}, 1, "-o /: names a directory"},
		{"output ends in a slash", []string{"-map", demoMap, "-o", dir + "/"}, 1, "names a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := hpabuild(t, tc.args...)
			if code != tc.code {
				t.Errorf("status %d, want %d", code, tc.code)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "hpabuild: ") {
				t.Errorf("stderr %q, want one line starting with hpabuild: ", stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q, want it to mention %q", stderr, tc.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed build left %s: %v", out, err)
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "-help"} {
		stdout, stderr, code := hpabuild(t, arg)
		if code != 0 || stderr != "" {
			t.Fatalf("%s: status %d, stderr %q", arg, code, stderr)
		}
		for _, want := range []string{"usage: hpabuild", "-map", "-o", "-cluster", "-max-entrance", fmt.Sprintf("(default %d)", hpa.DefaultClusterSize), "(default 6)", "-levels", "-level-factor", "-png"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("%s: help lacks %q:\n%s", arg, want, stdout)
			}
		}
	}
}

// readPNG decodes the PNG file at path.
func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	img, err := picture.ReadPNG(path)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

var colourNames = map[picture.Colour]string{
	picture.Border: "cluster border", picture.LevelBorder: "higher-level border", picture.Edge: "edge",
	picture.Node1: "level-1 node", picture.Node2: "level-2 node", picture.Node3: "level-3 node",
}

// writeOpenMap writes a Moving AI map of w×h free cells to dir and returns
// its path.
func writeOpenMap(t *testing.T, dir string, w, h int) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "type octile\nheight %d\nwidth %d\nmap\n", h, w)
	for range h {
		b.WriteString(strings.Repeat(".", w) + "\n")
	}
	path := filepath.Join(dir, "open.map")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPNG(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name  string
		args  []string
		size  image.Point // of the picture
		note  string      // in the picture line, after the file
		want  []picture.Colour
		avoid []picture.Colour
	}{
		{"clusters of 8", []string{"-map", demoMap, "-cluster", "8"}, image.Pt(1024, 768), "(1024×768 pixels, 16×16 a cell)",
			[]picture.Colour{picture.Border, picture.Edge, picture.Node1}, []picture.Colour{picture.LevelBorder, picture.Node2}},
		// Level-2 clusters of 16 cells, level 3 of 64: one, without borders.
		{"three levels", []string{"-map", demoMap, "-cluster", "4", "-levels", "3"}, image.Pt(1024, 768), "(1024×768 pixels, 16×16 a cell)",
			[]picture.Colour{picture.Border, picture.LevelBorder, picture.Edge, picture.Node1, picture.Node2}, nil},
		// 600 cells a side: one pixel a cell, too few for the edges.
		{"no edges", []string{"-map", writeOpenMap(t, dir, 600, 40), "-cluster", "20"}, image.Pt(600, 40), "(600×40 pixels, 1×1 a cell; edges left out below 2 pixels a cell)",
			[]picture.Colour{picture.Border, picture.Node1}, []picture.Colour{picture.Edge}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_"))
			stdout, stderr, code := hpabuild(t, append(tc.args, "-o", out+".hpa", "-png", out+".png")...)
			if code != 0 || stderr != "" {
				t.Fatalf("status %d, stderr %q", code, stderr)
			}
			if got, want := field(t, stdout, "picture"), out+".png "+tc.note; got != want {
				t.Errorf("picture line %q, want %q", got, want)
			}
			img := readPNG(t, out+".png")
			if b := img.Bounds(); b.Size() != tc.size {
				t.Errorf("picture is %v, want %v", b, tc.size)
			}
			for _, col := range tc.want {
				if picture.Count(img, col) == 0 {
					t.Errorf("no %s pixels", colourNames[col])
				}
			}
			for _, col := range tc.avoid {
				if n := picture.Count(img, col); n > 0 {
					t.Errorf("%d %s pixels, want none", n, colourNames[col])
				}
			}
		})
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

func TestPNGErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.hpa")
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		png   string
		code  int
		want  string // in the stderr line
		graph bool   // whether the graph file is written
	}{
		{"missing folder", filepath.Join(dir, "missing", "g.png"), 1, "-png " + filepath.Join(dir, "missing", "g.png"), false},
		{"folder is a file", filepath.Join(file, "g.png"), 1, "not a directory", false},
		{"the graph file", out, 2, "-png " + out + " is the graph file too", false},
		{"the map", demoMap, 2, "-png " + demoMap + " is the map itself", false},
		{"target is a folder", dir, 1, "-png " + dir + ": is a directory", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(out)
			stdout, stderr, code := hpabuild(t, "-map", demoMap, "-o", out, "-png", tc.png)
			if code != tc.code {
				t.Errorf("status %d, want %d", code, tc.code)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "hpabuild: ") || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q, want one line mentioning %q", stderr, tc.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if _, err := os.Stat(out); (err == nil) != tc.graph {
				t.Errorf("graph file written: %v, want %v", err == nil, tc.graph)
			}
		})
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(leftovers) > 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

// TestTiledLayer builds the graph of a Tiled map of three tile layers:
// refused until -layer names the walls' layer.
func TestTiledLayer(t *testing.T) {
	tmx := filepath.Join("..", "..", "grid", "testdata", "tiled", "walls-csv.tmx")
	out := filepath.Join(t.TempDir(), "t.hpa")
	if _, stderr, code := hpabuild(t, "-map", tmx, "-o", out, "-cluster", "4"); code != 1 || !strings.Contains(stderr, "layer") {
		t.Errorf("no -layer: exit %d, %q; want 1 and a word on the layers", code, stderr)
	}
	if _, stderr, code := hpabuild(t, "-map", tmx, "-layer", "walls", "-o", out, "-cluster", "4"); code != 0 {
		t.Errorf("-layer walls: exit %d, %q", code, stderr)
	}
	if _, stderr, code := hpabuild(t, "-map", tmx, "-threshold", "3", "-o", out); code != 2 {
		t.Errorf("-threshold 3: exit %d, %q; want a usage error", code, stderr)
	}
}
