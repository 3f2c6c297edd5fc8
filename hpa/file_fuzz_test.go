package hpa_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// FuzzRead feeds Read arbitrary bytes for the graph of smallMap. With fix
// set, the trailing checksum is first made to match, so that the checks
// behind it are reached. Read must not panic; it must refuse with a
// *FormatError, and a graph it accepts must write back the bytes it read and
// answer queries as a build's graph may: without an error, with a legal
// path and its cost exactly when start and goal are connected.
func FuzzRead(f *testing.F) {
	g, valid := smallGraph(f)
	l := newLayout(valid)
	f.Add(valid, false)
	f.Add(valid[:len(valid)-1], false)
	f.Add(valid[:l.edgeAt(3)], false)
	f.Add([]byte{}, false)
	f.Add([]byte("CAIRNHPA"), false)
	for _, edit := range []func(l *layout){
		func(l *layout) { l.put32(8, 2) },
		func(l *layout) { l.put32(28, 0) },
		func(l *layout) { l.put32(40, uint32(l.n+1)) },
		func(l *layout) { l.put32(44, uint32(l.m-1)) },
		func(l *layout) { l.put32(l.nodeAt(1), 99) },
		func(l *layout) { l.put32(l.degreeAt(0), 0) },
		func(l *layout) { l.put32(l.edgeAt(0), uint32(l.n)) },
		func(l *layout) { l.put64(l.edgeAt(1)+4, math.Float64bits(math.NaN())) },
		func(l *layout) { l.put32(36, 1) },
		func(l *layout) { l.put32(32, 3) }, // max entrance 3: other transitions
		func(l *layout) { l.put32(48, 2) }, // two levels: still a build's graph
	} {
		l := newLayout(bytes.Clone(valid))
		edit(l)
		f.Add(l.b, true)
	}
	for _, tc := range shapeEdits {
		gf := decodeFile(valid)
		tc.edit(gf)
		f.Add(gf.encode(), true)
	}
	pairs := farPairs(g, 1, 20)
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		if fix {
			fixCRC(data)
		}
		hg, err := hpa.Read(bytes.NewReader(data), g)
		if err != nil {
			if _, ok := errors.AsType[*hpa.FormatError](err); !ok {
				t.Fatalf("error %v is not a *FormatError", err)
			}
			if !strings.HasPrefix(err.Error(), "hpa: ") {
				t.Fatalf("error %q does not start with hpa: ", err)
			}
			return
		}
		var out bytes.Buffer
		if _, err := hg.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, out.Bytes()) {
			t.Fatalf("accepted %d bytes but writes back %d different ones", len(data), out.Len())
		}
		if n := binary.LittleEndian.Uint32(data[40:]); hg.Stats().Nodes != int(n) {
			t.Fatalf("%d nodes, header says %d", hg.Stats().Nodes, n)
		}
		checkQueries(t, hg, pairs)
	})
}

// FuzzReadCosts changes the costs of pairs of nodes joined inside a
// cluster, both ways, in the graph of a random map with two levels: each
// two bytes pick a pair and scale its octile distance by 1 to 5. Read
// cannot check these costs exactly; whatever it accepts must answer
// queries as a build's graph may.
func FuzzReadCosts(f *testing.F) {
	g := testmap.Random(31, 48, 32, 0.3, grid.Options{})
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 4, Levels: 2})
	if err != nil {
		f.Fatal(err)
	}
	valid := encode(f, hg)
	base := decodeFile(valid)
	var joined [][2]int
	for a, es := range base.edges {
		for _, e := range es {
			if e.to > a && base.inside(a, e) {
				joined = append(joined, [2]int{a, e.to})
			}
		}
	}
	f.Add([]byte{})
	f.Add([]byte{0, 0, 1, 255, 2, 64})
	f.Add([]byte{7, 16, 8, 16, 9, 16, 10, 16, 11, 16, 12, 16, 13, 16, 14, 16})
	pairs := testmap.RandomPairs(testmap.NewRand(2), g, 20)
	f.Fuzz(func(t *testing.T, edits []byte) {
		gf := decodeFile(valid)
		for ; len(edits) >= 2; edits = edits[2:] {
			p := joined[int(edits[0])%len(joined)]
			cost := grid.Octile(gf.nodes[p[0]], gf.nodes[p[1]]) * (1 + float64(edits[1])/64)
			for _, ab := range [2][2]int{p, {p[1], p[0]}} {
				k, _ := gf.joined(ab[0], ab[1])
				gf.edges[ab[0]][k].cost = cost
			}
		}
		hg, err := hpa.Read(bytes.NewReader(gf.encode()), g)
		if err != nil {
			if _, ok := errors.AsType[*hpa.FormatError](err); !ok {
				t.Fatalf("error %v is not a *FormatError", err)
			}
			return
		}
		checkQueries(t, hg, pairs)
	})
}
