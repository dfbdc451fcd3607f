package intern

import (
	"fmt"
	"reflect"

	corev1 "k8s.io/api/core/v1"
)

// Hand-written walkers share the types that dominate caches (pods, and
// the pod templates of workloads) without reflection. Each shares the
// fields it names and leaves the others to a rest plan: the reflective
// plan of its type without those fields, usually empty. A field added to
// a type is thus shared, if only by reflection, and a test checks that
// walkers and reflective plans share the same values.

// walkers maps the struct types with a hand-written walker to a function
// walking an addressable value of the type; plans use them for fields of
// these types.
var walkers map[reflect.Type]func(s *Sharer, v reflect.Value)

// rest holds the rest plans of the walked types.
var rest struct {
	pod, spec, volume, container, port, env, mount, toleration,
	status, condition, containerStatus, state, waiting, running, terminated,
	mountStatus, resources, claim, volumeSource, probe, handler, httpGet, tcp, exec, grpc, security *plan
}

// Plans of fields the walkers hand to reflection: pointers and slices
// that are nil in most objects, and volume sources, of which there are
// many kinds.
var (
	envVarSourcePlan, lifecyclePlan, ephemeralPlan,
	podSecurityPlan, localRefPlan, affinityPlan, hostAliasPlan, dnsConfigPlan, gatePlan,
	spreadPlan, osPlan, schedulingGatePlan, podClaimPlan, responderPlan, envFromPlan, resizePlan,
	restartRulePlan, devicePlan, selinuxPlan, windowsPlan, seccompPlan, appArmorPlan, claimStatusPlan,
	extendedClaimPlan, allocatableClaimPlan, volumeHealthPlan, resourceStatusPlan, userPlan,
	volumeStatusPlan *plan
	volumeSourcePlans []volumeSourceWalk
)

// volumeSourceWalk walks one kind of volume source.
type volumeSourceWalk func(s *Sharer, v *corev1.VolumeSource)

// sourceWalk returns the walk of the volume source get returns.
func sourceWalk[T any](get func(v *corev1.VolumeSource) *T) volumeSourceWalk {
	p := planOf[T]()
	if len(p.ops) == 0 {
		return nil
	}
	return func(s *Sharer, v *corev1.VolumeSource) { walkPtr(s, p, get(v)) }
}

// planOf returns the plan of T.
func planOf[T any]() *plan { return planFor(reflect.TypeFor[T]()) }

func init() {
	walkers = map[reflect.Type]func(s *Sharer, v reflect.Value){
		reflect.TypeFor[corev1.PodSpec](): func(s *Sharer, v reflect.Value) {
			s.sharePodSpec(v.Addr().Interface().(*corev1.PodSpec))
		},
		reflect.TypeFor[corev1.PodStatus](): func(s *Sharer, v reflect.Value) {
			s.sharePodStatus(v.Addr().Interface().(*corev1.PodStatus))
		},
	}
	rest.pod = restPlan[corev1.Pod]("TypeMeta", "ObjectMeta", "Spec", "Status")
	rest.spec = restPlan[corev1.PodSpec]("Volumes", "InitContainers", "Containers", "RestartPolicy", "DNSPolicy",
		"NodeSelector", "ServiceAccountName", "DeprecatedServiceAccount", "NodeName", "Hostname", "Subdomain",
		"SchedulerName", "Tolerations", "PriorityClassName", "EphemeralContainers", "SecurityContext",
		"ImagePullSecrets", "Affinity", "HostAliases", "DNSConfig", "ReadinessGates", "Overhead",
		"TopologySpreadConstraints", "OS", "SchedulingGates", "ResourceClaims", "Resources", "EvictionResponders")
	rest.volume = restPlan[corev1.Volume]("Name", "VolumeSource")
	rest.volumeSource = restPlan[corev1.VolumeSource]("HostPath", "EmptyDir", "GCEPersistentDisk",
		"AWSElasticBlockStore", "GitRepo", "Secret", "NFS", "ISCSI", "Glusterfs", "PersistentVolumeClaim", "RBD",
		"FlexVolume", "Cinder", "CephFS", "Flocker", "DownwardAPI", "FC", "AzureFile", "ConfigMap", "VsphereVolume",
		"Quobyte", "AzureDisk", "PhotonPersistentDisk", "Projected", "PortworxVolume", "ScaleIO", "StorageOS", "CSI",
		"Ephemeral", "Image")
	for _, w := range []volumeSourceWalk{
		sourceWalk(func(v *corev1.VolumeSource) *corev1.HostPathVolumeSource { return v.HostPath }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.EmptyDirVolumeSource { return v.EmptyDir }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.GCEPersistentDiskVolumeSource { return v.GCEPersistentDisk }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.AWSElasticBlockStoreVolumeSource { return v.AWSElasticBlockStore }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.GitRepoVolumeSource { return v.GitRepo }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.SecretVolumeSource { return v.Secret }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.NFSVolumeSource { return v.NFS }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.ISCSIVolumeSource { return v.ISCSI }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.GlusterfsVolumeSource { return v.Glusterfs }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.PersistentVolumeClaimVolumeSource { return v.PersistentVolumeClaim }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.RBDVolumeSource { return v.RBD }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.FlexVolumeSource { return v.FlexVolume }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.CinderVolumeSource { return v.Cinder }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.CephFSVolumeSource { return v.CephFS }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.FlockerVolumeSource { return v.Flocker }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.DownwardAPIVolumeSource { return v.DownwardAPI }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.FCVolumeSource { return v.FC }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.AzureFileVolumeSource { return v.AzureFile }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.ConfigMapVolumeSource { return v.ConfigMap }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.VsphereVirtualDiskVolumeSource { return v.VsphereVolume }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.QuobyteVolumeSource { return v.Quobyte }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.AzureDiskVolumeSource { return v.AzureDisk }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.PhotonPersistentDiskVolumeSource { return v.PhotonPersistentDisk }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.ProjectedVolumeSource { return v.Projected }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.PortworxVolumeSource { return v.PortworxVolume }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.ScaleIOVolumeSource { return v.ScaleIO }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.StorageOSVolumeSource { return v.StorageOS }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.CSIVolumeSource { return v.CSI }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.EphemeralVolumeSource { return v.Ephemeral }),
		sourceWalk(func(v *corev1.VolumeSource) *corev1.ImageVolumeSource { return v.Image }),
	} {
		if w != nil {
			volumeSourcePlans = append(volumeSourcePlans, w)
		}
	}
	rest.probe = restPlan[corev1.Probe]("ProbeHandler")
	rest.handler = restPlan[corev1.ProbeHandler]("Exec", "HTTPGet", "TCPSocket", "GRPC")
	rest.httpGet = restPlan[corev1.HTTPGetAction]("Path", "Port", "Host", "Scheme", "HTTPHeaders")
	rest.tcp = restPlan[corev1.TCPSocketAction]("Port", "Host")
	rest.exec = restPlan[corev1.ExecAction]("Command")
	rest.grpc = restPlan[corev1.GRPCAction]()
	rest.security = restPlan[corev1.SecurityContext]("SELinuxOptions", "WindowsOptions", "SeccompProfile",
		"AppArmorProfile")
	rest.container = restPlan[corev1.Container]("Name", "Image", "Command", "Args", "WorkingDir", "Ports", "Env",
		"Resources", "VolumeMounts", "LivenessProbe", "ReadinessProbe", "StartupProbe", "Lifecycle",
		"TerminationMessagePath", "TerminationMessagePolicy", "ImagePullPolicy", "EnvFrom", "ResizePolicy",
		"RestartPolicyRules", "VolumeDevices", "SecurityContext")
	rest.port = restPlan[corev1.ContainerPort]("Name", "Protocol", "HostIP")
	rest.env = restPlan[corev1.EnvVar]("Name", "Value", "ValueFrom")
	rest.mount = restPlan[corev1.VolumeMount]("Name", "MountPath", "SubPath", "SubPathExpr", "BindMountOptions")
	rest.toleration = restPlan[corev1.Toleration]("Key", "Operator", "Value", "Effect")
	rest.status = restPlan[corev1.PodStatus]("Phase", "Conditions", "Message", "Reason", "NominatedNodeName",
		"HostIP", "InitContainerStatuses", "ContainerStatuses", "EphemeralContainerStatuses", "QOSClass", "Resize",
		"AllocatedResources", "Resources", "ResourceClaimStatuses", "ExtendedResourceClaimStatus",
		"NodeAllocatableResourceClaimStatuses", "VolumeHealth")
	rest.condition = restPlan[corev1.PodCondition]("Type", "Status", "Reason", "Message")
	rest.containerStatus = restPlan[corev1.ContainerStatus]("Name", "State", "LastTerminationState", "Image",
		"ImageID", "AllocatedResources", "Resources", "VolumeMounts", "User", "AllocatedResourcesStatus")
	rest.state = restPlan[corev1.ContainerState]("Waiting", "Running", "Terminated")
	rest.waiting = restPlan[corev1.ContainerStateWaiting]("Reason", "Message")
	rest.running = restPlan[corev1.ContainerStateRunning]()
	rest.terminated = restPlan[corev1.ContainerStateTerminated]("Reason", "Message")
	rest.mountStatus = restPlan[corev1.VolumeMountStatus]("Name", "MountPath", "VolumeStatus")
	rest.resources = restPlan[corev1.ResourceRequirements]("Limits", "Requests", "Claims")
	rest.claim = restPlan[corev1.ResourceClaim]("Name", "Request")
	envVarSourcePlan = planOf[corev1.EnvVarSource]()
	lifecyclePlan = planOf[corev1.Lifecycle]()
	ephemeralPlan = planOf[corev1.EphemeralContainer]()
	podSecurityPlan = planOf[corev1.PodSecurityContext]()
	localRefPlan = planOf[corev1.LocalObjectReference]()
	affinityPlan = planOf[corev1.Affinity]()
	hostAliasPlan = planOf[corev1.HostAlias]()
	dnsConfigPlan = planOf[corev1.PodDNSConfig]()
	gatePlan = planOf[corev1.PodReadinessGate]()
	spreadPlan = planOf[corev1.TopologySpreadConstraint]()
	osPlan = planOf[corev1.PodOS]()
	schedulingGatePlan = planOf[corev1.PodSchedulingGate]()
	podClaimPlan = planOf[corev1.PodResourceClaim]()
	responderPlan = planOf[corev1.EvictionResponder]()
	envFromPlan = planOf[corev1.EnvFromSource]()
	resizePlan = planOf[corev1.ContainerResizePolicy]()
	restartRulePlan = planOf[corev1.ContainerRestartRule]()
	devicePlan = planOf[corev1.VolumeDevice]()
	selinuxPlan = planOf[corev1.SELinuxOptions]()
	windowsPlan = planOf[corev1.WindowsSecurityContextOptions]()
	seccompPlan = planOf[corev1.SeccompProfile]()
	appArmorPlan = planOf[corev1.AppArmorProfile]()
	claimStatusPlan = planOf[corev1.PodResourceClaimStatus]()
	extendedClaimPlan = planOf[corev1.PodExtendedResourceClaimStatus]()
	allocatableClaimPlan = planOf[corev1.NodeAllocatableResourceClaimStatus]()
	volumeHealthPlan = planOf[corev1.PodVolumeHealth]()
	resourceStatusPlan = planOf[corev1.ResourceStatus]()
	userPlan = planOf[corev1.ContainerUser]()
	volumeStatusPlan = planOf[corev1.VolumeStatus]()
}

// walkEach walks every element of list with p, a plan of T.
func walkEach[T any](s *Sharer, p *plan, list []T) {
	if len(p.ops) == 0 {
		return
	}
	for i := range list {
		s.walk(reflect.ValueOf(&list[i]).Elem(), p)
	}
}

// restPlan returns the plan of T without the fields named in handled.
func restPlan[T any](handled ...string) *plan {
	t := reflect.TypeFor[T]()
	skip := map[string]bool{}
	for _, name := range handled {
		if _, ok := t.FieldByName(name); !ok {
			panic(fmt.Sprintf("intern: %v has no field %s", t, name))
		}
		skip[name] = true
	}
	p := &plan{complete: true}
	for _, o := range planFor(t).ops {
		if !skip[t.Field(o.field).Name] {
			p.ops = append(p.ops, o)
		}
	}
	return p
}

// walkPtr walks *v, unless v is nil, with p, a plan of v's type.
func walkPtr[T any](s *Sharer, p *plan, v *T) {
	if v != nil && len(p.ops) > 0 {
		s.walk(reflect.ValueOf(v).Elem(), p)
	}
}

func (s *Sharer) sharePod(p *corev1.Pod) {
	p.Kind = s.str(p.Kind)
	p.APIVersion = s.str(p.APIVersion)
	s.shareMeta(&p.ObjectMeta)
	s.sharePodSpec(&p.Spec)
	s.sharePodStatus(&p.Status)
	walkPtr(s, rest.pod, p)
}

func (s *Sharer) sharePodSpec(p *corev1.PodSpec) {
	for i := range p.Volumes {
		v := &p.Volumes[i]
		v.Name = s.str(v.Name)
		for _, walk := range volumeSourcePlans {
			walk(s, &v.VolumeSource)
		}
		walkPtr(s, rest.volumeSource, &v.VolumeSource)
		walkPtr(s, rest.volume, v)
	}
	for i := range p.InitContainers {
		s.shareContainer(&p.InitContainers[i])
	}
	for i := range p.Containers {
		s.shareContainer(&p.Containers[i])
	}
	p.RestartPolicy = corev1.RestartPolicy(s.str(string(p.RestartPolicy)))
	p.DNSPolicy = corev1.DNSPolicy(s.str(string(p.DNSPolicy)))
	s.stringMap(p.NodeSelector)
	p.ServiceAccountName = s.str(p.ServiceAccountName)
	p.DeprecatedServiceAccount = s.str(p.DeprecatedServiceAccount)
	p.NodeName = s.str(p.NodeName)
	p.Hostname = s.str(p.Hostname)
	p.Subdomain = s.str(p.Subdomain)
	p.SchedulerName = s.str(p.SchedulerName)
	for i := range p.Tolerations {
		t := &p.Tolerations[i]
		t.Key = s.str(t.Key)
		t.Operator = corev1.TolerationOperator(s.str(string(t.Operator)))
		t.Value = s.str(t.Value)
		t.Effect = corev1.TaintEffect(s.str(string(t.Effect)))
		walkPtr(s, rest.toleration, t)
	}
	p.PriorityClassName = s.str(p.PriorityClassName)
	walkEach(s, ephemeralPlan, p.EphemeralContainers)
	walkPtr(s, podSecurityPlan, p.SecurityContext)
	walkEach(s, localRefPlan, p.ImagePullSecrets)
	walkPtr(s, affinityPlan, p.Affinity)
	walkEach(s, hostAliasPlan, p.HostAliases)
	walkPtr(s, dnsConfigPlan, p.DNSConfig)
	walkEach(s, gatePlan, p.ReadinessGates)
	p.Overhead = s.resourceList(p.Overhead)
	walkEach(s, spreadPlan, p.TopologySpreadConstraints)
	walkPtr(s, osPlan, p.OS)
	walkEach(s, schedulingGatePlan, p.SchedulingGates)
	walkEach(s, podClaimPlan, p.ResourceClaims)
	if p.Resources != nil {
		s.shareResources(p.Resources)
	}
	walkEach(s, responderPlan, p.EvictionResponders)
	walkPtr(s, rest.spec, p)
}

func (s *Sharer) shareContainer(c *corev1.Container) {
	c.Name = s.str(c.Name)
	c.Image = s.str(c.Image)
	s.strings(c.Command)
	s.strings(c.Args)
	c.WorkingDir = s.str(c.WorkingDir)
	for i := range c.Ports {
		p := &c.Ports[i]
		p.Name = s.str(p.Name)
		p.Protocol = corev1.Protocol(s.str(string(p.Protocol)))
		p.HostIP = s.str(p.HostIP)
		walkPtr(s, rest.port, p)
	}
	for i := range c.Env {
		e := &c.Env[i]
		e.Name = s.str(e.Name)
		e.Value = s.str(e.Value)
		walkPtr(s, envVarSourcePlan, e.ValueFrom)
		walkPtr(s, rest.env, e)
	}
	s.shareResources(&c.Resources)
	for i := range c.VolumeMounts {
		m := &c.VolumeMounts[i]
		m.Name = s.str(m.Name)
		m.MountPath = s.str(m.MountPath)
		m.SubPath = s.str(m.SubPath)
		m.SubPathExpr = s.str(m.SubPathExpr)
		s.strings(m.BindMountOptions)
		walkPtr(s, rest.mount, m)
	}
	s.shareProbe(c.LivenessProbe)
	s.shareProbe(c.ReadinessProbe)
	s.shareProbe(c.StartupProbe)
	walkPtr(s, lifecyclePlan, c.Lifecycle)
	c.TerminationMessagePath = s.str(c.TerminationMessagePath)
	c.TerminationMessagePolicy = corev1.TerminationMessagePolicy(s.str(string(c.TerminationMessagePolicy)))
	c.ImagePullPolicy = corev1.PullPolicy(s.str(string(c.ImagePullPolicy)))
	walkEach(s, envFromPlan, c.EnvFrom)
	walkEach(s, resizePlan, c.ResizePolicy)
	walkEach(s, restartRulePlan, c.RestartPolicyRules)
	walkEach(s, devicePlan, c.VolumeDevices)
	if sc := c.SecurityContext; sc != nil {
		walkPtr(s, selinuxPlan, sc.SELinuxOptions)
		walkPtr(s, windowsPlan, sc.WindowsOptions)
		walkPtr(s, seccompPlan, sc.SeccompProfile)
		walkPtr(s, appArmorPlan, sc.AppArmorProfile)
		walkPtr(s, rest.security, sc)
	}
	walkPtr(s, rest.container, c)
}

func (s *Sharer) shareProbe(p *corev1.Probe) {
	if p == nil {
		return
	}
	if e := p.Exec; e != nil {
		s.strings(e.Command)
		walkPtr(s, rest.exec, e)
	}
	if h := p.HTTPGet; h != nil {
		h.Path = s.str(h.Path)
		h.Port.StrVal = s.str(h.Port.StrVal)
		h.Host = s.str(h.Host)
		h.Scheme = corev1.URIScheme(s.str(string(h.Scheme)))
		for i := range h.HTTPHeaders {
			hh := &h.HTTPHeaders[i]
			hh.Name = s.str(hh.Name)
			hh.Value = s.str(hh.Value)
		}
		walkPtr(s, rest.httpGet, h)
	}
	if t := p.TCPSocket; t != nil {
		t.Port.StrVal = s.str(t.Port.StrVal)
		t.Host = s.str(t.Host)
		walkPtr(s, rest.tcp, t)
	}
	walkPtr(s, rest.grpc, p.GRPC)
	walkPtr(s, rest.handler, &p.ProbeHandler)
	walkPtr(s, rest.probe, p)
}

func (s *Sharer) shareResources(r *corev1.ResourceRequirements) {
	r.Limits = s.resourceList(r.Limits)
	r.Requests = s.resourceList(r.Requests)
	for i := range r.Claims {
		c := &r.Claims[i]
		c.Name = s.str(c.Name)
		c.Request = s.str(c.Request)
		walkPtr(s, rest.claim, c)
	}
	walkPtr(s, rest.resources, r)
}

func (s *Sharer) sharePodStatus(p *corev1.PodStatus) {
	p.Phase = corev1.PodPhase(s.str(string(p.Phase)))
	for i := range p.Conditions {
		c := &p.Conditions[i]
		c.Type = corev1.PodConditionType(s.str(string(c.Type)))
		c.Status = corev1.ConditionStatus(s.str(string(c.Status)))
		c.Reason = s.str(c.Reason)
		c.Message = s.str(c.Message)
		walkPtr(s, rest.condition, c)
	}
	p.Message = s.str(p.Message)
	p.Reason = s.str(p.Reason)
	p.NominatedNodeName = s.str(p.NominatedNodeName)
	p.HostIP = s.str(p.HostIP)
	for _, list := range [...][]corev1.ContainerStatus{p.InitContainerStatuses, p.ContainerStatuses, p.EphemeralContainerStatuses} {
		for i := range list {
			s.shareContainerStatus(&list[i])
		}
	}
	p.QOSClass = corev1.PodQOSClass(s.str(string(p.QOSClass)))
	p.Resize = corev1.PodResizeStatus(s.str(string(p.Resize)))
	p.AllocatedResources = s.resourceList(p.AllocatedResources)
	if p.Resources != nil {
		s.shareResources(p.Resources)
	}
	walkEach(s, claimStatusPlan, p.ResourceClaimStatuses)
	walkPtr(s, extendedClaimPlan, p.ExtendedResourceClaimStatus)
	walkEach(s, allocatableClaimPlan, p.NodeAllocatableResourceClaimStatuses)
	walkEach(s, volumeHealthPlan, p.VolumeHealth)
	walkPtr(s, rest.status, p)
}

func (s *Sharer) shareContainerStatus(c *corev1.ContainerStatus) {
	c.Name = s.str(c.Name)
	s.shareContainerState(&c.State)
	s.shareContainerState(&c.LastTerminationState)
	c.Image = s.str(c.Image)
	c.ImageID = s.str(c.ImageID)
	c.AllocatedResources = s.resourceList(c.AllocatedResources)
	if c.Resources != nil {
		s.shareResources(c.Resources)
	}
	for i := range c.VolumeMounts {
		m := &c.VolumeMounts[i]
		m.Name = s.str(m.Name)
		m.MountPath = s.str(m.MountPath)
		walkPtr(s, volumeStatusPlan, m.VolumeStatus)
		walkPtr(s, rest.mountStatus, m)
	}
	walkPtr(s, userPlan, c.User)
	walkEach(s, resourceStatusPlan, c.AllocatedResourcesStatus)
	walkPtr(s, rest.containerStatus, c)
}

func (s *Sharer) shareContainerState(c *corev1.ContainerState) {
	if w := c.Waiting; w != nil {
		w.Reason = s.str(w.Reason)
		w.Message = s.str(w.Message)
		walkPtr(s, rest.waiting, w)
	}
	walkPtr(s, rest.running, c.Running)
	if t := c.Terminated; t != nil {
		t.Reason = s.str(t.Reason)
		t.Message = s.str(t.Message)
		walkPtr(s, rest.terminated, t)
	}
	walkPtr(s, rest.state, c)
}
