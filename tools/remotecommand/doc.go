// Package remotecommand runs the client side of exec and attach: it carries a
// caller's stdin, stdout and stderr (and terminal resizes) to a process in a
// container over an upgraded connection, either SPDY (channel.k8s.io v1..v5
// via transport/spdy) or WebSocket (v5/v4.channel.k8s.io via
// transport/websocket), and reports the remote exit status as an
// util/exec.CodeExitError. NewFallbackExecutor tries WebSocket first and
// falls back to SPDY when the upgrade is refused.
//
// Layer 4 (object clients) of kubeclient; see the README's Layers section.
package remotecommand
