package core

// SetGen sets the generation counter of a searcher, so that tests can run
// queries across the wrap-around of the counter without 2^31 searches.
func SetGen(s *Searcher, g uint32) { s.s.gen = g }

// SetSlicedGen is SetGen for a sliced search.
func SetSlicedGen(s *Sliced, g uint32) { s.s.gen = g }
