package grid_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"io/fs"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// maiMapCases are small .map files, each with the rows it must give ('.'
// free, '@' blocked) or the line and message of the error it must give.
// The fuzz tests use them as seeds.
var maiMapCases = []struct {
	name    string
	in      string
	want    []string // rendered rows when the map is valid
	errLine int      // line of the *FormatError otherwise
	errMsg  string   // substring of its message
}{
	{name: "lf", in: "type octile\nheight 2\nwidth 3\nmap\n.@.\n@..\n",
		want: []string{".@.", "@.."}},
	{name: "crlf", in: "type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@.\r\n@..\r\n",
		want: []string{".@.", "@.."}},
	{name: "crlf no final newline", in: "type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@.\r\n@..",
		want: []string{".@.", "@.."}},
	{name: "no final newline", in: "type octile\nheight 2\nwidth 3\nmap\n.@.\n@..",
		want: []string{".@.", "@.."}},
	{name: "trailing blank lines", in: "type octile\nheight 1\nwidth 2\nmap\n.@\n\n\r\n  \n",
		want: []string{".@"}},
	{name: "every cell kind", in: "type octile\nheight 1\nwidth 7\nmap\n.GS@OTW\n",
		want: []string{"...@@@@"}},
	{name: "header any order and case", in: "WIDTH 2\n  Height   3 \nType OCTILE\nMAP\n..\n.@\n@.\n",
		want: []string{"..", ".@", "@."}},
	{name: "blank line in header", in: "type octile\n\nheight 1\nwidth 1\nmap\n.\n",
		want: []string{"."}},
	{name: "byte order mark", in: "\xef\xbb\xbftype octile\nheight 1\nwidth 1\nmap\n@\n",
		want: []string{"@"}},
	{name: "one cell", in: "type octile\nheight 1\nwidth 1\nmap\n.",
		want: []string{"."}},

	{name: "empty file", in: "", errLine: 1, errMsg: "file ends in the header"},
	{name: "bad type", in: "type tile\nheight 1\nwidth 1\nmap\n.\n", errLine: 1, errMsg: `map type "tile" is not supported`},
	{name: "missing type", in: "height 1\nwidth 1\nmap\n.\n", errLine: 3, errMsg: "missing type line"},
	{name: "missing height", in: "type octile\nwidth 1\nmap\n.\n", errLine: 3, errMsg: "missing height line"},
	{name: "missing width", in: "type octile\nheight 1\nmap\n.\n", errLine: 3, errMsg: "missing width line"},
	{name: "missing map line", in: "type octile\nheight 1\nwidth 1\n", errLine: 4, errMsg: "want a map line"},
	{name: "rows before map line", in: "type octile\nheight 1\nwidth 1\n.\n", errLine: 4, errMsg: `header line ".", want a keyword`},
	{name: "unknown header", in: "type octile\nheight 1\nwidth 1\ndepth 3\nmap\n.\n", errLine: 4, errMsg: "unknown header line"},
	{name: "header without value", in: "type octile\nheight\nwidth 1\nmap\n.\n", errLine: 2, errMsg: "want a keyword and one value"},
	{name: "map line with value", in: "type octile\nheight 1\nwidth 1\nmap 1\n.\n", errLine: 4, errMsg: "extra fields"},
	{name: "duplicate width", in: "type octile\nheight 1\nwidth 1\nwidth 1\nmap\n.\n", errLine: 4, errMsg: "second width line"},
	{name: "non-numeric height", in: "type octile\nheight ten\nwidth 1\nmap\n.\n", errLine: 2, errMsg: `bad height "ten"`},
	{name: "zero width", in: "type octile\nheight 1\nwidth 0\nmap\n", errLine: 3, errMsg: "width 0"},
	{name: "negative height", in: "type octile\nheight -4\nwidth 1\nmap\n", errLine: 2, errMsg: "height -4"},
	{name: "huge width", in: "type octile\nheight 1\nwidth 99999999999999999999\nmap\n", errLine: 3, errMsg: "bad width"},
	{name: "huge size", in: "type octile\nheight 65536\nwidth 65536\nmap\n", errLine: 3, errMsg: "exceeds"},
	{name: "lying header", in: "type octile\nheight 16384\nwidth 16384\nmap\n....\n", errLine: 5, errMsg: "has 4 cells, want 16384"},
	{name: "short row", in: "type octile\nheight 2\nwidth 3\nmap\n...\n..\n", errLine: 6, errMsg: "map row y=1 has 2 cells, want 3"},
	{name: "long row", in: "type octile\nheight 2\nwidth 3\nmap\n....\n...\n", errLine: 5, errMsg: "map row y=0 has 4 cells, want 3"},
	{name: "too few rows", in: "type octile\nheight 3\nwidth 3\nmap\n...\n...\n", errLine: 7, errMsg: "file ends after 2 of 3 map rows"},
	{name: "too many rows", in: "type octile\nheight 1\nwidth 3\nmap\n...\n...\n", errLine: 6, errMsg: "extra line"},
	{name: "extra line after blank", in: "type octile\nheight 1\nwidth 3\nmap\n...\n\nx\n", errLine: 7, errMsg: "extra line"},
	{name: "bad char", in: "type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n", errLine: 6, errMsg: `bad character "x" in column 2 (cell 1,1)`},
	{name: "bad byte", in: "type octile\nheight 1\nwidth 3\nmap\n..\xff\n", errLine: 5, errMsg: `bad character "\xff" in column 3 (cell 2,0)`},
	{name: "stray carriage return", in: "type octile\nheight 1\nwidth 3\nmap\n.\r.\n", errLine: 5, errMsg: `bad character "\r" in column 2 (cell 1,0)`},
	{name: "space in row", in: "type octile\nheight 1\nwidth 3\nmap\n. .\n", errLine: 5, errMsg: `bad character " " in column 2 (cell 1,0)`},
}

func TestReadMap(t *testing.T) {
	for _, tc := range maiMapCases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := grid.ReadMap(strings.NewReader(tc.in), "t.map", grid.Options{})
			if tc.want == nil {
				var fe *grid.FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("ReadMap(%q) error = %v, want a *FormatError", tc.in, err)
				}
				if fe.File != "t.map" || fe.Line != tc.errLine || !strings.Contains(fe.Msg, tc.errMsg) {
					t.Fatalf("ReadMap(%q) error\ngot  %v\nwant grid: t.map:%d: ...%s...", tc.in, err, tc.errLine, tc.errMsg)
				}
				return
			}
			if err != nil {
				t.Fatalf("ReadMap(%q): %v", tc.in, err)
			}
			if got := maiRender(g); !slices.Equal(got, tc.want) {
				t.Fatalf("ReadMap(%q)\ngot\n%s\nwant\n%s", tc.in, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestReadMapOptions(t *testing.T) {
	const in = "type octile\nheight 2\nwidth 2\nmap\n..\n.@\n"
	g, err := grid.ReadMap(strings.NewReader(in), "t.map", grid.Options{Connectivity: grid.Four})
	if err != nil {
		t.Fatal(err)
	}
	if g.Connectivity() != grid.Four {
		t.Errorf("connectivity %v, want %v", g.Connectivity(), grid.Four)
	}
	g, err = grid.ReadMap(strings.NewReader(in), "t.map", grid.Options{Costs: []float64{1, 2, 3, 4}})
	if err != nil {
		t.Fatal(err)
	}
	if c := g.Cost(image.Pt(0, 1)); c != 3 {
		t.Errorf("cost of (0,1) = %v, want 3", c)
	}
	if _, err := grid.ReadMap(strings.NewReader(in), "t.map", grid.Options{Costs: []float64{1}}); err == nil {
		t.Error("ReadMap with 1 terrain cost for 4 cells succeeded, want an error")
	}
}

// maiErrReader fails after giving its data.
type maiErrReader struct{ data []byte }

var errMaiRead = errors.New("disk on fire")

func (r *maiErrReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, errMaiRead
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestReadErrorsWrapped(t *testing.T) {
	for _, in := range []string{"", "type octile\nheight 2\nwidth 2\nmap\n..\n", "type octile\nheight 1\nwidth 2\nmap\n..\n"} {
		_, err := grid.ReadMap(&maiErrReader{[]byte(in)}, "t.map", grid.Options{})
		if !errors.Is(err, errMaiRead) || !strings.Contains(err.Error(), "t.map") {
			t.Errorf("ReadMap(%q then failure) error = %v, want it to wrap %v and name t.map", in, err, errMaiRead)
		}
	}
	_, err := grid.ReadScenarios(&maiErrReader{[]byte("version 1\n")}, "t.scen")
	if !errors.Is(err, errMaiRead) {
		t.Errorf("ReadScenarios error = %v, want it to wrap %v", err, errMaiRead)
	}
}

func TestFormatErrorString(t *testing.T) {
	for _, tc := range []struct {
		e    grid.FormatError
		want string
	}{
		{grid.FormatError{File: "a.map", Line: 7, Msg: "bad"}, "grid: a.map:7: bad"},
		{grid.FormatError{File: "a.map", Msg: "bad"}, "grid: a.map: bad"},
		{grid.FormatError{Line: 7, Msg: "bad"}, "grid: line 7: bad"},
		{grid.FormatError{Msg: "bad"}, "grid: bad"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("%#v.Error() = %q, want %q", tc.e, got, tc.want)
		}
	}
}

func TestWriteMap(t *testing.T) {
	g := maiMustRead(t, "type octile\nheight 2\nwidth 3\nmap\n.GT\nS@W\n")
	var buf bytes.Buffer
	if err := grid.WriteMap(&buf, g); err != nil {
		t.Fatal(err)
	}
	const want = "type octile\nheight 2\nwidth 3\nmap\n..@\n.@@\n"
	if buf.String() != want {
		t.Fatalf("WriteMap wrote\n%q\nwant\n%q", buf.String(), want)
	}

	withCosts, err := grid.New(1, 1, []bool{true}, grid.Options{Costs: []float64{2}})
	if err != nil {
		t.Fatal(err)
	}
	if err := grid.WriteMap(&buf, withCosts); err == nil {
		t.Error("WriteMap of a grid with terrain costs succeeded, want an error")
	}
	if err := grid.WriteMap(maiFailWriter{}, g); !errors.Is(err, errMaiWrite) {
		t.Errorf("WriteMap to a failing writer: error %v, want it to wrap %v", err, errMaiWrite)
	}
}

var errMaiWrite = errors.New("disk full")

type maiFailWriter struct{}

func (maiFailWriter) Write([]byte) (int, error) { return 0, errMaiWrite }

func TestWriteMapRoundTrip(t *testing.T) {
	for _, tc := range []struct{ w, h, pct int }{{1, 1, 0}, {1, 1, 100}, {7, 3, 30}, {3, 7, 50}, {64, 40, 20}, {1000, 2, 45}} {
		seed := uint64(tc.w*1000 + tc.h*10 + tc.pct)
		t.Run(fmt.Sprintf("%dx%d_%d%%", tc.w, tc.h, tc.pct), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 1))
			free := make([]bool, tc.w*tc.h)
			for i := range free {
				free[i] = rng.IntN(100) >= tc.pct
			}
			g, err := grid.New(tc.w, tc.h, free, grid.Options{})
			if err != nil {
				t.Fatal(err)
			}
			maiRoundTrip(t, g)
		})
	}
}

// maiRoundTrip checks that ReadMap(WriteMap(g)) gives g cell for cell.
func maiRoundTrip(t testing.TB, g *grid.Grid) {
	t.Helper()
	var buf bytes.Buffer
	if err := grid.WriteMap(&buf, g); err != nil {
		t.Fatalf("WriteMap: %v", err)
	}
	g2, err := grid.ReadMap(&buf, "written.map", grid.Options{Connectivity: g.Connectivity()})
	if err != nil {
		t.Fatalf("ReadMap of what WriteMap wrote: %v", err)
	}
	if got, want := maiRender(g2), maiRender(g); !slices.Equal(got, want) {
		t.Fatalf("round trip changed the grid\ngot\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// maiScenCases are small .scen files, each with the scenarios it must give
// or the line and message of the error it must give. The fuzz tests use them
// as seeds.
var maiScenCases = []struct {
	name    string
	in      string
	want    []grid.Scenario
	errLine int
	errMsg  string
}{
	{name: "tabs version 1", in: "version 1\n0\tmaps/dao/a.map\t5\t4\t1\t2\t3\t0\t2.82843\n3\tmaps/dao/a.map\t5\t4\t0\t0\t4\t3\t12\n",
		want: []grid.Scenario{
			{Bucket: 0, Map: "maps/dao/a.map", Width: 5, Height: 4, Start: image.Pt(1, 2), Goal: image.Pt(3, 0), Optimal: 2.82843, Decimals: 5},
			{Bucket: 3, Map: "maps/dao/a.map", Width: 5, Height: 4, Start: image.Pt(0, 0), Goal: image.Pt(4, 3), Optimal: 12, Decimals: 0},
		}},
	{name: "spaces version 1.0", in: "version 1.0\n61 maps/bgmaps/AR0011SR.map 512 512 210 395 87 201 244.95\n",
		want: []grid.Scenario{{Bucket: 61, Map: "maps/bgmaps/AR0011SR.map", Width: 512, Height: 512,
			Start: image.Pt(210, 395), Goal: image.Pt(87, 201), Optimal: 244.95, Decimals: 2}}},
	{name: "crlf and mixed separators", in: "version 1.00\r\n1  b.map\t 10 10\t\t9 9 0 0 1.00000000\r\n\r\n",
		want: []grid.Scenario{{Bucket: 1, Map: "b.map", Width: 10, Height: 10, Start: image.Pt(9, 9), Goal: image.Pt(0, 0), Optimal: 1, Decimals: 8}}},
	{name: "blank lines and no final newline", in: "\nversion 1\n\n  \n0\tc.map\t2\t2\t0\t0\t1\t1\t1.",
		want: []grid.Scenario{{Map: "c.map", Width: 2, Height: 2, Goal: image.Pt(1, 1), Optimal: 1, Decimals: 0}}},
	{name: "exponent", in: "version 1\n0\tc.map\t2\t2\t0\t0\t1\t1\t1.5e2\n",
		want: []grid.Scenario{{Map: "c.map", Width: 2, Height: 2, Goal: image.Pt(1, 1), Optimal: 150, Decimals: -1}}},
	{name: "version only", in: "version 1\n", want: []grid.Scenario{}},

	{name: "empty", in: "", errLine: 0, errMsg: "no version line"},
	{name: "missing version", in: "0\tc.map\t2\t2\t0\t0\t1\t1\t1\n", errLine: 1, errMsg: "want a version line"},
	{name: "version 2", in: "version 2\n", errLine: 1, errMsg: `version "2" is not supported`},
	{name: "version 10", in: "version 10\n", errLine: 1, errMsg: "not supported"},
	{name: "too few fields", in: "version 1\n0\tc.map\t2\t2\t0\t0\t1\t1\n", errLine: 2, errMsg: "8 fields, want 9"},
	{name: "too many fields", in: "version 1\n0\tc.map\t2\t2\t0\t0\t1\t1\t1\t1\n", errLine: 2, errMsg: "10 fields, want 9"},
	{name: "space in map name", in: "version 1\n0\tmy map.map\t2\t2\t0\t0\t1\t1\t1\n", errLine: 2, errMsg: "10 fields"},
	{name: "control character in map", in: "version 1\n0 \r 7 7 0 0 0 0 0\n", errLine: 2, errMsg: `map field "\r"`},
	{name: "bad start x", in: "version 1\n\n0\tc.map\t2\t2\tx\t0\t1\t1\t1\n", errLine: 3, errMsg: `bad start x "x"`},
	{name: "negative goal y", in: "version 1\n0\tc.map\t2\t2\t0\t0\t1\t-1\t1\n", errLine: 2, errMsg: "bad goal y"},
	{name: "zero width", in: "version 1\n0\tc.map\t0\t2\t0\t0\t1\t1\t1\n", errLine: 2, errMsg: "map size 0×2"},
	{name: "goal outside", in: "version 1\n0\tc.map\t2\t2\t0\t0\t2\t1\t1\n", errLine: 2, errMsg: "outside the stated 2×2 map"},
	{name: "bad length", in: "version 1\n0\tc.map\t2\t2\t0\t0\t1\t1\t1.4x\n", errLine: 2, errMsg: "bad optimal length"},
	{name: "negative length", in: "version 1\n0\tc.map\t2\t2\t0\t0\t1\t1\t-1.4\n", errLine: 2, errMsg: "bad optimal length"},
	{name: "nan length", in: "version 1\n0\tc.map\t2\t2\t0\t0\t1\t1\tNaN\n", errLine: 2, errMsg: "bad optimal length"},
	{name: "infinite length", in: "version 1\n0\tc.map\t2\t2\t0\t0\t1\t1\t1e999\n", errLine: 2, errMsg: "bad optimal length"},
	{name: "dot length", in: "version 1\n0\tc.map\t2\t2\t0\t0\t1\t1\t.\n", errLine: 2, errMsg: "bad optimal length"},
}

func TestReadScenarios(t *testing.T) {
	for _, tc := range maiScenCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := grid.ReadScenarios(strings.NewReader(tc.in), "t.scen")
			if tc.want == nil {
				var fe *grid.FormatError
				if !errors.As(err, &fe) {
					t.Fatalf("ReadScenarios(%q) error = %v, want a *FormatError", tc.in, err)
				}
				if fe.File != "t.scen" || fe.Line != tc.errLine || !strings.Contains(fe.Msg, tc.errMsg) {
					t.Fatalf("ReadScenarios(%q) error\ngot  %v\nwant grid: t.scen:%d: ...%s...", tc.in, err, tc.errLine, tc.errMsg)
				}
				return
			}
			if err != nil {
				t.Fatalf("ReadScenarios(%q): %v", tc.in, err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("ReadScenarios(%q) gave %d scenarios, want %d", tc.in, len(got), len(tc.want))
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("scenario %d\ngot  %+v\nwant %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestScenarioMatches(t *testing.T) {
	for _, tc := range []struct {
		name     string
		optimal  float64
		decimals int
		cost     float64
		want     bool
	}{
		{"exact", 12, 0, 12, true},
		{"6 digits", 2.82843, 5, 2 * math.Sqrt2, true},
		{"6 digits off by one unit", 2.82842, 5, 2 * math.Sqrt2, false},
		{"6 digits off by two units", 2.82841, 5, 2 * math.Sqrt2, false},
		{"published length rounded low", 230.764, 3, 95 + 96*math.Sqrt2, true},
		{"2 decimals rounded up", 244.95, 2, 244.9542, true},
		{"2 decimals just inside", 244.95, 2, 244.9549, true},
		{"2 decimals just outside", 244.95, 2, 244.9551, false},
		{"2 decimals below", 244.95, 2, 244.9451, true},
		{"2 decimals too low", 244.95, 2, 244.9449, false},
		{"integer within half", 7, 0, 7.4, true},
		{"integer beyond half", 7, 0, 7.6, false},
		{"8 decimals", 1 + 2*math.Sqrt2, 8, 3.82842712, true},
		{"8 decimals off", 3.82842712, 8, 3.82843712, false},
		{"relative slack on a long path", 123456.78901234, 8, 123456.78901234 + 1e-5, true},
		{"nan cost", 1, 0, math.NaN(), false},
	} {
		s := grid.Scenario{Optimal: tc.optimal, Decimals: tc.decimals}
		if got := s.Matches(tc.cost); got != tc.want {
			t.Errorf("%s: Scenario{Optimal: %v, Decimals: %d}.Matches(%v) = %v, want %v",
				tc.name, tc.optimal, tc.decimals, tc.cost, got, tc.want)
		}
	}
}

func TestScenarioMapBase(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"maps/dao/brc202d.map", "brc202d.map"},
		{`maps\sc1\CatwalkAlley.map`, "CatwalkAlley.map"},
		{`maps/x\y.map`, "y.map"},
		{"Berlin_0_1024.map", "Berlin_0_1024.map"},
		{"dir/", ""},
		{"", ""},
	} {
		if got := (grid.Scenario{Map: tc.in}).MapBase(); got != tc.want {
			t.Errorf("Scenario{Map: %q}.MapBase() = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestScenarioCheck(t *testing.T) {
	g := maiMustRead(t, "type octile\nheight 2\nwidth 3\nmap\n..@\n.@.\n")
	ok := grid.Scenario{Width: 3, Height: 2, Start: image.Pt(0, 0), Goal: image.Pt(2, 1)}
	for _, tc := range []struct {
		name   string
		edit   func(*grid.Scenario)
		errMsg string // "" when Check must pass
	}{
		{"ok", func(*grid.Scenario) {}, ""},
		{"width", func(s *grid.Scenario) { s.Width = 4 }, "4×2 map, grid is 3×2"},
		{"height", func(s *grid.Scenario) { s.Height = 3 }, "3×3 map"},
		{"start blocked", func(s *grid.Scenario) { s.Start = image.Pt(2, 0) }, "start (2,0) is a blocked cell"},
		{"goal blocked", func(s *grid.Scenario) { s.Goal = image.Pt(1, 1) }, "goal (1,1) is a blocked cell"},
		{"start outside", func(s *grid.Scenario) { s.Start = image.Pt(-1, 0) }, "start (-1,0) is outside"},
		{"goal outside", func(s *grid.Scenario) { s.Goal = image.Pt(0, 2) }, "goal (0,2) is outside"},
	} {
		s := ok
		tc.edit(&s)
		err := s.Check(g)
		if tc.errMsg == "" && err != nil || tc.errMsg != "" && (err == nil || !strings.Contains(err.Error(), tc.errMsg)) {
			t.Errorf("%s: Check(%+v) = %v, want %q", tc.name, s, err, tc.errMsg)
		}
	}
}

func TestLoad(t *testing.T) {
	g, err := grid.LoadMap(filepath.Join("testdata", "tiny.map"), grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	scens, err := grid.LoadScenarios(filepath.Join("testdata", "tiny.map.scen"))
	if err != nil {
		t.Fatal(err)
	}
	if len(scens) != 3 {
		t.Fatalf("tiny.map.scen has %d scenarios, want 3", len(scens))
	}
	for i, s := range scens {
		if err := s.Check(g); err != nil {
			t.Errorf("scenario %d: %v", i, err)
		}
	}

	missing := filepath.Join("testdata", "no-such.map")
	if _, err := grid.LoadMap(missing, grid.Options{}); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("LoadMap(%q) error = %v, want one wrapping fs.ErrNotExist and naming the path", missing, err)
	}
	if _, err := grid.LoadScenarios(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("LoadScenarios(%q) error = %v, want one wrapping fs.ErrNotExist", missing, err)
	}
	var fe *grid.FormatError
	bad := filepath.Join("testdata", "tiny.map.scen")
	if _, err := grid.LoadMap(bad, grid.Options{}); !errors.As(err, &fe) || fe.File != bad || fe.Line != 1 {
		t.Errorf("LoadMap(%q) error = %v, want a *FormatError at %s:1", bad, err, bad)
	}
}

// TestMovingAIBenchmarks loads every map of the benchmark set with its
// scenarios and checks that the scenarios fit the map.
func TestMovingAIBenchmarks(t *testing.T) {
	maiBenchDir := testmap.MovingAIDir()
	scenPaths, _ := filepath.Glob(filepath.Join(maiBenchDir, "*.map.scen"))
	if maiBenchDir == "" || len(scenPaths) == 0 {
		t.Skipf("no Moving AI benchmark files in %q", maiBenchDir)
	}
	for _, sp := range scenPaths {
		mapName := strings.TrimSuffix(filepath.Base(sp), ".scen")
		t.Run(mapName, func(t *testing.T) {
			g, err := grid.LoadMap(filepath.Join(maiBenchDir, mapName), grid.Options{})
			if err != nil {
				t.Fatal(err)
			}
			scens, err := grid.LoadScenarios(sp)
			if err != nil {
				t.Fatal(err)
			}
			if len(scens) == 0 {
				t.Fatalf("%s holds no scenarios", sp)
			}
			for i, s := range scens {
				if s.MapBase() != mapName {
					t.Fatalf("%s scenario %d names map %q, want base name %s", sp, i, s.Map, mapName)
				}
				if err := s.Check(g); err != nil {
					t.Fatalf("%s scenario %d: %v", sp, i, err)
				}
				if !s.Matches(s.Optimal) {
					t.Fatalf("%s scenario %d: %+v does not match its own length", sp, i, s)
				}
			}
			maiRoundTrip(t, g)
		})
	}
}

func ExampleReadMap() {
	const m = `type octile
height 3
width 5
map
..@..
..@..
.....
`
	g, err := grid.ReadMap(strings.NewReader(m), "example.map", grid.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Width(), g.Height(), g.Passable(image.Pt(2, 1)), g.Passable(image.Pt(2, 2)))

	_, err = grid.ReadMap(strings.NewReader("type octile\nheight 1\nwidth 3\nmap\n.x.\n"), "bad.map", grid.Options{})
	fmt.Println(err)
	// Output:
	// 5 3 false true
	// grid: bad.map:5: bad character "x" in column 2 (cell 1,0)
}

func ExampleReadScenarios() {
	const scen = "version 1\n" +
		"0\tmaps/dao/tiny.map\t5\t3\t0\t0\t4\t0\t4.82843\n"
	scens, err := grid.ReadScenarios(strings.NewReader(scen), "tiny.map.scen")
	if err != nil {
		fmt.Println(err)
		return
	}
	s := scens[0]
	fmt.Println(s.MapBase(), s.Start, s.Goal, s.Optimal, s.Decimals, s.Matches(2+2*math.Sqrt2))
	// Output:
	// tiny.map (0,0) (4,0) 4.82843 5 true
}

func maiMustRead(t testing.TB, in string) *grid.Grid {
	t.Helper()
	g, err := grid.ReadMap(strings.NewReader(in), "t.map", grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// maiRender draws g as rows of '.' (passable) and '@' (blocked).
func maiRender(g *grid.Grid) []string {
	rows := make([]string, g.Height())
	row := make([]byte, g.Width())
	for y := range rows {
		for x := range row {
			row[x] = '@'
			if g.Passable(image.Pt(x, y)) {
				row[x] = '.'
			}
		}
		rows[y] = string(row)
	}
	return rows
}

// TestReadMapLongRows reads rows longer than the reader's buffer, with line
// ends that straddle buffer boundaries.
func TestReadMapLongRows(t *testing.T) {
	for _, w := range []int{65535, 65536, 65537, 200001} {
		for _, eol := range []string{"\n", "\r\n"} {
			row0 := strings.Repeat(".", w-1) + "@"
			row1 := "@" + strings.Repeat(".", w-1)
			in := "type octile" + eol + "height 2" + eol + fmt.Sprintf("width %d", w) + eol + "map" + eol + row0 + eol + row1 + eol
			g, err := grid.ReadMap(strings.NewReader(in), "long.map", grid.Options{})
			if err != nil {
				t.Fatalf("width %d, line end %q: %v", w, eol, err)
			}
			if got := maiRender(g); !slices.Equal(got, []string{row0, row1}) {
				t.Fatalf("width %d, line end %q: rows read wrongly", w, eol)
			}
			// One row too long, by one cell and by many.
			for _, extra := range []int{1, 100000} {
				bad := "type octile" + eol + "height 2" + eol + fmt.Sprintf("width %d", w) + eol + "map" + eol +
					row0 + strings.Repeat(".", extra) + eol + row1 + eol
				var fe *grid.FormatError
				_, err = grid.ReadMap(strings.NewReader(bad), "long.map", grid.Options{})
				want := fmt.Sprintf("map row y=0 has %d cells, want %d", w+extra, w)
				if !errors.As(err, &fe) || fe.Line != 5 || fe.Msg != want {
					t.Fatalf("width %d, line end %q, %d extra: error %v, want long.map:5: %s", w, eol, extra, err, want)
				}
			}
		}
	}
	long := "version 1\n" + strings.Repeat("0 ", 5000) + "\n"
	var fe *grid.FormatError
	if _, err := grid.ReadScenarios(strings.NewReader(long), "long.scen"); !errors.As(err, &fe) || fe.Line != 2 {
		t.Errorf("ReadScenarios with a 10000-byte line: error %v, want a *FormatError on line 2", err)
	}
}

func TestWriteScenariosErrors(t *testing.T) {
	ok := grid.Scenario{Map: "a.map", Width: 4, Height: 4, Start: image.Pt(1, 1), Goal: image.Pt(3, 2), Optimal: 2.41421356, Decimals: 8}
	for _, tc := range []struct {
		name string
		edit func(*grid.Scenario)
	}{
		{"empty map field", func(s *grid.Scenario) { s.Map = "" }},
		{"space in map field", func(s *grid.Scenario) { s.Map = "a b.map" }},
		{"newline in map field", func(s *grid.Scenario) { s.Map = "a\nb.map" }},
		{"negative bucket", func(s *grid.Scenario) { s.Bucket = -1 }},
		{"NaN length", func(s *grid.Scenario) { s.Optimal = math.NaN() }},
		{"infinite length", func(s *grid.Scenario) { s.Optimal = math.Inf(1) }},
		{"goal outside", func(s *grid.Scenario) { s.Goal = image.Pt(4, 0) }},
		{"no map size", func(s *grid.Scenario) { s.Width = 0 }},
	} {
		s := ok
		tc.edit(&s)
		var buf bytes.Buffer
		err := grid.WriteScenarios(&buf, []grid.Scenario{ok, s})
		if err == nil || !strings.Contains(err.Error(), "scenario 1") || buf.Len() != 0 {
			t.Errorf("%s: error %v, %d bytes written; want an error naming scenario 1 and nothing written", tc.name, err, buf.Len())
		}
	}
	var buf bytes.Buffer
	if err := grid.WriteScenarios(&buf, []grid.Scenario{ok}); err != nil {
		t.Fatal(err)
	}
	if want := "version 1\n0\ta.map\t4\t4\t1\t1\t3\t2\t2.41421356\n"; buf.String() != want {
		t.Errorf("wrote %q, want %q", buf.String(), want)
	}
}
