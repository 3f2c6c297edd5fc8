// Package unionfind is a disjoint-set forest over dense int32 IDs, for the
// labellings of runs of free cells that grid (regions), hpa (the groups of
// a cluster's nodes a file is checked against) and mapgen (connecting a
// world's regions) make.
package unionfind

// Forest holds each element's parent; a root is its own parent. Append an
// element i as a set of its own with append(f, i). Union keeps the smaller
// root, so the root of a set is its smallest element.
type Forest []int32

// Find returns the root of i's set, halving the path to it on the way. It
// is amortised O(α(n)) with Union by smaller root, and does not allocate.
func (f Forest) Find(i int32) int32 {
	for f[i] != i {
		f[i] = f[f[i]]
		i = f[i]
	}
	return i
}

// Union joins the sets of a and b under the smaller of their roots and
// returns that root.
func (f Forest) Union(a, b int32) int32 {
	ra, rb := f.Find(a), f.Find(b)
	if ra > rb {
		ra, rb = rb, ra
	}
	f[rb] = ra
	return ra
}
