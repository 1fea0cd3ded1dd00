{{- define "payment-rescue.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "payment-rescue.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "payment-rescue.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "payment-rescue.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "payment-rescue.selectorLabels" -}}
app.kubernetes.io/name: {{ include "payment-rescue.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "payment-rescue.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "payment-rescue.secretName" -}}
{{- .Values.secret.existingSecret | default (printf "%s-env" (include "payment-rescue.fullname" .)) -}}
{{- end -}}

{{- define "payment-rescue.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- .Values.serviceAccount.name | default (include "payment-rescue.fullname" .) -}}
{{- else -}}
{{- .Values.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{/* Environment shared by every container: the ConfigMap, the Secret, the Temporal TLS paths. */}}
{{- define "payment-rescue.envFrom" -}}
- configMapRef:
    name: {{ include "payment-rescue.fullname" . }}-env
{{- end -}}

{{- /*
The Secret's keys each process reads (least privilege: the API never holds the processor's key
nor the SMTP password, the migration Job nothing but DATABASE_URL). Optional: a key left empty is
not in the chart's Secret, and an existingSecret need not hold the keys nobody set.
*/ -}}
{{- define "payment-rescue.secretKeys" -}}
{{- $keys := dict
  "api" (list "DATABASE_URL" "DATABASE_LISTEN_URL" "TEMPORAL_ADDRESS" "TEMPORAL_API_KEY" "CARD_VAULT_KEYS" "ADMIN_API_TOKEN" "METRICS_TOKEN" "DASHBOARD_LINK_SECRET")
  "worker" (list "DATABASE_URL" "TEMPORAL_ADDRESS" "TEMPORAL_API_KEY" "CARD_VAULT_KEYS" "METRICS_TOKEN" "STRIPE_SECRET_KEY" "SMTP_URL")
  "migrate" (list "DATABASE_URL") -}}
{{- index $keys . | join " " -}}
{{- end -}}

{{- /* The env entries of one role's Secret keys and its secret.extraKeys: (list $ "api" | "worker" | "migrate"). */ -}}
{{- define "payment-rescue.secretEnv" -}}
{{- $root := index . 0 -}}
{{- $role := index . 1 -}}
{{- $extra := get ($root.Values.secret.extraKeys | default dict) $role | default list -}}
{{- range concat (splitList " " (include "payment-rescue.secretKeys" $role)) $extra | uniq }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ include "payment-rescue.secretName" $root }}
      key: {{ . }}
      optional: true
{{- end }}
{{- end -}}

{{- define "payment-rescue.tlsEnv" -}}
{{- if .Values.temporal.tls.enabled -}}
- name: TEMPORAL_TLS
  value: "true"
- name: TEMPORAL_TLS_CLIENT_CERT_PATH
  value: /etc/temporal-tls/tls.crt
- name: TEMPORAL_TLS_CLIENT_KEY_PATH
  value: /etc/temporal-tls/tls.key
{{- if .Values.temporal.tls.serverCa }}
- name: TEMPORAL_TLS_SERVER_CA_CERT_PATH
  value: /etc/temporal-tls/ca.crt
{{- end }}
{{- if .Values.temporal.tls.serverName }}
- name: TEMPORAL_TLS_SERVER_NAME
  value: {{ .Values.temporal.tls.serverName | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{- define "payment-rescue.volumeMounts" -}}
- name: tmp
  mountPath: /tmp
{{- if .Values.temporal.tls.enabled }}
- name: temporal-tls
  mountPath: /etc/temporal-tls
  readOnly: true
{{- end }}
{{- end -}}

{{- define "payment-rescue.volumes" -}}
- name: tmp
  emptyDir: {}
{{- if .Values.temporal.tls.enabled }}
- name: temporal-tls
  secret:
    secretName: {{ required "temporal.tls.secretName is required when temporal.tls.enabled" .Values.temporal.tls.secretName }}
{{- end }}
{{- end -}}

{{/* Worker Versioning: the deployment name (default: the release's full name) and this build's id (default: the image tag). */}}
{{- define "payment-rescue.workerDeploymentName" -}}
{{- .Values.worker.versioning.deploymentName | default (include "payment-rescue.fullname" .) -}}
{{- end -}}

{{- define "payment-rescue.workerBuildId" -}}
{{- .Values.worker.versioning.buildId | default .Values.image.tag | default .Chart.AppVersion -}}
{{- end -}}
