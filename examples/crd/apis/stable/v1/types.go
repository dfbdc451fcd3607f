package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CronTab runs an image on a cron schedule. It is namespaced and has a status
// subresource.
type CronTab struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   CronTabSpec   `json:"spec,omitempty"`
	Status CronTabStatus `json:"status,omitempty"`
}

// CronTabSpec is the desired state of a CronTab.
type CronTabSpec struct {
	// CronSpec is the schedule in cron format.
	CronSpec string `json:"cronSpec"`
	// Image is the container image to run.
	Image string `json:"image"`
	// Replicas is the number of concurrent runs; nil means one.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
	// ClassName names the CronTabClass the runs use.
	// +optional
	ClassName *string `json:"className,omitempty"`
	// Args are passed to the image.
	// +optional
	// +listType=atomic
	Args []string `json:"args,omitempty"`
	// Env holds environment variables, keyed by name.
	// +optional
	// +listType=map
	// +listMapKey=name
	Env []EnvVar `json:"env,omitempty"`
	// Labels are copied to every run.
	// +optional
	// +mapType=granular
	Labels map[string]string `json:"labels,omitempty"`
	// Selector restricts the nodes runs go to.
	// +optional
	Selector *metav1.LabelSelector `json:"selector,omitempty"`
	// Timeout bounds a single run.
	// +optional
	Timeout *metav1.Duration `json:"timeout,omitempty"`
	// Retry configures retries of failed runs.
	// +optional
	Retry *RetryPolicy `json:"retry,omitempty"`
	// Windows maps a window name to the hours it covers.
	// +optional
	Windows map[string][]int32 `json:"windows,omitempty"`
}

// EnvVar is one environment variable of a CronTab run.
type EnvVar struct {
	Name string `json:"name"`
	// +optional
	Value string `json:"value,omitempty"`
}

// RetryPolicy configures retries of failed runs.
type RetryPolicy struct {
	// Limit is the number of retries.
	Limit int32 `json:"limit"`
	// Backoff is the wait between retries.
	// +optional
	Backoff *metav1.Duration `json:"backoff,omitempty"`
}

// CronTabPhase is the coarse state of a CronTab.
type CronTabPhase string

// Phases of a CronTab.
const (
	CronTabPending CronTabPhase = "Pending"
	CronTabActive  CronTabPhase = "Active"
)

// CronTabStatus is the observed state of a CronTab.
type CronTabStatus struct {
	// Phase is the coarse state.
	// +optional
	Phase CronTabPhase `json:"phase,omitempty"`
	// LastScheduleTime is when a run was last started.
	// +optional
	LastScheduleTime *metav1.Time `json:"lastScheduleTime,omitempty"`
	// Conditions describe the state in detail.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// Active counts the runs in progress.
	// +optional
	Active int32 `json:"active,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CronTabList is a list of CronTabs.
type CronTabList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []CronTab `json:"items"`
}

// +genclient
// +genclient:nonNamespaced
// +genclient:noStatus
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CronTabClass is a cluster-scoped set of defaults CronTabs refer to by name.
type CronTabClass struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Parameters are handed to every run of the class.
	// +optional
	Parameters map[string]string `json:"parameters,omitempty"`
	// Nodes lists the nodes runs of the class may use.
	// +optional
	// +listType=set
	Nodes Hosts `json:"nodes,omitempty"`
}

// Hosts is a set of host names.
type Hosts []string

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CronTabClassList is a list of CronTabClasses.
type CronTabClassList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []CronTabClass `json:"items"`
}
