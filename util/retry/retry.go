package retry

import (
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
)

// DefaultRetry suits conflicts between several clients changing the same
// object: five attempts about 10ms apart.
var DefaultRetry = wait.Backoff{
	Steps:    5,
	Duration: 10 * time.Millisecond,
	Factor:   1.0,
	Jitter:   0.1,
}

// DefaultBackoff suits a client whose unrelated change collides with
// controllers actively managing the object: four attempts with the wait
// growing fivefold from 10ms.
var DefaultBackoff = wait.Backoff{
	Steps:    4,
	Duration: 10 * time.Millisecond,
	Factor:   5.0,
	Jitter:   0.1,
}

// OnError calls fn until it succeeds, returns an error for which retriable
// is false, or backoff runs out of steps. It sleeps as backoff says between
// attempts. When the steps run out it returns the last error fn returned.
func OnError(backoff wait.Backoff, retriable func(error) bool, fn func() error) error {
	var lastRetriable error
	attempt := func() (done bool, err error) {
		err = fn()
		if err != nil && retriable(err) {
			lastRetriable = err
			return false, nil
		}
		return err == nil, err
	}
	err := wait.ExponentialBackoff(backoff, attempt)
	if lastRetriable == nil || !wait.Interrupted(err) {
		return err
	}
	// The steps ran out: report why the last attempt failed, not that
	// the wait ended.
	return lastRetriable
}

// RetryOnConflict runs fn, an update of an object, again after a backoff
// whenever it returns a Conflict error, as happens when another writer
// changed the object since fn read it. fn must therefore read the object
// afresh on every call and return the update's error unwrapped. Other errors
// end the retries at once; when backoff runs out, the last Conflict error is
// returned.
//
//	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
//		cm, err := client.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
//		if err != nil {
//			return err
//		}
//		cm.Data["key"] = "value"
//		_, err = client.CoreV1().ConfigMaps(ns).Update(ctx, cm, metav1.UpdateOptions{})
//		return err
//	})
func RetryOnConflict(backoff wait.Backoff, fn func() error) error {
	return OnError(backoff, apierrors.IsConflict, fn)
}
