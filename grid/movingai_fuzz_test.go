package grid_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
)

// FuzzReadMap checks that ReadMap never panics and that every map it accepts
// survives a WriteMap/ReadMap round trip cell for cell.
func FuzzReadMap(f *testing.F) {
	for _, tc := range maiMapCases {
		f.Add([]byte(tc.in))
	}
	if b, err := os.ReadFile(filepath.Join("testdata", "tiny.map")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		g, err := grid.ReadMap(bytes.NewReader(in), "fuzz.map", grid.Options{})
		if err != nil {
			if g != nil {
				t.Fatalf("ReadMap returned a grid and the error %v", err)
			}
			if !strings.HasPrefix(err.Error(), "grid: ") {
				t.Fatalf("error %q does not start with the package name", err)
			}
			return
		}
		maiRoundTrip(t, g)
	})
}

// FuzzReadScenarios checks that ReadScenarios never panics and that what it
// accepts is consistent: sizes positive, start and goal inside the stated
// map, and each length matching itself.
func FuzzReadScenarios(f *testing.F) {
	for _, tc := range maiScenCases {
		f.Add([]byte(tc.in))
	}
	if b, err := os.ReadFile(filepath.Join("testdata", "tiny.map.scen")); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		scens, err := grid.ReadScenarios(bytes.NewReader(in), "fuzz.scen")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "grid: ") {
				t.Fatalf("error %q does not start with the package name", err)
			}
			return
		}
		for i, s := range scens {
			if s.Width <= 0 || s.Height <= 0 || s.Bucket < 0 || s.Optimal < 0 ||
				s.Start.X < 0 || s.Start.Y < 0 || s.Start.X >= s.Width || s.Start.Y >= s.Height ||
				s.Goal.X < 0 || s.Goal.Y < 0 || s.Goal.X >= s.Width || s.Goal.Y >= s.Height {
				t.Fatalf("scenario %d is inconsistent: %+v", i, s)
			}
			if !s.Matches(s.Optimal) {
				t.Fatalf("scenario %d does not match its own length: %+v", i, s)
			}
			if s.Map == "" || strings.ContainsAny(s.Map, " \t\r\n") {
				t.Fatalf("scenario %d has map field %q", i, s.Map)
			}
		}
		// What was read writes and reads back the same.
		var buf bytes.Buffer
		if err := grid.WriteScenarios(&buf, scens); err != nil {
			t.Fatalf("writing what was read: %v", err)
		}
		back, err := grid.ReadScenarios(&buf, "back.scen")
		if err != nil || len(back) != len(scens) {
			t.Fatalf("reading back %d scenarios: %d, %v", len(scens), len(back), err)
		}
		for i, s := range scens {
			b := back[i]
			if b.Bucket != s.Bucket || b.Map != s.Map || b.Width != s.Width || b.Height != s.Height ||
				b.Start != s.Start || b.Goal != s.Goal || !b.Matches(s.Optimal) {
				t.Fatalf("scenario %d: %+v read back as %+v", i, s, b)
			}
		}
	})
}
