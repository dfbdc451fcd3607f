package internal

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestCreateTwoWayMergePatch(t *testing.T) {
	tests := []struct {
		name, from, to string
		want           map[string]interface{}
	}{
		{"unchanged", `{"a":1,"b":{"c":2}}`, `{"a":1,"b":{"c":2}}`, map[string]interface{}{}},
		{"changed scalar", `{"count":1,"message":"x"}`, `{"count":2,"message":"x"}`, map[string]interface{}{"count": 2.0}},
		{"added and removed", `{"a":1}`, `{"b":[1,2]}`, map[string]interface{}{"a": nil, "b": []interface{}{1.0, 2.0}}},
		{"nested", `{"series":{"count":2,"t":"x"}}`, `{"series":{"count":3,"t":"x"}}`, map[string]interface{}{"series": map[string]interface{}{"count": 3.0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := CreateTwoWayMergePatch([]byte(tt.from), []byte(tt.to))
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]interface{}
			if err := json.Unmarshal(raw, &got); err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("patch %s, want %v (%v)", raw, tt.want, err)
			}
		})
	}
	if _, err := CreateTwoWayMergePatch([]byte(`[1]`), []byte(`{}`)); err == nil {
		t.Error("a non-object document was accepted")
	}
}
