package hpa_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"math"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// FuzzReadClasses feeds ReadClasses arbitrary bytes for the classes of
// smallClasses. With fix set, the trailing checksum is first made to
// match, so that the checks behind it are reached. ReadClasses must not
// panic; it must refuse with a *FormatError starting "hpa: ", and classes
// it accepts must write back the bytes they were read from and answer
// queries as a build's graphs may: without an error, with a legal path and
// its cost exactly when start and goal are connected.
func FuzzReadClasses(f *testing.F) {
	g, _, valid := smallClasses(f)
	vf := decodeClasses(valid)
	f.Add(valid, false)
	f.Add(valid[:len(valid)-1], false)
	f.Add(valid[:vf.graphAt(1)+70], false)
	f.Add([]byte{}, false)
	f.Add([]byte("CAIRNHPC"), false)
	le := binary.LittleEndian
	for _, edit := range []func(b []byte){
		func(b []byte) { le.PutUint32(b[8:], 2) },
		func(b []byte) { le.PutUint32(b[28:], 2) },
		func(b []byte) { le.PutUint32(b[28:], 4) },
		func(b []byte) { le.PutUint32(b[32:], 3) },
		func(b []byte) { b[36] = 1 },
		func(b []byte) { b[46] = 0 }, // the filter's flag
		func(b []byte) { le.PutUint64(b[47+8*int(grid.AreaSwamp):], math.Float64bits(0.25)) },
		func(b []byte) { le.PutUint64(b[47+8*int(grid.AreaSwamp):], math.Float64bits(1)) },
		func(b []byte) { b[47+2048] ^= 1 << grid.AreaWater },    // water no longer excluded
		func(b []byte) { b[47+2048+32] ^= 1 << grid.AreaWater }, // water included
		func(b []byte) { le.PutUint64(b[vf.graphAt(0)-8:], 1<<40) },
		func(b []byte) { le.PutUint32(b[vf.graphAt(1)+28:], 3) },
		func(b []byte) { le.PutUint32(b[vf.graphAt(2)+48:], 2) },
		func(b []byte) { le.PutUint32(b[vf.graphAt(1)+52:], 2) }, // another level factor
	} {
		b := bytes.Clone(valid)
		edit(b)
		f.Add(b, true)
	}
	for _, edit := range []func(cf *classesFile){
		func(cf *classesFile) { cf.graphs[1], cf.graphs[2] = cf.graphs[2], cf.graphs[1] },
		func(cf *classesFile) { cf.records = cf.records[:2]; cf.graphs = cf.graphs[:2]; cf.header[28] = 2 },
		func(cf *classesFile) { cf.graphs[0] = cf.graphs[0][:len(cf.graphs[0])-12] },
	} {
		cf := decodeClasses(valid)
		edit(cf)
		f.Add(cf.encode(), false)
	}
	pairs := testmap.RandomPairs(testmap.NewRand(3), g, 20)
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		if fix {
			fixCRC(data)
		}
		c, err := hpa.ReadClasses(bytes.NewReader(data), "fuzz.hpc", g)
		if err != nil {
			if _, ok := errors.AsType[*hpa.FormatError](err); !ok {
				t.Fatalf("error %v is not a *FormatError", err)
			}
			if !strings.HasPrefix(err.Error(), "hpa: fuzz.hpc: ") {
				t.Fatalf("error %q does not start with hpa: fuzz.hpc: ", err)
			}
			return
		}
		var out bytes.Buffer
		if _, err := c.WriteTo(&out); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, out.Bytes()) {
			t.Fatalf("accepted %d bytes but writes back %d different ones", len(data), out.Len())
		}
		for i := range c.Len() {
			cg := c.Grid(i)
			var sel [][2]image.Point // pairs of cells where the class may stand
			for _, p := range pairs {
				if cg.Passable(p[0]) && cg.Passable(p[1]) {
					sel = append(sel, p)
				}
			}
			checkQueries(t, c.Graph(i), sel)
		}
	})
}
