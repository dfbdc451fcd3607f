package watchlist

import (
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metainternalversionvalidation "k8s.io/apimachinery/pkg/apis/meta/internalversion/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/utils/ptr"

	clientfeatures "github.com/kubeclient/client-go/features"
)

var scheme = runtime.NewScheme()

func init() {
	utilruntime.Must(metainternalversion.AddToScheme(scheme))
}

// validListOptions reports whether options pass the server-side validation
// of list options (watch requests included).
func validListOptions(options metav1.ListOptions) (bool, error) {
	internal := &metainternalversion.ListOptions{}
	if err := scheme.Convert(&options, internal, nil); err != nil {
		return false, err
	}
	return len(metainternalversionvalidation.ValidateListOptions(internal, true)) == 0, nil
}

// PrepareWatchListOptionsFromListOptions turns list options into options
// for a watch-list request that streams semantically the same data. The
// boolean is false when that is not possible: the WatchListClient feature
// is off, the options are invalid, a limit is set with a resource version
// other than "0", or an exact resource version match is required.
func PrepareWatchListOptionsFromListOptions(listOptions metav1.ListOptions) (metav1.ListOptions, bool, error) {
	if !clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient) {
		return metav1.ListOptions{}, false, nil
	}
	if ok, err := validListOptions(listOptions); err != nil || !ok {
		return metav1.ListOptions{}, false, err
	}
	// The watch cache ignores the limit only for resourceVersion "0".
	if listOptions.Limit > 0 && listOptions.ResourceVersion != "0" {
		return metav1.ListOptions{}, false, nil
	}
	if listOptions.ResourceVersionMatch == metav1.ResourceVersionMatchExact {
		return metav1.ListOptions{}, false, nil
	}
	out := listOptions
	out.Limit = 0
	out.ResourceVersionMatch = metav1.ResourceVersionMatchNotOlderThan
	out.Watch = true
	out.AllowWatchBookmarks = true
	out.SendInitialEvents = ptr.To(true)
	if ok, err := validListOptions(out); err != nil || !ok {
		return metav1.ListOptions{}, false, err
	}
	return out, true, nil
}

// watchListSupportReporter is implemented by clients that can say they do
// not support watch-list semantics.
type watchListSupportReporter interface {
	IsWatchListSemanticsUnSupported() bool
}

// DoesClientNotSupportWatchListSemantics reports whether client explicitly
// says it cannot serve watch-list requests, by implementing
// IsWatchListSemanticsUnSupported and returning true. See
// https://kubernetes.io/docs/reference/using-api/api-concepts/#streaming-lists
func DoesClientNotSupportWatchListSemantics(client any) bool {
	r, ok := client.(watchListSupportReporter)
	return ok && r.IsWatchListSemanticsUnSupported()
}
