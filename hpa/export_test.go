package hpa

// SameAnswer reports whether two results agree in status and cost; their
// expansions differ with the paths a searcher's graph kept from earlier
// queries.
func SameAnswer(a, b Result) bool { return a.Status == b.Status && a.Cost == b.Cost }

// ChooseLevels is chooseLevels, for the tests of the choice.
var ChooseLevels = chooseLevels
