package applygen

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/kubeclient/client-go/cmd/codegen/internal/gofile"
	"github.com/kubeclient/client-go/cmd/codegen/internal/layout"
	"github.com/kubeclient/client-go/cmd/codegen/internal/model"
)

// Generate adds the apply configuration packages, the schema package and the
// utils file to out.
func Generate(u *model.Universe, l layout.Layout, out *gofile.Output) error {
	s := selectTypes(u)
	paths, groups := s.byPackage()
	for _, p := range paths {
		rel := l.ApplyRel(p)
		pkg := path.Base(p)
		gv := s.inputs[p]
		doc := fmt.Sprintf("Package %s holds the apply configurations of the %s/%s API types:\nbuilders for server-side apply requests.", pkg, groupLabel(gv), gv.Version)
		if err := out.Add(rel, "doc.go", gofile.NewWithDoc(pkg, doc)); err != nil {
			return err
		}
		for _, t := range groups[p] {
			f := gofile.New(pkg)
			b := &builder{s: s, l: l, f: f, t: t, self: l.ApplyImport(p)}
			if err := b.write(); err != nil {
				return fmt.Errorf("apply configuration of %s.%s: %v", p, t.Name, err)
			}
			if err := out.Add(rel, strings.ToLower(t.Name)+".go", f); err != nil {
				return err
			}
		}
	}
	internalRel := path.Join(l.ApplyConfigPath, "internal")
	if err := out.Add(internalRel, "internal.go", schemaFile(s)); err != nil {
		return err
	}
	root := path.Base(l.ApplyConfigPath)
	if err := out.Add(l.ApplyConfigPath, "doc.go", gofile.NewWithDoc(root, "Package "+root+" holds the apply configurations of the API types, in one\npackage per group version, and ForKind to find one by kind.")); err != nil {
		return err
	}
	return out.Add(l.ApplyConfigPath, "utils.go", utilsFile(s, l, paths, groups))
}

func schemaFile(s *selection) *gofile.File {
	f := gofile.NewWithDoc("internal", "Package internal holds the structured-merge-diff schema of every type that\nhas an apply configuration; Extract functions and type converters parse\nobjects with it.")
	typed := f.Import("sigs.k8s.io/structured-merge-diff/v6/typed")
	sync := f.Import("sync")
	fmtAlias := f.Import("fmt")
	f.Printf(`// Parser returns the parser of the schema, built on first use.
func Parser() *%[1]s.Parser {
	parserOnce.Do(func() {
		var err error
		parser, err = %[1]s.NewParser(schemaYAML)
		if err != nil {
			panic(%[3]s.Sprintf("parsing the generated apply schema: %%v", err))
		}
	})
	return parser
}

var (
	parserOnce %[2]s.Once
	parser     *%[1]s.Parser
)

var schemaYAML = %[1]s.YAMLObject(%[4]s)
`, typed, sync, fmtAlias, "`"+buildSchema(s)+"`")
	return f
}

func utilsFile(s *selection, l layout.Layout, paths []string, groups map[string][]*model.Type) *gofile.File {
	pkg := path.Base(l.ApplyConfigPath)
	f := gofile.New(pkg)
	schema := f.Import("k8s.io/apimachinery/pkg/runtime/schema")
	runtime := f.Import("k8s.io/apimachinery/pkg/runtime")
	mf := f.Import("k8s.io/apimachinery/pkg/util/managedfields")
	internal := f.Import(l.ApplyInternalImport())
	self := l.Import(l.ApplyConfigPath)
	f.Printf("// ForKind returns an empty apply configuration for kind, or nil when kind\n// has none.\nfunc ForKind(kind %s.GroupVersionKind) interface{} {\n\tswitch kind {\n", schema)
	sorted := append([]string(nil), paths...)
	sort.SliceStable(sorted, func(i, j int) bool {
		return groupKey(s, sorted[i]) < groupKey(s, sorted[j])
	})
	for _, p := range sorted {
		gv := s.inputs[p]
		api := f.Import(p)
		ac := f.Qualify(self, l.ApplyImport(p), "")
		f.Printf("\t// %s/%s\n", groupLabel(gv), gv.Version)
		for _, t := range groups[p] {
			f.Printf("\tcase %s.SchemeGroupVersion.WithKind(%q):\n\t\treturn &%s%s{}\n", api, t.Name, ac, acName(t.Name))
		}
	}
	f.Printf("\t}\n\treturn nil\n}\n\n")
	f.Printf("// NewTypeConverter returns a type converter for the types of scheme that\n// knows the apply schema of every generated type.\nfunc NewTypeConverter(scheme *%s.Scheme) %s.TypeConverter {\n\treturn %s.NewSchemeTypeConverter(scheme, %s.Parser())\n}\n", runtime, mf, mf, internal)
	return f
}

func groupKey(s *selection, p string) string {
	gv := s.inputs[p]
	return groupLabel(gv) + "/" + gv.Version
}

func groupLabel(gv *model.GroupVersion) string {
	if gv.Group.Name == "" {
		return "core"
	}
	return gv.Group.Name
}
