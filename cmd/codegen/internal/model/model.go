package model

import "sort"

// Universe is everything a generator run knows about: the API groups selected
// as input and every Go package that was parsed to resolve their types.
type Universe struct {
	// Groups are the API groups of the input packages, sorted by package
	// directory name.
	Groups []*Group
	// ApplyOnly are group versions that get apply configurations but no
	// typed client.
	ApplyOnly []*GroupVersion
	// Packages holds every parsed package by import path, inputs and the
	// packages their fields refer to (meta/v1, resource, intstr, ...).
	Packages map[string]*Package
}

// Group is one API group, such as apps or core.
type Group struct {
	// Name is the group name from +groupName, "" for the core group.
	Name string
	// GoName is the Go identifier of the group in client names (Apps, Core,
	// Admissionregistration), from +groupGoName or the first label of Name.
	GoName string
	// PackageName is the directory holding the group's versions (apps,
	// apiserverinternal) and so the directory of generated code.
	PackageName string
	// Versions are sorted by version string.
	Versions []*GroupVersion
}

// GroupVersion is one version of a group, backed by one Go package.
type GroupVersion struct {
	Group   *Group
	Version string
	Package *Package
	// Resources are the +genclient types, sorted by type name.
	Resources []*Resource
}

// Package is one parsed Go package.
type Package struct {
	Path string
	Dir  string
	Name string
	// Tags are the tags of the package comments (doc.go), such as groupName.
	Tags Tags
	// Types are the package's exported named types by name.
	Types map[string]*Type
	// Order lists the exported type names in source order.
	Order []string
	// StringConsts are the package's string constants with literal values.
	StringConsts map[string]string
	// HasAddToScheme reports whether the package declares AddToScheme.
	HasAddToScheme bool
}

// SortedTypes returns the package's types sorted by name.
func (p *Package) SortedTypes() []*Type {
	names := append([]string(nil), p.Order...)
	sort.Strings(names)
	out := make([]*Type, 0, len(names))
	for _, n := range names {
		out = append(out, p.Types[n])
	}
	return out
}

// OpenAPIName is the dotted name the package's types carry in the OpenAPI
// schema (io.k8s.api.apps.v1): +k8s:openapi-model-package when present,
// otherwise derived from the import path.
func (p *Package) OpenAPIName() string {
	if v := p.Tags.Value("k8s:openapi-model-package"); v != "" {
		return v
	}
	return openAPIPackageName(p.Path)
}

// TypeKind says what a named type is underneath.
type TypeKind int

const (
	// KindStruct is a struct type; Fields describes it.
	KindStruct TypeKind = iota
	// KindOther is any other named type; Underlying describes it.
	KindOther
)

// Type is one exported named type.
type Type struct {
	Package *Package
	Name    string
	Kind    TypeKind
	// Fields are the exported fields of a struct type, in order.
	Fields []*Field
	// Underlying is the type a non-struct named type is defined as.
	Underlying *TypeRef
	// Tags are the tags found in the type's comment and the comment block
	// right above it.
	Tags Tags
	// CustomJSON reports whether the type marshals itself (MarshalJSON or
	// OpenAPISchemaType methods): such types are leaves in apply schemas.
	CustomJSON bool
	// Alias reports a type alias (type X = Y); Underlying is then Y and
	// Universe.Lookup resolves references to X as Y.
	Alias bool
	// Methods are the names of the methods declared on the type.
	Methods map[string]bool
}

// Ref returns a reference to t.
func (t *Type) Ref() *TypeRef {
	return &TypeRef{Kind: RefNamed, PkgPath: t.Package.Path, Name: t.Name}
}

// Field returns the field called name, or nil.
func (t *Type) Field(name string) *Field {
	for _, f := range t.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Field is one exported struct field.
type Field struct {
	Name     string
	Embedded bool
	Type     *TypeRef
	// Tag is the raw struct tag.
	Tag string
	// JSONName is the name in the json tag, "" for an inline or untagged
	// embedded field; "-" for fields JSON skips.
	JSONName  string
	OmitEmpty bool
	Inline    bool
	// Tags holds the markers of the field comment (+listType, +listMapKey,
	// +patchStrategy, +patchMergeKey, +mapType, +structType, +optional ...).
	Tags Tags
}

// RefKind is the shape of a type expression.
type RefKind int

const (
	// RefBuiltin is a predeclared type: string, int32, bool, byte...
	RefBuiltin RefKind = iota
	// RefNamed is a named type declared in a package.
	RefNamed
	// RefPointer is *Elem.
	RefPointer
	// RefSlice is []Elem.
	RefSlice
	// RefMap is map[Key]Elem.
	RefMap
	// RefInterface is an interface type such as interface{}.
	RefInterface
)

// TypeRef is a type expression as written in a field or type declaration.
type TypeRef struct {
	Kind    RefKind
	Name    string // builtin or named type name
	PkgPath string // for RefNamed
	Elem    *TypeRef
	Key     *TypeRef
}

// Resource is a +genclient type: something the typed client can address.
type Resource struct {
	Type *Type
	// Kind is the Go type name, also the API kind.
	Kind string
	// Plural is the Go plural used in client names (Deployments, Endpoints).
	Plural string
	// Resource is the REST resource name (deployments).
	Resource   string
	Namespaced bool
	// HasStatus is true when the type has a Status field and is not tagged
	// +genclient:noStatus.
	HasStatus bool
	// Verbs are the standard verbs the client offers.
	Verbs VerbSet
	// Methods are the +genclient:method extended methods, in tag order.
	Methods []*ExtendedMethod
	// List is the <Kind>List type, when the package declares it.
	List *Type
}

// ExtendedMethod is one +genclient:method declaration.
type ExtendedMethod struct {
	Name        string
	Verb        string
	Subresource string
	// Input and Result are the input and result types; they default to the
	// resource type.
	Input  *TypeRef
	Result *TypeRef
}

// Standard client verbs.
const (
	VerbCreate           = "create"
	VerbUpdate           = "update"
	VerbUpdateStatus     = "updateStatus"
	VerbDelete           = "delete"
	VerbDeleteCollection = "deleteCollection"
	VerbGet              = "get"
	VerbList             = "list"
	VerbWatch            = "watch"
	VerbPatch            = "patch"
	VerbApply            = "apply"
	VerbApplyStatus      = "applyStatus"
)

// AllVerbs lists the standard verbs in the order clients declare them.
var AllVerbs = []string{
	VerbCreate, VerbUpdate, VerbUpdateStatus, VerbDelete, VerbDeleteCollection,
	VerbGet, VerbList, VerbWatch, VerbPatch, VerbApply, VerbApplyStatus,
}

// VerbSet is a set of standard verbs.
type VerbSet map[string]bool

// Has reports whether v is in the set.
func (s VerbSet) Has(v string) bool { return s[v] }
