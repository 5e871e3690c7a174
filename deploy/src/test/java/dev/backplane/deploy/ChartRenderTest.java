package dev.backplane.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.backplane.kernel.app.Setting;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The chart rendered by Helm's engine for each value set (src/test/resources/values): what every object must be. */
class ChartRenderTest {

    static Stream<String> valueSets() {
        return Chart.VALUE_SETS.stream();
    }

    /** Every variable the kernel reads: each setting's variable, SPEC's alias, and the _FILE variant of a secret. */
    static final Set<String> KERNEL_VARIABLES = Arrays.stream(Setting.values())
            .flatMap(s -> Stream.of(Stream.of(s.envVar()), s.specEnvVar().stream(), s.fileEnvVar().stream()).flatMap(x -> x))
            .collect(Collectors.toCollection(TreeSet::new));

    /** Settings every replica (and the migration Job, where it sets them) must agree on. */
    static final Set<String> DATABASE = Set.of("SVC_DB_URL", "SVC_DB_USER", "SVC_DB_PASSWORD_FILE");

    record Rendered(String text, List<JsonNode> docs, List<HasMetadata> objects) {
        <T extends HasMetadata> List<T> all(Class<T> type) {
            return objects.stream().filter(type::isInstance).map(type::cast).toList();
        }

        <T extends HasMetadata> T one(Class<T> type) {
            List<T> all = all(type);
            assertThat(all).as("exactly one " + type.getSimpleName()).hasSize(1);
            return all.getFirst();
        }
    }

    static Rendered rendered(String set) {
        String text = Chart.render(set);
        List<JsonNode> docs = Chart.documents(text);
        List<HasMetadata> objects = docs.stream().filter(d -> !d.path("apiVersion").asText().startsWith("monitoring.coreos.com"))
                .map(K8s::parse).toList();
        return new Rendered(text, docs, objects);
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void helmLintStrictPasses(String set) {
        var lint = Chart.lintStrict(set);
        assertThat(lint.isFailed()).as("helm lint --strict with %s: %s", set, lint.getMessages()).isFalse();
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void theRenderedOutputIsTheGoldenFile(String set) throws IOException {
        String text = Chart.render(set);
        Path golden = Chart.GOLDEN.resolve(set + ".yaml");
        if (Chart.updateGolden()) {
            Files.writeString(golden, text, StandardCharsets.UTF_8);
        }
        assertThat(golden).as("golden file (regenerate: -Dgolden.update=true)").exists();
        assertThat(text).as("%s rendered differs from %s (if intended: -Dgolden.update=true, review the diff)", set,
                golden).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void everyObjectIsAKubernetesObjectWithNoUnknownField(String set) {
        Rendered r = rendered(set);
        assertThat(r.objects()).isNotEmpty();
        for (HasMetadata o : r.objects()) {
            assertThat(K8s.unknownFields(o)).as("%s %s", o.getKind(), o.getMetadata().getName()).isEmpty();
            assertThat(o.getMetadata().getName()).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?").hasSizeLessThanOrEqualTo(63);
            assertThat(o.getMetadata().getLabels()).containsEntry("app.kubernetes.io/instance", Chart.RELEASE);
        }
        for (PodSpec spec : podSpecs(r).values()) {
            for (Container c : containers(spec)) {
                assertThat(c.getName()).isNotBlank();
                assertThat(c.getImage()).as(c.getName()).isNotBlank().doesNotEndWith(":");
                c.getPorts().forEach(p -> assertThat(p.getContainerPort()).isBetween(1, 65535));
                for (VolumeMount m : c.getVolumeMounts()) {
                    assertThat(spec.getVolumes()).as("volume of mount %s in %s", m.getName(), c.getName())
                            .anyMatch(v -> v.getName().equals(m.getName()));
                }
            }
        }
        // every named port a Service targets is a port of the pods it selects
        Set<String> podPorts = r.one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().stream()
                .flatMap(c -> c.getPorts().stream()).map(p -> p.getName()).collect(Collectors.toSet());
        for (Service s : r.all(Service.class)) {
            s.getSpec().getPorts().forEach(p -> assertThat(podPorts).contains(p.getTargetPort().getStrVal()));
        }
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void everyPodRunsLockedDown(String set) {
        Rendered r = rendered(set);
        Map<String, PodSpec> pods = podSpecs(r);
        assertThat(pods.keySet()).as("one pod template per workload: the Deployment, the migration Job, the test pod")
                .containsExactlyInAnyOrder("Deployment/svc-svc-backplane", "Job/svc-svc-backplane-migrate",
                        "Pod/svc-svc-backplane-test");
        pods.forEach((name, spec) -> {
            assertThat(spec.getAutomountServiceAccountToken()).as(name).isFalse();
            var psc = spec.getSecurityContext();
            assertThat(psc).as(name).isNotNull();
            assertThat(psc.getRunAsNonRoot()).as(name).isTrue();
            assertThat(psc.getRunAsUser()).as(name).isEqualTo(10001L);
            assertThat(psc.getRunAsGroup()).as(name).isEqualTo(10001L);
            assertThat(psc.getSeccompProfile().getType()).as(name).isEqualTo("RuntimeDefault");
            for (Container c : containers(spec)) {
                SecurityContext sc = c.getSecurityContext();
                String what = name + " container " + c.getName();
                assertThat(sc).as(what).isNotNull();
                assertThat(sc.getRunAsNonRoot()).as(what).isTrue();
                assertThat(sc.getReadOnlyRootFilesystem()).as(what).isTrue();
                assertThat(sc.getAllowPrivilegeEscalation()).as(what).isFalse();
                assertThat(sc.getCapabilities().getDrop()).as(what).containsExactly("ALL");
                assertThat(sc.getCapabilities().getAdd()).as(what).isNullOrEmpty();
                assertThat(sc.getSeccompProfile().getType()).as(what).isEqualTo("RuntimeDefault");
                assertThat(c.getResources().getLimits()).as(what + " memory limit").containsKey("memory");
            }
        });
        // the kernel and the migration write only to emptyDirs on /tmp and /var/lib/svc
        for (String name : List.of("Deployment/svc-svc-backplane", "Job/svc-svc-backplane-migrate")) {
            PodSpec spec = pods.get(name);
            Container main = spec.getContainers().getFirst();
            for (String path : List.of("/tmp", "/var/lib/svc")) {
                VolumeMount m = main.getVolumeMounts().stream().filter(v -> v.getMountPath().equals(path)).findFirst()
                        .orElseThrow(() -> new AssertionError(name + " mounts nothing on " + path));
                assertThat(volume(spec, m.getName()).getEmptyDir()).as(name + " " + path).isNotNull();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void everySvcVariableIsAKernelSettingAndSecretsAreFiles(String set) {
        Rendered r = rendered(set);
        List<String> unknown = new ArrayList<>();
        podSpecs(r).forEach((name, spec) -> {
            for (Container c : containers(spec)) {
                assertThat(c.getEnvFrom()).as("%s %s: envFrom cannot be checked against the settings", name, c.getName())
                        .isNullOrEmpty();
                for (EnvVar e : c.getEnv()) {
                    if (e.getName().equals("JDK_JAVA_OPTIONS")) {
                        continue;
                    }
                    if (!KERNEL_VARIABLES.contains(e.getName())) {
                        unknown.add(name + " " + c.getName() + ": " + e.getName());
                    }
                    // a secret setting reaches the pod only as a file
                    Arrays.stream(Setting.values()).filter(s -> s.definition().secret())
                            .forEach(s -> assertThat(e.getName()).as("secret " + s.key() + " as a literal").isNotEqualTo(s.envVar()));
                    if (e.getValueFrom() != null) {
                        assertThat(e.getName()).as("only the database user may come from a secretKeyRef").isEqualTo("SVC_DB_USER");
                    }
                }
            }
        });
        assertThat(unknown).as("variables no kernel Setting declares").isEmpty();
        // a secret setting's _FILE names a file mounted from a Secret (or a projected token)
        PodSpec app = r.one(Deployment.class).getSpec().getTemplate().getSpec();
        Container kernel = app.getContainers().getFirst();
        for (EnvVar e : kernel.getEnv()) {
            if (e.getName().endsWith("_FILE") && KERNEL_VARIABLES.contains(e.getName())) {
                Volume v = volumeOfFile(app, kernel, e.getValue());
                assertThat(v.getSecret() != null || v.getProjected() != null).as(e.getName() + " from a Secret").isTrue();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void theMigrationJobIsABlockingHookThatAgreesWithTheReplicasOnTheDatabase(String set) {
        Rendered r = rendered(set);
        Deployment d = r.one(Deployment.class);
        Job job = r.one(Job.class);
        var ann = job.getMetadata().getAnnotations();
        assertThat(ann.get("helm.sh/hook").split(",")).containsExactlyInAnyOrder("pre-install", "pre-upgrade");
        assertThat(ann.get("helm.sh/hook-delete-policy").split(","))
                .containsExactlyInAnyOrder("before-hook-creation", "hook-succeeded");
        assertThat(job.getSpec().getBackoffLimit()).isNotNull();
        assertThat(job.getSpec().getActiveDeadlineSeconds()).isPositive();
        PodSpec jobPod = job.getSpec().getTemplate().getSpec();
        assertThat(jobPod.getRestartPolicy()).isEqualTo("Never");
        Container migrate = jobPod.getContainers().getFirst();
        assertThat(migrate.getArgs()).containsExactly("migrate");
        assertThat(migrate.getCommand()).as("the image's entrypoint runs it").isNullOrEmpty();
        PodSpec appPod = d.getSpec().getTemplate().getSpec();
        Container kernel = appPod.getContainers().getFirst();
        assertThat(migrate.getImage()).isEqualTo(kernel.getImage());
        assertThat(env(kernel)).containsEntry("SVC_DB_MIGRATE_ON_START", new EnvVar("SVC_DB_MIGRATE_ON_START", "false", null));

        // the same database, user and password secret
        Map<String, EnvVar> je = env(migrate);
        Map<String, EnvVar> de = env(kernel);
        assertThat(je.keySet()).containsAll(DATABASE);
        assertThat(de.keySet()).containsAll(DATABASE);
        for (String name : je.keySet()) {
            if (de.containsKey(name)) {
                assertThat(je.get(name)).as(name + " in the Job and the Deployment").isEqualTo(de.get(name));
            }
        }
        String pw = de.get("SVC_DB_PASSWORD_FILE").getValue();
        assertThat(volumeOfFile(jobPod, migrate, pw).getSecret())
                .isEqualTo(volumeOfFile(appPod, kernel, pw).getSecret()).isNotNull();

        // a pre-install hook runs before the release's other objects exist: it may use none of them
        Set<String> releaseObjects = r.objects().stream().filter(o -> !(o instanceof Job) && !(o instanceof Pod))
                .map(o -> o.getKind() + "/" + o.getMetadata().getName()).collect(Collectors.toSet());
        List<String> used = new ArrayList<>();
        if (jobPod.getServiceAccountName() != null) {
            used.add("ServiceAccount/" + jobPod.getServiceAccountName());
        }
        for (Volume v : jobPod.getVolumes()) {
            if (v.getConfigMap() != null) {
                used.add("ConfigMap/" + v.getConfigMap().getName());
            }
            if (v.getSecret() != null) {
                used.add("Secret/" + v.getSecret().getSecretName());
            }
        }
        assertThat(used).as("objects of the release the hook Job uses").doesNotContainAnyElementsOf(releaseObjects);
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void probesAndShutdownFitTheKernel(String set) {
        Rendered r = rendered(set);
        PodSpec spec = r.one(Deployment.class).getSpec().getTemplate().getSpec();
        Container kernel = spec.getContainers().getFirst();
        Map<String, EnvVar> env = env(kernel);
        assertThat(env.get("SVC_SERVER_MANAGEMENT_PORT").getValue()).isEqualTo("9090");
        assertThat(env.get("SVC_SERVER_HOST").getValue()).as("listen on the pod's address").isEqualTo("0.0.0.0");
        int management = kernel.getPorts().stream().filter(p -> p.getName().equals("management")).findFirst()
                .orElseThrow().getContainerPort();
        assertThat(management).isEqualTo(9090);
        assertProbe(kernel.getLivenessProbe(), "/health/live");
        assertProbe(kernel.getReadinessProbe(), "/health/ready");
        assertProbe(kernel.getStartupProbe(), "/health/live");
        long delay = Long.parseLong(env.get("SVC_SERVER_SHUTDOWN_DELAY_SECONDS").getValue());
        long drain = Long.parseLong(env.get("SVC_SERVER_SHUTDOWN_DRAIN_SECONDS").getValue());
        assertThat(spec.getTerminationGracePeriodSeconds()).isGreaterThanOrEqualTo(delay + drain + 5);
        assertThat(kernel.getLifecycle()).as("no preStop: the kernel delays itself").isNull();
        Service mgmt = r.all(Service.class).stream().filter(s -> s.getMetadata().getName().endsWith("-management"))
                .findFirst().orElseThrow();
        assertThat(mgmt.getSpec().getPorts()).singleElement()
                .satisfies(p -> assertThat(p.getTargetPort().getStrVal()).isEqualTo("management"));
        Service api = r.all(Service.class).stream().filter(s -> !s.getMetadata().getName().endsWith("-management"))
                .findFirst().orElseThrow();
        assertThat(api.getSpec().getPorts()).singleElement()
                .satisfies(p -> assertThat(p.getTargetPort().getStrVal()).isEqualTo("http"));
    }

    @ParameterizedTest
    @MethodSource("valueSets")
    void theHelmTestPodProbesReadinessAndTheIssuerWithTheChartTool(String set) throws IOException {
        Rendered r = rendered(set);
        Pod test = r.one(Pod.class);
        assertThat(test.getMetadata().getAnnotations()).containsEntry("helm.sh/hook", "test");
        Container probe = test.getSpec().getContainers().getFirst();
        Container kernel = r.one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().getFirst();
        assertThat(probe.getImage()).as("the kernel image itself").isEqualTo(kernel.getImage());
        Service mgmt = r.all(Service.class).stream().filter(s -> s.getMetadata().getName().endsWith("-management"))
                .findFirst().orElseThrow();
        assertThat(probe.getCommand()).containsExactly("/opt/svc/java/bin/java", "-cp", "/opt/svc-tool", "ChartTool",
                "probe", "http://" + mgmt.getMetadata().getName() + ":" + mgmt.getSpec().getPorts().getFirst().getPort()
                        + "/health/ready", env(kernel).get("SVC_IDENTITY_ISSUER").getValue());
        Volume tool = volume(test.getSpec(), "chart-tool");
        ConfigMap cm = r.all(ConfigMap.class).stream()
                .filter(c -> c.getMetadata().getName().equals(tool.getConfigMap().getName())).findFirst().orElseThrow();
        assertThat(Base64.getDecoder().decode(cm.getBinaryData().get("ChartTool.class")))
                .isEqualTo(Files.readAllBytes(Chart.DIR.resolve("files/ChartTool.class")));
    }

    static void assertProbe(Probe p, String path) {
        assertThat(p).as(path).isNotNull();
        assertThat(p.getHttpGet().getPath()).isEqualTo(path);
        assertThat(p.getHttpGet().getPort().getStrVal()).as("on the management port").isEqualTo("management");
    }

    static Map<String, PodSpec> podSpecs(Rendered r) {
        Map<String, PodSpec> out = new LinkedHashMap<>();
        for (HasMetadata o : r.objects()) {
            String key = o.getKind() + "/" + o.getMetadata().getName();
            if (o instanceof Deployment d) {
                out.put(key, d.getSpec().getTemplate().getSpec());
            } else if (o instanceof Job j) {
                out.put(key, j.getSpec().getTemplate().getSpec());
            } else if (o instanceof Pod p) {
                out.put(key, p.getSpec());
            }
        }
        return out;
    }

    static List<Container> containers(PodSpec spec) {
        List<Container> out = new ArrayList<>(spec.getInitContainers());
        out.addAll(spec.getContainers());
        return out;
    }

    static Map<String, EnvVar> env(Container c) {
        Map<String, EnvVar> out = new LinkedHashMap<>();
        for (EnvVar e : c.getEnv()) {
            assertThat(out.put(e.getName(), e)).as("%s set twice in %s", e.getName(), c.getName()).isNull();
        }
        return out;
    }

    static Volume volume(PodSpec spec, String name) {
        return spec.getVolumes().stream().filter(v -> v.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + name));
    }

    /** The volume a file path of a container lies on. */
    static Volume volumeOfFile(PodSpec spec, Container c, String file) {
        VolumeMount m = c.getVolumeMounts().stream().filter(v -> file.startsWith(v.getMountPath() + "/")).findFirst()
                .orElseThrow(() -> new AssertionError(file + " is on no volume of " + c.getName()));
        return volume(spec, m.getName());
    }
}
