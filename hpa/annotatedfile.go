package hpa

import (
	"encoding/binary"
	"io"
	"math"
	"math/bits"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/binfile"
)

// This file writes an [Annotated] graph to one binary file and reads it
// back. Version 1 of the format, all integers little-endian:
//
//	offset  size  field
//	     0     8  magic "CAIRNHPN"
//	     8     4  version, uint32 = 1
//	    12     8  source fingerprint, uint64 (as in the classes file)
//	    20     4  source grid width, uint32
//	    24     4  source grid height, uint32
//	    28     4  cluster size, uint32
//	    32     4  max entrance, uint32
//	    36     4  levels, uint32 (1 to MaxLevels)
//	    40     4  level factor, uint32 (2 to MaxLevelFactor)
//	    44     4  C, the number of classes, uint32 (1 to MaxClasses)
//	    48     4  N, the number of abstract nodes, uint32
//	    52     4  E, the number of edges inside clusters at level 1, uint32
//	    56        C class records, as in the classes file (classesfile.go)
//	             then E edges, each once, in increasing order of from, to
//	             and cost:
//	                 4  from, a node ID, uint32
//	                 4  to, a later node of the same cluster, uint32
//	                 8  cost, float64 (IEEE 754 bits)
//	                 8  mask, uint64: bit k set when class k may take it
//	  end−4    4  CRC-32C (Castagnoli) of every byte before it
//
// What follows from the grids is not stored but computed again by
// [ReadAnnotated]: the classes' grids, the shared transitions and so the
// nodes (numbered as a build numbers them: cluster by cluster, row by row)
// with the classes each serves, the edges across borders, the levels above
// the first and the landmarks. The edges inside clusters are what a build
// spends its time on (a Dijkstra search per node and class).

const (
	annotatedMagic      = "CAIRNHPN"
	annotatedVersion    = 1
	annotatedHeaderSize = 56
	annotatedEdgeSize   = 24
)

// WriteTo writes a to w in Cairn's binary annotated-graph format, version
// 1, and returns the number of bytes written: the options, the classes
// (sizes and filters) and the edges inside clusters at level 1, 24 bytes
// each, but no grid; [ReadAnnotated] needs the same source grid, which
// the file's fingerprint identifies. It returns an error wrapping
// [ErrStale], having written nothing, after an edit of the source grid.
//
// Its cost is one pass over level 1's edges and a fingerprint of the
// source; it allocates a 64 KiB buffer and two words per node (the
// build's numbering). It holds the source grid's read lock and is safe
// for concurrent queries.
func (a *Annotated) WriteTo(w io.Writer) (int64, error) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	src := a.cl.src
	src.RLock()
	defer src.RUnlock()
	if err := a.fresh(); err != nil {
		return 0, err
	}
	h := a.base
	order, renum := h.buildOrder()       // the file numbers the nodes as a build does
	intra := func(n int32, i int) bool { // whether n's edge i is one it writes
		to := h.adj[n][i].To
		return renum[to] > renum[n] && h.nodes[to].cluster == h.nodes[n].cluster
	}
	ne := 0
	for _, n := range order {
		for i := range h.adj[n] {
			if intra(n, i) {
				ne++
			}
		}
	}
	e := binfile.NewWriter(w)
	e.Bytes([]byte(annotatedMagic))
	e.U32(annotatedVersion)
	e.U64(classesFingerprint(src))
	e.U32(uint32(h.w))
	e.U32(uint32(h.h))
	e.U32(uint32(h.cs))
	e.U32(uint32(h.me))
	e.U32(uint32(h.Levels()))
	e.U32(uint32(h.lf))
	e.U32(uint32(len(a.ctx)))
	e.U32(uint32(len(order)))
	e.U32(uint32(ne))
	writeClassRecords(e, a.cl.cls)
	for _, n := range order {
		ms := a.masks[1][n]
		for i, ed := range h.adj[n] {
			if intra(n, i) {
				e.U32(uint32(renum[n]))
				e.U32(uint32(renum[ed.To]))
				e.U64(math.Float64bits(ed.Cost))
				e.U64(ms[i])
			}
		}
	}
	return e.Finish()
}

// ReadAnnotated reads an annotated graph that [Annotated.WriteTo] wrote
// for the source grid g, and returns it ready for queries, as
// [BuildAnnotated] would have built it with the same classes and options.
// name is used in error messages.
//
// It refuses, with a [*FormatError] giving the byte offset in the file and
// what is wrong, a file that is not an annotated-graph file, of an unknown
// version, built for another grid or other area types (by the source
// fingerprint: the message names both), truncated, failing its checksum,
// with options or classes that BuildAnnotated refuses, with a node count
// other than that of the transitions the classes' grids give, or with an
// edge that a build does not make. Of each edge it checks that it joins
// two nodes of one cluster, in the order a build writes them, for classes
// that both nodes serve and whose grids join them inside the cluster, at
// a finite cost within the bounds that paths inside the cluster obey on
// each of those grids (as [Read] bounds a graph's); no two edges between
// the same nodes share a class or a cost; and each class has an edge
// between every two of its nodes that its grid joins inside their
// cluster. It does not check the exact costs, which only a build's
// searches give: a file whose checksum was fixed after a cost was changed
// within its bounds reads as a graph whose queries find legal paths,
// perhaps longer ones.
//
// A failed read of r is returned wrapped. ReadAnnotated never panics on
// any bytes, and its memory grows with the bytes actually read and the
// map, never with a count that the file merely claims. It reads exactly
// the bytes WriteTo wrote, so other data may follow in r. Its cost is a
// fingerprint of g, the derivations of the classes' grids, the
// transitions, one pass over each class's grid for the checks, and the
// levels and landmarks that BuildAnnotated also makes, but none of its
// searches inside level-1 clusters: on the 4096² demo world, a fraction of
// the build's time (see the README). It holds g's read lock once the
// grids are derived; g must not be edited while it runs.
func ReadAnnotated(r io.Reader, name string, g *grid.Grid) (*Annotated, error) {
	d, ferr, hdr, err := openClassesFile(r, name, g, annotatedMagic, "Cairn annotated graph", annotatedVersion, annotatedHeaderSize, "annotated graph was")
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	w, ht := g.Width(), g.Height()
	cs32, me32, levels, lf := le.Uint32(hdr[28:]), le.Uint32(hdr[32:]), le.Uint32(hdr[36:]), le.Uint32(hdr[40:])
	nc, nn, ne := le.Uint32(hdr[44:]), le.Uint32(hdr[48:]), le.Uint32(hdr[52:])
	switch {
	case cs32 < 1 || cs32 > MaxClusterSize:
		return nil, ferr(28, "cluster size %d, want 1 to %d", cs32, MaxClusterSize)
	case me32 < 1 || me32 > math.MaxInt32:
		return nil, ferr(32, "max entrance %d, want 1 to %d", me32, math.MaxInt32)
	case levels < 1 || levels > MaxLevels:
		return nil, ferr(36, "%d levels, want 1 to %d", levels, MaxLevels)
	case lf < 2 || lf > MaxLevelFactor:
		return nil, ferr(40, "level factor %d, want 2 to %d", lf, MaxLevelFactor)
	case nc < 1 || nc > MaxClasses:
		return nil, ferr(44, "%d classes, want 1 to %d", nc, MaxClasses)
	case uint64(nn) > min(uint64(w)*uint64(ht), math.MaxInt32):
		return nil, ferr(48, "%d nodes, more than the %d×%d map's cells", nn, w, ht)
	}

	// Read everything, check the sum, then check the content, so that a
	// damaged file reads as such rather than as some odd graph.
	classes, recAt, err := readClassRecords(d, ferr, int(nc))
	if err != nil {
		return nil, err
	}
	edgesAt := d.Offset()
	type record struct {
		from, to int32
		cost     float64
		mask     uint64
	}
	recs := make([]record, 0, min(int(ne), 1<<16))
	err = d.Records(int(ne), annotatedEdgeSize, "edges", func(b []byte) {
		recs = append(recs, record{int32(le.Uint32(b)), int32(le.Uint32(b[4:])), math.Float64frombits(le.Uint64(b[8:])), le.Uint64(b[16:])})
	})
	if err != nil {
		return nil, err
	}
	if err := d.Checksum(); err != nil {
		return nil, err
	}

	// The content: the classes, the nodes their grids give, then each edge.
	c, err := classesOf(g, classes, recAt, ferr)
	if err != nil {
		return nil, err
	}
	g.RLock()
	defer g.RUnlock()
	a, inter := newAnnotated(c, int(cs32), min(int(me32), int(cs32)), int(lf)) // as Read does
	h := a.base
	if int(nn) != len(h.nodes) {
		return nil, ferr(48, "%d nodes, want the %d transition cells of the classes' grids", nn, len(h.nodes))
	}
	shapes := make([]*shape, nc) // per class: the groups its grid joins inside each cluster
	for k, x := range a.ctx {
		x.first = h.first
		shapes[k] = x.shape(nil)
		x.first = nil
	}
	at := func(i int) int64 { return edgesAt + annotatedEdgeSize*int64(i) }
	intra := make([][]intraEdge, len(h.cnodes))
	perClass := make([]int, nc)
	var pair uint64 // the classes of the edges so far between the current two nodes
	for i, e := range recs {
		if e.from < 0 || e.to <= e.from || e.to >= int32(nn) {
			return nil, ferr(at(i), "edge %d from node %d to node %d, want two nodes of the %d, the first the lower", i, uint32(e.from), uint32(e.to), nn)
		}
		a0, b0 := h.nodes[e.from], h.nodes[e.to]
		pa, pb := a0.cell(), b0.cell()
		if a0.cluster != b0.cluster {
			return nil, ferr(at(i), "edge %d joins (%d,%d) and (%d,%d), which are in different clusters", i, pa.X, pa.Y, pb.X, pb.Y)
		}
		if i > 0 {
			p := recs[i-1]
			switch {
			case p.from > e.from || p.from == e.from && (p.to > e.to || p.to == e.to && !(p.cost < e.cost)):
				return nil, ferr(at(i), "edge %d from node %d to node %d at cost %v is out of order after node %d to node %d at %v", i, e.from, e.to, e.cost, p.from, p.to, p.cost)
			case p.from != e.from || p.to != e.to:
				pair = 0
			}
		}
		if e.mask == 0 || e.mask>>nc != 0 || e.mask&pair != 0 {
			return nil, ferr(at(i)+16, "edge %d has the classes %#x, want some of the %d classes, none of an earlier edge between the same nodes", i, e.mask, nc)
		}
		pair |= e.mask
		if !(e.cost > 0 && e.cost <= math.MaxFloat64) {
			return nil, ferr(at(i)+8, "edge %d costs %v, want a positive finite cost", i, e.cost)
		}
		for m := e.mask; m != 0; m &= m - 1 {
			k := bits.TrailingZeros64(m)
			s, x := shapes[k], a.ctx[k]
			bit := uint64(1) << k
			if a.nmask[e.from]&bit == 0 || a.nmask[e.to]&bit == 0 || s.src[e.from] < 0 || s.src[e.from] != s.src[e.to] {
				return nil, ferr(at(i)+16, "edge %d joins (%d,%d) and (%d,%d) for class %d, which does not serve both or whose grid joins them by no path inside their cluster", i, pa.X, pa.Y, pb.X, pb.Y, k)
			}
			src := s.src[e.from]
			lo := x.distance(pa, pb) * (1 - costSlack)
			hi := float64(s.cells[src]-1) * s.mult[src] * (1 + costSlack)
			if !(e.cost >= lo && e.cost <= hi) {
				return nil, ferr(at(i)+8, "edge %d from (%d,%d) to (%d,%d) costs %v, want for class %d a cost from %v to %v", i, pa.X, pa.Y, pb.X, pb.Y, e.cost, k, lo, hi)
			}
			perClass[k]++
		}
		intra[a0.cluster] = append(intra[a0.cluster], intraEdge{from: e.from, to: e.to, cost: e.cost, mask: e.mask})
	}
	// With no class twice between two nodes and each edge inside a group,
	// a class has an edge between every two of its nodes of a group when
	// it has as many edges as such pairs.
	count := make([]int32, nn)
	for k := range a.ctx {
		clear(count)
		bit, s := uint64(1)<<k, shapes[k]
		want := 0
		for n := range int32(nn) {
			if a.nmask[n]&bit != 0 && s.src[n] >= 0 {
				want += int(count[s.src[n]])
				count[s.src[n]]++
			}
		}
		if perClass[k] != want {
			return nil, ferr(edgesAt, "class %d has %d edges inside clusters, want the %d between every two of its nodes that its grid joins inside their cluster", k, perClass[k], want)
		}
	}
	a.finish(inter, intra, int(levels))
	return a, nil
}
