package navmesh

// SetNodeRoom sets the room a Searcher has for the exact search's nodes,
// so that tests can make a search outgrow it and begin again with more.
func SetNodeRoom(s *Searcher, n int) { s.g.limit = n }

// NodeRoom returns the room a Searcher has for the exact search's nodes.
func NodeRoom(s *Searcher) int { return s.g.limit }
