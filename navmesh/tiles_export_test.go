package navmesh

import "slices"

// PairedAsWhole reports whether m's neighbours across edges are those that
// pairing all its edges at once (link, with tri.PairEdges) finds: the plain
// baseline of the tiled meshes' pairing tile by tile and line by line.
func PairedAsWhole(m *Mesh) bool {
	c := *m
	c.link()
	return slices.Equal(c.enb, m.enb) && slices.Equal(c.etwin, m.etwin) && c.nport == m.nport
}
