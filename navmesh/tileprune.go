package navmesh

import (
	"cmp"
	"image"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// Bridge pruning and components of tiled meshes. An untiled mesh finds its
// bridges and components by one depth-first search of all its polygons
// (bridge.go). A tiled mesh finds them in two steps, so that [Mesh.Update]
// need not search the whole mesh again after an edit:
//
//   - In each tile, when it is built (prune), two searches of the graph of
//     the tile's own polygons and portals. The first adds the rest of the
//     map as one more polygon, its root, joined to every polygon side on
//     the tile's border inside the map (whether the cells beyond are free
//     or not, so that nothing outside the tile is read). Its bridges are
//     pockets: bridges of the mesh whose far side from the root lies inside
//     the tile and has no side on its border (the graph has more paths than
//     the mesh round that side, none fewer), with that side an interval of
//     its numbers, counted from the tile's first polygon ID, as bridge.go's
//     are. The second, without the root, finds the tile's other bridges,
//     among them those whose far side touches the border only along a
//     wall. The groups are the sets of the tile's polygons joined once
//     those are cut: a pocket belongs to the group it hangs from.
//   - Over the mesh, for each version of it (searchGroups): the graph
//     whose nodes are all the tiles' groups and whose edges are those
//     other bridges and the portals on the tile lines, those joining the
//     same two groups merged into one edge marked as several. Its bridges
//     are the mesh's bridges that are not pockets (a group's polygons are
//     joined inside it but by bridges to pockets, which lead nowhere), and
//     one depth-first search of it numbers the groups so that the side of
//     each bridge is an interval of numbers. Where the tiles are open it is
//     much smaller than the mesh: a group for most of a tile, an edge for
//     a tile line's many portals between two groups.
//
// A polygon's comp is its group's node. Mesh.bridge marks a pocket's edges
// bridgePocket and those of the edges that may be bridges of the graph of
// groups (the tiles' other bridges, and the one portal between two groups
// on a tile line) bridgeMaybe, which the search of groups decides. Update
// prunes the tiles it builds again, links the tile lines it stitches
// again, and searches the graph of groups again.

// Marks of Mesh.bridge.
const (
	bridgeNone   uint8 = iota
	bridgePocket       // a bridge, with the polygon numbers pre and end (bridge.go's, or a tile's pocket)
	bridgeMaybe        // perhaps a bridge of the graph of a tiled mesh's groups
)

// prune sets tp's pockets, numbering, other bridges and groups for a tile
// that covers rectangle b of a w×h grid (see the top of the file). Its cost
// is linear in the tile's polygons.
func (tp *tilePolys) prune(b image.Rectangle, w, h int) {
	n := int32(len(tp.start) - 1)
	tp.group, tp.pre, tp.end, tp.pockets, tp.others, tp.links, tp.ngroups = nil, nil, nil, nil, nil, nil, 0
	if n <= 0 {
		return
	}
	stride := int32(w + 1)
	of := make([]int32, len(tp.corner)) // the polygon of each corner
	for i := range n {
		for k := tp.start[i]; k < tp.start[i+1]; k++ {
			of[k] = i
		}
	}
	x0, y0, x1, y1 := int32(b.Min.X), int32(b.Min.Y), int32(b.Max.X), int32(b.Max.Y)
	// border reports whether the side from corner k lies on a line of the
	// tile's border inside the map.
	border := func(k int32) bool {
		next := k + 1
		if next == tp.start[of[k]+1] {
			next = tp.start[of[k]]
		}
		a, c := tp.corner[k], tp.corner[next]
		ax, ay, cx, cy := a%stride, a/stride, c%stride, c/stride
		switch {
		case ax == cx:
			return ax == x0 && x0 > 0 || ax == x1 && x1 < int32(w)
		case ay == cy:
			return ay == y0 && y0 > 0 || ay == y1 && y1 < int32(h)
		}
		return false
	}
	// The tile's graph: node 0 the rest of the map, node i+1 polygon i;
	// edge j < len(ports) the portal from corner ports[j], then one edge to
	// node 0 per side on the border.
	var ports []int32
	var ends [][2]int32
	for k, tw := range tp.twin {
		if int32(k) < tw {
			ports = append(ports, int32(k))
			ends = append(ends, [2]int32{of[k] + 1, of[tw] + 1})
		}
	}
	inside := len(ends)
	for k, tw := range tp.twin {
		if tw < 0 && border(int32(k)) {
			ends = append(ends, [2]int32{0, of[k] + 1})
		}
	}
	pocket := make([]bool, len(tp.corner))
	tp.pre, tp.end = make([]int32, n), make([]int32, n)
	tp.pockets = nil
	t := newGraph(n+1, ends, nil).search(nil, nil)
	for i := range n {
		tp.pre[i], tp.end[i] = t.pre[i+1]-1, t.end[i+1]-1 // node 0 is numbered 0
		if t.up[i+1] && t.parent[i+1] > 0 {               // not joined to the rest of the map alone
			k := ports[t.in[i+1]]
			pocket[k], pocket[tp.twin[k]] = true, true
			tp.pockets = append(tp.pockets, k, tp.twin[k])
		}
	}
	slices.Sort(tp.pockets)
	// The same graph without the rest of the map: its polygons alone.
	for i := range inside {
		ends[i][0]--
		ends[i][1]--
	}
	other := make([]bool, len(tp.corner))
	t = newGraph(n, ends[:inside], nil).search(nil, nil)
	for i := range n {
		if t.up[i] && t.parent[i] >= 0 {
			k := ports[t.in[i]]
			other[k], other[tp.twin[k]] = true, true
		}
	}
	// The groups: the polygons joined once the other bridges are cut.
	group := make([]int32, n)
	for i := range group {
		group[i] = -1
	}
	for k := range other {
		other[k] = other[k] && !pocket[k]
	}
	var todo []int32
	var np int32
	for i := range n {
		if group[i] >= 0 {
			continue
		}
		group[i] = np
		todo = append(todo[:0], i)
		for len(todo) > 0 {
			p := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			for k := tp.start[p]; k < tp.start[p+1]; k++ {
				if tw := tp.twin[k]; tw >= 0 && !other[k] && group[of[tw]] < 0 {
					group[of[tw]] = np
					todo = append(todo, of[tw])
				}
			}
		}
		np++
	}
	for k, o := range other {
		if o {
			tp.others = append(tp.others, int32(k))
			if tw := tp.twin[k]; int32(k) < tw {
				tp.links = append(tp.links, [2]int32{group[of[k]], group[of[tw]]})
			}
		}
	}
	tp.group, tp.ngroups = group, np
}

// groupLink joins group a of one tile to group b of another, a < b, each
// packed as the tile's index in the high 32 bits and the tile's group in
// the low ones; several when more than one portal joins them.
type groupLink struct {
	a, b    uint64
	several bool
}

// setGroupBases sets t.groupBase: the node of each tile's first group, the
// tiles' groups numbered one after the other in row-major order, and the
// total.
func (t *tiling) setGroupBases() {
	t.groupBase = make([]int32, 0, len(t.tiles)+1)
	var n int32
	for _, tp := range t.tiles {
		t.groupBase = append(t.groupBase, n)
		n += tp.ngroups
	}
	t.groupBase = append(t.groupBase, n)
}

// groupOf returns node c's tile and group, packed as in groupLink.
func (t *tiling) groupOf(c int32) uint64 {
	// The last tile whose first node is c or less: tiles without groups
	// share their first node with the next.
	k, _ := slices.BinarySearch(t.groupBase, c+1)
	k--
	return uint64(k)<<32 | uint64(c-t.groupBase[k])
}

// node returns the node of a group packed as in groupLink.
func (t *tiling) node(g uint64) int32 { return t.groupBase[g>>32] + int32(g&(1<<32-1)) }

// labelRows sets the numbers and groups of the polygons of tile rows r0 to
// r1 of m, a mesh stitched from t, and marks their tiles' bridges in
// m.bridge; m.pre, m.end and m.bridge are allocated.
func (m *Mesh) labelRows(t *tiling, r0, r1 int) {
	id := t.rowPoly[r0]
	stride := int32(m.w + 1)
	for k := r0 * t.nx; k < (r1+1)*t.nx; k++ {
		tp := &t.tiles[k]
		base := t.groupBase[k]
		for i, c := range tp.group {
			m.polys[id+int32(i)].comp = base + c
			m.pre[id+int32(i)], m.end[id+int32(i)] = id+tp.pre[i], id+tp.end[i]
		}
		for _, bs := range [2]struct {
			cs   []int32
			mark uint8
		}{{tp.pockets, bridgePocket}, {tp.others, bridgeMaybe}} {
			for _, c := range bs.cs {
				i, ok := slices.BinarySearch(tp.start, c)
				if !ok {
					i--
				}
				p := m.polys[id+int32(i)]
				at := mgl64.Vec2{float64(tp.corner[c] % stride), float64(tp.corner[c] / stride)}
				for e := p.e0; e < p.e0+p.ne; e++ {
					if m.verts[m.ev[e]] == at {
						m.bridge[e] = bs.mark
						break
					}
				}
			}
		}
		id += int32(len(tp.group))
	}
}

// lineLinks gathers the links of the portals on tile lines of m, a mesh
// stitched from t with its neighbours set, across edges es of polygon
// sides on tile lines (each portal's edge from its polygon of lower ID
// must be among them; the other edge may be, and walls, which it unmarks)
// into t's rows of links: the vertical lines of rows vrows and the
// horizontal lines above rows hrows, which must hold no link yet. Then it
// sorts those rows, merges the links between the same two groups, and
// marks in m.bridge which of the portals are the only one between their
// groups.
func (m *Mesh) lineLinks(t *tiling, es []int32, vrows, hrows []int) {
	type portal struct {
		e    int32 // from the polygon of lower ID
		link groupLink
		row  *[]groupLink
	}
	var ps []portal
	for _, e := range es {
		p := m.polyOfEdge(e)
		nb := m.enb[e]
		if nb < 0 {
			m.bridge[e] = bridgeNone // a wall now, where a portal may have been
			continue
		}
		if nb < p {
			continue
		}
		a, b := t.groupOf(m.polys[p].comp), t.groupOf(m.polys[nb].comp)
		l := groupLink{a: min(a, b), b: max(a, b)}
		va, vb := m.edgeEnds(p, e)
		row := &t.vlinks[int(min(va[1], vb[1]))/t.size]
		if va[1] == vb[1] { // on the horizontal line above row y/size
			row = &t.hlinks[int(va[1])/t.size]
		}
		*row = append(*row, l)
		ps = append(ps, portal{e, l, row})
	}
	order := func(p, q groupLink) int { return cmp.Or(cmp.Compare(p.a, q.a), cmp.Compare(p.b, q.b)) }
	for i, rs := range [2][][]groupLink{t.vlinks, t.hlinks} {
		for _, r := range [2][]int{vrows, hrows}[i] {
			ls := rs[r]
			slices.SortFunc(ls, order)
			out := ls[:0]
			for i, l := range ls {
				if i > 0 && order(l, ls[i-1]) == 0 {
					out[len(out)-1].several = true
					continue
				}
				out = append(out, l)
			}
			rs[r] = slices.Clip(out)
		}
	}
	for _, p := range ps {
		i, _ := slices.BinarySearchFunc(*p.row, p.link, order)
		mark := bridgeNone
		if !(*p.row)[i].several {
			mark = bridgeMaybe
		}
		nb := m.enb[p.e]
		m.bridge[p.e], m.bridge[m.polys[nb].e0+m.etwin[p.e]] = mark, mark
	}
}

// edgeEnds returns the end points of edge e of polygon p.
func (m *Mesh) edgeEnds(p PolyID, e int32) (mgl64.Vec2, mgl64.Vec2) {
	q := m.polys[p]
	return m.edge(q, e-q.e0)
}

// onTileLine reports whether edge e of polygon p lies on a line between
// two tiles of side size.
func (m *Mesh) onTileLine(p PolyID, e int32, size int) bool {
	a, b := m.edgeEnds(p, e)
	return a[0] == b[0] && int(a[0])%size == 0 || a[1] == b[1] && int(a[1])%size == 0
}

// graph is an undirected multigraph in compressed sparse row form: node
// v's half-edges are adj[deg[v]:deg[v+1]], each to a node, with the index
// of its edge.
type graph struct {
	deg []int32
	adj []halfEdge
}

type halfEdge struct{ to, id int32 }

// newGraph returns the graph of n nodes whose edge i joins ends[i], in
// sc's arrays when sc is not nil.
func newGraph(n int32, ends [][2]int32, sc *searchScratch) graph {
	room := slack // kept for the next graph
	if sc == nil {
		sc, room = &searchScratch{}, func(n int) int { return n }
	}
	deg := reuse(sc.deg, int(n)+1, room(int(n)+1))
	clear(deg)
	for _, e := range ends {
		deg[e[0]+1]++
		deg[e[1]+1]++
	}
	for i := range n {
		deg[i+1] += deg[i]
	}
	adj := reuse(sc.adj, 2*len(ends), room(2*len(ends)))
	fill := reuse(sc.fill, int(n), room(int(n)))
	copy(fill, deg[:n])
	for id, e := range ends {
		adj[fill[e[0]]] = halfEdge{e[1], int32(id)}
		fill[e[0]]++
		adj[fill[e[1]]] = halfEdge{e[0], int32(id)}
		fill[e[1]]++
	}
	sc.deg, sc.adj, sc.fill = deg, adj, fill
	return graph{deg, adj}
}

// searchScratch holds the arrays that building and searching a graph use
// besides the search's result (newGraph, graph.search), kept by Update
// from one search of the graph of groups to the next (see recycler).
type searchScratch struct {
	ends           [][2]int32
	deg, fill, low []int32
	adj            []halfEdge
	stack          []dfsFrame
}

// dfsFrame is a node on the stack of graph.search, with the next of its
// half-edges to follow.
type dfsFrame struct{ v, next int32 }

// dfsTree is a depth-first search of a graph (graph.search), per node: its
// number, the last number of its subtree, its parent (−1 at a root), the
// edge it was reached by (−1 at a root), whether that edge is a bridge,
// and its component (the number of its root).
type dfsTree struct {
	pre, end, parent, in, comp []int32
	up                         []bool
}

// search runs one depth-first search of g from each node not yet reached,
// in the order of the nodes, finding its bridges by Tarjan's low links
// (as bridge.go does over a mesh's polygons), in time linear in g's nodes
// and edges. Parallel edges are never bridges. It writes the tree into
// into's arrays where they have room, whatever they hold, and uses sc's
// for its own; either may be nil, for new ones.
func (g graph) search(into *dfsTree, sc *searchScratch) *dfsTree {
	n := int32(len(g.deg) - 1)
	k := int(n)
	if sc == nil {
		sc = &searchScratch{}
	}
	t := into.sized(k)
	low := reuse(sc.low, k, treeRoom(into, k))
	for i := range t.pre {
		t.pre[i] = -1
	}
	clear(t.up) // a root's is not set below
	stack := sc.stack[:0]
	defer func() { sc.low, sc.stack = low, stack }()
	var count int32
	for root := range n {
		if t.pre[root] >= 0 {
			continue
		}
		t.pre[root], low[root], t.parent[root], t.in[root], t.comp[root] = count, count, -1, -1, count
		rootNum := count
		count++
		stack = append(stack[:0], dfsFrame{v: root, next: g.deg[root]})
	loop:
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			v := f.v
			for ; f.next < g.deg[v+1]; f.next++ {
				h := g.adj[f.next]
				if h.id == t.in[v] {
					continue
				}
				if t.pre[h.to] >= 0 {
					low[v] = min(low[v], t.pre[h.to])
					continue
				}
				f.next++
				w := h.to
				t.pre[w], low[w], t.parent[w], t.in[w], t.comp[w] = count, count, v, h.id, rootNum
				count++
				stack = append(stack, dfsFrame{v: w, next: g.deg[w]})
				continue loop
			}
			stack = stack[:len(stack)-1]
			t.end[v] = count - 1
			if p := t.parent[v]; p >= 0 {
				low[p] = min(low[p], low[v])
				t.up[v] = low[v] > t.pre[p]
			}
		}
	}
	return t
}

// searchGroups sets m.tree from the groups and links of t: one depth-first
// search of the graph of groups. An edge that stands for several portals
// goes in twice, so that it is never a bridge. into and sc, which may be
// nil, are as for graph.search.
func (m *Mesh) searchGroups(t *tiling, into *dfsTree, sc *searchScratch) {
	if sc == nil {
		sc = &searchScratch{}
	}
	ends := sc.ends[:0]
	defer func() { sc.ends = ends }()
	for k := range t.tiles {
		base := t.groupBase[k]
		for _, l := range t.tiles[k].links {
			ends = append(ends, [2]int32{base + l[0], base + l[1]})
		}
	}
	for _, rs := range [2][][]groupLink{t.vlinks, t.hlinks} {
		for _, ls := range rs {
			for _, l := range ls {
				e := [2]int32{t.node(l.a), t.node(l.b)}
				ends = append(ends, e)
				if l.several {
					ends = append(ends, e)
				}
			}
		}
	}
	m.tree = newGraph(t.groupBase[len(t.tiles)], ends, sc).search(into, sc)
}

// sameGroups reports whether nt, the tiling an Update made from ot by
// building tile rows b0 to b1 again, has ot's graph of groups, edge for
// edge: the same groups in every tile, and the same links in and between
// the band's tiles (the other tiles and rows keep ot's). As most edits
// split and join no group, an Update then copies ot's mesh's tree rather
// than searching the graph again: the search would find the same one.
func sameGroups(ot, nt *tiling, b0, b1 int) bool {
	if !slices.Equal(ot.groupBase, nt.groupBase) {
		return false
	}
	for k := b0 * nt.nx; k < (b1+1)*nt.nx; k++ {
		if !slices.Equal(ot.tiles[k].links, nt.tiles[k].links) {
			return false
		}
	}
	for r := b0; r <= b1; r++ {
		if !slices.Equal(ot.vlinks[r], nt.vlinks[r]) {
			return false
		}
	}
	for r := b0; r <= min(b1+1, nt.ny-1); r++ {
		if !slices.Equal(ot.hlinks[r], nt.hlinks[r]) {
			return false
		}
	}
	return true
}

// treeRoom is the capacity of a new array for a tree of k nodes written
// into into's arrays: room kept for the next search when into is a
// recycled tree, none when there is none.
func treeRoom(into *dfsTree, k int) int {
	if into == nil {
		return k
	}
	return slack(k)
}

// sized returns a tree of k nodes in into's arrays where they have room,
// whatever they hold (into may be nil, for new ones).
func (into *dfsTree) sized(k int) *dfsTree {
	c := treeRoom(into, k)
	if into == nil {
		into = &dfsTree{}
	}
	return &dfsTree{pre: reuse(into.pre, k, c), end: reuse(into.end, k, c), parent: reuse(into.parent, k, c),
		in: reuse(into.in, k, c), comp: reuse(into.comp, k, c), up: reuse(into.up, k, c)}
}

// copyInto returns a copy of d in into's arrays where they have room
// (into may be nil, for new ones).
func (d *dfsTree) copyInto(into *dfsTree) *dfsTree {
	t := into.sized(len(d.pre))
	copy(t.pre, d.pre)
	copy(t.end, d.end)
	copy(t.parent, d.parent)
	copy(t.in, d.in)
	copy(t.comp, d.comp)
	copy(t.up, d.up)
	return t
}

// labelTiled sets the groups, bridges and components of m, a mesh
// stitched whole from its tiles with its neighbours set (see the top of
// the file).
func (m *Mesh) labelTiled() {
	t := m.tiles
	t.setGroupBases()
	m.pre, m.end = make([]int32, len(m.polys)), make([]int32, len(m.polys))
	m.bridge = make([]uint8, len(m.ev))
	m.labelRows(t, 0, t.ny-1)
	t.hlinks, t.vlinks = make([][]groupLink, t.ny), make([][]groupLink, t.ny)
	var es []int32
	for id, p := range m.polys {
		for e := p.e0; e < p.e0+p.ne; e++ {
			if m.enb[e] > PolyID(id) && m.onTileLine(PolyID(id), e, t.size) {
				es = append(es, e)
			}
		}
	}
	rows := make([]int, t.ny)
	for r := range rows {
		rows[r] = r
	}
	m.lineLinks(t, es, rows, rows)
	m.searchGroups(t, nil, nil)
}
