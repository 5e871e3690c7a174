package dev.backplane.plugins.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.backplane.plugin.api.ConnectorException;
import dev.backplane.plugin.api.ErrorCode;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

/** Kubeconfigs are data: plugins, files and malformed documents are refused with a clear reason. */
class KubeconfigTest {

    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    private static String config(String user, String cluster) {
        return """
                apiVersion: v1
                kind: Config
                current-context: c
                clusters:
                - name: k
                  cluster:
                    server: https://10.0.0.1:6443
                %s
                users:
                - name: u
                  user:
                %s
                contexts:
                - name: c
                  context: {cluster: k, user: u}
                """.formatted(cluster, user);
    }

    private static String refusal(String document) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> Kubeconfig.parse(document, YAML));
        assertThat(t).isInstanceOf(ConnectorException.class);
        assertThat(((ConnectorException) t).code()).isEqualTo(ErrorCode.CONNECTOR_ERROR);
        return t.getMessage();
    }

    @Test
    void aTokenKubeconfigParsesAndNeverPrintsTheToken() {
        Kubeconfig k = Kubeconfig.parse(config("    token: s3cr3t-token-value", ""), YAML);
        assertThat(k.token()).hasValue("s3cr3t-token-value");
        assertThat(k.clusterCas()).isEmpty();
        assertThat(k.toString()).doesNotContain("s3cr3t").contains("token");
    }

    @Test
    void programsAndFilesAreRefused() {
        assertThat(refusal(config("    exec:\n      command: /bin/sh\n      apiVersion: client.authentication.k8s.io/v1", "")))
                .contains("exec credential plugin");
        assertThat(refusal(config("    auth-provider:\n      name: oidc", ""))).contains("auth-provider");
        assertThat(refusal(config("    tokenFile: /etc/passwd", ""))).contains("refers to files");
        assertThat(refusal(config("    client-certificate: /etc/cert.pem\n    client-key: /etc/key.pem", "")))
                .contains("refers to files");
        assertThat(refusal(config("    token: t", "    certificate-authority: /etc/ca.pem"))).contains("refers to files");
    }

    @Test
    void malformedOrIncompleteDocumentsAreRefused() {
        assertThat(refusal("")).contains("empty");
        assertThat(refusal("{not yaml: [")).contains("not a kubeconfig");
        assertThat(refusal(config("    username: \"\"", ""))).contains("no credential");
        assertThat(refusal(config("    client-certificate-data: aGVsbG8=", ""))).contains("go together");
        assertThat(refusal(config("    token: t", "    certificate-authority-data: '!!!'"))).contains("not base64");
        assertThat(refusal(config("    token: t", "    certificate-authority-data: aGVsbG8="))).contains("not a PEM");
        assertThat(refusal(config("    token: t", "").replace("current-context: c", "current-context: other")))
                .contains("current-context 'other'");
        assertThatThrownBy(() -> Kubeconfig.parse(config("    token: t", "").replace("user: u}", "user: ghost}"), YAML))
                .hasMessageContaining("user 'ghost'");
    }

    @Test
    void distributionsAreRecognisedFromTheVersion() {
        assertThat(K8sSession.distribution("v1.31.4+k3s1")).containsExactly("SUSE Rancher", "k3s");
        assertThat(K8sSession.distribution("v1.30.5-eks-ce1d5eb")).containsExactly("Amazon", "eks");
        assertThat(K8sSession.distribution("v1.30.5-gke.1014001")).containsExactly("Google", "gke");
        assertThat(K8sSession.distribution("v1.32.0")).containsExactly("CNCF", "kubernetes");
        assertThat(K8sSession.seconds("10m")).isEqualTo(600);
        assertThat(K8sSession.seconds("2d")).isEqualTo(172800);
    }
}
