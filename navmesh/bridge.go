package navmesh

// Bridge pruning. A portal is a bridge when removing it splits its
// component of the mesh in two. A path that crosses a bridge into the side
// holding neither its start nor its goal can only come back across the same
// portal, and the stretch between the two crossings is longer than the
// straight run along the portal: no shortest path does it. Generalising
// Polyanya's dead-end pruning (a polygon with one portal), the search never
// crosses a bridge into such a side, so it never enters the dead-end
// corridors of a maze or the cul-de-sacs of a city.
//
// An untiled mesh's bridges come from one depth-first search over the
// polygons (Tarjan's low links); a tiled mesh's from its tiles'
// (tileprune.go). Numbering the polygons in the order that search first meets
// them, the side a bridge leads down into, away from the search's root, is
// exactly the polygons numbered from that of its first polygon c (pre[c])
// to the last one met before the search backed out of c (end[c]): one
// interval, so whether a polygon lies beyond a bridge is two comparisons.

// bridges marks the bridges of m and numbers its polygons (see above),
// and sets each polygon's component: the number of the search's root,
// counted from 0 in the order of the roots, which are the first polygons
// of their components.
func (m *Mesh) bridges() {
	n := len(m.polys)
	m.pre = make([]int32, n)
	m.end = make([]int32, n)
	m.bridge = make([]uint8, len(m.ev))
	low := make([]int32, n)
	for i := range m.pre {
		m.pre[i] = -1
	}
	type frame struct {
		p    PolyID
		next int32 // the next edge of p to look across
		in   int32 // the edge of p the search came in by, −1 at a root
	}
	var stack []frame
	var t, comp int32
	pre, end, enb, polys := m.pre, m.end, m.enb, m.polys
	for root := range polys {
		if pre[root] >= 0 {
			continue
		}
		polys[root].comp = comp
		pre[root], low[root] = t, t
		t++
		stack = append(stack[:0], frame{p: PolyID(root), in: -1})
	search:
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			p := polys[f.p]
			lo := low[f.p]
			// Look across p's edges from the next one on, until one leads
			// to a polygon not met yet.
			for i := f.next; i < p.ne; i++ {
				nb := enb[p.e0+i]
				if nb < 0 || i == f.in {
					continue
				}
				if pre[nb] >= 0 {
					lo = min(lo, pre[nb])
					continue
				}
				f.next = i + 1
				low[f.p] = lo
				pre[nb], low[nb] = t, t
				polys[nb].comp = comp
				t++
				stack = append(stack, frame{p: nb, in: m.etwin[p.e0+i]})
				continue search
			}
			low[f.p] = lo
			c := *f
			stack = stack[:len(stack)-1]
			end[c.p] = t - 1
			if len(stack) == 0 {
				break
			}
			up := stack[len(stack)-1].p
			low[up] = min(low[up], low[c.p])
			if low[c.p] > pre[up] {
				// Only the edge c came in by joins c's subtree to the rest.
				e := polys[c.p].e0 + c.in
				m.bridge[e] = bridgePocket
				m.bridge[polys[up].e0+m.etwin[e]] = bridgePocket
			}
		}
		comp++
	}
}

// crosses reports whether the search may cross edge e of polygon from:
// the polygon across is not one the query's filter excludes, and the edge
// is not a bridge, or the side it leads to holds a polygon of the start or
// the goal.
func (s *search) crosses(from PolyID, e int32) bool {
	m := s.m
	if s.fl.excl != nil && s.excluded(m.enb[e]) {
		return false
	}
	mark := m.bridge[e]
	if mark == bridgeNone || s.exhaust {
		return true
	}
	lo, hi, down, ok := m.bridgeSide(from, e)
	if !ok {
		return true
	}
	for _, ps := range [2][]PolyID{s.sps, s.gps} {
		for _, k := range ps {
			if n := m.number(k, mark); (lo <= n && n <= hi) == down {
				return true
			}
		}
	}
	return false
}

// bridgeSide returns, for edge e of polygon from that m.bridge marks, the
// numbers lo to hi (see number) of the side that the bridge leads down
// into, away from the root of the search that numbered them, and whether
// that side is the one across e; ok is false when the edge is not a
// bridge, as an edge marked bridgeMaybe may not be (tileprune.go).
func (m *Mesh) bridgeSide(from PolyID, e int32) (lo, hi int32, down, ok bool) {
	to := m.enb[e]
	if t := m.tree; m.bridge[e] == bridgeMaybe {
		u, v := m.polys[from].comp, m.polys[to].comp
		switch {
		case t.parent[v] == u && t.up[v]:
			return t.pre[v], t.end[v], true, true
		case t.parent[u] == v && t.up[u]:
			return t.pre[u], t.end[u], false, true
		}
		return 0, 0, false, false
	}
	c := to // the polygon the bridge leads down into
	if m.pre[from] > m.pre[to] {
		c = from
	}
	return m.pre[c], m.end[c], c == to, true
}

// number returns the number of polygon p that the sides of the bridges
// marked mark are intervals of.
func (m *Mesh) number(p PolyID, mark uint8) int32 {
	if mark == bridgeMaybe {
		return m.tree.pre[m.polys[p].comp]
	}
	return m.pre[p]
}
