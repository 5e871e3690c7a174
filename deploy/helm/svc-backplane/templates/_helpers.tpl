{{/* The release's full name (release name, unless it already contains the chart's name). */}}
{{- define "svc.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "svc.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "svc.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{ include "svc.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "svc.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "svc.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "svc.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "svc.managementServiceName" -}}
{{- printf "%s-management" (include "svc.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The pod security context and the container security context every pod of the chart uses. */}}
{{- define "svc.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
fsGroup: 10001
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "svc.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: 10001
runAsGroup: 10001
readOnlyRootFilesystem: true
allowPrivilegeEscalation: false
capabilities:
  drop: [ALL]
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/*
The database settings. Used verbatim by the Deployment and the migration Job, so both reach the same database
as the same user (DeployChartTest checks they agree).
*/}}
{{- define "svc.databaseEnv" -}}
- name: SVC_DB_URL
  value: {{ .Values.database.url | quote }}
{{- if .Values.database.userSecret.name }}
- name: SVC_DB_USER
  valueFrom:
    secretKeyRef:
      name: {{ .Values.database.userSecret.name }}
      key: {{ .Values.database.userSecret.key }}
{{- else }}
- name: SVC_DB_USER
  value: {{ .Values.database.user | quote }}
{{- end }}
- name: SVC_DB_PASSWORD_FILE
  value: /var/run/secrets/svc/db/password
- name: SVC_DB_POOL_SIZE
  value: {{ .Values.database.poolSize | quote }}
- name: SVC_DATA_DIR
  value: /var/lib/svc
- name: SVC_LOG_FORMAT
  value: {{ .Values.log.format | quote }}
- name: SVC_LOG_LEVEL
  value: {{ .Values.log.level | quote }}
{{- if .Values.caBundle.configMap }}
- name: SVC_TLS_CA_BUNDLE
  value: /etc/svc/ca/{{ .Values.caBundle.key }}
{{- end }}
{{- end -}}

{{- define "svc.databaseVolume" -}}
- name: db-password
  secret:
    secretName: {{ .Values.database.passwordSecret.name }}
    defaultMode: 0440
    items:
      - key: {{ .Values.database.passwordSecret.key }}
        path: password
{{- end -}}

{{- define "svc.caVolume" -}}
{{- if .Values.caBundle.configMap }}
- name: ca-bundle
  configMap:
    name: {{ .Values.caBundle.configMap }}
    items:
      - key: {{ .Values.caBundle.key }}
        path: {{ .Values.caBundle.key }}
{{- end }}
{{- end -}}

{{- define "svc.caMount" -}}
{{- if .Values.caBundle.configMap }}
- name: ca-bundle
  mountPath: /etc/svc/ca
  readOnly: true
{{- end }}
{{- end -}}

{{/* The settings every replica must share (beyond the database's): identity, the secret store, URLs, SSRF. */}}
{{- define "svc.sharedEnv" -}}
- name: SVC_PUBLIC_URL
  value: {{ .Values.publicUrl | quote }}
- name: SVC_IDENTITY_ISSUER
  value: {{ .Values.identity.issuer | quote }}
- name: SVC_IDENTITY_AUDIENCE
  value: {{ .Values.identity.audience | quote }}
{{- with .Values.identity.mcpAudience }}
- name: SVC_IDENTITY_MCP_AUDIENCE
  value: {{ . | quote }}
{{- end }}
{{- with .Values.identity.jwksUrl }}
- name: SVC_IDENTITY_JWKS_URL
  value: {{ . | quote }}
{{- end }}
- name: SVC_CREDENTIALS_BACKEND
  value: kv
- name: SVC_VAULT_ADDR
  value: {{ .Values.vault.address | quote }}
- name: SVC_VAULT_MOUNT
  value: {{ .Values.vault.mount | quote }}
{{- with .Values.vault.namespace }}
- name: SVC_VAULT_NAMESPACE
  value: {{ . | quote }}
{{- end }}
- name: SVC_VAULT_AUTH_METHOD
  value: {{ .Values.vault.authMethod | quote }}
{{- if eq .Values.vault.authMethod "token" }}
- name: SVC_VAULT_TOKEN_FILE
  value: /var/run/secrets/svc/vault/token
{{- else if eq .Values.vault.authMethod "approle" }}
- name: SVC_VAULT_ROLE_ID
  value: {{ .Values.vault.approle.roleId | quote }}
- name: SVC_VAULT_SECRET_ID_FILE
  value: /var/run/secrets/svc/vault/secret-id
{{- else }}
- name: SVC_VAULT_KUBERNETES_ROLE
  value: {{ .Values.vault.kubernetes.role | quote }}
- name: SVC_VAULT_KUBERNETES_MOUNT
  value: {{ .Values.vault.kubernetes.mount | quote }}
- name: SVC_VAULT_KUBERNETES_TOKEN_FILE
  value: /var/run/secrets/svc/vault-sa/token
{{- end }}
- name: SVC_TARGET_SSRF_ALLOWLIST
  value: {{ join "," .Values.targets.ssrfAllowlist | quote }}
{{- end -}}

{{- define "svc.vaultVolume" -}}
{{- if eq .Values.vault.authMethod "token" }}
- name: vault-credentials
  secret:
    secretName: {{ .Values.vault.tokenSecret.name }}
    defaultMode: 0440
    items:
      - key: {{ .Values.vault.tokenSecret.key }}
        path: token
{{- else if eq .Values.vault.authMethod "approle" }}
- name: vault-credentials
  secret:
    secretName: {{ .Values.vault.approle.secretIdSecret.name }}
    defaultMode: 0440
    items:
      - key: {{ .Values.vault.approle.secretIdSecret.key }}
        path: secret-id
{{- else }}
- name: vault-sa-token
  projected:
    defaultMode: 0440
    sources:
      - serviceAccountToken:
          audience: {{ .Values.vault.kubernetes.tokenAudience | quote }}
          expirationSeconds: {{ .Values.vault.kubernetes.tokenExpirationSeconds }}
          path: token
{{- end }}
{{- end -}}

{{- define "svc.vaultMount" -}}
{{- if eq .Values.vault.authMethod "kubernetes" }}
- name: vault-sa-token
  mountPath: /var/run/secrets/svc/vault-sa
  readOnly: true
{{- else }}
- name: vault-credentials
  mountPath: /var/run/secrets/svc/vault
  readOnly: true
{{- end }}
{{- end -}}

{{/* The selector of the kernel's management scrape job in PromQL (the ServiceMonitor's job is the Service's name). */}}
{{- define "svc.promSelector" -}}
job="{{ include "svc.managementServiceName" . }}", namespace="{{ .Release.Namespace }}"
{{- end -}}

{{/* Replicas that should be up: the HPA's floor, else replicaCount. */}}
{{- define "svc.expectedReplicas" -}}
{{- if .Values.autoscaling.enabled -}}{{ .Values.autoscaling.minReplicas }}{{- else -}}{{ .Values.replicaCount }}{{- end -}}
{{- end -}}
