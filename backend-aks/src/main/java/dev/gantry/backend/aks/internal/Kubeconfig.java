package dev.gantry.backend.aks.internal;

import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigProblems;
import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the cluster is and who Gantry is there: the kubeconfig files and the context, found as kubectl finds them
 * (the {@code kubeconfig} setting, else {@code KUBECONFIG}, else {@code ~/.kube/config}; inside a pod without any,
 * the pod's own account) and checked without contacting anything: the files exist and parse, and the context is one
 * of theirs.
 *
 * @param files the kubeconfig files, merged in this order as kubectl merges them; empty: the in-cluster account
 * @param context the context to use; empty: the files' current context (or the in-cluster account)
 * @param insecureClusters the clusters of the chosen context that set {@code insecure-skip-tls-verify}
 */
public record Kubeconfig(List<Path> files, Optional<String> context, List<String> insecureClusters) {
    static final String KUBECONFIG = "kubeconfig";
    static final String CONTEXT = "context";

    public Kubeconfig {
        files = List.copyOf(files);
        Objects.requireNonNull(context, "context");
        insecureClusters = List.copyOf(insecureClusters);
    }

    /** The in-cluster account of a pod: no files, no context. */
    public boolean inCluster() {
        return files.isEmpty();
    }

    /**
     * What the process's environment says about kubeconfigs.
     *
     * @param variable the {@code KUBECONFIG} variable, when set
     * @param home the user's home directory
     * @param inPod whether the process runs in a pod ({@code KUBERNETES_SERVICE_HOST} is set)
     */
    public record Environment(Optional<String> variable, Path home, boolean inPod) {
        public Environment {
            Objects.requireNonNull(variable, "variable");
            Objects.requireNonNull(home, "home");
        }

        public static Environment current() {
            return new Environment(Optional.ofNullable(System.getenv("KUBECONFIG")).filter(v -> !v.isBlank()),
                    Path.of(System.getProperty("user.home")), System.getenv("KUBERNETES_SERVICE_HOST") != null);
        }
    }

    static Kubeconfig bind(BackendConfig config, Environment environment, ConfigProblems problems) {
        Optional<List<Path>> files = locate(config, environment, problems);
        Optional<String> context = config.get(CONTEXT).map(String::strip).filter(v -> !v.isEmpty());
        if (files.isEmpty()) {
            return new Kubeconfig(List.of(), context, List.of());
        }
        List<Config> parsed = new ArrayList<>();
        for (Path file : files.get()) {
            try {
                parsed.add(KubeConfigUtils.parseConfig(file.toFile()));
            } catch (RuntimeException e) {
                problems.add(KUBECONFIG, file + " is not a kubeconfig file (" + firstLine(e) + "); give the file az "
                        + "aks get-credentials writes");
                return new Kubeconfig(files.get(), context, List.of());
            }
        }
        Map<String, NamedContext> contexts = new LinkedHashMap<>();
        parsed.forEach(c -> listed(c.getContexts()).forEach(n -> contexts.putIfAbsent(n.getName(), n)));
        String shown = files.get().size() == 1 ? files.get().get(0).toString() : "the kubeconfig files "
                + files.get();
        Optional<String> chosen = context.or(() -> parsed.stream().map(Config::getCurrentContext)
                .filter(c -> c != null && !c.isBlank()).findFirst());
        if (chosen.isEmpty()) {
            problems.add(CONTEXT, "is not set and " + shown + " names no current context; set it to one of "
                    + listing(contexts.keySet(), ""));
            return new Kubeconfig(files.get(), context, List.of());
        }
        NamedContext named = contexts.get(chosen.get());
        if (named == null) {
            String key = context.isPresent() ? CONTEXT : KUBECONFIG;
            problems.add(key, "'" + chosen.get() + "' is not a context of " + shown + "; it has "
                    + listing(contexts.keySet(), chosen.get()) + " (kubectl config get-contexts lists them)");
            return new Kubeconfig(files.get(), context, List.of());
        }
        return new Kubeconfig(files.get(), context, insecureClusters(parsed, named));
    }

    /** The files to read, or empty for the in-cluster account; a problem when the setting names no file. */
    private static Optional<List<Path>> locate(BackendConfig config, Environment environment,
                                               ConfigProblems problems) {
        Optional<String> given = config.get(KUBECONFIG).map(String::strip).filter(v -> !v.isEmpty());
        if (given.isPresent()) {
            Path file = expandHome(given.get(), environment.home());
            if (!Files.isRegularFile(file)) {
                problems.add(KUBECONFIG, "'" + given.get() + "' does not exist" + (given.get().equals(file.toString())
                        ? "" : " (" + file + ")") + "; give the file az aks get-credentials writes (~/.kube/config), "
                        + "or remove the setting to use KUBECONFIG or ~/.kube/config");
                return Optional.empty();
            }
            return Optional.of(List.of(file));
        }
        if (environment.variable().isPresent()) {
            List<Path> files = new ArrayList<>();
            for (String part : environment.variable().get().split(File.pathSeparator)) {
                if (!part.isBlank() && Files.isRegularFile(expandHome(part.strip(), environment.home()))) {
                    files.add(expandHome(part.strip(), environment.home()));
                }
            }
            if (!files.isEmpty()) {
                return Optional.of(files);
            }
        }
        Path standard = environment.home().resolve(".kube").resolve("config");
        if (Files.isRegularFile(standard)) {
            return Optional.of(List.of(standard));
        }
        if (!environment.inPod()) {
            problems.add(KUBECONFIG, "is not set, and neither is a kubeconfig found: KUBECONFIG is "
                    + environment.variable().map(v -> "'" + v + "', naming no file that exists").orElse("not set")
                    + " and " + standard + " does not exist; run az aks get-credentials, or set kubeconfig to the "
                    + "cluster's kubeconfig file");
        }
        return Optional.empty();
    }

    private static List<String> insecureClusters(List<Config> parsed, NamedContext context) {
        String cluster = context.getContext() == null ? null : context.getContext().getCluster();
        List<String> insecure = new ArrayList<>();
        parsed.stream().flatMap(c -> listed(c.getClusters()).stream())
                .filter(n -> Objects.equals(n.getName(), cluster)).findFirst()
                .filter(n -> n.getCluster() != null && Boolean.TRUE.equals(n.getCluster().getInsecureSkipTlsVerify()))
                .map(NamedCluster::getName).ifPresent(insecure::add);
        return insecure;
    }

    /** The names, nearest to {@code wanted} first (fewest edits, then as listed; as listed when nothing is wanted). */
    static String listing(java.util.Collection<String> names, String wanted) {
        if (names.isEmpty()) {
            return "no contexts at all";
        }
        List<String> ordered = new ArrayList<>(names);
        if (wanted.isEmpty()) {
            return String.join(", ", ordered);
        }
        ordered.sort(Comparator.comparingInt(name -> edits(wanted.toLowerCase(Locale.ROOT),
                name.toLowerCase(Locale.ROOT))));
        return String.join(", ", ordered);
    }

    /** Levenshtein distance: how many single-character edits turn one name into the other. */
    private static int edits(String a, String b) {
        int[] previous = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int[] current = new int[b.length() + 1];
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            previous = current;
        }
        return previous[b.length()];
    }

    private static <T> List<T> listed(List<T> values) {
        return values == null ? List.of() : values;
    }

    private static Path expandHome(String path, Path home) {
        return path.equals("~") ? home : path.startsWith("~/") ? home.resolve(path.substring(2)) : Path.of(path);
    }

    private static String firstLine(RuntimeException e) {
        String message = String.valueOf(e.getCause() != null && e.getMessage() == null ? e.getCause().getMessage()
                : e.getMessage());
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
