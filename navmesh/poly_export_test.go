package navmesh

// SetBridgeByDistance makes FromPolygons join holes by its search by
// distance alone, and returns a function that undoes it.
func SetBridgeByDistance() (undo func()) {
	bridgeByDistance = true
	return func() { bridgeByDistance = false }
}

// StarRing is starRing, for the external tests.
var StarRing = starRing
