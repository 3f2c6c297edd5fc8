package hpa

import (
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"io"
	"math"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/binfile"
)

// This file writes a [Graph] to a binary file and reads it back. Version 3
// of the format, all integers little-endian:
//
//	offset  size  field
//	     0     8  magic "CAIRNHPA"
//	     8     4  version, uint32 = 3
//	    12     8  grid fingerprint, uint64 (see Fingerprint)
//	    20     4  grid width, uint32
//	    24     4  grid height, uint32
//	    28     4  cluster size, uint32
//	    32     4  max entrance, uint32
//	    36     4  entrances, uint32
//	    40     4  N, the number of abstract nodes, uint32
//	    44     4  E, the number of directed level-1 edges, uint32
//	    48     4  levels, uint32 (1 to MaxLevels)
//	    52     4  level factor, uint32 (2 to MaxLevelFactor)
//	    56    8N  nodes in ID order: x, y uint32 (sorted by cluster, row,
//	              column)
//	 56+8N    4N  out-degree of each node, uint32
//	56+12N   12E  edges grouped by source node: target uint32, cost float64
//	              (IEEE 754 bits); a node's edges to other clusters come
//	              first, then those inside its own by increasing target
//	  end−4    4  CRC-32C (Castagnoli) of every byte before it
//
// What follows from the grid and the cluster size (cluster counts, each
// node's cluster, the first node of each cluster, the move masks) is not
// stored but recomputed by Read, and so are the levels above the first,
// from the first; the fingerprint binds the file to its grid.

const (
	fileMagic   = "CAIRNHPA"
	fileVersion = 3
	headerSize  = 56
	nodeSize    = 8
	degreeSize  = 4
	edgeSize    = 12
)

// FormatError reports a graph file that [Read] refuses: where in the file
// (a byte offset; for counts and checksums, the offset of the field) and
// what is wrong.
type FormatError struct {
	Offset int64
	Msg    string
}

// Error returns "hpa: MSG (byte OFFSET)".
func (e *FormatError) Error() string {
	return fmt.Sprintf("hpa: %s (byte %d)", e.Msg, e.Offset)
}

// Fingerprint returns a 64-bit FNV-1a hash of everything about g that a
// [Graph] depends on, for binding a graph file to its grid. The bytes hashed
// are, little-endian: the width and height as uint32, the connectivity as
// one byte, 1 or 0 for whether g has terrain costs as one byte, the
// passability of every cell as bits (cell y·width + x is bit i%8 of byte
// i/8, 1 when passable, the last byte padded with zeros), and, when g has
// terrain costs, the IEEE 754 bits of the multiplier of each passable cell
// as uint64, row by row. Multipliers of blocked cells, which no path uses,
// are left out.
//
// It reads every cell once, O(width·height), and does not allocate. It is
// safe for concurrent use.
func Fingerprint(g *grid.Grid) uint64 {
	f := binfile.NewFNV()
	w, h := g.Width(), g.Height()
	f.U32(uint32(w))
	f.U32(uint32(h))
	f.Byte(byte(g.Connectivity()))
	costs := g.HasCosts()
	f.Byte(b2u8(costs))
	var acc byte
	i := 0
	for y := range h {
		for x := range w {
			if g.Passable(image.Pt(x, y)) {
				acc |= 1 << (i & 7)
			}
			if i++; i&7 == 0 {
				f.Byte(acc)
				acc = 0
			}
		}
	}
	if i&7 != 0 {
		f.Byte(acc)
	}
	if costs {
		for y := range h {
			for x := range w {
				if p := image.Pt(x, y); g.Passable(p) {
					f.U64(math.Float64bits(g.Cost(p)))
				}
			}
		}
	}
	return f.Sum
}

func b2u8(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// WriteTo writes h to w in Cairn's binary graph format, version 3, and
// returns the number of bytes written. The file holds the nodes, edges and
// options but not the grid: [Read] needs the same grid, which the file's
// fingerprint identifies. The size is 60 + 12·nodes + 12·edges bytes, edges
// of level 1.
//
// WriteTo costs one pass over the graph plus one [Fingerprint] of the grid;
// it allocates a 64 KiB buffer and two words per node (the build's numbering
// of the nodes, which an in-place Update may have changed, so that an
// updated graph writes what a fresh build of its grid writes), and is safe
// for concurrent use, since it only reads h.
func (h *Graph) WriteTo(w io.Writer) (int64, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	order, renum := h.buildOrder()
	e := binfile.NewWriter(w)
	e.Bytes([]byte(fileMagic))
	e.U32(fileVersion)
	e.U64(Fingerprint(h.g))
	e.U32(uint32(h.w))
	e.U32(uint32(h.h))
	e.U32(uint32(h.cs))
	e.U32(uint32(h.me))
	e.U32(uint32(h.entrances))
	e.U32(uint32(h.nlive))
	e.U32(uint32(h.nedges))
	e.U32(uint32(h.Levels()))
	e.U32(uint32(h.lf))
	for _, id := range order {
		e.U32(uint32(h.nodes[id].x))
		e.U32(uint32(h.nodes[id].y))
	}
	for _, id := range order {
		e.U32(uint32(len(h.adj[id])))
	}
	for _, id := range order {
		for _, ed := range h.adj[id] {
			e.U32(uint32(renum[ed.To]))
			e.U64(math.Float64bits(ed.Cost))
		}
	}
	return e.Finish()
}

// Read reads a graph that [Graph.WriteTo] wrote for g, and returns it ready
// for queries, as [Build] would have built it with the same options.
//
// It refuses, with a [*FormatError] giving the byte offset, a file that is
// not a graph file, of an unknown version, built for another grid (by
// [Fingerprint]: the message names both fingerprints), truncated, failing
// its checksum, or holding a graph that a build of g with the file's
// options does not make. Of the graph it checks, against g:
//
//   - the counts, against what the grid can hold;
//   - the nodes: the transition cells of the cluster borders, recomputed as
//     Build finds them, in its order; and the entrance count;
//   - each node's edges, in the order Build writes them: first one to the
//     other cell of each of its transitions, at the cost of that step; then
//     one to each other node of its cluster that paths inside the cluster
//     join it to (found from the runs of free cells of the cluster's rows),
//     in increasing order of node, and to no other node;
//   - the cost of each edge inside a cluster: the same as the edge back's,
//     and, up to rounding, within bounds that the cheapest path inside the
//     cluster between its cells obeys: at least their octile distance
//     (Manhattan on 4-connected grids; terrain multipliers are at least 1),
//     and at most n−1 times m, for the n cells that such paths join to them
//     and the dearest terrain multiplier m among those.
//
// It does not check the exact cost of an edge inside a cluster, which
// only a build's searches give: a file whose checksum was fixed after such
// costs were changed within those bounds reads as a graph. Queries on it
// answer as on a build's graph, with a legal path and its true cost exactly
// when start and goal are connected, but the path may be longer.
//
// A failed read of r is returned wrapped. Read never panics on any bytes,
// and its memory grows with the bytes actually read and the map, never
// with a count that a header merely claims.
//
// Read reads exactly the bytes WriteTo wrote, so a graph may be followed by
// other data in r. Its cost is one Fingerprint of g, one pass over the
// file, the transitions and move masks that Build also computes, and one
// more pass over the cells of the clusters that hold two nodes or more, on
// runtime.GOMAXPROCS goroutines; it allocates the graph, a 64 KiB buffer,
// and scratch of a few words per node and per run of free cells of one
// cluster.
func Read(r io.Reader, g *grid.Grid) (*Graph, error) {
	if g == nil {
		return nil, errors.New("hpa: nil grid")
	}
	g.RLock() // one version of the grid throughout
	defer g.RUnlock()
	d := binfile.NewReader(r, "hpa", func(off int64, msg string) error { return &FormatError{off, msg} })
	hdr := d.Scratch(headerSize)
	if err := d.Header(hdr, fileMagic, "graph"); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	if v := le.Uint32(hdr[8:]); v != fileVersion {
		return nil, &FormatError{8, fmt.Sprintf("unknown version %d, want %d", v, fileVersion)}
	}
	fileFP, fw, fh := le.Uint64(hdr[12:]), le.Uint32(hdr[20:]), le.Uint32(hdr[24:])
	w, h := g.Width(), g.Height()
	if fp := Fingerprint(g); fp != fileFP || uint64(fw) != uint64(w) || uint64(fh) != uint64(h) {
		return nil, &FormatError{12, fmt.Sprintf("graph was built for another map: file fingerprint %016x (%d×%d), map fingerprint %016x (%d×%d)",
			fileFP, fw, fh, fp, w, h)}
	}
	cs32, me32 := le.Uint32(hdr[28:]), le.Uint32(hdr[32:])
	if cs32 < 1 || cs32 > MaxClusterSize {
		return nil, &FormatError{28, fmt.Sprintf("cluster size %d, want 1 to %d", cs32, MaxClusterSize)}
	}
	if me32 < 1 || me32 > math.MaxInt32 {
		return nil, &FormatError{32, fmt.Sprintf("max entrance %d, want 1 to %d", me32, math.MaxInt32)}
	}
	cs, me := int(cs32), min(int(me32), int(cs32)) // no entrance is longer than a cluster (older files may say more)
	entrances, nn, ne := le.Uint32(hdr[36:]), le.Uint32(hdr[40:]), le.Uint32(hdr[44:])

	// Bounds from the grid alone: nodes are distinct cells on cluster
	// borders, and a node has at most 4 inter-cluster edges and one to
	// each other node of its cluster.
	ncx, ncy := (w+cs-1)/cs, (h+cs-1)/cs
	perCluster := uint64(min(cs*cs, 4*cs))
	maxNodes := min(uint64(w)*uint64(h), uint64(ncx)*uint64(ncy)*perCluster, math.MaxInt32)
	if uint64(nn) > maxNodes {
		return nil, &FormatError{40, fmt.Sprintf("%d nodes, more than the %d a %d×%d map with clusters of %d can have", nn, maxNodes, w, h, cs)}
	}
	if maxEdges := min(uint64(nn)*(perCluster-1+4), math.MaxInt32); uint64(ne) > maxEdges {
		return nil, &FormatError{44, fmt.Sprintf("%d edges, more than the %d that %d nodes can have", ne, maxEdges, nn)}
	}
	n, m := int(nn), int(ne)
	levels := le.Uint32(hdr[48:])
	if levels < 1 || levels > MaxLevels {
		return nil, &FormatError{48, fmt.Sprintf("%d levels, want 1 to %d", levels, MaxLevels)}
	}
	lf := le.Uint32(hdr[52:])
	if lf < 2 || lf > MaxLevelFactor {
		return nil, &FormatError{52, fmt.Sprintf("level factor %d, want 2 to %d", lf, MaxLevelFactor)}
	}

	// Read everything, check the sum, then check the content, so that a
	// damaged file reads as such rather than as some odd graph.
	nodes := make([]node, 0, min(n, 1<<16))
	deg := make([]int32, 0, min(n, 1<<16))
	edges := make([]core.Edge, 0, min(m, 1<<16))
	err := d.Records(n, nodeSize, "nodes", func(b []byte) {
		nodes = append(nodes, node{x: int32(le.Uint32(b)), y: int32(le.Uint32(b[4:]))})
	})
	if err == nil {
		err = d.Records(n, degreeSize, "degrees", func(b []byte) {
			deg = append(deg, int32(le.Uint32(b)))
		})
	}
	if err == nil {
		err = d.Records(m, edgeSize, "edges", func(b []byte) {
			edges = append(edges, core.Edge{To: int32(le.Uint32(b)), Cost: math.Float64frombits(le.Uint64(b[4:]))})
		})
	}
	if err != nil {
		return nil, err
	}
	if err := d.Checksum(); err != nil {
		return nil, err
	}

	// The content against what a build of g makes: the transitions (nodes
	// and entrances) exactly, then each node's edges.
	hg := newGraph(g, cs, me, int(lf))
	ts := hg.findTransitions(me)
	hg.makeNodes(ts)
	if err := hg.checkNodes(nodes); err != nil {
		return nil, err
	}
	sh := hg.shape(ts)
	hg.edges = edges
	if err := hg.setOffsets(deg, sh); err != nil {
		return nil, err
	}
	if err := hg.checkEdges(sh); err != nil {
		return nil, err
	}
	if int64(entrances) != int64(hg.entrances) {
		return nil, &FormatError{36, fmt.Sprintf("%d entrances, want the %d of the map", entrances, hg.entrances)}
	}
	hg.finish()
	hg.buildLevels(int(levels))
	return hg, nil
}

// buildOrder returns the node IDs in the order a build numbers them
// (cluster by cluster, each cluster's in its order), as files number
// them, and the place of each ID in it; after in-place updates the IDs
// differ from those places.
func (h *Graph) buildOrder() (order, renum []int32) {
	order = make([]int32, 0, h.nlive)
	for _, ids := range h.cnodes {
		order = append(order, ids...)
	}
	renum = make([]int32, len(h.nodes))
	for i, id := range order {
		renum[id] = int32(i)
	}
	return order, renum
}

// Offsets of the sections of a file with n nodes.
func nodeOffset(i int) int64      { return headerSize + nodeSize*int64(i) }
func degreeOffset(n, i int) int64 { return nodeOffset(n) + degreeSize*int64(i) }
func edgeOffset(n, i int) int64   { return degreeOffset(n, n) + edgeSize*int64(i) }
