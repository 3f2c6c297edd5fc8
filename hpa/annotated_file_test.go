package hpa_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// smallAnnotated returns a small map, an annotated graph of three levels
// over it for the classes of smallClasses, and its file.
func smallAnnotated(t testing.TB) (*grid.Grid, *hpa.Annotated, []byte) {
	t.Helper()
	g := classMap(11, 24, 18, false)
	a, err := hpa.BuildAnnotated(g, []hpa.Class{{}, {Size: 2}, {Filter: swampFilter()}}, hpa.Options{ClusterSize: 4, MaxEntrance: 2, Levels: 3, LevelFactor: 2})
	if err != nil {
		t.Fatal(err)
	}
	return g, a, annotatedBytes(t, a)
}

func annotatedBytes(t testing.TB, a *hpa.Annotated) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := a.WriteTo(&buf)
	if err != nil || n != int64(buf.Len()) {
		t.Fatalf("WriteTo: %d bytes, %v; %d in the buffer", n, err, buf.Len())
	}
	return buf.Bytes()
}

// annotatedEdgesAt returns the offset of the first edge of an annotated
// graph file, after its class records.
func annotatedEdgesAt(b []byte) int {
	o := 56
	for range binary.LittleEndian.Uint32(b[44:]) {
		if b[o+4] == 1 {
			o += 2048 + 64
		}
		o += 5
	}
	return o
}

// TestAnnotatedFileRoundTrip: a graph read back has the stats of the one
// written, writes the same bytes and answers every query with the same
// path, on a map with terrain costs, a filter and three levels, and on a
// small one.
func TestAnnotatedFileRoundTrip(t *testing.T) {
	big := classMap(3, 256, 192, true)
	ab, err := hpa.BuildAnnotated(big, testClasses(), hpa.Options{ClusterSize: 16, Levels: 3, LevelFactor: 2})
	if err != nil {
		t.Fatal(err)
	}
	_, as, _ := smallAnnotated(t)
	for _, a := range []*hpa.Annotated{ab, as} {
		file := annotatedBytes(t, a)
		g := a.Grid(0) // the plain class's grid is the source
		b, err := hpa.ReadAnnotated(bytes.NewReader(file), "round.hpn", g)
		if err != nil {
			t.Fatal(err)
		}
		if sa, sb := a.Stats(), b.Stats(); !reflect.DeepEqual(sa, sb) {
			t.Fatalf("stats read %+v, written %+v", sb, sa)
		}
		if again := annotatedBytes(t, b); !bytes.Equal(again, file) {
			t.Fatalf("the graph read writes %d bytes, not the %d it was read from", len(again), len(file))
		}
		qa, qb := hpa.NewAnnotatedSearcher(a), hpa.NewAnnotatedSearcher(b)
		for i := range a.Len() {
			for _, p := range classPairs(testmap.NewRand(int64(i)), a.Grid(i), 40) {
				pa, ra, erra := qa.AppendPath(nil, i, p[0], p[1], hpa.Query{})
				pb, rb, errb := qb.AppendPath(nil, i, p[0], p[1], hpa.Query{})
				if erra != nil || errb != nil || ra.Status != rb.Status || ra.Cost != rb.Cost || !slices.Equal(pa, pb) {
					t.Fatalf("class %d %v→%v: built %v %v (%v), read %v %v (%v)", i, p[0], p[1], ra.Status, ra.Cost, erra, rb.Status, rb.Cost, errb)
				}
			}
		}
	}
	g, a, _ := smallAnnotated(t)
	g.SetCells(image.Rect(0, 0, 1, 1), !g.Passable(image.Pt(0, 0)))
	if n, err := a.WriteTo(&bytes.Buffer{}); n != 0 || !errors.Is(err, hpa.ErrStale) {
		t.Errorf("WriteTo after an edit: %d bytes, %v; want ErrStale", n, err)
	}
}

// TestAnnotatedFileErrors: damaged files are refused with a
// *FormatError that says what and where, the checksum fixed where the
// damage is behind it.
func TestAnnotatedFileErrors(t *testing.T) {
	g, _, valid := smallAnnotated(t)
	le := binary.LittleEndian
	e0 := annotatedEdgesAt(valid)
	ne := int(le.Uint32(valid[52:]))
	if ne < 4 || len(valid) != e0+24*ne+4 {
		t.Fatalf("file of %d bytes, %d edges from byte %d", len(valid), ne, e0)
	}
	edge := func(i int) int { return e0 + 24*i }
	other := classMap(12, 24, 18, false)
	for _, tc := range []struct {
		name string
		edit func(b []byte) []byte
		fix  bool
		g    *grid.Grid
		want string
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)-30] }, false, g, "truncated"},
		{"checksum", func(b []byte) []byte { b[edge(1)+8] ^= 1; return b }, false, g, "checksum"},
		{"magic", func(b []byte) []byte { b[0] = 'X'; return b }, true, g, "not a Cairn annotated graph file"},
		{"version", func(b []byte) []byte { le.PutUint32(b[8:], 7); return b }, true, g, "unknown version 7"},
		{"another map", func(b []byte) []byte { return b }, false, other, "built for another map"},
		{"cluster size", func(b []byte) []byte { le.PutUint32(b[28:], 0); return b }, true, g, "cluster size 0"},
		{"levels", func(b []byte) []byte { le.PutUint32(b[36:], 9); return b }, true, g, "9 levels"},
		{"level factor", func(b []byte) []byte { le.PutUint32(b[40:], 1); return b }, true, g, "level factor 1"},
		{"classes", func(b []byte) []byte { le.PutUint32(b[44:], 0); return b }, true, g, "0 classes"},
		{"nodes", func(b []byte) []byte { le.PutUint32(b[48:], le.Uint32(b[48:])+1); return b }, true, g, "transition cells"},
		{"unit size", func(b []byte) []byte { le.PutUint32(b[56:], 0); return b }, true, g, "unit size 0"},
		{"order", func(b []byte) []byte {
			x := bytes.Clone(b[edge(0) : edge(0)+24])
			copy(b[edge(0):], b[edge(1):edge(1)+24])
			copy(b[edge(1):], x)
			return b
		}, true, g, "out of order"},
		{"no classes", func(b []byte) []byte { le.PutUint64(b[edge(2)+16:], 0); return b }, true, g, "want some of the 3 classes"},
		{"a class too many", func(b []byte) []byte { le.PutUint64(b[edge(2)+16:], 1<<5); return b }, true, g, "want some of the 3 classes"},
		{"from", func(b []byte) []byte { le.PutUint32(b[edge(3):], 1<<31); return b }, true, g, "want two nodes"},
		{"cluster", func(b []byte) []byte { le.PutUint32(b[edge(0)+4:], le.Uint32(b[48:])-1); return b }, true, g, "in different clusters"},
		{"cost", func(b []byte) []byte { le.PutUint64(b[edge(1)+8:], math.Float64bits(-1)); return b }, true, g, "positive finite cost"},
		{"cheap", func(b []byte) []byte { le.PutUint64(b[edge(1)+8:], math.Float64bits(0.01)); return b }, true, g, "want for class"},
		{"dear", func(b []byte) []byte { le.PutUint64(b[edge(1)+8:], math.Float64bits(1e6)); return b }, true, g, "want for class"},
		{"missing", func(b []byte) []byte {
			le.PutUint32(b[52:], uint32(ne-1))
			return append(b[:edge(1)], b[edge(2):]...)
		}, true, g, "edges inside clusters, want the"},
	} {
		b := tc.edit(bytes.Clone(valid))
		if tc.fix {
			fixCRC(b)
		}
		_, err := hpa.ReadAnnotated(bytes.NewReader(b), "bad.hpn", tc.g)
		fe, ok := errors.AsType[*hpa.FormatError](err)
		if !ok || !strings.HasPrefix(err.Error(), "hpa: bad.hpn: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want a *FormatError with %q", tc.name, err, tc.want)
			continue
		}
		if fe.Offset < 0 || fe.Offset > int64(len(b)) {
			t.Errorf("%s: offset %d outside the %d bytes", tc.name, fe.Offset, len(b))
		}
	}
	if _, err := hpa.ReadAnnotated(bytes.NewReader(valid), "", nil); err == nil {
		t.Error("a nil grid was accepted")
	}
}

// FuzzReadAnnotated feeds ReadAnnotated arbitrary bytes for the map of
// smallAnnotated. With fix set, the trailing checksum is first made to
// match, so that the checks behind it are reached. ReadAnnotated must not
// panic; it must refuse with a *FormatError starting "hpa: fuzz.hpn: ",
// and a graph it accepts must write back the bytes it was read from and
// answer queries as a build's may: without an error, with a path legal
// for the unit and its cost exactly when start and goal are connected on
// the class's grid.
func FuzzReadAnnotated(f *testing.F) {
	g, _, valid := smallAnnotated(f)
	e0 := annotatedEdgesAt(valid)
	f.Add(valid, false)
	f.Add(valid[:len(valid)-1], false)
	f.Add([]byte{}, false)
	f.Add([]byte("CAIRNHPN"), false)
	le := binary.LittleEndian
	for _, edit := range []func(b []byte){
		func(b []byte) { le.PutUint32(b[28:], 3) },
		func(b []byte) { le.PutUint32(b[36:], 1) },
		func(b []byte) { le.PutUint32(b[40:], 3) },
		func(b []byte) {
			le.PutUint64(b[e0+8:], math.Float64bits(1.5*math.Float64frombits(le.Uint64(b[e0+8:]))))
		},
		func(b []byte) { le.PutUint64(b[e0+16:], 3) },
		func(b []byte) { le.PutUint32(b[e0+28:], le.Uint32(b[e0+4:])) },
	} {
		b := bytes.Clone(valid)
		edit(b)
		f.Add(b, true)
	}
	pairs := testmap.RandomPairs(testmap.NewRand(3), g, 20)
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		if fix && len(data) >= 4 {
			fixCRC(data)
		}
		a, err := hpa.ReadAnnotated(bytes.NewReader(data), "fuzz.hpn", g)
		if err != nil {
			if _, ok := errors.AsType[*hpa.FormatError](err); !ok {
				t.Fatalf("error %v is not a *FormatError", err)
			}
			if !strings.HasPrefix(err.Error(), "hpa: fuzz.hpn: ") {
				t.Fatalf("error %q does not start with hpa: fuzz.hpn: ", err)
			}
			return
		}
		var out bytes.Buffer
		if _, err := a.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, out.Bytes()) {
			t.Fatalf("accepted %d bytes but writes back %d different ones", len(data), out.Len())
		}
		q := hpa.NewAnnotatedSearcher(a)
		for i := range a.Len() {
			cl := a.Class(i)
			cg := a.Grid(i)
			for _, p := range pairs {
				if !cg.Passable(p[0]) || !cg.Passable(p[1]) {
					continue
				}
				path, r, err := q.AppendPath(nil, i, p[0], p[1], hpa.Query{})
				if err != nil {
					t.Fatalf("class %d %v→%v: %v", i, p[0], p[1], err)
				}
				if want := cg.Connected(p[0], p[1]); (r.Status == core.Found) != want {
					t.Fatalf("class %d %v→%v: status %v, connected %v", i, p[0], p[1], r.Status, want)
				}
				if r.Status != core.Found {
					continue
				}
				checkClassPath(t, fmt.Sprintf("class %d", i), g, cg, cl, p, path, r, 0)
			}
		}
	})
}
