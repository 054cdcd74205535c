app.kubernetes.io/name: echo-server
app.kubernetes.io/version: {{ . }}
