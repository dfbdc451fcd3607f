package v1

import (
	"k8s.io/apimachinery/pkg/runtime"
)

// RegisterDefaults installs the Config defaulter in scheme.
func RegisterDefaults(scheme *runtime.Scheme) error {
	scheme.AddTypeDefaultingFunc(&Config{}, func(obj interface{}) { SetObjectDefaults_Config(obj.(*Config)) })
	return nil
}

// SetObjectDefaults_Config applies the defaults of every nested type of a
// Config: today only the exec plugin settings of each user.
func SetObjectDefaults_Config(in *Config) {
	for i := range in.AuthInfos {
		if exec := in.AuthInfos[i].AuthInfo.Exec; exec != nil {
			SetDefaults_ExecConfig(exec)
		}
	}
}

// SetDefaults_ExecConfig defaults InteractiveMode to IfAvailable for the
// pre-v1 credential APIs (v1alpha1 and v1beta1), which did not have the
// field. Later versions must state the mode explicitly.
func SetDefaults_ExecConfig(exec *ExecConfig) {
	if exec.InteractiveMode != "" {
		return
	}
	switch exec.APIVersion {
	case "client.authentication.k8s.io/v1alpha1", "client.authentication.k8s.io/v1beta1":
		exec.InteractiveMode = IfAvailableExecInteractiveMode
	}
}
