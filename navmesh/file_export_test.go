package navmesh

import "reflect"

// SameInternals reports whether a and b hold the same data, derived data
// included.
func SameInternals(a, b *Mesh) bool { return reflect.DeepEqual(a, b) }
