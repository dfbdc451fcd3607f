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

// copyTree returns a copy of the unstructured object m (a JSON-like
// tree) that shares what repeats with the objects before it: strings
// other than unique ones are the table's copies, and a fieldsV1 tree equal
// to one seen before is that tree. m is not written: every map and list
// of the copy is new, or a table's tree, which nobody writes. Values that
// are not JSON-like (a caller's own types) are kept as they are.
func (s *Sharer) copyTree(m map[string]interface{}) map[string]interface{} {
	if m == nil {
		return nil
	}
	c := make(map[string]interface{}, len(m))
	for k, v := range m {
		switch x := v.(type) {
		case string:
			if !UniqueKey(k) && k != LastAppliedAnnotation {
				v = s.Boxed.Intern(v)
			}
		case map[string]interface{}:
			if k == "fieldsV1" && s.Trees != nil {
				if shared, ok := s.Trees.Find(x); ok {
					v = shared
					break
				}
				// The copy is final once built: others may see it.
				tree := s.copyTree(x)
				s.Trees.Intern(tree)
				v = tree
				break
			}
			v = s.copyTree(x)
		case []interface{}:
			v = s.copyList(x)
		}
		c[s.str(k)] = v
	}
	return c
}

func (s *Sharer) copyList(list []interface{}) []interface{} {
	if list == nil {
		return nil
	}
	c := make([]interface{}, len(list))
	for i, v := range list {
		switch x := v.(type) {
		case string:
			v = s.Boxed.Intern(v)
		case map[string]interface{}:
			v = s.copyTree(x)
		case []interface{}:
			v = s.copyList(x)
		}
		c[i] = v
	}
	return c
}
