package main

import (
	"bytes"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/mapgen"
)

// mapgenCmd runs the command and returns its stdout, stderr and status.
func mapgenCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
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

// sameCells reports the first cell where a and b differ, if any.
func sameCells(t *testing.T, got, want *grid.Grid) {
	t.Helper()
	if got.Width() != want.Width() || got.Height() != want.Height() {
		t.Fatalf("size %d×%d, want %d×%d", got.Width(), got.Height(), want.Width(), want.Height())
	}
	for y := range want.Height() {
		for x := range want.Width() {
			p := image.Pt(x, y)
			if got.Passable(p) != want.Passable(p) {
				t.Fatalf("cell %v passable %v, want %v", p, got.Passable(p), want.Passable(p))
			}
		}
	}
}

// noTemp fails if dir holds a temporary file left by a write.
func noTemp(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left in %s", e.Name(), dir)
		}
	}
}

func TestWorld(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "w.map")
	stdout, stderr, code := mapgenCmd(t, "world", "-o", out, "-size", "96", "-seed", "5")
	if code != 0 || stderr != "" {
		t.Fatalf("status %d, stderr %q", code, stderr)
	}
	got, err := grid.LoadMap(out, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := mapgen.World(mapgen.WorldOptions{Seed: 5, Width: 96, Height: 96})
	if err != nil {
		t.Fatal(err)
	}
	sameCells(t, got, want)
	if s := field(t, stdout, "size"); s != "96×96 (9216 cells)" {
		t.Errorf("size line %q", s)
	}
	if s := field(t, stdout, "source"); s != "world of seed 5" {
		t.Errorf("source line %q", s)
	}
	for _, name := range []string{"free", "regions", "generate", "write"} {
		field(t, stdout, name)
	}
	noTemp(t, dir)

	// The same seed gives the same bytes, over the old file.
	first, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := mapgenCmd(t, "world", "-seed", "5", "-size", "96", "-o", out); code != 0 {
		t.Fatalf("second run: status %d, stderr %q", code, stderr)
	}
	second, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Errorf("two runs with seed 5 wrote different files")
	}
	noTemp(t, dir)
}

func TestScale(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.map")
	src := "type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n"
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.map")
	stdout, stderr, code := mapgenCmd(t, "scale", "-map", in, "-k", "3", "-o", out)
	if code != 0 || stderr != "" {
		t.Fatalf("status %d, stderr %q", code, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := "type octile\nheight 6\nwidth 9\nmap\n" +
		"...@@@...\n...@@@...\n...@@@...\n" +
		".........\n.........\n.........\n"
	if string(got) != want {
		t.Errorf("wrote:\n%s\nwant:\n%s", got, want)
	}
	if s := field(t, stdout, "size"); s != "9×6 (54 cells)" {
		t.Errorf("size line %q", s)
	}
	if s := field(t, stdout, "free"); s != "0.8333 (45 cells)" {
		t.Errorf("free line %q", s)
	}
	if s := field(t, stdout, "regions"); s != "1 (largest 1.0000 of free cells)" {
		t.Errorf("regions line %q", s)
	}
	noTemp(t, dir)
}

// TestScaleScenarios scales a map with its scenarios: the longest is kept,
// moved to the middle of its blocks, with its optimum on the scaled map
// (shorter than k times the original's: the scaled path hugs the wall's
// corners), which the grid search confirms.
func TestScaleScenarios(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.map")
	if err := os.WriteFile(in, []byte("type octile\nheight 2\nwidth 3\nmap\n.@.\n...\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	scen := filepath.Join(dir, "in.map.scen")
	if err := os.WriteFile(scen, []byte("version 1\n0\tin.map\t3\t2\t0\t1\t1\t1\t1\n1\tin.map\t3\t2\t0\t0\t2\t0\t4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, scenOut := filepath.Join(dir, "out.map"), filepath.Join(dir, "out.map.scen")
	stdout, stderr, code := mapgenCmd(t, "scale", "-map", in, "-k", "3", "-o", out, "-scen", scen, "-scen-o", scenOut, "-longest", "1")
	if code != 0 || stderr != "" {
		t.Fatalf("status %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "scenarios "+scenOut+": 1 of 2, optima by plain A*") {
		t.Errorf("stdout %q lacks the scenarios line", stdout)
	}
	scens, err := grid.LoadScenarios(scenOut)
	if err != nil {
		t.Fatal(err)
	}
	want := 6 + 2*math.Sqrt2
	if len(scens) != 1 {
		t.Fatalf("%d scenarios, want 1", len(scens))
	}
	sc := scens[0]
	if sc.Map != "out.map" || sc.Width != 9 || sc.Height != 6 || sc.Start != image.Pt(1, 1) || sc.Goal != image.Pt(7, 1) ||
		sc.Bucket != 2 || math.Abs(sc.Optimal-want) > 1e-8 {
		t.Errorf("scaled scenario %+v, want out.map 9×6 from (1,1) to (7,1), bucket 2, length %.8f", sc, want)
	}
	g, err := grid.LoadMap(out, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, res, err := grid.NewSearcher(g).AppendPath(nil, sc.Start, sc.Goal, grid.Query{})
	if err != nil || !sc.Matches(res.Cost) {
		t.Errorf("grid search on the scaled map: cost %v, %v; the file says %v", res.Cost, err, sc.Optimal)
	}
	noTemp(t, dir)
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"help"}, {"world", "-h"}, {"scale", "-h"}, {"pairs", "-h"}} {
		stdout, stderr, code := mapgenCmd(t, args...)
		if code != 0 || stderr != "" || !strings.Contains(stdout, "usage") {
			t.Errorf("mapgen %s: status %d, stdout %q, stderr %q", strings.Join(args, " "), code, stdout, stderr)
		}
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.map")
	if err := os.WriteFile(good, []byte("type octile\nheight 1\nwidth 2\nmap\n..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.map")
	if err := os.WriteFile(bad, []byte("type octile\nheight 1\nwidth 2\nmap\n.x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.map")
	missingDir := filepath.Join(dir, "no", "such", "dir", "out.map")
	goodScen, badScen, outScen := filepath.Join(dir, "good.scen"), filepath.Join(dir, "bad.scen"), filepath.Join(dir, "out.scen")
	if err := os.WriteFile(goodScen, []byte("version 1\n0\tgood.map\t2\t1\t0\t0\t1\t0\t1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(badScen, []byte("version 1\n0\tgood.map\t5\t1\t0\t0\t4\t0\t4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no command", nil, 2, "no command"},
		{"unknown command", []string{"carve"}, 2, `unknown command "carve"`},
		{"world without -o", []string{"world"}, 2, "world: -o is required"},
		{"world bad flag", []string{"world", "-o", out, "-colour", "red"}, 2, "flag provided but not defined: -colour"},
		{"world bad size", []string{"world", "-o", out, "-size", "abc"}, 2, "invalid value"},
		{"world small", []string{"world", "-o", out, "-size", "15"}, 2, "world: -size 15, want 16 to 16384"},
		{"world large", []string{"world", "-o", out, "-size", "16385"}, 2, "world: -size 16385, want 16 to 16384"},
		{"world negative seed", []string{"world", "-o", out, "-seed", "-1"}, 2, "invalid value"},
		{"world extra", []string{"world", "-o", out, "more"}, 2, `unexpected argument "more"`},
		{"world no dir", []string{"world", "-o", missingDir, "-size", "16"}, 1, "world: -o " + missingDir + ": stat "},
		{"scale without -map", []string{"scale", "-k", "2", "-o", out}, 2, "scale: -map is required"},
		{"scale without -o", []string{"scale", "-map", good, "-k", "2"}, 2, "scale: -o is required"},
		{"scale without -k", []string{"scale", "-map", good, "-o", out}, 2, "scale: -k 0, want 1 or more"},
		{"scale onto itself", []string{"scale", "-map", good, "-k", "2", "-o", good}, 2, "is the input map itself"},
		{"scale missing map", []string{"scale", "-map", filepath.Join(dir, "none.map"), "-k", "2", "-o", out}, 1, "no such file"},
		{"scale bad map", []string{"scale", "-map", bad, "-k", "2", "-o", out}, 1, `bad.map:5: bad character "x" in column 2 (cell 1,0)`},
		{"scale too large", []string{"scale", "-map", good, "-k", "20000", "-o", out}, 1, "2×1 map scaled 20000 times exceeds"},
		{"scale no dir", []string{"scale", "-map", good, "-k", "2", "-o", missingDir}, 1, "scale: -o " + missingDir + ": stat "},
		{"scale -scen alone", []string{"scale", "-map", good, "-k", "2", "-o", out, "-scen", goodScen}, 2, "scale: -scen and -scen-o go together"},
		{"scale -longest alone", []string{"scale", "-map", good, "-k", "2", "-o", out, "-longest", "3"}, 2, "scale: -longest needs -scen"},
		{"scale -longest negative", []string{"scale", "-map", good, "-k", "2", "-o", out, "-scen", goodScen, "-scen-o", outScen, "-longest", "-1"}, 2, "scale: -longest -1"},
		{"scale -scen-o onto -scen", []string{"scale", "-map", good, "-k", "2", "-o", out, "-scen", goodScen, "-scen-o", goodScen}, 2, "is an input file"},
		{"scale -scen-o onto -o", []string{"scale", "-map", good, "-k", "2", "-o", out, "-scen", goodScen, "-scen-o", out}, 2, "-scen-o and -o are the same file"},
		{"scale scenario off the map", []string{"scale", "-map", good, "-k", "2", "-o", out, "-scen", badScen, "-scen-o", outScen}, 1, "bad.scen: scenario 1: grid: scenario for a 5×1 map, grid is 2×1"},
		{"pairs without -map", []string{"pairs", "-o", outScen}, 2, "pairs: -map is required"},
		{"pairs without -o", []string{"pairs", "-map", good}, 2, "pairs: -o is required"},
		{"pairs onto the map", []string{"pairs", "-map", good, "-o", good}, 2, "is the map itself"},
		{"pairs none", []string{"pairs", "-map", good, "-o", outScen, "-n", "0"}, 2, "pairs: -n 0, want 1 to 1000000"},
		{"pairs negative apart", []string{"pairs", "-map", good, "-o", outScen, "-apart", "-3"}, 2, "pairs: -apart -3"},
		{"pairs too far apart", []string{"pairs", "-map", good, "-o", outScen, "-apart", "2", "-n", "1"}, 1, "draws gave only 0 of 1 pairs at least 2 apart in the largest region (2 cells)"},
		{"pairs bad map", []string{"pairs", "-map", bad, "-o", outScen}, 1, "bad.map"},
		{"scale missing scen", []string{"scale", "-map", good, "-k", "2", "-o", out, "-scen", filepath.Join(dir, "none.scen"), "-scen-o", outScen}, 1, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := mapgenCmd(t, tc.args...)
			if code != tc.code {
				t.Errorf("status %d, want %d", code, tc.code)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if !strings.HasPrefix(stderr, "mapgen: ") || strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") ||
				strings.HasPrefix(stderr, "mapgen: mapgen:") || !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q, want one line \"mapgen: ...%s...\"", stderr, tc.want)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed run wrote %s (stat: %v)", out, err)
	}
	noTemp(t, dir)
}

// TestPairs: mapgen pairs writes n scenarios of the demo map's largest
// region, each pair at least -apart apart along one axis, with the optimal
// length an independent Dijkstra gives; the same seed gives the same file,
// another seed another.
func TestPairs(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join("..", "..", "testdata", "demo.map")
	g, err := grid.LoadMap(m, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, seed string) []byte {
		out := filepath.Join(dir, name)
		stdout, stderr, code := mapgenCmd(t, "pairs", "-map", m, "-o", out, "-n", "12", "-apart", "30", "-seed", seed)
		if code != 0 || !strings.Contains(stdout, "12 pairs at least 30 apart") {
			t.Fatalf("status %d, stdout %q, stderr %q", code, stdout, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	a, again, other := write("a.scen", "3"), write("b.scen", "3"), write("c.scen", "4")
	if !bytes.Equal(a, again) || bytes.Equal(a, other) {
		t.Errorf("seed 3 twice gives the same file %v; seeds 3 and 4 other files %v", bytes.Equal(a, again), !bytes.Equal(a, other))
	}
	scens, err := grid.LoadScenarios(filepath.Join(dir, "a.scen"))
	if err != nil {
		t.Fatal(err)
	}
	if len(scens) != 12 {
		t.Fatalf("%d scenarios, want 12", len(scens))
	}
	o := testmap.NewOracle(g)
	cell, _ := g.LargestRegion()
	for i, sc := range scens {
		if err := sc.Check(g); err != nil {
			t.Fatalf("scenario %d: %v", i, err)
		}
		d := sc.Start.Sub(sc.Goal)
		if max(d.X, -d.X, d.Y, -d.Y) < 30 || g.Region(sc.Start) != g.Region(cell) || sc.MapBase() != "demo.map" {
			t.Errorf("scenario %d: %v→%v on %s, want ends at least 30 apart in the largest region of demo.map", i, sc.Start, sc.Goal, sc.Map)
		}
		if want, _ := o.Dist(sc.Start, sc.Goal); math.Abs(sc.Optimal-want) > 1e-6 {
			t.Errorf("scenario %d: optimal %v, Dijkstra %v", i, sc.Optimal, want)
		}
	}
	noTemp(t, dir)
}
