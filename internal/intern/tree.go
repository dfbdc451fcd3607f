package intern

// UniqueKey tells whether the values of member k in unstructured objects
// are as good as unique to an object, so that sharing them would only
// evict shared values from the tables; see uniqueFields.
func UniqueKey(k string) bool {
	switch k {
	case "uid", "resourceVersion", "containerID", "podIP", "ip", "selfLink":
		return true
	}
	return false
}

// shareTree interns the string values of an unstructured object in place,
// and the keys of the entries it writes again: those whose value it
// replaced (a string, a shared fieldsV1 tree). Entries holding maps,
// lists, numbers or unique strings are not written: a map store per key
// cost more than the decoder's keys, read into the process-wide table
// already, would save.
func (s *Sharer) shareTree(m map[string]interface{}) {
	for k, v := range m {
		changed := false
		switch x := v.(type) {
		case string:
			if !UniqueKey(k) {
				v, changed = s.Boxed.Intern(v), true
			}
		case map[string]interface{}:
			if k == "fieldsV1" && s.Trees != nil {
				if shared, ok := s.Trees.Find(x); ok {
					v, changed = shared, true
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
		if changed {
			m[s.str(k)] = v
		}
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
