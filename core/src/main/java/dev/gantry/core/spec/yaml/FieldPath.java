package dev.gantry.core.spec.yaml;

/** Field paths as problems print them: {@code resources.gpus}, {@code command[0]}, {@code env.EPOCHS}. */
public final class FieldPath {
    private FieldPath() {
    }

    public static String join(String parent, String key) {
        return parent.isEmpty() ? key : parent + "." + key;
    }

    public static String index(String parent, int index) {
        return parent + "[" + index + "]";
    }

    /** The path one level up: {@code resources} for {@code resources.gpus}, {@code command} for {@code command[0]}. */
    public static String parent(String path) {
        int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
        return cut <= 0 ? "" : path.substring(0, cut);
    }
}
