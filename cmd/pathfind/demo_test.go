package main

import (
	"flag"
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
	if got := field(t, stdout, "picture"); !strings.HasPrefix(got, out+" (1024×1024 pixels, 4×4 a cell") {
		t.Errorf("picture line %q, want the file and its size", got)
	}
	img := readPNG(t, out)
	if b := img.Bounds(); b.Dx() != 1024 || b.Dy() != 1024 {
		t.Errorf("picture is %v, want 1024×1024", b)
	}
	for _, col := range []picture.Colour{picture.Path, picture.Plain, picture.Smooth, picture.Navmesh, picture.Start, picture.Goal} {
		if picture.Count(img, col) == 0 {
			t.Errorf("no pixels of colour %d", col)
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
