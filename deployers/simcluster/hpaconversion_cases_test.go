package simcluster

// hpaVersionCases are HorizontalPodAutoscalers written in one version and
// read in both (hpaconversion_realcluster_test.go).
var hpaVersionCases = []struct{ name, manifest string }{
	{"v1 with target", `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: v1-target}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 5
  targetCPUUtilizationPercentage: 50
`},
	{"v1 without target", `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: v1-default, annotations: {team: web}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 3
`},
	{"v1 with round-trip annotations", `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: v1-annotations
  annotations:
    autoscaling.alpha.kubernetes.io/metrics: '[{"type":"Pods","pods":{"metricName":"rps","targetAverageValue":"10"}}]'
    autoscaling.alpha.kubernetes.io/behavior: '{"ScaleDown":{"StabilizationWindowSeconds":60,"SelectPolicy":"Min","Policies":[{"Type":"Percent","Value":50,"PeriodSeconds":30}],"Tolerance":null}}'
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 4
  targetCPUUtilizationPercentage: 70
`},
	{"v2 cpu utilization only", `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: v2-cpu}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
`},
	{"v2 memory only", `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: v2-memory}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: memory, target: {type: AverageValue, averageValue: 500Mi}}
`},
	{"v2 every metric and behavior", `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: v2-all
  annotations: {team: web, autoscaling.alpha.kubernetes.io/conditions: '[]'}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Pods
    pods: {metric: {name: rps}, target: {type: AverageValue, averageValue: "10"}}
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
  - type: Resource
    resource: {name: memory, target: {type: Utilization, averageUtilization: 75}}
  - type: External
    external: {metric: {name: queue, selector: {matchLabels: {queue: "jobs"}}}, target: {type: AverageValue, averageValue: "30"}}
  - type: Object
    object: {describedObject: {kind: Service, name: web, apiVersion: v1}, metric: {name: hits}, target: {type: Value, value: "7"}}
  - type: ContainerResource
    containerResource: {name: memory, container: app, target: {type: AverageValue, averageValue: 100Mi}}
  behavior:
    scaleUp: {tolerance: "0.05", stabilizationWindowSeconds: 10}
    scaleDown: {policies: [{type: Pods, value: 1, periodSeconds: 60}]}
`},
}
