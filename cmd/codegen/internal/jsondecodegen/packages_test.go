package jsondecodegen

import (
	"strings"
	"testing"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

func TestGeneratePackagesWritesRegisteredDecodersNextToTheTypes(t *testing.T) {
	objectTag := model.Tags{"k8s:deepcopy-gen:interfaces": {"k8s.io/apimachinery/pkg/runtime.Object"}}
	newUniverse := func(pkgTags model.Tags, objects bool) *model.Universe {
		spec := &model.Type{Name: "ThingSpec", Kind: model.KindStruct, Fields: []*model.Field{
			field("Color", builtin("string"), `json:"color"`),
		}}
		thing := &model.Type{Name: "Thing", Kind: model.KindStruct, Fields: []*model.Field{
			field("Spec", named("ThingSpec"), `json:"spec"`),
		}}
		if objects {
			thing.Tags = objectTag
		}
		u, p := universe(thing, spec)
		p.Tags = pkgTags
		u.Groups = []*model.Group{{Name: "example.com"}}
		u.Groups[0].Versions = []*model.GroupVersion{{Group: u.Groups[0], Version: "v1", Package: p}}
		return u
	}
	tagged := model.Tags{"k8s:deepcopy-gen": {"package"}}
	for _, tc := range []struct {
		name     string
		u        *model.Universe
		module   string
		wantErr  string
		want     map[string][]string // file -> substrings
		notWant  []string
		wantNone bool
	}{
		{
			name:   "tagged package with an object",
			u:      newUniverse(tagged, true),
			module: "example.com/generated",
			want: map[string][]string{
				"../api/v1/" + FileName: {
					"package v1", `"github.com/kubeclient/client-go/pkg/decoders"`,
					"decoders.RegisterJSON(decodeJSONApiv1Thing)",
					"func decodeJSONApiv1Thing(l *decoders.Lexer, v *Thing) error",
					"func decodeJSONApiv1ThingSpec(l *decoders.Lexer, v *ThingSpec) error",
					`case "color":`,
				},
				"../api/v1/" + TestFileName: {"func TestGeneratedJSONDecoders(t *testing.T)", "decoderstest.CheckJSON(t,", "&Thing{},"},
			},
			notWant: []string{"RegisterJSON(decodeJSONApiv1ThingSpec)", "&ThingSpec{}"},
		},
		{name: "untagged package", u: newUniverse(nil, true), module: "example.com/generated", wantNone: true},
		{name: "no objects", u: newUniverse(tagged, false), module: "example.com/generated", wantNone: true},
		{name: "package outside the module's tree", u: newUniverse(tagged, true), module: "other.org/generated", wantErr: "shares no leading path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := gofile.NewOutput()
			err := GeneratePackages(tc.u, layout.Layout{Module: tc.module}, out, PackageOptions{RuntimePath: "github.com/kubeclient/client-go/pkg/decoders"})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantNone {
				if paths := out.Paths(); len(paths) != 0 {
					t.Fatalf("wrote %v, want nothing", paths)
				}
				return
			}
			if len(out.Paths()) != len(tc.want) {
				t.Errorf("wrote %v, want %d files", out.Paths(), len(tc.want))
			}
			var all string
			for file, subs := range tc.want {
				src := string(out.Content(file))
				all += src
				for _, s := range subs {
					if !strings.Contains(src, s) {
						t.Errorf("%s lacks %q:\n%s", file, s, src)
					}
				}
			}
			for _, s := range tc.notWant {
				if strings.Contains(all, s) {
					t.Errorf("output has %q", s)
				}
			}
		})
	}
}
