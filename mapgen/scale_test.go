package mapgen

import (
	"fmt"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

func TestScaleCells(t *testing.T) {
	for _, conn := range []grid.Connectivity{grid.Eight, grid.Four} {
		for seed := range int64(4) {
			for _, k := range []int{1, 2, 3, 5} {
				var g *grid.Grid
				if seed%2 == 0 {
					g = testmap.Random(seed, 13, 9, 0.35, grid.Options{Connectivity: conn})
				} else {
					g = testmap.RandomCosts(seed, 13, 9, 0.35, 4, conn)
				}
				s, err := Scale(g, k)
				if err != nil {
					t.Fatalf("seed %d, k %d: %v", seed, k, err)
				}
				if s.Width() != k*g.Width() || s.Height() != k*g.Height() {
					t.Fatalf("seed %d, k %d: size %d×%d, want %d×%d", seed, k, s.Width(), s.Height(), k*g.Width(), k*g.Height())
				}
				if s.Connectivity() != conn || s.HasCosts() != g.HasCosts() {
					t.Fatalf("seed %d, k %d: %v, costs %v; want %v, costs %v", seed, k, s.Connectivity(), s.HasCosts(), conn, g.HasCosts())
				}
				for y := range s.Height() {
					for x := range s.Width() {
						p, q := image.Pt(x, y), image.Pt(x/k, y/k)
						if s.Passable(p) != g.Passable(q) {
							t.Fatalf("seed %d, k %d: cell %v passable %v, original %v passable %v\n%s",
								seed, k, p, s.Passable(p), q, g.Passable(q), testmap.Render(g, nil))
						}
						if g.Passable(q) && s.Cost(p) != g.Cost(q) {
							t.Fatalf("seed %d, k %d: cell %v cost %v, original %v cost %v", seed, k, p, s.Cost(p), q, g.Cost(q))
						}
					}
				}
			}
		}
	}
}

func TestScaleErrors(t *testing.T) {
	one, err := grid.FromRows([]string{"."}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wide, err := grid.FromRows([]string{strings.Repeat(".", 300)}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		g    *grid.Grid
		k    int
		want string
	}{
		{"zero", one, 0, "mapgen: scale factor 0, want at least 1"},
		{"negative", one, -3, "mapgen: scale factor -3, want at least 1"},
		{"too many cells", one, 1 << 15, "mapgen: 1×1 map scaled 32768 times exceeds 268435456 cells"},
		{"too wide", wide, 1 << 20, "mapgen: 300×1 map scaled 1048576 times exceeds 268435456 cells"},
		{"overflow", wide, math.MaxInt / 2, "exceeds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Scale(tc.g, tc.k)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Scale(%d×%d, %d) = %v, %v; want error %q", tc.g.Width(), tc.g.Height(), tc.k, s, err, tc.want)
			}
		})
	}
}

func optimal(t *testing.T, g *grid.Grid, a, b image.Point) float64 {
	t.Helper()
	_, res, err := grid.NewSearcher(g).AppendPath(nil, a, b, grid.Query{})
	if err != nil {
		t.Fatal(err)
	}
	return res.Cost
}

// TestScaleLengths checks the bound of Scale's documentation on random maps:
// the optimal cost between the same places of two blocks is at most k times
// the optimal cost between the original cells.
func TestScaleLengths(t *testing.T) {
	for _, tc := range []struct {
		name  string
		conn  grid.Connectivity
		costs bool
	}{
		{"8-connected", grid.Eight, false},
		{"4-connected", grid.Four, false},
		{"8-connected costs", grid.Eight, true},
		{"4-connected costs", grid.Four, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shorter := 0
			for seed := int64(1); seed <= 8; seed++ {
				g := testmap.Random(seed, 20, 16, 0.3, grid.Options{Connectivity: tc.conn})
				ks := []int{2, 3, 4}
				if tc.costs {
					g = testmap.RandomCosts(seed, 20, 16, 0.3, 3, tc.conn)
					ks = []int{3, 5} // the bound holds for odd k only
				}
				pairs := testmap.RandomPairs(testmap.NewRand(seed), g, 12)
				for _, k := range ks {
					s, err := Scale(g, k)
					if err != nil {
						t.Fatal(err)
					}
					offsets := []int{0, k / 2, k - 1}
					if tc.costs {
						offsets = []int{(k - 1) / 2}
					}
					for _, p := range pairs {
						if !g.Connected(p[0], p[1]) {
							continue
						}
						want := float64(k) * optimal(t, g, p[0], p[1])
						for _, c := range offsets {
							a := p[0].Mul(k).Add(image.Pt(c, c))
							b := p[1].Mul(k).Add(image.Pt(c, c))
							got := optimal(t, s, a, b)
							if got > want*(1+1e-12)+1e-9 {
								t.Errorf("seed %d, k %d: cost %v→%v %.6f, want at most %d × %v→%v = %.6f\n%s",
									seed, k, a, b, got, k, p[0], p[1], want, testmap.Render(g, nil))
							}
							if got < want-1e-9 {
								shorter++
							}
						}
					}
				}
			}
			if shorter == 0 {
				t.Errorf("no scaled path was shorter than k times; the documentation says they can be")
			}
		})
	}
}

// TestScaleCorner checks the cost of going round a wall cell that
// Scale's documentation gives: 2 on the original, (k−1)·√2 + 2 scaled.
func TestScaleCorner(t *testing.T) {
	g, err := grid.FromRows([]string{
		"a.",
		"#b",
	}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := optimal(t, g, image.Pt(0, 0), image.Pt(1, 1)); got != 2 {
		t.Fatalf("original cost %v, want 2", got)
	}
	for k := 1; k <= 16; k++ {
		s, err := Scale(g, k)
		if err != nil {
			t.Fatal(err)
		}
		c := image.Pt(k/2, k/2)
		got := optimal(t, s, c, image.Pt(k, k).Add(c))
		if want := float64(k-1)*math.Sqrt2 + 2; math.Abs(got-want) > 1e-9 {
			t.Errorf("k %d: cost %.6f, want (k−1)·√2 + 2 = %.6f", k, got, want)
		}
	}
}

func BenchmarkScale(b *testing.B) {
	g := mustWorld(b, WorldOptions{Seed: 1, Width: 512, Height: 512})
	for _, k := range []int{2, 8} {
		b.Run(fmt.Sprintf("512x%d", k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				s, err := Scale(g, k)
				if err != nil || s.Width() != 512*k {
					b.Fatal(s, err)
				}
			}
		})
	}
}
