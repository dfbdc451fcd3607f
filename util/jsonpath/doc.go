// Package jsonpath is the template engine behind kubectl's -o jsonpath output.
//
// A template is plain text with actions in braces: {.metadata.name} selects a
// field, {.items[*]} every element of a list, {..name} every "name" at any
// depth, {.items[?(@.status.phase=="Running")]} the elements passing a filter,
// and {range .items[*]}...{end} repeats the enclosed template for each result.
// Parser turns the text into a tree of Nodes; JSONPath evaluates that tree
// against Go values (typed API objects or decoded JSON) and prints the results.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package jsonpath
