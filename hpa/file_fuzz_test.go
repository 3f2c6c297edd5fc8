package hpa_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// FuzzRead feeds Read arbitrary bytes for the graph of smallMap. With fix
// set, the trailing checksum is first made to match, so that the checks
// behind it are reached. Read must not panic; it must refuse with a
// *FormatError, and a graph it accepts must write back the bytes it read and
// answer queries with legal paths.
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
	} {
		l := newLayout(bytes.Clone(valid))
		edit(l)
		f.Add(l.b, true)
	}
	pairs := testmap.RandomPairs(testmap.NewRand(1), g, 20)
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
		q := hpa.NewQuery(hg)
		for _, p := range pairs {
			path, r, err := q.AppendPath(nil, p[0], p[1])
			if err != nil {
				// A graph whose intra-cluster edges join cells that cannot
				// reach each other inside their cluster gets through Read
				// (checking would cost a build); the query says so.
				if !strings.HasPrefix(err.Error(), "hpa: internal error") {
					t.Fatalf("%v→%v: %v", p[0], p[1], err)
				}
				continue
			}
			if r.Status != core.Found {
				continue
			}
			if _, err := testmap.CheckPath(g, path, p[0], p[1]); err != nil {
				t.Fatalf("%v→%v: %v", p[0], p[1], err)
			}
		}
	})
}
