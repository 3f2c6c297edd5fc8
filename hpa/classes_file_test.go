package hpa_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// classesBytes writes c to memory and checks the byte count WriteTo
// returns.
func classesBytes(t testing.TB, c *hpa.Classes) []byte {
	t.Helper()
	var b bytes.Buffer
	n, err := c.WriteTo(&b)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(b.Len()) {
		t.Fatalf("WriteTo reports %d bytes, wrote %d", n, b.Len())
	}
	return b.Bytes()
}

// smallClasses builds the classes of the fuzz tests on a small map with
// areas: the plain class, size 2, and size 1 with swampFilter.
func smallClasses(t testing.TB) (*grid.Grid, *hpa.Classes, []byte) {
	t.Helper()
	g := classMap(11, 24, 18, false)
	c, err := hpa.BuildClasses(g, []hpa.Class{{}, {Size: 2}, {Filter: swampFilter()}}, hpa.Options{ClusterSize: 4, MaxEntrance: 2})
	if err != nil {
		t.Fatal(err)
	}
	return g, c, classesBytes(t, c)
}

// classesFile is a classes file cut into its parts, to aim corruptions at
// them; encode puts it back together with lengths and checksum to match.
type classesFile struct {
	header  []byte
	records [][]byte
	graphs  [][]byte
}

func decodeClasses(b []byte) *classesFile {
	le := binary.LittleEndian
	f := &classesFile{header: bytes.Clone(b[:32])}
	o := 32
	for range le.Uint32(b[28:]) {
		n := 5
		if b[o+4] == 1 {
			n += 2048 + 64
		}
		f.records = append(f.records, bytes.Clone(b[o:o+n]))
		o += n
	}
	for range f.records {
		n := int(le.Uint64(b[o:]))
		f.graphs = append(f.graphs, bytes.Clone(b[o+8:o+8+n]))
		o += 8 + n
	}
	return f
}

func (f *classesFile) encode() []byte {
	b := bytes.Clone(f.header)
	for _, r := range f.records {
		b = append(b, r...)
	}
	for _, g := range f.graphs {
		b = binary.LittleEndian.AppendUint64(b, uint64(len(g)))
		b = append(b, g...)
	}
	b = append(b, 0, 0, 0, 0)
	fixCRC(b)
	return b
}

// graphAt returns the offset of class i's graph in the encoded file.
func (f *classesFile) graphAt(i int) int {
	o := len(f.header)
	for _, r := range f.records {
		o += len(r)
	}
	for _, g := range f.graphs[:i] {
		o += 8 + len(g)
	}
	return o + 8
}

// TestClassesRoundTrip: what ReadClasses reads writes back the same bytes,
// and answers as the classes written; the classes' file holds each class's
// graph file as Graph.WriteTo writes it.
func TestClassesRoundTrip(t *testing.T) {
	g := classMap(5, 90, 70, true)
	c, err := hpa.BuildClasses(g, testClasses(), hpa.Options{ClusterSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	b := classesBytes(t, c)
	f := decodeClasses(b)
	for i := range c.Len() {
		if !bytes.Equal(f.graphs[i], fileBytes(t, c.Graph(i))) {
			t.Fatalf("class %d: the file's graph differs from Graph.WriteTo's", i)
		}
	}
	more := append(bytes.Clone(b), "trailing data"...)
	r := bytes.NewReader(more)
	d, err := hpa.ReadClasses(r, "units.hpc", g)
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != len("trailing data") {
		t.Fatalf("ReadClasses left %d bytes, want the %d after the file", r.Len(), len("trailing data"))
	}
	if !bytes.Equal(classesBytes(t, d), b) {
		t.Fatal("the classes read write other bytes")
	}
	if d.Len() != c.Len() || d.Grid(0) != g {
		t.Fatalf("read %d classes, plain one on the source %v", d.Len(), d.Grid(0) == g)
	}
	for i := range c.Len() {
		if a, b := c.Class(i), d.Class(i); a.Size != b.Size || (a.Filter == nil) != (b.Filter == nil) || a.Filter != nil && *a.Filter != *b.Filter {
			t.Fatalf("class %d read as %+v, want %+v", i, b, a)
		}
		sameQueries(t, c.Graph(i), d.Graph(i), int64(i), 30)
	}
	// Read classes update as built ones do.
	edit := image.Rect(30, 20, 50, 24)
	g.SetCells(edit, false)
	if err := c.Update(edit); err != nil {
		t.Fatal(err)
	}
	if err := d.Update(edit); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(classesBytes(t, c), classesBytes(t, d)) {
		t.Fatal("after an edit, the read classes write other bytes than the built ones")
	}
}

func TestReadClassesErrors(t *testing.T) {
	g, _, valid := smallClasses(t)
	le := binary.LittleEndian
	other := classMap(12, 24, 18, false)
	// The same cells with other areas: swamp made ground.
	areas := make([]uint8, 24*18)
	free := make([]bool, 24*18)
	for i := range areas {
		p := image.Pt(i%24, i/24)
		free[i], areas[i] = g.Passable(p), g.Area(p)
		if areas[i] == grid.AreaSwamp {
			areas[i] = grid.AreaGround
		}
	}
	ground, err := grid.New(24, 18, free, grid.Options{Areas: areas})
	if err != nil {
		t.Fatal(err)
	}
	wideOpt, err := hpa.BuildClasses(g, []hpa.Class{{}, {Size: 2}, {Filter: swampFilter()}}, hpa.Options{ClusterSize: 6, MaxEntrance: 2})
	if err != nil {
		t.Fatal(err)
	}
	fix := func(edit func(f *classesFile)) []byte {
		f := decodeClasses(valid)
		edit(f)
		return f.encode()
	}
	put := func(o int, v uint32) []byte {
		b := bytes.Clone(valid)
		le.PutUint32(b[o:], v)
		fixCRC(b)
		return b
	}
	f0 := decodeClasses(valid)
	tests := []struct {
		name string
		b    []byte
		g    *grid.Grid
		off  int64
		want string
	}{
		{"empty", nil, g, 0, "truncated file: it ends in the magic"},
		{"magic", append([]byte("CAIRNHPA"), valid[8:]...), g, 0, "not a classes file"},
		{"version", put(8, 2), g, 8, "unknown version 2, want 1"},
		{"other map", valid, other, 12, "built for another map or other area types"},
		{"other areas", valid, ground, 12, "built for another map or other area types"},
		{"no classes", put(28, 0), g, 28, "0 classes, want 1 to 64"},
		{"many classes", put(28, 1000), g, 28, "1000 classes"},
		{"size 0", put(32, 0), g, 32, "class 0: unit size 0"},
		{"size 256", put(37, 256), g, 37, "class 1: unit size 256"},
		{"flag", fix(func(f *classesFile) { f.records[0][4] = 2 }), g, 36, "class 0: filter flag 2"},
		{"checksum", append(bytes.Clone(valid[:len(valid)-4]), 1, 2, 3, 4), g, int64(len(valid) - 4), "checksum"},
		{"truncated graph", valid[:f0.graphAt(1)+100], g, int64(f0.graphAt(1) + 100), "truncated file: it ends in the graph of class 1"},
		{"graph length", fix(func(f *classesFile) { f.graphs[0] = f.graphs[0][:10] }), g, int64(f0.graphAt(0) - 8), "class 0: graph of 10 bytes"},
		{"filter cost", fix(func(f *classesFile) {
			le.PutUint64(f.records[2][5+8*int(grid.AreaSwamp):], math.Float64bits(0.5))
		}), g, int64(f0.graphAt(0) - 8 - 2117 + 5 + 8), "class 2: filter cost 0.5 for area 1"},
		{"graphs swapped", fix(func(f *classesFile) { f.graphs[0], f.graphs[1] = f.graphs[1], f.graphs[0] }), g,
			int64(f0.graphAt(0) + 12), "class 0's graph: graph was built for another map"},
		{"filter changed", fix(func(f *classesFile) {
			le.PutUint64(f.records[2][5+8*int(grid.AreaSwamp):], math.Float64bits(4))
		}), g, int64(f0.graphAt(2) + 12), "class 2's graph: graph was built for another map"},
		{"graph damaged", fix(func(f *classesFile) { f.graphs[1][60] ^= 1 }), g, int64(f0.graphAt(1) + len(f0.graphs[1]) - 4), "class 1's graph: checksum"},
		{"graph too long", fix(func(f *classesFile) { f.graphs[1] = append(f.graphs[1], 9, 9) }), g,
			int64(f0.graphAt(1) + len(f0.graphs[1])), "class 1's graph ends 2 bytes before"},
		{"options differ", fix(func(f *classesFile) { f.graphs[1] = fileBytes(t, wideOpt.Graph(1)) }), g,
			int64(f0.graphAt(1) + 28), "class 1's graph has clusters of 6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := hpa.ReadClasses(bytes.NewReader(tc.b), "units.hpc", tc.g)
			fe, ok := errors.AsType[*hpa.FormatError](err)
			if !ok {
				t.Fatalf("got %v, want a *FormatError", err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "hpa: units.hpc: ") || !strings.Contains(msg, tc.want) || fe.Offset != tc.off {
				t.Errorf("got %q at byte %d, want one starting hpa: units.hpc: and holding %q, at byte %d", msg, fe.Offset, tc.want, tc.off)
			}
		})
	}
}

func TestReadClassesMisc(t *testing.T) {
	g, c, valid := smallClasses(t)
	if _, err := hpa.ReadClasses(bytes.NewReader(valid), "", nil); err == nil || err.Error() != "hpa: nil grid" {
		t.Errorf("nil grid: got %v", err)
	}
	// Without a name, messages start with hpa: alone.
	if _, err := hpa.ReadClasses(bytes.NewReader(valid[:20]), "", g); err == nil || !strings.HasPrefix(err.Error(), "hpa: truncated file") {
		t.Errorf("truncated, no name: got %v", err)
	}
	boom := errors.New("boom")
	_, err := hpa.ReadClasses(io.MultiReader(bytes.NewReader(valid[:100]), iotest.ErrReader(boom)), "units.hpc", g)
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "hpa: units.hpc: reading the ") {
		t.Errorf("failing reader: got %v", err)
	}
	if _, ok := errors.AsType[*hpa.FormatError](err); ok {
		t.Error("a failing reader gives a FormatError")
	}
	n, err := c.WriteTo(&limitWriter{n: 30})
	if n != 30 || !errors.Is(err, errFull) {
		t.Errorf("full writer: got %d, %v; want 30, %v", n, err, errFull)
	}
	for k := range len(valid) {
		_, err := hpa.ReadClasses(bytes.NewReader(valid[:k]), "", g)
		if fe, ok := errors.AsType[*hpa.FormatError](err); !ok || fe.Offset != int64(k) || !strings.Contains(err.Error(), "truncated file") {
			t.Fatalf("cut at %d: got %v, want a truncation there", k, err)
		}
	}
}

// TestReadClassesMemory: a graph length claiming a terabyte costs nothing
// until the bytes are there.
func TestReadClassesMemory(t *testing.T) {
	g := testmap.Random(1, 512, 512, 0, grid.Options{})
	c, err := hpa.BuildClasses(g, []hpa.Class{{}}, hpa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := decodeClasses(classesBytes(t, c))
	b := f.encode()[:f.graphAt(0)]
	binary.LittleEndian.PutUint64(b[len(b)-8:], 1<<40)
	b = append(b, make([]byte, 1000)...)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = hpa.ReadClasses(bytes.NewReader(b), "", g)
	runtime.ReadMemStats(&after)
	if fe, ok := errors.AsType[*hpa.FormatError](err); !ok || !strings.Contains(fe.Msg, "truncated") {
		t.Fatalf("got %v, want a truncation", err)
	}
	if d := after.TotalAlloc - before.TotalAlloc; d > 4<<20 {
		t.Errorf("reading a 1 KB graph allocated %d bytes", d)
	}
}
