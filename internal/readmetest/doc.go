// Package readmetest holds one test: that the library program in the
// README compiles, runs, and prints what the README says it prints. It has
// no code of its own.
package readmetest
