package hpa_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// encode writes hg to memory and checks the byte count WriteTo returns.
func encode(t testing.TB, hg *hpa.Graph) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := hg.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	st := hg.Stats()
	if want := 60 + 12*st.Nodes + 12*st.Edges; n != int64(buf.Len()) || buf.Len() != want {
		t.Fatalf("WriteTo returned %d and wrote %d bytes, want %d", n, buf.Len(), want)
	}
	return buf.Bytes()
}

// sameQueries checks that a and b answer n random queries identically.
func sameQueries(t *testing.T, a, b *hpa.Graph, seed int64, n int) {
	t.Helper()
	g := a.Grid()
	qa, qb := hpa.NewSearcher(a), hpa.NewSearcher(b)
	for _, p := range testmap.RandomPairs(testmap.NewRand(seed), g, n) {
		pa, ra, erra := qa.AppendPath(nil, p[0], p[1], hpa.Query{})
		pb, rb, errb := qb.AppendPath(nil, p[0], p[1], hpa.Query{})
		if ra != rb || !slices.Equal(pa, pb) || fmt.Sprint(erra) != fmt.Sprint(errb) {
			t.Fatalf("seed %d, %v→%v: read graph gives %+v %v, built one %+v %v\nread:\n%s\nbuilt:\n%s",
				seed, p[0], p[1], rb, errb, ra, erra, testmap.Render(g, pb), testmap.Render(g, pa))
		}
	}
}

func TestRoundTrip(t *testing.T) {
	type gridCase struct {
		name string
		g    *grid.Grid
	}
	grids := []gridCase{
		{"8-connected", testmap.Random(1, 97, 61, 0.2, grid.Options{})},
		{"4-connected", testmap.Random(2, 97, 61, 0.2, grid.Options{Connectivity: grid.Four})},
		{"terrain", testmap.RandomCosts(3, 97, 61, 0.2, 3, grid.Eight)},
		{"open", testmap.Random(4, 40, 30, 0, grid.Options{})},
		{"walls only", testmap.Random(5, 20, 20, 1, grid.Options{})},
	}
	for _, gc := range grids {
		for _, opt := range []hpa.Options{{}, {ClusterSize: 1, MaxEntrance: 1}, {ClusterSize: 5, MaxEntrance: 2}, {ClusterSize: 8}, {ClusterSize: 200},
			{ClusterSize: 4, Levels: 3, LevelFactor: 2}, {ClusterSize: 3, LevelFactor: 3}} {
			t.Run(fmt.Sprintf("%s/cluster%d/entrance%d/factor%d", gc.name, opt.ClusterSize, opt.MaxEntrance, opt.LevelFactor), func(t *testing.T) {
				hg, err := hpa.Build(gc.g, opt)
				if err != nil {
					t.Fatal(err)
				}
				b := encode(t, hg)
				rg, err := hpa.Read(bytes.NewReader(b), gc.g)
				if err != nil {
					t.Fatal(err)
				}
				ro, ho := rg.Options(), hg.Options()
				if rg.Stats() != hg.Stats() || ro.ClusterSize != ho.ClusterSize || ro.MaxEntrance != ho.MaxEntrance || ro.Levels != ho.Levels || ro.LevelFactor != ho.LevelFactor || rg.Grid() != gc.g {
					t.Errorf("read %+v %+v, built %+v %+v", rg.Stats(), rg.Options(), hg.Stats(), hg.Options())
				}
				if again := encode(t, rg); !bytes.Equal(again, b) {
					t.Error("the read graph writes different bytes")
				}
				sameQueries(t, hg, rg, 11, 200)
			})
		}
	}
}

// TestReadExact checks that Read stops at the end of the graph, so that
// two graphs can follow each other in one stream.
func TestReadExact(t *testing.T) {
	g := testmap.Random(6, 50, 40, 0.2, grid.Options{})
	var files [][]byte
	var stream bytes.Buffer
	for _, cs := range []int{4, 9} {
		hg, err := hpa.Build(g, hpa.Options{ClusterSize: cs})
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, encode(t, hg))
		stream.Write(files[len(files)-1])
	}
	stream.WriteString("tail")
	r := iotest.OneByteReader(&stream)
	for _, want := range files {
		hg, err := hpa.Read(r, g)
		if err != nil {
			t.Fatal(err)
		}
		if got := encode(t, hg); !bytes.Equal(got, want) {
			t.Error("graph read from a stream differs")
		}
	}
	if rest, _ := io.ReadAll(r); string(rest) != "tail" {
		t.Errorf("left %q, want tail", rest)
	}
}

// smallMap has clusters of 4 with entrances split above 2; its graph file is
// small enough to seed the fuzzer.
const smallMap = `
	....#.......
	....#...##..
	.........#..
	....#....#..
	##.####..#..
	.....#......
	.....#..##..
	.....#......
	..#.........
	..#...###...
`

var smallOptions = hpa.Options{ClusterSize: 4, MaxEntrance: 2}

func smallGraph(t testing.TB) (*grid.Grid, []byte) {
	t.Helper()
	m, err := testmap.Parse(smallMap, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hg, err := hpa.Build(m.Grid, smallOptions)
	if err != nil {
		t.Fatal(err)
	}
	return m.Grid, encode(t, hg)
}

// layout decodes a graph file well enough to aim corruptions at it.
type layout struct {
	b     []byte
	cs, w int
	n, m  int
}

func newLayout(b []byte) *layout {
	le := binary.LittleEndian
	return &layout{b: b, w: int(le.Uint32(b[20:])), cs: int(le.Uint32(b[28:])), n: int(le.Uint32(b[40:])), m: int(le.Uint32(b[44:]))}
}

func (l *layout) nodeAt(i int) int   { return 56 + 8*i }
func (l *layout) degreeAt(i int) int { return 56 + 8*l.n + 4*i }
func (l *layout) edgeAt(i int) int   { return 56 + 12*l.n + 12*i }

func (l *layout) cell(i int) image.Point {
	o := l.nodeAt(i)
	return image.Pt(int(binary.LittleEndian.Uint32(l.b[o:])), int(binary.LittleEndian.Uint32(l.b[o+4:])))
}

func (l *layout) cluster(p image.Point) int {
	return p.Y/l.cs*((l.w+l.cs-1)/l.cs) + p.X/l.cs
}

// edges returns each edge as (from, to) node numbers.
func (l *layout) edges() [][2]int {
	var out [][2]int
	for a := range l.n {
		for range binary.LittleEndian.Uint32(l.b[l.degreeAt(a):]) {
			e := len(out)
			out = append(out, [2]int{a, int(binary.LittleEndian.Uint32(l.b[l.edgeAt(e):]))})
		}
	}
	return out
}

// findEdge returns the first edge whose ends are in the same cluster (intra)
// or not.
func (l *layout) findEdge(intra bool) (int, [2]int) {
	for i, e := range l.edges() {
		if (l.cluster(l.cell(e[0])) == l.cluster(l.cell(e[1]))) == intra {
			return i, e
		}
	}
	panic("no such edge")
}

func (l *layout) put32(o int, v uint32) { binary.LittleEndian.PutUint32(l.b[o:], v) }
func (l *layout) put64(o int, v uint64) { binary.LittleEndian.PutUint64(l.b[o:], v) }

// fixCRC rewrites the trailing checksum to match the bytes before it.
func fixCRC(b []byte) {
	if len(b) >= 4 {
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], crc32.MakeTable(crc32.Castagnoli)))
	}
}

func TestReadErrors(t *testing.T) {
	g, valid := smallGraph(t)
	other := testmap.Random(9, 12, 10, 0.1, grid.Options{})
	four, err := testmap.Parse(smallMap, grid.Options{Connectivity: grid.Four})
	if err != nil {
		t.Fatal(err)
	}
	l0 := newLayout(valid)
	if l0.n < 10 || l0.m < 20 {
		t.Fatalf("small graph has %d nodes and %d edges; the cases below want more", l0.n, l0.m)
	}
	fp := hpa.Fingerprint(g)
	tests := []struct {
		name   string
		grid   *grid.Grid
		edit   func(l *layout) []byte // nil: the valid file
		fix    bool                   // fix the checksum after edit
		offset func(l *layout) int
		want   string
	}{
		{"empty", g, func(l *layout) []byte { return nil }, false, at(0), "truncated file: it ends in the magic"},
		{"short magic", g, func(l *layout) []byte { return l.b[:5] }, false, at(5), "truncated file: it ends in the magic"},
		{"png", g, func(l *layout) []byte { return []byte("\x89PNG\r\n\x1a\n....") }, false, at(0), `not a graph file: it starts "\x89PNG\r\n\x1a\n"`},
		{"short other", g, func(l *layout) []byte { return []byte("GIF") }, false, at(0), `not a graph file: it starts "GIF"`},
		{"magic", g, func(l *layout) []byte { l.b[7] = 'B'; return l.b }, true, at(0), "not a graph file"},
		{"version 2", g, func(l *layout) []byte { l.put32(8, 2); return l.b }, true, at(8), "unknown version 2, want 3"},
		{"version 0", g, func(l *layout) []byte { l.put32(8, 0); return l.b }, true, at(8), "unknown version 0, want 3"},
		{"levels 0", g, func(l *layout) []byte { l.put32(48, 0); return l.b }, true, at(48), "0 levels, want 1 to 4"},
		{"levels 5", g, func(l *layout) []byte { l.put32(48, 5); return l.b }, true, at(48), "5 levels, want 1 to 4"},
		{"level factor 1", g, func(l *layout) []byte { l.put32(52, 1); return l.b }, true, at(52), "level factor 1, want 2 to 8"},
		{"level factor 9", g, func(l *layout) []byte { l.put32(52, 9); return l.b }, true, at(52), "level factor 9, want 2 to 8"},
		{"short header", g, func(l *layout) []byte { return l.b[:30] }, false, at(30), "truncated file: it ends in the header"},
		{"other map", other, nil, false, at(12), fmt.Sprintf("graph was built for another map: file fingerprint %016x (12×10), map fingerprint %016x (12×10)", fp, hpa.Fingerprint(other))},
		{"other connectivity", four.Grid, nil, false, at(12), "graph was built for another map"},
		{"fingerprint", g, func(l *layout) []byte { l.b[12]++; return l.b }, true, at(12), "graph was built for another map"},
		{"width", g, func(l *layout) []byte { l.put32(20, 13); return l.b }, true, at(12), "(13×10), map fingerprint"},
		{"cluster size 0", g, func(l *layout) []byte { l.put32(28, 0); return l.b }, true, at(28), "cluster size 0, want 1 to 1024"},
		{"cluster size huge", g, func(l *layout) []byte { l.put32(28, 1<<31); return l.b }, true, at(28), "cluster size 2147483648"},
		{"max entrance 0", g, func(l *layout) []byte { l.put32(32, 0); return l.b }, true, at(32), "max entrance 0"},
		{"max entrance huge", g, func(l *layout) []byte { l.put32(32, math.MaxUint32); return l.b }, true, at(32), "max entrance 4294967295"},
		{"nodes absurd", g, func(l *layout) []byte { l.put32(40, 121); return l.b }, true, at(40), "121 nodes, more than the 120 a 12×10 map"},
		{"nodes max", g, func(l *layout) []byte { l.put32(40, math.MaxUint32); return l.b }, true, at(40), "4294967295 nodes"},
		{"edges absurd", g, func(l *layout) []byte { l.put32(44, uint32(l.n*19+1)); return l.b }, true, at(44), fmt.Sprintf("%d edges, more than the %d", l0.n*19+1, l0.n*19)},
		{"truncated nodes", g, func(l *layout) []byte { return l.b[:l.nodeAt(3)+2] }, false, func(l *layout) int { return l.nodeAt(3) + 2 }, "truncated file: it ends in the nodes"},
		{"truncated degrees", g, func(l *layout) []byte { return l.b[:l.degreeAt(1)] }, false, func(l *layout) int { return l.degreeAt(1) }, "truncated file: it ends in the degrees"},
		{"truncated edges", g, func(l *layout) []byte { return l.b[:l.edgeAt(l.m)-1] }, false, func(l *layout) int { return l.edgeAt(l.m) - 1 }, "truncated file: it ends in the edges"},
		{"no checksum", g, func(l *layout) []byte { return l.b[:len(l.b)-4] }, false, func(l *layout) int { return len(l.b) - 4 }, "truncated file: it ends in the checksum"},
		{"bad checksum", g, func(l *layout) []byte { l.b[l.edgeAt(3)+9] ^= 0x10; return l.b }, false, func(l *layout) int { return len(l.b) - 4 }, "checksum"},
		{"checksum flipped", g, func(l *layout) []byte { l.b[len(l.b)-1] ^= 1; return l.b }, false, func(l *layout) int { return len(l.b) - 4 }, "the file is damaged"},
		{"node outside", g, func(l *layout) []byte { l.put32(l.nodeAt(0), 12); return l.b }, true, func(l *layout) int { return l.nodeAt(0) }, "node 0 at (12,"},
		{"node negative", g, func(l *layout) []byte { l.put32(l.nodeAt(2)+4, math.MaxUint32); return l.b }, true, func(l *layout) int { return l.nodeAt(2) }, "is outside the 12×10 map"},
		{"node blocked", g, func(l *layout) []byte { l.put32(l.nodeAt(0), 4); l.put32(l.nodeAt(0)+4, 0); return l.b }, true, func(l *layout) int { return l.nodeAt(0) }, "node 0 at (4,0) is a blocked cell"},
		{"nodes out of order", g, func(l *layout) []byte {
			a, b := l.nodeAt(0), l.nodeAt(1)
			var tmp [8]byte
			copy(tmp[:], l.b[a:a+8])
			copy(l.b[a:], l.b[b:b+8])
			copy(l.b[b:], tmp[:])
			return l.b
		}, true, func(l *layout) int { return l.nodeAt(1) }, "node 1 at"},
		{"node repeated", g, func(l *layout) []byte { copy(l.b[l.nodeAt(1):], l.b[l.nodeAt(0):l.nodeAt(1)]); return l.b }, true, func(l *layout) int { return l.nodeAt(1) }, "is out of order after"},
		{"degree too large", g, func(l *layout) []byte { l.put32(l.degreeAt(0), 9); return l.b }, true, func(l *layout) int { return l.degreeAt(0) }, "node 0 has 9 edges, want 2: 1 to other clusters and 1 inside its own"},
		{"degree negative", g, func(l *layout) []byte { l.put32(l.degreeAt(0), math.MaxUint32); return l.b }, true, func(l *layout) int { return l.degreeAt(0) }, "node 0 has 4294967295 edges"},
		{"degrees short", g, func(l *layout) []byte {
			l.put32(l.degreeAt(0), binary.LittleEndian.Uint32(l.b[l.degreeAt(0):])-1)
			return l.b
		}, true, func(l *layout) int { return l.degreeAt(0) }, "node 0 has 1 edges, want 2"},
		{"degrees long", g, func(l *layout) []byte {
			i := l.n - 1
			l.put32(l.degreeAt(i), binary.LittleEndian.Uint32(l.b[l.degreeAt(i):])+1)
			return l.b
		}, true, func(l *layout) int { return l.degreeAt(l.n - 1) }, fmt.Sprintf("node %d has 3 edges, want 2", l0.n-1)},
		{"edges fewer", g, func(l *layout) []byte {
			// The header and the records agree on one edge less.
			l.put32(44, uint32(l.m-1))
			return slices.Delete(l.b, l.edgeAt(l.m-1), l.edgeAt(l.m))
		}, true, func(l *layout) int { return l.degreeAt(l.n - 1) }, fmt.Sprintf("the degrees of nodes 0 to %d add up to more than the %d edges", l0.n-1, l0.m-1)},
		{"edges more", g, func(l *layout) []byte {
			l.put32(44, uint32(l.m+1))
			return slices.Insert(l.b, l.edgeAt(l.m), l.b[l.edgeAt(0):l.edgeAt(1)]...)
		}, true, func(l *layout) int { return l.degreeAt(0) }, fmt.Sprintf("the degrees add up to %d, want the %d edges", l0.m, l0.m+1)},
		{"edge target", g, func(l *layout) []byte { l.put32(l.edgeAt(5), uint32(l.n)); return l.b }, true, func(l *layout) int { return l.edgeAt(5) }, fmt.Sprintf("edge 5 from node %d goes to node %d, want another of the %d nodes", l0.edges()[5][0], l0.n, l0.n)},
		{"edge target negative", g, func(l *layout) []byte { l.put32(l.edgeAt(2), math.MaxUint32); return l.b }, true, func(l *layout) int { return l.edgeAt(2) }, "goes to node 4294967295"},
		{"edge loop", g, func(l *layout) []byte { l.put32(l.edgeAt(0), 0); return l.b }, true, func(l *layout) int { return l.edgeAt(0) }, "edge 0 from node 0 goes to node 0"},
		{"edge NaN", g, func(l *layout) []byte { setCost(l, true, math.NaN()); return l.b }, true, intraAt, "costs NaN, want a cost from"},
		{"edge negative", g, func(l *layout) []byte { setCost(l, true, -1); return l.b }, true, intraAt, "costs -1, want a cost from"},
		{"edge infinite", g, func(l *layout) []byte { setCost(l, true, math.Inf(1)); return l.b }, true, intraAt, "costs +Inf, want a cost from"},
		{"edge too cheap", g, func(l *layout) []byte { setCost(l, true, 0.5); return l.b }, true, intraAt, "costs 0.5, want a cost from 1.41421356"},
		{"inter edge cost", g, func(l *layout) []byte { setCost(l, false, 1.5); return l.b }, true, func(l *layout) int { i, _ := l.findEdge(false); return l.edgeAt(i) }, "costs 1.5, want the step cost 1"},
		{"inter edge jump", g, func(l *layout) []byte {
			// Retarget an intra-cluster edge to a node of a cluster that
			// does not touch its source.
			i, e := l.findEdge(true)
			for j := range l.n {
				if d := l.cell(j).Sub(l.cell(e[0])); max(d.X, -d.X, d.Y, -d.Y) > 1 && l.cluster(l.cell(j)) != l.cluster(l.cell(e[0])) {
					l.put32(l.edgeAt(i), uint32(j))
					return l.b
				}
			}
			panic("no far node")
		}, true, intraAt, "in different clusters, which is not a legal step"},
		{"entrances 0", g, func(l *layout) []byte { l.put32(36, 0); return l.b }, true, at(36), "0 entrances, want the 17 of the map"},
		{"entrances many", g, func(l *layout) []byte { l.put32(36, math.MaxUint32); return l.b }, true, at(36), "4294967295 entrances, want the 17"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := newLayout(bytes.Clone(valid))
			if tc.edit != nil {
				l.b = tc.edit(l)
			}
			if tc.fix {
				fixCRC(l.b)
			}
			hg, err := hpa.Read(bytes.NewReader(l.b), tc.grid)
			fe, ok := errors.AsType[*hpa.FormatError](err)
			if !ok {
				t.Fatalf("got %v, %v; want a *FormatError", hg, err)
			}
			if want := int64(tc.offset(newLayout(bytes.Clone(valid)))); fe.Offset != want {
				t.Errorf("offset %d, want %d (%v)", fe.Offset, want, err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "hpa: ") || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q, want one starting hpa: and holding %q", msg, tc.want)
			}
		})
	}
}

func at(o int) func(*layout) int { return func(*layout) int { return o } }

func intraAt(l *layout) int { i, _ := l.findEdge(true); return l.edgeAt(i) }

func setCost(l *layout, intra bool, c float64) {
	i, _ := l.findEdge(intra)
	l.put64(l.edgeAt(i)+4, math.Float64bits(c))
}

// TestReadTruncated cuts the file at every length and expects a truncation
// error at the cut.
func TestReadTruncated(t *testing.T) {
	g, valid := smallGraph(t)
	for n := range len(valid) {
		_, err := hpa.Read(bytes.NewReader(valid[:n]), g)
		fe, ok := errors.AsType[*hpa.FormatError](err)
		if !ok || fe.Offset != int64(n) || !strings.Contains(err.Error(), "truncated file") {
			t.Fatalf("cut at %d: got %v, want a truncation at %d", n, err, n)
		}
	}
}

func TestReadMisc(t *testing.T) {
	g, valid := smallGraph(t)
	if _, err := hpa.Read(bytes.NewReader(valid), nil); err == nil || err.Error() != "hpa: nil grid" {
		t.Errorf("nil grid: got %v", err)
	}
	boom := errors.New("boom")
	r := io.MultiReader(bytes.NewReader(valid[:100]), iotest.ErrReader(boom))
	_, err := hpa.Read(r, g)
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "hpa: reading the nodes at byte 100: ") {
		t.Errorf("failing reader: got %v", err)
	}
	if _, ok := errors.AsType[*hpa.FormatError](err); ok {
		t.Error("a failing reader gives a FormatError")
	}
	// Writer errors come back with the count written.
	hg, err := hpa.Read(bytes.NewReader(valid), g)
	if err != nil {
		t.Fatal(err)
	}
	n, err := hg.WriteTo(&limitWriter{n: 30})
	if n != 30 || !errors.Is(err, errFull) {
		t.Errorf("full writer: got %d, %v; want 30, %v", n, err, errFull)
	}
}

var errFull = errors.New("full")

type limitWriter struct{ n int }

func (w *limitWriter) Write(p []byte) (int, error) {
	k := min(len(p), w.n)
	w.n -= k
	if k < len(p) {
		return k, errFull
	}
	return k, nil
}

// TestReadMemory checks that a header claiming the most nodes and edges a
// large map allows costs nothing until the data is there.
func TestReadMemory(t *testing.T) {
	g := testmap.Random(1, 1024, 1024, 0, grid.Options{})
	b := []byte("CAIRNHPA")
	b = binary.LittleEndian.AppendUint32(b, 3)
	b = binary.LittleEndian.AppendUint64(b, hpa.Fingerprint(g))
	for _, v := range []uint32{1024, 1024, 16, 6, 1, 262144, 262144 * 67, 1, 4} {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	b = append(b, make([]byte, 1000)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := hpa.Read(bytes.NewReader(b), g)
	runtime.ReadMemStats(&after)
	if fe, ok := errors.AsType[*hpa.FormatError](err); !ok || !strings.Contains(fe.Msg, "truncated") {
		t.Fatalf("got %v, want a truncation", err)
	}
	// What remains is the read buffer and the first slices.
	if d := after.TotalAlloc - before.TotalAlloc; d > 8<<20 {
		t.Errorf("reading a 1 KB file allocated %d bytes", d)
	}
}

func TestFingerprint(t *testing.T) {
	const w, h = 20, 13
	free := make([]bool, w*h)
	costs := make([]float64, w*h)
	for i := range free {
		free[i] = i%7 != 3
		costs[i] = 1 + float64(i%3)
	}
	build := func(free []bool, opt grid.Options) uint64 {
		g, err := grid.New(w, h, free, opt)
		if err != nil {
			t.Fatal(err)
		}
		return hpa.Fingerprint(g)
	}
	base := build(free, grid.Options{})
	if again := build(slices.Clone(free), grid.Options{}); again != base {
		t.Errorf("same grid: %016x and %016x", base, again)
	}
	seen := map[uint64]string{base: "base"}
	differ := func(name string, fp uint64) {
		t.Helper()
		if prev, ok := seen[fp]; ok {
			t.Errorf("%s has the fingerprint of %s, %016x", name, prev, fp)
		}
		seen[fp] = name
	}
	for _, i := range []int{0, 1, 7, w*h - 1} {
		f := slices.Clone(free)
		f[i] = !f[i]
		differ(fmt.Sprintf("cell %d flipped", i), build(f, grid.Options{}))
	}
	differ("4-connected", build(free, grid.Options{Connectivity: grid.Four}))
	withCosts := build(free, grid.Options{Costs: costs})
	differ("costs", withCosts)
	c := slices.Clone(costs)
	c[5] = 2.5 // a free cell
	differ("a cost changed", build(free, grid.Options{Costs: c}))
	c = slices.Clone(costs)
	c[3] = 9 // a blocked cell: no path uses it
	if fp := build(free, grid.Options{Costs: c}); fp != withCosts {
		t.Errorf("the cost of a blocked cell changes the fingerprint")
	}
	g2, _ := grid.New(h, w, free, grid.Options{})
	differ("transposed size", hpa.Fingerprint(g2))
}

// TestMovingAIFile round-trips the graphs of benchmark maps and compares
// queries on their scenarios.
func TestMovingAIFile(t *testing.T) {
	for _, name := range []string{"den520d.map", "Berlin_0_1024.map"} {
		t.Run(name, func(t *testing.T) {
			g, _ := testmap.MovingAI(t, name)
			hg, err := hpa.Build(g, hpa.Options{})
			if err != nil {
				t.Fatal(err)
			}
			b := encode(t, hg)
			t0 := time.Now()
			rg, err := hpa.Read(bytes.NewReader(b), g)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%+v: %d bytes, read in %v", rg.Stats(), len(b), time.Since(t0))
			if rg.Stats() != hg.Stats() {
				t.Errorf("read %+v, built %+v", rg.Stats(), hg.Stats())
			}
			sameQueries(t, hg, rg, 1, 100)
		})
	}
}

// BenchmarkRead loads the Berlin_0_1024 graph from memory.
func BenchmarkRead(b *testing.B) {
	g, _ := testmap.MovingAI(b, "Berlin_0_1024.map")
	hg, err := hpa.Build(g, hpa.Options{})
	if err != nil {
		b.Fatal(err)
	}
	data := encode(b, hg)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		rg, err := hpa.Read(bytes.NewReader(data), g)
		if err != nil || rg.Stats() != hg.Stats() {
			b.Fatal(err)
		}
	}
}

// BenchmarkFingerprint hashes the Berlin_0_1024 grid.
func BenchmarkFingerprint(b *testing.B) {
	g, _ := testmap.MovingAI(b, "Berlin_0_1024.map")
	for b.Loop() {
		if hpa.Fingerprint(g) == 0 {
			b.Fatal("zero fingerprint")
		}
	}
}

func ExampleRead() {
	// Build once (as hpabuild does), write, and load the graph again for
	// the same grid; another grid is refused.
	rows := []string{
		"........#.......",
		"........#.......",
		"....#...........",
		"....#...#.......",
		"#.###.#####.###.",
		"........#.......",
		"........#.......",
		"................",
	}
	g, err := grid.FromRows(rows, grid.Options{})
	if err != nil {
		panic(err)
	}
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 4})
	if err != nil {
		panic(err)
	}
	var file bytes.Buffer
	n, err := hg.WriteTo(&file)
	if err != nil {
		panic(err)
	}
	loaded, err := hpa.Read(bytes.NewReader(file.Bytes()), g)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d bytes, %+v\n", n, loaded.Stats())

	rows[0] = "#......." + rows[0][8:]
	other, _ := grid.FromRows(rows, grid.Options{})
	_, err = hpa.Read(bytes.NewReader(file.Bytes()), other)
	fe, ok := errors.AsType[*hpa.FormatError](err)
	fmt.Println(ok, fe.Offset, strings.HasPrefix(err.Error(), "hpa: graph was built for another map"))
	// Output:
	// 924 bytes, {Clusters:8 Entrances:10 Nodes:20 Edges:52}
	// true 12 true
}

// TestBuildProgress checks that Options.Progress sees every cluster, in
// order, one call at a time. (It sits here with the other hpabuild needs.)
func TestBuildProgress(t *testing.T) {
	g := testmap.Random(8, 120, 90, 0.2, grid.Options{})
	var calls, inFlight, overlaps int
	var mu sync.Mutex
	last := 0
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 7, Progress: func(done, total int) {
		mu.Lock()
		inFlight++
		if inFlight > 1 {
			overlaps++
		}
		mu.Unlock()
		calls++ // unsynchronised on purpose: the race detector checks the serialisation
		if done != last+1 || total != 18*13 {
			t.Errorf("call %d: done %d of %d after %d", calls, done, total, last)
		}
		last = done
		mu.Lock()
		inFlight--
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if calls != hg.Stats().Clusters || overlaps != 0 {
		t.Errorf("%d calls, %d overlapping; want %d and none", calls, overlaps, hg.Stats().Clusters)
	}
}

// graphFile is a graph file decoded into records, for tests that change
// its structure and encode it again.
type graphFile struct {
	header []byte // the 56 bytes before the nodes
	nodes  []image.Point
	edges  [][]fileEdge // per node, in file order
}

type fileEdge struct {
	to   int
	cost float64
}

func decodeFile(b []byte) *graphFile {
	l := newLayout(b)
	f := &graphFile{header: bytes.Clone(b[:56]), edges: make([][]fileEdge, l.n)}
	for i := range l.n {
		f.nodes = append(f.nodes, l.cell(i))
	}
	for k, e := range l.edges() {
		cost := math.Float64frombits(binary.LittleEndian.Uint64(b[l.edgeAt(k)+4:]))
		f.edges[e[0]] = append(f.edges[e[0]], fileEdge{e[1], cost})
	}
	return f
}

// encode writes the records with the header's node and edge counts made to
// match and a valid checksum.
func (f *graphFile) encode() []byte {
	le := binary.LittleEndian
	m := 0
	for _, es := range f.edges {
		m += len(es)
	}
	b := bytes.Clone(f.header)
	le.PutUint32(b[40:], uint32(len(f.nodes)))
	le.PutUint32(b[44:], uint32(m))
	for _, p := range f.nodes {
		b = le.AppendUint32(b, uint32(p.X))
		b = le.AppendUint32(b, uint32(p.Y))
	}
	for _, es := range f.edges {
		b = le.AppendUint32(b, uint32(len(es)))
	}
	for _, es := range f.edges {
		for _, e := range es {
			b = le.AppendUint32(b, uint32(e.to))
			b = le.AppendUint64(b, math.Float64bits(e.cost))
		}
	}
	b = append(b, 0, 0, 0, 0)
	fixCRC(b)
	return b
}

// Offsets in the encoded file.
func (f *graphFile) nodeAt(i int) int   { return 56 + 8*i }
func (f *graphFile) degreeAt(i int) int { return 56 + 8*len(f.nodes) + 4*i }

// edgeAt returns the offset of the k-th edge of node a.
func (f *graphFile) edgeAt(a, k int) int {
	i := k
	for _, es := range f.edges[:a] {
		i += len(es)
	}
	return 56 + 12*len(f.nodes) + 12*i
}

func (f *graphFile) cluster(p image.Point) int {
	cs, w := int(binary.LittleEndian.Uint32(f.header[28:])), int(binary.LittleEndian.Uint32(f.header[20:]))
	return p.Y/cs*((w+cs-1)/cs) + p.X/cs
}

// inside reports whether edge e of node a stays in a's cluster.
func (f *graphFile) inside(a int, e fileEdge) bool {
	return f.cluster(f.nodes[a]) == f.cluster(f.nodes[e.to])
}

// keep keeps the edges for which ok returns true.
func (f *graphFile) keep(ok func(a int, e fileEdge) bool) {
	for a, es := range f.edges {
		f.edges[a] = slices.DeleteFunc(es, func(e fileEdge) bool { return !ok(a, e) })
	}
}

// joined reports whether the file has an edge from a to b, and where.
func (f *graphFile) joined(a, b int) (int, bool) {
	i := slices.IndexFunc(f.edges[a], func(e fileEdge) bool { return e.to == b })
	return i, i >= 0
}

func (f *graphFile) put32(o int, v uint32) { binary.LittleEndian.PutUint32(f.header[o:], v) }

// shapeEdits are graphs that a build of smallMap does not make, with a
// valid checksum: each edit returns the offset Read should refuse it at.
// Read before its checks of the graph's shape accepted them all.
var shapeEdits = []struct {
	name string
	edit func(f *graphFile) int
	want string
}{
	{"no nodes", func(f *graphFile) int {
		f.nodes, f.edges = nil, nil
		f.put32(36, 0) // no entrances either, to agree with the edges
		return 40
	}, "0 nodes, want the 30 transition cells of the map"},
	{"no inter-cluster edges", func(f *graphFile) int {
		f.keep(f.inside)
		f.put32(36, 0) // no entrances either, to agree with the edges
		return f.degreeAt(0)
	}, "node 0 has 1 edges, want 2: 1 to other clusters and 1 inside its own"},
	{"no intra-cluster edges", func(f *graphFile) int {
		f.keep(func(a int, e fileEdge) bool { return !f.inside(a, e) })
		return f.degreeAt(0)
	}, "node 0 has 1 edges, want 2: 1 to other clusters and 1 inside its own"},
	{"all pairs joined", func(f *graphFile) int {
		// Node 6 at (8,0) and node 7 at (8,2) share a cluster, but the
		// walls at (8,1) and (9,1) to (9,3) part them inside it.
		for a := range f.nodes {
			for b := range f.nodes {
				if _, ok := f.joined(a, b); !ok && a != b && f.cluster(f.nodes[a]) == f.cluster(f.nodes[b]) {
					f.edges[a] = append(f.edges[a], fileEdge{b, 2 * grid.Octile(f.nodes[a], f.nodes[b])})
				}
			}
			// The edges inside the cluster follow the others, by target.
			if in := slices.IndexFunc(f.edges[a], func(e fileEdge) bool { return f.inside(a, e) }); in >= 0 {
				slices.SortFunc(f.edges[a][in:], func(x, y fileEdge) int { return x.to - y.to })
			}
		}
		return f.degreeAt(6)
	}, "node 6 has 4 edges, want 2: 1 to other clusters and 1 inside its own"},
	{"pair joined across a wall", func(f *graphFile) int {
		// Node 6's edge to node 9, its group's other node, goes to node 7
		// instead, which no path inside the cluster reaches; degrees kept.
		k, _ := f.joined(6, 9)
		f.edges[6][k].to = 7
		k, _ = f.joined(9, 6)
		f.edges[9][k].to = 8
		k, _ = f.joined(6, 7)
		return f.edgeAt(6, k)
	}, "edge 21 joins (8,0) and (8,2), which no path inside their cluster joins"},
	{"edge into another cluster", func(f *graphFile) int {
		// Node 5 at (7,3) and node 8 at (8,3) face each other across a
		// border whose only transition is (7,2)–(8,2).
		k, _ := f.joined(5, 2)
		f.edges[5][k] = fileEdge{8, 1}
		return f.edgeAt(5, k)
	}, "edge 17 joins (7,3) and (8,3), which are not the two cells of a transition"},
	{"diagonal edge into another cluster", func(f *graphFile) int {
		k, _ := f.joined(13, 10)
		f.edges[13][k] = fileEdge{25, math.Sqrt2}
		return f.edgeAt(13, k)
	}, "joins (3,7) and (4,8), which are not the two cells of a transition"},
	{"transition moved", func(f *graphFile) int {
		// The transition (10,3)–(10,4) at the middle of its entrance moves
		// to the entrance's end.
		f.nodes[9], f.nodes[20] = image.Pt(11, 3), image.Pt(11, 4)
		return f.nodeAt(9)
	}, "node 9 is at (11,3), want the transition cell (10,3)"},
	{"cost differs from the edge back", func(f *graphFile) int {
		k, _ := f.joined(3, 4)
		f.edges[3][k].cost = 3.5
		k, _ = f.joined(4, 3)
		return f.edgeAt(4, k)
	}, "edge 14 from (7,2) to (4,2) costs 3, but the edge back costs 3.5"},
	{"cost too high", func(f *graphFile) int {
		k, _ := f.joined(3, 4)
		f.edges[3][k].cost = 1e300
		k2, _ := f.joined(4, 3)
		f.edges[4][k2].cost = 1e300
		return f.edgeAt(3, k)
	}, "edge 10 from (4,2) to (7,2) costs 1e+300, want a cost from 2.999999997 to 12.000000012"},
	{"inter-cluster edge last", func(f *graphFile) int {
		slices.Reverse(f.edges[0])
		return f.edgeAt(0, 1)
	}, "edge 1 from (3,2) to (4,2) leaves the cluster after edges inside it"},
	{"intra-cluster edges out of order", func(f *graphFile) int {
		es := f.edges[2]
		es[1], es[2] = es[2], es[1]
		return f.edgeAt(2, 2)
	}, "edge 6 from node 2 goes to node 3 after node 4"},
	{"intra-cluster edge repeated", func(f *graphFile) int {
		f.edges[2][2] = f.edges[2][1]
		return f.edgeAt(2, 2)
	}, "edge 6 from node 2 goes to node 3 after node 3"},
	{"inter-cluster edge repeated", func(f *graphFile) int {
		f.edges[13][1] = f.edges[13][0]
		return f.edgeAt(13, 1)
	}, "from (3,7) to (4,7) repeats an earlier edge"},
}

// TestReadShape checks that Read refuses graphs of the right size and
// checksum that a build does not make.
func TestReadShape(t *testing.T) {
	g, valid := smallGraph(t)
	for _, tc := range shapeEdits {
		t.Run(tc.name, func(t *testing.T) {
			f := decodeFile(valid)
			at := tc.edit(f)
			_, err := hpa.Read(bytes.NewReader(f.encode()), g)
			fe, ok := errors.AsType[*hpa.FormatError](err)
			if !ok {
				t.Fatalf("got error %v, want a *FormatError", err)
			}
			if fe.Offset != int64(at) {
				t.Errorf("offset %d, want %d (%v)", fe.Offset, at, err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "hpa: ") || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q, want one starting hpa: and holding %q", msg, tc.want)
			}
		})
	}
}

// farPairs returns n pairs of free cells of smallMap's grid whose clusters
// (of smallOptions) do not touch, which queries answer on the abstract
// graph.
func farPairs(g *grid.Grid, seed int64, n int) [][2]image.Point {
	cs := smallOptions.ClusterSize
	var out [][2]image.Point
	for _, p := range testmap.RandomPairs(testmap.NewRand(seed), g, 50*n) {
		if d := p[0].Div(cs).Sub(p[1].Div(cs)); max(d.X, -d.X, d.Y, -d.Y) > 1 && len(out) < n {
			out = append(out, p)
		}
	}
	return out
}

// checkQueries checks that hg answers pairs as a build's graph may: a legal
// path with its cost exactly when the ends are connected, and no error.
func checkQueries(t *testing.T, hg *hpa.Graph, pairs [][2]image.Point) {
	t.Helper()
	g := hg.Grid()
	q := hpa.NewSearcher(hg)
	for _, p := range pairs {
		path, r, err := q.AppendPath(nil, p[0], p[1], hpa.Query{})
		if err != nil {
			t.Fatalf("%v→%v: %v", p[0], p[1], err)
		}
		if want := g.Connected(p[0], p[1]); (r.Status == core.Found) != want {
			t.Fatalf("%v→%v: status %v, connected %v", p[0], p[1], r.Status, want)
		}
		if r.Status != core.Found {
			continue
		}
		cost, err := testmap.CheckPath(g, path, p[0], p[1])
		if err != nil || math.Abs(cost-r.Cost) > 1e-9*cost {
			t.Fatalf("%v→%v: cost %v, path cost %v, %v\n%s", p[0], p[1], r.Cost, cost, err, testmap.Render(g, path))
		}
	}
}

// TestReadUncheckedCosts changes the cost of each pair of nodes joined
// inside a cluster, both ways, and checks that Read either refuses the file
// or gives a graph whose queries are legal: the costs Read cannot check do
// no worse than lengthen paths.
func TestReadUncheckedCosts(t *testing.T) {
	g, valid := smallGraph(t)
	pairs := farPairs(g, 3, 100)
	base := decodeFile(valid)
	accepted, refused := 0, 0
	for a := range base.nodes {
		for _, e := range base.edges[a] {
			if e.to < a || !base.inside(a, e) {
				continue
			}
			lo := grid.Octile(base.nodes[a], base.nodes[e.to])
			for _, cost := range []float64{lo, e.cost * 1.5, e.cost * 4} {
				f := decodeFile(valid)
				k, _ := f.joined(a, e.to)
				f.edges[a][k].cost = cost
				k, _ = f.joined(e.to, a)
				f.edges[e.to][k].cost = cost
				hg, err := hpa.Read(bytes.NewReader(f.encode()), g)
				if err != nil {
					if _, ok := errors.AsType[*hpa.FormatError](err); !ok {
						t.Fatalf("edge %d–%d costing %v: %v is not a *FormatError", a, e.to, cost, err)
					}
					refused++
					continue
				}
				accepted++
				checkQueries(t, hg, pairs)
			}
		}
	}
	t.Logf("%d changed files accepted, %d refused", accepted, refused)
	if accepted == 0 || refused == 0 {
		t.Errorf("%d changed files accepted, %d refused; want some of each", accepted, refused)
	}
}

// TestReadOctileCosts sets the cost of every edge inside a cluster to the
// least Read lets through, the octile distance between its cells, on
// graphs of up to three levels, and checks that queries stay legal.
func TestReadOctileCosts(t *testing.T) {
	for _, gc := range []struct {
		name string
		g    *grid.Grid
	}{
		{"8-connected", testmap.Random(21, 96, 64, 0.3, grid.Options{})},
		{"4-connected", testmap.Random(22, 96, 64, 0.25, grid.Options{Connectivity: grid.Four})},
		{"terrain", testmap.RandomCosts(23, 96, 64, 0.3, 4, grid.Eight)},
	} {
		for levels := 1; levels <= 3; levels++ {
			t.Run(fmt.Sprintf("%s/levels%d", gc.name, levels), func(t *testing.T) {
				hg, err := hpa.Build(gc.g, hpa.Options{ClusterSize: 4, Levels: levels})
				if err != nil {
					t.Fatal(err)
				}
				f := decodeFile(encode(t, hg))
				dist := grid.Octile
				if gc.g.Connectivity() == grid.Four {
					dist = grid.Manhattan
				}
				for a, es := range f.edges {
					for k, e := range es {
						if f.inside(a, e) {
							es[k].cost = dist(f.nodes[a], f.nodes[e.to])
						}
					}
				}
				rg, err := hpa.Read(bytes.NewReader(f.encode()), gc.g)
				if err != nil {
					t.Fatal(err)
				}
				checkQueries(t, rg, testmap.RandomPairs(testmap.NewRand(int64(levels)), gc.g, 300))
			})
		}
	}
}

// TestReadUpdated checks that Read takes the graphs Update makes, whose
// edges must come in the order of a build's.
func TestReadUpdated(t *testing.T) {
	g := testmap.Random(12, 60, 45, 0.25, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8, Levels: 2})
	if err != nil {
		t.Fatal(err)
	}
	r := testmap.NewRand(13)
	for i := range 10 {
		x, y := r.IntN(55), r.IntN(40)
		rect := image.Rect(x, y, x+1+r.IntN(5), y+1+r.IntN(5))
		edited := g.WithCells(rect, i%2 == 0)
		up, err := hg.Update(edited, rect)
		if err != nil {
			t.Fatal(err)
		}
		b := encode(t, up)
		rg, err := hpa.Read(bytes.NewReader(b), edited)
		if err != nil {
			t.Fatalf("edit %d of %v: %v", i, rect, err)
		}
		if !bytes.Equal(encode(t, rg), b) {
			t.Fatalf("edit %d of %v: the read graph writes different bytes", i, rect)
		}
		g, hg = edited, up
	}
}

// TestLongMaxEntrance: a MaxEntrance longer than any entrance (above the
// cluster size, even above what a file's 32 bits hold) builds the graph
// of MaxEntrance = ClusterSize, reports that, and writes a file that reads
// back; so does an annotated graph.
func TestLongMaxEntrance(t *testing.T) {
	g := testmap.Random(5, 40, 30, 0.3, grid.Options{})
	long := hpa.Options{ClusterSize: 8, MaxEntrance: math.MaxInt32 + 5}
	hg, err := hpa.Build(g, long)
	if err != nil {
		t.Fatal(err)
	}
	if me := hg.Options().MaxEntrance; me != 8 {
		t.Errorf("Options().MaxEntrance %d, want the cluster size 8", me)
	}
	want, err := hpa.Build(g, hpa.Options{ClusterSize: 8, MaxEntrance: 8})
	if err != nil {
		t.Fatal(err)
	}
	b := encode(t, hg)
	if !bytes.Equal(b, encode(t, want)) {
		t.Error("the file differs from that of MaxEntrance = ClusterSize")
	}
	back, err := hpa.Read(bytes.NewReader(b), g)
	if err != nil {
		t.Fatalf("reading it back: %v", err)
	}
	sameQueries(t, hg, back, 5, 50)

	a, err := hpa.BuildAnnotated(g, []hpa.Class{{}, {Size: 2}}, long)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := a.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := hpa.ReadAnnotated(bytes.NewReader(buf.Bytes()), "long", g); err != nil {
		t.Errorf("reading the annotated graph back: %v", err)
	}
}
