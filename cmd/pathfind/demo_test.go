package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
)

func TestDemo(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "demo.png")
	stdout, errOut, code := pathfind(t, "demo", "-size", "256", "-seed", "3", "-o", out)
	if code != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	for _, name := range []string{"astar", "astar -plain", "hpa -smooth", "navmesh"} {
		row := tableRow(t, stdout, name)
		if len(row) < 6 || row[len(row)-1] == "" {
			t.Errorf("row %q: %q, want time, runs, expansions, length and colour", name, row)
		}
	}
	if got := field(t, stdout, "world"); !strings.HasPrefix(got, "256×256 cells, seed 3") {
		t.Errorf("world line %q", got)
	}
	img := readPNG(t, out)
	b := img.Bounds()
	// Panels of 512×512 pixels, 2×2 a cell, two a row, with a gap of 8
	// between them.
	if got, want := field(t, stdout, "picture"), fmt.Sprintf("%s (1032×%d pixels, 4 panels of 512×512, 2×2 a cell;", out, b.Dy()); !strings.HasPrefix(got, want) {
		t.Errorf("picture line %q, want it to start %q", got, want)
	}
	// From the top: the title, the captions of the first two panels, the
	// panels; the legends below.
	top, bottom := bands(t, img)
	if b.Dx() != 1032 || top < 16 || b.Dy()-bottom < 2*16 {
		t.Fatalf("picture is %v with panels in rows %d to %d, want 1032 wide, bands of text above and below", b, top, bottom)
	}
	checkTitle(t, img, 20) // the title's capitals; the captions start lower
	methods := []picture.Colour{picture.Path, picture.Plain, picture.Smooth, picture.Navmesh}
	for _, col := range methods[:2] {
		if countIn(img, 0, top, col) == 0 {
			t.Errorf("no %s swatch in the captions of the first row of panels", colourNames[col])
		}
	}
	for _, col := range append(methods, picture.Ghost) {
		if countIn(img, top, bottom, col) == 0 {
			t.Errorf("no %s in the panels", colourNames[col])
		}
	}
	// A pin each at start and goal in each panel, about 250 pixels each.
	for _, col := range []picture.Colour{picture.Start, picture.Goal} {
		if n := countIn(img, top, bottom, col); n < 4*150 {
			t.Errorf("%d pixels of %s in the panels, want a pin in each of four", n, colourNames[col])
		}
	}
	from, to, ok := strings.Cut(field(t, stdout, "query"), " to ")
	if !ok {
		t.Fatalf("query line %q", field(t, stdout, "query"))
	}
	p, _ := parsePoint(from)
	q, _ := parsePoint(strings.Fields(to)[0])
	for _, at := range []image.Point{{0, top}, {520, top}, {0, top + 512 + 8 + 22}, {520, top + 512 + 8 + 22}} {
		// Pins near the edge move inwards by up to their radius and halo.
		checkPin(t, img, clampPin(p.Mul(2).Add(at), at), picture.Start)
		checkPin(t, img, clampPin(q.Mul(2).Add(at), at), picture.Goal)
	}
	if n := countIn(img, bottom, b.Dy(), picture.Text); n < 500 {
		t.Errorf("%d text pixels in the legends, want their labels", n)
	}
	for _, col := range append(methods, picture.Start, picture.Goal, picture.Ghost, picture.Blocked) {
		if countIn(img, bottom, b.Dy(), col) == 0 {
			t.Errorf("no %s swatch in the legends", colourNames[col])
		}
	}
}

// clampPin moves the centre of a pin on pixel p inside the 512×512 panel
// from at by the pin's radius and halo, as picture.Canvas.Pin does.
func clampPin(p, at image.Point) image.Point {
	const r = 10 + 2
	return image.Pt(min(max(p.X, at.X+r), at.X+511-r), min(max(p.Y, at.Y+r), at.Y+511-r))
}

// TestDemoDeterministic checks that without times the demo's picture
// depends only on the world, byte for byte, and that with them only its
// legends change.
func TestDemoDeterministic(t *testing.T) {
	dir := t.TempDir()
	var files [3]string
	for i, times := range []string{"-times=false", "-times=false", "-times=true"} {
		files[i] = filepath.Join(dir, fmt.Sprintf("d%d.png", i))
		if _, errOut, code := pathfind(t, "demo", "-size", "128", "-seed", "5", times, "-o", files[i]); code != 0 {
			t.Fatalf("status %d, stderr %q", code, errOut)
		}
	}
	a, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(files[1])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("two pictures of seed 5 without times differ")
	}
	untimed, timed := readPNG(t, files[0]), readPNG(t, files[2])
	if untimed.Bounds() != timed.Bounds() {
		t.Fatalf("the picture with times is %v, without %v", timed.Bounds(), untimed.Bounds())
	}
	_, bottom := bands(t, untimed)
	r := untimed.Bounds()
	for y := r.Min.Y; y < bottom; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if u, v := untimed.At(x, y), timed.At(x, y); u != v {
				t.Fatalf("pixel (%d, %d) above the legends is %v with times, %v without", x, y, v, u)
			}
		}
	}
}

// tableRow returns the fields of the demo table's row for method name: the
// method, then the columns.
func tableRow(t *testing.T, out, name string) []string {
	t.Helper()
	for line := range strings.Lines(out) {
		rest, ok := strings.CutPrefix(line, name+" ")
		if ok && strings.HasPrefix(rest, " ") {
			// Columns are right-aligned: time and unit, runs, expanded,
			// length, vs astar and unit, colour.
			return append([]string{name}, strings.Fields(rest)...)
		}
	}
	t.Fatalf("no %q row in the table:\n%s", name, out)
	return nil
}

func TestDemoProgress(t *testing.T) {
	bar := forceTerminal(t, true)
	_, errOut, code := pathfind(t, "demo", "-size", "128", "-o", filepath.Join(t.TempDir(), "d.png"))
	if code != 0 || errOut != "" {
		t.Fatalf("status %d, stderr %q", code, errOut)
	}
	if !strings.Contains(bar.String(), "hpa clusters") {
		t.Errorf("progress output %q, want a bar for the graph build", bar.String())
	}
}

func TestDemoErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"too small", []string{"-size", "8"}, 2, "-size 8"},
		{"too large", []string{"-size", "100000"}, 2, "-size 100000"},
		{"bad seed", []string{"-seed", "-1"}, 2, "-seed"},
		{"empty output", []string{"-o", ""}, 2, "-o is empty"},
		{"missing folder", []string{"-size", "64", "-o", filepath.Join(dir, "missing", "d.png")}, 1, "missing"},
		{"extra argument", []string{"-size", "64", "more"}, 2, `unexpected argument "more"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := pathfind(t, append([]string{"demo"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("status %d, want %d", code, tc.code)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "pathfind: ") || !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q, want one line mentioning %q", errOut, tc.want)
			}
		})
	}
}

// TestEveryHelpListsFlags checks that "pathfind COMMAND -h" lists every flag
// of every command, and "pathfind -h" every command.
func TestEveryHelpListsFlags(t *testing.T) {
	all, _, code := pathfind(t, "-h")
	if code != 0 {
		t.Fatalf("pathfind -h: status %d", code)
	}
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(all, "pathfind "+c.name) {
				t.Errorf("pathfind -h lacks %s", c.name)
			}
			out, errOut, code := pathfind(t, c.name, "-h")
			if code != 0 || errOut != "" {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
			c.setup(fs)
			fs.VisitAll(func(f *flag.Flag) {
				if !strings.Contains(out, "  -"+f.Name+" ") && !strings.Contains(out, "  -"+f.Name+"\n") {
					t.Errorf("help lacks -%s:\n%s", f.Name, out)
				}
			})
		})
	}
}
