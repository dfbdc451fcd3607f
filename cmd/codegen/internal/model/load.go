package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Options controls Load.
type Options struct {
	// Dir is the directory go list runs in: the module whose requirements
	// resolve the input packages.
	Dir string
	// Inputs are the import paths of the API group-version packages.
	Inputs []string
	// ApplyOnly are API packages that get apply configurations but no
	// typed client (imagepolicy, meta/v1).
	ApplyOnly []string
}

// listedPackage is the subset of `go list -json` output the loader needs.
type listedPackage struct {
	ImportPath string
	Dir        string
	Name       string
	GoFiles    []string
	Error      *struct{ Err string }
}

// Load parses the input packages and every package their exported fields
// refer to, and builds the Universe.
func Load(opts Options) (*Universe, error) {
	l := &loader{dir: opts.Dir, fset: token.NewFileSet(), pkgs: map[string]*Package{}}
	if err := l.loadClosure(append(append([]string(nil), opts.Inputs...), opts.ApplyOnly...)); err != nil {
		return nil, err
	}
	resolveDefinitions(l.pkgs)
	u := &Universe{Packages: l.pkgs}
	for _, path := range opts.ApplyOnly {
		gv, err := newGroupVersion(u, l.pkgs[path])
		if err != nil {
			return nil, err
		}
		u.ApplyOnly = append(u.ApplyOnly, gv)
	}
	groups := map[string]*Group{}
	for _, path := range opts.Inputs {
		p := l.pkgs[path]
		gv, err := newGroupVersion(u, p)
		if err != nil {
			return nil, err
		}
		g := groups[gv.Group.PackageName]
		if g == nil {
			g = gv.Group
			groups[g.PackageName] = g
			u.Groups = append(u.Groups, g)
		} else if g.Name != gv.Group.Name {
			return nil, fmt.Errorf("%s: group name %q differs from %q used by other versions in %s", path, gv.Group.Name, g.Name, g.PackageName)
		}
		gv.Group = g
		g.Versions = append(g.Versions, gv)
	}
	sort.Slice(u.Groups, func(i, j int) bool { return u.Groups[i].PackageName < u.Groups[j].PackageName })
	for _, g := range u.Groups {
		sort.Slice(g.Versions, func(i, j int) bool { return g.Versions[i].Version < g.Versions[j].Version })
	}
	return u, nil
}

type loader struct {
	dir  string
	fset *token.FileSet
	pkgs map[string]*Package
	// pending collects import paths referenced by parsed fields that are not
	// loaded yet.
	pending map[string]bool
}

// loadClosure loads paths, then repeatedly the packages they refer to.
func (l *loader) loadClosure(paths []string) error {
	todo := paths
	for len(todo) > 0 {
		l.pending = map[string]bool{}
		if err := l.loadBatch(todo); err != nil {
			return err
		}
		todo = todo[:0:0]
		for p := range l.pending {
			if _, done := l.pkgs[p]; !done {
				todo = append(todo, p)
			}
		}
		sort.Strings(todo)
	}
	return nil
}

func (l *loader) loadBatch(paths []string) error {
	args := append([]string{"list", "-e", "-json=ImportPath,Dir,Name,GoFiles,Error"}, paths...)
	cmd := exec.Command("go", args...)
	cmd.Dir = l.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list %s: %v: %s", strings.Join(paths, " "), err, stderr.String())
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var lp listedPackage
		if err := dec.Decode(&lp); err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("decoding go list output: %v", err)
		}
		if lp.Error != nil {
			return fmt.Errorf("package %s: %s", lp.ImportPath, lp.Error.Err)
		}
		p, err := l.parsePackage(lp)
		if err != nil {
			return err
		}
		l.pkgs[p.Path] = p
	}
	return nil
}

func (l *loader) parsePackage(lp listedPackage) (*Package, error) {
	p := &Package{Path: lp.ImportPath, Dir: lp.Dir, Name: lp.Name, Types: map[string]*Type{}, Tags: Tags{}, StringConsts: map[string]string{}}
	methods := map[string]map[string]bool{}
	for _, name := range lp.GoFiles {
		file, err := parser.ParseFile(l.fset, filepath.Join(lp.Dir, name), nil, parser.ParseComments)
		if err != nil {
			return nil, fmt.Errorf("parsing %s: %v", lp.ImportPath, err)
		}
		if file.Doc != nil {
			for k, v := range parseTags(commentLines(file.Doc)) {
				p.Tags[k] = append(p.Tags[k], v...)
			}
		}
		// Package tags may also sit in a comment block above the package
		// clause that is not its doc comment (doc.go files often do this).
		for _, cg := range file.Comments {
			if cg.End() < file.Package {
				if cg == file.Doc {
					continue
				}
				for k, v := range parseTags(commentLines(cg)) {
					p.Tags[k] = append(p.Tags[k], v...)
				}
			}
		}
		imports := fileImports(file)
		for _, decl := range file.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && len(d.Recv.List) == 1 {
					recv := receiverName(d.Recv.List[0].Type)
					if methods[recv] == nil {
						methods[recv] = map[string]bool{}
					}
					methods[recv][d.Name.Name] = true
				} else if d.Recv == nil && d.Name.Name == "AddToScheme" {
					p.HasAddToScheme = true
				}
			case *ast.GenDecl:
				if d.Tok == token.CONST {
					for _, spec := range d.Specs {
						vs := spec.(*ast.ValueSpec)
						for i, n := range vs.Names {
							if i < len(vs.Values) {
								if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
									if v, err := strconv.Unquote(lit.Value); err == nil {
										p.StringConsts[n.Name] = v
									}
								}
							}
						}
					}
				}
				if d.Tok == token.VAR {
					for _, spec := range d.Specs {
						for _, n := range spec.(*ast.ValueSpec).Names {
							if n.Name == "AddToScheme" {
								p.HasAddToScheme = true
							}
						}
					}
				}
				if d.Tok != token.TYPE {
					continue
				}
				for _, spec := range d.Specs {
					ts := spec.(*ast.TypeSpec)
					if !ts.Name.IsExported() || ts.TypeParams != nil {
						continue
					}
					t, err := l.parseType(p, file, imports, d, ts)
					if err != nil {
						return nil, fmt.Errorf("%s.%s: %v", p.Path, ts.Name.Name, err)
					}
					p.Types[t.Name] = t
					p.Order = append(p.Order, t.Name)
				}
			}
		}
	}
	for name, t := range p.Types {
		t.Methods = methods[name]
		t.CustomJSON = t.Methods["MarshalJSON"] || t.Methods["OpenAPISchemaType"]
	}
	return p, nil
}

func receiverName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return receiverName(x.X)
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return receiverName(x.X)
	}
	return ""
}

func fileImports(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := filepath.Base(path)
		if len(name) > 1 && name[0] == 'v' && name[1] >= '0' && name[1] <= '9' && !strings.Contains(path, "k8s.io/api/") && !strings.Contains(path, "/apis/") {
			name = filepath.Base(filepath.Dir(path))
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		m[name] = path
	}
	return m
}

func commentLines(cg *ast.CommentGroup) []string {
	if cg == nil {
		return nil
	}
	var out []string
	for _, c := range cg.List {
		out = append(out, strings.Split(c.Text, "\n")...)
	}
	return out
}

func (l *loader) parseType(p *Package, file *ast.File, imports map[string]string, decl *ast.GenDecl, ts *ast.TypeSpec) (*Type, error) {
	var lines []string
	lines = append(lines, commentLines(decl.Doc)...)
	lines = append(lines, commentLines(ts.Doc)...)
	// Tags in the comment block separated from the type by a blank line
	// still belong to it (client-gen reads the second-closest block too).
	lines = append(lines, precedingBlock(l.fset, file, decl)...)
	t := &Type{Package: p, Name: ts.Name.Name, Tags: parseTags(lines), Alias: ts.Assign.IsValid()}
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		t.Kind = KindOther
		ref, err := l.typeRef(p, imports, ts.Type)
		if err != nil {
			return nil, err
		}
		t.Underlying = ref
		return t, nil
	}
	t.Kind = KindStruct
	for _, f := range st.Fields.List {
		ref, err := l.typeRef(p, imports, f.Type)
		if err != nil {
			return nil, err
		}
		var tag string
		if f.Tag != nil {
			tag, _ = strconv.Unquote(f.Tag.Value)
		}
		fieldTags := parseTags(commentLines(f.Doc))
		names := f.Names
		if len(names) == 0 {
			base := ref
			if base.Kind == RefPointer {
				base = base.Elem
			}
			names = []*ast.Ident{{Name: base.Name}}
			if !ast.IsExported(base.Name) {
				continue
			}
			fld := newField(base.Name, ref, tag, fieldTags)
			fld.Embedded = true
			t.Fields = append(t.Fields, fld)
			continue
		}
		for _, n := range names {
			if !n.IsExported() {
				continue
			}
			t.Fields = append(t.Fields, newField(n.Name, ref, tag, fieldTags))
		}
	}
	return t, nil
}

// precedingBlock returns the lines of the comment group that ends on the
// line before decl's doc comment (or decl) starts, separated by one blank
// line.
func precedingBlock(fset *token.FileSet, file *ast.File, decl *ast.GenDecl) []string {
	start := decl.Pos()
	if decl.Doc != nil {
		start = decl.Doc.Pos()
	}
	startLine := fset.Position(start).Line
	for _, cg := range file.Comments {
		if cg == decl.Doc {
			continue
		}
		if fset.Position(cg.End()).Line == startLine-2 {
			return commentLines(cg)
		}
	}
	return nil
}

func newField(name string, ref *TypeRef, tag string, tags Tags) *Field {
	f := &Field{Name: name, Type: ref, Tag: tag, Tags: tags}
	js, ok := reflect.StructTag(tag).Lookup("json")
	if ok {
		parts := strings.Split(js, ",")
		f.JSONName = parts[0]
		for _, opt := range parts[1:] {
			switch opt {
			case "omitempty":
				f.OmitEmpty = true
			case "inline":
				f.Inline = true
			}
		}
	}
	return f
}

func (l *loader) typeRef(p *Package, imports map[string]string, e ast.Expr) (*TypeRef, error) {
	switch x := e.(type) {
	case *ast.Ident:
		if builtinTypes[x.Name] {
			return &TypeRef{Kind: RefBuiltin, Name: x.Name}, nil
		}
		return &TypeRef{Kind: RefNamed, PkgPath: p.Path, Name: x.Name}, nil
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		if !ok {
			return nil, fmt.Errorf("unsupported qualified type %T", x.X)
		}
		path, ok := imports[id.Name]
		if !ok {
			// The import's package name differs from its last path element
			// (k8s.io/klog/v2 is klog); API types never do this, so the
			// field is kept as an opaque type.
			return &TypeRef{Kind: RefInterface, Name: "unsupported"}, nil
		}
		if _, loaded := l.pkgs[path]; !loaded && l.pending != nil && strings.Contains(strings.Split(path, "/")[0], ".") {
			l.pending[path] = true
		}
		return &TypeRef{Kind: RefNamed, PkgPath: path, Name: x.Sel.Name}, nil
	case *ast.StarExpr:
		elem, err := l.typeRef(p, imports, x.X)
		if err != nil {
			return nil, err
		}
		return &TypeRef{Kind: RefPointer, Elem: elem}, nil
	case *ast.ArrayType:
		elem, err := l.typeRef(p, imports, x.Elt)
		if err != nil {
			return nil, err
		}
		if x.Len != nil {
			return nil, fmt.Errorf("arrays are not supported")
		}
		return &TypeRef{Kind: RefSlice, Elem: elem}, nil
	case *ast.MapType:
		key, err := l.typeRef(p, imports, x.Key)
		if err != nil {
			return nil, err
		}
		elem, err := l.typeRef(p, imports, x.Value)
		if err != nil {
			return nil, err
		}
		return &TypeRef{Kind: RefMap, Key: key, Elem: elem}, nil
	case *ast.InterfaceType:
		return &TypeRef{Kind: RefInterface, Name: "interface{}"}, nil
	case *ast.StructType, *ast.FuncType, *ast.ChanType:
		return &TypeRef{Kind: RefInterface, Name: "unsupported"}, nil
	case *ast.IndexExpr, *ast.IndexListExpr:
		return &TypeRef{Kind: RefInterface, Name: "unsupported"}, nil
	}
	return nil, fmt.Errorf("unsupported type expression %T", e)
}

var builtinTypes = map[string]bool{
	"bool": true, "string": true, "byte": true, "rune": true, "error": true, "any": true,
	"int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true,
}

// resolveDefinitions turns types defined as another struct type
// (type MatchCondition v1.MatchCondition) into structs with the fields of
// that type, so generators see them as the structs they are.
func resolveDefinitions(pkgs map[string]*Package) {
	var resolve func(t *Type, depth int)
	resolve = func(t *Type, depth int) {
		if t.Alias || t.Kind != KindOther || t.Underlying == nil || t.Underlying.Kind != RefNamed || depth > 8 {
			return
		}
		p := pkgs[t.Underlying.PkgPath]
		if p == nil {
			return
		}
		target := p.Types[t.Underlying.Name]
		if target == nil {
			return
		}
		resolve(target, depth+1)
		if target.Kind != KindStruct {
			return
		}
		t.Kind = KindStruct
		t.Fields = target.Fields
		t.CustomJSON = t.CustomJSON || target.CustomJSON
	}
	for _, p := range pkgs {
		for _, t := range p.Types {
			resolve(t, 0)
		}
	}
}
