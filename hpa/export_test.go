package hpa

// SameAnswer reports whether two results agree in status and cost; their
// expansions differ with the paths a searcher's graph kept from earlier
// queries.
func SameAnswer(a, b Result) bool { return a.Status == b.Status && a.Cost == b.Cost }

// FillTables fills the table of every cluster above the first, as queries
// whose ends lie in them all would.
func FillTables(h *Graph) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	var a clusterAPSP
	for l := 2; l <= h.Levels(); l++ {
		for c := range h.levels[l-2].cm {
			h.endTable(&a, l, int32(c))
		}
	}
}
