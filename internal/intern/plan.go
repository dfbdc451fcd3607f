package intern

import (
	"reflect"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A plan lists, for one struct type, the fields a Sharer rewrites and how.
// Plans are computed once per type with reflection and cached, so that
// walking an object costs one reflect.Value step per field that matters.
type plan struct {
	ops []op
	// complete is set once ops is final; a recursive type meets its own
	// plan before that.
	complete bool
}

type opKind uint8

const (
	opString       opKind = iota // a string field
	opStrings                    // a []string field
	opStringMap                  // a map[string]string field
	opResourceList               // a corev1.ResourceList field
	opMeta                       // a metav1.ObjectMeta field
	opStruct                     // a struct field: walk its plan
	opPointer                    // a pointer to a struct: walk its plan
	opSlice                      // a slice of structs: walk each one's plan
	opWalker                     // a struct with a hand-written walker
)

type op struct {
	kind   opKind
	field  int
	sub    *plan
	walker func(s *Sharer, v reflect.Value)
}

// uniqueFields name string fields whose values are as good as unique to
// an object: interning them would only churn the string table. (Names are
// interned: those of containers, ports, volumes and owners repeat.)
var uniqueFields = map[string]bool{
	"UID":             true,
	"ResourceVersion": true,
	"ContainerID":     true,
	"PodIP":           true,
	"IP":              true,
	"SelfLink":        true,
}

var (
	objectMetaType   = reflect.TypeFor[metav1.ObjectMeta]()
	resourceListType = reflect.TypeFor[corev1.ResourceList]()
	stringMapType    = reflect.TypeFor[map[string]string]()
	stringsType      = reflect.TypeFor[[]string]()
	// opaqueTypes have nothing a Sharer can rewrite without unsafe, or
	// nothing worth it.
	opaqueTypes = map[reflect.Type]bool{
		reflect.TypeFor[metav1.Time]():       true,
		reflect.TypeFor[metav1.MicroTime]():  true,
		reflect.TypeFor[resource.Quantity](): true,
	}
)

// A planner builds plans and keeps them. Plans hand a struct type with a
// walker (see walkers) to it unless the planner is reflective only.
type planner struct {
	lock sync.Mutex
	// plans maps a struct type to its *plan; read without lock.
	plans      sync.Map
	reflective bool
}

var (
	// plans are those Share follows.
	plans = &planner{}
	// reflectivePlans walk every struct by reflection; tests compare the
	// hand-written walkers with them.
	reflectivePlans = &planner{reflective: true}
)

// planFor returns the plan of struct type t.
func planFor(t reflect.Type) *plan { return plans.planFor(t) }

func (pl *planner) planFor(t reflect.Type) *plan {
	if p, ok := pl.plans.Load(t); ok {
		return p.(*plan)
	}
	pl.lock.Lock()
	defer pl.lock.Unlock()
	building := map[reflect.Type]*plan{}
	p := pl.buildPlan(t, building)
	for bt, bp := range building {
		pl.plans.Store(bt, bp)
	}
	return p
}

// buildPlan computes t's plan. building holds the plans being built, so
// that recursive types (JSON schemas) refer to their own plan.
func (pl *planner) buildPlan(t reflect.Type, building map[reflect.Type]*plan) *plan {
	if p, ok := pl.plans.Load(t); ok {
		return p.(*plan)
	}
	if p, ok := building[t]; ok {
		return p
	}
	p := &plan{}
	building[t] = p
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if o, ok := pl.fieldOp(f, building); ok {
			o.field = i
			p.ops = append(p.ops, o)
		}
	}
	p.complete = true
	return p
}

// fieldOp returns what to do with field f, if anything.
func (pl *planner) fieldOp(f reflect.StructField, building map[reflect.Type]*plan) (op, bool) {
	t := f.Type
	if w, ok := walkers[t]; ok && !pl.reflective {
		return op{kind: opWalker, walker: w}, true
	}
	switch {
	case opaqueTypes[t]:
		return op{}, false
	case t == objectMetaType:
		return op{kind: opMeta}, true
	case t == resourceListType:
		return op{kind: opResourceList}, true
	case t == stringMapType:
		return op{kind: opStringMap}, true
	}
	switch t.Kind() {
	case reflect.String:
		return op{kind: opString}, !uniqueFields[f.Name]
	case reflect.Struct:
		return pl.structOp(opStruct, t, building)
	case reflect.Pointer:
		if t.Elem().Kind() == reflect.Struct && !opaqueTypes[t.Elem()] {
			return pl.structOp(opPointer, t.Elem(), building)
		}
	case reflect.Slice:
		switch e := t.Elem(); {
		case t == stringsType:
			return op{kind: opStrings}, !uniqueFields[f.Name]
		case e.Kind() == reflect.Struct && !opaqueTypes[e]:
			return pl.structOp(opSlice, e, building)
		}
	}
	return op{}, false
}

// structOp is kind over t's plan, unless that plan is known to be empty.
func (pl *planner) structOp(kind opKind, t reflect.Type, building map[reflect.Type]*plan) (op, bool) {
	sub := pl.buildPlan(t, building)
	return op{kind: kind, sub: sub}, len(sub.ops) > 0 || !sub.complete
}

// walk applies p to the struct v, which must be addressable.
func (s *Sharer) walk(v reflect.Value, p *plan) {
	for _, o := range p.ops {
		f := v.Field(o.field)
		switch o.kind {
		case opString:
			if str := f.String(); str != "" {
				f.SetString(s.str(str))
			}
		case opStrings:
			if !f.IsNil() {
				s.strings(*f.Addr().Interface().(*[]string))
			}
		case opStringMap:
			if !f.IsNil() {
				s.stringMap(f.Interface().(map[string]string))
			}
		case opResourceList:
			if s.ResourceLists != nil && f.Len() > 0 {
				f.Set(reflect.ValueOf(s.resourceList(f.Interface().(corev1.ResourceList))))
			}
		case opMeta:
			s.shareMeta(f.Addr().Interface().(*metav1.ObjectMeta))
		case opStruct:
			s.walk(f, o.sub)
		case opPointer:
			if !f.IsNil() {
				s.walk(f.Elem(), o.sub)
			}
		case opSlice:
			for i := 0; i < f.Len(); i++ {
				s.walk(f.Index(i), o.sub)
			}
		case opWalker:
			o.walker(s, f)
		}
	}
}
