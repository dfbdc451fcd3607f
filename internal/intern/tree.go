package intern

import "hash/maphash"

// uniqueKeys name the fields of unstructured objects whose values are as
// good as unique to an object; see uniqueFields.
var uniqueKeys = map[string]bool{
	"uid":             true,
	"resourceVersion": true,
	"containerID":     true,
	"podIP":           true,
	"ip":              true,
	"selfLink":        true,
}

// shareTree interns the keys and string values of an unstructured object
// in place.
func (s *Sharer) shareTree(m map[string]interface{}) {
	for k, v := range m {
		switch x := v.(type) {
		case string:
			if !uniqueKeys[k] {
				v = s.Boxed.Intern(v)
			}
		case map[string]interface{}:
			if k == "fieldsV1" && s.Trees != nil {
				if shared, ok := s.Trees.Find(x); ok {
					v = shared
					break
				}
				// Only a tree that is final may be seen by others.
				s.shareTree(x)
				s.Trees.Intern(x)
				break
			}
			s.shareTree(x)
		case []interface{}:
			s.shareList(x)
		}
		m[s.str(k)] = v
	}
}

func (s *Sharer) shareList(list []interface{}) {
	for i, v := range list {
		switch x := v.(type) {
		case string:
			list[i] = s.Boxed.Intern(v)
		case map[string]interface{}:
			s.shareTree(x)
		case []interface{}:
			s.shareList(x)
		}
	}
}

// newBoxedStrings returns a table of strings held in interfaces: a hit
// returns the interface the table holds, whose box is then shared too.
func newBoxedStrings(slots, maxLen int) *Table[any] {
	seed := maphash.MakeSeed()
	return NewTable(slots, func(v any) (uint64, bool) {
		s, ok := v.(string)
		if !ok || len(s) == 0 || len(s) > maxLen {
			return 0, false
		}
		return maphash.String(seed, s), true
	}, func(a, b any) bool { return a.(string) == b.(string) })
}
