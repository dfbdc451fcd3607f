// Package applygen generates apply configurations: for every API struct
// reachable from an appliable resource, a builder type with pointer fields,
// With<Field> setters and the API's JSON names; for resources, constructors
// and Extract functions built on managed fields; the structured-merge-diff
// schema of all those types (package internal); and the ForKind lookup and
// type converter (package applyconfigurations).
package applygen
