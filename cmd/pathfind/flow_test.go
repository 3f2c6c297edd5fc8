package main

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/grid"
)

// TestFlow runs flow on the small maps and checks the -dist file, line by
// line, against the library's field, and the picture's colours.
func TestFlow(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, content, goal string
		reached, free       int
		sealed              image.Point // a free cell that cannot reach the goal, or (-1,-1)
	}{
		{"wall10", wall10, "9,0", 91, 91, image.Pt(-1, -1)},
		{"sealed5", sealed5, "0,0", 16, 17, image.Pt(2, 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := writeFile(t, dir, tc.name+".map", tc.content)
			distPath := filepath.Join(dir, tc.name+".dist")
			pngPath := filepath.Join(dir, tc.name+".png")
			out, errOut, code := pathfind(t, "flow", "-map", m, "-goal", tc.goal, "-dist", distPath, "-png", pngPath)
			if code != 0 || errOut != "" {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			g, err := grid.LoadMap(m, grid.Options{})
			if err != nil {
				t.Fatal(err)
			}
			goal, _ := parsePoint(tc.goal)
			f := agent.NewFlowField(g)
			if err := f.Compute(goal); err != nil {
				t.Fatal(err)
			}
			if got, want := field(t, out, "reached"), fmt.Sprintf("%d of %d free cells", tc.reached, tc.free); got != want {
				t.Errorf("reached %q, want %q", got, want)
			}
			if got, want := field(t, out, "farthest"), fmt.Sprintf("%.5f", f.MaxDist()); got != want {
				t.Errorf("farthest %q, want %q", got, want)
			}
			field(t, out, "time")
			if got := field(t, out, "dist"); got != fmt.Sprintf("%s (%d lines)", distPath, tc.reached) {
				t.Errorf("dist %q", got)
			}
			if got, want := field(t, out, "picture"), fmt.Sprintf("%s (%d×%d pixels, 16×16 a cell)", pngPath, 16*g.Width(), 16*g.Height()); got != want {
				t.Errorf("picture %q, want %q", got, want)
			}

			b, err := os.ReadFile(distPath)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[image.Point]bool{}
			for i, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
				fs := strings.Fields(line)
				if len(fs) != 3 {
					t.Fatalf("line %d %q: want x y distance", i+1, line)
				}
				x, errx := strconv.Atoi(fs[0])
				y, erry := strconv.Atoi(fs[1])
				p := image.Pt(x, y)
				if errx != nil || erry != nil || seen[p] {
					t.Fatalf("line %d %q: bad or repeated cell", i+1, line)
				}
				seen[p] = true
				if want, ok := f.Dist(p); !ok || fs[2] != strconv.FormatFloat(want, 'f', 6, 64) {
					t.Errorf("line %d %q: the field says %v, %v", i+1, line, want, ok)
				}
			}
			if len(seen) != f.Reached() || len(seen) != tc.reached {
				t.Errorf("%d lines, want %d (the field reaches %d)", len(seen), tc.reached, f.Reached())
			}
			if seen[tc.sealed] {
				t.Errorf("a line for %v, which cannot reach the goal", tc.sealed)
			}

			img, err := picture.ReadPNG(pngPath)
			if err != nil {
				t.Fatal(err)
			}
			pixel := func(p image.Point) color.RGBA { // at the centre of cell p
				return color.RGBAModel.Convert(img.At(16*p.X+8, 16*p.Y+8)).(color.RGBA)
			}
			same := func(p image.Point, c picture.Colour) bool {
				return pixel(p) == color.RGBAModel.Convert(c)
			}
			if !same(goal, picture.Goal) {
				t.Errorf("goal %v not drawn in the goal's colour", goal)
			}
			if tc.sealed != image.Pt(-1, -1) && !same(tc.sealed, picture.Free) {
				t.Errorf("sealed cell %v not drawn plain", tc.sealed)
			}
			// Shades lighten with the distance.
			var near, far image.Point
			for p := range seen {
				if d, _ := f.Dist(p); d == f.MaxDist() {
					far = p
				}
				if d, _ := f.Dist(p); d == 1 {
					near = p
				}
			}
			light := func(c color.RGBA) int { return int(c.R) + int(c.G) + int(c.B) }
			if light(pixel(near)) >= light(pixel(far)) {
				t.Errorf("the cell next to the goal, %v, is drawn %v, no darker than the farthest, %v, drawn %v", near, pixel(near), far, pixel(far))
			}
		})
	}
}

// TestFlowErrors checks the errors of flow: usage errors exit with status
// 2, bad goals and files with 1.
func TestFlowErrors(t *testing.T) {
	dir := t.TempDir()
	m := writeFile(t, dir, "wall10.map", wall10)
	missing := filepath.Join(dir, "missing")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no map", []string{"flow", "-goal", "1,1"}, 2, "flow: -map is required"},
		{"no goal", []string{"flow", "-map", m}, 2, "flow: -goal is required"},
		{"goal without comma", []string{"flow", "-map", m, "-goal", "3"}, 2, `invalid value "3" for flag -goal: want x,y`},
		{"goal not numbers", []string{"flow", "-map", m, "-goal", "a,b"}, 2, "want x,y with integer x and y"},
		{"goal on wall", []string{"flow", "-map", m, "-goal", "5,3"}, 1, "wall10.map: goal 5,3 is a blocked cell"},
		{"goal outside", []string{"flow", "-map", m, "-goal", "10,0"}, 1, "wall10.map: goal 10,0 is outside the 10×10 map"},
		{"goal negative", []string{"flow", "-map", m, "-goal", "0,-1"}, 1, "goal 0,-1 is outside the 10×10 map"},
		{"missing map", []string{"flow", "-map", filepath.Join(dir, "none.map"), "-goal", "0,0"}, 1, "none.map"},
		{"dist unwritable", []string{"flow", "-map", m, "-goal", "0,0", "-dist", filepath.Join(missing, "d.txt")}, 1, "-dist " + missing},
		{"png unwritable", []string{"flow", "-map", m, "-goal", "0,0", "-png", filepath.Join(missing, "f.png")}, 1, "-png " + missing},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := pathfind(t, tc.args...)
			if code != tc.code || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "pathfind: ") || !strings.Contains(errOut, tc.want) {
				t.Errorf("status %d, stderr %q; want %d and one line with %q", code, errOut, tc.code, tc.want)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}
